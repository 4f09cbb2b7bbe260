"""Reading a built workbook as a file (shared by the ruleset workbook tests): its formulas, the cell of
a defined name, the numbers typed into its formulas and the functions they call."""

from __future__ import annotations

import re

import openpyxl

FUNCTION_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.]*)\(")
STRING = re.compile(r'"(?:[^"]|"")*"')
NUMBER = re.compile(r"(?<![\w.$])\d+(?:\.\d+)?(?![\w.])")


def cell_of(book: openpyxl.Workbook, name: str):
    sheet_name, coordinate = next(iter(book.defined_names[name].destinations))
    return book[sheet_name][coordinate.replace("$", "")]


def formulas(book: openpyxl.Workbook) -> list[str]:
    return [
        cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and cell.value.startswith("=") and cell.data_type == "f"
    ]


def numbers_typed(book: openpyxl.Workbook, allowed: set[float]) -> set[tuple[str, str]]:
    """(number, the formula's start) of each number typed into a formula that is not ``allowed``."""
    return {
        (number, formula[:80])
        for formula in formulas(book)
        for number in NUMBER.findall(STRING.sub('""', formula))
        if float(number) not in allowed
    }


def functions_called(book: openpyxl.Workbook) -> set[str]:
    """Every function the formulas call, in upper case."""
    return {
        name.upper()
        for formula in formulas(book)
        for name in FUNCTION_CALL.findall(STRING.sub('""', formula))
    }
