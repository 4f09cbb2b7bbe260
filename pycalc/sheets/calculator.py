"""A calculator sheet: labelled input cells, pickers and formula cells, each under a defined name.

A field carries two formulas: the native one (the .xlsx, computes anywhere) and optionally one
calling the xlwings UDFs (the .xlsm). Everything else about the sheet is the same in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.comments import Comment
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import (
    BOLD,
    NOTE,
    SUBTITLE,
    TITLE,
    WORKING_FILL,
    WRAP,
    absolute,
    define_name,
    fill,
    font,
    mark_input,
    mark_output,
    protect,
    put,
    put_formula,
)

INPUT, PICK, OUTPUT, WORKING = "input", "pick", "output", "working"
BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"'  # LibreOffice otherwise may show a FALSE box as 0


@dataclass(frozen=True)
class Field:
    label: str
    name: str | None = None  # workbook-level defined name of the cell
    kind: str = OUTPUT
    value: object = None  # default of an input or picker
    native: str | None = None  # formula for the .xlsx
    udf: str | None = None  # formula for the .xlsm (None: the native one)
    options: str | None = None  # list validation: a defined name ("=T_X_LABEL") or "A,B,C"
    number_format: str | None = None
    help: str = ""
    key: bool = False  # a headline output (bold)


@dataclass(frozen=True)
class Section:
    title: str
    fields: tuple[Field, ...]


def write_calculator(
    book: Workbook, title: str, heading: str, intro: str, sections: list[Section], with_udfs: bool
) -> Worksheet:
    sheet = book.create_sheet(title)
    sheet.sheet_properties.tabColor = "F0B429"
    sheet.column_dimensions["A"].width = 40
    sheet.column_dimensions["B"].width = 26
    sheet.column_dimensions["C"].width = 62
    title = put(sheet["A1"], heading)
    title.font, title.alignment = TITLE, WRAP
    sheet.merge_cells("A1:B1")  # long ruleset names wrap here; C1 keeps the link back to Contents
    sheet.row_dimensions[1].height = 38
    intro_cell = put(sheet["A2"], intro)
    intro_cell.font, intro_cell.alignment = NOTE, WRAP
    sheet.merge_cells("A2:C2")
    sheet.row_dimensions[2].height = 30
    row = 4
    for section in sections:
        put(sheet.cell(row, 1), section.title).font = SUBTITLE
        row += 1
        for field in section.fields:
            write_field(book, sheet, row, field, with_udfs)
            row += 1
        row += 1
    sheet.freeze_panes = "A4"
    protect(sheet)
    return sheet


def write_field(book: Workbook, sheet: Worksheet, row: int, field: Field, with_udfs: bool) -> None:
    label = put(sheet.cell(row, 1), field.label)
    value = sheet.cell(row, 2)
    if field.kind in (INPUT, PICK):
        put(value, field.value)
        mark_input(value)
        if isinstance(field.value, bool):
            value.number_format = BOOLEAN_FORMAT
        if field.options:
            add_list(sheet, value.coordinate, field.options)
    else:
        formula = field.udf if with_udfs and field.udf else field.native
        put_formula(value, formula or "")
        if field.kind == WORKING:
            label.font = font(9, colour="616E7C")
            value.font = font(9, colour="616E7C")
            value.fill = fill(WORKING_FILL)
        else:
            mark_output(value, bold=field.key)
            if field.key:
                label.font = BOLD
    if field.number_format:
        value.number_format = field.number_format
    if field.help:
        help_cell = put(sheet.cell(row, 3), field.help)
        help_cell.font, help_cell.alignment = NOTE, WRAP
    if field.name:
        define_name(book, field.name, absolute(sheet, value.coordinate))
        if field.kind in (INPUT, PICK):
            value.comment = Comment(f"Input {field.name}", "pycalc", width=200, height=30)


def add_list(sheet: Worksheet, coordinate: str, options: str) -> None:
    # Stored without a leading '=', as Excel, LibreOffice and XlsxWriter write list sources.
    formula = options.removeprefix("=") if options.startswith("=") else f'"{options}"'
    check = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True)
    check.error = "Pick a value from the list"
    check.errorTitle = "Not in the list"
    sheet.add_data_validation(check)
    check.add(coordinate)
