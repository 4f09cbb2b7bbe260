"""openpyxl's private attributes of cells, sheets and books, read and written here only.

A cell's ``value`` property and ``font``/``protection`` proxies check and wrap what they hand over;
a build reads and writes some 120,000 cells several times, so the passes over every cell use the
stored attributes themselves. Each function does what openpyxl's public interface does, or reads what
it would give, without making a cell or a style where there is none.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.styleable import StyleableObject
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

stored_value: Any = attrgetter("_value")
"""A cell's value as stored (the ``value`` property, unwrapped: read for every cell of every sheet)."""

style_array_of: Any = attrgetter("_style")
"""A cell's style array (its style ids), None when it has no style."""

comment_of: Any = attrgetter("_comment")
"""A cell's comment, None when it has none."""

STYLE_LISTS = ("fonts", "fills", "borders", "alignments", "protections")
"""The book's lists of style objects a cell's style array points into (``style_list``)."""

SAVED_STYLE_LISTS = (*STYLE_LISTS, "number_formats", "cell_styles")
"""Every list of styles the saved file's style ids index (``use_styles_of``)."""


def cells_of(sheet: Worksheet) -> dict[tuple[int, int], Cell]:
    """The sheet's cells by (row, column): only those made (``iter_rows`` makes one at every place it
    passes). The dict itself: clearing it frees them."""
    return sheet._cells


def set_stored_value(cell: StyleableObject, value: Any) -> None:
    """Store ``value`` as it is (a ``Both`` text keeps its .xlsm text; ``cell.value`` makes a str)."""
    cell._value = value


def set_formula(cell: StyleableObject, formula: str) -> None:
    """What ``cell.value = "=..."`` leaves (a formula cell), without openpyxl testing the text for
    control characters: the builder's formulas have none, and there are some 100,000 per build."""
    cell._value, cell.data_type = formula, "f"


def restore_cell(cell: Cell, value: Any, data_type: str, style: StyleArray | None) -> None:
    """The cell's stored value, type and style array put back as they were."""
    cell._value, cell.data_type, cell._style = value, data_type, style


def has_rows(sheet: Worksheet) -> bool:
    """Whether any cell was ever made on the sheet (its last row is past 0)."""
    return bool(sheet._current_row)


def has_drawings(sheet: Worksheet) -> bool:
    """Whether the sheet holds a chart or a picture."""
    return bool(sheet._charts or sheet._images)


def all_sheets(book: Workbook) -> list[Any]:
    """Every sheet of the book, chart sheets too, in order."""
    return book._sheets


def style_list(book: Workbook, kind: str) -> Any:
    """The book's list of ``kind`` (one of ``SAVED_STYLE_LISTS``) a style id indexes."""
    return getattr(book, f"_{kind}")


def set_style_list(book: Workbook, kind: str, styles: Any) -> None:
    setattr(book, f"_{kind}", styles)


def use_styles_of(book: Workbook, source: Workbook) -> None:
    """``book`` given ``source``'s very style lists: the same style ids in both."""
    for kind in SAVED_STYLE_LISTS:
        set_style_list(book, kind, style_list(source, kind))


def look_of(cell: StyleableObject, kind: str, key: str) -> Any:
    """The cell's font (``"fonts", "fontId"``), alignment ... as ``cell.font`` gives it, without the
    style proxy (and without giving a cell with no style an array of zeros)."""
    style = cell._style
    return style_list(cell.parent.parent, kind)[getattr(style, key) if style is not None else 0]


def unlocked_protection_ids(book: Workbook) -> frozenset[int]:
    """The ids of the book's protections that leave a cell unlocked (an input)."""
    return frozenset(i for i, protection in enumerate(book._protections) if protection.locked is False)


def protection_id(cell: StyleableObject) -> int | None:
    """The id of the cell's protection, None when the cell has no style."""
    style = cell._style
    return None if style is None else style.protectionId


def cells_and_values(sheet: Worksheet) -> Iterator[tuple[tuple[int, int], Cell, Any]]:
    """Each cell made on the sheet, with its place and stored value (a copy of the list: the caller
    may make cells as it goes)."""
    return ((place, cell, cell._value) for place, cell in list(sheet._cells.items()))
