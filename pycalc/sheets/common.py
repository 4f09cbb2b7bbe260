"""What every generated sheet shares: one palette, one font, defined names, safe text cells."""

from __future__ import annotations

import functools
import re
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.error_bar import ErrorBars
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.drawing.line import LineProperties
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import SHEETRANGE_RE
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.ooxml.cells import set_formula

FONT_NAME = (
    "Arial"  # on every Windows and Mac; LibreOffice on Linux draws it with the same-width Liberation Sans
)
INK = "1F2933"
MUTED = "616E7C"
ACCENT = "1D4E89"  # headings
CALCULATOR_CHART_ANCHOR = "A18"
CHART_ROWS = 6  # the rows the calculator's damage chart covers (CALCULATOR_CHART_SIZE's height)
CHART_POINTS = ("CHART_DAMAGE", "CHART_CHANCE")  # the chart's points: #N/A where nothing can happen
CALCULATOR_CHART_SIZE = (8.4, 3.0)  # cm
BAR_WIDTH = 50_800  # EMU (4 points): the line drawn as each chance's bar in the damage charts
HEADER_FILL = "D9E2EC"
INPUT_FILL = "FFF3C4"  # every cell a GM types into
OUTPUT_FILL = "E3F8EC"
WORKING_FILL = "F5F7FA"
BORDER_COLOUR = "BCCCDC"

# Open-ended band bounds are stored as huge numbers (so MATCH works) and shown as words.
OPEN_LOW = -1_000_000_000
OPEN_HIGH = 1_000_000_000
BOUND_FORMAT = '[<=-1000000000]"or less";[>=1000000000]"or more";0'
PERCENT_FORMAT = "0.0%"

thin = Side(style="thin", color=BORDER_COLOUR)
GRID = Border(left=thin, right=thin, top=thin, bottom=thin)


@functools.cache  # one object per look: openpyxl hashes a style object each time a cell takes it
def font(size: float = 10, bold: bool = False, italic: bool = False, colour: str = INK) -> Font:
    return Font(name=FONT_NAME, size=size, bold=bold, italic=italic, color=colour)


@functools.cache
def fill(colour: str) -> PatternFill:
    return PatternFill("solid", start_color=colour, end_color=colour)


BODY = font()
BOLD = font(bold=True)
TITLE = font(14, bold=True, colour=ACCENT)
SUBTITLE = font(11, bold=True, colour=ACCENT)
NOTE = font(9, italic=True, colour=MUTED)
WRAP = Alignment(wrap_text=True, vertical="top")
UNLOCKED = Protection(locked=False)
HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="center")
SHRINK = Alignment(shrink_to_fit=True, vertical="center")  # a long text shrinks rather than being cut


@functools.cache
def name_part(text: str) -> str:
    """An identifier as it appears inside a defined name (upper case, A-Z 0-9 _)."""
    return re.sub(r"[^A-Z0-9_]", "_", text.upper())


def table_name(table_id: str, column: str) -> str:
    """Defined name of one column of a YAML table in the workbook: T_<TABLE>_<COLUMN>."""
    return f"T_{name_part(table_id)}_{name_part(column)}"


def ruling_name(ruling_id: str) -> str:
    return f"RULING_{name_part(ruling_id)}"


def absolute(sheet: Worksheet, first: str, last: str | None = None) -> str:
    """A sheet-qualified absolute reference such as 'Strike'!$B$4:$B$9."""
    quoted = "'" + sheet.title.replace("'", "''") + "'"

    def dollar(ref: str) -> str:
        letters = ref.rstrip("0123456789")
        return f"${letters}${ref[len(letters) :]}"

    return f"{quoted}!{dollar(first)}" + (f":{dollar(last)}" if last and last != first else "")


def define_name(book: Workbook, name: str, reference: str) -> None:
    """A workbook-level name; a name already pointing elsewhere is an error (two writers using one
    name silently rewire every formula that reads it)."""
    known = book.defined_names.get(name)
    if known is not None and known.attr_text != reference:
        raise ValueError(f"{name} is already defined as {known.attr_text}, not {reference}")
    book.defined_names[name] = DefinedName(name, attr_text=reference)


def destinations(defined: DefinedName) -> list[tuple[str, str]]:
    """``defined.destinations`` (sheet title, cells) without openpyxl's formula tokenizer for the usual
    name over one range of one sheet, such as 'Strike'!$B$4:$B$9."""
    single = SHEETRANGE_RE.fullmatch(defined.value or "")
    if single:
        return [(single.group("notquoted") or single.group("quoted"), single.group("cells"))]
    return list(defined.destinations)


