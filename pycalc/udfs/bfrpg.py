"""Excel user-defined functions (xlwings) for the Basic Fantasy RPG calculators (bfrpg).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text and nothing raises into a cell. The shared d20 UDFs (d20_need,
d20_result, d20_hit_chance with ruleset "bfrpg") cover the attack roll itself; these add the
situation's result, damage and odds. Every function is prefixed ``bfrpg_``. The attack roll, its
damage and its odds are the generic d20 engine's (``pycalc.resolution``, ``pycalc.resolution_odds``),
reached through ``pycalc.rulesets.bfrpg`` and ``bfrpg_odds`` as the calculators reach it. The other
calculators' functions are in a module each, named like the subsystem they call
(``pycalc.udfs.bfrpg_critical``, ``bfrpg_two_weapon``, ``bfrpg_helpless``, ``bfrpg_joust``,
``bfrpg_parry``, ``bfrpg_firing``, ``bfrpg_surprise``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import xlwings as xw

from pycalc import d20, d20_engines
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import bfrpg_odds as odds_engine
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import (
    arg_docs,
    as_bool,
    as_choice,
    as_dice,
    as_int,
    cell_safe,
    optional_int,
)
from pycalc.udfs.d20_attack import ROLL, as_blocked, as_outcome, d20_attack

BFRPG = "bfrpg"
__all__ = [
    "bfrpg_attack_damage",
    "bfrpg_attack_result",
    "bfrpg_damage_chance_at_least",
    "bfrpg_expected_damage",
    "bfrpg_hit_chance",
    "bfrpg_kill_chance",
]


def bfrpg_rules() -> RuleSet:
    return load_ruleset(BFRPG)


PICKERS = ("charge_options", "damage_mode", "underwater_weapons", "critical_effect")


def picked(rules: RuleSet, charge: Any, mode: Any, underwater: Any, critical: Any) -> dict[str, str]:
    """The damage pickers' rows (charge, damage mode, underwater, critical effect) by table id."""
    rows = (charge, mode, underwater, critical)
    return {table_id: as_choice(rules, table_id, row) for table_id, row in zip(PICKERS, rows, strict=True)}


def plus_bonus(dice: dice_module.Dice, damage_bonus: Any) -> dice_module.Dice:
    """The damage dice with the damage bonus added to their modifier."""
    return dice_module.Dice(dice.count, dice.sides, dice.modifier + as_int(damage_bonus, "DAMAGE BONUS", 0))


BONUS = ("bonus", "attack bonus with STR/DEX")
TARGET = ("target", "target's AC")
MODS = ("mods", "other modifiers (optional, 0)")
DAMAGE_ROLL_LATER = "the sum shown on the dice, without the +modifier (optional: empty until rolled)"
EXTRA_ROLL = ("extra_roll", "second damage roll (ruling normal_plus_max_plus_roll; optional)")
DAMAGE_BONUS = ("damage_bonus", "added to the dice (STR for a shield bash, specialist; optional, 0)")
PICKER_DOCS = (
    ("charge", "Charge and set weapon: the picker's row (optional: no charge)"),
    ("mode", "Lethal or subduing damage: the picker's row (optional: normal)"),
    ("underwater", "Weapons underwater: the picker's row (optional: not underwater)"),
    ("critical", "What a critical hit does: the picker's row (optional: extra damage)"),
    ("helpless", "TRUE for a melee attack on a helpless target (optional)"),
)

# --------------------------------------------------------------------------- attack


@xw.func
@arg_docs(
    ROLL,
    BONUS,
    TARGET,
    MODS,
    ("follow_roll", "the confirmation d20 after a threat (optional)"),
)
@cell_safe
def bfrpg_attack_result(roll: Any, bonus: Any, target: Any, mods: Any = 0, follow_roll: Any = None) -> str:
    """Miss, Hit or Critical: a threat is a Critical once its confirmation d20 confirms it."""
    follow = optional_int(follow_roll, "FOLLOW ROLL")
    return d20_engines.result("bfrpg", d20_attack(bonus, target, mods), as_int(roll, "ROLL"), follow)


@xw.func
@arg_docs(BONUS, TARGET, MODS)
@cell_safe
def bfrpg_hit_chance(bonus: Any, target: Any, mods: Any = 0) -> float:
    """Probability (0 to 1) of any hit, confirmed criticals included, natural-roll rules applied."""
    return float(engine.chances(bfrpg_rules(), d20_attack(bonus, target, mods)).hit)


