"""The layout of the generic Attack calculator's roll block: one row per :class:`Line`, an input in
column B (numbers only, so AutoInput cannot complete a typed roll into dice text) beside its output in
column E, and how an input or output cell is written."""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.comments import Comment
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.calculator import BOOLEAN_FORMAT
from pycalc.sheets.common import (
    BOLD,
    absolute,
    define_name,
    mark_input,
    mark_output,
    put,
    put_formula,
)

ROLL_COLUMN, OUT_LABEL, OUT_COLUMN, NOTE_COLUMN = 2, 4, 5, 6


SUMMARY_ROW = 3  # "In one line"; one row lower when the roster picks (roster_pick.PICKS) take row 3


@dataclass(frozen=True)
class Line:
    """One row of the roll block: an input on the left and an output on the right (either may be absent)."""

    label: str = ""
    name: str | None = None
    value: object = None
    help: str = ""
    out_label: str = ""
    out_name: str | None = None
    out_formula: str = ""
    out_format: str | None = None
    key: bool = False


def whole_number_check(sheet: Worksheet, coordinate: str, low: int, high: int, what: str) -> None:
    check = DataValidation(
        type="whole",
        operator="between",
        formula1=str(low),
        formula2=str(high),
        allow_blank=True,
        showErrorMessage=True,
        showInputMessage=False,
    )
    check.errorTitle, check.error = "Not a whole number", f"Type {what}: a whole number from {low} to {high}."
    sheet.add_data_validation(check)
    check.add(coordinate)


def put_input(
    book: Workbook, sheet: Worksheet, row: int, col: int, name: str, value: object, help: str
) -> None:
    cell = put(sheet.cell(row, col), value)
    mark_input(cell)
    if isinstance(value, bool):
        cell.number_format = BOOLEAN_FORMAT
    define_name(book, name, absolute(sheet, cell.coordinate))
    if help:
        cell.comment = Comment(help[:1].upper() + help[1:] + ".", "pycalc", width=220, height=40)


def put_output(book: Workbook, sheet: Worksheet, row: int, line: Line) -> None:
    label = put(sheet.cell(row, OUT_LABEL), line.out_label)
    cell = put_formula(sheet.cell(row, OUT_COLUMN), line.out_formula)
    mark_output(cell, bold=line.key)
    if line.key:
        label.font = BOLD
    if line.out_format:
        cell.number_format = line.out_format
    assert line.out_name is not None
    if line.out_formula != line.out_name:  # else it shows a name the workings define
        define_name(book, line.out_name, absolute(sheet, cell.coordinate))
