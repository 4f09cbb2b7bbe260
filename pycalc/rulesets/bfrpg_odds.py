"""Odds before the dice are rolled (bfrpg): the Attack calculator's odds cells.

The exact distribution of the damage one attack does, and of several independent attacks, is the
generic engine's (``pycalc.resolution_odds``), fed with bfrpg's situation by ``bfrpg.generic_attack``:
every (d20 roll, confirmation d20) pair of the block's die resolved as ``bfrpg.attack_outputs``
resolves it, each result with every damage-dice total as ``bfrpg.attack_damage`` computes it (the
maximum die of a confirmed critical, with ruling critical_damage normal_plus_max_plus_roll a second
roll, the charge's doubling, the halvings, double the maximum against a helpless target, nothing
from a blocked attack). What is bfrpg's own here is ``odds_outputs``: the cells as the .xlsx shows
them, with the native grid's limits and messages. Exact fractions; nothing sampled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.errors import RuleError
from pycalc.grid_limits import MAX_DICE, MAX_SIDES
from pycalc.rulesets import bfrpg as engine
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution

# The workbook's native grid (pycalc.sheets.dice_grid): larger dice need the .xlsm.
GRID_MESSAGE = (
    "#DICE? NdS+M with up to {dice} dice (half that when a critical adds "
    "a second damage roll) of up to {sides} sides"
)
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


class OddsAttack(NamedTuple):
    """What the odds of one attack depend on, once the situation has been worked out."""

    attack: generic.Attack  # bonus, the target's AC, every modifier to the roll, blocked, automatic hit
    damage: generic.Damage  # the damage dice used, with everything added to them, and the pickers


def odds_attack(rules: RuleSet, inputs: engine.AttackInputs) -> OddsAttack:
    """The Attack calculator's inputs and situation, as ``bfrpg.attack_outputs`` reads them."""
    return OddsAttack(*engine.generic_attack(rules, inputs))


def two_rolls(rules: RuleSet) -> bool:
    return rules.ruling("critical_damage") == "normal_plus_max_plus_roll"


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


def fits_grid(rules: RuleSet, dice: dice_module.Dice) -> bool:
    count = dice.count * (2 if two_rolls(rules) else 1)
    return count <= MAX_DICE and dice.sides <= MAX_SIDES


def odds_outputs(
    rules: RuleSet, inputs: engine.AttackInputs, attacks: int = 1, hp: int = 10, native: bool = True
) -> dict[str, object]:
    """The odds cells of the Attack calculator (``native``: as the .xlsx shows them, grid limits)."""
    names = (
        "ATTACK_EXPECTED_DAMAGE",
        "ATTACK_EXPECTED_DAMAGE_ROUND",
        "ATTACK_KILL_CHANCE",
        "ATTACK_KILL_CHANCE_ROUND",
    )
    try:
        odds = odds_attack(rules, inputs)
    except RuleError as error:
        return dict.fromkeys(names, str(error))
    if native and not fits_grid(rules, odds.damage.dice):
        return dict.fromkeys(names, GRID_MESSAGE.format(dice=MAX_DICE, sides=MAX_SIDES))
    one = expected_damage(rules, odds)
    kill = kill_chance(rules, odds, hp)
    out: dict[str, object] = {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": one * attacks if attacks >= 0 else "#ATTACKS? 0 or more",
        "ATTACK_KILL_CHANCE": kill,
    }
    if attacks < 0:
        out["ATTACK_KILL_CHANCE_ROUND"] = "#ATTACKS? 0 or more"
    elif attacks == 0:  # no attack drops nothing; a target at 0 or below is down already
        out["ATTACK_KILL_CHANCE_ROUND"] = Fraction(int(hp <= 0))
    elif attacks == 1:
        out["ATTACK_KILL_CHANCE_ROUND"] = kill
    else:
        out["ATTACK_KILL_CHANCE_ROUND"] = SEVERAL_ATTACKS if native else kill_chance(rules, odds, hp, attacks)
    return out
