"""Odds before the d20 is rolled (osr's Excel functions): the exact distribution of the damage one attack does.

The generic engine's odds (``pycalc.attack_odds`` over ``pycalc.resolution_odds``) of an attack and
its damage: every kept natural d20 (Advantage/Disadvantage) and every fumble-check d20 resolved by
the ``resolution:`` block; a Miss or Fumble does 0, a Hit or Critical does the dice total with the
expression's modifier, double damage, the natural-20 penalty of that roll, never below the least
damage, exactly as the Attack calculator's damage (a Critical does the same damage as a Hit: the
seed's critical effect is not a damage rule). Several attacks: the sum of independent attacks. What
stays here is osr's own: its checks of the dice, before any roll is looked at. Fractions; nothing
sampled.
"""

from __future__ import annotations

from pycalc import attack_odds
from pycalc import resolution as generic
from pycalc.errors import RuleError
from pycalc.rulesets import osr
from pycalc.tables import RuleSet

OddsAttack = attack_odds.GenericAttack  # the attack with its situation; the weapon's dice, doubled or not


def checked(rules: RuleSet, odds: OddsAttack) -> tuple[generic.Attack, generic.Damage]:
    """The attack, once its dice are some dice the odds can take (whether or not any roll hits)."""
    dice = odds.damage.dice
    if dice.count < 1 or dice.sides < 1:
        raise RuleError(osr.BAD_DICE)
    attack_odds.within_odds_limits(dice)
    return odds


ODDS = attack_odds.AttackOdds(checked)
damage_distribution = ODDS.damage_distribution
expected_damage = ODDS.expected_damage
chance_at_least = ODDS.chance_at_least
kill_chance = ODDS.kill_chance
