"""Odds before the d100 roll: exact distributions checked against brute force and a seeded Monte Carlo."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import dice
from pycalc.rulesets import spelljammer as strike
from pycalc.rulesets import spelljammer_odds as strike_odds
from pycalc.tables import load_ruleset

RULES = load_ruleset("spelljammer")


def brute_force(
    modified: int, expression: str, prot: int, damage_mods: int, attacks: int
) -> dict[int, Fraction]:
    """Every d100 roll and every face of every die of every attack, one by one."""
    parsed = dice.parse(expression)
    one_attack = list(
        itertools.product(range(1, 101), itertools.product(range(1, parsed.sides + 1), repeat=parsed.count))
    )
    weight = Fraction(1, len(one_attack))
    losses: dict[int, Fraction] = {}
    for roll, faces in one_attack:
        outcome = strike.resolve(RULES, modified, roll)
        rolled = max(0, sum(faces) + parsed.modifier + damage_mods)
        lost = max(0, rolled * outcome.damage_multiplier - (prot if outcome.prot_applies else 0))
        losses[lost] = losses.get(lost, Fraction(0)) + weight
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(attacks):
        total = {
            key: sum(
                (
                    p * q
                    for (a, p), (b, q) in itertools.product(total.items(), losses.items())
                    if a + b == key
                ),
                Fraction(0),
            )
            for key in {a + b for a in total for b in losses}
        }
    return total


@settings(max_examples=40, deadline=None)
@given(
    st.integers(-20, 160),
    st.sampled_from(["1d4", "1d6+2", "2d3", "1d8-3", "2d4+1"]),
    st.integers(0, 6),
    st.integers(-2, 2),
    st.integers(1, 2),
)
def test_fast_distribution_equals_brute_force(
    modified: int, expression: str, prot: int, damage_mods: int, attacks: int
):
    attack = strike_odds.StrikeAttack(modified, dice.parse(expression), prot, damage_mods)
    expected = brute_force(modified, expression, prot, damage_mods, attacks)
    assert strike_odds.round_distribution(RULES, attack, attacks) == {k: v for k, v in expected.items() if v}
    mean = sum(k * p for k, p in expected.items())
    assert strike_odds.expected_hp_loss(RULES, attack, attacks) == mean
    for hp in (1, 5, 9, 20):
        assert strike_odds.kill_chance(RULES, attack, hp, attacks) == sum(
            p for k, p in expected.items() if k >= hp
        )


def test_stun_chance_counts_the_ruling_basis():
    attack = strike_odds.StrikeAttack(72, dice.parse("1d8+4"), 3)
    # taken: a plain hit does at most 9, so only doubled hits (11% of rolls) can exceed 14: 2 x (d8+4) > 14 <=> d8 >= 4
    assert strike_odds.stun_chance(RULES, attack, 14) == Fraction(11, 100) * Fraction(5, 8)
    rolled = dataclasses.replace(RULES, chosen={"stun_damage_basis": "rolled"})
    # rolled: any hit whose d8+4 exceeds 10 <=> d8 >= 7
    assert strike_odds.stun_chance(rolled, attack, 10) == Fraction(72, 100) * Fraction(2, 8)


@pytest.mark.parametrize(
    "modified, expression, prot, attacks, hp", [(72, "3d6+2", 4, 3, 30), (25, "2d8", 0, 2, 12)]
)
def test_large_cases_agree_with_a_seeded_monte_carlo(modified, expression, prot, attacks, hp):
    attack = strike_odds.StrikeAttack(modified, dice.parse(expression), prot)
    chance = random.Random(1234)
    parsed = dice.parse(expression)
    trials, kills, total = 40_000, 0, 0
    for _ in range(trials):
        lost = 0
        for _ in range(attacks):
            outcome = strike.resolve(RULES, modified, chance.randint(1, 100))
            rolled = max(
                0, sum(chance.randint(1, parsed.sides) for _ in range(parsed.count)) + parsed.modifier
            )
            lost += max(0, rolled * outcome.damage_multiplier - (prot if outcome.prot_applies else 0))
        total += lost
        kills += lost >= hp
    p = float(strike_odds.kill_chance(RULES, attack, hp, attacks))
    assert abs(kills / trials - p) < 4 * math.sqrt(p * (1 - p) / trials) + 1e-9
    spread = strike_odds.round_distribution(RULES, attack, attacks)
    mean = float(strike_odds.expected_hp_loss(RULES, attack, attacks))
    sd = math.sqrt(sum(float(q) * (k - mean) ** 2 for k, q in spread.items()))
    assert abs(total / trials - mean) < 4 * sd / math.sqrt(trials)
