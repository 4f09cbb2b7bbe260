"""The OOXML layer (``pycalc.sheets.ooxml``): each trick does on a saved file what openpyxl's public
interface does, and no module outside the layer reaches into openpyxl's private attributes.

The writer's, the shared styles' and the fast cells' tricks are checked byte for byte against
openpyxl's own code in ``tests/test_fast_writers.py``; the others here.
"""

from __future__ import annotations

import ast
import io
import re
import zipfile
from copy import copy
from importlib.metadata import version
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, Protection
from openpyxl.workbook.defined_name import DefinedName

import pycalc
from pycalc.sheets.ooxml import cells as ooxml_cells
from pycalc.sheets.ooxml.cells import (
    all_sheets,
    cells_and_values,
    cells_of,
    comment_of,
    has_drawings,
    has_rows,
    look_of,
    protection_id,
    restore_cell,
    set_formula,
    set_stored_value,
    stored_value,
    style_array_of,
    unlocked_protection_ids,
    use_styles_of,
)
from pycalc.sheets.ooxml.saved_xml import (
    cell_ending,
    fixed_modified_stamp,
    formula_cells_emptied,
    formula_cells_valued,
    print_titles_last,
    saved_cells,
    with_sheet_data,
    written_formula_values,
)
from pycalc.sheets.ooxml.writer import save_parts

PACKAGE = Path(pycalc.__file__).parent
LAYER = PACKAGE / "sheets" / "ooxml"
PINNED = re.compile(r'"openpyxl>=([0-9.]+),<([0-9.]+)"')


def saved(book: openpyxl.Workbook) -> dict[str, bytes]:
    data = io.BytesIO()
    book.save(data)
    with zipfile.ZipFile(data) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def sheet_part(book: openpyxl.Workbook) -> bytes:
    return saved(book)["xl/worksheets/sheet1.xml"]


def test_the_installed_openpyxl_is_in_the_pinned_range():
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    low, high = PINNED.search(pyproject).groups()  # type: ignore[union-attr]
    installed = tuple(int(part) for part in version("openpyxl").split(".")[:3])
    assert tuple(map(int, low.split("."))) <= installed < tuple(map(int, high.split(".")))


# --- cells: the private attributes, against openpyxl's public interface, on a saved file


def test_a_formula_set_without_checks_saves_as_cell_value_does():
    public, direct = openpyxl.Workbook(), openpyxl.Workbook()
    public.active["B2"].value = "=SUM(1,2)"
    set_formula(direct.active.cell(2, 2), "=SUM(1,2)")
    assert sheet_part(direct) == sheet_part(public)
    assert stored_value(direct.active["B2"]) == "=SUM(1,2)" and direct.active["B2"].data_type == "f"


def test_a_stored_value_is_kept_as_given():
    class Marked(str):
        pass

    book = openpyxl.Workbook()
    cell = book.active["A1"]
    cell.value = "text"  # openpyxl's checks and type, then the value kept as given (``dual.set_text``)
    set_stored_value(cell, Marked("text"))
    assert type(stored_value(cell)) is Marked  # cell.value = ... makes a plain str
    other = openpyxl.Workbook()
    other.active["A1"].value = "text"
    assert sheet_part(book) == sheet_part(other)


def test_cells_of_makes_no_cell_and_sees_every_made_one():
    book = openpyxl.Workbook()
    sheet = book.active
    assert not has_rows(sheet) and cells_of(sheet) == {}
    sheet["C4"].value = 1
    sheet.cell(2, 1)
    assert set(cells_of(sheet)) == {(4, 3), (2, 1)} and has_rows(sheet)
    assert [(place, value) for place, _, value in cells_and_values(sheet)] == [((4, 3), 1), ((2, 1), None)]
    for _, cell, _ in cells_and_values(sheet):  # the walk may make cells as it goes
        sheet.cell(cell.row + 10, 1)
    assert len(cells_of(sheet)) == 4


def test_looks_and_protections_are_read_as_the_style_proxies_give_them():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"].font = Font(size=14, bold=True)
    sheet["A2"].alignment = Alignment(wrap_text=True)
    sheet["A3"].protection = Protection(locked=False)
    sheet["A4"].value = "plain"
    for cell in (sheet["A1"], sheet["A2"], sheet["A3"], sheet["A4"]):
        assert cell.font == look_of(cell, "fonts", "fontId")
        assert cell.alignment == look_of(cell, "alignments", "alignmentId")
    unlocked = unlocked_protection_ids(book)
    assert protection_id(sheet["A3"]) in unlocked
    assert protection_id(sheet["A1"]) not in unlocked and protection_id(sheet["A1"]) is not None
    assert protection_id(sheet.cell(9, 9)) is None or protection_id(sheet.cell(9, 9)) not in unlocked
    reopened = openpyxl.load_workbook(io.BytesIO(save_bytes(book))).active
    assert reopened["A3"].protection.locked is False and reopened["A1"].protection.locked is True


