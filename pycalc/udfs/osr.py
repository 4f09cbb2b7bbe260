"""Excel user-defined functions (xlwings) for the osr ruleset (OSR house rules, descending AC).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text; nothing raises into a cell. The shared d20 UDFs (d20_need,
d20_result, d20_hit_chance, fumble_effect...) serve the plain attack; these add the osr situation
(Advantage, magical weapons, natural-20 damage penalty) and the other calculators. Attacks are
resolved, damaged and their odds worked out by the generic d20 engine (``pycalc.resolution``,
``pycalc.resolution_odds``, through ``pycalc.rulesets.osr`` and ``osr_odds``); the other calculators
by the subsystem modules (``osr_surprise``, ``osr_mass_combat``, ``osr_normal_men``, ``osr_grappling``,
``osr_saves``).
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
    osr_grappling,
    osr_mass_combat,
    osr_normal_men,
    osr_odds,
    osr_saves,
    osr_surprise,
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
    optional_text,
)
from pycalc.udfs.d20_attack import as_mode, as_outcome, d20_attack

__all__ = [
    "mass_survivors",
    "osr_attack_effect",
    "osr_attack_result",
    "osr_attacks_vs_normal_men",
    "osr_chance",
    "osr_damage",
    "osr_damage_chance_at_least",
    "osr_expected_damage",
    "osr_expected_kills",
    "osr_grapple_result",
    "osr_grapple_stun_rounds",
    "osr_hit_chance",
    "osr_kill_chance",
    "osr_level_gap_save_bonus",
    "osr_maneuver_save_modifier",
    "osr_mass_damage",
    "osr_nat20_penalty",
    "osr_spell_interruption",
    "osr_surprise_chance",
    "osr_surprise_outcome",
    "surprise_range",
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


# --------------------------------------------------------------------------- surprise


def surprise_top(rules: RuleSet, surprises_on: Any, surprised_on: Any) -> int:
    return osr_surprise.surprise_range(
        rules, as_int(surprises_on, "SURPRISES ON"), as_int(surprised_on, "SURPRISED ON")
    )


@xw.func
@xw.arg("surprises_on", doc="the first party surprises others on 1 to this (normally 2)")
@xw.arg("surprised_on", doc="the second party is normally surprised on 1 to this (normally 2)")
@cell_safe
def surprise_range(surprises_on: Any, surprised_on: Any) -> int:
    """Top d6 face on which the first party surprises the second (1-5 vs alert 1 -> 4)."""
    return surprise_top(osr_rules(), surprises_on, surprised_on)


@xw.func
@xw.arg("surprises_on", doc="the first party surprises others on 1 to this")
@xw.arg("surprised_on", doc="the second party is normally surprised on 1 to this")
@cell_safe
def osr_surprise_chance(surprises_on: Any, surprised_on: Any) -> float:
    """Probability (0 to 1) that the first party surprises the second."""
    rules = osr_rules()
    return float(osr_surprise.surprise_chance(rules, surprise_top(rules, surprises_on, surprised_on)))


@xw.func
@xw.arg("a_on_b", doc="A surprises B on 1 to this (surprise_range)")
@xw.arg("b_on_a", doc="B surprises A on 1 to this")
@xw.arg("roll_for_b", doc="the d6 rolled for B")
@xw.arg("roll_for_a", doc="the d6 rolled for A")
@cell_safe
def osr_surprise_outcome(a_on_b: Any, b_on_a: Any, roll_for_b: Any, roll_for_a: Any) -> str:
    """Who is surprised, and what it means."""
    return osr_surprise.surprise_outcome(
        osr_rules(),
        as_int(a_on_b, "A ON B"),
        as_int(b_on_a, "B ON A"),
        as_int(roll_for_b, "ROLL FOR B"),
        as_int(roll_for_a, "ROLL FOR A"),
    )


# --------------------------------------------------------------------------- mass combat


def unit_men(rules: RuleSet, men: Any) -> int:
    """Men in a unit: the cell, or the mass-combat unit's when empty."""
    return as_int(men, "MEN", osr.constant(rules, "mass_combat", "unit_men"))


