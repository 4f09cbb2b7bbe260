"""Basic Fantasy attacks on a helpless target as a worksheet function (xlwings), over ``pycalc.rulesets.bfrpg_helpless``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import (
    bfrpg_helpless,
)
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import (
    as_bool,
    as_dice,
    cell_safe,
)

__all__ = ["bfrpg_helpless_damage"]


@xw.func
@xw.arg("dice", doc="the usual melee damage, e.g. 1d8+1")
@xw.arg("backstab", doc="TRUE for backstab damage (optional)")
@cell_safe
def bfrpg_helpless_damage(dice: Any, backstab: Any = False) -> int:
    """Damage against a helpless opponent: double the maximum (1d8+1: 18)."""
    entry = "backstab_max_multiplier" if as_bool(backstab, "BACKSTAB") else "max_damage_multiplier"
    return bfrpg_helpless.helpless_damage(bfrpg_rules(), as_dice(dice, engine.damage_dice), entry)
