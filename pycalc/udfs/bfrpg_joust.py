"""Basic Fantasy jousting as worksheet functions (xlwings), over ``pycalc.rulesets.bfrpg_joust``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import bfrpg_joust
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import as_int, cell_safe, optional_int

__all__ = ["bfrpg_joust_result", "bfrpg_joust_save_penalty"]


@xw.func
@xw.arg("damage", doc="damage dealt by the jousting hit")
@cell_safe
def bfrpg_joust_save_penalty(damage: Any) -> int:
    """Save penalty against being unhorsed: -1 per full 5 points of damage."""
    return bfrpg_joust.joust_save_penalty(bfrpg_rules(), as_int(damage, "DAMAGE", 0))


@xw.func
@xw.arg("damage", doc="damage dealt by the jousting hit")
@xw.arg("save_target", doc="save vs. Death Ray needed")
@xw.arg("str_bonus", doc="Strength bonus")
@xw.arg("roll", doc="the save d20 (optional: empty until rolled)")
@cell_safe
def bfrpg_joust_result(damage: Any, save_target: Any, str_bonus: Any, roll: Any = None) -> str:
    """Stays in the saddle, or unhorsed with falling damage, stun and knockout."""
    out = bfrpg_joust.joust_outputs(
        bfrpg_rules(),
        as_int(damage, "DAMAGE", 0),
        as_int(save_target, "SAVE"),
        as_int(str_bonus, "STR", 0),
        optional_int(roll, "ROLL"),
    )
    return str(out["JOUST_RESULT"])
