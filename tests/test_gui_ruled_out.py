"""An attack a pick rules out, typed in a real LibreOffice window as a GM does: a natural 20 against a
defender only magic weapons can hit says why it misses, in the calculator's one line and on the log row
whose Picks cell names the pick; the words are the pick column's label in the YAML
(``pycalc.resolution_summary.ruled_out_said``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import load_folder
from tests.test_encounter_parity import sheet_inputs
from tests.test_generic_parity import FIXTURE
from tests.test_gui_window import read_back, type_roster_then_log, window, window_tools  # noqa: F401 (a fixture)

RULED_OUT = "Miss: only a magic weapon can hit (attacker has none)"


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_natural_20_a_pick_rules_out_says_why_in_the_window(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    rules = load_folder(FIXTURE)
    xlsx = build_ruleset(FIXTURE.name) / f"{FIXTURE.name}.xlsx"
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 2, "ac": 6, "dice": "1d8"}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=9, stats=stats),
        Combatant("Wight", init_rolls=(2,), max_hp=9, stats=stats),
    ]
    attacks = [
        Attack("Lem", "Wight", round=1, roll=20, damage_roll=5, named_picks="magic only"),
        Attack("Wight", "Lem", roll=20, damage_roll=5),
    ]
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, sheet_inputs(rules, Fight(roster, attacks, round=1)))
        calc.enter("ATTACK_ROLL", "20")
        calc.enter(pick_name("situation", "magic_only"), "TRUE")
        calc.save()
        got = read_back(calc, ["ATTACK_SUMMARY", "ATTACK_RESULT", "LOG_SUMMARY"])
    assert got["ATTACK_SUMMARY"] == [RULED_OUT] and got["ATTACK_RESULT"] == ["Miss"]
    assert got["LOG_SUMMARY"][0] == RULED_OUT
    assert got["LOG_SUMMARY"][1].startswith("Critical: ") or got["LOG_SUMMARY"][1].startswith("Hit: ")
