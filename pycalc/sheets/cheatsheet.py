"""The printable cheat sheet: the tables a GM looks up most during combat, readable on paper.

Which tables: those with ``cheatsheet:`` set in the YAML (``true`` or a group name), else every picker
(situational modifier) table and every bands table; a table with no value at all is left out.
Order, most used first: the to-hit tables, then critical/fumble and automatic results, then stun,
wounds and hit-point states, then the situational modifiers (``CHEATSHEET_GROUPS``).

Layout, made for paper: every cell prints at 8 pt and 100% scale, on one line; a cheat sheet short
enough to fit one page at a larger scale prints at the largest that does (up to 150%: 12 pt), so a
short ruleset fills its page rather than a third of it. The sheet is a grid of narrow columns; each table's columns are cells merged over as many grid columns as their text needs,
measured from the font's widths. A table narrow enough takes one of two side-by-side panels, a wider
one the whole width, and every row is one line tall, so panels can share rows without stretching them.
Tables are placed first-fit onto pages in that order and never split across a page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import openpyxl
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import (
    ACCENT,
    GRID,
    MUTED,
    OPEN_HIGH,
    OPEN_LOW,
    font,
    put,
    style_header,
)
from pycalc.sheets.gm_text import readable
from pycalc.sheets.printing import set_up_printing
from pycalc.sheets.text_width import text_points, wrapped
from pycalc.table_files import CHEATSHEET_GROUPS, Column
from pycalc.tables import Row, RuleSet, Table

SHEET_TITLE = "Cheat sheet"
VALUE_COLUMNS = 5  # at most this many value columns of a table
BODY_SIZE = 8.0  # points, printed at 100%
TITLE_SIZE = 9.0
LINE = 10.5  # every row's height, in points
GRID_COLUMNS = 78  # grid columns across the page (fits A4 and Letter portrait at 100%)
GRID_WIDTH = 1.0  # each grid column's width (LibreOffice prints a width unit as 7 points)
POINTS_PER_GRID = 7.0
CELL_PADDING = 3.0  # points of a cell's width its text cannot use
GAP = 2  # grid columns between the two panels
SCALES = (150, 125, 100)  # print scales tried, largest first: the first that fits one page is used
MARGIN = 0.3  # inches, left and right
TOP, BOTTOM = 0.5, 0.5  # inches, above and below the printed rows (header and footer sit inside)
PAGE_HEIGHTS = {"a4": 841.89, "letter": 792.0}  # points, portrait
SAFETY_ROWS = 1  # a page is filled one row short of what fits, so the office never breaks a table
FIRST_ROW = 4  # tables start here (title, introduction and a gap above)
TITLE_FONT = 13.0
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")


@dataclass(frozen=True)
class Shown:
    """A table as the cheat sheet prints it."""

    table: Table
    group: str
    title: str
    header: list[str]
    rows: list[list[object]]
    spans: list[int]  # grid columns per column, label column first
    full_width: bool  # across the page, rather than in one of the two panels
    title_lines: int  # sheet rows the title takes (it wraps onto a second row rather than be cut)
    header_lines: int  # sheet rows the header takes (long headers wrap)
    body_lines: int  # sheet rows each body row takes: 1, unless the table is too wide for one line

    @property
    def width(self) -> int:
        return sum(self.spans)

    @property
    def height(self) -> int:
        return self.title_lines + self.header_lines + self.body_lines * len(self.rows)


@dataclass(frozen=True)
class Placed:
    shown: Shown
    page: int  # 0-based
    row: int  # sheet row of its title
    first_column: int  # 1-based grid column


def group_of(table: Table) -> str | None:
    """The table's cheat-sheet group, or None when it is not on the cheat sheet."""
    if table.cheatsheet is False or not table.rows:
        return None
    if isinstance(table.cheatsheet, str):
        return table.cheatsheet
    if table.picker:
        return "situation"
    if table.cheatsheet is True or table.kind == "bands":
        return "state"
    return None


def band_label(row: Row) -> str:
    if row.low is None or row.low <= OPEN_LOW:
        return f"{row.high} or less"
    if row.high is None or row.high >= OPEN_HIGH:
        return f"{row.low}+"
    return str(row.low) if row.low == row.high else f"{row.low}–{row.high}"


