"""Odds before the dice are rolled (bfrpg): the exact damage distribution against a brute-force
enumeration and a seeded Monte Carlo, the UDFs as xlwings calls them, and the native odds cells of
the .xlsx recalculated in LibreOffice against the engine."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
import statistics
import time
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import dice as dice_module
from pycalc import resolution_chances, udfs
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import bfrpg_odds as odds
from pycalc.sheets import bfrpg_odds as odds_sheets
from pycalc.sheets import d20_cells, d20_damage
from pycalc.sheets.bfrpg import ATTACK_SHEET
from pycalc.sheets.dice_grid import HEADER_ROW
from pycalc.udfs import bfrpg as udfs_bfrpg
from tests.test_bfrpg_parity import FLIPS, RULES, attack_cells, picker_scenarios, same, with_rulings
from tests.test_bfrpg_workbook import allowed_numbers

ODDS_OUTPUTS = [
    "ATTACK_EXPECTED_DAMAGE",
    "ATTACK_EXPECTED_DAMAGE_ROUND",
    "ATTACK_KILL_CHANCE",
    "ATTACK_KILL_CHANCE_ROUND",
]
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
            if not row["can_attack"]
        ),
        ("no critical past 20", {}, ticked(), {"only_natural_20_hits": "no_critical_past_20"}),
        ("confirmation on totals only", {}, ticked(), {"confirmation_natural_1": "total_only"}),
    ]


def brute_force(rules, inputs: engine.AttackInputs) -> dict[int, Fraction]:
    """Every (roll, confirmation roll, each damage die face, each face of a second roll) combination,
    weighted equally, through the Attack calculator's own outputs."""
    faces = engine.faces(rules)
    text, _ = engine.attack_dice_text(rules, inputs)
    parsed = dice_module.parse(text)
    die_faces = list(itertools.product(range(1, parsed.sides + 1), repeat=parsed.count))
    second = die_faces if rules.ruling("critical_damage") == "normal_plus_max_plus_roll" else [None]
    found: dict[int, Fraction] = {}
    cache: dict[tuple[object, ...], int] = {}
    weight = Fraction(1, faces * faces * len(die_faces) * len(second))
    for roll in range(1, faces + 1):
        for follow in range(1, faces + 1):
            out = engine.attack_outputs(rules, dataclasses.replace(inputs, roll=roll, follow_roll=follow))
            outcome = out["ATTACK_RESULT"]
            auto = engine.EFFECT_AUTO_HIT in str(out["ATTACK_EFFECT"])
            for first in die_faces:
                for extra in second:
                    key = (outcome, auto, sum(first), None if extra is None else sum(extra))
                    if key not in cache:
                        cache[key] = engine.attack_damage(
                            rules,
                            dataclasses.replace(inputs, damage_roll=key[2], extra_roll=key[3]),
                            str(outcome),
                            auto,
                        )
                    found[cache[key]] = found.get(cache[key], Fraction(0)) + weight
    return dict(sorted(found.items()))


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
    inputs = engine.AttackInputs(bonus=2, target=need + 2, dice=dice, choices=choices, toggles=toggles)
    found = odds.damage_distribution(rules, odds.odds_attack(rules, inputs))
    assert found == brute_force(rules, inputs)
    assert sum(found.values()) == 1


def test_several_attacks_are_independent_sums():
    rules = with_rulings(TWO_ROLLS)
    attack = odds.odds_attack(rules, engine.AttackInputs(bonus=4, target=14, dice="1d6+1"))
    one = odds.damage_distribution(rules, attack)
    three = odds.round_distribution(rules, attack, 3)
    brute: dict[int, Fraction] = {}
    for a, b, c in itertools.product(one.items(), repeat=3):
        brute[a[0] + b[0] + c[0]] = brute.get(a[0] + b[0] + c[0], Fraction(0)) + a[1] * b[1] * c[1]
    assert three == brute
    for hp in (-1, 0, 1, 7, 15, 30, 60):
        expected = sum((p for total, p in brute.items() if total >= hp), Fraction(0))
        assert odds.kill_chance(rules, attack, hp, 3) == expected
        assert odds.chance_at_least(rules, attack, hp, 3) == expected
    assert odds.expected_damage(rules, attack, 3) == sum(t * p for t, p in brute.items())


