"""Saving a book: openpyxl's writer with its slow steps done the same, faster, and into memory.

openpyxl writes each cell through an element tree, each sheet through a scratch file on disk, the
whole file through a zip; ``save_parts`` writes each row as one string (``write_plain_rows``), the
scratch files in memory, the parts kept in a dict (``PartsArchive``), and, for a book holding both
files (``pycalc.sheets.dual``), writes down each sheet as the .xlsm stores it while the .xlsx is saved
(``BothFilesWriter``). The characters written are openpyxl's own (``tests/test_fast_writers.py``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Callable, Iterator
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl.worksheet._writer as sheet_writer
from openpyxl.cell import _writer as cell_writer
from openpyxl.cell.rich_text import CellRichText
from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.compat import safe_string
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.packaging.relationship import RelationshipList
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter
from openpyxl.xml.functions import tostring

from pycalc.sheets.dual import Both
from pycalc.sheets.ooxml.fast_cells import sheet_dimension
from pycalc.sheets.ooxml.saved_xml import escape_attribute, escape_text, with_sheet_data
from pycalc.sheets.ooxml.shared_formulas import formula_elements, macro_elements

Parts = dict[str, bytes]
"""A workbook file's zip parts, by name, in the order they are stored."""

LEFT_TO_OPENPYXL = (ArrayFormula, DataTableFormula, CellRichText)
PLAIN_VALUES = frozenset({str, int, float, bool, type(None)})  # never one of LEFT_TO_OPENPYXL
column_letter = functools.cache(get_column_letter)


def plain_cell_xml(
    cell: Any, style_id: int | None, formula: str | None = None, text: str | None = None
) -> str | None:
    """The characters openpyxl's own cell writer (``etree_write_cell``) writes for a formula, a number,
    a boolean or text (``style_id`` None: no ``s`` attribute), without building an element tree for
    the cell; None for the cells it leaves to openpyxl (dates, array formulas, rich text). A formula
    cell stored in a shared formula is given its ``<f>`` element (``shared_formulas``). ``text``: the
    cell's in the .xlsm, where it holds both files' (``pycalc.sheets.dual``)."""
    value = cell._value if text is None else text
    kind = cell.data_type
    if kind == "d" or (type(value) not in PLAIN_VALUES and isinstance(value, LEFT_TO_OPENPYXL)):
        return None
    head = f'<c r="{column_letter(cell.column)}{cell.row}"' + ("" if style_id is None else f' s="{style_id}"')
    if kind == "s":
        head += ' t="inlineStr"'
    elif kind != "f":
        head += f' t="{kind}"'
    if value is None or value == "":
        return head + " />"
    if kind == "f":
        if formula is not None:
            return f"{head}>{formula}<v /></c>"
        return f"{head}><f>{escape_text(value[1:])}</f><v /></c>" if value[1:] else f"{head}><f /><v /></c>"
    if kind == "s":
        stripped = value.strip()
        space = ' xml:space="preserve"' if stripped and value != stripped else ""
        return f"{head}><is><t{space}>{escape_text(value)}</t></is></c>"
    text = safe_string(value)
    return f"{head}><v>{escape_text(text)}</v></c>" if text else f"{head}><v /></c>"


def style_ids(book: Workbook) -> Callable[[StyleArray | None], int | None]:
    """A cell's style array -> its id in the saved file (added to the book's list when new, as openpyxl's
    writer does), None for no style (no array, or all zeros). Looked up by the array's bytes:
    ``StyleArray``'s own hash makes a tuple of it each time, and a book has some 150,000 of them."""
    styles = book._cell_styles
    known: dict[bytes, int | None] = {}

    def style_id(style: StyleArray | None) -> int | None:
        if style is None:
            return None
        key = style.tobytes()
        if key not in known:
            known[key] = styles.add(style) if any(style) else None
        return known[key]

    return style_id


