"""A fumble table the GM fills in, typed in a real LibreOffice window: empty, the calculator's line
after a Fumble says where to fill it in; the GM types two rows into the table on its sheet, and the
calculator and a Log row read them at the chart roll. The words are the generic calculator's
(``pycalc.resolution_calculator``)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.sheets.common import table_name
from pycalc.tables import PROJECT_ROOT, RuleSet, load_ruleset
from tests.test_encounter_parity import sheet_inputs
from tests.test_gm_filled_chart import FILL_IN, gm_chart_bx  # noqa: F401 (a fixture)
from tests.test_gui_roll_entry import first_cell, name_box
from tests.test_gui_window import read_back, type_roster_then_log, window, window_tools  # noqa: F401 (a fixture)


def type_rows(calc, rows: list[tuple[str, ...]]) -> None:
    """Type rows from the cursor on, cell by cell with Tab, each ended with Enter (LibreOffice then
    goes back to the column the row was begun in)."""
    for row in rows:
        for text in row[:-1]:
            calc.type(text)
            calc.key("Tab")
        calc.type(row[-1])
        calc.key("Return")


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_the_gm_fills_the_fumble_table_in_the_window(
    gm_chart_bx: tuple[RuleSet, Path],  # noqa: F811
    tmp_path: Path,
) -> None:
    rules, xlsx = gm_chart_bx
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 0, "ac": 12, "dice": "1d6", "level": 1}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=10, stats=stats),
        Combatant("Kara", init_rolls=(2,), max_hp=10, stats=stats),
    ]
    attacks = [Attack("Lem", "Kara", round=1, roll=1, follow_roll=15, chart_roll=3)]
    inputs = sheet_inputs(rules, Fight(roster, attacks, round=1))
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, inputs)
        for name, text in (("ATTACK_TARGET", "12"), ("ATTACK_LEVEL", "1"), ("ATTACK_ROLL", "1")):
            calc.enter(name, text)
        calc.enter("ATTACK_FOLLOW_ROLL", "15")
        calc.save()
        empty = read_back(calc, ["ATTACK_SUMMARY", "LOG_SUMMARY"])
        calc.goto(name_box(*first_cell(book, table_name("gm_fumbles", "roll_from"))))
        type_rows(calc, [("1", "2", "Weapon dropped"), ("3", "6", "Off balance")])
        calc.enter("ATTACK_CHART_ROLL", "1")
        calc.save()
        calc.screenshot("gm-filled-fumble-table")
        filled = read_back(calc, ["ATTACK_SUMMARY", "LOG_SUMMARY", table_name("gm_fumbles", "effect")])
    assert empty["ATTACK_SUMMARY"] == [f"Fumble (follow-up roll 15), {FILL_IN}"], empty
    assert empty["LOG_SUMMARY"][0] == f"Fumble (follow-up roll 15), {FILL_IN}", empty
    assert filled[table_name("gm_fumbles", "effect")][:3] == ["Weapon dropped", "Off balance", None]
    assert filled["ATTACK_SUMMARY"] == ["Fumble (follow-up roll 15), Weapon dropped"], filled
    assert filled["LOG_SUMMARY"][0] == "Fumble (follow-up roll 15), Off balance", filled


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_the_gm_fills_osr_s_fumble_table_in_the_window(tmp_path: Path) -> None:
    """The shipped osr workbook: its Critical Fumble table, missing from the seed, filled in the window,
    read by the calculator and by a log row's chart roll alike; a 2 typed into its morale table stays a
    2 (AutoInput would make it the column's '2d6 from')."""
    xlsx = PROJECT_ROOT / "workbook" / "osr.xlsx"
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 0, "ac": 12, "dice": "1d6", "level": 1}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=10, stats=stats),
        Combatant("Kara", init_rolls=(2,), max_hp=10, stats=stats),
    ]
    attacks = [Attack("Lem", "Kara", round=1, roll=1, follow_roll=15, chart_roll=3)]
    inputs = sheet_inputs(load_ruleset("osr"), Fight(roster, attacks, round=1))
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, inputs)
        for name, text in (("ATTACK_TARGET", "12"), ("ATTACK_LEVEL", "1"), ("ATTACK_ROLL", "1")):
            calc.enter(name, text)
        calc.enter("ATTACK_FOLLOW_ROLL", "15")
        calc.save()
        empty = read_back(calc, ["ATTACK_RESULT", "ATTACK_SUMMARY"])
        calc.goto(name_box(*first_cell(book, table_name("fumble_table", "d20_from"))))
        type_rows(calc, [("1", "10", "Drops weapon")])
        calc.enter("ATTACK_CHART_ROLL", "7")
        calc.save()
        filled = read_back(calc, ["ATTACK_SUMMARY", "LOG_SUMMARY"])
        calc.enter("ATTACK_CHART_ROLL", "11")
        calc.goto(
            name_box(*first_cell(book, table_name("morale_table", "roll_from")))
        )  # under its '2d6 from'
        type_rows(calc, [("2", "6", "Flees")])
        calc.save()
        uncovered = read_back(calc, ["ATTACK_SUMMARY"])
        morale = read_back(calc, [table_name("morale_table", c) for c in ("roll_from", "roll_to", "result")])
    assert empty == {
        "ATTACK_RESULT": ["Fumble"],
        "ATTACK_SUMMARY": [
            "Fumble (follow-up roll 15), fill in its table on the Criticals fumbles tables sheet"
        ],
    }, empty
    assert filled["ATTACK_SUMMARY"] == ["Fumble (follow-up roll 15), Drops weapon"], filled
    assert filled["LOG_SUMMARY"][0] == "Fumble (follow-up roll 15), Drops weapon", filled  # its roll 3
    assert uncovered["ATTACK_SUMMARY"] == ["Fumble (follow-up roll 15), #CHART ROLL? no row covers 11"]
    assert [column[0] for column in morale.values()] == [2, 6, "Flees"], morale  # AutoInput kept off
