"""openpyxl's cell look-up and style assignment, doing the same with less work, while a workbook is built.

A build makes some 120,000 cells per workbook and gives them some 200,000 fonts, fills, borders ...
openpyxl's ``Worksheet._get_cell`` tests the row's range, the coordinate's presence and the cell's
column before it finds or makes the cell; its style descriptor looks the cell's style array up twice
before it stores the style's index. ``fast_cells()`` swaps in versions that find an existing cell
first and store the index at once: the same cells, the same style arrays, so the same saved bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import ArrayDescriptor, StyleArray
from openpyxl.styles.styleable import StyleDescriptor
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


def set_style(descriptor: StyleDescriptor, cell: Any, value: Any) -> None:
    """``StyleDescriptor.__set__``: the value's index in the workbook's list, in the cell's style array."""
    style = cell._style
    if style is None:
        cell._style = style = StyleArray()
    style[STYLE_INDEX[descriptor.key]] = getattr(cell.parent.parent, descriptor.collection).add(value)


@contextlib.contextmanager
def fast_cells() -> Iterator[None]:
    """Build with ``get_cell`` and ``set_style`` in openpyxl's place (restored after; nested use is fine)."""
    original = Worksheet._get_cell, StyleDescriptor.__set__
    Worksheet._get_cell, StyleDescriptor.__set__ = get_cell, set_style  # type: ignore[method-assign]
    try:
        yield
    finally:
        Worksheet._get_cell, StyleDescriptor.__set__ = original  # type: ignore[method-assign]
