"""Odds before the dice are rolled (Castles & Crusades): exact distributions of the damage of attacks.

The generic engine's odds (``pycalc.resolution_odds``) over this ruleset's ``resolution:`` block: no
critical, fumble, confirmation or follow roll; one attack does 0 on a miss and, on a hit,
``max(least damage, dice + modifier + situation damage)`` for a kind that deals damage, 0 otherwise
(``cnc.generic_damage``); a natural-roll house rule ticked in the ``natural_rolls`` table is followed.
Several attacks: the sum of independent attacks. Everything is exact (fractions); nothing is sampled.
What stays here is the ruleset's own: one attack as the UDFs and the calculator describe it
(``OddsAttack``), its checks and messages in their order, and the odds cells.

``odds_outputs`` gives the Attack calculator's odds cells exactly as the native formulas of
``pycalc.sheets.cnc_odds`` show them (messages included), for the parity tests: the dice's own
message first (the odds need plainly written dice that fit the grid), then the generic calculator's
odds cells (``pycalc.resolution_calculator.odds_outputs``, whose formulas the sheet uses).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice, pickers
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_calculator as calculator
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.grid_limits import BEYOND_GRID, fits_grid
from pycalc.rulesets import cnc
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution

GRID_MESSAGE = BEYOND_GRID
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


@dataclass(frozen=True)
class OddsAttack:
    """One attack as the odds see it: the d20 part (bonus, effective AC, all modifiers) and the damage."""

    attack: Attack
    dice: str
    damage_bonus: int = 0  # situation damage (charge)
    kind: str = "melee"  # attack_types row id or label


def damage_dice(expression: object) -> dice.Dice:
    """The dice of a damage expression, checked as ``cnc.damage_dice`` checks it; the odds need dice."""
    parsed = cnc.damage_dice(expression)  # the plain-writing check (raises '#DICE? write it like 2d4+2')
    if not parsed.count:
        raise RuleError(cnc.BAD_DICE)
    return parsed


def generic_attack(rules: RuleSet, odds: OddsAttack) -> tuple[generic.Attack, generic.Damage]:
    """The attack and its damage for the generic engine, checked in this order: the dice (their
    writing, then the odds' limits on them), then the kind, which only an attack that can hit asks
    for (one that cannot does no damage whatever its kind)."""
    parsed = damage_dice(odds.dice)
    dice.counts(dice.Dice(parsed.count, parsed.sides))  # the odds' limits on the dice
    attack = cnc.as_generic(odds.attack)
    try:
        return attack, cnc.generic_damage(rules, odds.dice, odds.damage_bonus, odds.kind)
    except RuleError:
        if generic.hit_chance(rules, attack):
            raise
        return attack, generic.Damage(parsed, deals_damage=False)


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each damage of one attack (a miss: 0)."""
    return generic_odds.damage_distribution(rules, *generic_attack(rules, odds))


def expected_damage(rules: RuleSet, odds: OddsAttack, attacks: int = 1) -> Fraction:
    generic_odds.check_attacks(attacks)
    return generic_odds.expected_damage(rules, *generic_attack(rules, odds), attacks)


def chance_at_least(rules: RuleSet, odds: OddsAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    generic_odds.check_attacks(attacks)
    return generic_odds.chance_at_least(rules, *generic_attack(rules, odds), amount, attacks)


def kill_chance(rules: RuleSet, odds: OddsAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    generic_odds.check_attacks(attacks)
    return generic_odds.kill_chance(rules, *generic_attack(rules, odds), hp, attacks)


# --------------------------------------------------------------------------- the Attack calculator


def odds_attack(rules: RuleSet, inputs: cnc.AttackInputs) -> OddsAttack:
    """The attack of the calculator's inputs and situation (as ``cnc.attack_outputs`` reads them)."""
    where = cnc.situation(rules, inputs)
    situated = cnc.situated_attack(inputs, where)
    attack = Attack(situated.bonus, generic.target(rules, situated), situated.mods, situated.level)
    kind = pickers.chosen_row(rules, inputs.choices, cnc.KIND_TABLE)
    return OddsAttack(attack, inputs.dice or "", where.damage, str(kind.id))


def odds_outputs(
    rules: RuleSet, inputs: cnc.AttackInputs, attacks: int = 1, hp: int = 10
) -> dict[str, object]:
    """The odds cells of the Attack calculator (.xlsx) by defined name: numbers or the sheet's messages."""
    odds = odds_attack(rules, inputs)
    try:
        parsed = damage_dice(odds.dice) if odds.dice.strip() else None
    except RuleError as error:
        message: str | None = str(error)
    else:
        message = None if parsed is not None and fits_grid(parsed.count, parsed.sides) else GRID_MESSAGE
    if message is not None:
        shown = {
            "ATTACK_EXPECTED_DAMAGE": message,
            "ATTACK_EXPECTED_DAMAGE_ROUND": message,
            "ATTACK_KILL_CHANCE": message,
            "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(message, attacks, SEVERAL_ATTACKS),
        }
        return shared_odds.down_already(shown, hp)
    found = calculator.odds_outputs(
        rules, *generic_attack(rules, odds), calculator.CalculatorInputs(hp=hp, attacks=attacks), odds.dice
    )
    kill = found["ATTACK_KILL_CHANCE"]
    shown = {**found, "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(kill, attacks, SEVERAL_ATTACKS)}
    return shared_odds.down_already(shown, hp)
