"""OSR surprise as worksheet functions (xlwings), over ``pycalc.rulesets.osr_surprise``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import (
    osr_surprise,
)
from pycalc.rulesets.osr import osr_rules
from pycalc.tables import RuleSet
from pycalc.udfs.cells import (
    as_int,
    cell_safe,
)

__all__ = ["osr_surprise_chance", "osr_surprise_outcome", "surprise_range"]


def surprise_top(rules: RuleSet, surprises_on: Any, surprised_on: Any) -> int:
    return osr_surprise.surprise_range(
        rules, as_int(surprises_on, "SURPRISES ON"), as_int(surprised_on, "SURPRISED ON")
    )


@xw.func
@xw.arg("surprises_on", doc="the first party surprises others on 1 to this (normally 2)")
@xw.arg("surprised_on", doc="the second party is normally surprised on 1 to this (normally 2)")
@cell_safe
def surprise_range(surprises_on: Any, surprised_on: Any) -> int:
    """Top d6 face on which the first party surprises the second (1-5 vs alert 1 -> 4)."""
    return surprise_top(osr_rules(), surprises_on, surprised_on)


@xw.func
@xw.arg("surprises_on", doc="the first party surprises others on 1 to this")
@xw.arg("surprised_on", doc="the second party is normally surprised on 1 to this")
@cell_safe
def osr_surprise_chance(surprises_on: Any, surprised_on: Any) -> float:
    """Probability (0 to 1) that the first party surprises the second."""
    rules = osr_rules()
    return float(osr_surprise.surprise_chance(rules, surprise_top(rules, surprises_on, surprised_on)))


@xw.func
@xw.arg("a_on_b", doc="A surprises B on 1 to this (surprise_range)")
@xw.arg("b_on_a", doc="B surprises A on 1 to this")
@xw.arg("roll_for_b", doc="the d6 rolled for B")
@xw.arg("roll_for_a", doc="the d6 rolled for A")
@cell_safe
def osr_surprise_outcome(a_on_b: Any, b_on_a: Any, roll_for_b: Any, roll_for_a: Any) -> str:
    """Who is surprised, and what it means."""
    return osr_surprise.surprise_outcome(
        osr_rules(),
        as_int(a_on_b, "A ON B"),
        as_int(b_on_a, "B ON A"),
        as_int(roll_for_b, "ROLL FOR B"),
        as_int(roll_for_a, "ROLL FOR A"),
    )
