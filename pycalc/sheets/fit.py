"""Nothing cut off: every written text either fits its cell (or spills into empty cells to its right)
or wraps onto as many lines as it needs, with the row made tall enough.

Widths are measured with the font's own advance widths (``text_width``) against the narrower of the
two offices' column widths: Excel draws a width unit as 7 pixels plus 5 (Calibri 11, the workbook's
default font), LibreOffice as 7 points. A text that fits Excel's column fits LibreOffice's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.ooxml.cells import cells_of, look_of, stored_value
from pycalc.sheets.portable import keep_empty_rows
from pycalc.sheets.text_width import text_points, wrapped

DEFAULT_WIDTH = 8.43  # characters, a column with no width set
DEFAULT_SIZE = 11.0
PADDING = 4.0  # points of a cell's width its text cannot use
LINE_HEIGHT = 1.25  # a wrapped line's height per point of font size
DEFAULT_ROW = 15.0  # points


def width_points(characters: float) -> float:
    """A column width (characters) in points as Excel draws it (7 pixels a character and 5)."""
    return (7 * characters + 5) * 0.75


def column_points(sheet: Worksheet, column: int) -> float:
    """A column's width in points as Excel draws it (the narrower office)."""
    width = sheet.column_dimensions[get_column_letter(column)].width
    return width_points(width if width else DEFAULT_WIDTH)


def column_widths(sheet: Worksheet) -> Callable[[int], float]:
    """``column_points`` of the sheet, each column worked out once."""
    return functools.cache(lambda column: column_points(sheet, column))


def text_fits(text: str, points: float, size: float, bold: bool) -> bool:
    return all(text_points(line, size, bold) + PADDING <= points for line in text.split("\n"))


def wrapped_line_count(text: str, points: float, size: float, bold: bool) -> int:
    """Lines the text takes wrapped at spaces within that width (a word too long counts one line)."""
    return len(wrapped(text, points - PADDING, size, bold))


def merged_spans(sheet: Worksheet) -> dict[tuple[int, int], tuple[int, int] | None]:
    """(row, column) -> (last row, last column) for a merged range's first cell, None for its others."""
    spans: dict[tuple[int, int], tuple[int, int] | None] = {}
    for cells in sheet.merged_cells.ranges:
        for row in range(cells.min_row, cells.max_row + 1):
            for column in range(cells.min_col, cells.max_col + 1):
                spans[(row, column)] = None
        spans[(cells.min_row, cells.min_col)] = (cells.max_row, cells.max_col)
    return spans


def room_for(
    sheet: Worksheet,
    cell: Cell,
    spans: dict[tuple[int, int], tuple[int, int] | None],
    last_column: int,
    points_of: Callable[[int], float],
) -> float:
    """Points the cell's text may use on one line: its width, plus the empty cells to its right it spills
    into, up to the sheet's last column (where printing stops)."""
    span = spans.get((cell.row, cell.column))
    last = span[1] if span else cell.column
    points = sum(points_of(column) for column in range(cell.column, last + 1))
    alignment = look_of(cell, "alignments", "alignmentId")
    if span is None and alignment.horizontal in (None, "general", "left") and not alignment.wrap_text:
        column = last + 1
        while column <= last_column and (cell.row, column) not in spans:
            if sheet.cell(cell.row, column).value not in (None, ""):
                break
            points += points_of(column)
            column += 1
    return points


def font_of(cell: Cell) -> tuple[float, bool]:
    """The cell's font size and boldness, as its text is measured."""
    font = look_of(cell, "fonts", "fontId")
    return float(font.sz or DEFAULT_SIZE), bool(font.b)


def written_text(cell: Cell) -> str | None:
    value = stored_value(cell)
    if isinstance(value, str) and value.strip() and not value.startswith("="):
        return value
    return None


def cut_off(sheet: Worksheet) -> list[Cell]:
    """Cells whose text, as laid out, does not show in full."""
    spans = merged_spans(sheet)
    last_column, points_of = sheet.max_column, column_widths(sheet)
    found = []
    keep_empty_rows(sheet)
    written = [cell for cell in cells_of(sheet).values() if cell.data_type != "f"]  # (no formula is text)
    for cell in written:  # (iter_rows would make a cell of every empty place)
        text = written_text(cell)
        if text is None or ((cell.row, cell.column) in spans and spans[(cell.row, cell.column)] is None):
            continue
        size, bold = font_of(cell)
        points = room_for(sheet, cell, spans, last_column, points_of)
        if look_of(cell, "alignments", "alignmentId").wrap_text:
            lines = wrapped_line_count(text, points, size, bold)
            if lines * size * LINE_HEIGHT > row_points(sheet, cell, spans) + 0.5:
                found.append(cell)
        elif not text_fits(text, points, size, bold):
            found.append(cell)
    return found


def row_points(sheet: Worksheet, cell: Cell, spans: dict[tuple[int, int], tuple[int, int] | None]) -> float:
    span = spans.get((cell.row, cell.column))
    last = span[0] if span else cell.row
    return sum(sheet.row_dimensions[row].height or DEFAULT_ROW for row in range(cell.row, last + 1))


def wrap_what_does_not_fit(sheet: Worksheet) -> None:
    """Wrap every text that is cut off, and make its row tall enough for its lines."""
    spans = merged_spans(sheet)
    last_column, points_of = sheet.max_column, column_widths(sheet)
    for cell in cut_off(sheet):
        alignment = cell.alignment
        cell.alignment = Alignment(
            horizontal=alignment.horizontal, vertical=alignment.vertical or "top", wrap_text=True
        )
        size, bold = font_of(cell)
        lines = wrapped_line_count(
            written_text(cell) or "", room_for(sheet, cell, spans, last_column, points_of), size, bold
        )
        span = spans.get((cell.row, cell.column))
        extra_rows = (span[0] - cell.row) if span else 0
        others = sum(
            sheet.row_dimensions[row].height or DEFAULT_ROW
            for row in range(cell.row + 1, cell.row + extra_rows + 1)
        )
        needed = lines * size * LINE_HEIGHT + 1 - others
        current = sheet.row_dimensions[cell.row].height or DEFAULT_ROW
        sheet.row_dimensions[cell.row].height = max(current, round(needed, 1))
