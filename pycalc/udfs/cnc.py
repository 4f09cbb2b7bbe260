"""Castles & Crusades worksheet functions (xlwings) over ``pycalc.rulesets.cnc``.

An attack's need, result, hit chance, damage and odds come from ``cnc`` and ``cnc_odds``, which run
on the generic d20 engine (``pycalc.resolution``, ``pycalc.resolution_odds``) with the AC taken as
typed (``cnc.as_generic``). The subsystems' functions are in modules of their own: ``cnc_falling``,
``cnc_special_ac``, ``cnc_moves``, ``cnc_subdual``.

Same style as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text; nothing raises into a cell. Every function reads ``tables/cnc``
(with the rulings' defaults) each call, through the loader's cache.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import d20
from pycalc.errors import RuleError
from pycalc.rulesets import cnc, cnc_odds
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import arg_docs, as_int, as_text, cell_safe
from pycalc.udfs.d20_attack import ac_attack

__all__ = [
    "cnc_attack_damage",
    "cnc_attack_effect",
    "cnc_attack_need",
    "cnc_attack_result",
    "cnc_damage_chance_at_least",
    "cnc_expected_damage",
    "cnc_hit_chance",
    "cnc_kill_chance",
    "cnc_range_band",
    "cnc_range_modifier",
    "hp_state",
]


def rules() -> RuleSet:
    return load_ruleset(cnc.RULESET_ID)


def hit_or_miss(value: Any) -> str:
    outcome = as_text(value, "RESULT")
    if outcome not in (d20.HIT, d20.MISS):
        raise RuleError("#RESULT? Hit or Miss")
    return outcome


BONUS = ("bonus", "attacker's BtH + Str (melee) or Dex (ranged) modifier")
AC = ("ac", "defender's armor class (after cover and situation)")
MODS = ("mods", "sum of modifiers to the roll (optional, 0)")
DAMAGE_BONUS = ("damage_bonus", "damage bonus from the situation, e.g. charge (optional, 0)")
KIND = ("kind", "attack kind from attack_types (optional, melee)")
ODDS = d20_odds.RulesetOdds(cnc.RULESET_ID, cnc_odds)

# --------------------------------------------------------------------------- attack


@xw.func
@arg_docs(BONUS, AC, MODS)
@cell_safe
def cnc_attack_need(bonus: Any, ac: Any, mods: Any = 0) -> int:
    """The natural d20 needed to hit: AC - bonus - mods (C&C has no natural 1/20 rule)."""
    return cnc.need(rules(), ac_attack(bonus, ac, mods))


@xw.func
@arg_docs(BONUS, AC, ("roll", "the natural d20 roll"), MODS)
@cell_safe
def cnc_attack_result(roll: Any, bonus: Any, ac: Any, mods: Any = 0) -> str:
    """Hit when d20 + bonus + mods >= AC, else Miss."""
    return cnc.result(rules(), ac_attack(bonus, ac, mods), d20.check_roll(as_int(roll, "ROLL")))


@xw.func
@arg_docs(BONUS, AC, MODS)
@cell_safe
def cnc_hit_chance(bonus: Any, ac: Any, mods: Any = 0) -> float:
    """Probability (0 to 1) that the attack hits."""
    return float(cnc.hit_chance(rules(), ac_attack(bonus, ac, mods)))


@xw.func
@arg_docs(
    ("result", "Hit or Miss"),
    ("dice", "damage dice, e.g. 1d8+2 (the +2 is added)"),
    ("damage_roll", "the sum shown on the dice, without the +modifier"),
    DAMAGE_BONUS,
    KIND,
)
@cell_safe
def cnc_attack_damage(
    result: Any, dice: Any, damage_roll: Any, damage_bonus: Any = 0, kind: Any = None
) -> int:
    """Damage dealt: dice rolled + modifier + bonus on a hit (at least the kind's least damage); 0 on a miss."""
    return cnc.attack_damage(
        rules(),
        hit_or_miss(result),
        dice,
        as_int(damage_roll, "DAMAGE", 0),
        as_int(damage_bonus, "DAMAGE BONUS", 0),
        as_text(kind, "KIND", "melee"),
    )


@xw.func
@arg_docs(("result", "Hit or Miss"), KIND)
@cell_safe
def cnc_attack_effect(result: Any, kind: Any = None) -> str:
    """What the hit or miss does for that kind of attack."""
    return cnc.attack_effect(rules(), hit_or_miss(result), as_text(kind, "KIND", "melee"))


# --------------------------------------------------------------------------- hit points


@xw.func
@xw.arg("ruleset", doc="cnc")
@xw.arg("hp", doc="current hit points")
@cell_safe
def hp_state(ruleset: Any, hp: Any) -> str:
    """The state at that many hit points: able to act, passed out, ... dead."""
    name = as_text(ruleset, "RULESET").lower()
    if name != cnc.RULESET_ID:
        raise RuleError(f"#RULESET? {name} has no hit point states here; use cnc")
    return cnc.hp_state(rules(), as_int(hp, "HP"))


# --------------------------------------------------------------------------- range


RANGE_DOCS = arg_docs(
    ("increment", "the weapon's range increment in feet"), ("distance", "distance to the target in feet")
)


@xw.func
@RANGE_DOCS
@cell_safe
def cnc_range_band(increment: Any, distance: Any) -> str:
    """close, medium, long or out of range."""
    return cnc.range_band(rules(), as_int(increment, "INCREMENT"), as_int(distance, "DISTANCE"))


@xw.func
@RANGE_DOCS
@cell_safe
def cnc_range_modifier(increment: Any, distance: Any) -> int | str:
    """To-hit modifier for the range (0, -2, -6); empty out of range."""
    return cnc.range_modifier(rules(), as_int(increment, "INCREMENT"), as_int(distance, "DISTANCE"))


# --------------------------------------------------------------------------- odds before the dice are rolled


def odds_attack(
    bonus: Any, ac: Any, dice: Any, mods: Any, damage_bonus: Any, kind: Any
) -> cnc_odds.OddsAttack:
    return cnc_odds.OddsAttack(
        ac_attack(bonus, ac, mods),
        dice,
        as_int(damage_bonus, "BONUS", 0),
        as_text(kind, "KIND", "melee"),
    )


DICE = ("dice", "damage dice, e.g. 1d8+2 (any number of dice and sides)")
ODDS_TAIL = (d20_odds.ATTACKS, MODS, DAMAGE_BONUS, KIND)


@xw.func
@arg_docs(BONUS, AC, DICE, MODS, DAMAGE_BONUS, KIND, d20_odds.ATTACKS)
@cell_safe
def cnc_expected_damage(
    bonus: Any, ac: Any, dice: Any, attacks: Any = 1, mods: Any = 0, damage_bonus: Any = 0, kind: Any = None
) -> float:
    """Expected damage of the attacks before the dice are rolled (a miss counts 0)."""
    return d20_odds.expected_damage(ODDS, odds_attack(bonus, ac, dice, mods, damage_bonus, kind), attacks)


@xw.func
@arg_docs(BONUS, AC, DICE, d20_odds.AMOUNT, *ODDS_TAIL)
@cell_safe
def cnc_damage_chance_at_least(
    bonus: Any,
    ac: Any,
    dice: Any,
    amount: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    kind: Any = None,
) -> float:
    """Probability (0 to 1) that the attacks together do at least this much damage."""
    odds = odds_attack(bonus, ac, dice, mods, damage_bonus, kind)
    return d20_odds.damage_chance_at_least(ODDS, odds, amount, attacks)


@xw.func
@arg_docs(BONUS, AC, DICE, d20_odds.TARGET_HP, *ODDS_TAIL)
@cell_safe
def cnc_kill_chance(
    bonus: Any,
    ac: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    kind: Any = None,
) -> float:
    """Probability (0 to 1) that the target drops to 0 hit points or below within the attacks."""
    return d20_odds.kill_chance(ODDS, odds_attack(bonus, ac, dice, mods, damage_bonus, kind), hp, attacks)
