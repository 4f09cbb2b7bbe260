"""Shared formulas: a run of formulas down a column that differ only by their rows, stored once.

The sheets repeat each column's formula down their rows (the Encounter log's 200 rows, the workings'
tables), the row numbers changed. The file format stores such a run as a *shared formula* (ECMA-376
18.3.1.40, ``<f t="shared">``, as Excel itself saves a filled-down column): the first cell holds the
formula and the range it covers, each cell below only the run's number, and a reader works each
cell's formula out by moving the first's relative rows down. The workbooks are a third smaller, and
LibreOffice reads each run's formula once.

A cell joins the run above it only when moving the run's first formula down to its row gives its
formula exactly, character for character: the first formula is cut into a template of its relative
rows (``row_template``), and each cell below is compared with the template filled in for its row.
A formula reading whole rows (``5:9``) is never shared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.dual import Both, macro_text
from pycalc.sheets.ooxml.cells import cells_of, stored_value
from pycalc.sheets.ooxml.saved_xml import escape_text

BEFORE = r"(?<![A-Za-z0-9_.$])"  # not inside a name, a number or a reference
PIECE = re.compile(
    r'"(?:[^"]|"")*"'  # a text (nothing in it is a reference)
    rf"|{BEFORE}(?P<column>\$?[A-Z]{{1,3}})(?P<fixed>\$?)(?P<row>[0-9]+)(?![A-Za-z0-9_.(])"  # a cell
    rf"|(?P<rows>{BEFORE}\$?[0-9]+:\$?[0-9]+)"  # whole rows
)

Template = tuple[str, tuple[int, ...]]
"""A str.format template of a cell's value, and the offset from the cell's row of each field."""


def row_template(value: str, row: int) -> Template | None:
    """The formula ``value`` (a cell's value, "=" first) at ``row`` as a template of its relative rows;
    None when it reads whole rows."""
    offsets: list[int] = []
    whole_rows = False

    def piece(found: re.Match[str]) -> str:
        nonlocal whole_rows
        if found.group("rows"):
            whole_rows = True
        if found.group("row") is None or found.group("fixed"):
            return found.group(0)
        offset = int(found.group("row")) - row
        if offset not in offsets:
            offsets.append(offset)
        return f"{found.group('column')}{{{offsets.index(offset)}}}"

    template = PIECE.sub(piece, value.replace("{", "{{").replace("}", "}}"))
    return None if whole_rows else (template, tuple(offsets))


def filler(template: Template) -> Callable[[int], str]:
    """The template filled in for a row, as a function of the row (fast for the usual one or two)."""
    fill, offsets = template[0].format, template[1]
    if len(offsets) == 1:
        return lambda row: fill(row + offsets[0])
    if len(offsets) == 2:
        return lambda row: fill(row + offsets[0], row + offsets[1])
    return lambda row: fill(*[row + offset for offset in offsets])


DIGITS = str.maketrans("", "", "0123456789")


def same_but_digits(one: str, other: str) -> bool:
    return one.translate(DIGITS) == other.translate(DIGITS)


def formula_runs(cells: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """(first, last) index of each run of two cells or more in a column's formula cells (row, value),
    sorted by row, that one shared formula stores."""
    runs = []
    start, count = 0, len(cells)
    while start < count:
        row, value = cells[start]
        if not (
            start + 1 < count
            and cells[start + 1][0] == row + 1
            and same_but_digits(value, cells[start + 1][1])
        ):
            start += 1  # (what moving a formula changes is digits only: no run starts here)
            continue
        template = row_template(value, row)
        fill = filler(template) if template is not None else None
        end = start + 1
        if fill is not None and fill(row) == value:
            while end < count and cells[end][0] == row + end - start and fill(cells[end][0]) == cells[end][1]:
                end += 1
        if end - start >= 2:
            runs.append((start, end - 1))
        start = end
    return runs


def formula_cells(
    sheet: Worksheet, columns: Collection[int] | None = None
) -> dict[int, list[tuple[int, str]]]:
    """Each column's formula cells (row, value), sorted by row (of ``columns`` only, when given)."""
    found: dict[int, list[tuple[int, str]]] = {}
    for (row, column), cell in cells_of(sheet).items():
        value = stored_value(cell)
        wanted = columns is None or column in columns
        if wanted and cell.data_type == "f" and isinstance(value, str) and len(value) > 1:
            found.setdefault(column, []).append((row, value))
    for cells in found.values():
        cells.sort()
    return found


def formula_elements(sheet: Worksheet) -> dict[tuple[int, int], str]:
    """(row, column) -> the ``<f>`` element of each formula cell stored in a shared formula: the first
    cell's with its formula and range, the others' with the run's number only."""
    columns = formula_cells(sheet)
    elements: dict[tuple[int, int], str] = {}
    group = 0
    for column in sorted(columns):
        cells = columns[column]
        letter = get_column_letter(column)
        for first, last in formula_runs(cells):
            (top, value), bottom = cells[first], cells[last][0]
            elements[(top, column)] = (
                f'<f t="shared" ref="{letter}{top}:{letter}{bottom}" si="{group}">{escape_text(value[1:])}</f>'
            )
            joined = f'<f t="shared" si="{group}" />'
            elements.update(((row, column), joined) for row in range(top + 1, bottom + 1))
            group += 1
    return elements


def macro_elements(
    sheet: Worksheet, elements: dict[tuple[int, int], str]
) -> dict[tuple[int, int], str] | None:
    """The ``<f>`` elements of a sheet holding both files' text (``pycalc.sheets.dual``) as the .xlsm
    stores it: ``elements`` (the .xlsx's), each run's first formula in the .xlsm's text, where the
    .xlsm's formulas make the same runs as the .xlsx's; None where they do not."""
    columns = {column for (_, column), cell in cells_of(sheet).items() if type(stored_value(cell)) is Both}
    if not columns:
        return elements
    found = dict(elements)
    for column, cells in formula_cells(sheet, columns).items():
        runs = formula_runs(cells)
        macro = [(row, macro_text(value)) for row, value in cells]
        if formula_runs(macro) != runs:
            return None
        for first, _ in runs:
            top, value = macro[first]
            head = found[(top, column)]
            found[(top, column)] = f"{head[: head.index('>') + 1]}{escape_text(value[1:])}</f>"
    return found
