"""openpyxl's cell look-up and style assignment, doing the same with less work, while a workbook is built.

A build makes some 120,000 cells per workbook and gives them some 200,000 fonts, fills, borders ...
openpyxl's ``Worksheet._get_cell`` tests the row's range, the coordinate's presence and the cell's
column before it finds or makes the cell; its style descriptor looks the cell's style array up twice
before it stores the style's index; merging cells makes and hashes a new border for every cell on the
range's edges; a sheet's last row or column is looked for cell by cell. ``fast_cells()`` swaps in
versions that find an existing cell first, store the index at once, work each merged border out once
and find the last row with the built-in max: the same cells, the same style arrays, so the same saved
bytes.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator
from operator import itemgetter
from typing import Any

from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles.borders import Border
from openpyxl.styles.cell_style import ArrayDescriptor, StyleArray
from openpyxl.styles.styleable import StyleableObject, StyleDescriptor
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.merge import MergedCellRange
from openpyxl.worksheet.worksheet import Worksheet

STYLE_INDEX = {
    name: descriptor.key
    for name, descriptor in vars(StyleArray).items()
    if isinstance(descriptor, ArrayDescriptor)
}
"""Position of each style id in a cell's style array (fontId -> 0 ...)."""


def get_cell(sheet: Worksheet, row: int, column: int) -> Cell:
    """``Worksheet._get_cell``: the cell at (row, column), made (with the same checks) if missing."""
    cell = sheet._cells.get((row, column))
    if cell is None:
        if not 0 < row < 1048577:
            raise ValueError(f"Row numbers must be between 1 and 1048576. Row number supplied was {row}")
        cell = Cell(sheet, row=row, column=column)
        sheet._cells[(row, column)] = cell
        if row > sheet._current_row:
            sheet._current_row = row
    return cell


def styled_like(source: Cell, row: int, column: int) -> Cell:
    """The cell at (row, column) given a copy of ``source``'s style array: what styling it as ``source``
    was styled gives, without looking each style up again."""
    cell = get_cell(source.parent, row, column)
    cell._style = StyleArray(source._style) if source._style is not None else None
    return cell


def set_style(descriptor: StyleDescriptor, cell: Any, value: Any) -> None:
    """``StyleDescriptor.__set__``: the value's index in the workbook's list, in the cell's style array."""
    style = cell._style
    if style is None:
        cell._style = style = StyleArray()
    style[STYLE_INDEX[descriptor.key]] = getattr(cell.parent.parent, descriptor.collection).add(value)


def style_array(cell: StyleableObject) -> StyleArray:
    """The cell's style array, made (all zeros) if it has none, as openpyxl's style getters do."""
    if cell._style is None:
        cell._style = StyleArray()
    return cell._style


def merged_cell(sheet: Worksheet, row: int, column: int) -> StyleableObject:
    """The cell at (row, column) of a merged range, made a ``MergedCell`` if missing."""
    cell = sheet._cells.get((row, column))
    if cell is None:
        cell = sheet._cells[(row, column)] = MergedCell(sheet, row=row, column=column)
    return cell


EDGES = ("top", "left", "right", "bottom")
_border_sums: weakref.WeakKeyDictionary[Workbook, dict[tuple[int, str, int], int]] = (
    weakref.WeakKeyDictionary()
)  # by book: (a cell's border id, edge, the first cell's border id) -> the cell's new border id


def format_merged(merged: MergedCellRange) -> None:
    """``MergedCellRange.format``: every cell of the range made if missing; each cell on an edge given
    that side of the first cell's border (``cell.border += Border(<edge>=side)``), every cell the first
    cell's protection. The same style ids, each border sum made and hashed once per book."""
    sheet, start = merged.ws, merged.start_cell
    borders, protections = sheet.parent._borders, sheet.parent._protections
    sums = _border_sums.setdefault(sheet.parent, {})
    for edge in EDGES:
        start_border = style_array(start).borderId
        side = getattr(borders[start_border], edge)
        if side and side.style is None:
            continue
        for row, column in getattr(merged, edge):
            style = style_array(merged_cell(sheet, row, column))
            key = (style.borderId, edge, start_border)
            if key not in sums:
                sums[key] = borders.add(borders[style.borderId] + Border(**{edge: side}))
            style.borderId = sums[key]
    protection = protections.add(protections[style_array(start).protectionId])
    for row, column in merged.cells:
        style_array(merged_cell(sheet, row, column)).protectionId = protection


COLUMN = itemgetter(1)  # of a cell's place (row, column)
SHEET_EDGES = {  # ``Worksheet.max_row`` ... over the cells' places, by the built-in min and max
    "max_row": property(lambda sheet: max(sheet._cells)[0] if sheet._cells else 1),
    "max_column": property(lambda sheet: max(map(COLUMN, sheet._cells)) if sheet._cells else 1),
    "min_column": property(lambda sheet: min(map(COLUMN, sheet._cells)) if sheet._cells else 1),
}


def sheet_dimension(sheet: Worksheet) -> str:
    """``Worksheet.calculate_dimension`` (which the writer calls, see ``writer.plain_cell_writer``):
    the range from the first row and column of any cell to the last, by the built-in min and max."""
    if not sheet._cells:
        return "A1:A1"
    rows, columns = zip(*sheet._cells, strict=True)
    return f"{get_column_letter(min(columns))}{min(rows)}:{get_column_letter(max(columns))}{max(rows)}"


@contextlib.contextmanager
def fast_cells() -> Iterator[None]:
    """Build with ``get_cell``, ``set_style``, ``format_merged`` and ``SHEET_EDGES`` in openpyxl's
    place (restored after; nested use is fine)."""
    original = Worksheet._get_cell, StyleDescriptor.__set__, MergedCellRange.format
    edges = {name: vars(Worksheet)[name] for name in SHEET_EDGES}
    Worksheet._get_cell, StyleDescriptor.__set__, MergedCellRange.format = (  # type: ignore[method-assign]
        get_cell,
        set_style,
        format_merged,
    )
    for name, edge in SHEET_EDGES.items():
        setattr(Worksheet, name, edge)
    try:
        yield
    finally:
        Worksheet._get_cell, StyleDescriptor.__set__, MergedCellRange.format = original  # type: ignore[method-assign]
        for name, edge in edges.items():
            setattr(Worksheet, name, edge)
