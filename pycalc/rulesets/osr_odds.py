"""Odds before the d20 is rolled (osr): the exact distribution of the damage one attack does.

The generic engine's odds (``pycalc.attack_odds`` over ``pycalc.resolution_odds``) of the attack and
damage the Attack calculator describes (:func:`osr.generic_attack`): every kept natural d20
(Advantage/Disadvantage) and every fumble-check d20 resolved by the ``resolution:`` block; a Miss or
Fumble does 0, a Hit or Critical does the dice total with the expression's modifier, double damage,
the natural-20 penalty of that roll, never below the least damage, exactly as ATTACK_DAMAGE (a
Critical does the same damage as a Hit: the seed's critical effect is not a damage rule). Several
attacks: the sum of independent attacks. What stays here is osr's own: its checks of the dice
(before any roll is looked at, for the UDFs) and the dice's message as the Attack calculator's odds
cells show it (``odds_message``), before the generic calculator's cells (``pycalc.calculator_odds``,
whose formulas ``pycalc.sheets.osr_odds`` uses). Fractions; nothing sampled.
"""

from __future__ import annotations

import re

from pycalc import attack_odds, calculator_odds
from pycalc import dice as dice_module
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


# --------------------------------------------------------------------------- the Attack calculator


def odds_attack(rules: RuleSet, inputs: osr.AttackInputs) -> OddsAttack:
    """The attack the Attack calculator's inputs and pickers describe."""
    return OddsAttack(*osr.generic_attack(rules, inputs))


def odds_message(text: str) -> str | None:
    """What the odds cells show instead of numbers, in the sheet's order (``pycalc.sheets.osr_odds``):
    dice the calculator cannot read (a plain number too: the odds need dice), then no dice or more
    than the grid holds; None for dice the odds take."""
    read = dice_module.PATTERN.match(re.sub(r"\s+", "", text))
    if read is None:
        return osr.BAD_DICE
    return calculator_odds.grid_message(dice_module.Dice(int(read.group(1) or 1), int(read.group(2))))


def calculator_attack(rules: RuleSet, inputs: osr.AttackInputs) -> calculator_odds.CalculatorAttack | str:
    """The calculator's attack as the odds take it, or the message its odds cells show instead."""
    message = odds_message(inputs.dice)
    if message is not None:
        return message
    return calculator_odds.CalculatorAttack(*osr.generic_attack(rules, inputs), inputs.dice)


def odds_outputs(
    rules: RuleSet, inputs: osr.AttackInputs, attacks: int = 1, hp: int = 10
) -> dict[str, object]:
    """The odds cells of the Attack calculator (.xlsx) by defined name, exactly as the native formulas
    show them (messages included). ATTACK_KILL_CHANCE_ROUND is the .xlsx's text for several attacks;
    the .xlsm's UDF (``osr_kill_chance``: :func:`kill_chance` over the attacks) gives the number."""
    return calculator_odds.calculator_cells(rules, calculator_attack(rules, inputs), attacks, hp)
