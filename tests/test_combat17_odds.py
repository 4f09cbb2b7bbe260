"""17 Combat odds before the roll: the exact damage distribution of its Excel functions (brute force,
Monte Carlo) and the UDFs; the Attack calculator's (the generic writer's) against a brute force over
every natural d20, follow-up d20 and die face through the calculator itself. Its odds cells in
LibreOffice are compared with the engine by ``test_combat17_parity``."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from fractions import Fraction

import pytest

from pycalc import dice as dice_module
from pycalc import resolution_odds
from pycalc.d20 import D20_FACES, Attack
from pycalc.odds import EXPECTED
from pycalc.resolution_calculator import CalculatorInputs, attack_and_damage, attack_outputs
from pycalc.rulesets import combat17 as c17
from pycalc.rulesets import combat17_odds as odds
from pycalc.udfs import combat17 as udfs
from tests.test_combat17_parity import RULES


def brute_force(rules, odd: odds.OddsAttack) -> dict[int, Fraction]:
    """Every (natural d20, follow-up d20, each die face) combination, through the calculator's own
    ATTACK_RESULT and ATTACK_DAMAGE functions."""
    faces = list(itertools.product(range(1, odd.dice.sides + 1), repeat=odd.dice.count))
    weight = Fraction(1, D20_FACES * D20_FACES * len(faces))
    found: dict[int, Fraction] = {}
    text = str(odd.dice)
    for roll in range(1, D20_FACES + 1):
        for follow in range(1, D20_FACES + 1):
            outcome = c17.attack_result(rules, odd.attack, roll, follow, odd.barred)
            for shown in faces:
                amount = c17.attack_damage(
                    rules, odd.attack, outcome, follow, text, sum(shown), odd.damage_mod, odd.multiplier
                )
                found[amount] = found.get(amount, Fraction(0)) + weight
    return dict(sorted(found.items()))


BRUTE_CASES = [
    (rules_choice, Attack(bonus, ac, mods), dice_text, barred, mult, extra)
    for rules_choice, bonus, ac, mods, dice_text, barred, mult, extra in [
        ({}, 3, 15, 0, "1d6+2", False, Fraction(1), 0),
        ({}, 0, 30, 0, "2d4-1", False, Fraction(2), 0),
        ({}, 12, 5, 0, "1d3", False, Fraction(1, 2), -1),
        ({}, 2, 14, 3, "2d3+1", True, Fraction(1), 0),
        ({"natural_roll_outcome": "special_only"}, 4, 16, 0, "1d4+1", False, Fraction(1), 1),
        ({"critical_follow_up_roll": "add_modifiers"}, 2, 14, 6, "2d2", False, Fraction(2), 0),
        ({"critical_follow_up_roll": "add_modifiers"}, 2, 14, -7, "1d6-3", False, Fraction(1), 0),
        (
            {"critical_follow_up_roll": "add_modifiers", "natural_roll_outcome": "special_only"},
            5,
            12,
            4,
            "1d5",
            False,
            Fraction(1),
            0,
        ),
        (
            {"double_damage_basis": "dice_only", "subdual_half_rounding": "up"},
            1,
            13,
            0,
            "1d3+1",
            False,
            Fraction(1, 2),
            0,
        ),
        ({"double_damage_basis": "dice_only"}, 1, 13, 0, "2d3-2", False, Fraction(2), 1),
        ({}, 5, 10, 0, "3d2-4", False, Fraction(1, 2), 0),
    ]
]


@pytest.mark.parametrize("case", BRUTE_CASES)
def test_distribution_equals_brute_force(case):
    chosen, attack, dice_text, barred, mult, extra = case
    rules = dataclasses.replace(RULES, chosen=chosen)
    odd = odds.OddsAttack(attack, dice_module.parse(dice_text), barred, mult, extra)
    fast = odds.damage_distribution(rules, odd)
    assert fast == brute_force(rules, odd)
    assert sum(fast.values()) == 1
    assert odds.expected_damage(rules, odd, 3) == 3 * sum(a * p for a, p in fast.items())


def test_sums_of_attacks_and_kill_chance_by_enumeration():
    odd = odds.OddsAttack(Attack(3, 15, 0), dice_module.parse("1d4+1"))
    one = odds.damage_distribution(RULES, odd)
    for hp in (0, 1, 3, 6, 9, 13, 40):
        for attacks in (1, 2, 3):
            direct = sum(
                (
                    math.prod(one[a] for a in combo)
                    for combo in itertools.product(one, repeat=attacks)
                    if sum(combo) >= hp
                ),
                Fraction(0),
            )
            assert odds.kill_chance(RULES, odd, hp, attacks) == direct
            assert odds.chance_at_least(RULES, odd, hp, attacks) == direct


def monte_carlo(rules, odd: odds.OddsAttack, samples: int, seed: int) -> list[int]:
    chance = random.Random(seed)
    text = str(odd.dice)
    found = []
    for _ in range(samples):
        roll, follow = chance.randint(1, D20_FACES), chance.randint(1, D20_FACES)
        shown = sum(chance.randint(1, odd.dice.sides) for _ in range(odd.dice.count))
        outcome = c17.attack_result(rules, odd.attack, roll, follow, odd.barred)
        found.append(
            c17.attack_damage(rules, odd.attack, outcome, follow, text, shown, odd.damage_mod, odd.multiplier)
        )
    return found


@pytest.mark.parametrize(
    "chosen", [{}, {"critical_follow_up_roll": "add_modifiers", "natural_roll_outcome": "special_only"}]
)
def test_large_case_agrees_with_seeded_monte_carlo(chosen):
    rules = dataclasses.replace(RULES, chosen=chosen)
    odd = odds.OddsAttack(Attack(6, 14, 3), dice_module.parse("6d10+4"), False, Fraction(2), 1)
    exact = odds.damage_distribution(rules, odd)
    mean = float(odds.expected_damage(rules, odd))
    variance = float(sum((a - mean) ** 2 * p for a, p in exact.items()))
    samples = 40_000
    drawn = monte_carlo(rules, odd, samples, seed=1717)
    assert abs(sum(drawn) / samples - mean) < 5 * math.sqrt(variance / samples)
    for threshold in (1, 30, 60, 90, 130):
        p = float(odds.chance_at_least(rules, odd, threshold))
        seen = sum(d >= threshold for d in drawn) / samples
        assert abs(seen - p) < 5 * math.sqrt(p * (1 - p) / samples) + 1e-9, threshold


def test_one_attack_distribution_is_fast():
    import time

    odd = odds.OddsAttack(Attack(3, 15, 0), dice_module.parse("2d8+3"))
    times = []
    for _ in range(100):
        start = time.perf_counter()
        odds.damage_distribution(RULES, odd)
        times.append(time.perf_counter() - start)
    times.sort()
    assert times[50] < 0.5


# --------------------------------------------------------------------------- UDFs as xlwings calls them


def test_udfs_as_xlwings_calls_them():
    expected = odds.expected_damage(RULES, odds.OddsAttack(Attack(3, 15, 0), dice_module.parse("1d6+2")))
    assert udfs.combat17_expected_damage(3.0, 15.0, "1d6+2") == pytest.approx(float(expected))
    assert udfs.combat17_expected_damage(3.0, 15.0, "1d6+2", 3.0, 0.0, 0.0, False, 1.0) == pytest.approx(
        3 * float(expected)
    )
    assert udfs.combat17_expected_damage(3.0, 15.0, "1d6+2", None, None, None, None, None) == pytest.approx(
        float(expected)
    )
    half = odds.OddsAttack(Attack(3, 15, 2), dice_module.parse("2d6"), False, Fraction(1, 2), 1)
    assert udfs.combat17_kill_chance(3.0, 15.0, "2d6", 5.0, 2.0, 2.0, 1.0, False, 0.5) == pytest.approx(
        float(odds.kill_chance(RULES, half, 5, 2))
    )
    assert udfs.combat17_damage_chance_at_least(
        3.0, 15.0, "2d6", 4.0, 1.0, 2.0, 1.0, "FALSE", 0.5
    ) == pytest.approx(float(odds.chance_at_least(RULES, half, 4)))
    assert udfs.combat17_kill_chance(3.0, 15.0, "1d6", 5.0, 1.0, 0.0, None, True) == 0.0
    assert udfs.combat17_expected_damage(3.0, 15.0, "20d20").startswith(
        "#DICE? dice for the odds: up to 8 dice"
    )
    for bad in (
        udfs.combat17_expected_damage(3.0, 15.0, "abc"),
        udfs.combat17_expected_damage(3.0, None, "1d6"),
        udfs.combat17_expected_damage(3.0, 15.0, "1d6", -1.0, 0.0, 0.0, False, 1.0),
        udfs.combat17_kill_chance(3.0, 15.0, "1d6", "x"),
        udfs.combat17_damage_chance_at_least(3.0, 15.0, "1d6", 2.5),
        udfs.combat17_kill_chance(3.0, 15.0, "1d6", 5.0, 1.0, 0.0, None, "maybe"),
    ):
        assert isinstance(bad, str) and bad.startswith("#"), bad
    for name in ("combat17_expected_damage", "combat17_damage_chance_at_least", "combat17_kill_chance"):
        assert name in udfs.__all__


# --------------------------------------------------------------------------- the Attack calculator's odds


def calculator_brute_force(rules, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """Every natural d20, follow-up d20 and die face through the calculator's own ATTACK_DAMAGE."""
    dice = dice_module.parse(inputs.dice)
    faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
    weight = Fraction(1, D20_FACES * D20_FACES * len(faces))
    found: dict[int, Fraction] = {}
    for roll in range(1, D20_FACES + 1):
        for follow in range(1, D20_FACES + 1):
            for shown in faces:
                typed = dataclasses.replace(inputs, roll=roll, follow_roll=follow, damage_roll=sum(shown))
                amount = attack_outputs(rules, typed)["ATTACK_DAMAGE"]
                assert isinstance(amount, int), amount
                found[amount] = found.get(amount, Fraction(0)) + weight
    return dict(sorted(found.items()))


