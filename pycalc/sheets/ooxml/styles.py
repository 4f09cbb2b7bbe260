"""A book's lists of style objects, made to find a style object taken before by identity."""

from __future__ import annotations

from typing import Any

from openpyxl.utils.indexed_list import IndexedList
from openpyxl.workbook.workbook import Workbook

from pycalc.sheets.ooxml.cells import STYLE_LISTS, set_style_list, style_list


class _SharedStyles(IndexedList):
    """A workbook's list of fonts (fills, borders ...) that knows the objects it has already taken.

    openpyxl hashes a style object, all its fields, every time a cell takes one. The sheets reuse a
    few style objects (``BODY``, ``GRID``, ``fill(INPUT_FILL)`` ...), so an object seen before is found
    by identity; the list, its order and so the saved file are what openpyxl makes. Style objects are
    never changed once a cell has taken them (openpyxl hands cells' styles back read-only)."""

    def add(self, value: Any) -> int:
        seen = self._seen.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        index = self._dict.get(value)  # an equal object taken before: hashed once, not twice
        if index is None:
            index = super().add(value)
        self._seen[id(value)] = (value, index)  # keeps the object alive, so its id is not reused
        return index


def share_styles(book: Workbook) -> Workbook:
    """Give ``book`` style lists that find a reused style object at once (see ``_SharedStyles``)."""
    for kind in STYLE_LISTS:
        original = style_list(book, kind)
        shared = _SharedStyles()
        list.extend(shared, original)
        shared._dict, shared.clean, shared._seen = original._dict, original.clean, {}
        set_style_list(book, kind, shared)
    return book
