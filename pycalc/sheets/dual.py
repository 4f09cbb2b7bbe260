"""One book saved as both files: the .xlsx, then the .xlsm (``pycalc.sheets.workbook.build_both``).

The two files differ only in some cells' text: the calculators' formulas (native in the .xlsx, UDF
calls in the .xlsm), the Encounter's copies of them, and a line of the Contents sheet. Such a cell
holds ``Both``: the .xlsx's text, which is what the string itself is (so every pass reading the book
reads the .xlsx), with the .xlsm's beside it. Saving the .xlsm puts the .xlsm's text in its place
(``macro_text``). A pass that changes a cell's text changes both (``changed``), or the .xlsm would
lose its own; the tests compare the .xlsm made this way with one built on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar

from openpyxl.cell.cell import Cell

from pycalc.sheets.ooxml.cells import set_stored_value

BOTH = "both"
"""``with_udfs`` of the calculator writers, for the book saved as both files: each cell whose formula
is not the same in both holds ``Both``."""
Udfs = bool | Literal["both"]


class Both(str):
    """A cell's text in the .xlsx (the string itself), with the .xlsm's (``macro``)."""

    macro: str

    def __repr__(self) -> str:
        return f"Both({str(self)!r}, {self.macro!r})"


def both(native: str, macro: str) -> str:
    """The text of a cell whose .xlsx holds ``native`` and whose .xlsm holds ``macro`` (plain text
    when they are the same)."""
    if native == macro:
        return native
    text = Both(native)
    text.macro = macro
    return text


Value = TypeVar("Value")


def macro_text(value: Value) -> Value | str:
    """What the .xlsm holds where the .xlsx holds ``value``."""
    return value.macro if isinstance(value, Both) else value


def changed(value: str, change: Callable[[str], str]) -> str:
    """``change`` made to the text of both files."""
    if isinstance(value, Both):
        return both(change(str(value)), change(value.macro))
    return change(value)


def same(one: object, other: object) -> bool:
    """Whether two cell values are the same in both files."""
    return one == other and macro_text(one) == macro_text(other)


def set_text(cell: Cell, text: str) -> None:
    """``cell.value = text``, the .xlsm's text kept (openpyxl makes a plain string of what it is given)."""
    cell.value = str(text)  # openpyxl's checks, and the type it gives
    if isinstance(text, Both):
        set_stored_value(cell, text)
