"""Kept inputs: rebuilding over a workbook carries what the GM typed into the new one.

Carried: every unlocked (input) cell under a defined name that both workbooks have, where the name
covers the same shape (calculator inputs, GM-fillable tables), and every sheet the GM added.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import put


def named_cells(book: Workbook, name: str) -> list:
    cells = []
    for sheet_title, reference in book.defined_names[name].destinations:
        if sheet_title not in book.sheetnames:
            return []
        found = book[sheet_title][reference.replace("$", "")]
        if isinstance(found, tuple):
            cells += [c for row in found for c in (row if isinstance(row, tuple) else (row,))]
        else:
            cells.append(found)
    return cells


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


def carry_inputs(old_path: Path, book: Workbook, generated_sheets: set[str]) -> list[str]:
    """Copy the GM's inputs and added sheets from ``old_path`` into ``book``; say what was carried."""
    try:
        old = openpyxl.load_workbook(old_path)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        return [f"could not read {old_path.name} to keep its inputs ({error}); built fresh"]
    carried = []
    for name in book.defined_names:
        if name not in old.defined_names:
            continue
        new_cells, old_cells = named_cells(book, name), named_cells(old, name)
        if len(new_cells) != len(old_cells):
            continue
        for new, previous in zip(new_cells, old_cells, strict=True):
            if new.protection.locked is False and previous.data_type != "f" and previous.value != new.value:
                put(new, previous.value)
                carried.append(f"{name} = {previous.value!r}")
    for sheet in old.worksheets:
        if sheet.title not in generated_sheets and sheet.title not in book.sheetnames:
            copy_sheet(sheet, book)
            carried.append(f"sheet {sheet.title!r}")
    return carried
