"""17 Combat's brawling (punch and kick) as worksheet functions (xlwings), over ``pycalc.rulesets.combat17_brawling``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import combat17_brawling
from pycalc.udfs.cells import as_int, as_text, cell_safe
from pycalc.udfs.combat17 import rules

__all__ = ["combat17_brawl_damage", "combat17_brawl_need"]


@xw.func
@xw.arg("kind", doc="Punch or Kick")
@xw.arg("bonus", doc="attack bonus")
@xw.arg("target", doc="target's Armor Class")
@xw.arg("mods", doc="other modifiers (optional, 0)")
@cell_safe
def combat17_brawl_need(kind: Any, bonus: Any, target: Any, mods: Any = 0) -> int | str:
    """Natural d20 needed to land a punch or kick."""
    return combat17_brawling.brawl_outputs(
        rules(),
        as_text(kind, "BRAWL"),
        as_int(bonus, "BONUS", 0),
        as_int(target, "AC"),
        as_int(mods, "MODS", 0),
    )["BRAWL_NEED"]


@xw.func
@xw.arg("kind", doc="Punch or Kick")
@xw.arg("damage_roll", doc="the die shown")
@xw.arg("strength", doc="STR modifier (optional, 0)")
@cell_safe
def combat17_brawl_damage(kind: Any, damage_roll: Any, strength: Any = 0) -> int | str:
    """Punch or kick damage (STR per the table and the kick_damage ruling)."""
    return combat17_brawling.brawl_outputs(
        rules(),
        as_text(kind, "BRAWL"),
        0,
        0,
        0,
        as_int(strength, "STR", 0),
        as_int(damage_roll, "DAMAGE ROLL"),
    )["BRAWL_DAMAGE"]
