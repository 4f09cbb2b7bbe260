"""Excel user-defined functions (xlwings) for the Basic Fantasy RPG calculators (bfrpg).

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text and nothing raises into a cell. The shared d20 UDFs (d20_need,
d20_result, d20_hit_chance with ruleset "bfrpg") cover the attack roll itself; these add the
critical confirmation, damage, odds and the other calculators. Every function is prefixed ``bfrpg_``.
The attack roll, its damage and its odds are the generic d20 engine's (``pycalc.resolution``,
``pycalc.resolution_odds``), reached through ``pycalc.rulesets.bfrpg`` and ``bfrpg_odds`` as the
calculators reach it; the other calculators are bfrpg's own subsystems, a module each
(``pycalc.rulesets.bfrpg_critical``, ``bfrpg_two_weapon``, ``bfrpg_helpless``, ``bfrpg_joust``,
``bfrpg_parry``, ``bfrpg_firing``, ``bfrpg_surprise``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import xlwings as xw

from pycalc import d20, d20_engines
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import (
    bfrpg_critical,
    bfrpg_firing,
    bfrpg_helpless,
    bfrpg_joust,
    bfrpg_parry,
    bfrpg_surprise,
    bfrpg_two_weapon,
)
from pycalc.rulesets import bfrpg_odds as odds_engine
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import (
    arg_docs,
    as_bool,
    as_choice,
    as_dice,
    as_int,
    as_text,
    cell_safe,
    optional_int,
)
from pycalc.udfs.d20_attack import ROLL, as_blocked, as_outcome, d20_attack

BFRPG = "bfrpg"
__all__ = [
    "bfrpg_attack_damage",
    "bfrpg_attack_result",
    "bfrpg_block_result",
    "bfrpg_confirm_min",
    "bfrpg_confirms",
    "bfrpg_crit_chance",
    "bfrpg_crit_possible",
    "bfrpg_critical_damage",
    "bfrpg_damage_chance_at_least",
    "bfrpg_expected_damage",
    "bfrpg_firing_outcome",
    "bfrpg_helpless_damage",
    "bfrpg_hit_chance",
    "bfrpg_is_surprised",
    "bfrpg_joust_result",
    "bfrpg_joust_save_penalty",
    "bfrpg_kill_chance",
    "bfrpg_parry_bonus",
    "bfrpg_surprise_max",
    "bfrpg_two_weapon_hit",
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

# --------------------------------------------------------------------------- critical hits


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
    inputs = engine.AttackInputs(
        bonus=0,
        target=0,
        dice=str(plus_bonus(as_dice(dice, engine.damage_dice), damage_bonus)),
        damage_roll=optional_int(damage_roll, "DAMAGE ROLL"),
        extra_roll=optional_int(extra_roll, "EXTRA DAMAGE ROLL"),
        choices=choices,
    )
    return engine.attack_damage(rules, inputs, outcome, as_bool(helpless, "HELPLESS"))


# --------------------------------------------------------------------------- maneuvers


@xw.func
@xw.arg("hand", doc="a Two-weapon combat row: primary_hand, off_hand, off_hand_only... (id or label)")
@xw.arg("dex_bonus", doc="the wielder's Dexterity bonus")
@cell_safe
def bfrpg_two_weapon_hit(hand: Any, dex_bonus: Any = 0) -> int:
    """Attack roll modifier with two weapons after DEX (never better than 0): -2 primary, -5 off hand."""
    rules = bfrpg_rules()
    row = rules.table("two_weapon_fighting").by_label(as_choice(rules, "two_weapon_fighting", hand))
    return bfrpg_two_weapon.two_weapon_hit(rules, row, as_int(dex_bonus, "DEX", 0))


@xw.func
@xw.arg("dice", doc="the usual melee damage, e.g. 1d8+1")
@xw.arg("backstab", doc="TRUE for backstab damage (optional)")
@cell_safe
def bfrpg_helpless_damage(dice: Any, backstab: Any = False) -> int:
    """Damage against a helpless opponent: double the maximum (1d8+1: 18)."""
    entry = "backstab_max_multiplier" if as_bool(backstab, "BACKSTAB") else "max_damage_multiplier"
    return bfrpg_helpless.helpless_damage(bfrpg_rules(), as_dice(dice, engine.damage_dice), entry)


@xw.func
@xw.arg("damage", doc="damage dealt by the jousting hit")
@cell_safe
def bfrpg_joust_save_penalty(damage: Any) -> int:
    """Save penalty against being unhorsed: -1 per full 5 points of damage."""
    return bfrpg_joust.joust_save_penalty(bfrpg_rules(), as_int(damage, "DAMAGE", 0))


@xw.func
@xw.arg("damage", doc="damage dealt by the jousting hit")
@xw.arg("save_target", doc="save vs. Death Ray needed")
@xw.arg("str_bonus", doc="Strength bonus")
@xw.arg("roll", doc="the save d20 (optional: empty until rolled)")
@cell_safe
def bfrpg_joust_result(damage: Any, save_target: Any, str_bonus: Any, roll: Any = None) -> str:
    """Stays in the saddle, or unhorsed with falling damage, stun and knockout."""
    out = bfrpg_joust.joust_outputs(
        bfrpg_rules(),
        as_int(damage, "DAMAGE", 0),
        as_int(save_target, "SAVE"),
        as_int(str_bonus, "STR", 0),
        optional_int(roll, "ROLL"),
    )
    return str(out["JOUST_RESULT"])


@xw.func
@xw.arg("stance", doc="Partial defense or Total (full) defense")
@xw.arg("parry_with", doc="Parry with a weapon / with a shield")
@xw.arg("attack_bonus", doc="attack bonus, specialization included")
@xw.arg("str_bonus", doc="Strength bonus (only with ruling parry_includes_str = with_str)")
@xw.arg("parry_number", doc="1 for the first parry this round, 2 for the second...")
@xw.arg("character_class", doc="Fighter, Cleric or Other")
@xw.arg("level", doc="the parrying character's level")
@xw.arg("ranged", doc="TRUE when parrying a ranged attack")
@cell_safe
def bfrpg_parry_bonus(
    stance: Any,
    parry_with: Any,
    attack_bonus: Any,
    str_bonus: Any = 0,
    parry_number: Any = 1,
    character_class: Any = "Other",
    level: Any = 1,
    ranged: Any = False,
) -> int:
    """What is added to the parry d20; the parry must surpass the attack roll."""
    rules = bfrpg_rules()
    inputs = bfrpg_parry.ParryInputs(
        stance=as_choice(rules, "defense_stance", stance),
        parry_with=as_choice(rules, "parry_with", parry_with),
        attack_bonus=as_int(attack_bonus, "AB", 0),
        str_bonus=as_int(str_bonus, "STR", 0),
        parry_number=as_int(parry_number, "PARRY NUMBER", 1),
        character_class=as_text(character_class, "CLASS", bfrpg_parry.OTHER_CLASS),
        level=as_int(level, "LEVEL", 1),
        ranged=as_bool(ranged, "RANGED"),
    )
    return bfrpg_parry.parry_bonus(rules, inputs)


@xw.func
@xw.arg("block_total", doc="the block roll with its bonuses")
@xw.arg("damage", doc="the attacker's damage")
@cell_safe
def bfrpg_block_result(block_total: Any, damage: Any) -> str:
    """Absorbed or Full damage (ruling block_tie decides a tie)."""
    block, hit = as_int(block_total, "BLOCK"), as_int(damage, "DAMAGE")
    tie = bfrpg_rules().ruling("block_tie") == "absorbed"
    return bfrpg_parry.BLOCK_ABSORBED if block > hit or (block == hit and tie) else bfrpg_parry.BLOCK_FULL


@xw.func
@xw.arg("shot", doc="a Firing into melee row (label or id)")
@xw.arg("bonus", doc="attack bonus with DEX")
@xw.arg("target", doc="target's AC")
@xw.arg("mods", doc="other modifiers")
@xw.arg("roll", doc="the d20")
@cell_safe
def bfrpg_firing_outcome(shot: Any, bonus: Any, target: Any, mods: Any, roll: Any) -> str:
    """Hit, Miss, or a near miss that hits the target's melee opponent."""
    rules = bfrpg_rules()
    out = bfrpg_firing.firing_outputs(
        rules,
        as_choice(rules, "firing_into_melee", shot),
        as_int(bonus, "BONUS", 0),
        as_int(target, "TARGET"),
        as_int(mods, "MODS", 0),
        as_int(roll, "ROLL"),
    )
    return str(out["FIRE_OUTCOME"])


