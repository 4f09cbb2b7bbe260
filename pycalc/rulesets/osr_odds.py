"""Odds before the d20 is rolled (osr): the exact distribution of the damage one attack does.

The generic engine's odds (``pycalc.resolution_odds``) of the attack and damage the Attack calculator
describes (:func:`osr.generic_attack`): every kept natural d20 (Advantage/Disadvantage) and every
fumble-check d20 resolved by the ``resolution:`` block; a Miss or Fumble does 0, a Hit or Critical
does the dice total with the expression's modifier, double damage, the natural-20 penalty of that
roll, never below the least damage, exactly as ATTACK_DAMAGE (a Critical does the same damage as a
Hit: the seed's critical effect is not a damage rule). Several attacks: the sum of independent
attacks. What stays here is osr's own: its checks of the dice (before any roll is looked at) and
the Attack calculator's odds cells. Fractions; nothing sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.errors import RuleError
from pycalc.rulesets import osr
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


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


def odds_outputs(
    rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs = OddsInputs()
) -> dict[str, object]:
    """The odds cells of the Attack calculator (engine reference; the .xlsm's UDF values).

    ATTACK_KILL_CHANCE_ROUND is the .xlsx's text for several attacks; ``round_kill_chance`` gives
    the number the .xlsm shows."""
    try:
        odds = odds_attack(rules, inputs)
        one = expected_damage(rules, odds)
        kill = kill_chance(rules, odds, more.target_hp)
        round_damage: object = osr.shown(expected_damage, rules, odds, more.attacks)
    except RuleError as error:
        found = dict.fromkeys(ODDS_NAMES, str(error))
        return {
            **found,
            "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(
                str(error), more.attacks, more.target_hp, SEVERAL_ATTACKS
            ),
        }
    return {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": round_damage,
        "ATTACK_KILL_CHANCE": kill,
        "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(
            kill, more.attacks, more.target_hp, SEVERAL_ATTACKS
        ),
    }


def round_kill_chance(rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs) -> object:
    """ATTACK_KILL_CHANCE_ROUND as the .xlsm computes it (osr_kill_chance)."""
    try:
        return kill_chance(rules, odds_attack(rules, inputs), more.target_hp, more.attacks)
    except RuleError as error:
        return str(error)
