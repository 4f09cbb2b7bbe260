"""Odds before the dice are rolled (bfrpg): the Attack calculator's odds cells.

The exact distribution of the damage one attack does, and of several independent attacks, is the
generic engine's (``pycalc.resolution_odds``), fed with bfrpg's situation by ``bfrpg.generic_attack``:
every (d20 roll, confirmation d20) pair of the block's die resolved as ``bfrpg.attack_outputs``
resolves it, each result with every damage-dice total as ``bfrpg.attack_damage`` computes it (the
maximum die of a confirmed critical, with ruling critical_damage normal_plus_max_plus_roll a second
roll, the charge's doubling, the halvings, double the maximum against a helpless target, nothing
from a blocked attack). What is bfrpg's own here is ``odds_outputs``: the cells as the .xlsx shows
them, bfrpg's dice message first, then the generic calculator's odds cells (the native grid's
limits and messages, ``pycalc.resolution_calculator.odds_outputs``), and the round's chance to drop
the target (``round_kill``). Exact fractions; nothing sampled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_calculator as calculator
from pycalc import resolution_odds as generic_odds
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg as engine
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution

SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


class OddsAttack(NamedTuple):
    """What the odds of one attack depend on, once the situation has been worked out."""

    attack: generic.Attack  # bonus, the target's AC, every modifier to the roll, blocked, automatic hit
    damage: generic.Damage  # the damage dice used, with everything added to them, and the pickers


def odds_attack(rules: RuleSet, inputs: engine.AttackInputs) -> OddsAttack:
    """The Attack calculator's inputs and situation, as ``bfrpg.attack_outputs`` reads them."""
    return OddsAttack(*engine.generic_attack(rules, inputs))


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss)."""
    return generic_odds.damage_distribution(rules, *odds)


def round_distribution(
    rules: RuleSet, odds: OddsAttack, attacks: int, cap: int | None = None
) -> Distribution:
    """The damage of ``attacks`` independent attacks together (capped at ``cap`` when given)."""
    return generic_odds.round_distribution(rules, *odds, attacks, cap)


def expected_damage(rules: RuleSet, odds: OddsAttack, attacks: int = 1) -> Fraction:
    return generic_odds.expected_damage(rules, *odds, attacks)


def chance_at_least(rules: RuleSet, odds: OddsAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    return generic_odds.chance_at_least(rules, *odds, amount, attacks)


def kill_chance(rules: RuleSet, odds: OddsAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    return generic_odds.kill_chance(rules, *odds, hp, attacks)


def round_kill(found: dict[str, object], attacks: int) -> object:
    """The round's chance to drop the target as the .xlsx shows it: one attack's message first, then
    the round's (the attacks), then ``pycalc.odds.round_kill``."""
    one, round_expected = found["ATTACK_KILL_CHANCE"], found["ATTACK_EXPECTED_DAMAGE_ROUND"]
    if isinstance(one, str):
        return one
    if isinstance(round_expected, str):
        return round_expected
    return shared_odds.round_kill(one, attacks, SEVERAL_ATTACKS)


def odds_outputs(
    rules: RuleSet, inputs: engine.AttackInputs, attacks: int = 1, hp: int = 10
) -> dict[str, object]:
    """The odds cells of the Attack calculator as the .xlsx shows them: the dice's own message first,
    then the generic calculator's odds cells (``pycalc.resolution_calculator.odds_outputs``, whose
    formulas the sheet uses: the grid's limits, the attacks and hit points), then the round's chance."""
    names = (
        "ATTACK_EXPECTED_DAMAGE",
        "ATTACK_EXPECTED_DAMAGE_ROUND",
        "ATTACK_KILL_CHANCE",
        "ATTACK_KILL_CHANCE_ROUND",
    )
    try:
        odds = odds_attack(rules, inputs)
    except RuleError as error:
        return shared_odds.down_already(dict.fromkeys(names, str(error)), hp)
    text, _ = engine.attack_dice_text(rules, inputs)
    found = calculator.odds_outputs(rules, *odds, calculator.CalculatorInputs(hp=hp, attacks=attacks), text)
    return shared_odds.down_already({**found, "ATTACK_KILL_CHANCE_ROUND": round_kill(found, attacks)}, hp)
