"""Formulas in forms every engine accepts: Excel, LibreOffice and Gnumeric.

Gnumeric (the second engine the tests check the workbooks with) refuses INDEX on a single cell, which
Excel and LibreOffice accept. A lookup in a table of one row, ``INDEX(T_X_VALUE,MATCH("id",T_X_ID,0))``,
is written ``IF(MATCH("id",T_X_ID,0),T_X_VALUE)`` instead: the same value, and the same #N/A when the
id is missing. This runs once over the finished workbook, when every defined name is known.
"""

from __future__ import annotations

import re

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import destinations
from pycalc.sheets.dual import Both, changed, same, set_text
from pycalc.sheets.ooxml.cells import cells_and_values, cells_of


def closing_paren(formula: str, start: int) -> int:
    """Index of the ')' closing the '(' at ``start``, skipping string literals."""
    depth = 0
    quoted = False
    for i in range(start, len(formula)):
        char = formula[i]
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced formula: {formula[:80]}")


INDEX_OPENING = re.compile(r'INDEX\(([^,()"]+),')  # what ``INDEX(<name>,`` may open with


def without_single_cell_index(formula: str, single_cells: set[str]) -> str:
    """The formula with every ``INDEX(<single cell name>,<position>)`` written ``IF(<position>,<name>)``
    (the names it indexes are found first: a workbook has hundreds of single-cell names)."""
    for name in sorted(single_cells.intersection(INDEX_OPENING.findall(formula))):
        opening = f"INDEX({name},"
        while opening in formula:
            start = formula.index(opening)
            end = closing_paren(formula, start + len("INDEX"))
            position = formula[start + len(opening) : end]
            formula = f"{formula[:start]}IF({position},{name}){formula[end + 1 :]}"
    return formula


def single_cell_names(book: Workbook) -> set[str]:
    return {
        name
        for name, defined in book.defined_names.items()
        if name.startswith("T_") and all(":" not in ref for _, ref in destinations(defined))
    }


def make_portable(book: Workbook) -> None:
    single_cells = single_cell_names(book)
    for sheet in book.worksheets:
        for _, cell, value in cells_and_values(sheet):
            if (
                isinstance(value, str)
                and value.startswith("=")
                and ("INDEX(T_" in value or (type(value) is Both and "INDEX(T_" in value.macro))
            ):
                portable = changed(value, lambda formula: without_single_cell_index(formula, single_cells))
                if not same(portable, value) or cell.data_type != "f":  # else writing it back changes nothing
                    set_text(cell, portable)
        keep_empty_rows(sheet)


def keep_empty_rows(sheet: Worksheet) -> None:
    """Give every row of the used range a cell, as walking the sheet with ``iter_rows`` (as this pass
    once did) does: openpyxl writes a ``<row>`` for each row holding a cell, empty or not, and the
    files have always had them."""
    present = {row for row, _ in cells_of(sheet)}
    first, last = (min(present), max(present)) if present else (1, 1)
    if len(present) == last - first + 1:  # every row has one (the usual case: no column to look for)
        return
    column = sheet.min_column
    for row in range(first, last + 1):
        if row not in present:
            sheet.cell(row, column)
