"""Every dropdown shows its modifier (issue 11): beside each situational-modifier dropdown, the columns the
picked row changes with their values, recalculated in LibreOffice after picking each table's rows."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.d20 import D20_RULESETS
from pycalc.libreoffice import CalcSession
from pycalc.sheets.common import table_name
from pycalc.sheets.gm_text import readable
from pycalc.tables import RULESET_IDS, RuleSet, Table, load_ruleset

ATTACK_SHEET = "Attack calculator"  # the other calculators' picks read their tables' numbers


def expected_note(table: Table, row_index: int, rules: RuleSet) -> str:
    parts = []
    for column in table.columns:
        if column.type not in ("int", "number"):
            continue
        neutral, value = table.rows[0][column.id] or 0, table.rows[row_index][column.id] or 0
        if value != neutral:
            sign = "+" if neutral == 0 and value > 0 else ""
            parts.append(f"{readable(column.label, rules)} {sign}{value:g}")
    return ", ".join(parts) or "No modifier"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_dropdown_shows_the_modifier_of_the_row_picked(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession, tmp_path: Path
):
    rules = load_ruleset(ruleset_id)
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    book = openpyxl.load_workbook(xlsx)
    sources = {table_name(t.id, "label"): t for t in rules.tables.values() if t.picker == "choice"}
    picks = []  # (sheet, pick cell, note cell, table, row index)
    for sheet in book.worksheets:
        if sheet.title in ("Encounter", "Log"):  # the log's picks sit between inputs: no note beside them
            continue
        for check in sheet.data_validations.dataValidation:
            table = sources.get(str(check.formula1))
            if check.type == "list" and table is not None and len(table.rows) > 1:
                for cells in check.sqref.ranges:
                    index = len(picks) % (len(table.rows) - 1) + 1  # a row other than the default
                    pick = sheet.cell(cells.min_row, cells.min_col)
                    pick.value = table.rows[index].label
                    picks.append(
                        (sheet.title, pick.coordinate, cells.min_row, cells.min_col + 1, table, index)
                    )
    assert len(picks) >= 5
    edited = tmp_path / xlsx.name
    book.save(edited)
    cells = [(title, book[title].cell(row, column).coordinate) for title, _, row, column, _, _ in picks]
    shown = calc.evaluate_cells(edited, cells)
    for (title, pick, _, _, table, index), note in zip(picks, shown, strict=True):
        if ruleset_id in D20_RULESETS and title == ATTACK_SHEET:
            continue  # the generic writer's notes, which say more than the numbers: test_<id>_parity
        if any(c.type in ("int", "number") for c in table.columns):
            assert note == expected_note(table, index, rules), (title, pick, table.id, index)
