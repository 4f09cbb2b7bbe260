"""Kept inputs: rebuilding over a workbook carries what the GM typed into the new one.

Carried: every unlocked (input) cell under a defined name that both workbooks have, where the name
covers the same shape (calculator inputs, GM-fillable tables), and every sheet the GM added.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
from openpyxl.cell.cell import Cell
from openpyxl.cell.read_only import EmptyCell
from openpyxl.utils.cell import range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import destinations, put


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


def named_coordinates(book: Workbook, name: str) -> list[tuple[str, int, int]]:
    """(sheet title, row, column) of every cell under a defined name, row by row
    (nothing for a name over whole rows or columns: those are not inputs)."""
    found = []
    for sheet_title, reference in destinations(book.defined_names[name]):
        if sheet_title not in book.sheetnames:
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


def read_cells(book: Workbook, wanted: set[tuple[str, int, int]]) -> dict[tuple[str, int, int], Cell]:
    """The cells at ``wanted`` of a read-only workbook, reading each of their sheets once."""
    found: dict[tuple[str, int, int], Cell] = {}
    for sheet_title in sorted({title for title, _, _ in wanted}):
        rows = [row for title, row, _ in wanted if title == sheet_title]
        for row in book[sheet_title].iter_rows(min_row=min(rows), max_row=max(rows)):
            for cell in row:
                if not isinstance(cell, EmptyCell) and (sheet_title, cell.row, cell.column) in wanted:
                    found[(sheet_title, cell.row, cell.column)] = cell
    return found


def carry_inputs(old_path: Path, book: Workbook, generated_sheets: set[str]) -> list[str]:
    """Copy the GM's inputs and added sheets from ``old_path`` into ``book``; say what was carried.

    The old workbook is read read-only (only the sheets holding inputs are parsed); it is loaded
    whole only when the GM added sheets of their own, to copy them."""
    try:
        old = openpyxl.load_workbook(old_path, read_only=True)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        return [f"could not read {old_path.name} to keep its inputs ({error}); built fresh"]
    try:
        pairs = []
        sheets = {sheet.title: sheet for sheet in book.worksheets}
        for name in book.defined_names:
            if name not in old.defined_names:
                continue
            new_places, old_places = named_coordinates(book, name), named_coordinates(old, name)
            new_cells = [sheets[title].cell(row, column) for title, row, column in new_places]
            if len(new_cells) != len(old_places):
                continue
            pairs += [
                (name, new, place)
                for new, place in zip(new_cells, old_places, strict=True)
                if new.protection.locked is False
            ]
        old_cells = read_cells(old, {place for _, _, place in pairs})
        added = [
            sheet.title
            for sheet in old.worksheets
            if sheet.title not in generated_sheets and sheet.title not in book.sheetnames
        ]
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        return [f"could not read {old_path.name} to keep its inputs ({error}); built fresh"]
    finally:
        old.close()
    carried = []
    for name, new, place in pairs:
        previous = old_cells.get(place)
        value = None if previous is None else previous.value
        if (previous is None or previous.data_type != "f") and value != new.value:
            put(new, value)
            carried.append(f"{name} = {value!r}")
    if added:
        whole = openpyxl.load_workbook(old_path)
        for title in added:
            copy_sheet(whole[title], book)
            carried.append(f"sheet {title!r}")
    return carried
