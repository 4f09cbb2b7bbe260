"""Basic Fantasy critical hits (threat, confirmation, critical damage) as worksheet functions (xlwings),
over ``pycalc.rulesets.bfrpg_critical``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import d20
from pycalc import resolution as generic
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import (
    bfrpg_critical,
)
from pycalc.udfs.bfrpg import BONUS, EXTRA_ROLL, MODS, TARGET, bfrpg_rules
from pycalc.udfs.cells import (
    arg_docs,
    as_dice,
    as_int,
    cell_safe,
    optional_int,
)
from pycalc.udfs.d20_attack import d20_attack

__all__ = [
    "bfrpg_confirm_min",
    "bfrpg_confirms",
    "bfrpg_crit_chance",
    "bfrpg_crit_possible",
    "bfrpg_critical_damage",
]


@xw.func
@arg_docs(BONUS, TARGET, ("mods", "other modifiers to the roll (optional, 0)"))
@cell_safe
def bfrpg_crit_possible(bonus: Any, target: Any, mods: Any = 0) -> bool:
    """FALSE when only a natural 20 can hit: then a natural 20 is a plain hit, no threat."""
    return engine.critical_possible(bfrpg_rules(), d20_attack(bonus, target, mods))


@xw.func
@arg_docs(BONUS, TARGET, MODS)
@cell_safe
def bfrpg_confirm_min(bonus: Any, target: Any, mods: Any = 0) -> int:
    """Lowest confirmation d20 that turns a threat into a critical."""
    return engine.confirm_min(bfrpg_rules(), d20_attack(bonus, target, mods))


@xw.func
@arg_docs(("follow_roll", "the confirmation d20"), BONUS, TARGET, MODS)
@cell_safe
def bfrpg_confirms(follow_roll: Any, bonus: Any, target: Any, mods: Any = 0) -> bool:
    """TRUE when this confirmation roll makes a natural 20 a critical hit."""
    rules = bfrpg_rules()
    hit = d20_attack(bonus, target, mods)
    roll = as_int(follow_roll, "FOLLOW ROLL")
    generic.check_roll(rules, roll, "FOLLOW ROLL", generic.follow_faces(rules))
    return engine.critical_possible(rules, hit) and engine.confirms(rules, hit, roll)


@xw.func
@arg_docs(BONUS, TARGET, MODS)
@cell_safe
def bfrpg_crit_chance(bonus: Any, target: Any, mods: Any = 0) -> float:
    """Probability (0 to 1) of a confirmed critical hit."""
    return float(engine.chances(bfrpg_rules(), d20_attack(bonus, target, mods)).critical)


@xw.func
@arg_docs(
    ("dice", "weapon damage, e.g. 1d8+2"),
    ("damage_roll", "the sum shown on the dice, without the +modifier"),
    EXTRA_ROLL,
    ("multiplier", "2 for a charge or set weapon (optional, 1)"),
)
@cell_safe
def bfrpg_critical_damage(
    dice: Any, damage_roll: Any, extra_roll: Any = None, multiplier: Any = 1
) -> int | str:
    """Critical damage: the maximum die plus the damage roll with modifiers (1d8+2, 5: 15)."""
    rules = bfrpg_rules()
    parsed = as_dice(dice, engine.damage_dice)
    double = as_int(multiplier, "MULTIPLIER", 1)
    if double < 1:
        raise RuleError("#DOUBLE? 1 or more")
    roll = as_int(damage_roll, "DAMAGE ROLL")
    extra = optional_int(extra_roll, "EXTRA DAMAGE ROLL")
    return engine.result_damage(rules, bfrpg_critical.doubled(parsed, double), d20.CRITICAL, roll, extra)
