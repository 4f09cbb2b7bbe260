"""Castles & Crusades worksheet functions (xlwings) over ``pycalc.rulesets.cnc``.

An attack's need, result, hit chance, damage and odds come from ``cnc`` and ``cnc_odds``, which run
on the generic d20 engine (``pycalc.resolution``, ``pycalc.resolution_odds``) with the AC taken as
typed (``cnc.as_generic``).

Same style as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text; nothing raises into a cell. Every function reads ``tables/cnc``
(with the rulings' defaults) each call, through the loader's cache.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import xlwings as xw

from pycalc import d20, limits
from pycalc.errors import RuleError
from pycalc.rulesets import cnc, cnc_falling, cnc_odds, cnc_special_ac, cnc_subdual
from pycalc.rulesets import cnc_movement as movement  # the UDF cnc_movement has its name
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import arg_docs, as_bool, as_fraction, as_int, as_text, cell_safe
from pycalc.udfs.d20_attack import ac_attack

__all__ = [
    "cnc_attack_damage",
    "cnc_attack_effect",
    "cnc_attack_need",
    "cnc_attack_result",
    "cnc_charge_window",
    "cnc_damage_chance_at_least",
    "cnc_disarm_ac",
    "cnc_expected_damage",
    "cnc_falling_dex_check",
    "cnc_grapple_ac",
    "cnc_grapple_allowed",
    "cnc_grid_squares",
    "cnc_hit_chance",
    "cnc_kill_chance",
    "cnc_movement",
    "cnc_range_band",
    "cnc_range_modifier",
    "cnc_subdual_normal",
    "cnc_touch_ac",
    "falling_damage",
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
FEET = ("feet", "height fallen in feet")
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


# --------------------------------------------------------------------------- falling, hit points


def as_feet(value: Any) -> int:
    return as_int(value, "FEET", None, 0, limits.FALLING_FEET)


@xw.func
@arg_docs(FEET)
@cell_safe
def falling_damage(feet: Any) -> str:
    """Falling damage dice (18 ft -> 3d6, 45 ft -> 10d6; 6-10 ft: 1d6 on a failed Dex check; '0': none)."""
    return cnc_falling.falling_damage(rules(), as_feet(feet))


@xw.func
@arg_docs(FEET)
@cell_safe
def cnc_falling_dex_check(feet: Any) -> bool:
    """TRUE when a successful Dex check avoids all damage of the fall (6 to 10 ft)."""
    return cnc_falling.falling(rules(), as_feet(feet)).dex_check


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


# --------------------------------------------------------------------------- special ACs


@xw.func
@xw.arg("hit_dice", doc="defender's hit dice or level")
@xw.arg("dex", doc="defender's Dex modifier (optional, 0)")
@cell_safe
def cnc_disarm_ac(hit_dice: Any, dex: Any = 0) -> int:
    """AC to hit to disarm: 18 + hit dice or level (+ Dex bonus)."""
    return cnc_special_ac.disarm_ac(rules(), as_int(hit_dice, "LEVEL"), as_int(dex, "DEX", 0))


@xw.func
@xw.arg("kind", doc="Grapple or Overbear")
@xw.arg("str_prime", doc="TRUE when Strength is a prime of the defender")
@xw.arg("str_mod", doc="defender's Str modifier")
@xw.arg("dex_mod", doc="defender's Dex modifier")
@xw.arg("bth", doc="defender's BtH or hit dice")
@xw.arg("size_difference", doc="attacker's size minus defender's, in categories (optional, 0)")
@xw.arg("normal_ac", doc="defender's normal AC (only for ruling grapple_ac_reading = normal_ac)")
@cell_safe
def cnc_grapple_ac(
    kind: Any,
    str_prime: Any,
    str_mod: Any = 0,
    dex_mod: Any = 0,
    bth: Any = 0,
    size_difference: Any = 0,
    normal_ac: Any = 0,
) -> int:
    """Target AC of a grappling or overbearing attack: 12 or 18 plus the defender's modifiers."""
    defender = cnc_special_ac.Defender(
        as_bool(str_prime, "STR PRIME"),
        as_int(str_mod, "STR", 0),
        as_int(dex_mod, "DEX", 0),
        as_int(bth, "BTH", 0),
        as_int(normal_ac, "AC", 0),
    )
    return cnc_special_ac.grapple_ac(
        rules(), as_text(kind, "KIND"), defender, as_int(size_difference, "SIZE", 0)
    )


