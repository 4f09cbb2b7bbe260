"""Reference sheets: every YAML table written as a formatted, printable table with named columns.

Each column of each table gets a workbook-level defined name ``T_<TABLE>_<COLUMN>`` over its data
cells (bands also get ``_FROM`` and ``_TO``, entries ``_ID`` and ``_LABEL``), so formulas look
numbers up by name and never by address or by a typed-in number.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import (
    BOUND_FORMAT,
    GRID,
    NOTE,
    OPEN_HIGH,
    OPEN_LOW,
    SUBTITLE,
    WRAP,
    absolute,
    define_name,
    mark_input,
    put,
    style_header,
    table_name,
)
from pycalc.tables import RuleSet, Table

FILLABLE_ROWS = 20  # blank rows offered for a GM-fillable table (e.g. a missing fumble table)
MAX_WIDTH = 44  # wider text wraps
ROW_IDS_SHEET = "Row ids"
LINE_HEIGHT = 12.5


@dataclass(frozen=True)
class Heading:
    key: str  # 'from', 'to', 'id', 'label', a column id, 'note', 'source'
    label: str
    width: int


def headings(table: Table) -> list[Heading]:
    if table.kind == "bands":
        frame = [Heading("from", f"{table.key_label} from", 10), Heading("to", "to", 8)]
    else:
        frame = [Heading("label", "Entry", 28)]
    values = [Heading(c.id, c.label, max(9, min(26, len(c.label) + 2))) for c in table.columns]
    tail = [Heading("note", "Note", 36), Heading("source", "Section of the source", 24)]
    if table.kind == "entries" and table.gm_fillable:  # the GM's own rows need the GM's own ids
        tail.append(Heading("id", "Id", 14))
    return frame + values + tail


def write_row_ids(book: Workbook, table: Table) -> None:
    """An entries table's row ids, which formulas match on, kept on the hidden sheet ``ROW_IDS_SHEET``
    (named ``T_<TABLE>_ID``) in the table's row order, so the GM reads labels, never ids."""
    if ROW_IDS_SHEET in book.sheetnames:
        sheet = book[ROW_IDS_SHEET]
        column = sheet.max_column + 1
    else:
        sheet = book.create_sheet(ROW_IDS_SHEET)
        sheet.sheet_state = "hidden"
        column = 1
    put(sheet.cell(1, column), table.id)
    for offset, row in enumerate(table.rows, start=2):
        put(sheet.cell(offset, column), row.id)
    letter = get_column_letter(column)
    define_name(
        book,
        table_name(table.id, "id"),
        absolute(sheet, f"{letter}2", f"{letter}{max(len(table.rows), 1) + 1}"),
    )


def row_cells(table: Table) -> list[list[object]]:
    rows = []
    for row in table.rows:
        by_key: dict[str, object] = dict(row.values)
        by_key.update(
            {
                "from": OPEN_LOW if row.low is None else row.low,
                "to": OPEN_HIGH if row.high is None else row.high,
                "id": row.id,
                "label": row.label,
                "note": row.note,
                "source": f"§ {row.section}",
            }
        )
        rows.append([by_key.get(h.key) for h in headings(table)])
    return rows


def wrapped_lines(value: object, heading: Heading) -> int:
    """Lines a wrapped note or source needs at its column's width (LibreOffice does not size rows)."""
    if heading.key not in ("note", "source") or not isinstance(value, str):
        return 1
    return -(-len(value) // max(1, heading.width - 2))


def write_table(book: Workbook, sheet: Worksheet, table: Table, top: int) -> int:
    """Write one table from row ``top``; return the first free row after it."""
    put(sheet.cell(top, 1), table.title).font = SUBTITLE
    row_number = top + 1
    if table.note:
        note = put(sheet.cell(row_number, 1), table.note)
        note.font, note.alignment = NOTE, WRAP
        width = len(headings(table))
        sheet.merge_cells(start_row=row_number, start_column=1, end_row=row_number, end_column=max(width, 1))
        sheet.row_dimensions[row_number].height = 12 * (1 + len(table.note) // 110)
        row_number += 1
    columns = headings(table)
    for index, heading in enumerate(columns, start=1):
        style_header(sheet.cell(row_number, index, heading.label))
    header_row = row_number
    data = row_cells(table)
    if table.gm_fillable:
        data += [[None] * len(columns) for _ in range(FILLABLE_ROWS - len(data))]
    for offset, values in enumerate(data, start=1):
        lines = max((wrapped_lines(v, h) for h, v in zip(columns, values, strict=True)), default=1)
        if lines > 1:
            sheet.row_dimensions[header_row + offset].height = LINE_HEIGHT * lines
        for index, (heading, value) in enumerate(zip(columns, values, strict=True), start=1):
            cell = put(sheet.cell(header_row + offset, index), value)
            cell.border = GRID
            if heading.key in ("from", "to"):
                cell.number_format = BOUND_FORMAT
            if heading.key in ("note", "source"):
                cell.font, cell.alignment = NOTE, WRAP
            if table.gm_fillable:
                mark_input(cell)
    if table.kind == "entries" and not table.gm_fillable:
        write_row_ids(book, table)
    first, last = header_row + 1, header_row + max(len(data), 1)
    for index, heading in enumerate(columns, start=1):
        if heading.key in ("note", "source"):
            continue
        letter = get_column_letter(index)
        define_name(
            book, table_name(table.id, heading.key), absolute(sheet, f"{letter}{first}", f"{letter}{last}")
        )
    return last + 2


def write_reference_sheet(book: Workbook, title: str, tables: list[Table], rules: RuleSet) -> Worksheet:
    sheet = book.create_sheet(title)
    sheet.sheet_properties.tabColor = "829AB1"
    row = 1
    widths: dict[int, int] = {}
    for table in tables:
        row = write_table(book, sheet, table, row)
        for index, (heading, width) in enumerate(zip(headings(table), content_widths(table), strict=True), 1):
            widths[index] = max(
                widths.get(index, 0), width if heading.key not in ("note", "source") else heading.width
            )
    for index, width in widths.items():
        sheet.column_dimensions[get_column_letter(index)].width = width
    return sheet


def content_widths(table: Table) -> list[int]:
    """Column widths that fit the longest value (and header word), within sensible bounds."""
    columns = headings(table)
    widths = [max(8, max((len(w) for w in h.label.split()), default=0) + 2) for h in columns]
    for values in row_cells(table):
        for index, value in enumerate(values):
            if isinstance(value, int) and abs(value) >= OPEN_HIGH:
                value = "or more"
            widths[index] = max(
                widths[index], min(MAX_WIDTH, len(str(value if value is not None else "")) + 2)
            )
    return widths