CALCULATOR_CASES = [
    ({}, CalculatorInputs(bonus=3, target=15, dice="1d4+2")),
    ({"critical_follow_up_roll": "add_modifiers"}, CalculatorInputs(bonus=2, target=14, mods=6, dice="2d2")),
    (
        {"natural_roll_outcome": "special_only", "double_damage_basis": "dice_only"},
        CalculatorInputs(bonus=1, target=13, dice="1d3+1", toggles=frozenset({("attack_situation", "flat_of_blade")})),
    ),
    ({}, CalculatorInputs(bonus=4, target=12, dice="1d3", toggles=frozenset({("attack_barred", "needs_magic_or_silver")}))),
]  # fmt: skip


@pytest.mark.parametrize(("chosen", "inputs"), CALCULATOR_CASES)
def test_the_calculator_s_odds_equal_brute_force(chosen, inputs):
    rules = dataclasses.replace(RULES, chosen=chosen)
    attack, damage, _ = attack_and_damage(rules, inputs, dice_module.parse(inputs.dice))
    fast = resolution_odds.damage_distribution(rules, attack, damage)
    assert fast == calculator_brute_force(rules, inputs)
    expected = sum((a * p for a, p in fast.items()), Fraction(0))
    assert attack_outputs(rules, inputs)[EXPECTED] == expected
