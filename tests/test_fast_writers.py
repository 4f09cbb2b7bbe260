"""The build's shortcuts write the very bytes openpyxl writes: the plain rows writer, shared styles,
the fast cell look-up and style assignment."""

from __future__ import annotations

import contextlib
import copy
import html
import io
import re
import zipfile
from datetime import datetime
from html import escape

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.comments import Comment
from openpyxl.formula.translate import Translator
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.styleable import StyleDescriptor
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.merge import MergedCellRange
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets import workbook
from pycalc.sheets.common import BODY, GRID, fill, font
from pycalc.sheets.ooxml.fast_cells import fast_cells, format_merged, get_cell, set_style
from pycalc.sheets.ooxml.saved_xml import print_titles_last
from pycalc.sheets.ooxml.styles import share_styles
from pycalc.sheets.ooxml.writer import plain_cell_writer
from pycalc.sheets.workbook import build_workbook, workbook_bytes
from pycalc.tables import load_folder, tables_dir

TEXT = st.text(alphabet=st.sampled_from([*"ab =&<>\"'\n\t", "é", "½"]), min_size=0, max_size=12)
VALUES = st.one_of(
    st.none(),
    TEXT,
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.booleans(),
    TEXT.map(lambda text: "=" + text.replace('"', "")),
    st.just(datetime(2024, 5, 6, 7, 8, 9)),
)


def saved_parts(book: openpyxl.Workbook, plain: bool) -> dict[str, bytes]:
    """The saved parts; those of the plain writer with each shared formula written out cell by cell,
    as openpyxl writes it (``unshared``)."""
    raw = io.BytesIO()
    if plain:
        with plain_cell_writer():
            book.save(raw)
    else:
        book.save(raw)
    with zipfile.ZipFile(raw) as saved:
        parts = {name: saved.read(name) for name in saved.namelist() if name != "docProps/core.xml"}
    return {
        name: unshared(part) if name.startswith("xl/worksheets/") else part for name, part in parts.items()
    }


SHARED = re.compile(
    rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f t="shared" (?:ref="[A-Z0-9:]+" )?si="([0-9]+)"(?: />|>([^<]*)</f>)'
)


def unshared(xml: bytes) -> bytes:
    """A sheet's XML with each cell of a shared formula given its own formula, worked out from the
    first cell's by openpyxl's ``Translator`` (what a reader of the file does)."""
    first: dict[bytes, tuple[str, str]] = {}

    def written_out(found: re.Match[bytes]) -> bytes:
        ref, attributes, group, formula = found.groups()
        if formula is not None:
            first[group] = ("=" + html.unescape(formula.decode()), ref.decode())
            own = formula
        else:
            value, origin = first[group]
            own = escape(Translator(value, origin).translate_formula(ref.decode())[1:], quote=False).encode()
        return b'<c r="%s"%s><f>%s</f>' % (ref, attributes, own)

    return SHARED.sub(written_out, xml)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(VALUES, st.booleans(), st.booleans()), min_size=1, max_size=30))
