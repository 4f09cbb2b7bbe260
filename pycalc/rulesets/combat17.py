"""17 Combat (seed 002, BFRPG-derived): d20 + AB + mods >= AC, a critical chart and a critical-miss chart.

Attacks are resolved by the generic d20 engine (``pycalc.resolution``) reading the ``resolution:``
block of ``tables/combat17``: natural rolls from the ``natural_rolls`` table (a natural 20 always
hits, a natural 1 always misses), each followed by a second d20 on ``critical_hits`` /
``critical_misses`` (plain unless ruling ``critical_follow_up_roll`` says add_modifiers), damage
formulas from ``outcomes`` (regular / maximum / critical), the situation's multiplier as the block's
``situation`` stage. What is this ruleset's own stays here: the situation its pickers add up to
(:func:`situation`, handed to the engine by :func:`generic_roll` and :func:`generic_damage`), the
effect and chart texts and the damage the Attack calculator reads. Its subsystems have a module
each: ``combat17_critical`` (critical damage and the condition chart), ``combat17_fumble`` (the
critical miss chart), ``combat17_rate_of_fire``, ``combat17_scatter`` (grenade scatter),
``combat17_brawling``, ``combat17_subdual``. Every calculator of the workbook is one pure function
(here or in those modules), returning its outputs by defined name ('' where an input is still empty,
'#...' text where an input is bad), the reference that the workbook's native formulas must equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT, HITS, OUTCOMES, Attack
from pycalc.errors import RuleError
from pycalc.pickers import chosen_row
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True

# Text the calculators show (the same strings are written into the workbook's formulas).
CRIT_PENDING = "Natural 20: roll the follow-up d20 on the critical hit chart"
FUMBLE_PENDING = "Natural 1: roll the follow-up d20 on the critical miss chart"
CONDITION_PENDING = "roll 1d4 on the condition chart"
CONDITION_UNUSED_START, CONDITION_UNUSED_END = "the condition roll ", " is not used by this roll: clear it"
BARRED_EFFECT = "Cannot be hit (see the ticked situation): no damage"
LETHAL, NON_LETHAL = "lethal", "non-lethal"

ANY_ATTACK = pickers.ANY
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


# --------------------------------------------------------------------------- the Attack calculator


@dataclass(frozen=True)
class AttackInputs:
    bonus: int = 0
    target: int = 10
    mods: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    level: int = 0
    dice: str = "1d8"
    damage_roll: int | None = None
    condition_roll: int | None = None
    choices: dict[str, str] = field(default_factory=dict)  # picker table id -> row label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (table id, row id) ticked


@dataclass(frozen=True)
class Situation:
    kind: str  # attack_kind row id
    hit: int
    ac: int
    damage: int
    multiplier: Fraction
    non_lethal: bool
    barred: bool


def non_lethal(rules: RuleSet, inputs: AttackInputs) -> bool:
    """Whether a pick that counts for the attack's kind deals non-lethal damage (Flat of the blade)."""
    tables = resolution_situation.modifier_tables(rules)
    picks = pickers.picked(rules, inputs.choices, inputs.toggles, tables)
    _, counted = pickers.counted_picks(rules, pickers.declared(rules), picks)
    return pickers.flagged((row for _, row in counted), "non_lethal")


def situation(rules: RuleSet, inputs: AttackInputs) -> Situation:
    """Everything the pickers add: to the roll, to the target's AC, to and times the damage
    (``resolution_situation.picked_situation``), with the attack's kind and what is non-lethal."""
    picked = resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles)
    return Situation(
        kind=str(chosen_row(rules, inputs.choices, "attack_kind").id),
        hit=picked.hit,
        ac=picked.ac,
        damage=picked.damage,
        multiplier=picked.multiplier,
        non_lethal=non_lethal(rules, inputs),
        barred=picked.cannot_hit,
    )


def situated_attack(inputs: AttackInputs, where: Situation) -> Attack:
    return Attack(inputs.bonus, inputs.target + where.ac, inputs.mods + where.hit, inputs.level)


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
    where: Situation,
) -> int | str:
    """``resolution_damage.attack_damage`` of the result, in the generic calculator's order
    (``pycalc.resolution_calculator``): 0 for a miss or fumble, the dice's message on a hit, '' while
    the critical chart's follow-up roll or the damage roll is not in."""
    if outcome not in HITS:
        return 0
    situated = generic_damage(parse_dice(dice_text), where.damage, where.multiplier)
    return resolution_damage.attack_damage(
        rules, generic_roll(attack), situated, outcome, ANY_NATURAL_ROLL, follow_roll, damage_roll
    )


def guarded(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, Any]:
    """Every output cell of the Attack calculator, by defined name."""
    where = situation(rules, inputs)
    attack = situated_attack(inputs, where)
    rolled = generic_roll(attack, where.barred)
    odds = resolution_chances.chances(rules, rolled)
    found: dict[str, Any] = {
        "ATTACK_SITUATION_HIT": where.hit,
        "ATTACK_SITUATION_AC": where.ac,
        "ATTACK_SITUATION_DAMAGE": where.damage,
        "ATTACK_DAMAGE_MULTIPLIER": where.multiplier,
        "ATTACK_BARRED": where.barred,
        "ATTACK_TOTAL_MODS": rolled.mods,
        "ATTACK_AC": generic.target(rules, rolled),
        "ATTACK_NEED": generic.need(rules, rolled),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": odds[FUMBLE],
        "ATTACK_DAMAGE_KIND": NON_LETHAL if where.non_lethal else LETHAL,
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_CONDITION": "",
        "ATTACK_DAMAGE": "",
    }
    if inputs.roll is None:
        return found
    outcome = guarded(resolution_results.result, rules, rolled, inputs.roll, inputs.follow_roll)
    found["ATTACK_RESULT"] = outcome
    if outcome not in OUTCOMES:
        return found
    args = (rules, attack, inputs.roll, inputs.follow_roll)
    found["ATTACK_EFFECT"] = guarded(attack_effect, *args, inputs.condition_roll, where.barred)
    found["ATTACK_CONDITION"] = guarded(attack_condition, *args, inputs.condition_roll, where.barred)
    found["ATTACK_DAMAGE"] = guarded(
        attack_damage, rules, attack, outcome, inputs.follow_roll, inputs.dice, inputs.damage_roll, where
    )
    return found


# --------------------------------------------------------------------------- the generic engine's inputs


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``):
    the situation the pickers add up to is this ruleset's own."""
    where = situation(rules, inputs)
    attack = generic_roll(situated_attack(inputs, where), where.barred)
    return attack, generic_damage(parse_dice(inputs.dice), where.damage, where.multiplier)
