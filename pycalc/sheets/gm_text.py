"""What a GM reads is written for a GM: the YAML's ids, file names and table paths, where a label, note,
help text or comment names them, are rewritten as the names the GM sees.

- a ruling's id -> its title in quotes ("(ruling stumble_penalty_scope)" -> (ruling "Scope of ...")),
- a table's id -> its title in quotes, a file ``maneuvers.yaml`` -> "the Maneuvers tables sheet",
- ``tables/osr fumble_table`` -> "the YAML table "Critical Fumble table ..."",
- any other identifier (a choice or column id) -> its words ("not_combined" -> "not combined").

Only text is rewritten: never a formula, and never a cell the formulas read (the tables' named
columns, the rulings' choice in force), so every lookup still finds what it looks for; such a cell
holding an id keeps it and shows the words through its number format.
"""

from __future__ import annotations

import functools
import re

from openpyxl.cell.cell import Cell
from openpyxl.utils import range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import destinations
from pycalc.sheets.dual import changed, same, set_text
from pycalc.sheets.ooxml.cells import cells_of
from pycalc.sheets.portable import keep_empty_rows
from pycalc.tables import RuleSet

YAML_FILE = re.compile(r"\b([a-z][a-z0-9_]*)\.yaml\b")
TABLE_PATH = re.compile(r"\btables/[a-z0-9_]+ ([a-z][a-z0-9_]*)\b")
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@functools.cache
def names_of(rules: RuleSet) -> dict[str, str]:
    """Table and ruling id -> the title a GM sees, in quotes (once per ruleset: readable runs per cell)."""
    names = {table.id: f"“{table.title}”" for table in rules.tables.values()}
    names.update({ruling.id: f"“{ruling.label}”" for ruling in rules.rulings.values()})
    return names


def readable(text: str, rules: RuleSet) -> str:
    """The text with every id, YAML file name and table path it names rewritten for the GM."""
    if "_" not in text and ".yaml" not in text and "tables/" not in text:
        return text  # names none (each of the three patterns needs one of these)
    names = names_of(rules)
    text = TABLE_PATH.sub(lambda m: f"the YAML table {names.get(m.group(1), m.group(1))}", text)
    text = YAML_FILE.sub(lambda m: f"the {m.group(1).replace('_', ' ').capitalize()} tables sheet", text)
    for _ in range(2):  # a table's title may itself name a ruling
        text = IDENTIFIER.sub(lambda m: names.get(m.group(0), m.group(0).replace("_", " ")), text)
    return text


def shown_as(text: str) -> str:
    """A number format that shows a text cell as ``text`` (its 4th, text, section): an id the formulas
    read keeps its value and reads as words on screen and paper."""
    return ';;;"' + text.replace('"', "") + '"'


def shown_text(cell: Cell) -> str | None:
    """What a text cell shows: its value, or the words its number format puts in its place."""
    if not isinstance(cell.value, str):
        return None
    sections = (cell.number_format or "").split(";")
    if len(sections) == 4 and sections[3].startswith('"') and sections[3].endswith('"'):
        return sections[3][1:-1]
    return cell.value


def read_cells(book: Workbook) -> set[tuple[str, int, int]]:
    """(sheet, row, column) of every cell a defined name points at: data the formulas read."""
    cells = set()
    for defined in book.defined_names.values():
        for sheet_title, reference in destinations(defined):
            if sheet_title in book.sheetnames:
                first_column, first_row, last_column, last_row = range_boundaries(reference.replace("$", ""))
                cells |= {
                    (sheet_title, row, column)
                    for row in range(first_row, last_row + 1)
                    for column in range(first_column, last_column + 1)
                }
    return cells


def rewrite_sheet(sheet: Worksheet, rules: RuleSet, data: set[tuple[str, int, int]]) -> None:
    keep_empty_rows(sheet)
    for cell in list(cells_of(sheet).values()):  # (iter_rows would make a cell of every empty place)
        if isinstance(cell.value, str) and not cell.value.startswith("="):
            if (sheet.title, cell.row, cell.column) not in data:
                rewritten = changed(cell.value, lambda text: readable(text, rules))
                if not same(rewritten, cell.value):
                    set_text(cell, rewritten)
            elif IDENTIFIER.fullmatch(cell.value):
                cell.number_format = shown_as(readable(cell.value, rules))
        if cell.comment is not None:
            cell.comment.text = readable(cell.comment.text, rules)
    for check in sheet.data_validations.dataValidation:
        for part in ("prompt", "error", "promptTitle", "errorTitle"):
            if getattr(check, part):
                setattr(check, part, readable(getattr(check, part), rules))


def make_readable(book: Workbook, rules: RuleSet) -> None:
    """Rewrite the text of every visible sheet for the GM (formulas and the data they read untouched)."""
    data = read_cells(book)
    for sheet in book.worksheets:
        if sheet.sheet_state == "visible":
            rewrite_sheet(sheet, rules, data)
