"""Castles & Crusades worksheet functions (xlwings) of its Other calculators: the hit point states
and the range bands (``pycalc.rulesets.cnc``).

The attack's functions are the shared ones (``pycalc.udfs.shared``: ``d20_need("cnc", ...)``,
``d20_damage``, ``d20_expected_damage``...), computed by the generic Attack calculator that cnc's
workbook uses. The subsystems' functions are in modules of their own: ``cnc_falling``,
``cnc_special_ac``, ``cnc_moves``, ``cnc_subdual``.

Same style as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text; nothing raises into a cell. Every function reads ``tables/cnc``
(with the rulings' defaults) each call, through the loader's cache.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.errors import RuleError
from pycalc.rulesets import cnc
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs.cells import arg_docs, as_int, as_text, cell_safe

__all__ = ["cnc_range_band", "cnc_range_modifier", "hp_state"]


def rules() -> RuleSet:
    return load_ruleset(cnc.RULESET_ID)


# --------------------------------------------------------------------------- hit points


@xw.func
@xw.arg("ruleset", doc="cnc")
@xw.arg("hp", doc="current hit points")
@cell_safe
def hp_state(ruleset: Any, hp: Any) -> str:
    """The state at that many hit points: able to act, passed out, ... dead."""
    name = as_text(ruleset, "RULESET").lower()
    if name != cnc.RULESET_ID:
        raise RuleError(f"#RULESET? {name} has no hit point states here; use cnc")
    return cnc.hp_state(rules(), as_int(hp, "HP"))


# --------------------------------------------------------------------------- range


RANGE_DOCS = arg_docs(
    ("increment", "the weapon's range increment in feet"), ("distance", "distance to the target in feet")
)


@xw.func
@RANGE_DOCS
@cell_safe
def cnc_range_band(increment: Any, distance: Any) -> str:
    """close, medium, long or out of range."""
    return cnc.range_band(rules(), as_int(increment, "INCREMENT"), as_int(distance, "DISTANCE"))


@xw.func
@RANGE_DOCS
@cell_safe
def cnc_range_modifier(increment: Any, distance: Any) -> int | str:
    """To-hit modifier for the range (0, -2, -6); empty out of range."""
    return cnc.range_modifier(rules(), as_int(increment, "INCREMENT"), as_int(distance, "DISTANCE"))