def write_plain_rows(writer: WorksheetWriter, macro_rows: dict[str, str] | None = None) -> None:
    """``WorksheetWriter.write_rows``: the same characters, each row written as one string of
    ``plain_cell_xml`` cells (a cell it leaves to openpyxl is written by ``etree_write_cell``). Into
    ``macro_rows``, the sheet's rows as the .xlsm of a book holding both files stores them, where it
    can tell."""
    xf = writer.xf.send(True)
    with xf.element("sheetData"):
        macro = write_rows_of(writer, xf, macro_rows is not None)
    if macro_rows is not None and macro is not None:
        macro_rows[writer.ws.title] = macro
    writer.xf.send(None)


def write_rows_of(writer: WorksheetWriter, xf: Any, keep: bool) -> str | None:
    """Write the sheet's rows into ``xf``; when ``keep``, give them as the .xlsm stores them too (None
    where it cannot tell: a cell openpyxl writes, or the .xlsm's formulas shared in other runs)."""
    sheet = writer.ws
    write = xf._file
    dimensions = sheet.row_dimensions
    style_id_of = style_ids(sheet.parent)
    shared = formula_elements(sheet)
    macro_shared = macro_elements(sheet, shared) if keep else None
    macro: list[str] | None = [] if macro_shared is not None else None
    for row_index, row in writer.rows():
        attributes = {"r": f"{row_index}"}
        attributes.update(dimensions.get(row_index, {}))
        text = ["<row", *(f' {key}="{escape_attribute(value)}"' for key, value in attributes.items()), ">"]
        swaps = []
        for cell in row:
            if cell._comment is not None:
                sheet._comments.append(CommentRecord.from_cell(cell))
            style_id = style_id_of(cell._style)
            if cell._value is None and style_id is None and not cell._comment:
                continue
            place = (row_index, cell.column)
            xml = plain_cell_xml(cell, style_id, shared.get(place) if shared else None)
            if xml is None:
                write("".join(text))
                text, macro = [], None
                cell_writer.etree_write_cell(xf, sheet, cell, style_id is not None)
                continue
            if cell.hyperlink:  # as _set_attributes does
                sheet._hyperlinks.append(cell.hyperlink)
            text.append(xml)
            if macro is not None and type(cell._value) is Both:
                macro_xml = plain_cell_xml(cell, style_id, (macro_shared or {}).get(place), cell._value.macro)
                swaps.append((len(text) - 1, macro_xml))
        text.append("</row>")
        line = "".join(text)
        write(line)
        if macro is not None:
            for index, swapped in swaps:
                text[index] = swapped
            macro.append("".join(text) if swaps else line)
    return None if macro is None else "".join(macro)


@dataclass(frozen=True)
class SavedSheet:
    """A sheet as the .xlsm stores it, written down while the .xlsx of a book holding both files is
    saved (``build_both``), with what writing it leaves for the rest of the file (its relationships,
    comments and links): the .xlsm's save takes it as it is where the sheet did not change between
    the two (the same cells and properties; no kept input changed, see ``both_parts_kept``)."""

    xml: bytes
    rels: RelationshipList
    comments: list[CommentRecord]
    hyperlinks: list[Hyperlink]
    properties: bytes
    cells: int


def sheet_properties(sheet: Worksheet) -> bytes:
    return tostring(sheet.sheet_properties.to_tree())


