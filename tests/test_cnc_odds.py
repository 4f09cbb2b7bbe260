"""Odds before the dice are rolled (cnc): the calculator's exact distribution against brute force, the
shared odds functions against a seeded Monte Carlo (their agreement with the calculator is
tests/test_shared_attack_udfs.py's; the distribution against the stated rule test_resolution_cnc's), and every odds cell of the built cnc.xlsx recalculated in
LibreOffice against the engine (random pickers and rulings included), the chart's numbers and the
printable heat map too.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_odds, udfs
from pycalc.d20 import D20_RULESETS
from pycalc.odds import CALCULATOR_ODDS, EXPECTED
from pycalc.resolution_calculator import CalculatorInputs, attack_and_damage, attack_outputs, with_picks
from pycalc.resolution_situation import picker_tables
from pycalc.sheets import d20_cells, d20_damage
from pycalc.sheets.d20 import HEAT_BONUS, HEAT_TARGET
from pycalc.sheets.d20_cells import ODDS_SHEET
from pycalc.sheets.dice_grid import MAX_DICE, MAX_SIDES
from pycalc.tables import RuleSet, load_ruleset
from tests.test_cnc_parity import DICE_FORMS, FLIPS, RANGED, attack_scenarios
from tests.test_generic_parity import mismatches
from tests.workbook_files import FUNCTION_CALL, cell_of

RULES = load_ruleset("cnc")
ODDS_OUTPUTS = list(CALCULATOR_ODDS)
FACES = 20


def test_the_shared_functions_agree_with_a_seeded_monte_carlo_on_a_large_case():
    bonus, ac, mods, damage_bonus = 5, 18, 1, 2
    attacks, hp, n = 3, 60, 200_000
    typed = ("cnc", float(bonus), float(ac), "6d10+3")
    situation = (float(mods), float(damage_bonus))
    chance = random.Random(2024)
    need = ac - bonus - mods
    totals = []
    for _ in range(n):
        total = 0
        for _ in range(attacks):
            if chance.randint(1, 20) >= need:
                total += max(0, sum(chance.randint(1, 10) for _ in range(6)) + 3 + damage_bonus)
        totals.append(total)
    mean = statistics.fmean(totals)
    sd = statistics.pstdev(totals)
    assert abs(mean - udfs.d20_expected_damage(*typed, float(attacks), *situation)) < 5 * sd / math.sqrt(n)
    for amount in (1, 30, hp, 90):
        p = udfs.d20_damage_chance_at_least(*typed, float(amount), float(attacks), *situation)
        seen = sum(t >= amount for t in totals) / n
        assert abs(seen - p) < 5 * math.sqrt(p * (1 - p) / n) + 1e-9, amount
    assert udfs.d20_kill_chance(*typed, float(hp), float(attacks), *situation) == (
        udfs.d20_damage_chance_at_least(*typed, float(hp), float(attacks), *situation)
    )


def calculator_brute_force(rules: RuleSet, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """Every natural d20 and die face through the calculator's own ATTACK_DAMAGE."""
    dice = dice_module.parse(inputs.dice)
    faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
    weight = Fraction(1, FACES * len(faces))
    found: dict[int, Fraction] = {}
    for roll in range(1, FACES + 1):
        for shown in faces:
            typed = dataclasses.replace(inputs, roll=roll, damage_roll=sum(shown))
            amount = attack_outputs(rules, typed)["ATTACK_DAMAGE"]
            assert isinstance(amount, int), amount
            found[amount] = found.get(amount, Fraction(0)) + weight
    return dict(sorted(found.items()))


CALCULATOR_CASES = [
    CalculatorInputs(bonus=3, target=15, dice="1d8+2"),
    CalculatorInputs(bonus=3, target=15, dice="1d4", toggles=frozenset({("charge", "charge_damage_bonus")})),
    CalculatorInputs(bonus=3, target=15, dice="1d2-1", choices={"attack_types": "Pummel"}),
    CalculatorInputs(bonus=3, target=15, dice="1d6", choices={"attack_types": "Grapple"}),
    CalculatorInputs(bonus=1, target=15, dice="2d3", range_increment=20, distance=50, choices={"attack_types": RANGED}),
]  # fmt: skip


