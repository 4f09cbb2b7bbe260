"""17 Combat odds before the roll: exact damage distribution (brute force, Monte Carlo), UDFs, and
the workbook's native odds cells recalculated in LibreOffice against the engine."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc.d20 import D20_FACES, Attack
from pycalc.rulesets import combat17 as c17
from pycalc.rulesets import combat17_odds as odds
from pycalc.sheets.calculator import ATTACK_SHEET
from pycalc.sheets.combat17_odds import CHART_LARGEST, HEAT_AC, HEAT_BONUS, ODDS_SHEET, WORKINGS
from pycalc.udfs import combat17 as udfs
from tests.test_combat17_parity import ROUNDING, RULES, RULING_FLIPS, attack_cells, attack_scenarios, same

NEW_OUTPUTS = list(shared_odds.ODDS_CELLS)


def brute_force(rules, odd: odds.OddsAttack) -> dict[int, Fraction]:
    """Every (natural d20, follow-up d20, each die face) combination, through the calculator's own
    ATTACK_RESULT and ATTACK_DAMAGE functions."""
    where = c17.Situation("", 0, 0, odd.damage_mod, odd.multiplier, False, odd.barred)
    faces = list(itertools.product(range(1, odd.dice.sides + 1), repeat=odd.dice.count))
    weight = Fraction(1, D20_FACES * D20_FACES * len(faces))
    found: dict[int, Fraction] = {}
    text = str(odd.dice)
    for roll in range(1, D20_FACES + 1):
        for follow in range(1, D20_FACES + 1):
            outcome = c17.attack_result(rules, odd.attack, roll, follow, odd.barred)
            for shown in faces:
                amount = c17.attack_damage(rules, odd.attack, outcome, follow, text, sum(shown), where)
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
    where = c17.Situation("", 0, 0, odd.damage_mod, odd.multiplier, False, odd.barred)
    text = str(odd.dice)
    found = []
    for _ in range(samples):
        roll, follow = chance.randint(1, D20_FACES), chance.randint(1, D20_FACES)
        shown = sum(chance.randint(1, odd.dice.sides) for _ in range(odd.dice.count))
        outcome = c17.attack_result(rules, odd.attack, roll, follow, odd.barred)
        found.append(c17.attack_damage(rules, odd.attack, outcome, follow, text, shown, where))
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


# --------------------------------------------------------------------------- the workbook in LibreOffice


def odds_scenarios():
    chance = random.Random(1717)
    found = []
    for index, (rules, inputs) in enumerate(attack_scenarios()):
        attacks = [1, 1, 2, 3, 0][index % 5]
        hp = chance.choice([-1, 0, 1, 3, 5, 8, 10, 14, 20, 30])
        found.append((rules, inputs, attacks, hp))
    extra_dice = ["8d12+3", "9d6", "1d13", "12", "2d12-1", "d12", "D10-2", "2d4 + 2", "3d6*2", "1d1+1"]
    for index, dice_text in enumerate(extra_dice):
        rules = dataclasses.replace(RULES, chosen=RULING_FLIPS[index % len(RULING_FLIPS)])
        found.append((rules, c17.AttackInputs(bonus=4, target=14, dice=dice_text), 1, 9))
    return found


@pytest.fixture(scope="module")
def built(build_ruleset) -> Path:
    return build_ruleset("combat17")


def test_odds_cells_equal_the_engine(calc, built: Path):
    scenarios = odds_scenarios()
    assert len(scenarios) >= 300
    cells = []
    for rules, inputs, attacks, hp in scenarios:
        found = attack_cells(rules, inputs)
        found.update({"ATTACK_ATTACKS": attacks, "ATTACK_TARGET_HP": hp})
        cells.append(found)
    results = calc.evaluate(built / "combat17.xlsx", cells, NEW_OUTPUTS)
    mismatches = []
    for (rules, inputs, attacks, hp), got in zip(scenarios, results, strict=True):
        expected = odds.odds_outputs(rules, inputs, attacks, hp)
        for name in NEW_OUTPUTS:
            if not same(expected[name], got[name]):
                mismatches.append(
                    f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {inputs} {hp} {attacks}"
                )
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


def test_chart_and_heat_map_at_the_defaults(calc, built: Path):
    book = openpyxl.load_workbook(built / "combat17.xlsx")
    chart_ref = book.defined_names["ODDS_CHART_CHANCES"].attr_text
    grid_ref = book.defined_names["ODDS_HIT_GRID"].attr_text
    sheet_defaults = {}
    for row in book[ATTACK_SHEET].iter_rows(min_col=1, max_col=2):
        sheet_defaults[row[0].value] = row[1].value
    inputs = c17.AttackInputs(bonus=3, target=15, dice="1d6+2")
    chart_cells = openpyxl.utils.cell.range_boundaries(chart_ref.split("!")[1].replace("$", ""))
    col, first, _, last = chart_cells
    letter = openpyxl.utils.get_column_letter(col)
    grid = openpyxl.utils.cell.range_boundaries(grid_ref.split("!")[1].replace("$", ""))
    heat = [
        (ODDS_SHEET, f"{openpyxl.utils.get_column_letter(c)}{r}")
        for r in range(grid[1], grid[3] + 1)
        for c in range(grid[0], grid[2] + 1)
    ]
    got = calc.evaluate_cells(
        built / "combat17.xlsx", [(WORKINGS, f"{letter}{r}") for r in range(first, last + 1)] + heat
    )
    exact = odds.damage_distribution(RULES, odds.odds_attack(RULES, inputs))
    want = [exact.get(x, Fraction(0)) for x in range(CHART_LARGEST)]
    want.append(sum((p for a, p in exact.items() if a >= CHART_LARGEST), Fraction(0)))
    chart_got = got[: last - first + 1]
    assert all(same(w, g) for w, g in zip(want, chart_got, strict=True)), chart_got
    heat_want = [
        c17.attack_chances(RULES, Attack(b, ac, 0))["Hit"]
        + c17.attack_chances(RULES, Attack(b, ac, 0))["Critical"]
        for b in HEAT_BONUS
        for ac in HEAT_AC
    ]
    assert all(same(w, g) for w, g in zip(heat_want, got[last - first + 1 :], strict=True))


def test_natural_roll_chances_on_the_odds_sheet(calc, built: Path):
    names = [
        "ODDS_CRIT",
        "ODDS_FUMBLE",
        "ODDS_N20_REGULAR_DAMAGE",
        "ODDS_N20_MAXIMUM_DAMAGE",
        "ODDS_N20_CRITICAL_DAMAGE",
    ]
    flips = [{}, {"natural_roll_outcome": "special_only"}, {"critical_follow_up_roll": "add_modifiers"}]
    scenarios = [{"RULING_" + k.upper(): v for k, v in chosen.items()} for chosen in flips]
    results = calc.evaluate(built / "combat17.xlsx", scenarios, names)
    for chosen, got in zip(flips, results, strict=True):
        rules = dataclasses.replace(RULES, chosen=chosen)
        chances = c17.attack_chances(rules, Attack(0, 10, 0))
        weights = odds.outcome_weights(rules, Attack(0, 99, 0))  # only natural 20s hit
        assert same(chances["Critical"], got["ODDS_CRIT"])
        assert same(chances["Fumble"], got["ODDS_FUMBLE"])
        for outcome_id in ("regular_damage", "maximum_damage", "critical_damage"):
            share = weights.get(outcome_id, Fraction(0)) * D20_FACES
            assert same(share, got[f"ODDS_N20_{outcome_id.upper()}"]), (chosen, outcome_id)


def test_odds_formulas_type_no_numbers_and_the_xlsm_calls_the_udfs(built: Path):
    import re

    book = openpyxl.load_workbook(built / "combat17.xlsx")
    for sheet_name in (ATTACK_SHEET, WORKINGS, ODDS_SHEET):
        for row in book[sheet_name].iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    text = re.sub(r'"[^"]*"', "", cell.value).replace(ROUNDING, ")")
                    text = re.sub(r"\$?\b[A-Z]{1,3}\$?[0-9]+\b", "", text)
                    numbers = {int(n) for n in re.findall(r"(?<![A-Za-z_0-9])\d+", text)}
                    assert numbers <= {0, 1}, (sheet_name, cell.coordinate, cell.value)
    assert book[ATTACK_SHEET]._charts
    assert book[ODDS_SHEET].conditional_formatting
    for name in ("ATTACK_ATTACKS", "ATTACK_TARGET_HP", *NEW_OUTPUTS):
        assert name in book.defined_names
    xlsm = openpyxl.load_workbook(built / "combat17.xlsm", keep_vba=True)
    formulas = " ".join(
        str(c.value) for row in xlsm[ATTACK_SHEET].iter_rows() for c in row if c.data_type == "f"
    )
    for udf in ("combat17_expected_damage", "combat17_kill_chance"):
        assert udf in formulas
