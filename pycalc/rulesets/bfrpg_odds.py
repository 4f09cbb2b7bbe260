"""Odds before the dice are rolled (bfrpg) as its Excel functions (``pycalc.udfs.bfrpg``) take them.

The exact distribution of the damage one attack does, and of several independent attacks, is the
generic engine's (``pycalc.attack_odds`` over ``pycalc.resolution_odds``) for an attack and its
damage already situated (``bfrpg.picked_damage``): every (d20 roll, confirmation d20) pair of the
block's die, each result with every damage-dice total (the maximum die of a confirmed critical, with
ruling critical_damage normal_plus_max_plus_roll a second roll, the charge's doubling, the halvings,
double the maximum against a helpless target, nothing from a blocked attack). The Attack
calculator's odds cells are the generic calculator's (``pycalc.resolution_calculator``). Exact
fractions; nothing sampled.
"""

from __future__ import annotations

from pycalc import attack_odds

OddsAttack = attack_odds.GenericAttack  # blocked and automatic hits in the attack, the pickers in its damage

ODDS = attack_odds.AttackOdds(attack_odds.as_given)
damage_distribution = ODDS.damage_distribution
round_distribution = ODDS.round_distribution
expected_damage = ODDS.expected_damage
chance_at_least = ODDS.chance_at_least
kill_chance = ODDS.kill_chance
