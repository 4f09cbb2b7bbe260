"""Printable odds sheets: heat maps of chances over two inputs (SC x DEF, bonus x AC...).

Each map is a grid of native formulas, one per (row value, column value), coloured from red (its
lowest chance) through yellow to green (its highest), under a workbook-level name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from openpyxl.formatting.rule import ColorScaleRule
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import (
    NOTE,
    SUBTITLE,
    TITLE,
    WRAP,
    absolute,
    define_name,
    protect,
    put,
    put_formula,
    style_header,
)
from pycalc.sheets.fold import fold


@dataclass(frozen=True)
class HeatMap:
    title: str
    name: str  # workbook-level name of the grid of chances
    corner: str  # e.g. "Bonus \\ AC"
    rows: Sequence[int]
    columns: Sequence[int]
    formula: Callable[
        [str, str], str
    ]  # (row value's cell, column value's cell) -> chance, placing both as given
    number_format: str = "0%"


def colour_by_range(sheet: Worksheet, cells: str) -> None:
    sheet.conditional_formatting.add(
        cells,
        ColorScaleRule(
            start_type="min",
            start_color="F8696B",
            mid_type="percentile",
            mid_value=50,
            mid_color="FFEB84",
            end_type="max",
            end_color="63BE7B",
        ),
    )


ROW_VALUE, COLUMN_VALUE = "\x00row\x00", "\x00column\x00"  # stand-ins no formula holds


def cell_formula(template: str, row_value: str, column_value: str) -> str:
    """A map's formula (``template``: of the two stand-ins) over one cell's row and column value cells."""
    return template.replace(ROW_VALUE, row_value).replace(COLUMN_VALUE, column_value)


def write_heat_map(book: Workbook, sheet: Worksheet, top: int, heat: HeatMap) -> int:
    """Write one map with its title on row ``top``; return the first free row after it. A map's
    formula takes its two cells as text it only places, so it is worked out once, over two stand-ins
    that each cell's own references then replace (what its literals decide folded: ``fold``)."""
    put(sheet.cell(top, 1), heat.title).font = SUBTITLE
    style_header(sheet.cell(top + 1, 1, heat.corner))
    for j, value in enumerate(heat.columns, start=2):
        style_header(sheet.cell(top + 1, j, value))
    template = fold(heat.formula(ROW_VALUE, COLUMN_VALUE))
    for i, value in enumerate(heat.rows, start=top + 2):
        style_header(sheet.cell(i, 1, value))
        for j, _ in enumerate(heat.columns, start=2):
            formula = cell_formula(template, f"$A{i}", f"{get_column_letter(j)}${top + 1}")
            put_formula(sheet.cell(i, j), formula).number_format = heat.number_format
    top_left = f"B{top + 2}"
    bottom_right = f"{get_column_letter(1 + len(heat.columns))}{top + 1 + len(heat.rows)}"
    colour_by_range(sheet, f"{top_left}:{bottom_right}")
    define_name(book, heat.name, absolute(sheet, top_left, bottom_right))
    return top + len(heat.rows) + 4


def odds_sheet(
    book: Workbook, name: str, title: str, note: str, merged_over: int = 0, height: int = 30
) -> Worksheet:
    """A printable odds sheet: its title, and the note under it (merged over the label column and
    ``merged_over`` more, on a row ``height`` high; 0: the note runs on to the right)."""
    sheet = book.create_sheet(name)
    put(sheet["A1"], title).font = TITLE
    note_cell = put(sheet["A2"], note)
    note_cell.font, note_cell.alignment = NOTE, WRAP
    if merged_over:
        sheet.merge_cells(start_row=2, start_column=1, end_row=2, end_column=1 + merged_over)
        sheet.row_dimensions[2].height = height
    return sheet


def write_heat_maps(book: Workbook, sheet: Worksheet, top: int, maps: Sequence[HeatMap]) -> int:
    """The maps one under the other from row ``top``; the row after the last."""
    for heat in maps:
        top = write_heat_map(book, sheet, top, heat)
    return top


def finish_odds_sheet(sheet: Worksheet, label_width: float, columns: int, width: float) -> None:
    """The label column's width, ``columns`` narrow columns of chances right of it, and protection."""
    sheet.column_dimensions["A"].width = label_width
    for j in range(2, 2 + columns):
        sheet.column_dimensions[get_column_letter(j)].width = width
    protect(sheet)