def panel_width(columns: int) -> int:
    """Grid columns of each of the two side-by-side panels of a page that many grid columns wide."""
    return (columns - GAP) // 2


def formula_labels(rules: RuleSet, table: Table, column: Column) -> dict[str, str]:
    """The damage formulas' names by id when the column is the critical chart's ``formula`` column
    (its rows name a row of the damage formulas table), else none."""
    block = rules.resolution_block
    if block is None or block.damage.formulas is None:
        return {}
    chart = block.critical.chart
    if chart is None or (chart.table, chart.formula) != (table.id, column.id):
        return {}
    return {str(row.id): str(row.label) for row in rules.table(block.damage.formulas.table).rows}


def shown_value(value: object, table: Table, column: Column, rules: RuleSet) -> object:
    """A value as a GM reads it: a flag as "yes" or a dash (the rows it applies to stand out), a dash
    for none, a row's, outcome's or damage formula's name rather than its id."""
    if isinstance(value, bool):
        return "yes" if value else "—"
    if value is None:
        return "—"
    formulas = formula_labels(rules, table, column)
    if isinstance(value, str) and value in formulas:
        return formulas[value]
    if isinstance(value, str) and (IDENTIFIER.match(value) or column.type == "outcome"):
        labels = {row.id: row.label for row in table.rows}
        return labels.get(value, value.replace("_", " ").capitalize())
    return value


def has_values(table: Table) -> bool:
    columns = table.columns[:VALUE_COLUMNS]
    return any(row[c.id] is not None for row in table.rows for c in columns)


def wrapped_lines(text: str, grid_columns: int, size: float = BODY_SIZE, bold: bool = False) -> int:
    """Lines a text takes when wrapped at spaces into that many grid columns (a word too long: 99)."""
    room = grid_columns * POINTS_PER_GRID - CELL_PADDING
    lines = wrapped(text, room, size, bold)
    return 99 if any(text_points(line, size, bold) > room for line in lines) else len(lines)


def span(text: str, lines: int = 1, size: float = BODY_SIZE, bold: bool = False) -> int:
    """The fewest grid columns that hold the text in that many lines."""
    return next(
        width for width in range(1, 4 * GRID_COLUMNS) if wrapped_lines(text, width, size, bold) <= lines
    )


def columns_needed(
    header: list[str], rows: list[list[object]], header_lines: int, body_lines: int
) -> list[int]:
    return [
        max(span(text, header_lines, bold=True), *(span(str(values[index]), body_lines) for values in rows))
        for index, text in enumerate(header)
    ]


def widen(spans: list[int], width: int) -> list[int]:
    """Give the spare grid columns to the label column, so the table fills its panel."""
    return [spans[0] + width - sum(spans), *spans[1:]]


def show(table: Table, group: str, rules: RuleSet, columns_across: int = GRID_COLUMNS) -> Shown:
    """Lay the table out: in a panel if it fits one (headers on up to 3 lines), else across the page
    (``columns_across`` grid columns wide).

    Body rows stay on one line unless even the whole width cannot hold the table so."""
    columns = table.columns[:VALUE_COLUMNS]
    title = readable(table.title, rules)
    header = [table.key_label if table.kind == "bands" else "Entry"] + [
        readable(c.label, rules) for c in columns
    ]
    rows = [
        [band_label(row) if table.kind == "bands" else readable(row.label, rules)]
        + [shown_value(row[c.id], table, c, rules) for c in columns]
        for row in table.rows
    ]
    one_line = [(lines, 1) for lines in (1, 2, 3)]
    panel = panel_width(columns_across)
    for width, layouts in ((panel, one_line), (columns_across, [*one_line, (3, 2), (3, 3)])):
        for header_lines, body_lines in layouts:
            spans = columns_needed(header, rows, header_lines, body_lines)
            if sum(spans) <= width:
                title_lines = wrapped_lines(title, width, TITLE_SIZE, bold=True)
                spans = widen(spans, width)
                lines = (title_lines, header_lines, body_lines)
                return Shown(table, group, title, header, rows, spans, width > panel, *lines)
    raise ValueError(f"{table.file}:{table.line}: table {table.id!r} is too wide for the cheat sheet")