@xw.func
@arg_docs(
    ("result", "Miss, Hit or Critical"),
    ("dice", "damage dice used, e.g. 1d8+2 (a brawling row's own dice)"),
    ("damage_roll", DAMAGE_ROLL_LATER),
    DAMAGE_BONUS,
    *PICKER_DOCS,
    EXTRA_ROLL,
)
@cell_safe
def bfrpg_attack_damage(
    result: Any,
    dice: Any,
    damage_roll: Any = None,
    damage_bonus: Any = 0,
    charge: Any = None,
    mode: Any = None,
    underwater: Any = None,
    critical: Any = None,
    helpless: Any = False,
    extra_roll: Any = None,
) -> int | str:
    """Damage after the result and the situation: criticals, doubling, halving, helpless targets."""
    rules = bfrpg_rules()
    choices = picked(rules, charge, mode, underwater, critical)
    outcome = as_outcome(result, (d20.MISS, d20.HIT, d20.CRITICAL), "Miss, Hit or Critical")
    return engine.attack_damage(
        rules,
        outcome,
        plus_bonus(as_dice(dice, engine.damage_dice), damage_bonus),
        choices,
        optional_int(damage_roll, "DAMAGE ROLL"),
        optional_int(extra_roll, "EXTRA DAMAGE ROLL"),
        as_bool(helpless, "HELPLESS"),
    )


# --------------------------------------------------------------------------- odds before the roll


def odds_attack(
    bonus: Any,
    target: Any,
    dice: Any,
    mods: Any,
    damage_bonus: Any,
    charge: Any,
    mode: Any,
    underwater: Any,
    critical: Any,
    helpless: Any,
    blocked: Any,
) -> odds_engine.OddsAttack:
    rules = bfrpg_rules()
    choices = picked(rules, charge, mode, underwater, critical)
    parsed = as_dice(dice, engine.damage_dice)
    attack = generic.from_d20(d20_attack(bonus, target, mods))
    damage = engine.picked_damage(rules, choices, plus_bonus(parsed, damage_bonus))
    return odds_engine.OddsAttack(
        replace(attack, blocked=as_blocked(blocked), auto_hit=as_bool(helpless, "HELPLESS")), damage
    )


ODDS = d20_odds.RulesetOdds(BFRPG, odds_engine)
ODDS_ARGS = (
    ("bonus", "attack bonus (AB)"),
    ("target", "target's AC in this situation"),
    ("dice", "damage dice used, e.g. 1d8+2 (a brawling row's own dice)"),
)
ODDS_TAIL = (
    ("mods", "every modifier to the roll (ability, situation; optional, 0)"),
    DAMAGE_BONUS,
    *PICKER_DOCS,
    ("blocked", "TRUE or a reason text when no attack is possible (optional)"),
)
ATTACKS = ("attacks", "attacks this round (optional, 1)")


@xw.func
@arg_docs(*ODDS_ARGS, ATTACKS, *ODDS_TAIL)
@cell_safe
def bfrpg_expected_damage(
    bonus: Any,
    target: Any,
    dice: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    charge: Any = None,
    mode: Any = None,
    underwater: Any = None,
    critical: Any = None,
    helpless: Any = False,
    blocked: Any = False,
) -> float:
    """Expected damage of the attacks: natural 1 and 20, confirmed criticals, multipliers, misses as 0."""
    hit = odds_attack(
        bonus, target, dice, mods, damage_bonus, charge, mode, underwater, critical, helpless, blocked
    )
    return d20_odds.expected_damage(ODDS, hit, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, d20_odds.AMOUNT, ATTACKS, *ODDS_TAIL)
@cell_safe
def bfrpg_damage_chance_at_least(
    bonus: Any,
    target: Any,
    dice: Any,
    amount: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    charge: Any = None,
    mode: Any = None,
    underwater: Any = None,
    critical: Any = None,
    helpless: Any = False,
    blocked: Any = False,
) -> float:
    """Probability (0 to 1) that the attacks together do at least this much damage."""
    hit = odds_attack(
        bonus, target, dice, mods, damage_bonus, charge, mode, underwater, critical, helpless, blocked
    )
    return d20_odds.damage_chance_at_least(ODDS, hit, amount, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, d20_odds.TARGET_HP, ATTACKS, *ODDS_TAIL)
@cell_safe
def bfrpg_kill_chance(
    bonus: Any,
    target: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    charge: Any = None,
    mode: Any = None,
    underwater: Any = None,
    critical: Any = None,
    helpless: Any = False,
    blocked: Any = False,
) -> float:
    """Probability (0 to 1) that the target drops to 0 hit points or below within the attacks."""
    hit = odds_attack(
        bonus, target, dice, mods, damage_bonus, charge, mode, underwater, critical, helpless, blocked
    )
    return d20_odds.kill_chance(ODDS, hit, hp, attacks)
