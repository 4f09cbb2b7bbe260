"""Print set-up for every sheet, and the colours a GM reads results by.

Applied once to the whole workbook after all sheets are written, so every calculator and reference
sheet of every ruleset gets the same treatment: print area, orientation chosen from the width, fit to
one page wide, margins, header and footer (ruleset, sheet, page x of y, tables version).
"""

from __future__ import annotations

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import FONT_NAME, destinations
from pycalc.sheets.creatures import SHEET as CREATURES_SHEET  # a library to fill by hand: one page
from pycalc.sheets.fight_record import RECORD_PREFIX
from pycalc.sheets.fight_record import SHEET as ONE_PAGE_SHEET
from pycalc.sheets.fit import wrap_what_does_not_fit
from pycalc.sheets.ooxml.cells import cells_of, has_drawings, stored_value
from pycalc.sheets.result_colours import highlight_results

PAPER_SIZES = {"a4": 9, "letter": 1}  # openpyxl / OOXML paper codes
HEADER_POINTS = 8  # headers and footers
LANDSCAPE_FROM_WIDTH = 110  # total column width (characters) above which a sheet prints landscape


def is_hidden(sheet: Worksheet, column: int) -> bool:
    return bool(getattr(sheet.column_dimensions.get(get_column_letter(column)), "hidden", False))


def used_width(sheet: Worksheet, last: int) -> float:
    """The printed width: the widths of the shown columns up to ``last``."""
    return sum(
        (sheet.column_dimensions[get_column_letter(c)].width or 9)
        for c in range(1, last + 1)
        if not is_hidden(sheet, c)
    )


def last_shown_column(sheet: Worksheet) -> int:
    """The sheet's last column that is not hidden and holds something: hidden working columns and
    empty columns on the right do not print, nor does the link back to the Contents in row 1. A sheet
    with a chart or a picture keeps every column up to its last (a chart may lie right of the cells)."""
    if has_drawings(sheet):
        column = sheet.max_column
        while column > 1 and is_hidden(sheet, column):
            column -= 1
        return column
    merged = {(r.min_row, r.min_col): r.max_col for r in sheet.merged_cells.ranges}
    hidden = {c for c in range(1, sheet.max_column + 1) if is_hidden(sheet, c)}
    return max(
        (
            merged.get((row, col), col)
            for (row, col), cell in cells_of(sheet).items()
            if stored_value(cell) is not None
            and col not in hidden
            and not (row == 1 and cell.hyperlink is not None)
        ),
        default=1,
    )


def set_up_printing(sheet: Worksheet, ruleset_name: str, version: str, paper: str = "a4") -> None:
    last = last_shown_column(sheet)
    sheet.print_area = f"A1:{get_column_letter(last)}{sheet.max_row}"
    wide = used_width(sheet, last) > LANDSCAPE_FROM_WIDTH and sheet.title != ONE_PAGE_SHEET
    sheet.page_setup.orientation = "landscape" if wide else "portrait"
    sheet.page_setup.paperSize = PAPER_SIZES[paper]
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 1 if sheet.title in (ONE_PAGE_SHEET, CREATURES_SHEET) else 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.page_margins = PageMargins(left=0.5, right=0.5, top=0.75, bottom=0.75, header=0.3, footer=0.3)
    sheet.print_options.horizontalCentered = True
    if sheet.freeze_panes:  # the rows kept on screen are repeated on every printed page
        top = sheet[sheet.freeze_panes].row
        if top > 1:
            sheet.print_title_rows = f"1:{top - 1}"
    sheet.oddHeader.left.text = header_text(ruleset_name)
    sheet.oddHeader.right.text = "&A"  # the sheet's name
    sheet.oddFooter.left.text = f"Tables {header_text(version)} · printed &D"
    sheet.oddFooter.right.text = "Page &P of &N"
    for part in (sheet.oddHeader.left, sheet.oddHeader.right, sheet.oddFooter.left, sheet.oddFooter.right):
        part.size = HEADER_POINTS + (1 if sheet.title == ONE_PAGE_SHEET else 0)  # scaled to fit one page
        part.font = FONT_NAME


def header_text(text: str) -> str:
    """Text for a header or footer, where '&' starts a code (&D date, &P page): a literal '&' is '&&'."""
    return text.replace("&", "&&")


def set_up_workbook(book: Workbook, ruleset_name: str, version: str, paper: str = "a4") -> None:
    for sheet in book.worksheets:
        if sheet.sheet_state == "visible":
            wrap_what_does_not_fit(sheet)
            set_up_printing(sheet, ruleset_name, version, paper)
    for name, defined in book.defined_names.items():
        if name.endswith(("_RESULT", "_OUTCOME")) and not name.startswith(RECORD_PREFIX):
            for sheet_title, coordinate in destinations(defined):
                highlight_results(book[sheet_title], coordinate.replace("$", ""))
