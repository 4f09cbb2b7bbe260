"""17 Combat's missiles (shots in a number of rounds, scatter of a thrown weapon) as worksheet functions
(xlwings), over ``pycalc.rulesets.combat17_rate_of_fire`` and ``combat17_scatter`` (whose name its UDF has).

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.errors import RuleError
from pycalc.rulesets import combat17_rate_of_fire
from pycalc.rulesets import combat17_scatter as scatter  # the UDF combat17_scatter has its name
from pycalc.udfs.cells import as_int, as_text, cell_safe, optional_int
from pycalc.udfs.combat17 import rules

__all__ = ["combat17_scatter", "combat17_scatter_feet", "combat17_shots"]


@xw.func
@xw.arg("weapon", doc="a row of the rate of fire table, e.g. Light crossbow")
@xw.arg("rounds", doc="rounds of shooting")
@xw.arg("siege_rate", doc="siege weapon: fires once every N rounds (optional)")
@cell_safe
def combat17_shots(weapon: Any, rounds: Any, siege_rate: Any = None) -> int | str:
    """Shots fired in that many rounds."""
    return combat17_rate_of_fire.shots_fired(
        rules(), as_text(weapon, "WEAPON"), as_int(rounds, "ROUNDS", 0), optional_int(siege_rate, "RATE")
    )["ROF_SHOTS"]


def scattered(roll: Any) -> dict[str, Any]:
    """Where a missed grenade-like missile lands for that scatter roll (the calculator's cells)."""
    return scatter.scatter(rules(), False, as_int(roll, "SCATTER ROLL"))


@xw.func
@xw.arg("roll", doc="the 1d10 scatter roll")
@cell_safe
def combat17_scatter(roll: Any) -> str:
    """Where a missed grenade-like missile lands (direction)."""
    return scattered(roll)["GRENADE_LANDS"]


@xw.func
@xw.arg("roll", doc="the 1d10 scatter roll")
@xw.arg("axis", doc="toward (the thrower), right, or distance")
@cell_safe
def combat17_scatter_feet(roll: Any, axis: Any = "distance") -> int | str:
    """Feet from the target: toward the thrower, to the right, or the distance."""
    names = {"toward": "GRENADE_TOWARD_FT", "right": "GRENADE_RIGHT_FT", "distance": "GRENADE_DISTANCE_FT"}
    wanted = as_text(axis, "AXIS", "distance").lower()
    if wanted not in names:
        raise RuleError("#AXIS? use toward, right or distance")
    return scattered(roll)[names[wanted]]
