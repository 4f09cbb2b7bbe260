"""17 Combat odds before the roll: the shared odds functions (``d20_kill_chance("combat17", ...)``...) over
several attacks by enumeration, against a seeded Monte Carlo and as xlwings calls them; the Attack calculator's (the generic writer's) against a brute force over
every natural d20, follow-up d20 and die face through the calculator itself. Its odds cells in
LibreOffice are compared with the engine by ``test_combat17_parity``."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from fractions import Fraction

import pytest

from pycalc import dice as dice_module
from pycalc import log_picks, resolution_damage, resolution_odds, resolution_results, udfs
from pycalc.d20 import D20_FACES
from pycalc.odds import EXPECTED
from pycalc.resolution_calculator import CalculatorInputs, attack_and_damage, attack_outputs, weighed
from tests.test_combat17_parity import RULES


def charged(**more: object) -> CalculatorInputs:
    """An attack with the charge picked (its damage doubled), as the Picks text "charge" picks it."""
    read = log_picks.row_picks(RULES, "charge")
    assert not read.unknown
    return CalculatorInputs(choices=read.choices, toggles=read.toggles, **more)


def test_the_round_s_odds_by_enumeration():
    """Several attacks: the shared functions against one attack's distribution (the calculator's,
    checked against brute force below) summed by hand over every combination."""
    one = resolution_odds.damage_distribution(
        *weighed(RULES, CalculatorInputs(bonus=3, target=15, dice="1d4+1"))
    )
    for hp in (1, 3, 6, 9, 13, 40):
        for attacks in (1, 2, 3):
            direct = sum(
                (
                    math.prod(one[a] for a in combo)
                    for combo in itertools.product(one, repeat=attacks)
                    if sum(combo) >= hp
                ),
                Fraction(0),
            )
            typed = ("combat17", 3.0, 15.0, "1d4+1", float(hp), float(attacks))
            assert udfs.d20_kill_chance(*typed) == pytest.approx(float(direct), abs=1e-12)
            assert udfs.d20_damage_chance_at_least(*typed) == pytest.approx(float(direct), abs=1e-12)


def monte_carlo(rules, inputs: CalculatorInputs, samples: int, seed: int) -> list[int]:
    """Random natural d20s, follow-up d20s and dice through the engine's result and damage."""
    rules, attack, damage = weighed(rules, inputs)
    dice = damage.dice
    chance = random.Random(seed)
    found = []
    for _ in range(samples):
        roll, follow = chance.randint(1, D20_FACES), chance.randint(1, D20_FACES)
        shown = sum(chance.randint(1, dice.sides) for _ in range(dice.count))
        outcome = resolution_results.result(rules, attack, roll, follow)
        found.append(resolution_damage.attack_damage(rules, attack, damage, outcome, roll, follow, shown))
    return found


@pytest.mark.parametrize(
    "chosen", [{}, {"critical_follow_up_roll": "add_modifiers", "natural_roll_outcome": "special_only"}]
)
def test_large_case_agrees_with_seeded_monte_carlo(chosen):
    rules = dataclasses.replace(RULES, chosen=chosen)
    inputs = charged(bonus=6, target=14, mods=3, dice="6d10+4", damage_bonus=1)
    exact = resolution_odds.damage_distribution(*weighed(rules, inputs))
    mean = float(sum((a * p for a, p in exact.items()), Fraction(0)))
    variance = float(sum((a - mean) ** 2 * p for a, p in exact.items()))
    samples = 40_000
    drawn = monte_carlo(rules, inputs, samples, seed=1717)
    assert abs(sum(drawn) / samples - mean) < 5 * math.sqrt(variance / samples)
    for threshold in (1, 30, 60, 90, 130):
        p = float(sum((q for a, q in exact.items() if a >= threshold), Fraction(0)))
        seen = sum(d >= threshold for d in drawn) / samples
        assert abs(seen - p) < 5 * math.sqrt(p * (1 - p) / samples) + 1e-9, threshold
    if not chosen:  # the shipped rulings: the shared functions give the same
        typed = ("combat17", 6.0, 14.0, "6d10+4", 60.0, 1.0, 3.0, 1.0, 0.0, "charge")
        assert udfs.d20_damage_chance_at_least(*typed) == pytest.approx(
            float(sum((q for a, q in exact.items() if a >= 60), Fraction(0))), abs=1e-12
        )


def test_one_attack_s_odds_are_fast():
    times = []
    for _ in range(100):
        start = time.perf_counter()
        udfs.d20_expected_damage("combat17", 3.0, 15.0, "2d8+3")
        times.append(time.perf_counter() - start)
    times.sort()
    assert times[50] < 0.5


def test_the_shared_odds_functions_as_xlwings_calls_them():
    plain = resolution_odds.expected_damage(
        *weighed(RULES, CalculatorInputs(bonus=3, target=15, dice="1d6+2"))
    )
    assert udfs.d20_expected_damage("combat17", 3.0, 15.0, "1d6+2") == float(plain)
    assert udfs.d20_expected_damage("combat17", 3.0, 15.0, "1d6+2", 3.0) == pytest.approx(3 * float(plain))
    flat = log_picks.row_picks(RULES, "flat of blade")  # half damage (and -4 to hit)
    half = weighed(
        RULES, CalculatorInputs(bonus=3, target=15, mods=2, dice="2d6", damage_bonus=1, toggles=flat.toggles)
    )
    assert udfs.d20_kill_chance("combat17", 3.0, 15.0, "2d6", 5.0, 2.0, 2.0, 1.0, 0.0, "flat of blade") == (
        pytest.approx(float(resolution_odds.kill_chance(*half, 5, 2)), abs=1e-12)
    )
    barred = "needs magic or silver"
    assert udfs.d20_kill_chance("combat17", 3.0, 15.0, "1d6", 5.0, 1.0, 0.0, 0.0, 0.0, barred) == 0.0
    for bad in (
        udfs.d20_expected_damage("combat17", 3.0, 15.0, "20d20"),
        udfs.d20_expected_damage("combat17", 3.0, 15.0, "abc"),
        udfs.d20_expected_damage("combat17", 3.0, None, "1d6"),
        udfs.d20_expected_damage("combat17", 3.0, 15.0, "1d6", -1.0),
        udfs.d20_kill_chance("combat17", 3.0, 15.0, "1d6", "x"),
        udfs.d20_damage_chance_at_least("combat17", 3.0, 15.0, "1d6", 2.5),
        udfs.d20_kill_chance("combat17", 3.0, 15.0, "1d6", 5.0, picks="maybe"),
    ):
        assert isinstance(bad, str) and bad.startswith("#"), bad


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
