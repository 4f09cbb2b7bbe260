"""Surprise with a die for each side as worksheet functions (xlwings), for any ruleset whose encounter
block has ``surprise:`` (osr, bfrpg, the GM's own), over ``pycalc.surprise``."""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import surprise
from pycalc.errors import RuleError
from pycalc.tables import RuleSet
from pycalc.udfs.cells import as_int, cell_safe
from pycalc.udfs.shared import any_ruleset

__all__ = ["surprise_chance", "surprise_outcome", "surprise_range"]

RULESET = "a ruleset id with a surprise block: osr, bfrpg or your own"
SURPRISES_ON = "the side surprising: it surprises others on 1 to this (normally 2), or the row it picked"
SURPRISED_ON = "the side surprised: it is surprised on 1 to this against a normal approach (alert: 1)"


def surprise_rules(value: Any) -> RuleSet:
    rules = any_ruleset(value)
    if not surprise.has_surprise(rules):
        raise RuleError(f"#RULESET? {rules.id} has no surprise block")
    return rules


def top_face(rules: RuleSet, surprises_on: Any, surprised_on: Any) -> int:
    on = surprises_on if isinstance(surprises_on, str) else as_int(surprises_on, "SURPRISES ON")
    by = as_int(surprised_on, "SURPRISED ON")
    return surprise.pair_range(rules, surprise.Side(on, 0), surprise.Side(0, by))


@xw.func
@xw.arg("ruleset", doc=RULESET)
@xw.arg("surprises_on", doc=SURPRISES_ON)
@xw.arg("surprised_on", doc=SURPRISED_ON)
@cell_safe
def surprise_range(ruleset: Any, surprises_on: Any, surprised_on: Any) -> int:
    """The highest roll on which the first side surprises the second (osr: 1-5 against alert 1 -> 4)."""
    return top_face(surprise_rules(ruleset), surprises_on, surprised_on)


@xw.func
@xw.arg("ruleset", doc=RULESET)
@xw.arg("surprises_on", doc=SURPRISES_ON)
@xw.arg("surprised_on", doc=SURPRISED_ON)
@cell_safe
def surprise_chance(ruleset: Any, surprises_on: Any, surprised_on: Any) -> float:
    """Probability (0 to 1) that the first side surprises the second."""
    rules = surprise_rules(ruleset)
    return top_face(rules, surprises_on, surprised_on) / surprise.die(rules)


@xw.func
@xw.arg("ruleset", doc=RULESET)
@xw.arg("a_on_b", doc="A surprises B on 1 to this (surprise_range)")
@xw.arg("b_on_a", doc="B surprises A on 1 to this")
@xw.arg("roll_for_a", doc="the die rolled for A")
@xw.arg("roll_for_b", doc="the die rolled for B")
@cell_safe
def surprise_outcome(ruleset: Any, a_on_b: Any, b_on_a: Any, roll_for_a: Any, roll_for_b: Any) -> str:
    """Who is surprised, and what it means."""
    return surprise.outcome(
        surprise_rules(ruleset),
        as_int(a_on_b, "A ON B"),
        as_int(b_on_a, "B ON A"),
        as_int(roll_for_a, "ROLL FOR A"),
        as_int(roll_for_b, "ROLL FOR B"),
    )