def save_bytes(book: openpyxl.Workbook) -> bytes:
    data = io.BytesIO()
    book.save(data)
    return data.getvalue()


def test_a_restored_cell_saves_as_before():
    book, unchanged = openpyxl.Workbook(), openpyxl.Workbook()
    cell = book.active["B1"]
    cell.value, cell.font = 3, Font(italic=True)
    unchanged.active["B1"].value, unchanged.active["B1"].font = 3, Font(italic=True)
    kept = (stored_value(cell), cell.data_type, copy(style_array_of(cell)))  # (styling changes it in place)
    cell.value, cell.font = "changed", Font(bold=True)
    restore_cell(cell, *kept)
    assert sheet_part(book) == sheet_part(unchanged)


def test_comments_drawings_and_sheets_are_seen():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"].comment = Comment("note", "GM")
    assert comment_of(sheet["A1"]) is sheet["A1"].comment and comment_of(sheet["A2"]) is None
    assert not has_drawings(sheet)
    chart = BarChart()
    chart.add_data(Reference(sheet, min_col=1, min_row=1, max_row=2))
    sheet.add_chart(chart, "C3")
    assert has_drawings(sheet)
    charts = book.create_chartsheet("Chart")
    assert all_sheets(book) == [sheet, charts] and book.worksheets == [sheet]


def test_a_book_given_anothers_style_lists_saves_the_same_style_ids():
    first, second = openpyxl.Workbook(), openpyxl.Workbook()
    first.active["A1"].font = Font(bold=True)
    use_styles_of(second, first)
    second.active["A1"].font = Font(size=20)
    first.active["A2"].font = Font(size=20)
    assert style_array_of(second.active["A1"]) == style_array_of(first.active["A2"])
    assert saved(first)["xl/styles.xml"] == saved(second)["xl/styles.xml"]


# --- saved_xml: edits by pattern, on saved parts


def test_the_modification_stamp_is_fixed():
    book = openpyxl.Workbook()
    core = saved(book)["docProps/core.xml"]
    assert re.search(rb"<dcterms:modified[^>]*>2\d{3}-", core)
    fixed = fixed_modified_stamp(core)
    assert b">2000-01-01T00:00:00Z</dcterms:modified>" in fixed
    assert fixed.replace(b"2000-01-01T00:00:00Z", b"") == re.sub(
        rb"(<dcterms:modified[^>]*>)[^<]*", rb"\1", core
    )


def test_print_titles_come_after_every_print_area_and_read_back_the_same():
    book = openpyxl.Workbook()
    first = book.active
    first.title = "One"
    second = book.create_sheet("Two")
    for sheet in (first, second):
        sheet["A1"], sheet["A5"] = "head", "body"
        sheet.print_title_rows = "1:1"
        sheet.print_area = "A1:B5"
    parts = saved(book)
    moved = print_titles_last(parts["xl/workbook.xml"])
    names = re.findall(rb'<definedName name="([^"]+)"', moved)
    assert names == [b"_xlnm.Print_Area", b"_xlnm.Print_Area", b"_xlnm.Print_Titles", b"_xlnm.Print_Titles"]
    assert sorted(names) == sorted(re.findall(rb'<definedName name="([^"]+)"', parts["xl/workbook.xml"]))
    reread = openpyxl.load_workbook(io.BytesIO(rezipped(parts, {"xl/workbook.xml": moved})))
    for title in ("One", "Two"):
        assert reread[title].print_title_rows in ("1:1", "$1:$1")
        assert reread[title].print_area.endswith("$A$1:$B$5")


def rezipped(parts: dict[str, bytes], changed: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, changed.get(name, part))
    return out.getvalue()


def test_sheet_data_is_swapped_whole():
    book = openpyxl.Workbook()
    book.active["A1"] = 1
    other = openpyxl.Workbook()
    other.active["A1"], other.active["B2"] = "x", 2
    rows = re.search(rb"<sheetData>(.*)</sheetData>", sheet_part(other), re.S).group(1)  # type: ignore[union-attr]
    swapped = with_sheet_data(sheet_part(book), rows)
    assert swapped.replace(rows, b"") == re.sub(rb"(<sheetData>).*(</sheetData>)", rb"\1\2", sheet_part(book))
    reread = openpyxl.load_workbook(io.BytesIO(rezipped(saved(book), {"xl/worksheets/sheet1.xml": swapped})))
    assert reread.active["A1"].value == "x" and reread.active["B2"].value == 2


CACHED = st.one_of(
    st.integers(-1000, 1000).map(lambda n: ("n", str(n))),
    st.text(alphabet=st.sampled_from([*"ab <>&'\"", "é"]), min_size=1, max_size=6).map(
        lambda t: ("str", t)
    ),  # (an empty text is read back as no value)
    st.sampled_from([("b", "1"), ("b", "0"), ("e", "#DIV/0!")]),
)


def formula_book() -> dict[str, bytes]:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["A2"], sheet["B1"] = "=1+1", '="a"&"b"', 5
    sheet["A3"].value = "=A1*2"
    sheet["A3"].font = Font(bold=True)  # a styled formula cell: s="1"
    return saved(book)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["A1", "A2", "A3"]), CACHED, min_size=0, max_size=3))