def sample_damage(rules, inputs: engine.AttackInputs, chance: random.Random) -> int:
    faces = engine.faces(rules)
    text, _ = engine.attack_dice_text(rules, inputs)
    parsed = dice_module.parse(text)

    def roll_dice() -> int:
        return sum(chance.randint(1, parsed.sides) for _ in range(parsed.count))

    drawn = dataclasses.replace(
        inputs,
        roll=chance.randint(1, faces),
        follow_roll=chance.randint(1, faces),
        damage_roll=roll_dice(),
        extra_roll=roll_dice(),
    )
    damage = engine.attack_outputs(rules, drawn)["ATTACK_DAMAGE"]
    assert isinstance(damage, int)
    return damage


MONTE_CARLO = [
    (
        "3d6+2, charging, two rolls",
        TWO_ROLLS,
        engine.AttackInputs(
            bonus=6, target=16, dice="3d6+2", choices={"charge_options": label("charge_options", "charge")}
        ),
    ),
    (
        "2d8, subdual, need 19",
        {},
        engine.AttackInputs(
            bonus=1, target=20, dice="2d8", choices={"damage_mode": label("damage_mode", "flat_of_blade")}
        ),
    ),
]


@pytest.mark.parametrize(("name", "rulings", "inputs"), MONTE_CARLO)
def test_distribution_agrees_with_a_seeded_monte_carlo(name, rulings, inputs):
    rules = with_rulings(rulings)
    chance = random.Random(8080)
    samples = [sample_damage(rules, inputs, chance) for _ in range(40_000)]
    attack = odds.odds_attack(rules, inputs)
    exact = odds.damage_distribution(rules, attack)
    mean = float(odds.expected_damage(rules, attack))
    spread = statistics.pstdev(samples)
    assert abs(statistics.fmean(samples) - mean) < 5 * spread / math.sqrt(len(samples))
    for amount in (1, 8, 15, 25, 40):
        p = float(sum((q for total, q in exact.items() if total >= amount), Fraction(0)))
        seen = sum(1 for s in samples if s >= amount) / len(samples)
        assert abs(seen - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / len(samples)) + 1e-4, amount
    # two attacks: kill chance against the sum of pairs of samples
    pairs = [a + b for a, b in zip(samples[::2], samples[1::2], strict=True)]
    p = float(odds.kill_chance(rules, attack, 20, 2))
    seen = sum(1 for s in pairs if s >= 20) / len(pairs)
    assert abs(seen - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / len(pairs)) + 1e-4


def test_the_seed_example_odds():
    """AB 3 vs AC 15 with 1d8+2: hits on 12-20; 20 threatens, 12+ confirms (9/20)."""
    attack = odds.odds_attack(RULES, engine.AttackInputs(3, 15, dice="1d8+2"))
    found = resolution_chances.chances(RULES, attack.attack)
    miss, hit, critical = found[MISS] + found[FUMBLE], found[HIT], found[CRITICAL]
    assert (miss, critical) == (Fraction(11, 20), Fraction(9, 400))
    # a hit averages 6.5; a critical 8 more
    assert odds.expected_damage(RULES, attack) == (hit + critical) * Fraction(13, 2) + critical * 8


def test_one_attack_distribution_timing(record_property):
    attack = odds.odds_attack(RULES, engine.AttackInputs(3, 15, dice="2d6+2"))
    times = []
    for _ in range(100):
        start = time.perf_counter()
        odds.damage_distribution(RULES, attack)
        times.append(time.perf_counter() - start)
    median_ms = statistics.median(times) * 1000
    record_property("median_ms", median_ms)
    print(f"one attack's distribution: median {median_ms:.3f} ms")
    assert median_ms < 50


# --------------------------------------------------------------------------- UDFs as xlwings calls them


