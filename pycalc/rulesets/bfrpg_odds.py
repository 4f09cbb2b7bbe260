"""Odds before the dice are rolled (bfrpg): the Attack calculator's odds cells.

The exact distribution of the damage one attack does, and of several independent attacks, is the
generic engine's (``pycalc.attack_odds`` over ``pycalc.resolution_odds``), fed with bfrpg's situation
by ``bfrpg.generic_attack``: every (d20 roll, confirmation d20) pair of the block's die resolved as
``bfrpg.attack_outputs`` resolves it, each result with every damage-dice total as
``bfrpg.attack_damage`` computes it (the maximum die of a confirmed critical, with ruling
critical_damage normal_plus_max_plus_roll a second roll, the charge's doubling, the halvings, double
the maximum against a helpless target, nothing from a blocked attack). What is bfrpg's own here is
which attack the calculator's inputs describe, its message first (``calculator_attack``), and that
the round's chance to drop the target shows one attack's message, then the round's, first
(``ROUND_MESSAGES_FIRST``); the cells are the generic calculator's (``pycalc.calculator_odds``).
Exact fractions; nothing sampled.
"""

from __future__ import annotations

from pycalc import attack_odds, calculator_odds
from pycalc import odds as shared_odds
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg as engine
from pycalc.tables import RuleSet

OddsAttack = attack_odds.GenericAttack  # blocked and automatic hits in the attack, the pickers in its damage
ROUND_MESSAGES_FIRST = (shared_odds.KILL, shared_odds.EXPECTED_ROUND)

ODDS = attack_odds.AttackOdds(attack_odds.as_given)
damage_distribution = ODDS.damage_distribution
round_distribution = ODDS.round_distribution
expected_damage = ODDS.expected_damage
chance_at_least = ODDS.chance_at_least
kill_chance = ODDS.kill_chance


def odds_attack(rules: RuleSet, inputs: engine.AttackInputs) -> OddsAttack:
    """The Attack calculator's inputs and situation, as ``bfrpg.attack_outputs`` reads them."""
    return OddsAttack(*engine.generic_attack(rules, inputs))


def calculator_attack(rules: RuleSet, inputs: engine.AttackInputs) -> calculator_odds.CalculatorAttack | str:
    """The calculator's attack as the odds take it, or bfrpg's message for its dice instead."""
    try:
        odds = odds_attack(rules, inputs)
    except RuleError as error:
        return str(error)
    text, _ = engine.attack_dice_text(rules, inputs)
    return calculator_odds.CalculatorAttack(*odds, text)


def odds_outputs(
    rules: RuleSet, inputs: engine.AttackInputs, attacks: int = 1, hp: int = 10
) -> dict[str, object]:
    """The odds cells of the Attack calculator as the .xlsx shows them: the dice's own message first,
    then the generic calculator's odds cells (the grid's limits, the attacks and hit points)."""
    attack = calculator_attack(rules, inputs)
    return calculator_odds.calculator_cells(rules, attack, attacks, hp, ROUND_MESSAGES_FIRST)
