"""17 Combat's critical chart and condition chart as worksheet functions (xlwings), over
``pycalc.rulesets.combat17_critical``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.d20 import Attack, check_roll
from pycalc.errors import RuleError
from pycalc.rulesets import combat17 as engine
from pycalc.rulesets import (
    combat17_critical,
)
from pycalc.udfs.cells import as_int, as_text, cell_safe, optional_int
from pycalc.udfs.combat17 import rules

__all__ = ["combat17_condition", "combat17_condition_modifier", "combat17_crit_damage", "combat17_crit_line"]


@xw.func
@xw.arg("follow_roll", doc="the follow-up d20 after a natural 20")
@xw.arg("mods", doc="roll modifiers (counted only under ruling add_modifiers; optional)")
@xw.arg("condition_roll", doc="the 1d4 condition roll (optional)")
@cell_safe
def combat17_crit_line(follow_roll: Any, mods: Any = 0, condition_roll: Any = None) -> str:
    """What the critical chart gives for that follow-up roll (and condition roll)."""
    attack = Attack(0, 0, as_int(mods, "MODS", 0))
    follow = check_roll(as_int(follow_roll, "FOLLOW ROLL"), "FOLLOW ROLL")
    total = engine.follow_total(rules(), attack, follow)
    return engine.crit_line(rules(), total, optional_int(condition_roll, "CONDITION ROLL"))


@xw.func
@xw.arg("dice", doc="weapon damage, e.g. 1d6+2")
@xw.arg("damage_roll", doc="the dice shown, without the +modifier")
@xw.arg("follow_roll", doc="the follow-up d20 after a natural 20")
@xw.arg("mods", doc="roll modifiers (counted only under ruling add_modifiers; optional)")
@cell_safe
def combat17_crit_damage(dice: Any, damage_roll: Any, follow_roll: Any, mods: Any = 0) -> int:
    """Damage of a natural 20 by the critical chart."""
    outputs = combat17_critical.critical_damage_outputs(
        rules(),
        as_text(dice, "DICE"),
        optional_int(damage_roll, "DAMAGE ROLL"),
        as_int(follow_roll, "FOLLOW ROLL"),
        as_int(mods, "MODS", 0),
    )
    return outputs["CRIT_DAMAGE"]


@xw.func
@xw.arg("roll", doc="the 1d4 condition roll")
@cell_safe
def combat17_condition(roll: Any) -> str:
    """The condition chart line: e.g. 'Enemy is Prone: -4 to hit, a -4 AC (melee), +4 AC (ranged)'."""
    return engine.condition_text(rules(), as_int(roll, "CONDITION ROLL"))


@xw.func
@xw.arg("roll", doc="the 1d4 condition roll")
@xw.arg("what", doc="hit, saves, dc_checks, init, ac_melee or ac_ranged")
@cell_safe
def combat17_condition_modifier(roll: Any, what: Any) -> int:
    """The condition's modifier to the enemy's rolls or AC (0 where it has none)."""
    wanted = as_text(what, "WHAT").lower()
    for name, (_, _, column) in combat17_critical.CONDITION_COLUMNS.items():
        if column == wanted:
            return combat17_critical.condition_modifier(rules(), as_int(roll, "CONDITION ROLL"), name)
    columns = ", ".join(column for _, _, column in combat17_critical.CONDITION_COLUMNS.values())
    raise RuleError(f"#WHAT? use {columns}")