def udf_args(rules, inputs: engine.AttackInputs) -> tuple[tuple[object, ...], tuple[object, ...]]:
    out = engine.attack_outputs(rules, inputs)
    text, added = engine.attack_dice_text(rules, inputs)
    head = (float(inputs.bonus), float(out["ATTACK_TARGET_AC"]), text)
    pick = lambda t: str(engine.chosen_row(rules, inputs.choices, t).label)  # noqa: E731
    tail = (
        float(inputs.mods + out["ATTACK_ABILITY_BONUS"] + out["ATTACK_SITUATION_HIT"]),
        float(added),
        pick("charge_options"),
        pick("damage_mode"),
        pick("underwater_weapons"),
        pick("critical_effect"),
        odds.odds_attack(rules, inputs).attack.auto_hit,
        engine.blocked_label(rules, inputs),
    )
    return head, tail


def test_udfs_equal_the_engine():
    for rules, inputs in picker_scenarios(60, 77):
        if rules.chosen:  # the UDFs read the tables' default rulings
            continue
        attack = odds.odds_attack(rules, inputs)
        head, tail = udf_args(rules, inputs)
        for attacks in (1, 3):
            assert udfs.bfrpg_expected_damage(*head, float(attacks), *tail) == pytest.approx(
                float(odds.expected_damage(rules, attack, attacks)), abs=1e-12
            )
            for hp in (1, 9, 25):
                kill = float(odds.kill_chance(rules, attack, hp, attacks))
                assert udfs_bfrpg.bfrpg_kill_chance(*head, float(hp), float(attacks), *tail) == pytest.approx(
                    kill
                )
                at_least = udfs_bfrpg.bfrpg_damage_chance_at_least(*head, float(hp), float(attacks), *tail)
                assert at_least == pytest.approx(kill)


def test_udfs_with_empty_optional_cells_and_bad_arguments():
    expected = float(
        odds.expected_damage(RULES, odds.odds_attack(RULES, engine.AttackInputs(3, 15, dice="1d8+2")))
    )
    assert udfs_bfrpg.bfrpg_expected_damage(3.0, 15.0, "1d8+2", None, None) == pytest.approx(expected)
    assert udfs_bfrpg.bfrpg_expected_damage(
        3.0, 15.0, "1d8+2", None, None, None, None, None, None, None, False, ""
    ) == pytest.approx(expected)
    assert udfs_bfrpg.bfrpg_expected_damage(3.0, 15.0, "abc", None, 0.0) == "#DICE? write it like 2d4+2"
    assert udfs_bfrpg.bfrpg_expected_damage(3.0, 15.0, "1d8", 0.0, 0.0) == 0.0  # no attack, no damage
    assert udfs_bfrpg.bfrpg_expected_damage(3.0, 15.0, "1d8", -1.0, 0.0).startswith("#ATTACKS?")
    assert udfs_bfrpg.bfrpg_kill_chance(3.0, 15.0, "1d8", None, None, 0.0).startswith("#HP?")
    assert udfs_bfrpg.bfrpg_kill_chance(3.0, None, "1d8", 5.0, None, 0.0).startswith("#TARGET?")
    assert udfs_bfrpg.bfrpg_kill_chance(3.0, 15.0, "1d8", 5.0, 1.0, 0.0, 0.0, "nope").startswith("#")
    assert udfs_bfrpg.bfrpg_kill_chance(3.0, 15.0, "1d8", 0.0, None, 0.0) == 1.0
    assert (
        udfs_bfrpg.bfrpg_expected_damage(
            3.0, 15.0, "1d8", 1.0, 0.0, 0.0, None, None, None, None, False, "Total defense"
        )
        == 0.0
    )
    assert (
        udfs_bfrpg.bfrpg_expected_damage(3.0, 15.0, "1d8+1", 1.0, 0.0, 0.0, None, None, None, None, True)
        == 18.0
    )
    assert udfs_bfrpg.bfrpg_kill_chance(0.0, 15.0, "20d12+3", 100.0, 2.0, 0.0).startswith(
        "#DICE? dice for the odds"
    )


def test_udf_names_are_exported():
    assert {"bfrpg_expected_damage", "bfrpg_damage_chance_at_least", "bfrpg_kill_chance"} <= set(
        udfs_bfrpg.__all__
    )


