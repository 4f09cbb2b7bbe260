"""Odds before the d20 is rolled (osr): the exact distribution of the damage one attack does.

The generic engine's odds (``pycalc.resolution_odds``) of the attack and damage the Attack calculator
describes (:func:`osr.generic_attack`): every kept natural d20 (Advantage/Disadvantage) and every
fumble-check d20 resolved by the ``resolution:`` block; a Miss or Fumble does 0, a Hit or Critical
does the dice total with the expression's modifier, double damage, the natural-20 penalty of that
roll, never below the least damage, exactly as ATTACK_DAMAGE (a Critical does the same damage as a
Hit: the seed's critical effect is not a damage rule). Several attacks: the sum of independent
attacks. What stays here is osr's own: its checks of the dice (before any roll is looked at, for
the UDFs) and the Attack calculator's odds cells: the dice's message as the sheet shows it
(``odds_message``), then the generic calculator's odds cells
(``pycalc.resolution_calculator.odds_outputs``, whose formulas ``pycalc.sheets.osr_odds`` uses).
Fractions; nothing sampled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_calculator as calculator
from pycalc import resolution_odds as generic_odds
from pycalc.errors import RuleError
from pycalc.grid_limits import BEYOND_GRID, fits_grid
from pycalc.rulesets import osr
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"
BAD_DICE = osr.BAD_DICE


@dataclass(frozen=True)
class OddsAttack:
    attack: generic.Attack  # bonus, number needed, all roll modifiers, level, the situation's flags
    damage: generic.Damage  # the weapon's dice, doubled or not


def checked(odds: OddsAttack) -> OddsAttack:
    """The attack, once its dice are some dice the odds can take (whether or not any roll hits)."""
    dice = odds.damage.dice
    if dice.count < 1 or dice.sides < 1:
        raise RuleError("#DICE? write it like 2d4+2")
    dice_module.counts(dice_module.Dice(dice.count, dice.sides))  # RuleError beyond the odds' limits
    return odds


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss or fumble)."""
    checked(odds)
    return generic_odds.damage_distribution(rules, odds.attack, odds.damage)


def expected_damage(rules: RuleSet, odds: OddsAttack, attacks: int = 1) -> Fraction:
    generic_odds.check_attacks(attacks)
    return generic_odds.expected_damage(rules, checked(odds).attack, odds.damage, attacks)


def chance_at_least(rules: RuleSet, odds: OddsAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    generic_odds.check_attacks(attacks)
    return generic_odds.chance_at_least(rules, checked(odds).attack, odds.damage, amount, attacks)


def kill_chance(rules: RuleSet, odds: OddsAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    return chance_at_least(rules, odds, hp, attacks)


# --------------------------------------------------------------------------- the Attack calculator


ODDS_NAMES = (
    "ATTACK_EXPECTED_DAMAGE",
    "ATTACK_EXPECTED_DAMAGE_ROUND",
    "ATTACK_KILL_CHANCE",
    "ATTACK_KILL_CHANCE_ROUND",
)


@dataclass(frozen=True)
class OddsInputs:
    attacks: int = 1  # ATTACK_ATTACKS
    target_hp: int = 10  # ATTACK_TARGET_HP


def odds_attack(rules: RuleSet, inputs: osr.AttackInputs) -> OddsAttack:
    """The attack the Attack calculator's inputs and pickers describe."""
    return OddsAttack(*osr.generic_attack(rules, inputs))


def odds_message(text: str) -> str | None:
    """What the odds cells show instead of numbers, in the sheet's order (``pycalc.sheets.osr_odds``):
    dice the calculator cannot read (a plain number too: the odds need dice), then no dice or more
    than the grid holds; None for dice the odds take."""
    read = dice_module.PATTERN.match(re.sub(r"\s+", "", text))
    if read is None:
        return BAD_DICE
    count, sides = int(read.group(1) or 1), int(read.group(2))
    return None if fits_grid(count, sides) else BEYOND_GRID


def odds_outputs(
    rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs = OddsInputs()
) -> dict[str, object]:
    """The odds cells of the Attack calculator (.xlsx) by defined name, exactly as the native formulas
    show them (messages included): the dice's message first, then the generic calculator's odds cells
    (``pycalc.resolution_calculator.odds_outputs``, whose formulas the sheet uses).

    ATTACK_KILL_CHANCE_ROUND is the .xlsx's text for several attacks; the .xlsm's UDF
    (``osr_kill_chance``: :func:`kill_chance` over the attacks) gives the number."""
    message = odds_message(inputs.dice)
    if message is not None:
        found: dict[str, object] = dict.fromkeys(ODDS_NAMES[:3], message)
    else:
        where = calculator.CalculatorInputs(hp=more.target_hp, attacks=more.attacks)
        found = calculator.odds_outputs(rules, *osr.generic_attack(rules, inputs), where, inputs.dice)
    kill = found["ATTACK_KILL_CHANCE"]
    round_kill = shared_odds.round_kill(kill, more.attacks, SEVERAL_ATTACKS)
    return shared_odds.down_already({**found, "ATTACK_KILL_CHANCE_ROUND": round_kill}, more.target_hp)
