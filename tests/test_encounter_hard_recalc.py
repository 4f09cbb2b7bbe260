"""The Encounter sheet gives the same numbers under any recalculation: full fights (30 combatants,
200 attack rows) saved and opened again, or typed cell by cell, in LibreOffice with its default
settings (formula groups calculated on several threads), read as entered and after each of two
Recalculate Hard (Ctrl+Shift+F9); every reading equals the model (pycalc.encounter)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.tables import RULESET_IDS, load_ruleset
from tests.test_encounter_parity import expected_outputs, mismatches, random_fight, sheet_inputs
from tests.test_log_picks import CASES, one_row

READINGS = ("as entered", "after Recalculate Hard", "after a second Recalculate Hard")


def hard_mismatches(
    calc, rules, xlsx: Path, fights: list, saved_as: Path, typed_fights: int | None = None
) -> list[str]:
    """Every difference from the model of ``fights`` entered into ``xlsx``, filled and reopened, and
    typed cell by cell (the first ``typed_fights``; None: all), each read as entered and after two
    Recalculate Hard, with LibreOffice's default (threaded) calculation."""
    expected = [expected_outputs(rules, f) for f in fights]
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    inputs = [{n: v for n, v in sheet_inputs(rules, f).items() if n in present} for f in fights]
    found = []
    for typed in (False, True):
        entered_fights = inputs[:typed_fights] if typed else inputs
        threaded, readings = calc.hard_recalculations(
            xlsx, entered_fights, list(expected[0]), saved_as, typed=typed
        )
        assert threaded, "LibreOffice's default, threaded calculation, is what this test is about"
        entered = "typed" if typed else "reopened"
        for number, (want, three) in enumerate(zip(expected[: len(entered_fights)], readings, strict=True)):
            for when, got in zip(READINGS, three, strict=True):
                found += [f"{entered}, {when}: {m}" for m in mismatches(want, got, number)]
    return found


@pytest.mark.timeout(600)  # three full fights entered, about 5-15 s each
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_hard_recalculation_gives_the_models_numbers(
    calc, build_ruleset: Callable[[str], Path], tmp_path: Path, ruleset_id: str
):
    rules = load_ruleset(ruleset_id)
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    chance = random.Random(f"hard-recalculation-{ruleset_id}")
    fights = [random_fight(rules, chance, full=True) for _ in range(2)]
    # typing cell by cell takes longer: the first fight only
    found = hard_mismatches(calc, rules, xlsx, fights, tmp_path / "filled.xlsx", typed_fights=1)
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])


@pytest.mark.timeout(300)
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_one_row_fights_under_recalculate_hard(
    calc, build_ruleset: Callable[[str], Path], tmp_path: Path, ruleset_id: str
):
    """A GM's first attack of the night, typed, then Ctrl+Shift+F9: a one-row fight is where LibreOffice
    7.4's threaded calculation once read a false Err:522 (the damage column's formula group threaded)."""
    rules = load_ruleset(ruleset_id)
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    chance = random.Random(f"one-row-{ruleset_id}")
    fights = [replace(random_fight(rules, chance), conditions=()) for _ in range(3)]
    fights = [replace(f, attacks=f.attacks[:1]) for f in fights]
    if ruleset_id == "combat17":  # the case that failed: an ordinary hit
        _, stats, roll, damage, named, _ = CASES[1]
        fights.append(one_row("combat17", stats, named, roll, damage))
    found = hard_mismatches(calc, rules, xlsx, fights, tmp_path / "one-row.xlsx")
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
