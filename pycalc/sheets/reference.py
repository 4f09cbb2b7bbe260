"""Reference sheets: every YAML table written as a formatted, printable table with named columns.

Each column of each table gets a workbook-level defined name ``T_<TABLE>_<COLUMN>`` over its data
cells (bands also get ``_FROM`` and ``_TO``, entries ``_ID`` and ``_LABEL``), so formulas look
numbers up by name and never by address or by a typed-in number.

The GM reads labels, never ids: an entries table's row ids, and a column whose cells name other rows
or tables by id (an ``outcome`` column, combat17's concealment row of a cover row, ...), are kept on
a hidden sheet (the first hidden workings sheet, right of what it holds; else ``ROW_IDS_SHEET``) under
the same names, in the table's row order, while the visible cell shows the named row's label or the
named table's title.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
    put_formula,
    style_header,
    table_name,
)
from pycalc.sheets.formulas import q
from pycalc.tables import RuleSet, Table

FILLABLE_ROWS = 20  # blank rows offered for a GM-fillable table (e.g. a missing fumble table)
MAX_WIDTH = 44  # wider text wraps
ROW_IDS_SHEET = "Row ids"
LINE_HEIGHT = 12.5
ID_TEXT = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*")


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
    return frame + values + tail


def named_ids(rules: RuleSet) -> dict[str, dict[str, str]]:
    """For every table, what a GM reads for each id one of its rows may name: the outcome rows' labels
    under ``outcome``, each table's own row labels under its id, and every table's title under ``""``."""
    names: dict[str, dict[str, str]] = {"": {t.id: t.title for t in rules.tables.values()}}
    for table in rules.tables.values():
        names[table.id] = {str(row.id): str(row.label) for row in table.rows if row.id is not None}
    if "outcomes" in rules.tables:
        names["outcome"] = names["outcomes"]
    return names


def id_column_names(
    table: Table, column_type: str, values: list[str], names: Mapping[str, Mapping[str, str]]
) -> dict[str, str] | None:
    """The labels of the ids a column's cells name, or None when the cells are text for the GM.

    An ``outcome`` column names rows of the outcomes table; a text column whose every cell is an id
    (one with an underscore at least) names rows of its own table, of one other table, or tables."""
    if column_type == "outcome":
        return dict(names.get("outcome", {}))
    if column_type != "text" or not values or not all(ID_TEXT.fullmatch(v) for v in values):
        return None
    if not any("_" in v for v in values):
        return None
    candidates = [table.id, *(key for key in names if key not in (table.id, "outcome"))]
    for key in candidates:
        if all(v in names[key] for v in values):
            return dict(names[key])
    return None


def id_columns(table: Table, names: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """Column id -> {id: label} for the columns of ``table`` whose cells name rows or tables by id."""
    found = {}
    for column in table.columns:
        values = [row.values.get(column.id) for row in table.rows]
        texts = [v for v in values if isinstance(v, str)]
        if len(texts) != len([v for v in values if v is not None]):
            continue
        labels = id_column_names(table, column.type, texts, names)
        if labels is not None:
            found[column.id] = labels
    return found


def ids_place(book: Workbook) -> tuple[Worksheet, int]:
    """The sheet and column of the next column of ids: right of all the book's first hidden sheet holds
    (a workings sheet: each sheet costs LibreOffice about 10 ms to load), else column A of a new hidden
    ``ROW_IDS_SHEET``."""
    sheet = next((s for s in book.worksheets if s.sheet_state == "hidden"), None)
    if sheet is not None:
        return sheet, sheet.max_column + 1
    sheet = book.create_sheet(ROW_IDS_SHEET)
    sheet.sheet_state = "hidden"
    return sheet, 1


def write_hidden_column(book: Workbook, name: str, header: str, values: list[object]) -> None:
    """``values`` (ids the formulas match on) in the next column of ids on a hidden sheet (``ids_place``),
    named ``name``, so the GM reads labels, never ids."""
    sheet, column = ids_place(book)
    put(sheet.cell(1, column), header)
    for offset, value in enumerate(values, start=2):
        put(sheet.cell(offset, column), value)
    letter = get_column_letter(column)
    define_name(book, name, absolute(sheet, f"{letter}2", f"{letter}{max(len(values), 1) + 1}"))


def row_cells(table: Table, shown: Mapping[str, Mapping[str, str]] | None = None) -> list[list[object]]:
    """The visible cells of each row, in ``headings`` order; a column in ``shown`` (one naming rows or
    tables by id) shows the label of the id it names."""
    rows = []
    for row in table.rows:
        by_key: dict[str, object] = dict(row.values)
        for column_id, labels in (shown or {}).items():
            value = by_key.get(column_id)
            if isinstance(value, str):
                by_key[column_id] = labels.get(value, value)
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


def write_table(
    book: Workbook,
    sheet: Worksheet,
    table: Table,
    top: int,
    names: Mapping[str, Mapping[str, str]] | None = None,
) -> int:
    """Write one table from row ``top``; return the first free row after it."""
    shown = id_columns(table, names or {})
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
    data = row_cells(table, shown)
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
    padding: list[object] = [None] * (len(data) - len(table.rows))
    if table.kind == "entries":
        ids: list[object] = [row.id for row in table.rows]
        write_hidden_column(book, table_name(table.id, "id"), table.id, ids + padding)
    for column_id in shown:
        values: list[object] = [row.values.get(column_id) for row in table.rows]
        write_hidden_column(
            book, table_name(table.id, column_id), f"{table.id} {column_id}", values + padding
        )
    first, last = header_row + 1, header_row + max(len(data), 1)
    for index, heading in enumerate(columns, start=1):
        if heading.key in ("note", "source") or heading.key in shown:
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
    names = named_ids(rules)
    for table in tables:
        row = write_table(book, sheet, table, row, names)
        shown = id_columns(table, names)
        for index, (heading, width) in enumerate(
            zip(headings(table), content_widths(table, shown), strict=True), 1
        ):
            widths[index] = max(
                widths.get(index, 0), width if heading.key not in ("note", "source") else heading.width
            )
    for index, width in widths.items():
        sheet.column_dimensions[get_column_letter(index)].width = width
    shield_typed_numbers(sheet, tables)
    return sheet


def number_columns(table: Table) -> set[str]:
    return {column.id for column in table.columns if column.type in ("int", "number")}


NUMBER_LIKE = re.compile(r"[-+.\d]")  # how a typed number begins


def shield_typed_numbers(sheet: Worksheet, tables: list[Table]) -> None:
    """LibreOffice's AutoInput completes an entry from the texts in its column, across the blank rows
    between tables: a 1 typed into a GM-fillable table's roll column became another table's 1d4. In
    the columns where the GM types a table's numbers, a text that begins like a number is written as
    a formula of that text, which AutoInput does not offer; it shows and prints the same."""
    columns = {
        index
        for table in tables
        if table.gm_fillable
        for index, heading in enumerate(headings(table), 1)
        if heading.key in ("from", "to") or heading.key in number_columns(table)
    }
    for index in sorted(columns):
        for (cell,) in sheet.iter_rows(min_col=index, max_col=index):
            if isinstance(cell.value, str) and cell.data_type == "s" and NUMBER_LIKE.match(cell.value):
                put_formula(cell, q(cell.value))


def content_widths(table: Table, shown: Mapping[str, Mapping[str, str]] | None = None) -> list[int]:
    """Column widths that fit the longest value (and header word), within sensible bounds."""
    columns = headings(table)
    widths = [max(8, max((len(w) for w in h.label.split()), default=0) + 2) for h in columns]
    for values in row_cells(table, shown):
        for index, value in enumerate(values):
            if isinstance(value, int) and abs(value) >= OPEN_HIGH:
                value = "or more"
            widths[index] = max(
                widths[index], min(MAX_WIDTH, len(str(value if value is not None else "")) + 2)
            )
    return widths