def read_by_the_block(rules: RuleSet, table: Table) -> bool:
    """The table of damage formulas that the resolution block names (what a critical chart's rows
    deal): a GM needs it beside the chart."""
    block = rules.resolution_block
    return block is not None and block.damage.formulas is not None and block.damage.formulas.table == table.id


def cheatsheet_tables(rules: RuleSet, columns_across: int = GRID_COLUMNS) -> list[Shown]:
    """Every table on the cheat sheet, most used first (by group, then in YAML order), laid out for a
    page ``columns_across`` grid columns wide."""
    grouped = [
        (
            "results" if table.cheatsheet is None and read_by_the_block(rules, table) else group_of(table),
            table,
        )
        for table in rules.tables.values()
    ]
    chosen = [(group, table) for group, table in grouped if group is not None and has_values(table)]
    chosen.sort(key=lambda pair: CHEATSHEET_GROUPS.index(pair[0]))
    return [show(table, group, rules, columns_across) for group, table in chosen]


def heading(rules: RuleSet, columns_across: int = GRID_COLUMNS) -> tuple[tuple[str, float, float], ...]:
    """The sheet's title and introduction as (text, font size, row height) for rows 1 and 2."""
    title = f"{rules.name}: combat cheat sheet"
    intro = f"{rules.resolution}. Source: {rules.source}; every table in full in the reference workbook."
    return tuple(
        (text, size, wrapped_lines(text, columns_across, size, bold) * size * 1.25)
        for text, size, bold in ((title, TITLE_FONT, True), (intro, BODY_SIZE, False))
    )


