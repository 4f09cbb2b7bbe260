"""Odds before the dice are rolled (osr): the calculator's exact damage distribution and the shared
odds functions (``d20_expected_damage("osr", ...)``...).

The distribution equals a brute-force enumeration of every d20 (both with Advantage), fumble check
and damage die face through the Attack calculator itself (the generic calculator's ATTACK_DAMAGE); a
seeded Monte Carlo agrees on a large case. The workbook's odds cells are the generic writer's.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
from fractions import Fraction
from functools import cache

import openpyxl
import pytest

from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage, resolution_odds, resolution_results, udfs
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs, weighed
from pycalc.sheets import d20_cells
from pycalc.tables import RuleSet
from tests.test_osr_parity import RULES, flipped

ODDS_NAMES = list(shared_odds.CALCULATOR_ODDS)  # one attack's odds and the round's chance to drop the target


# --------------------------------------------------------------------------- brute force


def odds_attack(rules: RuleSet, inputs: CalculatorInputs) -> tuple[RuleSet, generic.Attack, generic.Damage]:
    """The attack the (generic) Attack calculator's inputs and pickers describe, as its odds (and the
    shared odds functions) weigh it."""
    return weighed(rules, inputs)


def brute_force(rules: RuleSet, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """Every kept-roll d20 set, fumble check and damage die face, through ATTACK_DAMAGE."""
    mode = resolution_chances.roll_mode(rules, odds_attack(rules, inputs)[1])
    sides = rules.constant("to_hit_roll", "to_hit_die_sides")
    n = (
        rules.constant("to_hit_roll", "advantage_d20s")
        if mode == generic.ADVANTAGE
        else rules.constant("to_hit_roll", "disadvantage_d20s")
        if mode == generic.DISADVANTAGE
        else 1
    )
    parsed = re.match(r"(\d+)d(\d+)", inputs.dice)
    count, faces = int(parsed.group(1)), int(parsed.group(2))

    @cache
    def damage(kept: int, follow: int, shown: int) -> int:
        found = attack_outputs(
            rules, dataclasses.replace(inputs, roll=kept, follow_roll=follow, damage_roll=shown)
        )["ATTACK_DAMAGE"]
        assert isinstance(found, int), found
        return found

    total_ways = sides**n * sides * faces**count
    found: dict[int, Fraction] = {}
    for d20s in itertools.product(range(1, sides + 1), repeat=n):
        kept = min(d20s) if mode == generic.DISADVANTAGE else max(d20s)
        for follow in range(1, sides + 1):
            for dice in itertools.product(range(1, faces + 1), repeat=count):
                amount = damage(kept, follow, sum(dice))
                found[amount] = found.get(amount, Fraction(0)) + Fraction(1, total_ways)
    return dict(sorted(found.items()))


BRUTE_CASES = [
    (RULES, CalculatorInputs(bonus=2, target=14, level=3, dice="1d4")),
    (RULES, CalculatorInputs(bonus=0, target=23, level=0, dice="2d3+1")),  # nat-20 penalty 3
    (flipped(RULES, "nat20_penalty_applies_to"), CalculatorInputs(bonus=0, target=24, level=5, dice="1d6-1")),
    (flipped(RULES, "nat20_needed_basis"), CalculatorInputs(bonus=4, target=23, mods=1, level=1, dice="1d3")),
    (flipped(RULES, "nat20_crit_exception"), CalculatorInputs(bonus=1, target=20, level=19, dice="2d2")),
    (
        RULES,
        CalculatorInputs(
            bonus=1, target=16, level=2, dice="1d4+1", choices={"charge_attack": "Charging attacker"}
        ),
    ),
    (RULES, CalculatorInputs(bonus=0, target=12, dice="1d3", toggles=frozenset({("florentine_fighting", "attacker_two_weapons")}))),
    (RULES, CalculatorInputs(bonus=3, target=25, level=4, dice="1d2-3", toggles=frozenset({("attacker_limits", "attacker_disadvantage")}))),
    (
        flipped(RULES, "magic_weapon_needed"),
        CalculatorInputs(bonus=0, target=22, dice="1d3", toggles=frozenset({("attacker_limits", "magic_weapon_needed")})),
    ),
    (RULES, CalculatorInputs(bonus=0, target=10, dice="1d3", toggles=frozenset({("attacker_limits", "magic_weapon_needed")}))),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "inputs"), BRUTE_CASES)
def test_distribution_equals_brute_force_enumeration(rules, inputs):
    fast = resolution_odds.damage_distribution(*odds_attack(rules, inputs))
    assert fast == brute_force(rules, inputs)
    assert sum(fast.values()) == 1


def test_round_distribution_equals_convolving_by_hand():
    attack = odds_attack(RULES, CalculatorInputs(bonus=1, target=15, dice="1d4+1"))
    one = resolution_odds.damage_distribution(*attack)
    by_hand: dict[int, Fraction] = {}
    for a, b, c in itertools.product(one.items(), repeat=3):
        by_hand[a[0] + b[0] + c[0]] = by_hand.get(a[0] + b[0] + c[0], Fraction(0)) + a[1] * b[1] * c[1]
    for hp in range(-1, 20):
        want = sum((p for d, p in by_hand.items() if d >= hp), Fraction(0)) if hp > 0 else 1
        assert resolution_odds.kill_chance(*attack, hp, 3) == want
        assert udfs.d20_kill_chance("osr", 1.0, 15.0, "1d4+1", float(hp), 3.0) == pytest.approx(float(want))
    mean = sum(d * p for d, p in by_hand.items())
    assert resolution_odds.expected_damage(*attack, 3) == mean
    assert resolution_odds.chance_at_least(*attack, 5, 0) == 0
    assert resolution_odds.expected_damage(*attack, 0) == 0


def test_seed_sword_expectation():
    # a normal weapon (d6+1, 4.5 a hit) needing 11: hits on 11-20 (natural 1 misses anyway)
    attack = odds_attack(RULES, CalculatorInputs(bonus=0, target=11, dice="1d6+1"))
    assert resolution_odds.expected_damage(*attack) == Fraction(1, 2) * Fraction(9, 2)


# --------------------------------------------------------------------------- Monte Carlo


def simulate(rules: RuleSet, inputs: CalculatorInputs, attacks: int, hp: int, trials: int, seed: int):
    chance = random.Random(seed)
    rules, attack, damage = weighed(rules, inputs)
    mode = resolution_chances.roll_mode(rules, attack)
    parsed = re.match(r"(\d+)d(\d+)", inputs.dice)
    count, faces = int(parsed.group(1)), int(parsed.group(2))
    one_total, kills = 0, 0
    for _ in range(trials):
        dealt = 0
        for index in range(attacks):
            d20s = (chance.randint(1, 20), chance.randint(1, 20))
            kept = {generic.NORMAL: d20s[0], generic.ADVANTAGE: max(d20s), generic.DISADVANTAGE: min(d20s)}[
                mode
            ]
            outcome = resolution_results.resolve(rules, attack, kept, chance.randint(1, 20))
            shown = sum(chance.randint(1, faces) for _ in range(count))
            amount = resolution_damage.attack_damage(rules, attack, damage, outcome, kept, None, shown)
            dealt += amount
            if index == 0:
                one_total += amount
        kills += dealt >= hp
    return one_total / trials, kills / trials


def test_monte_carlo_agrees_on_a_large_case():
    rules = flipped(RULES, "nat20_penalty_applies_to")
    inputs = CalculatorInputs(
        bonus=2,
        target=21,
        level=2,
        dice="3d8+2",
        choices={"charge_attack": "Charging attacker", "cover": str(RULES.table("cover").rows[1].label)},
        toggles=frozenset({("florentine_fighting", "attacker_two_weapons")}),
    )
    attack = odds_attack(rules, inputs)
    trials = 60_000
    mean, kill = simulate(rules, inputs, 3, 40, trials, seed=20261122)
    one = resolution_odds.damage_distribution(*attack)
    mean_one = resolution_odds.expected_damage(*attack)
    expected = float(mean_one)
    sd = math.sqrt(float(sum(p * (d - mean_one) ** 2 for d, p in one.items())))
    assert abs(mean - expected) < 5 * sd / math.sqrt(trials)
    p = float(resolution_odds.kill_chance(*attack, 40, 3))
    assert 0.05 < p < 0.95
    assert abs(kill - p) < 5 * math.sqrt(p * (1 - p) / trials)


# --------------------------------------------------------------------------- UDFs as xlwings calls them


@pytest.mark.parametrize(
    ("picks", "inputs"),
    [
        ("", CalculatorInputs(bonus=2, target=14, level=3, dice="1d4")),
        ("charging", CalculatorInputs(bonus=1, target=16, level=2, dice="1d4+1", choices={"charge_attack": "Charging attacker"})),
        ("attacker disadvantage", CalculatorInputs(bonus=3, target=25, level=4, dice="1d2-3", toggles=frozenset({("attacker_limits", "attacker_disadvantage")}))),
        ("magic weapon needed", CalculatorInputs(bonus=0, target=10, dice="1d3", toggles=frozenset({("attacker_limits", "magic_weapon_needed")}))),
    ],
)  # fmt: skip
def test_the_shared_odds_functions_equal_brute_force(picks: str, inputs: CalculatorInputs):
    """What osr's own odds functions took as arguments (double, the kept d20, a magic weapon needed)
    is picked by name; the chances of at least each amount equal the enumeration."""
    spread = brute_force(RULES, inputs)
    typed = ("osr", float(inputs.bonus), float(inputs.target), inputs.dice)
    situation = (float(inputs.mods), 0.0, float(inputs.level), picks)
    for amount in range(1, max(spread) + 2):
        want = float(sum((p for d, p in spread.items() if d >= amount), Fraction(0)))
        got = udfs.d20_damage_chance_at_least(*typed, float(amount), 1.0, *situation)
        assert got == pytest.approx(want, abs=1e-12), amount
    mean = float(sum((d * p for d, p in spread.items()), Fraction(0)))
    assert udfs.d20_expected_damage(*typed, 2.0, *situation) == pytest.approx(2 * mean, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: udfs.d20_expected_damage("osr", 0.0, 11.0, "axe"), "#DICE?"),
        (lambda: udfs.d20_expected_damage("osr", 0.0, None, "1d6"), "#TARGET?"),
        (lambda: udfs.d20_expected_damage("osr", 0.0, 11.0, "1d6", None, 0.0, 0.0, -1.0), "#LEVEL?"),
        (lambda: udfs.d20_expected_damage("osr", 0.0, 11.0, "1d6", -2.0), "#ATTACKS?"),
        (lambda: udfs.d20_kill_chance("osr", 0.0, 11.0, "1d6", "x"), "#HP?"),
        (lambda: udfs.d20_kill_chance("osr", 0.0, 11.0, "1d6", 5.0, picks="sideways"), "#PICKS?"),
        (lambda: udfs.d20_damage_chance_at_least("osr", 0.0, 11.0, "1d6", None), "#AMOUNT?"),
    ],
)
def test_the_shared_odds_functions_say_what_is_wrong(call, start):
    assert str(call()).startswith(start)


# --------------------------------------------------------------------------- the workbook's odds


def test_the_odds_cells_are_the_generic_writer_s_in_both_files(build_ruleset):
    """The Attack calculator's odds are the generic writer's (their LibreOffice parity with the generic
    engine: test_osr_parity, test_d20_heat); the .xlsm shows the same native formulas."""
    folder = build_ruleset("osr")
    xlsx = openpyxl.load_workbook(folder / "osr.xlsx")
    xlsm = openpyxl.load_workbook(folder / "osr.xlsm", keep_vba=True)
    for name in ("ATTACK_ATTACKS", "ATTACK_TARGET_HP"):
        sheet, ref = next(iter(xlsx.defined_names[name].destinations))
        assert xlsx[sheet][ref.replace("$", "")].protection.locked is False
    assert xlsx["Attack calculator"]._charts
    assert xlsx[d20_cells.DAMAGE_SHEET].sheet_state == "hidden"
    assert xlsx[d20_cells.ODDS_SHEET].sheet_state == "visible"
    for name in ODDS_NAMES:
        sheet, ref = next(iter(xlsm.defined_names[name].destinations))
        cell = ref.replace("$", "")
        assert xlsm[sheet][cell].value == xlsx[sheet][cell].value, name
