"""17 Combat (seed 002, BFRPG-derived): d20 + AB + mods >= AC, a critical chart and a critical-miss chart.

Attacks are resolved by the generic d20 engine (``pycalc.resolution``) reading the ``resolution:``
block of ``tables/combat17``: natural rolls from the ``natural_rolls`` table (a natural 20 always
hits, a natural 1 always misses), each followed by a second d20 on ``critical_hits`` /
``critical_misses`` (plain unless ruling ``critical_follow_up_roll`` says add_modifiers), the chart's
20 by a 1d4 on ``critical_conditions``, damage formulas from ``outcomes`` (regular / maximum /
critical), the situation's multiplier as the block's ``situation`` stage. The Attack calculator is
the generic one (``pycalc.resolution_calculator``), and so are the attack's Excel functions (the
shared ``d20_*`` of ``pycalc.udfs.shared``). What stays here is what its other calculators and the
chart functions read: the result of one attack (the engine registry, ``pycalc.d20_engines``), the
chart texts (``crit_effect``, ``fumble_effect``), and the damage of an outcome (brawling's). The DEX
check a critical miss chart row calls for is the block's (``fumble.check``, ``pycalc.resolution_check``).
Its subsystems have a module each: ``combat17_rate_of_fire``, ``combat17_scatter`` (grenade scatter),
``combat17_brawling``, ``combat17_subdual``; each returns its outputs by defined name ('' where an
input is still empty, '#...' text where an input is bad), the reference the workbook's native
formulas must equal.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import pickers, resolution_damage, resolution_results
from pycalc import resolution as generic
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True

# Text the calculators show (the same strings are written into the workbook's formulas).
CONDITION_PENDING = "roll 1d4 on the condition chart"

SITUATION_STAGE = "situation"  # the block's damage multiplier stage the ticked situations fill


# --------------------------------------------------------------------------- the generic engine


def generic_roll(attack: Attack, barred: bool = False) -> generic.Attack:
    """A d20 attack (bonus, AC with the situation, every modifier to the roll) as the generic engine's;
    a barred target cannot be hit (a natural 1 still fumbles)."""
    return generic.from_d20(attack, cannot_hit=barred)


def generic_damage(dice: dice_module.Dice, extra_modifier: int = 0) -> generic.Damage:
    """The weapon's dice with a damage modifier, as the generic engine's (no situation multiplier)."""
    return generic.Damage(dice, extra_modifier, multipliers={SITUATION_STAGE: Fraction(1)})


# --------------------------------------------------------------------------- natural rolls and charts


def crit_row(rules: RuleSet, total: int) -> Row:
    """The critical chart band of a follow-up total (the chart is open at both ends)."""
    return resolution_results.chart_row(rules, resolution_results.critical_chart(rules), total)


def fumble_row(rules: RuleSet, roll: int) -> Row:
    return resolution_results.fumble_chart_row(rules, generic.check_roll(rules, roll, "FOLLOW ROLL"))


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
    """Miss / Hit / Critical / Fumble (``pycalc.d20``'s entry point): natural 20 always hits, natural 1
    always misses."""
    return resolution_results.result(rules, generic_roll(attack), roll, follow_roll)


def crit_effect(rules: RuleSet, roll: int) -> str:
    """What the critical chart gives for that roll: the damage, and that the condition chart follows
    where its row says so."""
    row = crit_row(rules, roll)
    text = str(rules.table("outcomes").entry(row["damage"]).label)
    return f"{text}; {CONDITION_PENDING}" if row["condition_roll"] else text


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
) -> int:
    """Damage of one outcome (regular / maximum / critical), an extra modifier added: the
    outcomes row as the generic engine's damage formula (a row that does not hit does 0)."""
    if not rules.table("outcomes").entry(outcome_id)["hits"]:
        return 0
    formula = resolution_damage.coefficients(rules, outcome_id)
    shown = check_damage_roll(dice, rolled) if formula.dice_rolled else 0
    situated = generic_damage(dice, extra_modifier)
    return resolution_damage.amount(rules, formula, situated, formula.dice_rolled * shown)


def guarded(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)