def test_the_plain_cell_writer_writes_what_openpyxl_writes(cells):
    book = openpyxl.Workbook()
    sheet = book.active
    for index, (value, styled, linked) in enumerate(cells, start=1):
        cell = sheet.cell(1 + index // 5, 1 + index % 5, value)
        if styled:
            cell.font = BODY
        if linked:
            cell.hyperlink = Hyperlink(ref=cell.coordinate, location="'Sheet'!A1", display="x")
    assert saved_parts(book, plain=True) == saved_parts(book, plain=False)


def test_the_plain_rows_writer_keeps_row_looks_comments_and_openpyxl_cells():
    """Row heights and hidden rows, a row with no cells, comments, and a date among plain cells (written
    by openpyxl's own cell writer in the middle of a row)."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row in range(1, 6):
        sheet.cell(row, 1, f"row {row} & <more>").font = BODY
        sheet.cell(row, 2, datetime(2024, 5, row))
        sheet.cell(row, 3, row * 1.5)
    sheet.row_dimensions[2].height = 30
    sheet.row_dimensions[3].hidden = True
    sheet.row_dimensions[9].height = 12  # no cell in it
    sheet["C4"].comment = Comment("a note", "GM")
    assert saved_parts(book, plain=True) == saved_parts(book, plain=False)


def styled_book(shared: bool) -> openpyxl.Workbook:
    book = openpyxl.Workbook()
    if shared:
        share_styles(book)
    sheet = book.active
    looks = [
        BODY,
        font(bold=True),
        Font(name="Arial", size=10),  # equal to BODY, another object
        fill("FFF3C4"),
        PatternFill("solid", start_color="FFF3C4", end_color="FFF3C4"),
        GRID,
        Alignment(wrap_text=True),
        Protection(locked=False),
    ]
    for row in range(1, 40):
        for column, look in enumerate(looks, start=1):
            cell = sheet.cell(row, column, row * column)
            attribute = {
                Font: "font",
                PatternFill: "fill",
                type(GRID): "border",
                Alignment: "alignment",
                Protection: "protection",
            }[type(look)]
            setattr(cell, attribute, look if (row + column) % 3 else copy.copy(look))
    return book


def test_shared_styles_save_the_same_bytes():
    assert saved_parts(styled_book(shared=True), plain=False) == saved_parts(
        styled_book(shared=False), plain=False
    )


def test_the_plain_rows_writer_gives_every_look_its_style_id():
    """Style ids found by the style arrays' bytes: equal looks, copies and all-zero arrays."""
    book = styled_book(shared=True)
    book.active.cell(50, 1, "no look")._style = StyleArray()  # an array of zeros: no s attribute
    twin = styled_book(shared=True)
    twin.active.cell(50, 1, "no look")
    assert saved_parts(book, plain=True) == saved_parts(twin, plain=False)


def test_the_parts_archive_holds_the_parts_a_saved_zip_holds():
    """workbook_parts saves into a PartsArchive: the parts, in order, of the file book.save writes
    (but for the fixed modification time, and the print titles placed after the print areas)."""
    rules = load_folder(tables_dir() / "spelljammer")
    for macro in (False, True):
        parts = workbook.workbook_parts(build_workbook(rules, macro=macro))
        raw = io.BytesIO()
        saved = build_workbook(rules, macro=macro)
        for key, value in (("creator", "pycalc build.py"), ("lastModifiedBy", "pycalc build.py")):
            setattr(saved.properties, key, value)
        saved.properties.created = workbook.FIXED_DATE
        with plain_cell_writer():
            saved.save(raw)
        zipped = workbook.parts_of(raw.getvalue())
        zipped["xl/workbook.xml"] = print_titles_last(zipped["xl/workbook.xml"])
        assert list(parts) == list(zipped)
        assert {name: part for name, part in parts.items() if name != "docProps/core.xml"} == {
            name: part for name, part in zipped.items() if name != "docProps/core.xml"
        }


def test_fast_cells_build_the_same_bytes(monkeypatch):
    """A workbook built with fast_cells (openpyxl's cell look-up and style assignment swapped for
    shorter ones) saves the bytes openpyxl's own give."""
    rules = load_folder(tables_dir() / "spelljammer")
    fast = workbook_bytes(build_workbook(rules))
    monkeypatch.setattr(workbook, "fast_cells", contextlib.nullcontext)
    assert workbook_bytes(build_workbook(rules)) == fast


def test_fast_cells_are_put_back():
    with fast_cells():
        pass
    assert Worksheet._get_cell is not get_cell and StyleDescriptor.__set__ is not set_style
    assert MergedCellRange.format is not format_merged


def merged_book() -> openpyxl.Workbook:
    """Merged ranges over bordered, protected, empty and missing cells, one range inside a border."""
    book = share_styles(openpyxl.Workbook())
    sheet = book.active
    sheet["A1"].border, sheet["A1"].protection = GRID, Protection(locked=False)
    sheet["C3"].border = Border(right=Side(style="thick"), bottom=Side(style="thin"))
    sheet["B6"].value = "kept"
    sheet["D6"].border = GRID
    for reference in ("A1:C3", "B5:E5", "B6:D8", "F1:F4", "G7:G7"):
        sheet.merge_cells(reference)
    return book


def test_merging_with_fast_cells_saves_what_openpyxl_saves():
    with fast_cells():
        fast = saved_parts(merged_book(), plain=False)
    assert fast == saved_parts(merged_book(), plain=False)
