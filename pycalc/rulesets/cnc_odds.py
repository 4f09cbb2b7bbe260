"""Odds before the dice are rolled (Castles & Crusades): exact distributions of the damage of attacks.

The generic engine's odds (``pycalc.attack_odds`` over ``pycalc.resolution_odds``) of this ruleset's
``resolution:`` block: no critical, fumble, confirmation or follow roll; one attack does 0 on a miss
and, on a hit, ``max(least damage, dice + modifier + situation damage)`` for a kind that deals
damage, 0 otherwise (``cnc.generic_damage``); a natural-roll house rule ticked in the
``natural_rolls`` table is followed. Several attacks: the sum of independent attacks. Everything is
exact (fractions); nothing is sampled. What stays here is the ruleset's own: one attack as the Excel
functions (``pycalc.udfs.cnc``) describe it (``OddsAttack``), its checks and messages in their order.
The Attack calculator's odds cells are the generic calculator's (``pycalc.resolution_calculator``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pycalc import attack_odds, dice, resolution_chances
from pycalc import resolution as generic
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.rulesets import cnc
from pycalc.tables import RuleSet


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
    parsed = attack_odds.within_odds_limits(damage_dice(odds.dice))
    attack = cnc.as_generic(odds.attack)
    try:
        return attack, cnc.generic_damage(rules, odds.dice, odds.damage_bonus, odds.kind)
    except RuleError:
        if resolution_chances.hit_chance(rules, attack):
            raise
        return attack, generic.Damage(parsed, deals_damage=False)


ODDS = attack_odds.AttackOdds(generic_attack)
damage_distribution = ODDS.damage_distribution
expected_damage = ODDS.expected_damage
chance_at_least = ODDS.chance_at_least
kill_chance = ODDS.kill_chance
