"""Kept inputs: rebuilding over a workbook carries what the GM typed into the new one.

Carried: every unlocked (input) cell under a defined name that both workbooks have, where the name
covers the same shape (calculator inputs, GM-fillable tables), and every sheet the GM added.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Collection
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import destinations, put
from pycalc.sheets.ooxml.cells import (
    cells_of,
    protection_id,
    restore_cell,
    stored_value,
    style_array_of,
    unlocked_protection_ids,
)
from pycalc.sheets.ooxml.saved_xml import saved_cells
from pycalc.sheets.workbook import MAIN, Parts, generated_sheets, parts_of, shared_strings, sheets_in


def copy_sheet(source: Worksheet, book: Workbook) -> None:
    """Values, formulas and the look of each cell, and the column widths, into a new sheet."""
    target = book.create_sheet(source.title)
    for row in source.iter_rows():
        for cell in row:
            if cell.value is None and not cell.has_style:
                continue
            copied = target.cell(cell.row, cell.column, cell.value)
            if cell.has_style:
                copied.font, copied.fill, copied.border = (
                    cell.font.copy(),
                    cell.fill.copy(),
                    cell.border.copy(),
                )
                copied.number_format, copied.alignment = cell.number_format, cell.alignment.copy()
    for letter, dimension in source.column_dimensions.items():
        target.column_dimensions[letter].width = dimension.width


def coordinates(places: list[tuple[str, str]], sheetnames: Collection[str]) -> list[tuple[str, int, int]]:
    """(sheet title, row, column) of every cell of a defined name's ``places``, row by row
    (nothing for a name over whole rows or columns: those are not inputs)."""
    found = []
    for sheet_title, reference in places:
        if sheet_title not in sheetnames:
            return []
        low_column, low_row, high_column, high_row = range_boundaries(reference.replace("$", ""))
        if low_column is None or low_row is None or high_column is None or high_row is None:
            return []
        found += [
            (sheet_title, row, column)
            for row in range(low_row, high_row + 1)
            for column in range(low_column, high_column + 1)
        ]
    return found


@dataclass(frozen=True)
class SavedBook:
    """What a saved workbook file holds that kept inputs need, read from its XML parts."""

    parts: Parts
    sheets: dict[str, str]  # sheet title -> its part
    names: dict[str, str]  # the workbook-level defined names: what each refers to


def saved_book(data: bytes) -> SavedBook:
    parts = parts_of(data)
    sheets = sheets_in(parts.__getitem__)
    names = {}
    for defined in ET.fromstring(parts["xl/workbook.xml"]).iter(f"{MAIN}definedName"):
        if defined.get("localSheetId") is None and defined.get("name"):
            names[defined.get("name", "")] = defined.text or ""
    return SavedBook(parts, sheets, names)


def saved_values(
    book: SavedBook, wanted: set[tuple[str, int, int]]
) -> dict[tuple[str, int, int], tuple[Any, bool]]:
    """(value, whether it is a formula) of the cells at ``wanted`` that the file stores."""
    shared = shared_strings(book.parts)
    found: dict[tuple[str, int, int], tuple[Any, bool]] = {}
    for sheet_title in sorted({title for title, _, _ in wanted}):
        refs = {
            f"{get_column_letter(column)}{row}".encode(): (title, row, column)
            for title, row, column in wanted
            if title == sheet_title
        }
        xml = book.parts[book.sheets[sheet_title]]

        def unreadable(ref: bytes, sheet_title: str = sheet_title) -> ValueError:
            return ValueError(f"unreadable cell {ref.decode()} in {sheet_title}")

        for ref, stored in saved_cells(xml, refs, shared, unreadable).items():
            found[refs[ref]] = stored
    return found


def unlocked_protections(book: Workbook) -> frozenset[int]:
    """The ids of the book's protections that leave a cell unlocked (an input)."""
    return unlocked_protection_ids(book)


def unlocked(cell: Cell, unlocked_ids: frozenset[int]) -> bool:
    """``cell.protection.locked is False``, read from the cell's style ids (no style proxy made)."""
    return protection_id(cell) in unlocked_ids


