"""Excel user-defined functions (xlwings) for 17 Combat (ruleset combat17).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None, a bad argument
returns a short '#...' text, nothing raises into a cell. Attacks, their chances, their damage and the
odds before the roll are worked out by the generic d20 engine (``pycalc.resolution`` and
``pycalc.resolution_odds``), through the same ``pycalc.rulesets.combat17`` functions as the Attack
calculator. The charts and the other calculators have their functions in a module each, named like
the subsystem they call (``pycalc.udfs.combat17_critical``, ``combat17_fumble``,
``combat17_brawling``, ``combat17_subdual``; ``combat17_missiles`` for rate of fire and scatter).
Every function is prefixed ``combat17_`` so it cannot clash with another ruleset's functions once
star-imported into ``pycalc.udfs``. The shared
``d20_need``, ``d20_result``, ``d20_hit_chance``, ``crit_effect`` and ``fumble_effect`` also work for
combat17 (ruleset "combat17").
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import xlwings as xw

from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.rulesets import combat17 as engine
from pycalc.rulesets import combat17_odds as odds_engine
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import arg_docs, as_bool, as_dice, as_int, as_text, cell_safe, optional_int
from pycalc.udfs.d20_attack import ROLL, ac_attack, as_outcome

__all__ = [
    "combat17_attack_condition",
    "combat17_attack_damage",
    "combat17_attack_effect",
    "combat17_attack_result",
    "combat17_chance",
    "combat17_damage",
    "combat17_damage_chance_at_least",
    "combat17_expected_damage",
    "combat17_hit_chance",
    "combat17_kill_chance",
]


def rules() -> RuleSet:
    return load_ruleset("combat17")


def as_multiplier(value: Any) -> Fraction:
    return Fraction(str(1 if value is None or value == "" else value))


def damage_outcome(value: Any) -> str:
    text = as_text(value, "KIND")
    try:
        return str(rules().table("outcomes").by_label(text).id)
    except KeyError:
        raise RuleError("#KIND? use regular_damage, maximum_damage or critical_damage") from None


BONUS = ("bonus", "attack bonus")
TARGET = ("target", "target's Armor Class")
MODS = ("mods", "all modifiers to the roll (optional, 0)")
FOLLOW_ROLL = ("follow_roll", "the follow-up d20 (optional)")
BARRED = ("barred", "TRUE when the target cannot be hit (optional)")
MULTIPLIER = ("multiplier", "damage multiplier: 2 charge / set weapon, 0.5 flat of the blade (optional, 1)")
DAMAGE_BONUS = ("damage_bonus", "extra damage modifier from the situation (optional, 0)")

# --------------------------------------------------------------------------- attack


@xw.func
@arg_docs(
    ROLL,
    ("bonus", "attack bonus (AB + STR or DEX bonus)"),
    ("target", "target's Armor Class (with situation changes)"),
    MODS,
    ("follow_roll", "the follow-up d20 after a natural 1 or 20 (optional)"),
    ("barred", "TRUE when the target cannot be hit (out of range, needs silver...)"),
)
@cell_safe
def combat17_attack_result(
    roll: Any, bonus: Any, target: Any, mods: Any = 0, follow_roll: Any = None, barred: Any = False
) -> str:
    """Miss, Hit, Critical or Fumble: a natural 20 always hits, a natural 1 always misses."""
    return engine.attack_result(
        rules(),
        ac_attack(bonus, target, mods),
        as_int(roll, "ROLL"),
        optional_int(follow_roll, "FOLLOW ROLL"),
        as_bool(barred, "BARRED"),
    )


def attack_chances(bonus: Any, target: Any, mods: Any, barred: Any) -> dict[str, Fraction]:
    return engine.attack_chances(rules(), ac_attack(bonus, target, mods), as_bool(barred, "BARRED"))


@xw.func
@arg_docs(BONUS, TARGET, MODS, BARRED)
@cell_safe
def combat17_hit_chance(bonus: Any, target: Any, mods: Any = 0, barred: Any = False) -> float:
    """Probability (0 to 1) of any hit, natural 1 and 20 included."""
    return d20_odds.hit_chance(attack_chances(bonus, target, mods, barred))


@xw.func
@arg_docs(BONUS, TARGET, ("outcome", "Miss, Hit, Critical or Fumble"), MODS, BARRED)
@cell_safe
def combat17_chance(bonus: Any, target: Any, outcome: Any, mods: Any = 0, barred: Any = False) -> float:
    """Probability (0 to 1) of exactly that result."""
    return float(attack_chances(bonus, target, mods, barred)[as_outcome(outcome)])


def charted(
    found: Callable[..., str],
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any,
    follow_roll: Any,
    condition_roll: Any,
    barred: Any,
) -> str:
    """What the charts make of the attack (``found``: the engine's function, line or condition)."""
    return found(
        rules(),
        ac_attack(bonus, target, mods),
        as_int(roll, "ROLL"),
        optional_int(follow_roll, "FOLLOW ROLL"),
        optional_int(condition_roll, "CONDITION ROLL"),
        as_bool(barred, "BARRED"),
    )


@xw.func
@arg_docs(
    ROLL,
    BONUS,
    TARGET,
    MODS,
    FOLLOW_ROLL,
    ("condition_roll", "the 1d4 condition roll after a chart 20 (optional)"),
    BARRED,
)
@cell_safe
def combat17_attack_effect(
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    follow_roll: Any = None,
    condition_roll: Any = None,
    barred: Any = False,
) -> str:
    """What the roll does: the critical / critical-miss chart line, or the plain hit or miss."""
    return charted(engine.attack_effect, roll, bonus, target, mods, follow_roll, condition_roll, barred)


@xw.func
@arg_docs(
    ROLL, BONUS, TARGET, MODS, FOLLOW_ROLL, ("condition_roll", "the 1d4 condition roll (optional)"), BARRED
)
@cell_safe
def combat17_attack_condition(
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    follow_roll: Any = None,
    condition_roll: Any = None,
    barred: Any = False,
) -> str:
    """The condition a chart 20 leaves on the enemy ('' when none)."""
    return charted(engine.attack_condition, roll, bonus, target, mods, follow_roll, condition_roll, barred)


@xw.func
@arg_docs(
    ("result", "Miss, Hit, Critical or Fumble"),
    ("dice", "weapon damage, e.g. 1d6+2"),
    ("damage_roll", "the dice shown, without the +modifier (optional: empty until rolled)"),
    ("follow_roll", "the follow-up d20 after a natural 20 (optional)"),
    ("mods", "all modifiers to the roll (only counted under add_modifiers; optional)"),
    MULTIPLIER,
    DAMAGE_BONUS,
)
@cell_safe
def combat17_attack_damage(
    result: Any,
    dice: Any,
    damage_roll: Any = None,
    follow_roll: Any = None,
    mods: Any = 0,
    multiplier: Any = 1,
    damage_bonus: Any = 0,
) -> int | str:
    """Damage of the result: regular on a hit, by the critical chart on a natural 20, 0 on a miss."""
    return engine.attack_damage(
        rules(),
        Attack(0, 0, as_int(mods, "MODS", 0)),
        as_outcome(result),
        optional_int(follow_roll, "FOLLOW ROLL"),
        as_text(dice, "DICE"),
        optional_int(damage_roll, "DAMAGE ROLL"),
        as_int(damage_bonus, "DAMAGE BONUS", 0),
        as_multiplier(multiplier),
    )


# --------------------------------------------------------------------------- damage


@xw.func
@xw.arg("dice", doc="weapon damage, e.g. 1d6+2")
@xw.arg("damage_roll", doc="the dice shown, without the +modifier")
@xw.arg("kind", doc="regular_damage, maximum_damage or critical_damage (or the label)")
@cell_safe
def combat17_damage(dice: Any, damage_roll: Any, kind: Any = "regular_damage") -> int:
    """Regular, maximum or critical damage: 1d6+2 showing 3 gives 5, 8 and 11."""
    return engine.damage(
        rules(),
        damage_outcome(kind),
        as_dice(dice, engine.parse_dice),
        optional_int(damage_roll, "DAMAGE ROLL"),
    )


# --------------------------------------------------------------------------- odds before the roll


def odds_of(
    bonus: Any, target: Any, dice: Any, mods: Any, barred: Any, multiplier: Any, damage_bonus: Any
) -> odds_engine.OddsAttack:
    times = as_multiplier(multiplier)
    return odds_engine.OddsAttack(
        ac_attack(bonus, target, mods),
        as_dice(dice, engine.parse_dice),
        as_bool(barred, "BARRED"),
        times,
        as_int(damage_bonus, "DAMAGE BONUS", 0),
    )


ODDS = d20_odds.RulesetOdds("combat17", odds_engine)
ODDS_ARGS = (
    ("bonus", "attack bonus (AB + STR or DEX bonus)"),
    ("target", "target's Armor Class with the situation (ATTACK_AC)"),
    ("dice", "weapon damage, e.g. 1d6+2 (any number of dice)"),
)
ODDS_TAIL = (("mods", "all modifiers to the roll (optional, 0)"), BARRED, MULTIPLIER, DAMAGE_BONUS)
ATTACKS = ("attacks", "independent attacks this round (optional, 1)")


@xw.func
@arg_docs(*ODDS_ARGS, *ODDS_TAIL, ATTACKS)
@cell_safe
def combat17_expected_damage(
    bonus: Any,
    target: Any,
    dice: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    barred: Any = False,
    multiplier: Any = 1,
) -> float:
    """Expected damage of the attacks before any die is rolled (misses count 0; criticals by the chart)."""
    odds = odds_of(bonus, target, dice, mods, barred, multiplier, damage_bonus)
    return d20_odds.expected_damage(ODDS, odds, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, ("amount", "damage to reach (at least this much)"), *ODDS_TAIL, ATTACKS)
@cell_safe
def combat17_damage_chance_at_least(
    bonus: Any,
    target: Any,
    dice: Any,
    amount: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    barred: Any = False,
    multiplier: Any = 1,
) -> float:
    """Probability (0 to 1) that the attacks together do at least ``amount`` damage."""
    odds = odds_of(bonus, target, dice, mods, barred, multiplier, damage_bonus)
    return d20_odds.damage_chance_at_least(ODDS, odds, amount, attacks)


@xw.func
@arg_docs(*ODDS_ARGS, ("hp", "the target's hit points now"), ATTACKS, *ODDS_TAIL)
@cell_safe
def combat17_kill_chance(
    bonus: Any,
    target: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    barred: Any = False,
    multiplier: Any = 1,
) -> float:
    """Probability (0 to 1) that the attacks drop a target of ``hp`` hit points (to 0 or below)."""
    odds = odds_of(bonus, target, dice, mods, barred, multiplier, damage_bonus)
    return d20_odds.kill_chance(ODDS, odds, hp, attacks)
