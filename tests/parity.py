"""Comparing the engine's answers with what LibreOffice shows in a cell (shared by the parity tests)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import openpyxl
from openpyxl.workbook.defined_name import DefinedName


def spreadsheet_value(value: object) -> object:
    """What the engine's answer looks like in a cell read over UNO: booleans 1/0, numbers as floats."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, Fraction)):
        return float(value)
    return value


def same(expected: object, got: object) -> bool:
    """The engine's value equals the cell's (an empty cell reads as '')."""
    expected = spreadsheet_value(expected)
    got = "" if got is None else got
    if isinstance(expected, float) and isinstance(got, float):
        return abs(expected - got) < 1e-9
    return expected == got


NOTE_COLUMN = "F"  # the Attack calculator's column of the notes beside the picks


def with_note_names(xlsx: Path, names: list[str], tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the workbook with a defined name on the note beside each pick."""
    book = openpyxl.load_workbook(xlsx)
    sheet = book["Attack calculator"]
    note_of = {}
    for name in dict.fromkeys(names):
        _, ref = next(iter(book.defined_names[name].destinations))
        note_of[name] = f"TEST_NOTE_{len(note_of)}"
        row = sheet[ref.replace("$", "")].row
        book.defined_names[note_of[name]] = DefinedName(
            note_of[name], attr_text=f"'{sheet.title}'!${NOTE_COLUMN}${row}"
        )
    copy = tmp_path / xlsx.name
    book.save(copy)
    return copy, note_of