@xw.func
@xw.arg("damage_roll", doc="the d6 thrown for a unit's hit")
@xw.arg("men", doc="men in the attacking unit (optional, 10)")
@cell_safe
def osr_mass_damage(damage_roll: Any, men: Any = None) -> int:
    """Hit points the target unit loses: the d6 x 10 (x the men, by ruling)."""
    rules = osr_rules()
    return osr_mass_combat.mass_damage(rules, as_int(damage_roll, "DAMAGE ROLL"), unit_men(rules, men))


@xw.func
@xw.arg("original_hp", doc="the unit's total hit points before the melee")
@xw.arg("remaining_hp", doc="its hit points left")
@xw.arg("men", doc="men in the unit (optional, 10)")
@cell_safe
def mass_survivors(original_hp: Any, remaining_hp: Any, men: Any = None) -> int:
    """Men left alive: one per tenth of the original hit points left, fractions rounded up."""
    rules = osr_rules()
    return osr_mass_combat.mass_survivors(
        rules, as_int(original_hp, "ORIGINAL HP"), as_int(remaining_hp, "REMAINING HP"), unit_men(rules, men)
    )


# --------------------------------------------------------------------------- Normal Men


@xw.func
@xw.arg("kind", doc="PC or important NPC fighter type / PC who is not a fighter type / Monster (whole HD)")
@xw.arg("level_or_hd", doc="XP level, or whole Hit Dice for a monster")
@cell_safe
def osr_attacks_vs_normal_men(kind: Any, level_or_hd: Any) -> int:
    """Melee attacks per round against Normal Men."""
    return osr_normal_men.attacks_vs_normal_men(
        osr_rules(), as_text(kind, "KIND"), as_int(level_or_hd, "LEVEL")
    )


@xw.func
@xw.arg("attacks", doc="attacks per round against the Normal Men")
@xw.arg("need", doc="natural d20 needed to hit them")
@xw.arg("damage_dice", doc="damage per hit, e.g. 1d6+1")
@xw.arg("hp_dice", doc="their hit points (optional, 1d6)")
@cell_safe
def osr_expected_kills(attacks: Any, need: Any, damage_dice: Any, hp_dice: Any = None) -> float:
    """Normal Men killed per round by the seed's shortcut (8 attacks, 7+, d6+1 vs d6 -> 5.6)."""
    rules = osr_rules()
    default_hp = rules.table("normal_men").value("normal_man_hit_points", "dice")
    found = osr_normal_men.expected_kills(
        rules,
        as_int(attacks, "ATTACKS"),
        as_int(need, "NEED"),
        as_text(damage_dice, "DICE"),
        as_text(hp_dice, "HP DICE", default_hp),
    )
    return float(found.kills)


# --------------------------------------------------------------------------- grappling


def grapple_rolls(hero_roll: Any, grapplers_roll: Any) -> tuple[int, int]:
    return as_int(hero_roll, "HERO ROLL"), as_int(grapplers_roll, "GRAPPLERS ROLL")


@xw.func
@xw.arg("hero_roll", doc="the grappled hero's total (d6 per HD)")
@xw.arg("grapplers_roll", doc="the grapplers' combined total (d6 per HD each)")
@cell_safe
def osr_grapple_result(hero_roll: Any, grapplers_roll: Any) -> str:
    """Pinned, struggling, or grapplers thrown off and stunned."""
    return osr_grappling.grapple_result(osr_rules(), *grapple_rolls(hero_roll, grapplers_roll))


@xw.func
@xw.arg("hero_roll", doc="the grappled hero's total")
@xw.arg("grapplers_roll", doc="the grapplers' combined total")
@cell_safe
def osr_grapple_stun_rounds(hero_roll: Any, grapplers_roll: Any) -> int:
    """Rounds the thrown-off grapplers are stunned (hero's roll minus theirs; 0 if not thrown off)."""
    return osr_grappling.grapple_stun_rounds(osr_rules(), *grapple_rolls(hero_roll, grapplers_roll))


# --------------------------------------------------------------------------- saves and spells


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