@xw.func
@xw.arg("kind", doc="Grapple or Overbear")
@xw.arg("size_difference", doc="attacker's size minus defender's, in categories")
@cell_safe
def cnc_grapple_allowed(kind: Any, size_difference: Any = 0) -> bool:
    """FALSE when an overbearing attacker faces a defender two or more sizes larger."""
    return cnc_special_ac.grapple_allowed(rules(), as_text(kind, "KIND"), as_int(size_difference, "SIZE", 0))


@xw.func
@xw.arg("dex", doc="defender's Dex modifier")
@xw.arg("monster", doc="TRUE for a monster (base 10, no modifiers)")
@xw.arg("magic", doc="magic rings, robes, protective devices and spells (optional, 0)")
@xw.arg("armor", doc="armor bonus, magical armor included (optional, 0; does not count)")
@xw.arg("shield", doc="shield bonus (optional, 0; does not count)")
@cell_safe
def cnc_touch_ac(dex: Any = 0, monster: Any = False, magic: Any = 0, armor: Any = 0, shield: Any = 0) -> int:
    """AC against a touch attack: 10 + Dex + magic protection for characters; 10 for monsters."""
    return cnc_special_ac.touch_ac(
        rules(),
        as_int(dex, "DEX", 0),
        as_bool(monster, "MONSTER"),
        as_int(magic, "MAGIC", 0),
        as_int(armor, "ARMOR", 0),
        as_int(shield, "SHIELD", 0),
    )


# --------------------------------------------------------------------------- movement, charge, range


@xw.func
@xw.arg("rate", doc="movement rate in feet")
@xw.arg("action", doc="an action of combat_actions, e.g. Attack, Move (jog) (optional, Move (walk))")
@xw.arg("reduction", doc="Castle Keeper's reduction as a fraction, 0.5 = half (optional, 0)")
@cell_safe
def cnc_movement(rate: Any, action: Any = None, reduction: Any = None) -> int:
    """Feet moved in a round with that action, after the reduction, fractions dropped."""
    ruleset = rules()
    now = movement.reduced_rate(
        ruleset, as_int(rate, "RATE"), as_fraction(reduction, "REDUCTION", Fraction(0))
    )
    return movement.action_move(ruleset, now, as_text(action, "ACTION", "walk"))


@xw.func
@xw.arg("rate", doc="movement rate in feet")
@cell_safe
def cnc_grid_squares(rate: Any) -> int:
    """Inches, hexes or squares for a movement rate (rate / 5, fractions dropped)."""
    return movement.grid_squares(rules(), as_int(rate, "RATE"))


@xw.func
@xw.arg("rate", doc="the charger's movement rate in feet")
@xw.arg("distance", doc="distance to the target in feet")
@cell_safe
def cnc_charge_window(rate: Any, distance: Any) -> str:
    """Yes when the target is between the movement rate and the jogging rate away, else why not."""
    return movement.charge_verdict(rules(), as_int(rate, "RATE"), as_int(distance, "DISTANCE"))


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


# --------------------------------------------------------------------------- subdual


@xw.func
@xw.arg("damage", doc="subdual damage dealt by the hit")
@cell_safe
def cnc_subdual_normal(damage: Any) -> int:
    """Points of the subdual damage that count as normal damage (1 in 5, ruling subdual_normal_split)."""
    return cnc_subdual.subdual_normal(rules(), as_int(damage, "DAMAGE"))


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
