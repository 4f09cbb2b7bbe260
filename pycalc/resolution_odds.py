"""Odds before the dice are rolled, for any d20 ruleset with a ``resolution:`` block.

One attack: every (natural roll, follow roll) pair with its exact weight (advantage and disadvantage
included, the follow roll only where the block uses one) is resolved by
:func:`pycalc.resolution_results.resolve`. A miss or fumble does 0; a hit or critical does the formula its
result gives (:func:`pycalc.resolution_damage.formula_for`: the hit, the critical, the critical chart's row,
the automatic hit), over every total of the damage dice and of their further rolls, with that roll's
natural penalty, through :func:`pycalc.resolution_damage.amount` (multipliers, rounding, least). Several
attacks: independent attacks (``pycalc.odds``). Dice a picker adds to the roll (``Attack.added``): the
attack once per total of those dice, weighted (``resolution.fixed_attacks``). Exact fractions; nothing
is sampled.
"""

from __future__ import annotations

import math
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as engine
from pycalc import resolution_added, resolution_chances, resolution_damage, resolution_results
from pycalc.d20 import HITS
from pycalc.errors import RuleError
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
Group = tuple[resolution_damage.Coefficients, bool, int]  # (formula, multipliers applied, natural penalty)


def fraction_sum(terms: list[Fraction]) -> Fraction:
    """The exact sum of many fractions with one reduction: whole numbers over their common denominator."""
    if not terms:
        return Fraction(0)
    denominator = math.lcm(*{term.denominator for term in terms})
    return Fraction(sum(term.numerator * (denominator // term.denominator) for term in terms), denominator)


def outcome_weights(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage
) -> tuple[Fraction, dict[Group, Fraction]]:
    """(chance of no damage from the result, chance of each damage formula and penalty).

    Every (natural roll, follow roll) pair of ``resolution_chances.pairs``, with the pair's weight taken as the
    roll's weight times the follow roll's: the follow rolls' chances are summed per roll and result
    first (``fraction_sum``), each result's formula is looked up once per (result, follow roll) and
    each roll's penalty once per roll. A roll that no follow roll decides (``resolution_results.follow_matters``)
    is resolved once, with its whole weight."""
    follows = resolution_chances.follow_weights(rules)
    nothing: list[Fraction] = []
    groups: dict[Group, list[Fraction]] = {}
    formulas: dict[tuple[str, int | None], tuple[resolution_damage.Coefficients, bool] | None] = {}
    for roll, weight in resolution_chances.roll_weights(rules, attack):
        missed: list[Fraction] = []
        hit: dict[Group, list[Fraction]] = {}
        followed = (
            follows
            if resolution_results.follow_matters(rules, attack, roll)
            else [(follows[0][0], Fraction(1))]
        )
        for follow, chance in followed:
            outcome = resolution_results.resolve(rules, attack, roll, follow)
            if outcome not in HITS or not resolution_damage.deals(rules, damage):
                missed.append(chance)
                continue
            if (outcome, follow) not in formulas:
                formulas[(outcome, follow)] = resolution_damage.formula_for(
                    rules, attack, damage, outcome, follow
                )
            found = formulas[(outcome, follow)]
            assert found is not None  # the follow roll is enumerated whenever a chart needs it
            penalty = 0 if attack.auto_hit else resolution_damage.natural_penalty(rules, attack, roll)
            hit.setdefault((found[0], found[1], penalty), []).append(chance)
        if missed:
            nothing.append(weight * fraction_sum(missed))
        for key, chances in hit.items():
            groups.setdefault(key, []).append(weight * fraction_sum(chances))
    return fraction_sum(nothing), {key: fraction_sum(terms) for key, terms in groups.items()}


def dice_part_counts(
    dice: dice_module.Dice, formula: resolution_damage.Coefficients
) -> tuple[dict[int, int], int]:
    """The dice part of a formula, dice_rolled x (the dice as rolled) + the further rolls' total, as whole
    numbers: how many of the equally likely rolls give each value, and of how many rolls."""
    if not formula.rolls_dice or not dice.count:
        return {0: 1}, 1
    if formula.dice_rolled in (0, 1):  # the dice (each roll within the limits) and the further rolls
        together = dice_module.Dice((formula.dice_rolled + formula.rerolled) * dice.count, dice.sides)
        dice_module.counts(dice_module.Dice(dice.count, dice.sides))  # the limits of one roll
        return dice_module.counts_within_limits(together)  # as one roll of them all
    found, rolls = {0: 1}, 1
    if formula.dice_rolled:
        once, rolls = dice_module.counts(dice_module.Dice(dice.count, dice.sides))
        found = {formula.dice_rolled * total: count for total, count in once.items()}
    if formula.rerolled:
        again, again_rolls = dice_module.counts(dice_module.Dice(formula.rerolled * dice.count, dice.sides))
        summed: dict[int, int] = {}
        for a, count in found.items():
            for b, other in again.items():
                summed[a + b] = summed.get(a + b, 0) + count * other
        found, rolls = summed, rolls * again_rolls
    return found, rolls


def damage_distribution(rules: RuleSet, attack: engine.Attack, damage: engine.Damage) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss or fumble), over every
    total of the dice the situation adds to the roll."""
    found: Distribution = {}
    for fixed, share in resolution_added.fixed_attacks(attack):
        for amount, chance in fixed_damage_distribution(rules, fixed, damage).items():
            found[amount] = found.get(amount, Fraction(0)) + share * chance
    return found


def fixed_damage_distribution(rules: RuleSet, attack: engine.Attack, damage: engine.Damage) -> Distribution:
    """:func:`damage_distribution` of an attack with no dice added to its roll."""
    nothing, groups = outcome_weights(rules, attack, damage)
    parts: list[shared_odds.Part] = [(nothing, {0: 1}, 1)]
    for (formula, multiplied, penalty), weight in groups.items():
        ways, rolls = dice_part_counts(damage.dice, formula)
        amount = resolution_damage.amount_rule(rules, formula, damage, penalty, multiplied)
        parts.append((weight, shared_odds.regrouped(ways, amount), rolls))
    return shared_odds.mixed(parts)


def check_attacks(attacks: int) -> int:
    if attacks < 0:
        raise RuleError("#ATTACKS? 0 or more")
    return attacks


def round_distribution(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage, attacks: int, cap: int | None = None
) -> Distribution:
    """The damage of ``attacks`` independent attacks together (capped at ``cap`` when given)."""
    check_attacks(attacks)
    return shared_odds.repeated(damage_distribution(rules, attack, damage), attacks, cap)


def expected_damage(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage, attacks: int = 1
) -> Fraction:
    check_attacks(attacks)
    return attacks * shared_odds.mean(damage_distribution(rules, attack, damage))


def chance_at_least(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage, amount: int, attacks: int = 1
) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    check_attacks(attacks)
    return shared_odds.chance_at_least(damage_distribution(rules, attack, damage), amount, attacks)


def kill_chance(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage, hp: int, attacks: int = 1
) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    return chance_at_least(rules, attack, damage, hp, attacks)