def rows_per_page(paper: str, heading_height: float, scale: int = 100) -> tuple[int, int]:
    """Table rows that fit on the first page (below the heading) and on every later page, printed at
    ``scale`` percent."""
    usable = (PAGE_HEIGHTS[paper] - 72 * (TOP + BOTTOM)) * 100 / scale
    later = int(usable // LINE) - SAFETY_ROWS
    first = int((usable - heading_height - LINE) // LINE) - SAFETY_ROWS
    return first, later


def place(tables: list[Shown], first: int, later: int, columns_across: int = GRID_COLUMNS) -> list[Placed]:
    """First fit, in order: each table goes where it fits highest on the earliest page, in a panel's
    free rows (or both panels' for a table across the page), so later small tables fill the gaps."""
    pages: list[tuple[list[bool], list[bool]]] = []  # per page, each panel's rows in use
    placed: list[Placed] = []
    for shown in tables:
        page, spot = 0, None
        while spot is None:
            if page == len(pages):
                capacity = first if page == 0 else later
                pages.append(([False] * capacity, [False] * capacity))
            spot = fit(pages[page], shown)
            page += 1
        page -= 1
        top, panel = spot
        for used in pages[page] if shown.full_width else (pages[page][panel],):
            used[top : top + shown.height] = [True] * shown.height
        column = 1 + panel * (panel_width(columns_across) + GAP)
        placed.append(Placed(shown, page, page_start(page, first, later) + top, column))
    return placed


def page_start(page: int, first: int, later: int) -> int:
    """The sheet row a page's tables start on."""
    return FIRST_ROW if page == 0 else FIRST_ROW + first + (page - 1) * later


def fit(page: tuple[list[bool], list[bool]], shown: Shown) -> tuple[int, int] | None:
    """(first row on the page, panel) of the highest free place for the table, or None."""
    panels = [page[0], page[1]] if not shown.full_width else [[a or b for a, b in zip(*page, strict=True)]]
    for top in range(len(page[0]) - shown.height + 1):
        for panel, used in enumerate(panels):
            if not any(used[top : top + shown.height]):
                return top, panel
    return None


def write_cell(
    sheet: Worksheet, row: int, column: int, size: tuple[int, int], value: object, header: bool
) -> None:
    """One value in a block of (rows, grid columns) merged into one cell, with the grid drawn round it."""
    height, width = size
    cell = put(sheet.cell(row, column), value)
    if header:
        style_header(cell)
    cell.font = font(BODY_SIZE, bold=header)
    horizontal = "left" if isinstance(value, str) else "center"
    cell.alignment = Alignment(horizontal=horizontal, vertical="center", wrap_text=height > 1)
    for row_offset in range(height):
        for column_offset in range(width):
            sheet.cell(row + row_offset, column + column_offset).border = GRID
    if height > 1 or width > 1:
        sheet.merge_cells(
            start_row=row, start_column=column, end_row=row + height - 1, end_column=column + width - 1
        )


def write_table(sheet: Worksheet, placed: Placed) -> None:
    shown, row, column = placed.shown, placed.row, placed.first_column
    title = put(sheet.cell(row, column), shown.title)
    title.font = font(TITLE_SIZE, bold=True, colour=ACCENT)
    title.alignment = Alignment(vertical="bottom", wrap_text=shown.title_lines > 1)
    sheet.merge_cells(
        start_row=row,
        start_column=column,
        end_row=row + shown.title_lines - 1,
        end_column=column + shown.width - 1,
    )
    row += shown.title_lines
    lines = [(shown.header, shown.header_lines, True)] + [
        (values, shown.body_lines, False) for values in shown.rows
    ]
    for values, height, header in lines:
        left = column
        for value, width in zip(values, shown.spans, strict=True):
            write_cell(sheet, row, left, (height, width), value, header)
            left += width
        row += height


@dataclass(frozen=True)
class Layout:
    """The cheat sheet laid out at one print scale."""

    scale: int  # percent
    columns_across: int  # grid columns that fit across the page at that scale
    heading: tuple[tuple[str, float, float], ...]
    first: int  # table rows on page 1
    later: int  # table rows on every later page
    placed: list[Placed]


def layout(rules: RuleSet, paper: str) -> Layout:
    """At the largest of ``SCALES`` that fits one page (a table too wide for it tries the next), else
    at 100% on as many pages as it takes."""
    for scale in SCALES:
        columns_across = GRID_COLUMNS * 100 // scale
        lines = heading(rules, columns_across)
        first, later = rows_per_page(paper, sum(height for _, _, height in lines), scale)
        try:
            placed = place(cheatsheet_tables(rules, columns_across), first, later, columns_across)
        except ValueError:
            if scale == SCALES[-1]:
                raise
            continue
        if scale == SCALES[-1] or max(item.page for item in placed) == 0:
            return Layout(scale, columns_across, lines, first, later, placed)
    raise AssertionError("SCALES ends with 100")


def build_cheatsheet(rules: RuleSet, version: str, paper: str = "a4") -> Workbook:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = SHEET_TITLE
    laid = layout(rules, paper)
    across = laid.columns_across
    (title, title_size, title_height), (intro, intro_size, intro_height) = laid.heading
    put(sheet["A1"], title).font = font(title_size, bold=True, colour=ACCENT)
    put(sheet["A2"], intro).font = font(intro_size, italic=True, colour=MUTED)
    for row in (1, 2):
        sheet[f"A{row}"].alignment = Alignment(wrap_text=True, vertical="top")
        sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=across)
    for item in laid.placed:
        write_table(sheet, item)
    last_row = max(item.row + item.shown.height - 1 for item in laid.placed)
    for row_number in range(3, last_row + 1):
        sheet.row_dimensions[row_number].height = LINE
    sheet.row_dimensions[1].height, sheet.row_dimensions[2].height = title_height, intro_height
    for column in range(1, across + 1):
        sheet.column_dimensions[get_column_letter(column)].width = GRID_WIDTH
    for page in range(1, max(item.page for item in laid.placed) + 1):
        sheet.row_breaks.append(Break(id=page_start(page, laid.first, laid.later) - 1))
    set_up_printing(sheet, rules.name, version, paper)
    sheet.print_area = f"A1:{get_column_letter(across)}{last_row}"
    sheet.page_setup.orientation = "portrait"
    sheet.page_setup.fitToWidth = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = False
    sheet.page_setup.scale = laid.scale
    sheet.page_margins.left = sheet.page_margins.right = MARGIN
    sheet.page_margins.top, sheet.page_margins.bottom = TOP, BOTTOM
    return book