def input_at(sheet: Worksheet, row: int, column: int, unlocked_ids: frozenset[int]) -> bool:
    """Whether the sheet has an unlocked cell at (row, column) (without making a cell where none is)."""
    cell = cells_of(sheet).get((row, column))
    return cell is not None and unlocked(cell, unlocked_ids)


@dataclass(frozen=True)
class Carried:
    """What ``carry_inputs`` said it carried, and how to take it back out of the book."""

    said: list[str]
    cells: list[tuple[Cell, Any, str, StyleArray]]  # each cell it changed: value, type and style before
    sheets: list[str]  # the GM's sheets it copied

    def changed_sheets(self) -> set[str]:
        """The sheets whose cells it changed."""
        return {cell.parent.title for cell, _, _, _ in self.cells}

    def undo(self, book: Workbook) -> None:
        """The book as it was before (the .xlsm's inputs are carried from the .xlsm, not the .xlsx)."""
        for cell, value, data_type, style in reversed(self.cells):
            restore_cell(cell, value, data_type, style)
        for title in self.sheets:
            book.remove(book[title])


@dataclass(frozen=True)
class BookInputs:
    """A book's inputs as kept inputs look for them: the places under each name that covers one."""

    places: dict[str, list[tuple[str, int, int]]]  # name -> (sheet title, row, column) of its cells
    unlocked: frozenset[int]  # ``unlocked_protections``


def book_inputs(book: Workbook) -> BookInputs:
    """The names of ``book`` that cover an input, with their cells' places (the same in both files of
    a book holding both: worked out once for the two, see ``build.both_parts_kept``)."""
    sheets = {sheet.title: sheet for sheet in book.worksheets}
    unlocked_ids = unlocked_protections(book)
    places = {}
    for name, defined in book.defined_names.items():
        found = coordinates(destinations(defined), sheets)
        if any(input_at(sheets[title], row, column, unlocked_ids) for title, row, column in found):
            places[name] = found
    return BookInputs(places, unlocked_ids)


def carry_inputs(old_path: Path, book: Workbook, inputs: BookInputs | None = None) -> Carried:
    """Copy the GM's inputs and added sheets from ``old_path`` into ``book``; say what was carried.

    The GM's sheets are those neither build made: a sheet the old build recorded making
    (``generated_sheets``) that this one no longer makes is dropped, not carried. The old workbook's
    parts are read as they are stored (only the cells under the names both workbooks have); it is
    loaded whole only when the GM added sheets of their own, to copy them."""
    inputs = book_inputs(book) if inputs is None else inputs
    try:
        old = saved_book(old_path.read_bytes())
        pairs = []
        sheets = {sheet.title: sheet for sheet in book.worksheets}
        for name, new_places in inputs.places.items():  # (a name with no input carries nothing)
            if name not in old.names:
                continue
            old_places = coordinates(destinations(DefinedName(name, attr_text=old.names[name])), old.sheets)
            if len(new_places) != len(old_places):
                continue
            new_cells = [sheets[title].cell(row, column) for title, row, column in new_places]
            pairs += [
                (name, new, place)
                for new, place in zip(new_cells, old_places, strict=True)
                if unlocked(new, inputs.unlocked)
            ]
        old_cells = saved_values(old, {place for _, _, place in pairs})
        made_before = generated_sheets(old.parts) or set()
        added = [title for title in old.sheets if title not in sheets and title not in made_before]
    except (OSError, KeyError, ValueError, IndexError, zipfile.BadZipFile, ET.ParseError) as error:
        return Carried([f"could not read {old_path.name} to keep its inputs ({error}); built fresh"], [], [])
    carried = Carried([], [], [])
    for name, new, place in pairs:
        value, formula = old_cells.get(place, (None, False))
        if not formula and value != new.value:
            carried.cells.append((new, stored_value(new), new.data_type, copy(style_array_of(new))))
            put(new, value)
            carried.said.append(f"{name} = {value!r}")
    if added:
        whole = openpyxl.load_workbook(old_path)
        for title in added:
            copy_sheet(whole[title], book)
            carried.said.append(f"sheet {title!r}")
            carried.sheets.append(title)
    return carried
