"""Odds before the dice are rolled of one attack as a d20 ruleset describes it, on the generic engine.

A ruleset describes one attack its own way (the ``OddsAttack`` of ``pycalc.rulesets.<id>_odds``: what
its UDFs read from the cells and its Attack calculator from its inputs and pickers). The contract:
it hands :class:`AttackOdds` one function, ``generic_of``, that checks that attack in the ruleset's own
order (its dice first: their writing, then :func:`within_odds_limits`, each with the ruleset's message)
and gives it as the generic engine's attack and damage (``pycalc.resolution``), raising ``RuleError``
with the message the UDF shows. Everything after is the generic engine's (``pycalc.resolution_odds``):
one attack's exact damage distribution, several independent attacks, the expected damage, the chance
of at least some damage and of dropping a target. The number of attacks is checked first, before the
attack's own checks: a UDF given both wrong says the attacks' message. Exact fractions; nothing is
sampled.

The ruleset's odds module names the methods of its ``AttackOdds`` as its own functions
(``expected_damage = ODDS.expected_damage``...): the UDFs reach them there (``pycalc.udfs.d20_odds``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
RulesetAttack = TypeVar("RulesetAttack")  # a ruleset's own OddsAttack


class GenericAttack(NamedTuple):
    """One attack whose situation the ruleset has already worked out into the generic engine's."""

    attack: generic.Attack  # bonus, target, every modifier to the roll, the situation's flags
    damage: generic.Damage  # the dice with everything added to them, the multipliers


def as_given(rules: RuleSet, odds: GenericAttack) -> tuple[generic.Attack, generic.Damage]:
    """``generic_of`` for an attack that already is the generic engine's, its dice checked when read."""
    return odds


def within_odds_limits(dice: dice_module.Dice) -> dice_module.Dice:
    """The dice, once the odds can roll them (``RuleError`` beyond the odds' limits, ``dice.counts``):
    for a ruleset whose dice say so even when no roll can hit (the engine reads them only for a hit)."""
    dice_module.counts(dice_module.Dice(dice.count, dice.sides))
    return dice


@dataclass(frozen=True)
class AttackOdds(Generic[RulesetAttack]):
    """A ruleset's odds: its attack made the generic engine's (``generic_of``), then the generic odds."""

    generic_of: Callable[[RuleSet, RulesetAttack], tuple[generic.Attack, generic.Damage]]

    def damage_distribution(self, rules: RuleSet, odds: RulesetAttack) -> Distribution:
        """Exact probability of each amount of damage one attack does (0 for a miss or fumble)."""
        return generic_odds.damage_distribution(rules, *self.generic_of(rules, odds))

    def round_distribution(
        self, rules: RuleSet, odds: RulesetAttack, attacks: int, cap: int | None = None
    ) -> Distribution:
        """The damage of ``attacks`` independent attacks together (capped at ``cap`` when given)."""
        generic_odds.check_attacks(attacks)
        return generic_odds.round_distribution(rules, *self.generic_of(rules, odds), attacks, cap)

    def expected_damage(self, rules: RuleSet, odds: RulesetAttack, attacks: int = 1) -> Fraction:
        """Expected damage of ``attacks`` independent attacks (a miss counts 0)."""
        generic_odds.check_attacks(attacks)
        return generic_odds.expected_damage(rules, *self.generic_of(rules, odds), attacks)

    def chance_at_least(self, rules: RuleSet, odds: RulesetAttack, amount: int, attacks: int = 1) -> Fraction:
        """Probability that the attacks together do at least ``amount`` damage."""
        generic_odds.check_attacks(attacks)
        return generic_odds.chance_at_least(rules, *self.generic_of(rules, odds), amount, attacks)

    def kill_chance(self, rules: RuleSet, odds: RulesetAttack, hp: int, attacks: int = 1) -> Fraction:
        """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
        return self.chance_at_least(rules, odds, hp, attacks)
