"""A ruleset written in YAML alone gets the whole workbook: the B/X-like fixture's `encounter:` block
gives it an Encounter sheet, a Fight record and roster picks on its calculator, with no Python of its
own, and that sheet recalculated in LibreOffice equals the encounter model on generated fights."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter_rulesets import ADAPTERS, adapter
from pycalc.tables import load_folder
from tests.test_encounter_parity import expected_outputs, mismatches, random_fight, sheet_inputs

FIXTURE = Path(__file__).parent / "fixtures" / "tables" / "bx"
FIGHTS = 60


def test_the_fixture_has_no_adapter_of_its_own_and_gets_the_generic_one() -> None:
    rules = load_folder(FIXTURE)
    assert rules.id not in ADAPTERS
    found = adapter(rules)
    assert [s.id for s in found.stats] == ["attack_bonus", "ac", "dice"]  # no level: no fumble by level
    assert found.wiring["ATTACK_TARGET"] == "{target.ac}"


def test_an_own_ruleset_workbook_has_the_encounter_and_the_fight_record(
    build_ruleset: Callable[[str], Path],
) -> None:
    book = openpyxl.load_workbook(build_ruleset("bx") / "bx.xlsx")
    assert {"Encounter", "Fight record"} <= set(book.sheetnames)
    names = set(book.defined_names)
    assert {"ROSTER_ATTACK_BONUS", "ROSTER_AC", "ROSTER_DICE", "LOG_RESULT", "LOG_HP_LOST"} <= names
    assert {"FROM_ROSTER_ATTACKER", "FROM_ROSTER_TARGET", "ATTACK_SUMMARY"} <= names
    calculator = book["Attack calculator"]
    assert calculator["A3"].value == "Attacker from the Encounter roster"
    assert calculator["A4"].value == "In one line"


@pytest.mark.timeout(600)
def test_the_own_encounter_sheet_equals_the_model(calc, build_ruleset: Callable[[str], Path]) -> None:
    rules = load_folder(FIXTURE)
    xlsx = build_ruleset("bx") / "bx.xlsx"
    chance = random.Random("encounter-bx")
    fights = [random_fight(rules, chance) for _ in range(FIGHTS)]
    expected = [expected_outputs(rules, f) for f in fights]
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    inputs = [{n: v for n, v in sheet_inputs(rules, f).items() if n in present} for f in fights]
    results = calc.evaluate_columns(xlsx, inputs, list(expected[0]))
    found = [m for i, (e, g) in enumerate(zip(expected, results, strict=True)) for m in mismatches(e, g, i)]
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    results_seen = {r for e in expected for r in e["LOG_RESULT"]}
    assert {"Hit", "Miss"} <= results_seen