# --------------------------------------------------------------------------- the workbooks


@pytest.fixture(scope="module")
def folder(build_ruleset) -> Path:
    return build_ruleset("bfrpg")


def edge_scenarios() -> list[tuple[object, engine.AttackInputs, int, int]]:
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
            rules = with_rulings(FLIPS[(index + offset) % len(FLIPS)]) if (index + offset) % 3 else RULES
            attacks = (0, 1, -1, 2, 3)[(index + offset) % 5]
            hp = (-1, 0, 1, 5, 10, 18, 40)[(index * 3 + offset) % 7]
            found.append((rules, engine.AttackInputs(bonus=4, target=need + 4, dice=dice), attacks, hp))
    return found


def random_scenarios(count: int, seed: int) -> list[tuple[object, engine.AttackInputs, int, int]]:
    chance = random.Random(seed)
    found = []
    for rules, inputs in picker_scenarios(count, seed):
        if chance.random() < 0.2:
            inputs = dataclasses.replace(
                inputs, dice=f"{chance.randint(1, 8)}d{chance.randint(1, 12)}+{chance.randint(0, 3)}"
            )
        if chance.random() < 0.2:
            rules = with_rulings({**rules.chosen, **TWO_ROLLS})
        found.append((rules, inputs, chance.choice([1, 1, 2, 3]), chance.randint(-1, 30)))
    return found


def test_odds_cells_equal_the_engine_in_libreoffice(calc, folder: Path):
    scenarios = edge_scenarios() + random_scenarios(260, 5150)
    assert len(scenarios) >= 300
    cells = []
    for rules, inputs, attacks, hp in scenarios:
        cells.append({**attack_cells(rules, inputs), "ATTACK_ATTACKS": attacks, "ATTACK_TARGET_HP": hp})
    got = calc.evaluate(folder / "bfrpg.xlsx", cells, [*ODDS_OUTPUTS, "ATTACK_HIT_CHANCE"])
    mismatches = []
    kinds: set[str] = set()
    for (rules, inputs, attacks, hp), sheet in zip(scenarios, got, strict=True):
        expected = odds.odds_outputs(rules, inputs, attacks, hp)
        expected["ATTACK_HIT_CHANCE"] = engine.attack_outputs(rules, inputs)["ATTACK_HIT_CHANCE"]
        round_kill = expected["ATTACK_KILL_CHANCE_ROUND"]
        kinds.add(str(round_kill)[:6] if isinstance(round_kill, str) else "number")
        for name, value in expected.items():
            if not same(value, sheet[name]):
                mismatches.append(
                    f"{name}: engine {value!r} != sheet {sheet[name]!r} for {rules.chosen} {inputs} {attacks} {hp}"
                )
    assert not mismatches, f"{len(mismatches)} mismatches, first:\n" + "\n".join(mismatches[:6])
    # numbers, the several-attacks text, the attacks error and the two dice messages all occurred
    assert {"number", "severa", "#ATTAC", "#DICE?"} <= kinds