SURPRISE = (
    ("situation", "Normal or Facing a well-hidden ambush"),
    ("adjustments", "TRUE/FALSE per Surprise range adjustments row (Elves...)"),
)


@xw.func
@arg_docs(*SURPRISE)
@cell_safe
def bfrpg_surprise_max(situation: Any, *adjustments: Any) -> int:
    """Highest d6 roll that surprises: 2 normally, 4 against an ambush, 1 less for Elves."""
    rules = bfrpg_rules()
    rows = rules.table("surprise_adjustments").rows
    ticked = [row.id for row, value in zip(rows, adjustments, strict=False) if as_bool(value, "ADJUSTMENTS")]
    return bfrpg_surprise.surprise_max(rules, as_choice(rules, "surprise_range", situation), ticked)


@xw.func
@arg_docs(("roll", "the surprise d6"), *SURPRISE)
@cell_safe
def bfrpg_is_surprised(roll: Any, situation: Any, *adjustments: Any) -> bool | str:
    """TRUE when this d6 roll means the side is surprised."""
    top = bfrpg_surprise_max(situation, *adjustments)
    if isinstance(top, str):
        return top
    die = int(bfrpg_rules().constant("surprise_roll", "surprise_die_faces"))
    value = as_int(roll, "ROLL")
    if not 1 <= value <= die:
        raise RuleError(f"#ROLL? 1 to {die}")
    return value <= top


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