@pytest.mark.parametrize("inputs", CALCULATOR_CASES)
def test_the_calculator_s_odds_equal_brute_force(inputs):
    rules = with_picks(RULES, inputs.choices)  # the picked kind's least damage, and whether it deals any
    attack, damage, _ = attack_and_damage(rules, inputs, dice_module.parse(inputs.dice))
    fast = resolution_odds.damage_distribution(rules, attack, damage)
    assert fast == calculator_brute_force(RULES, inputs)
    assert attack_outputs(RULES, inputs)[EXPECTED] == sum((a * p for a, p in fast.items()), Fraction(0))


def test_the_calculator_s_odds_of_the_seed_s_numbers():
    out = attack_outputs(RULES, CalculatorInputs(bonus=3, target=15, dice="1d8+2", attacks=2, hp=5))
    assert out["ATTACK_EXPECTED_DAMAGE"] == Fraction(9, 20) * Fraction(13, 2)  # 9 of 20 faces hit, 1d8+2
    assert out["ATTACK_EXPECTED_DAMAGE_ROUND"] == 2 * out["ATTACK_EXPECTED_DAMAGE"]
    assert out["ATTACK_KILL_CHANCE"] == Fraction(9, 20) * Fraction(6, 8)
    grapple = CalculatorInputs(bonus=3, target=15, dice="1d8+2", choices={"attack_types": "Grapple"})
    assert attack_outputs(RULES, grapple)["ATTACK_EXPECTED_DAMAGE"] == 0


def test_timing_of_one_attack_s_odds_is_small():
    runs = []
    for _ in range(100):
        start = time.perf_counter()
        udfs.d20_expected_damage("cnc", 5.0, 18.0, "8d12+4", 1.0, 0.0, 2.0)
        runs.append(time.perf_counter() - start)
    assert statistics.median(runs) < 0.05


def test_the_shared_odds_functions_say_what_is_wrong():
    assert udfs.d20_expected_damage("cnc", 3.0, 15.0, "abc").startswith("#DICE?")
    assert udfs.d20_expected_damage("cnc", 3.0, None, "1d8").startswith("#TARGET?")
    assert (
        udfs.d20_expected_damage("cnc", 3.0, 15.0, "1d8", attacks=-1.0)
        == "#ATTACKS? attacks: a whole number from 0 to 10"
    )
    assert udfs.d20_kill_chance("cnc", 3.0, 15.0, "1d8", "lots").startswith("#HP?")
    assert udfs.d20_kill_chance("cnc", 3.0, 15.0, "1d8", 5.0, picks="Nothing").startswith("#PICKS?")
    assert udfs.d20_damage_chance_at_least("cnc", 3.0, 15.0, None, 5.0).startswith("#DICE?")
    assert udfs.d20_kill_chance("cnc", 3.0, 15.0, "1d8+2", 5.0) == float(Fraction(9, 20) * Fraction(6, 8))


# --------------------------------------------------------------------------- the workbook