def put(cell: Cell, value: Any) -> Cell:
    """Write a value; text never becomes a formula (YAML text starting with '=' stays text)."""
    cell.value = value
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"
    cell.font = BODY
    return cell


def formula_value(formula: str) -> str:
    """A formula as a cell holds it: after an "=" (written with one or without)."""
    return formula if formula.startswith("=") else f"={formula}"


def put_formula(cell: Cell, formula: str) -> Cell:
    set_formula(cell, formula_value(formula))  # (some 100,000 per build: without openpyxl's checks)
    cell.font = BODY
    return cell


def style_header(cell: Cell) -> None:
    cell.font = BOLD
    cell.fill = fill(HEADER_FILL)
    cell.border = GRID
    cell.alignment = HEADER_ALIGNMENT


def mark_input(cell: Cell) -> None:
    cell.fill = fill(INPUT_FILL)
    cell.border = GRID
    cell.protection = UNLOCKED


def mark_output(cell: Cell, bold: bool = False) -> None:
    cell.fill = fill(OUTPUT_FILL)
    cell.border = GRID
    if bold:
        cell.font = BOLD


def protect(sheet: Worksheet) -> None:
    """Lock formula cells against accidental overwrites; no password, inputs stay unlocked."""
    sheet.protection.sheet = True
    sheet.protection.formatCells = False
    sheet.protection.formatColumns = False
    sheet.protection.formatRows = False
    sheet.protection.selectLockedCells = False
    sheet.protection.selectUnlockedCells = False


def damage_chart(
    sheet: Worksheet,
    title: str,
    x_title: str,
    x_col: int,
    header: int,
    first: int,
    last: int,
    height: float = 8,
    *,
    dice_ok: str,
) -> ScatterChart:
    """A chart of the chances in column ``x_col + 1`` (title in row ``header``) by the values in ``x_col``.

    Only the values that can happen are plotted: two columns written after the sheet's last one hold
    each value and its chance, or #N/A where the chance is 0 or ``dice_ok`` (the name of the cell
    saying the dice expression reads) is false; both offices leave #N/A points out
    and scale the axis to the rest. So the axis spans the current dice's range, a bad dice entry (all
    chances 0) shows nothing, and each chance is drawn as a bar: a line dropped from the point to 0.
    Both axes are written as shown (``delete="0"``): recent Excel hides an axis that does not say so."""
    plotted = sheet.max_column + 1
    put(sheet.cell(header, plotted), x_title)
    put(sheet.cell(header, plotted + 1), "chance")
    for row in range(first, last + 1):
        value, chance = (f"${get_column_letter(x_col + offset)}{row}" for offset in (0, 1))
        possible = f"AND({dice_ok},N({chance})>0)"
        put_formula(sheet.cell(row, plotted), f"IF({possible},{value},NA())")
        put_formula(sheet.cell(row, plotted + 1), f"IF({possible},{chance},NA())")
    for offset, name in enumerate(CHART_POINTS):
        letter = get_column_letter(plotted + offset)
        define_name(sheet.parent, name, absolute(sheet, f"{letter}{first}", f"{letter}{last}"))
    series = Series(
        Reference(sheet, min_col=plotted + 1, min_row=first, max_row=last),
        Reference(sheet, min_col=plotted, min_row=first, max_row=last),
        title=title,
    )
    series.graphicalProperties.line.noFill = True
    series.marker.symbol = "dash"
    series.marker.graphicalProperties = GraphicalProperties(solidFill=ACCENT)
    series.marker.graphicalProperties.line.solidFill = ACCENT
    bar = GraphicalProperties(ln=LineProperties(solidFill=ACCENT, w=BAR_WIDTH))
    series.errBars = ErrorBars(
        errDir="y", errBarType="minus", errValType="percentage", val=100, noEndCap=True, spPr=bar
    )
    chart = ScatterChart()
    chart.style = 2
    chart.series.append(series)
    chart.x_axis.title = title
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.y_axis.number_format = "0%"
    chart.legend = None
    chart.width, chart.height = 22, height
    return chart


def show_chart(sheet: Worksheet, chart: ScatterChart, anchor: str = CALCULATOR_CHART_ANCHOR) -> None:
    """The calculator's damage chart under the numbers and rolls, beside the odds and the outcome, inside
    the first screen (1366x768 at 100%) and inside columns A:B in both offices (``anchor``: a roll
    block longer than the usual pushes it down, ``d20_roll_block.chart_anchor``)."""
    chart.width, chart.height = CALCULATOR_CHART_SIZE
    sheet.add_chart(chart, anchor)
