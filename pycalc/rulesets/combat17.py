"""17 Combat (seed 002, BFRPG-derived): d20 + AB + mods >= AC, a critical chart and a critical-miss chart.

Attacks are resolved by the generic d20 engine (``pycalc.resolution``) reading the ``resolution:``
block of ``tables/combat17``: natural rolls from the ``natural_rolls`` table (a natural 20 always
hits, a natural 1 always misses), each followed by a second d20 on ``critical_hits`` /
``critical_misses`` (plain unless ruling ``critical_follow_up_roll`` says add_modifiers), the chart's
20 by a 1d4 on ``critical_conditions``, damage formulas from ``outcomes`` (regular / maximum /
critical), the situation's multiplier as the block's ``situation`` stage. The Attack calculator is
the generic one (``pycalc.resolution_calculator``). What stays here is what 17 Combat's Excel
functions (``pycalc.udfs.combat17``) and its other calculators read: one attack from a bonus, an AC
and the roll modifiers (:func:`attack_result`, :func:`attack_effect`, :func:`attack_condition`,
:func:`attack_damage`), and the chart and damage texts. Its subsystems have a module each:
``combat17_critical`` (critical damage and the condition chart), ``combat17_fumble`` (the critical
miss chart), ``combat17_rate_of_fire``, ``combat17_scatter`` (grenade scatter),
``combat17_brawling``, ``combat17_subdual``; each returns its outputs by defined name ('' where an
input is still empty, '#...' text where an input is bad), the reference the workbook's native
formulas must equal.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results
from pycalc import resolution as generic
from pycalc.d20 import HITS, Attack
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True

# Text the calculators show (the same strings are written into the workbook's formulas).
CRIT_PENDING = "Natural 20: roll the follow-up d20 on the critical hit chart"
FUMBLE_PENDING = "Natural 1: roll the follow-up d20 on the critical miss chart"
CONDITION_PENDING = "roll 1d4 on the condition chart"
CONDITION_UNUSED_START, CONDITION_UNUSED_END = "the condition roll ", " is not used by this roll: clear it"
BARRED_EFFECT = "Cannot be hit (see the ticked situation): no damage"

SITUATION_STAGE = "situation"  # the block's damage multiplier stage the ticked situations fill
NO_DICE = dice_module.Dice(0, 0, 0)
# The block has no natural-roll penalty, so the natural roll never changes a hit's damage: any face
# stands in where the generic engine asks for it.
ANY_NATURAL_ROLL = generic.LOWEST_FACE


# --------------------------------------------------------------------------- the generic engine


def generic_roll(attack: Attack, barred: bool = False) -> generic.Attack:
    """A d20 attack (bonus, AC with the situation, every modifier to the roll) as the generic engine's;
    a barred target cannot be hit (a natural 1 still fumbles)."""
    return generic.from_d20(attack, cannot_hit=barred)


def generic_damage(
    dice: dice_module.Dice, extra_modifier: int = 0, multiplier: Fraction = Fraction(1)
) -> generic.Damage:
    """The weapon's dice with the situation's damage modifier and multiplier, as the generic engine's."""
    return generic.Damage(dice, extra_modifier, multipliers={SITUATION_STAGE: multiplier})


# --------------------------------------------------------------------------- natural rolls and charts


def crit_row(rules: RuleSet, total: int) -> Row:
    """The critical chart band of a follow-up total (the chart is open at both ends)."""
    return resolution_results.chart_row(rules, resolution_results.critical_chart(rules), total)


def fumble_row(rules: RuleSet, roll: int) -> Row:
    return resolution_results.fumble_chart_row(rules, generic.check_roll(rules, roll, "FOLLOW ROLL"))


def follow_total(rules: RuleSet, attack: Attack, follow_roll: int) -> int:
    """The critical chart key: the plain d20, or d20 + the roll's modifiers (ruling)."""
    return resolution_results.follow_total(rules, generic_roll(attack), follow_roll)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
    """Miss / Hit / Critical / Fumble (``pycalc.d20``'s entry point): natural 20 always hits, natural 1
    always misses."""
    return resolution_results.result(rules, generic_roll(attack), roll, follow_roll)


def condition_row(rules: RuleSet, roll: int) -> Row:
    table = rules.table("critical_conditions")
    row = table.band(roll)
    if row is None:
        raise RuleError(f"#CONDITION ROLL? {table.rows[0].low} to {table.rows[-1].high}")
    return row


def condition_text(rules: RuleSet, roll: int) -> str:
    row = condition_row(rules, roll)
    return f"{row['condition']}: {row['effect']}"