@pytest.fixture(scope="module")
def folder(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset("cnc")


def odds_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    chance = random.Random(4242)
    found = []
    for inputs, flip in attack_scenarios():  # every picker, the range band, dice forms
        inputs = dataclasses.replace(
            inputs, attacks=chance.choice([1, 1, 0, 2, 4, -1]), hp=chance.randint(-2, 30)
        )
        found.append((inputs, flip))
    beyond = ["9d6", "1d20", "8d12+5", "8d12", "1d12-2", "2d100", "d12"]
    for dice_text in beyond + DICE_FORMS:
        for hp in (-3, 0, 1, 10, 100):
            found.append((CalculatorInputs(bonus=4, target=14, dice=dice_text, hp=hp), {}))
    for _ in range(120):  # random pickers with every ruling random, dice inside the grid
        choices = {t: str(chance.choice(RULES.table(t).rows).label) for t in picker_tables(RULES, "choice")}
        toggles = frozenset(
            (t, r.id)
            for t in picker_tables(RULES, "toggle")
            for r in RULES.table(t).rows
            if chance.random() < 0.3
        )
        count, sides, mod = chance.randint(1, MAX_DICE), chance.randint(1, MAX_SIDES), chance.randint(-4, 6)
        inputs = CalculatorInputs(
            bonus=chance.randint(-3, 15),
            target=chance.randint(-2, 30),
            mods=chance.randint(-6, 6),
            dice=f"{count}d{sides}" + (f"{mod:+d}" if mod else ""),
            numbers={"defender_dex": chance.randint(-2, 4), "attacker_dex": chance.randint(-2, 4)},
            attacks=chance.randint(0, 3),
            hp=chance.randint(-1, count * sides + mod + 3),
            choices=choices,
            toggles=toggles,
        )
        found.append((inputs, {r: chance.choice(c) for r, c in FLIPS.items()}))
    every = {r: RULES.ruling(r) for r in RULES.rulings}  # typed ruling cells stay for the next case
    return [(inputs, {**every, **flip}) for inputs, flip in found]


def test_every_odds_cell_equals_the_engine_in_libreoffice(calc, folder: Path):
    scenarios = odds_scenarios()
    assert len(scenarios) >= 400
    found = mismatches(calc, RULES, folder / "cnc.xlsx", [i for i, _ in scenarios], [f for _, f in scenarios])
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    numeric = [attack_outputs(RULES, i)["ATTACK_EXPECTED_DAMAGE"] for i, _ in scenarios]
    assert sum(isinstance(n, Fraction) for n in numeric) >= 300


def cells_of(book: openpyxl.Workbook, name: str) -> list[tuple[str, str]]:
    sheet, ref = next(iter(book.defined_names[name].destinations))
    first, last = ref.replace("$", "").split(":")
    return [(sheet, c.coordinate) for row in book[sheet][f"{first}:{last}"] for c in row]


def test_chart_numbers_and_heat_map_equal_the_engine(calc, folder: Path):
    book = openpyxl.load_workbook(folder / "cnc.xlsx")
    chart_cells = cells_of(book, d20_cells.CHART_CHANCE)
    heat_cells = cells_of(book, "ODDS_HIT_GRID")
    got = calc.evaluate_cells(folder / "cnc.xlsx", chart_cells + heat_cells)
    defaults = CalculatorInputs()  # the calculator's defaults
    attack, damage, _ = attack_and_damage(RULES, defaults, dice_module.parse(defaults.dice))
    spread = resolution_odds.damage_distribution(RULES, attack, damage)
    chart = got[: len(chart_cells)]
    assert len(chart) == len(d20_damage.CHART_DAMAGE)
    for x, value in zip(d20_damage.CHART_DAMAGE, chart, strict=True):
        assert value == pytest.approx(float(spread.get(x, 0)), abs=1e-12), x
    heat = got[len(chart_cells) :]
    expected = [
        float(resolution_chances.hit_chance(RULES, generic.Attack(bonus, ac)))
        for bonus in HEAT_BONUS["armor_class"]
        for ac in HEAT_TARGET["armor_class"]
    ]
    assert heat == pytest.approx(expected, abs=1e-12)
    assert book[ODDS_SHEET].conditional_formatting
    assert book["Attack calculator"]._charts


@pytest.mark.parametrize("ruleset_id", D20_RULESETS)
def test_the_odds_cells_are_native_formulas_in_both_workbooks(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    """Every d20 Attack calculator's odds read its pickers: the .xlsm has the .xlsx's native formulas
    (the shared d20_expected_damage... give them in the GM's own cells)."""
    folder = build_ruleset(ruleset_id)
    xlsx = openpyxl.load_workbook(folder / f"{ruleset_id}.xlsx")
    xlsm = openpyxl.load_workbook(folder / f"{ruleset_id}.xlsm", keep_vba=True)
    assert cell_of(xlsx, "ATTACK_ATTACKS").value == 1 and cell_of(xlsx, "ATTACK_TARGET_HP").value == 10
    assert cell_of(xlsx, "ATTACK_ATTACKS").protection.locked is False
    for name in ODDS_OUTPUTS:
        assert cell_of(xlsm, name).value == cell_of(xlsx, name).value, name
        called = {f.lower() for f in FUNCTION_CALL.findall(cell_of(xlsx, name).value)}
        assert not {f for f in called if f.startswith((f"{ruleset_id}_", "d20_"))}, name
