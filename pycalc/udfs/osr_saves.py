"""OSR saves and spell interruption as worksheet functions (xlwings), over ``pycalc.rulesets.osr_saves``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import osr_saves
from pycalc.rulesets.osr import osr_rules
from pycalc.udfs.cells import as_int, as_text, cell_safe, optional_int, optional_text

__all__ = ["osr_level_gap_save_bonus", "osr_maneuver_save_modifier", "osr_spell_interruption"]


def levels(saver_level: Any, attacker_level: Any) -> tuple[int, int]:
    return as_int(saver_level, "SAVER LEVEL"), as_int(attacker_level, "ATTACKER LEVEL")


@xw.func
@xw.arg("saver_level", doc="XP level of the one saving (rider, disarm target)")
@xw.arg("attacker_level", doc="XP level of the attacker")
@cell_safe
def osr_level_gap_save_bonus(saver_level: Any, attacker_level: Any) -> int:
    """+1 to the Save vs Paralysis per full 3 levels the saver is above the attacker."""
    return osr_saves.level_gap_save_bonus(osr_rules(), *levels(saver_level, attacker_level))


@xw.func
@xw.arg("maneuver", doc="Whip entangle / Polearm dismount / Disarm (label or id)")
@xw.arg("saver_level", doc="XP level of the one saving")
@xw.arg("attacker_level", doc="XP level of the attacker")
@xw.arg("target_str_bonus", doc="the whip target's STR bonus (optional, 0)")
@cell_safe
def osr_maneuver_save_modifier(
    maneuver: Any, saver_level: Any, attacker_level: Any, target_str_bonus: Any = 0
) -> int:
    """What the saver adds to the Save vs Paralysis for that maneuver."""
    return osr_saves.maneuver_save_modifier(
        osr_rules(),
        as_text(maneuver, "MANEUVER"),
        *levels(saver_level, attacker_level),
        as_int(target_str_bonus, "STR BONUS", 0),
    )


@xw.func
@xw.arg("situation", doc="Caster won initiative / Hit by an opponent with simultaneous initiative / ...")
@xw.arg("save", doc="Made or Failed (optional: the Save vs Paralysis, when one is needed)")
@xw.arg("d6_roll", doc="the d6 after a failed save (optional)")
@cell_safe
def osr_spell_interruption(situation: Any, save: Any = None, d6_roll: Any = None) -> str:
    """What happens to the spell of a caster hit while casting."""
    return osr_saves.spell_interruption(
        osr_rules(), as_text(situation, "SITUATION"), optional_text(save), optional_int(d6_roll, "D6")
    )