def crit_line(rules: RuleSet, total: int, condition_roll: int | None = None) -> str:
    """What the critical chart gives for that total: the damage, and the condition where it rolls one."""
    row = crit_row(rules, total)
    text = str(rules.table("outcomes").entry(row["damage"]).label)
    if not row["condition_roll"]:
        return text
    if condition_roll is None:
        return f"{text}; {CONDITION_PENDING}"
    return f"{text}; {condition_text(rules, condition_roll)}"


def crit_effect(rules: RuleSet, roll: int) -> str:
    return crit_line(rules, roll)


def fumble_effect(rules: RuleSet, roll: int) -> str:
    return str(fumble_row(rules, roll)["effect"])


# --------------------------------------------------------------------------- damage


def parse_dice(expression: object) -> dice_module.Dice:
    return dice_module.parse(expression)


def check_damage_roll(dice: dice_module.Dice, rolled: int | None) -> int:
    """What the dice show; nothing need be typed for dice-less damage, and only 0 fits it."""
    low, high = dice.count, dice.count * dice.sides
    if rolled is None and not dice.count:
        return 0
    if rolled is None or not low <= rolled <= high:
        raise RuleError(f"#DAMAGE ROLL? {low} to {high}")
    return rolled


def damage(
    rules: RuleSet,
    outcome_id: str,
    dice: dice_module.Dice,
    rolled: int | None,
    extra_modifier: int = 0,
    multiplier: Fraction = Fraction(1),
) -> int:
    """Damage of one outcome (regular / maximum / critical), situation multiplier applied: the
    outcomes row as the generic engine's damage formula (a row that does not hit does 0)."""
    if not rules.table("outcomes").entry(outcome_id)["hits"]:
        return 0
    formula = resolution_damage.coefficients(rules, outcome_id)
    shown = check_damage_roll(dice, rolled) if formula.dice_rolled else 0
    situated = generic_damage(dice, extra_modifier, multiplier)
    return resolution_damage.amount(rules, formula, situated, formula.dice_rolled * shown)


# --------------------------------------------------------------------------- one attack (its Excel functions)


def attack_result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None, barred: bool) -> str:
    return resolution_results.result(rules, generic_roll(attack, barred), roll, follow_roll)


def attack_chances(rules: RuleSet, attack: Attack, barred: bool = False) -> dict[str, Fraction]:
    """Exact odds of each result over every natural roll and follow-up roll."""
    return resolution_chances.chances(rules, generic_roll(attack, barred))


def attack_effect(
    rules: RuleSet,
    attack: Attack,
    roll: int,
    follow_roll: int | None,
    condition_roll: int | None,
    barred: bool,
) -> str:
    """The chart line (natural 1 or 20) or what a plain hit or miss does."""
    generic.check_roll(rules, roll)
    if generic.always_misses(rules, roll):
        return FUMBLE_PENDING if follow_roll is None else fumble_effect(rules, follow_roll)
    if barred:
        return BARRED_EFFECT
    if generic.always_hits(rules, roll):
        if follow_roll is None:
            return CRIT_PENDING
        return crit_line(rules, follow_total(rules, attack, follow_roll), condition_roll)
    hit = generic.hits_by_total(rules, generic_roll(attack), roll)
    return str(rules.table("outcomes").entry("regular_damage" if hit else "miss")["effect"])


def attack_condition(
    rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None, cond: int | None, barred: bool
) -> str:
    """The 1d4 condition the target suffers ('' unless the chart's 20 and the d4 are rolled); a d4
    typed where this roll takes none is called out (left from an earlier attack, a later chart 20
    would read it)."""
    if cond is None:
        return ""
    if barred or not generic.always_hits(rules, generic.check_roll(rules, roll)):
        return condition_unused(cond)
    if follow_roll is None:
        return ""
    if not crit_row(rules, follow_total(rules, attack, follow_roll))["condition_roll"]:
        return condition_unused(cond)
    return condition_text(rules, cond)


def condition_unused(cond: int) -> str:
    return f"{CONDITION_UNUSED_START}{cond}{CONDITION_UNUSED_END}"


def attack_damage(
    rules: RuleSet,
    attack: Attack,
    outcome: str,
    follow_roll: int | None,
    dice_text: object,
    damage_roll: int | None,
    damage_bonus: int = 0,
    multiplier: Fraction = Fraction(1),
) -> int | str:
    """``resolution_damage.attack_damage`` of the result, in the generic calculator's order
    (``pycalc.resolution_calculator``): 0 for a miss or fumble, the dice's message on a hit, '' while
    the critical chart's follow-up roll or the damage roll is not in."""
    if outcome not in HITS:
        return 0
    situated = generic_damage(parse_dice(dice_text), damage_bonus, multiplier)
    return resolution_damage.attack_damage(
        rules, generic_roll(attack), situated, outcome, ANY_NATURAL_ROLL, follow_roll, damage_roll
    )


def guarded(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)
