"""Defined names of the generic Attack calculator's cells (inputs, working cells, outputs), and
:class:`Cells`: where the generic d20 formulas (``pycalc.sheets.d20_formulas``) find each value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# the engine's names for the sheet's cells
from pycalc.resolution_calculator import number_name  # noqa: F401
from pycalc.resolution_summary import EFFECT  # noqa: F401
from pycalc.sheets.common import name_part

# Defined names of the generic Attack calculator's cells (inputs, working cells, outputs)
BONUS, TARGET, MODS, LEVEL = "ATTACK_BONUS", "ATTACK_TARGET", "ATTACK_MODS", "ATTACK_LEVEL"
ROLL, FOLLOW = "ATTACK_ROLL", "ATTACK_FOLLOW_ROLL"
DICE, DAMAGE_ROLL, DAMAGE_BONUS = "ATTACK_DICE", "ATTACK_DAMAGE_ROLL", "ATTACK_DAMAGE_BONUS"
EXTRA_ROLL = "ATTACK_EXTRA_ROLL"
HP, ATTACKS = "ATTACK_TARGET_HP", "ATTACK_ATTACKS"
FACES = "ATTACK_FACES"
FOLLOW_FACES = "D20W_FOLLOW_FACES"  # written beside the face columns (d20_heat.write_face_columns)
NATURAL_PENALTY = "ATTACK_NATURAL_PENALTY"
NATURAL_HIT_CHANCE, NATURAL_CRIT_CHANCE = "ATTACK_NATURAL_HIT_CHANCE", "ATTACK_NATURAL_CRIT_CHANCE"
SIT_HIT, SIT_AC, SIT_DAMAGE = "ATTACK_SITUATION_HIT", "ATTACK_SITUATION_AC", "ATTACK_SITUATION_DAMAGE"
SIT_CANNOT_HIT, SIT_NEEDS_MAGIC, SIT_AUTO_HIT = "ATTACK_CANNOT_HIT", "ATTACK_NEEDS_MAGIC", "ATTACK_AUTO_HIT"
SIT_CRITICAL_AS_HIT = "ATTACK_CRITICAL_AS_HIT"
SIT_ADVANTAGE, SIT_DISADVANTAGE, ROLL_MODE = "ATTACK_ADVANTAGE", "ATTACK_DISADVANTAGE", "ATTACK_ROLL_MODE"
SIT_MULTIPLIER = "ATTACK_SITUATION_MULTIPLIER"
CRIT_KEEP, FUMBLE_KEEP = "ATTACK_CRIT_CHART_KEEPS", "ATTACK_FUMBLE_CHART_KEEPS"
CHART_EFFECT, CHART_ROLL = "ATTACK_CHART_EFFECT", "ATTACK_CHART_ROLL"
TOTAL_MODS, TARGET_NOW = "ATTACK_TOTAL_MODS", "ATTACK_TARGET_NOW"
RAW_NEED, NEED, NEED_BASIS = "ATTACK_RAW_NEED", "ATTACK_NEED", "ATTACK_NEED_BASIS"
CRIT_POSSIBLE, CONFIRM_CHANCE = "ATTACK_CRIT_POSSIBLE", "ATTACK_CONFIRM_CHANCE"
HIT_CHANCE, CRIT_CHANCE, FUMBLE_CHANCE = "ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE", "ATTACK_FUMBLE_CHANCE"
RESULT, DAMAGE, HP_AFTER = "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HP_AFTER"
DICE_TEXT, DICE_MESSAGE = "ATTACK_DICE_T", "ATTACK_DICE_MESSAGE"
NEAR_MISS = "ATTACK_NEAR_MISS"  # what a near Miss does (effect.near_miss_by), a counted pick's words
PICKED_DICE = "ATTACK_PICKED_DICE"  # a picked row's damage dice (a weapon's), in place of those typed
DICE_COUNT, DICE_SIDES, DICE_MOD = "ATTACK_DICE_COUNT", "ATTACK_DICE_SIDES", "ATTACK_DICE_MOD"
ADDED_ROLL, ADDED_DICE, ADDED_VALUE = "ATTACK_ADDED_ROLL", "ATTACK_ADDED_DICE", "ATTACK_ADDED_VALUE"
ADDED_ANY, ADDED_LOW, ADDED_HIGH = "ATTACK_ADDED_ANY", "ATTACK_ADDED_LOW", "ATTACK_ADDED_HIGH"
# one row each on the d20 workings: every total of the dice on the roll, and its chance
ADDED_VALUES, ADDED_CHANCES = "D20W_ADDED_VALUES", "D20W_ADDED_CHANCES"
# the confirmation over the dice on the roll (d20_heat.write_confirm_counts): each number a total of the
# dice may leave needed (the die's faces and one above), and for each how many follow-up faces confirm
# and how many critical rolls hit (no situation: the heat maps')
CONFIRM_NEEDS, CONFIRM_COUNTS, THREAT_COUNTS = (
    "D20W_CONFIRM_NEEDS",
    "D20W_CONFIRM_COUNTS",
    "D20W_THREAT_COUNTS",
)
EXACT_DIGITS = 6  # a multiplied damage is rounded to this many decimals before INT: no 2.9999999 for 3


def stage_factor_name(stage: str) -> str:
    """Defined name of the factor of a later multiplier stage (the first one's is SIT_MULTIPLIER)."""
    return f"ATTACK_MULTIPLIER_{name_part(stage)}"


def stage_round_up_name(stage: str) -> str:
    """Defined name of the flag that rounds a multiplier stage with rounding ``picked`` up."""
    return f"ATTACK_ROUND_UP_{name_part(stage)}"


@dataclass(frozen=True)
class ChartFormula:
    """The damage formula that the critical chart row read with ``key`` (the follow total) names."""

    key: str


@dataclass(frozen=True)
class Cells:
    """Where the formulas find each value: a defined name, or any expression (a ruleset's own
    calculator names its cells its own way, or gives a constant such as FALSE)."""

    bonus: str = BONUS
    target: str = TARGET
    mods: str = MODS
    level: str = LEVEL
    roll: str = ROLL
    follow: str = FOLLOW
    dice: str = DICE
    damage_roll: str = DAMAGE_ROLL
    extra_roll: str = EXTRA_ROLL
    damage_bonus: str = DAMAGE_BONUS
    hp: str = HP
    attacks: str = ATTACKS
    faces: str = FACES
    follow_faces: str = FOLLOW_FACES
    natural_penalty: str = NATURAL_PENALTY  # damage a hit on an always-hit roll loses in this attack
    sit_hit: str = SIT_HIT
    sit_ac: str = SIT_AC
    sit_damage: str = SIT_DAMAGE
    sit_cannot_hit: str = SIT_CANNOT_HIT
    sit_needs_magic: str = SIT_NEEDS_MAGIC
    sit_auto_hit: str = SIT_AUTO_HIT
    sit_advantage: str = SIT_ADVANTAGE
    sit_disadvantage: str = SIT_DISADVANTAGE
    roll_mode: str = ROLL_MODE
    sit_multiplier: str = SIT_MULTIPLIER
    crit_keep: str = CRIT_KEEP
    fumble_keep: str = FUMBLE_KEEP
    total_mods: str = TOTAL_MODS
    target_now: str = TARGET_NOW
    raw_need: str = RAW_NEED
    need: str = NEED
    need_basis: str = NEED_BASIS
    crit_possible: str = CRIT_POSSIBLE
    confirm_chance: str = CONFIRM_CHANCE
    hit_chance: str = HIT_CHANCE
    crit_chance: str = CRIT_CHANCE
    natural_hit_chance: str = NATURAL_HIT_CHANCE  # a hit or critical on an always-hit roll
    natural_crit_chance: str = NATURAL_CRIT_CHANCE  # a critical on an always-hit roll
    fumble_chance: str = FUMBLE_CHANCE
    result: str = RESULT
    damage: str = DAMAGE
    hp_after: str = HP_AFTER
    dice_text: str = DICE_TEXT
    dice_message: str = DICE_MESSAGE
    dice_count: str = DICE_COUNT
    dice_sides: str = DICE_SIDES
    dice_mod: str = DICE_MOD
    # by multiplier stage name: a later stage's factor and a picked rounding's round-up flag (missing:
    # the stage's defined name, stage_factor_name / stage_round_up_name)
    stage_multipliers: Mapping[str, str] = field(default_factory=dict)
    stage_round_up: Mapping[str, str] = field(default_factory=dict)
    critical_extra: str = "TRUE"  # FALSE: a Critical deals what a Hit deals (``resolution.Damage``)
    effect: str | None = None  # what the result does, in words (the block's ``effect``; None: nothing)
    # A ruleset of its own (``modifiers: own``) may name the damage its pickers decide: the least
    # damage of a hit (None: the block's ``damage.least``) and whether the hit deals any (a grapple),
    # read where a hit's damage is worked out (``least_of``: cnc's damage cell and its odds).
    least: str | None = None
    deals_damage: str = "TRUE"
    # Dice a picked row adds to the roll (``hit: 1d4``): whether any is picked, the range of their
    # total and the total typed (checked with the roll), and for the chances the row of their totals
    # and the row of each total's chance (None: no picker adds dice)
    added_any: str = "FALSE"
    added_roll: str = ADDED_ROLL
    added_low: str = ADDED_LOW
    added_high: str = ADDED_HIGH
    added_values: str | None = None
    added_chances: str = ADDED_CHANCES
    # the roll on a chart of its own after a Fumble or a Critical (None: no chart is rolled on so)
    chart_roll: str | None = None


# The generic workbook's other sheets and their cells (d20 workings, Damage workings, Odds)
WORKINGS_SHEET = "d20 workings"
DAMAGE_SHEET = "Damage workings"
ODDS_SHEET = "Odds"
PREFIX = "D20_DMG"
P = f"{PREFIX}_P"
HIT_DAMAGE, CRIT_DAMAGE = "D20_ODDS_HIT_DAMAGE", "D20_ODDS_CRIT_DAMAGE"
MOST_ATTACKS, MOST_HP = "D20_ODDS_MOST_ATTACKS", "D20_ODDS_MOST_HP"
FACE_CRIT_KEEPS, FACE_CRIT_FORMULAS = "D20W_CRIT_KEEPS", "D20W_CRIT_FORMULAS"
FACE_HITS, FACE_CRITS, FACE_FUMBLES, FACE_CONFIRMS, FACE_WEIGHTS = (
    "D20W_HITS",
    "D20W_CRITS",
    "D20W_FUMBLES",
    "D20W_CONFIRMS",
    "D20W_WEIGHTS",
)
CHART_CHANCE = "D20_ODDS_CHART_CHANCE"
