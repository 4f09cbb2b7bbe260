"""Basic Fantasy two-weapon fighting as a worksheet function (xlwings), over ``pycalc.rulesets.bfrpg_two_weapon``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import (
    bfrpg_two_weapon,
)
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import (
    as_choice,
    as_int,
    cell_safe,
)

__all__ = ["bfrpg_two_weapon_hit"]


@xw.func
@xw.arg("hand", doc="a Two-weapon combat row: primary_hand, off_hand, off_hand_only... (id or label)")
@xw.arg("dex_bonus", doc="the wielder's Dexterity bonus")
@cell_safe
def bfrpg_two_weapon_hit(hand: Any, dex_bonus: Any = 0) -> int:
    """Attack roll modifier with two weapons after DEX (never better than 0): -2 primary, -5 off hand."""
    rules = bfrpg_rules()
    row = rules.table("two_weapon_fighting").by_label(as_choice(rules, "two_weapon_fighting", hand))
    return bfrpg_two_weapon.two_weapon_hit(rules, row, as_int(dex_bonus, "DEX", 0))
