"""Excel user-defined functions (xlwings) for the osr ruleset (OSR house rules, descending AC).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text; nothing raises into a cell. The shared d20 UDFs (d20_need,
d20_result, d20_hit_chance, fumble_effect...) serve the plain attack; these add the osr situation
(Advantage, magical weapons, natural-20 damage penalty), its damage and odds. Attacks are resolved,
damaged and their odds worked out by the generic d20 engine (``pycalc.resolution``,
``pycalc.resolution_odds``, through ``pycalc.rulesets.osr`` and ``osr_odds``). The other calculators'
functions are in a module each, named like the subsystem they call (``pycalc.udfs.osr_surprise``,
``osr_mass_combat``, ``osr_normal_men``, ``osr_grappling``, ``osr_saves``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import xlwings as xw

from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage, resolution_results
from pycalc.d20 import FUMBLE, HIT, MISS
from pycalc.errors import RuleError
from pycalc.rulesets import (
    osr,
    osr_odds,
)
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import (
    arg_docs,
    as_bool,
    as_dice,
    as_int,
    as_text,
    cell_safe,
    optional_int,
)
from pycalc.udfs.d20_attack import as_mode, as_outcome, d20_attack

__all__ = [
    "osr_attack_effect",
    "osr_attack_result",
    "osr_chance",
    "osr_damage",
    "osr_damage_chance_at_least",
    "osr_expected_damage",
    "osr_hit_chance",
    "osr_kill_chance",
    "osr_nat20_penalty",
]
OSR = "osr"


def osr_rules() -> RuleSet:
    return load_ruleset(OSR)


def osr_attack(bonus: Any, target: Any, mods: Any = 0, level: Any = 0) -> generic.Attack:
    found = d20_attack(bonus, target, mods, level)
    if found.level < 0:
        raise RuleError("#LEVEL? 0 or more")
    return generic.from_d20(found)


def situated(attack: generic.Attack, mode: Any, needs_magic: Any) -> generic.Attack:
    """The attack with the kept d20 (MODE) and a needed magic weapon (NEEDS MAGIC) read from cells."""
    advantage, disadvantage = as_mode(mode)
    return replace(
        attack,
        advantage=advantage,
        disadvantage=disadvantage,
        needs_magic=as_bool(needs_magic, "NEEDS MAGIC"),
    )


# --------------------------------------------------------------------------- attack


@xw.func
@xw.arg("roll", doc="the natural d20 (with Advantage: the higher die kept)")
@xw.arg("bonus", doc="attacker's to-hit bonus")
@xw.arg("target", doc="number needed from the attack matrix for the defender's AC")
@xw.arg("mods", doc="situational to-hit modifiers (optional, 0)")
@xw.arg("level", doc="attacker's XP level or HD (fumble check; optional, 0)")
@xw.arg("follow_roll", doc="the fumble-check d20 after a natural 1 (optional)")
@xw.arg("needs_magic", doc="TRUE when the target needs magical or silver weapons the attacker lacks")
@cell_safe
def osr_attack_result(
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    level: Any = 0,
    follow_roll: Any = None,
    needs_magic: Any = False,
) -> str:
    """Miss, Hit, Critical or Fumble with the seed's natural 1 and natural 20 rules."""
    rules = osr_rules()
    follow = optional_int(follow_roll, "FOLLOW ROLL")
    if follow is not None:
        generic.check_roll(rules, follow, "FOLLOW ROLL", generic.follow_faces(rules))
    attack = osr_attack(bonus, target, mods, level)
    natural = generic.check_roll(rules, as_int(roll, "ROLL"))
    return resolution_results.resolve(
        rules, replace(attack, needs_magic=as_bool(needs_magic, "NEEDS MAGIC")), natural, follow
    )


MODE = ("mode", "Normal, Advantage or Disadvantage (optional)")
NEEDS_MAGIC = ("needs_magic", "TRUE when the target needs weapons the attacker lacks (optional)")
CHANCE_ARGS = (
    ("bonus", "attacker's to-hit bonus"),
    ("target", "number needed from the attack matrix"),
    ("mods", "situational to-hit modifiers (optional, 0)"),
    ("level", "attacker's XP level or HD (optional, 0)"),
)


@xw.func
@arg_docs(*CHANCE_ARGS, MODE, NEEDS_MAGIC)
@cell_safe
def osr_hit_chance(
    bonus: Any, target: Any, mods: Any = 0, level: Any = 0, mode: Any = None, needs_magic: Any = False
) -> float:
    """Probability (0 to 1) of any hit, criticals included, natural-roll rules applied."""
    return osr_chance(bonus, target, mods, level, HIT, mode, needs_magic)


@xw.func
@arg_docs(
    *CHANCE_ARGS, ("outcome", "Hit (any hit, the default), Critical, Fumble or Miss"), MODE, NEEDS_MAGIC
)
@cell_safe
def osr_chance(
    bonus: Any,
    target: Any,
    mods: Any = 0,
    level: Any = 0,
    outcome: Any = "Hit",
    mode: Any = None,
    needs_magic: Any = False,
) -> float:
    """Exact probability (0 to 1): 'Hit' counts every hit, Critical included; the others exactly."""
    rules = osr_rules()
    wanted = as_outcome(outcome if outcome not in (None, "") else HIT)
    attack = situated(osr_attack(bonus, target, mods, level), mode, needs_magic)
    odds = resolution_chances.chances(rules, attack)
    return d20_odds.hit_chance(odds) if wanted == HIT else float(odds[wanted])


