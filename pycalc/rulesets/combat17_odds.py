"""Odds before the dice are rolled (17 Combat): the exact distribution of the damage of one attack.

The generic engine's odds (``pycalc.attack_odds`` over ``pycalc.resolution_odds``) for the attack as
this ruleset's calculator sees it (:class:`OddsAttack`: the roll, the dice, the barred target, the
situation's damage multiplier and modifier, handed over by :func:`generic_of`): every natural d20 and
every follow-up d20 on the critical chart weighed, a miss or fumble doing 0, a hit regular damage, a
natural 20 the damage kind the critical chart gives, each over every total of the damage dice.
Several attacks add up as independent attacks (a capped convolution). What is this module's own is
the Attack calculator's odds cells (:func:`odds_outputs`: its sheet takes any number of attacks and
hit points, and says so in its own words) and the chance of each damage kind
(:func:`outcome_weights`, the Odds sheet's natural-20 shares). Fractions throughout; nothing is
sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import attack_odds, resolution_damage
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import Attack
from pycalc.rulesets import combat17 as engine
from pycalc.tables import RuleSet

ATTACKS_MESSAGE = "#ATTACKS? 0 or more"
MISS_ROW = "miss"


@dataclass(frozen=True)
class OddsAttack:
    """One attack as the Attack calculator sees it, before any die is rolled."""

    attack: Attack  # bonus, AC with the situation, all roll modifiers
    dice: dice_module.Dice
    barred: bool = False
    multiplier: Fraction = Fraction(1)
    damage_mod: int = 0  # the situation's extra damage modifier


def generic_of(rules: RuleSet, odds: OddsAttack) -> tuple[generic.Attack, generic.Damage]:
    """The attack and its damage as the generic engine's, once the dice are checked: dice beyond the
    odds' limits say so even when no roll can hit (the generic engine reads the dice only for a hit)."""
    attack_odds.within_odds_limits(odds.dice)
    return (
        engine.generic_roll(odds.attack, odds.barred),
        engine.generic_damage(odds.dice, odds.damage_mod, odds.multiplier),
    )


ODDS = attack_odds.AttackOdds(generic_of)
damage_distribution = ODDS.damage_distribution
round_distribution = ODDS.round_distribution
expected_damage = ODDS.expected_damage
chance_at_least = ODDS.chance_at_least
kill_chance = ODDS.kill_chance


def outcome_weights(rules: RuleSet, attack: Attack, barred: bool = False) -> dict[str, Fraction]:
    """Chance of each outcomes row (miss / regular / maximum / critical damage) over both d20s: the
    generic engine's chance of each damage formula, named by the outcomes row it is read from."""
    nothing, formulas = generic_odds.outcome_weights(
        rules, engine.generic_roll(attack, barred), engine.generic_damage(engine.NO_DICE)
    )
    rows = rules.table("outcomes").rows
    named = {resolution_damage.coefficients(rules, str(row.id)): str(row.id) for row in rows if row["hits"]}
    found = {MISS_ROW: nothing} if nothing else {}
    for (formula, _, _), chance in formulas.items():
        found[named[formula]] = found.get(named[formula], Fraction(0)) + chance
    return found