class BothFilesWriter(ExcelWriter):
    """openpyxl's ``ExcelWriter``, writing down each sheet as the .xlsm stores it (``kept``) or taking
    the sheets written down (``given``)."""

    def __init__(
        self,
        book: Workbook,
        archive: PartsArchive,
        kept: dict[str, SavedSheet] | None,
        given: dict[str, SavedSheet] | None,
    ) -> None:
        super().__init__(book, archive)
        self.parts = archive
        self.kept, self.given = kept, given
        self.macro_rows: dict[str, str] | None = None if kept is None else {}

    def write_worksheet(self, ws: Worksheet) -> None:
        saved = self.given.get(ws.title) if self.given else None
        if saved is not None and saved.cells == len(ws._cells) and saved.properties == sheet_properties(ws):
            ws._drawing = SpreadsheetDrawing()  # as the writer does, for the charts written after
            ws._drawing.charts, ws._drawing.images = ws._charts, ws._images
            ws._rels, ws._comments, ws._hyperlinks = deepcopy(saved.rels), saved.comments, saved.hyperlinks
            self.parts.writestr(ws.path[1:], saved.xml)
            self.manifest.append(ws)
            return
        super().write_worksheet(ws)
        if self.kept is not None and self.macro_rows is not None and ws.title in self.macro_rows:
            xml, rows = self.parts.parts[ws.path[1:]], self.macro_rows[ws.title].encode()
            if rows:  # the .xlsm's rows in place of the .xlsx's
                xml = with_sheet_data(xml, rows)
            self.kept[ws.title] = SavedSheet(
                xml,
                deepcopy(ws._rels),
                list(ws._comments),
                list(ws._hyperlinks),
                sheet_properties(ws),
                len(ws._cells),
            )


MEMORY_FOLDER = Path("/dev/shm")  # a folder in memory, where the system has one


def sheet_scratch_file(suffix: str = "") -> str:
    """openpyxl's scratch file for each worksheet it saves, in memory when possible (creating and
    removing a file on disk costs more than writing the sheet)."""
    folder = MEMORY_FOLDER if MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK) else None
    handle, name = tempfile.mkstemp(suffix=suffix, prefix="openpyxl.", dir=folder)
    os.close(handle)
    sheet_writer.ALL_TEMP_FILES.append(name)
    return name


@contextlib.contextmanager
def plain_cell_writer(macro_rows: dict[str, str] | None = None) -> Iterator[None]:
    """Save with ``write_plain_rows`` (when openpyxl writes through the standard library, not lxml),
    each sheet's scratch file in memory (``sheet_scratch_file``), its dimension by ``sheet_dimension``.
    The saved bytes are the same."""
    rows, scratch = WorksheetWriter.write_rows, sheet_writer.create_temporary_file
    dimension = Worksheet.calculate_dimension
    sheet_writer.create_temporary_file = sheet_scratch_file
    Worksheet.calculate_dimension = sheet_dimension  # type: ignore[method-assign]
    if sheet_writer.write_cell is cell_writer.etree_write_cell:
        WorksheetWriter.write_rows = lambda writer: write_plain_rows(writer, macro_rows)  # type: ignore[method-assign]
    try:
        yield
    finally:
        WorksheetWriter.write_rows, sheet_writer.create_temporary_file = rows, scratch  # type: ignore[method-assign]
        Worksheet.calculate_dimension = dimension  # type: ignore[method-assign]


class PartsArchive:
    """What openpyxl's ``ExcelWriter`` calls on the zip it saves into, keeping each part by name
    instead, in the order written: no zip to write and read back before ``zipped`` makes the file."""

    def __init__(self) -> None:
        self.parts: Parts = {}

    def writestr(self, name: str, data: str | bytes) -> None:
        if name in self.parts:
            raise ValueError(f"a zip part name appears twice: {name}")
        self.parts[name] = data.encode() if isinstance(data, str) else data

    def write(self, filename: str, arcname: str) -> None:
        self.writestr(arcname, Path(filename).read_bytes())

    def namelist(self) -> list[str]:
        return list(self.parts)

    def close(self) -> None:
        """Nothing to finish: the parts are complete."""


def save_parts(
    book: Workbook, kept: dict[str, SavedSheet] | None = None, given: dict[str, SavedSheet] | None = None
) -> Parts:
    """The saved file's parts, as ``book.save`` writes them, before they are compressed. Into ``kept``,
    each sheet as the .xlsm of a book holding both files stores it; from ``given``, the sheets to take
    as they are (``BothFilesWriter``)."""
    archive = PartsArchive()
    writer = BothFilesWriter(book, archive, kept, given)
    with plain_cell_writer(writer.macro_rows):
        writer.save()
    return archive.parts
