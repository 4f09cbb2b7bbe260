"""The colour of an outcome cell by its value, wherever a result shows: Miss grey, Hit green,
Critical orange, Grievous red, Fumble violet (conditional formats, so a recalculated cell follows)."""

from __future__ import annotations

from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Border
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import fill, font

RESULT_COLOURS = {
    "Miss": ("E4E7EB", "52606D"),
    "Hit": ("C6F7E2", "014D40"),
    "Critical": ("FFD8A8", "8A4B08"),
    "Grievous": ("FFBDBD", "780A0A"),
    "Fumble": ("E0D4F7", "44056E"),
}


def highlight_results(sheet: Worksheet, coordinate: str, border: Border | None = None) -> None:
    """Colour a result cell by its value: Miss grey, Hit green, Critical orange, Grievous red, Fumble violet."""
    for text, (background, ink) in RESULT_COLOURS.items():
        rule = CellIsRule(
            operator="equal",
            formula=[f'"{text}"'],
            fill=fill(background),
            font=font(bold=True, colour=ink),
            border=border,
        )
        sheet.conditional_formatting.add(coordinate, rule)
