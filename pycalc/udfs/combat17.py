"""Excel user-defined functions (xlwings) for 17 Combat (ruleset combat17).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None, a bad argument
returns a short '#...' text, nothing raises into a cell. Attacks, their chances, their damage and the
odds before the roll are worked out by the generic d20 engine (``pycalc.resolution`` and
``pycalc.resolution_odds``), through the same ``pycalc.rulesets.combat17`` functions as the Attack
calculator; the charts' texts and the other calculators are the ruleset's own (the subsystem
modules ``pycalc.rulesets.combat17_critical``, ``combat17_fumble``, ``combat17_rate_of_fire``,
``combat17_scatter``, ``combat17_brawling``, ``combat17_subdual``). Every function is
prefixed ``combat17_`` so it cannot clash with another ruleset's functions once star-imported into
``pycalc.udfs``. The shared
``d20_need``, ``d20_result``, ``d20_hit_chance``, ``crit_effect`` and ``fumble_effect`` also work for
combat17 (ruleset "combat17").
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import xlwings as xw

from pycalc.d20 import Attack, check_roll
from pycalc.errors import RuleError
from pycalc.rulesets import combat17 as engine
from pycalc.rulesets import (
    combat17_brawling,
    combat17_critical,
    combat17_fumble,
    combat17_rate_of_fire,
    combat17_subdual,
)
from pycalc.rulesets import combat17_odds as odds_engine
from pycalc.rulesets import combat17_scatter as scatter  # the UDF combat17_scatter has its name
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import arg_docs, as_bool, as_dice, as_int, as_text, cell_safe, optional_int
from pycalc.udfs.d20_attack import ROLL, ac_attack, as_outcome

__all__ = [
    "combat17_attack_condition",
    "combat17_attack_damage",
    "combat17_attack_effect",
    "combat17_attack_result",
    "combat17_brawl_damage",
    "combat17_brawl_need",
    "combat17_chance",
    "combat17_condition",
    "combat17_condition_modifier",
    "combat17_crit_damage",
    "combat17_crit_line",
    "combat17_damage",
    "combat17_damage_chance_at_least",
    "combat17_expected_damage",
    "combat17_fumble_outcome",
    "combat17_hit_chance",
    "combat17_kill_chance",
    "combat17_scatter",
    "combat17_scatter_feet",
    "combat17_shots",
    "combat17_subdual_damage",
    "combat17_subdual_state",
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
    times = as_multiplier(multiplier)
    where = engine.Situation("", 0, 0, as_int(damage_bonus, "DAMAGE BONUS", 0), times, False, False)
    return engine.attack_damage(
        rules(),
        Attack(0, 0, as_int(mods, "MODS", 0)),
        as_outcome(result),
        optional_int(follow_roll, "FOLLOW ROLL"),
        as_text(dice, "DICE"),
        optional_int(damage_roll, "DAMAGE ROLL"),
        where,
    )


# --------------------------------------------------------------------------- critical damage and charts


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


@xw.func
@xw.arg("roll", doc="the follow-up d20 after a natural 1")
@xw.arg("dex_bonus", doc="the attacker's DEX bonus (optional, 0)")
@xw.arg("dex_roll", doc="the d20 of the DEX check (optional)")
@xw.arg("rounds_roll", doc="the 1d2 rounds of the stumble penalty (optional)")
@cell_safe
def combat17_fumble_outcome(
    roll: Any, dex_bonus: Any = 0, dex_roll: Any = None, rounds_roll: Any = None
) -> str:
    """What the critical miss does once its DEX check is rolled."""
    return combat17_fumble.fumble_outputs(
        rules(),
        as_int(roll, "FOLLOW ROLL"),
        as_int(dex_bonus, "DEX BONUS", 0),
        optional_int(dex_roll, "DEX ROLL"),
        optional_int(rounds_roll, "ROUNDS ROLL"),
    )["FUMBLE_CONSEQUENCE"]


# --------------------------------------------------------------------------- missiles


@xw.func
@xw.arg("weapon", doc="a row of the rate of fire table, e.g. Light crossbow")
@xw.arg("rounds", doc="rounds of shooting")
@xw.arg("siege_rate", doc="siege weapon: fires once every N rounds (optional)")
@cell_safe
def combat17_shots(weapon: Any, rounds: Any, siege_rate: Any = None) -> int | str:
    """Shots fired in that many rounds."""
    return combat17_rate_of_fire.shots_fired(
        rules(), as_text(weapon, "WEAPON"), as_int(rounds, "ROUNDS", 0), optional_int(siege_rate, "RATE")
    )["ROF_SHOTS"]


def scattered(roll: Any) -> dict[str, Any]:
    """Where a missed grenade-like missile lands for that scatter roll (the calculator's cells)."""
    return scatter.scatter(rules(), False, as_int(roll, "SCATTER ROLL"))


@xw.func
@xw.arg("roll", doc="the 1d10 scatter roll")
@cell_safe
def combat17_scatter(roll: Any) -> str:
    """Where a missed grenade-like missile lands (direction)."""
    return scattered(roll)["GRENADE_LANDS"]


@xw.func
@xw.arg("roll", doc="the 1d10 scatter roll")
@xw.arg("axis", doc="toward (the thrower), right, or distance")
@cell_safe
def combat17_scatter_feet(roll: Any, axis: Any = "distance") -> int | str:
    """Feet from the target: toward the thrower, to the right, or the distance."""
    names = {"toward": "GRENADE_TOWARD_FT", "right": "GRENADE_RIGHT_FT", "distance": "GRENADE_DISTANCE_FT"}
    wanted = as_text(axis, "AXIS", "distance").lower()
    if wanted not in names:
        raise RuleError("#AXIS? use toward, right or distance")
    return scattered(roll)[names[wanted]]


# --------------------------------------------------------------------------- brawling and subdual


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


@xw.func
@xw.arg("damage", doc="normal damage rolled")
@cell_safe
def combat17_subdual_damage(damage: Any) -> int:
    """Half damage for the flat of the blade, rounded per the subdual_half_rounding ruling."""
    return combat17_subdual.subdual_damage(rules(), as_int(damage, "DAMAGE"))


@xw.func
@xw.arg("hp", doc="target's hit points now")
@xw.arg("damage", doc="normal damage rolled")
@xw.arg("flat", doc="TRUE: flat of the blade (non-lethal, half damage)")
@xw.arg("earlier", doc="TRUE: the target has taken non-lethal damage before (optional)")
@xw.arg("unconscious", doc="TRUE: the target is already unconscious (optional)")
@cell_safe
def combat17_subdual_state(
    hp: Any, damage: Any, flat: Any = True, earlier: Any = False, unconscious: Any = False
) -> str:
    """Conscious, Unconscious or Dead after the hit."""
    return combat17_subdual.subdual_outputs(
        rules(),
        as_int(hp, "HP"),
        as_int(damage, "DAMAGE", 0),
        as_bool(flat, "FLAT"),
        as_bool(earlier, "EARLIER"),
        as_bool(unconscious, "UNCONSCIOUS"),
    )["SUBDUAL_STATE"]


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
