"""The Encounter sheet gives the same numbers under any recalculation: full fights (30 combatants,
200 attack rows) saved and opened again, or typed cell by cell, in LibreOffice with its default
settings (formula groups calculated on several threads), read as entered and after each of two
Recalculate Hard (Ctrl+Shift+F9); every reading equals the model (pycalc.encounter)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.tables import RULESET_IDS, load_ruleset
from tests.test_encounter_parity import expected_outputs, mismatches, random_fight, sheet_inputs
from tests.test_log_picks import CASES, one_row

READINGS = ("as entered", "after Recalculate Hard", "after a second Recalculate Hard")


@pytest.mark.timeout(600)  # three full fights entered, about 5-15 s each
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_hard_recalculation_gives_the_models_numbers(
    calc, build_ruleset: Callable[[str], Path], tmp_path: Path, ruleset_id: str
):
    rules = load_ruleset(ruleset_id)
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    chance = random.Random(f"hard-recalculation-{ruleset_id}")
    fights = [random_fight(rules, chance, full=True) for _ in range(2)]
    expected = [expected_outputs(rules, f) for f in fights]
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    inputs = [{n: v for n, v in sheet_inputs(rules, f).items() if n in present} for f in fights]
    found = []
    for typed in (False, True):  # typing cell by cell takes longer: the first fight only
        threaded, readings = calc.hard_recalculations(
            xlsx, inputs[: 1 if typed else None], list(expected[0]), tmp_path / "filled.xlsx", typed=typed
        )
        assert threaded, "LibreOffice's default, threaded calculation, is what this test is about"
        entered = "typed" if typed else "reopened"
        for number, (want, three) in enumerate(zip(expected, readings, strict=False)):
            for when, got in zip(READINGS, three, strict=True):
                found += [f"{entered}, {when}: {m}" for m in mismatches(want, got, number)]
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])


@pytest.mark.timeout(300)
@pytest.mark.xfail(
    strict=True,
    reason="LibreOffice 7.4's threaded calculation: combat17's first log row of a one-row fight reads "
    "Err:522 (a false circular reference) after Recalculate Hard; typed, and saved and opened again, it "
    "is right; with threads off it is right. Moving the row's damage workings moved the defect to "
    "another ruleset's full fight",
)
def test_a_one_row_fight_under_recalculate_hard(calc, build_ruleset: Callable[[str], Path], tmp_path: Path):
    rules = load_ruleset("combat17")
    xlsx = build_ruleset("combat17") / "combat17.xlsx"
    _, stats, roll, damage, named, _ = CASES[1]
    fight = one_row("combat17", stats, named, roll, damage)
    want = expected_outputs(rules, fight)
    _, readings = calc.hard_recalculations(
        xlsx, [sheet_inputs(rules, fight)], list(want), tmp_path / "typed.xlsx", typed=True
    )
    found = [
        f"{when}: {m}"
        for when, got in zip(READINGS, readings[0], strict=True)
        for m in mismatches(want, got, 0)
    ]
    assert not found, "\n".join(found[:8])