def test_heat_maps_chart_column_and_natural_1_in_libreoffice(calc, folder: Path):
    book = openpyxl.load_workbook(folder / "bfrpg.xlsx")
    refs = []
    for name in (
        "ODDS_HIT_GRID",
        "ODDS_CRIT_GRID",
        d20_cells.CHART_CHANCE,
        "ODDS_NATURAL_1_CHANCE",
    ):
        sheet, area = next(iter(book.defined_names[name].destinations))
        refs.append((name, sheet, area.replace("$", "")))
    wanted = []
    for _, sheet, area in refs:
        cells = [c for row in book[sheet][area] for c in row] if ":" in area else [book[sheet][area]]
        wanted.append([(sheet, c.coordinate) for c in cells])
    values = calc.evaluate_cells(folder / "bfrpg.xlsx", [pair for group in wanted for pair in group])
    groups, start = [], 0
    for group in wanted:
        groups.append(values[start : start + len(group)])
        start += len(group)
    hit_grid, crit_grid, chances, natural_1 = groups
    width = len(odds_sheets.HEAT_AC)
    for i, bonus in enumerate(odds_sheets.HEAT_BONUS):
        for j, ac in enumerate(odds_sheets.HEAT_AC):
            exact = engine.chances(RULES, engine.Attack(bonus, ac, 0))
            assert hit_grid[i * width + j] == pytest.approx(float(exact.hit), abs=1e-12)
            assert crit_grid[i * width + j] == pytest.approx(float(exact.critical), abs=1e-12)
    assert natural_1 == [pytest.approx(1 / 20)]
    defaults = engine.AttackInputs(3, 15, dice="1d8")
    exact = odds.damage_distribution(RULES, odds.odds_attack(RULES, defaults))
    assert len(chances) == len(d20_damage.DOUBLED_CHART_DAMAGE)
    for amount, chance in zip(d20_damage.DOUBLED_CHART_DAMAGE, chances, strict=True):
        assert chance == pytest.approx(float(exact.get(amount, 0)), abs=1e-12), amount


def formulas_of(book: openpyxl.Workbook, sheets: set[str]) -> list[str]:
    return [
        c.value
        for s in book.worksheets
        if s.title in sheets
        for row in s.iter_rows()
        for c in row
        if c.data_type == "f"
    ]


def test_the_odds_panel_chart_and_sheets_exist(folder: Path):
    book = openpyxl.load_workbook(folder / "bfrpg.xlsx")
    for name in ("ATTACK_ATTACKS", "ATTACK_TARGET_HP"):
        sheet, coordinate = next(iter(book.defined_names[name].destinations))
        assert sheet == ATTACK_SHEET and book[sheet][coordinate.replace("$", "")].protection.locked is False
    for name in ODDS_OUTPUTS:
        sheet, coordinate = next(iter(book.defined_names[name].destinations))
        assert sheet == ATTACK_SHEET and book[sheet][coordinate.replace("$", "")].data_type == "f"
    assert book[d20_cells.DAMAGE_SHEET].sheet_state == "hidden"
    assert book[odds_sheets.ODDS_SHEET].conditional_formatting
    assert len(book[ATTACK_SHEET]._charts) == 1
    workings = book[d20_cells.DAMAGE_SHEET]  # the chart plots the damage amounts and their chances
    damage = next(c.column_letter for c in workings[HEADER_ROW] if c.value == "Damage")
    chance = next(c.column_letter for c in workings[HEADER_ROW] if c.value == "Chance")
    plotted = [c.value for row in workings.iter_rows() for c in row if "NA()" in str(c.value)]
    first = HEADER_ROW + 1
    assert f"${damage}{first}" in plotted[0] and f"N(${chance}{first})" in plotted[0]


def test_no_rule_number_is_typed_into_the_odds_formulas(folder: Path):
    """0 and 1, and what the generic damage formulas write from bfrpg's YAML block (its numbers) and
    their rounding digits (``test_bfrpg_workbook.allowed_numbers``)."""
    book = openpyxl.load_workbook(folder / "bfrpg.xlsx")
    allowed = allowed_numbers()
    for formula in formulas_of(book, {d20_cells.DAMAGE_SHEET, odds_sheets.ODDS_SHEET, ATTACK_SHEET}):
        text = re.sub(r'"[^"]*"', "", formula)
        text = re.sub(r"\$?\b[A-Z_]+\$?[0-9]+\b", "", text)
        assert {int(n) for n in re.findall(r"(?<![A-Za-z_$])\d+", text)} <= allowed, formula


def test_the_xlsm_odds_cells_call_the_udfs(folder: Path):
    book = openpyxl.load_workbook(folder / "bfrpg.xlsm", keep_vba=True)
    for name, udf in zip(
        ODDS_OUTPUTS,
        ("bfrpg_expected_damage", "bfrpg_expected_damage", "bfrpg_kill_chance", "bfrpg_kill_chance"),
        strict=True,
    ):
        sheet, coordinate = next(iter(book.defined_names[name].destinations))
        assert udf + "(" in book[sheet][coordinate.replace("$", "")].value
