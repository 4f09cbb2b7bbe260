"""Basic Fantasy firing into melee as a worksheet function (xlwings), over ``pycalc.rulesets.bfrpg_firing``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import (
    bfrpg_firing,
)
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import (
    as_choice,
    as_int,
    cell_safe,
)

__all__ = ["bfrpg_firing_outcome"]


@xw.func
@xw.arg("shot", doc="a Firing into melee row (label or id)")
@xw.arg("bonus", doc="attack bonus with DEX")
@xw.arg("target", doc="target's AC")
@xw.arg("mods", doc="other modifiers")
@xw.arg("roll", doc="the d20")
@cell_safe
def bfrpg_firing_outcome(shot: Any, bonus: Any, target: Any, mods: Any, roll: Any) -> str:
    """Hit, Miss, or a near miss that hits the target's melee opponent."""
    rules = bfrpg_rules()
    out = bfrpg_firing.firing_outputs(
        rules,
        as_choice(rules, "firing_into_melee", shot),
        as_int(bonus, "BONUS", 0),
        as_int(target, "TARGET"),
        as_int(mods, "MODS", 0),
        as_int(roll, "ROLL"),
    )
    return str(out["FIRE_OUTCOME"])
