"""Odds before the d100 is rolled (spelljammer): exact distributions of hit points lost.

One attack: the outcome distribution over the d100 (automatic results included) combined with the
damage dice: a hit loses ``max(0, dice + mods - PROT)``, a critical or grievous hit
``multiplier x max(0, dice + mods)``. Several attacks: the sum of independent attacks (PROT worn by a
grievous hit counts from the next round, so every attack of the round meets the same PROT).
Everything is exact (fractions); nothing is sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice, odds
from pycalc.errors import RuleError
from pycalc.rulesets import spelljammer as engine
from pycalc.tables import RuleSet

Distribution = odds.Distribution


@dataclass(frozen=True)
class StrikeAttack:
    modified_sc: int
    damage: dice.Dice
    prot: int = 0
    damage_mods: int = 0


def hp_loss_distribution(rules: RuleSet, attack: StrikeAttack) -> Distribution:
    """Exact probability of each number of hit points lost to one attack."""
    if attack.prot < 0:
        raise RuleError("#PROT? 0 or more")
    ways, rolls = dice.counts(attack.damage)
    parts = []
    for outcome_id, chance in engine.distribution(rules, attack.modified_sc).items():
        if not chance:
            continue
        outcome = engine.outcome_named(rules, outcome_id)

        def lost(total: int, outcome: engine.Outcome = outcome) -> int:
            return engine.damage_taken(rules, max(0, total + attack.damage_mods), attack.prot, outcome)

        parts.append((chance, odds.regrouped(ways, lost), rolls))
    return odds.mixed(parts)


def check_attacks(attacks: int) -> int:
    if attacks < 0:
        raise RuleError("#ATTACKS? 0 or more")
    return attacks


def round_distribution(
    rules: RuleSet, attack: StrikeAttack, attacks: int, cap: int | None = None
) -> Distribution:
    return odds.repeated(hp_loss_distribution(rules, attack), check_attacks(attacks), cap)


def expected_hp_loss(rules: RuleSet, attack: StrikeAttack, attacks: int = 1) -> Fraction:
    return attacks * odds.mean(hp_loss_distribution(rules, attack))


def chance_at_least(rules: RuleSet, attack: StrikeAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together take at least ``amount`` hit points."""
    return odds.chance_at_least(hp_loss_distribution(rules, attack), amount, check_attacks(attacks))


def kill_chance(rules: RuleSet, attack: StrikeAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that the target, at ``hp`` hit points, is at 0 or below after the attacks."""
    return chance_at_least(rules, attack, hp, attacks)


def stun_chance(rules: RuleSet, attack: StrikeAttack, threshold: int) -> Fraction:
    """Probability that one attack stuns: the damage compared (stun_damage_basis) exceeds the threshold."""
    if rules.ruling("stun_damage_basis") == "taken":
        return sum(
            (p for lost, p in hp_loss_distribution(rules, attack).items() if lost > threshold), Fraction(0)
        )
    hit = engine.hit_chance(rules, attack.modified_sc)
    rolled = dice.distribution(attack.damage)
    return hit * sum(
        (p for total, p in rolled.items() if max(0, total + attack.damage_mods) > threshold), Fraction(0)
    )
