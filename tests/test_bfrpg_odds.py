"""Odds before the dice are rolled (bfrpg): the Attack calculator's exact damage distribution (the
generic engine's) against a brute-force enumeration through its own damage cell and a seeded Monte
Carlo, and the native odds cells of the .xlsx recalculated in LibreOffice against the engine (the
shared d20_* functions: tests/test_shared_attack_udfs.py)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import dice as dice_module
from pycalc import resolution_calculator, resolution_chances, resolution_odds
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.odds import CALCULATOR_ODDS, EXPECTED
from pycalc.resolution_calculator import (
    CalculatorInputs,
    attack_and_damage,
    attack_outputs,
    dice_used,
    with_picks,
)
from pycalc.rulesets import bfrpg as engine
from pycalc.sheets import d20_cells, d20_damage
from pycalc.sheets.d20 import HEAT_BONUS, HEAT_TARGET
from pycalc.sheets.d20_cells import ODDS_SHEET
from tests.test_bfrpg_parity import FLIPS, RULES, every_ruling, picker_scenarios, with_rulings
from tests.test_generic_parity import mismatches

ODDS_OUTPUTS = list(CALCULATOR_ODDS)
TWO_ROLLS = {"critical_damage": "normal_plus_max_plus_roll"}


def label(table_id: str, row_id: str) -> str:
    return str(RULES.table(table_id).entry(row_id).label)


def situations() -> list[tuple[str, dict[str, str], frozenset[tuple[str, str]], dict[str, str]]]:
    """(name, choices, toggles, rulings): every damage rule that changes the distribution."""
    ticked = frozenset
    return [
        ("plain", {}, ticked(), {}),
        ("two rolls", {}, ticked(), TWO_ROLLS),
        ("charge", {"charge_options": label("charge_options", "charge")}, ticked(), {}),
        (
            "charge, double roll only, two rolls",
            {"charge_options": label("charge_options", "charge")},
            ticked(),
            {"critical_with_double_damage": "double_roll_only", **TWO_ROLLS},
        ),
        ("subdual", {"damage_mode": label("damage_mode", "flat_of_blade")}, ticked(), {}),
        (
            "subdual rounding down",
            {"damage_mode": label("damage_mode", "flat_of_blade")},
            ticked(),
            {"subdual_half_rounding": "down"},
        ),
        *(
            (f"underwater {row.id}", {"underwater_weapons": str(row.label)}, ticked(), {})
            for row in RULES.table("underwater_weapons").rows[1:]
        ),
        ("lingering injury", {"critical_effect": label("critical_effect", "lingering_injury")}, ticked(), {}),
        *(
            (f"helpless {row.id}", {}, ticked({("target_conditions", row.id)}), {})
            for row in RULES.table("target_conditions").rows
            if row.values.get("auto_hit_melee")
        ),
        (
            "helpless, no multipliers, charging",
            {"charge_options": label("charge_options", "charge")},
            ticked(
                {
                    ("target_conditions", r.id)
                    for r in RULES.table("target_conditions").rows
                    if r.values.get("auto_hit_melee")
                }
            ),
            {"helpless_multipliers": "none"},
        ),
        *(
            (f"blocked by {row.id}", {"defense_stance": str(row.label)}, ticked(), {})
            for row in RULES.table("defense_stance").rows
            if row["no_attack"]
        ),
        ("no critical past 20", {}, ticked(), {"only_natural_20_hits": "no_critical_past_20"}),
        ("confirmation on totals only", {}, ticked(), {"confirmation_natural_1": "total_only"}),
    ]


def brute_force(rules, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """Every (roll, confirmation roll, each damage die face, each face of a second roll) combination,
    weighted equally, through the Attack calculator's own cells: each pair of rolls' result, then the
    damage cell of that result for every pair of damage totals (an attack ruled out: 0)."""
    faces = engine.faces(rules)
    parsed = dice_module.parse(dice_used(rules, inputs))
    die_faces = [sum(f) for f in itertools.product(range(1, parsed.sides + 1), repeat=parsed.count)]
    second = die_faces if rules.ruling("critical_damage") == "normal_plus_max_plus_roll" else [None]
    weight = Fraction(1, faces * faces * len(die_faces) * len(second))
    results: dict[tuple[int, int], object] = {}
    first_rolls: dict[object, tuple[int, int]] = {}
    for roll in range(1, faces + 1):
        for follow in range(1, faces + 1):
            result = attack_outputs(rules, dataclasses.replace(inputs, roll=roll, follow_roll=follow))[
                "ATTACK_RESULT"
            ]
            results[roll, follow] = result
            first_rolls.setdefault(result, (roll, follow))
    found: dict[int, Fraction] = {}
    for result, (roll, follow) in first_rolls.items():
        count = sum(1 for r in results.values() if r == result)
        for shown in die_faces:
            for extra in second:
                typed = dataclasses.replace(
                    inputs, roll=roll, follow_roll=follow, damage_roll=shown, extra_roll=extra
                )
                amount = attack_outputs(rules, typed)["ATTACK_DAMAGE"]
                amount = 0 if amount == "" else amount  # an attack ruled out deals nothing
                assert isinstance(amount, int), amount
                found[amount] = found.get(amount, Fraction(0)) + weight * count
    return dict(sorted(found.items()))


def exact(rules, inputs: CalculatorInputs) -> dict[int, Fraction]:
    """The calculator's distribution (the generic engine's, ``resolution_odds``)."""
    picked = with_picks(rules, inputs.choices)
    attack, damage, _ = attack_and_damage(picked, inputs, dice_module.parse(dice_used(rules, inputs)))
    return resolution_odds.damage_distribution(picked, attack, damage)  # a ruled-out attack is blocked


BRUTE_DICE = ("1d4", "2d3", "1d6+1", "1d3-2")
BRUTE_CASES = [
    (name, dice, need)
    for index, (name, *_rest) in enumerate(situations())
    for dice, need in (
        (BRUTE_DICE[index % len(BRUTE_DICE)], 9),
        (BRUTE_DICE[(index + 1) % 4], (19, 20, 21)[index % 3]),
    )
]


@pytest.mark.parametrize(("name", "dice", "need"), BRUTE_CASES)
def test_distribution_equals_brute_force_enumeration(name: str, dice: str, need: int):
    _, choices, toggles, rulings = next(s for s in situations() if s[0] == name)
    rules = with_rulings(rulings)
    inputs = CalculatorInputs(bonus=2, target=need + 2, dice=dice, choices=choices, toggles=toggles)
    found = exact(rules, inputs)
    assert found == brute_force(rules, inputs)
    assert sum(found.values()) == 1
    if not any(
        r.get("no_attack") for t, r in [(t, RULES.table(t).by_label(v).values) for t, v in choices.items()]
    ):
        assert attack_outputs(rules, inputs)[EXPECTED] == sum((a * p for a, p in found.items()), Fraction(0))


def sample_damage(rules, inputs: CalculatorInputs, chance: random.Random) -> int:
    faces = engine.faces(rules)
    parsed = dice_module.parse(inputs.dice)

    def roll_dice() -> int:
        return sum(chance.randint(1, parsed.sides) for _ in range(parsed.count))

    drawn = dataclasses.replace(
        inputs,
        roll=chance.randint(1, faces),
        follow_roll=chance.randint(1, faces),
        damage_roll=roll_dice(),
        extra_roll=roll_dice(),
    )
    damage = attack_outputs(rules, drawn)["ATTACK_DAMAGE"]
    assert isinstance(damage, int)
    return damage


MONTE_CARLO = [
    (
        "3d6+2, charging, two rolls",
        TWO_ROLLS,
        CalculatorInputs(
            bonus=6, target=16, dice="3d6+2", choices={"charge_options": label("charge_options", "charge")}
        ),
    ),
    (
        "2d8, subdual, need 19",
        {},
        CalculatorInputs(
            bonus=1, target=20, dice="2d8", choices={"damage_mode": label("damage_mode", "flat_of_blade")}
        ),
    ),
]


@pytest.mark.parametrize(("name", "rulings", "inputs"), MONTE_CARLO)
def test_distribution_agrees_with_a_seeded_monte_carlo(name, rulings, inputs, monkeypatch):
    # each sample reads the calculator's damage cell; its odds cells, worked out again for every
    # sample, would take nine tenths of the time and are not what is sampled
    monkeypatch.setattr(resolution_calculator, "odds_outputs", lambda *_: dict.fromkeys(CALCULATOR_ODDS, 0))
    rules = with_rulings(rulings)
    chance = random.Random(8080)
    samples = [sample_damage(rules, inputs, chance) for _ in range(40_000)]
    found = exact(rules, inputs)
    mean = float(sum((a * p for a, p in found.items()), Fraction(0)))
    spread = statistics.pstdev(samples)
    assert abs(statistics.fmean(samples) - mean) < 5 * spread / math.sqrt(len(samples))
    for amount in (1, 8, 15, 25, 40):
        p = float(sum((q for total, q in found.items() if total >= amount), Fraction(0)))
        seen = sum(1 for s in samples if s >= amount) / len(samples)
        assert abs(seen - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / len(samples)) + 1e-4, amount


def test_the_seed_example_odds():
    """AB 3 vs AC 15 with 1d8+2: hits on 12-20; 20 threatens, 12+ confirms (9/20)."""
    inputs = CalculatorInputs(3, 15, dice="1d8+2")
    attack, _, _ = attack_and_damage(RULES, inputs, dice_module.parse(inputs.dice))
    found = resolution_chances.chances(RULES, attack)
    miss, hit, critical = found[MISS] + found[FUMBLE], found[HIT], found[CRITICAL]
    assert (miss, critical) == (Fraction(11, 20), Fraction(9, 400))
    # a hit averages 6.5; a critical 8 more
    assert attack_outputs(RULES, inputs)[EXPECTED] == (hit + critical) * Fraction(13, 2) + critical * 8


# --------------------------------------------------------------------------- the workbook


@pytest.fixture(scope="module")
def folder(build_ruleset) -> Path:
    return build_ruleset("bfrpg")


def odds_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    chance = random.Random(5150)
    found = []
    dice_list = [
        "1d4",
        "1d8+2",
        "2d6-1",
        "3d6+2",
        "4d12+3",
        "8d12",
        "1d12-4",
        "9d6",
        "1d20",
        "abc",
        "5d6",
        "d8",
    ]
    for index, need in enumerate((-6, 0, 1, 2, 9, 18, 19, 20, 21, 22, 30)):
        for offset, dice in enumerate(dice_list):
            flip = FLIPS[(index + offset) % len(FLIPS)] if (index + offset) % 3 else {}
            inputs = CalculatorInputs(
                bonus=4,
                target=need + 4,
                dice=dice,
                attacks=(0, 1, -1, 2, 3)[(index + offset) % 5],
                hp=(-1, 0, 1, 5, 10, 18, 40)[(index * 3 + offset) % 7],
            )
            found.append((inputs, every_ruling(flip)))
    for inputs, flip in picker_scenarios(260, 5150):
        if chance.random() < 0.2:
            inputs = dataclasses.replace(
                inputs, dice=f"{chance.randint(1, 8)}d{chance.randint(1, 12)}+{chance.randint(0, 3)}"
            )
        if chance.random() < 0.2:
            flip = {**flip, **TWO_ROLLS}
        inputs = dataclasses.replace(inputs, attacks=chance.choice([1, 1, 2, 3]), hp=chance.randint(-1, 30))
        found.append((inputs, flip))
    return found


def test_odds_cells_equal_the_engine_in_libreoffice(calc, folder: Path):
    scenarios = odds_scenarios()
    assert len(scenarios) >= 300
    found = mismatches(
        calc, RULES, folder / "bfrpg.xlsx", [i for i, _ in scenarios], [f for _, f in scenarios]
    )
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    numeric = [attack_outputs(RULES, i)[EXPECTED] for i, _ in scenarios]
    assert sum(isinstance(n, Fraction) for n in numeric) >= 250


def cells_of(book: openpyxl.Workbook, name: str) -> list[tuple[str, str]]:
    sheet, ref = next(iter(book.defined_names[name].destinations))
    first, last = ref.replace("$", "").split(":")
    return [(sheet, c.coordinate) for row in book[sheet][f"{first}:{last}"] for c in row]


def test_chart_numbers_and_heat_map_equal_the_engine(calc, folder: Path):
    book = openpyxl.load_workbook(folder / "bfrpg.xlsx")
    chart_cells = cells_of(book, d20_cells.CHART_CHANCE)
    heat_cells = cells_of(book, "ODDS_HIT_GRID") + cells_of(book, "ODDS_CRIT_GRID")
    got = calc.evaluate_cells(folder / "bfrpg.xlsx", chart_cells + heat_cells)
    spread = exact(RULES, CalculatorInputs())  # the calculator's defaults
    chart = got[: len(chart_cells)]
    assert len(chart) == len(d20_damage.CHART_DAMAGE)
    for x, value in zip(d20_damage.CHART_DAMAGE, chart, strict=True):
        assert value == pytest.approx(float(spread.get(x, 0)), abs=1e-12), x
    heat = got[len(chart_cells) :]
    pairs = [(b, ac) for b in HEAT_BONUS["armor_class"] for ac in HEAT_TARGET["armor_class"]]
    chances = [engine.chances(RULES, engine.Attack(b, ac)) for b, ac in pairs]
    expected = [float(c.hit) for c in chances] + [float(c.critical) for c in chances]
    assert heat == pytest.approx(expected, abs=1e-12)
    assert book[ODDS_SHEET].conditional_formatting
    assert book["Attack calculator"]._charts
