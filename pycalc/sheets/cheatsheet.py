"""The printable cheat sheet: the tables a GM looks up most during combat, packed in two panels.

Which tables: those marked ``cheatsheet: true`` in the YAML, else every picker (situational modifier)
table and every bands table. Each table is shown compactly (entry or band, then its value columns),
and tables are dealt to the shorter of two side-by-side panels so the sheet fills as few pages as the
content allows.
"""

from __future__ import annotations

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.sheets.common import (
    GRID,
    NOTE,
    OPEN_HIGH,
    OPEN_LOW,
    SUBTITLE,
    TITLE,
    WRAP,
    font,
    put,
    style_header,
)
from pycalc.sheets.printing import set_up_printing
from pycalc.tables import Row, RuleSet, Table

PANEL_COLUMNS = 6  # label + up to 5 value columns per panel
LABEL_WIDTH = 30
VALUE_WIDTH = 10
GAP_WIDTH = 2
SHEET_TITLE = "Cheat sheet"
CHARACTERS_PER_WIDTH = 1.25  # 8-point text fits about this many characters per unit of column width
HEADER_LINE = 11.0
BODY_LINE = 10.5


def on_cheatsheet(table: Table) -> bool:
    if table.cheatsheet is not None:
        return table.cheatsheet
    return bool(table.picker) or table.kind == "bands"


def cheatsheet_tables(rules: RuleSet) -> list[Table]:
    return [t for t in rules.tables.values() if on_cheatsheet(t) and t.rows]


def band_label(row: Row) -> str:
    if row.low is None or row.low <= OPEN_LOW:
        return f"{row.high} or less"
    if row.high is None or row.high >= OPEN_HIGH:
        return f"{row.low}+"
    return str(row.low) if row.low == row.high else f"{row.low}–{row.high}"


def shown(value: object) -> object:
    if isinstance(value, bool):
        return "yes" if value else "—"
    return "—" if value is None else value


def compact(table: Table) -> tuple[list[str], list[list[object]]]:
    """Header and rows of the table as the cheat sheet shows it (at most PANEL_COLUMNS wide)."""
    columns = table.columns[: PANEL_COLUMNS - 1]
    first = table.key_label if table.kind == "bands" else "Entry"
    header = [first] + [c.label for c in columns]
    rows = [
        [band_label(row) if table.kind == "bands" else row.label] + [shown(row[c.id]) for c in columns]
        for row in table.rows
    ]
    return header, rows


def need(heights: dict[int, float], row: int, texts: list[str], line: float) -> None:
    """Raise a row's height to fit its longest wrapped text (a row is shared by both panels)."""
    widths = [LABEL_WIDTH] + [VALUE_WIDTH] * (len(texts) - 1)
    lines = max(
        -(-len(text) // int(width * CHARACTERS_PER_WIDTH)) for text, width in zip(texts, widths, strict=False)
    )
    heights[row] = max(heights.get(row, 0), line * max(1, lines))


def height(table: Table) -> int:
    return len(table.rows) + 3  # title, header, rows, gap


def deal(tables: list[Table]) -> tuple[list[Table], list[Table]]:
    """Greedy: each table (tallest first keeps panels even) to the shorter panel, then source order."""
    panels: tuple[list[Table], list[Table]] = ([], [])
    for table in sorted(tables, key=height, reverse=True):
        shorter = min(panels, key=lambda p: sum(height(t) for t in p))
        shorter.append(table)
    order = {t.id: i for i, t in enumerate(tables)}
    return tuple(sorted(p, key=lambda t: order[t.id]) for p in panels)  # type: ignore[return-value]


def build_cheatsheet(rules: RuleSet, version: str, paper: str = "a4") -> Workbook:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = SHEET_TITLE
    put(sheet["A1"], f"{rules.name}: combat cheat sheet").font = TITLE
    intro = put(
        sheet["A2"],
        f"{rules.resolution}. Source: {rules.seed}; every table in full in the reference workbook.",
    )
    intro.font, intro.alignment = NOTE, WRAP
    sheet.merge_cells(start_row=2, start_column=1, end_row=2, end_column=2 * PANEL_COLUMNS + 1)
    sheet.row_dimensions[2].height = 24
    heights: dict[int, float] = {}
    for panel, tables in enumerate(deal(cheatsheet_tables(rules))):
        first_column = 1 + panel * (PANEL_COLUMNS + 1)
        row = 4
        for table in tables:
            header, rows = compact(table)
            put(sheet.cell(row, first_column), table.title).font = SUBTITLE
            for offset, text in enumerate(header):
                style_header(sheet.cell(row + 1, first_column + offset, text))
                sheet.cell(row + 1, first_column + offset).font = font(8, bold=True)
            need(heights, row + 1, header, HEADER_LINE)
            for index, values in enumerate(rows, start=row + 2):
                for offset, value in enumerate(values):
                    cell = put(sheet.cell(index, first_column + offset), value)
                    cell.border = GRID
                    cell.font = font(8)
                    if offset == 0 or isinstance(value, str):
                        cell.alignment = WRAP
                need(heights, index, [str(v) for v in values], BODY_LINE)
            row += height(table)
    for row_number, row_height in heights.items():
        sheet.row_dimensions[row_number].height = row_height
    for panel in range(2):
        first_column = 1 + panel * (PANEL_COLUMNS + 1)
        sheet.column_dimensions[get_column_letter(first_column)].width = LABEL_WIDTH
        for offset in range(1, PANEL_COLUMNS):
            sheet.column_dimensions[get_column_letter(first_column + offset)].width = VALUE_WIDTH
    sheet.column_dimensions[get_column_letter(PANEL_COLUMNS + 1)].width = GAP_WIDTH
    set_up_printing(sheet, rules.name, version, paper)
    sheet.page_setup.orientation = "portrait"
    return book
