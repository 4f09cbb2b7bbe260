"""Odds before the dice are rolled (osr's Excel functions): exact damage distribution and the UDFs.

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
from pycalc import resolution_chances, resolution_damage, resolution_results
from pycalc.resolution_calculator import CalculatorInputs, attack_and_damage, attack_outputs
from pycalc.rulesets import osr
from pycalc.rulesets import osr_odds as odds
from pycalc.sheets import d20_cells
from pycalc.tables import RuleSet
from pycalc.udfs import osr as udfs_osr
from tests.test_osr_parity import RULES, flipped

ODDS_NAMES = list(shared_odds.ONE_ATTACK)  # the generic calculator has no round kill chance


# --------------------------------------------------------------------------- brute force


def odds_attack(rules: RuleSet, inputs: CalculatorInputs) -> odds.OddsAttack:
    """The attack the (generic) Attack calculator's inputs and pickers describe, as the odds take it."""
    attack, damage, _ = attack_and_damage(rules, inputs, osr.attack_dice(inputs.dice))
    return odds.OddsAttack(attack, damage)


def brute_force(rules: RuleSet, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """Every kept-roll d20 set, fumble check and damage die face, through ATTACK_DAMAGE."""
    mode = resolution_chances.roll_mode(rules, odds_attack(rules, inputs).attack)
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
    fast = odds.damage_distribution(rules, odds_attack(rules, inputs))
    assert fast == brute_force(rules, inputs)
    assert sum(fast.values()) == 1


def test_round_distribution_equals_convolving_by_hand():
    attack = odds_attack(RULES, CalculatorInputs(bonus=1, target=15, dice="1d4+1"))
    one = odds.damage_distribution(RULES, attack)
    by_hand: dict[int, Fraction] = {}
    for a, b, c in itertools.product(one.items(), repeat=3):
        by_hand[a[0] + b[0] + c[0]] = by_hand.get(a[0] + b[0] + c[0], Fraction(0)) + a[1] * b[1] * c[1]
    for hp in range(-1, 20):
        want = sum((p for d, p in by_hand.items() if d >= hp), Fraction(0)) if hp > 0 else 1
        assert odds.kill_chance(RULES, attack, hp, 3) == want
    mean = sum(d * p for d, p in by_hand.items())
    assert odds.expected_damage(RULES, attack, 3) == mean
    assert odds.chance_at_least(RULES, attack, 5, 0) == 0
    assert odds.expected_damage(RULES, attack, 0) == 0


def test_seed_sword_expectation():
    # a normal weapon (d6+1, 4.5 a hit) needing 11: hits on 11-20 (natural 1 misses anyway)
    attack = odds_attack(RULES, CalculatorInputs(bonus=0, target=11, dice="1d6+1"))
    assert odds.expected_damage(RULES, attack) == Fraction(1, 2) * Fraction(9, 2)


# --------------------------------------------------------------------------- Monte Carlo


def simulate(rules: RuleSet, inputs: CalculatorInputs, attacks: int, hp: int, trials: int, seed: int):
    chance = random.Random(seed)
    attack, _, where = attack_and_damage(rules, inputs, osr.attack_dice(inputs.dice))
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
            penalty = (
                resolution_damage.natural_penalty(rules, attack, kept)
                if outcome in ("Hit", "Critical")
                else 0
            )
            amount = osr.damage_for(
                rules, outcome, inputs.dice, shown, penalty, where.multipliers.get(osr.DOUBLE, 1) != 1
            )
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
    one = odds.damage_distribution(rules, attack)
    expected = float(odds.expected_damage(rules, attack))
    sd = math.sqrt(float(sum(p * (d - odds.expected_damage(rules, attack)) ** 2 for d, p in one.items())))
    assert abs(mean - expected) < 5 * sd / math.sqrt(trials)
    p = float(odds.kill_chance(rules, attack, 40, 3))
    assert 0.05 < p < 0.95
    assert abs(kill - p) < 5 * math.sqrt(p * (1 - p) / trials)


# --------------------------------------------------------------------------- UDFs as xlwings calls them


def test_udfs_equal_the_engine():
    chance = random.Random(7)
    for _ in range(60):
        bonus, target, mods, level = (
            chance.randint(-2, 6),
            chance.randint(2, 26),
            chance.randint(-3, 3),
            chance.randint(0, 20),
        )
        dice = chance.choice(["1d6+1", "2d4", "1d8-1", "3d6", "8d6"])
        mode = chance.choice([None, "Normal", "Advantage", "Disadvantage"])
        double, magic = chance.random() < 0.3, chance.random() < 0.2
        attacks, hp = chance.randint(0, 4), chance.randint(-1, 30)
        advantage, disadvantage = udfs_osr.as_mode(mode)
        attack = odds.OddsAttack(
            generic.Attack(
                bonus, target, mods, level, advantage=advantage, disadvantage=disadvantage, needs_magic=magic
            ),
            osr.generic_damage(RULES, osr.dice_module.parse(dice), double),
        )
        args = (float(bonus), float(target), dice)
        tail = (float(attacks), float(mods), float(level), mode, double, magic)
        got = udfs_osr.osr_expected_damage(*args, *tail)
        assert got == pytest.approx(float(odds.expected_damage(RULES, attack, attacks)))
        got = udfs_osr.osr_kill_chance(*args, float(hp), *tail)
        assert got == pytest.approx(float(odds.kill_chance(RULES, attack, hp, attacks)))
        got = udfs_osr.osr_damage_chance_at_least(*args, float(hp), *tail)
        assert got == pytest.approx(float(odds.chance_at_least(RULES, attack, hp, attacks)))
    # optional arguments as empty cells, defaults 0 / 1 / Normal
    plain = odds.OddsAttack(generic.Attack(0, 11), osr.generic_damage(RULES, osr.dice_module.parse("1d6+1")))
    assert udfs_osr.osr_expected_damage(None, 11.0, "1d6+1", None, None, None, None, None, None) == 2.25
    assert udfs_osr.osr_kill_chance(0.0, 11.0, "1d6+1", 7.0) == pytest.approx(
        float(odds.kill_chance(RULES, plain, 7))
    )


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "axe"), "#DICE?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "3"), "#DICE?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, None, "1d6"), "#TARGET?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "1d6", None, 0.0, -1.0), "#LEVEL?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "1d6", -2.0, 0.0, 1.0), "#ATTACKS?"),
        (lambda: udfs_osr.osr_kill_chance(0.0, 11.0, "1d6", "x"), "#HP?"),
        (lambda: udfs_osr.osr_kill_chance(0.0, 11.0, "1d6", 5.0, mode="sideways"), "#MODE?"),
        (lambda: udfs_osr.osr_damage_chance_at_least(0.0, 11.0, "1d6", None), "#AMOUNT?"),
        (lambda: udfs_osr.osr_damage_chance_at_least(0.0, 11.0, "1d6", 2.0, double="maybe"), "#DOUBLE?"),
    ],
)
def test_udfs_never_raise(call, start):
    assert str(call()).startswith(start)


def test_odds_udfs_are_exported():
    for name in ("osr_expected_damage", "osr_damage_chance_at_least", "osr_kill_chance"):
        assert name in udfs_osr.__all__
        assert hasattr(getattr(udfs_osr, name), "__xlfunc__") or callable(getattr(udfs_osr, name))


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