def test_cached_values_are_written_read_back_and_removed(values: dict[str, tuple[str, str]]):
    """The values written into formula cells read back as written (by the pattern, and by openpyxl as
    any reader would), and removing them gives the part as openpyxl wrote it."""
    parts = formula_book()
    part = parts["xl/worksheets/sheet1.xml"]
    endings = {ref.encode(): cell_ending(kind, text) for ref, (kind, text) in values.items()}
    valued = formula_cells_valued(part, endings)
    found = {ref: (kind or "n", text) for ref, kind, text in written_formula_values(valued.decode())}
    assert found == values
    assert formula_cells_emptied(valued) == part
    assert formula_cells_emptied(part) is part  # nothing valued: handed back unsearched
    reread = openpyxl.load_workbook(
        io.BytesIO(rezipped(parts, {"xl/worksheets/sheet1.xml": valued})), data_only=True
    ).active
    for ref, (kind, text) in values.items():
        expected = {"n": int(text) if kind == "n" else None, "b": text == "1"}.get(kind, text)
        assert reread[ref].value == expected


def test_saved_cells_are_read_as_openpyxl_reads_them():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B1"], sheet["C1"], sheet["D1"] = 3, 2.5, "a <b> & c", True
    sheet["E1"], sheet["F1"] = "=A1+1", None
    sheet["F1"].font = Font(bold=True)  # an empty styled cell: <c r="F1" s="1"/>
    part = sheet_part(book)
    refs = {b"A1", b"B1", b"C1", b"D1", b"E1", b"F1", b"G1"}
    found = saved_cells(part, refs, [], ValueError)
    reread = openpyxl.load_workbook(io.BytesIO(save_bytes(book))).active
    for ref in refs - {b"G1"}:
        value, formula = found[ref]
        assert value == (None if ref == b"E1" else reread[ref.decode()].value)
        assert formula == (ref == b"E1")
    assert b"G1" not in found
    shared = saved_cells(b'<c r="A1" t="s"><v>1</v></c>', {b"A1"}, ["zero", "one"], ValueError)
    assert shared == {b"A1": ("one", False)}
    with pytest.raises(ValueError, match="A1"):
        saved_cells(b'<c r="A1" t="n"><v>1</v>', {b"A1"}, [], lambda ref: ValueError(ref.decode()))


def test_save_parts_holds_what_book_save_writes():
    book = openpyxl.Workbook()
    book.active["A1"] = "=1+2"
    book.defined_names["X"] = DefinedName("X", attr_text="Sheet!$A$1")
    parts = save_parts(book)
    on_disk = saved(book)
    assert list(parts) == list(on_disk)
    assert {name: part for name, part in parts.items() if name != "docProps/core.xml"} == {
        name: part for name, part in on_disk.items() if name != "docProps/core.xml"
    }


# --- the boundary: openpyxl's private attributes and private modules are used inside the layer only


def private_uses(source: str) -> list[str]:
    """Each ``<object>._name`` (not on ``self``/``cls``), ``getattr``/``setattr`` of a ``"_name"``, and
    each import of a private openpyxl or XML module or name (``openpyxl.x._y``, ``_escape_cdata``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
        modules = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [f"{node.module}.{alias.name}" for alias in node.names]
            if isinstance(node, ast.ImportFrom) and node.module
            else []
        )
        found += [
            f"import {name} (line {node.lineno})"
            for name in modules
            if name.startswith(("openpyxl", "xml")) and any(part.startswith("_") for part in name.split("."))
        ]
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("getattr", "setattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith("_")
            and not str(node.args[1].value).startswith("__")
        ):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def test_the_boundary_check_finds_private_uses():
    source = (
        "import openpyxl.worksheet._writer as w\n"
        "from openpyxl.cell import _writer\n"
        "from xml.etree.ElementTree import _escape_cdata\n"
        "value = cell._value\n"
        "sheet._cells.clear()\n"
        "x = getattr(book, '_fonts')\n"
        "self._own = 1\n"
        "name = cls.__name__\n"
    )
    assert len(private_uses(source)) == 6


def test_only_the_ooxml_layer_touches_openpyxl_internals():
    outside = {
        str(path.relative_to(PACKAGE.parent)): uses
        for path in sorted(PACKAGE.rglob("*.py"))
        if LAYER not in path.parents and (uses := private_uses(path.read_text()))
    }
    assert outside == {}, f"move these into pycalc/sheets/ooxml (see its __init__): {outside}"


def test_the_layer_says_what_each_of_its_modules_does():
    contract = (LAYER / "__init__.py").read_text()
    modules = {path.stem for path in LAYER.glob("*.py")} - {"__init__"}
    assert modules == {"cells", "styles", "fast_cells", "shared_formulas", "writer", "saved_xml"}
    for module in modules:
        assert f"``{module}``" in contract, module
    assert ooxml_cells.__doc__
