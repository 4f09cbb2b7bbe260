"""The rulesets' own calculator sheets (Combat calculators, Other calculators, Combat maneuvers, Defense &
casting) typed into as a GM does: AutoInput (LibreOffice, on as shipped) completes a typed entry from the
texts already in its column, so a column numbers are typed in must hold no text that starts like a
number. A structural check over every shipped workbook, then the real window: on osr's sheet, with the
GM's own dice typed (1d8), every 1 typed stays a 1 and the results equal the engine; on bfrpg's, the
sides' picks and rolls give the engine's surprise."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from pycalc import surprise
from pycalc.rulesets import osr_mass_combat, osr_normal_men
from pycalc.tables import RULESET_IDS, load_ruleset
from tests.parity import same
from tests.test_gui_window import read_back, window, window_tools  # noqa: F401 (a fixture)

WORKBOOKS = Path(__file__).resolve().parent.parent / "workbook"
STARTS_LIKE_A_NUMBER = re.compile(r"[0-9+\-.]")


def number_inputs(sheet) -> set[int]:
    """Columns holding a cell the GM types a number into: unlocked, holding a number or checked as one."""
    checked = {
        (row, column)
        for rule in sheet.data_validations.dataValidation
        if rule.type in ("whole", "decimal")
        for cells in rule.sqref.ranges
        for row in range(cells.min_row, cells.max_row + 1)
        for column in range(cells.min_col, cells.max_col + 1)
    }
    return {
        cell.column
        for row in sheet.iter_rows()
        for cell in row
        if cell.protection.locked is False
        and (
            (isinstance(cell.value, int | float) and not isinstance(cell.value, bool))
            or (cell.row, cell.column) in checked
        )
    }


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_column_numbers_are_typed_in_holds_text_that_starts_like_a_number(ruleset_id: str) -> None:
    book = openpyxl.load_workbook(WORKBOOKS / f"{ruleset_id}.xlsx")
    found = []
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible" or sheet.title.endswith("tables"):
            continue
        columns = number_inputs(sheet)
        found += [
            f"{sheet.title}!{cell.coordinate} {cell.value!r}"
            for row in sheet.iter_rows()
            for cell in row
            if cell.column in columns
            and isinstance(cell.value, str)
            and not cell.value.startswith("=")
            and STARTS_LIKE_A_NUMBER.match(cell.value)
        ]
    assert not found, found


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_ones_typed_on_osr_s_combat_calculators_stay_ones(tmp_path: Path) -> None:
    rules = load_ruleset("osr")
    typed = [
        ("KILLS_DAMAGE_DICE", "1d8"),  # the GM's own dice: text starting with a 1
        ("SURPRISE_A_SURPRISES_ON", "5"),
        ("SURPRISE_B_SURPRISED_ON", "1"),
        ("SURPRISE_ROLL_FOR_A", "1"),
        ("SURPRISE_ROLL_FOR_B", "1"),
        ("MASS_DAMAGE_ROLL", "1"),
        ("NORMAL_MEN_LEVEL", "1"),
    ]
    names = [
        "SURPRISE_A_ON_B",
        "SURPRISE_RESULT",
        "MASS_DAMAGE_DEALT",
        "NORMAL_MEN_ATTACKS",
        "KILLS_PER_ROUND",
    ]
    with window(WORKBOOKS / "osr.xlsx", tmp_path) as calc:
        for name, text in typed:
            calc.enter(name, text)
        calc.save()
        got = {name: values[0] for name, values in read_back(calc, [n for n, _ in typed] + names).items()}
        calc.screenshot("osr-ones-typed")
    assert [got[name] for name, _ in typed[1:]] == [5, 1, 1, 1, 1, 1]
    assert got["KILLS_DAMAGE_DICE"] == "1d8"
    expected = {
        **surprise.surprise_outputs(rules, surprise.Side(5, 2), surprise.Side(2, 1), 1, 1),
        **osr_mass_combat.mass_outputs(rules, 10, 40, 40, 1),
        **osr_normal_men.normal_men_outputs(rules, "PC or important NPC fighter type", 1, 7, "1d8", "1d6"),
    }
    assert got["SURPRISE_A_ON_B"] == 4  # the seed's example 2: 1-5 against an alert 1 is 1-4
    wrong = [
        f"{n}: engine {expected[n]!r} != sheet {got[n]!r}" for n in names if not same(expected[n], got[n])
    ]
    assert not wrong, wrong


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_bfrpg_s_surprise_picked_and_rolled_in_the_window(tmp_path: Path) -> None:
    rules = load_ruleset("bfrpg")
    ambush = str(rules.table("surprise_range").entry("ambush").label)
    typed = [
        ("SURPRISE_B_PICK", ambush),
        ("SURPRISE_A_LESS_LIKELY_SURPRISED", "TRUE"),
        ("SURPRISE_ROLL_FOR_A", "3"),
        ("SURPRISE_ROLL_FOR_B", "1"),
    ]
    names = ["SURPRISE_A_ON_B", "SURPRISE_B_ON_A", "SURPRISE_RESULT"]
    with window(WORKBOOKS / "bfrpg.xlsx", tmp_path) as calc:
        for name, text in typed:
            calc.enter(name, text)
        calc.save()
        got = {name: values[0] for name, values in read_back(calc, names).items()}
        calc.screenshot("bfrpg-surprise")
    normal = str(rules.table("surprise_range").entry("normal").label)
    a = surprise.Side(normal, ("less_likely_surprised",))
    expected = surprise.surprise_outputs(rules, a, surprise.Side(ambush, ()), 3, 1)
    assert got["SURPRISE_B_ON_A"] == 3  # an ambush, 1-4, against an Elf: 1-3
    assert got["SURPRISE_RESULT"] == expected["SURPRISE_RESULT"]  # both surprised: 3 and 1
    assert all(same(expected[n], got[n]) for n in names), (expected, got)