@xw.func
@xw.arg("roll", doc="the natural d20")
@xw.arg("need", doc="natural roll needed (matrix number - bonus - mods)")
@xw.arg("target", doc="the matrix number itself")
@cell_safe
def osr_nat20_penalty(roll: Any, need: Any, target: Any) -> int:
    """Damage a natural 20 loses against a foe needing more than 20 (1 per point over)."""
    need_value, target_value = as_int(need, "NEED"), as_int(target, "TARGET")
    attack = generic.Attack(target_value - need_value, target_value)
    return resolution_damage.natural_penalty(osr_rules(), attack, as_int(roll, "ROLL"))


@xw.func
@xw.arg("result", doc="Miss, Hit, Critical or Fumble")
@xw.arg("dice", doc="weapon damage, e.g. 1d6+1")
@xw.arg(
    "damage_roll", doc="sum shown on the damage dice, without the +modifier (optional: empty until rolled)"
)
@xw.arg("penalty", doc="natural-20 penalty (nat20_penalty; optional, 0)")
@xw.arg("double", doc="TRUE for double damage (charge, set spear; optional)")
@cell_safe
def osr_damage(
    result: Any, dice: Any, damage_roll: Any = None, penalty: Any = 0, double: Any = False
) -> int | str:
    """Damage after the result: 0 on a miss or fumble, '' until the damage is rolled."""
    outcome = as_outcome(result)
    if outcome in (MISS, FUMBLE):
        return 0
    return osr.damage_for(
        osr_rules(),
        outcome,
        as_text(dice, "DICE"),
        optional_int(damage_roll, "DAMAGE ROLL"),
        as_int(penalty, "PENALTY", 0),
        as_bool(double, "DOUBLE"),
    )


@xw.func
@xw.arg("result", doc="Miss, Hit, Critical or Fumble")
@xw.arg("fumble_roll", doc="roll on the GM's fumble table (optional)")
@cell_safe
def osr_attack_effect(result: Any, fumble_roll: Any = None) -> str:
    """What the result does; a Fumble shows the GM's fumble table line (the seed has none)."""
    return osr.attack_effect(osr_rules(), as_outcome(result), optional_int(fumble_roll, "FUMBLE ROLL"))


# --------------------------------------------------------------------------- odds before the roll


def odds_attack(
    bonus: Any, target: Any, dice: Any, mods: Any, level: Any, mode: Any, double: Any, needs_magic: Any
) -> osr_odds.OddsAttack:
    attack = osr_attack(bonus, target, mods, level)
    parsed = as_dice(dice, osr.attack_dice)
    advantage, disadvantage = as_mode(mode)
    damage = osr.generic_damage(osr_rules(), parsed, as_bool(double, "DOUBLE"))
    needs = as_bool(needs_magic, "NEEDS MAGIC")
    return osr_odds.OddsAttack(
        replace(attack, advantage=advantage, disadvantage=disadvantage, needs_magic=needs), damage
    )


ODDS = d20_odds.RulesetOdds(OSR, osr_odds)
ODDS_ARGS = (
    ("bonus", "attacker's to-hit bonus"),
    ("target", "number needed from the attack matrix (after AC changes)"),
    ("dice", "weapon damage, e.g. 1d6+1"),
)
ODDS_TAIL = (
    ("mods", "all to-hit modifiers (optional, 0)"),
    ("level", "attacker's XP level or HD, for the fumble check (optional, 0)"),
    ("attacks", "independent attacks in the round (optional, 1)"),
    MODE,
    ("double", "TRUE for double damage (charge, set spear; optional)"),
    NEEDS_MAGIC,
)


@xw.func
@arg_docs(*ODDS_ARGS, *ODDS_TAIL)
@cell_safe
def osr_expected_damage(
    bonus: Any,
    target: Any,
    dice: Any,
    attacks: Any = 1,
    mods: Any = 0,
    level: Any = 0,
    mode: Any = None,
    double: Any = False,
    needs_magic: Any = False,
) -> float:
    """Expected damage of the attacks (misses and fumbles 0; natural-20 penalty, double damage applied)."""
    odds = odds_attack(bonus, target, dice, mods, level, mode, double, needs_magic)
    return d20_odds.expected_damage(ODDS, odds, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, ("amount", "damage wanted"), *ODDS_TAIL)
@cell_safe
def osr_damage_chance_at_least(
    bonus: Any,
    target: Any,
    dice: Any,
    amount: Any,
    attacks: Any = 1,
    mods: Any = 0,
    level: Any = 0,
    mode: Any = None,
    double: Any = False,
    needs_magic: Any = False,
) -> float:
    """Probability (0 to 1) that the attacks together do at least this much damage."""
    odds = odds_attack(bonus, target, dice, mods, level, mode, double, needs_magic)
    return d20_odds.damage_chance_at_least(ODDS, odds, amount, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, d20_odds.TARGET_HP, *ODDS_TAIL)
@cell_safe
def osr_kill_chance(
    bonus: Any,
    target: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    mods: Any = 0,
    level: Any = 0,
    mode: Any = None,
    double: Any = False,
    needs_magic: Any = False,
) -> float:
    """Probability (0 to 1) that the target drops to 0 hit points or below within the attacks."""
    odds = odds_attack(bonus, target, dice, mods, level, mode, double, needs_magic)
    return d20_odds.kill_chance(ODDS, odds, hp, attacks)
