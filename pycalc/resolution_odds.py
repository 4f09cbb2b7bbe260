"""Odds before the dice are rolled, for any d20 ruleset with a ``resolution:`` block.

One attack: every (natural roll, follow roll) pair with its exact weight (advantage and disadvantage
included, the follow roll only where the block uses one) is resolved by
:func:`pycalc.resolution.resolve`. A miss or fumble does 0; a hit or critical does the formula its
result gives (:func:`pycalc.resolution.formula_for`: the hit, the critical, the critical chart's row,
the automatic hit), over every total of the damage dice and of their further rolls, with that roll's
natural penalty, through :func:`pycalc.resolution.amount` (multipliers, rounding, least). Several
attacks: independent attacks (``pycalc.odds``). Exact fractions; nothing is sampled.
"""

from __future__ import annotations

from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as engine
from pycalc.d20 import HITS
from pycalc.errors import RuleError
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
Group = tuple[engine.Coefficients, bool, int]  # (formula, multipliers applied, natural penalty)


def outcome_weights(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage
) -> tuple[Fraction, dict[Group, Fraction]]:
    """(chance of no damage from the result, chance of each damage formula and penalty)."""
    nothing = Fraction(0)
    groups: dict[Group, Fraction] = {}
    for roll, follow, weight in engine.pairs(rules, attack):
        outcome = engine.resolve(rules, attack, roll, follow)
        if outcome not in HITS or not damage.deals_damage:
            nothing += weight
            continue
        found = engine.formula_for(rules, attack, damage, outcome, follow)
        assert found is not None  # the follow roll is enumerated whenever a chart needs it
        penalty = 0 if attack.auto_hit else engine.natural_penalty(rules, attack, roll)
        key = (found[0], found[1], penalty)
        groups[key] = groups.get(key, Fraction(0)) + weight
    return nothing, groups


def dice_part(dice: dice_module.Dice, formula: engine.Coefficients) -> Distribution:
    """Chance of each dice part: dice_rolled x (the dice as rolled) + the further rolls' total."""
    if not formula.rolls_dice or not dice.count:
        return {0: Fraction(1)}
    found: Distribution = {0: Fraction(1)}
    if formula.dice_rolled:
        once = dice_module.distribution(dice_module.Dice(dice.count, dice.sides))
        found = {formula.dice_rolled * total: p for total, p in once.items()}
    if formula.rerolled:
        again = dice_module.distribution(dice_module.Dice(formula.rerolled * dice.count, dice.sides))
        found = shared_odds.add(found, again)
    return found


def damage_distribution(rules: RuleSet, attack: engine.Attack, damage: engine.Damage) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss or fumble)."""
    nothing, groups = outcome_weights(rules, attack, damage)
    found: Distribution = {0: nothing} if nothing else {}
    for (formula, multiplied, penalty), weight in groups.items():
        for rolled, chance in dice_part(damage.dice, formula).items():
            amount = engine.amount(rules, formula, damage, rolled, penalty, multiplied)
            found[amount] = found.get(amount, Fraction(0)) + weight * chance
    return {amount: p for amount, p in sorted(found.items()) if p}


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
