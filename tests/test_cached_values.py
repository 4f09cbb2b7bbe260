"""Every formula cell carries its value at the workbook's inputs, so a preview that does not
recalculate (phone, Quick Look, mail) shows the default calculation, not an empty calculator."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

import build
import pycalc.udfs
from pycalc.libreoffice import ERROR_NAMES
from pycalc.sheets import cached_values
from pycalc.sheets.common import CHART_POINTS
from pycalc.sheets.ooxml.saved_xml import formula_cells_emptied
from pycalc.tables import RULESET_IDS
from tests.conftest import require_libreoffice

ERROR_TYPE = "e"


def formula_cells(path: Path) -> dict[tuple[str, str], str]:
    book = openpyxl.load_workbook(path, keep_vba=path.suffix == ".xlsm")
    return {
        (sheet.title, cell.coordinate): cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and cell.value.startswith("=")
    }


@pytest.fixture(scope="module", params=RULESET_IDS)
def ruleset_folder(request: pytest.FixtureRequest, build_ruleset: Callable[[str], Path]) -> tuple[str, Path]:
    require_libreoffice()
    return request.param, build_ruleset(request.param)


@pytest.mark.parametrize("suffix", ["xlsx", "xlsm"])
def test_every_formula_cell_carries_a_value_and_none_is_an_error(ruleset_folder, suffix):
    ruleset_id, folder = ruleset_folder
    path = folder / f"{ruleset_id}.{suffix}"
    formulas = formula_cells(path)
    values = cached_values.read_values(path.read_bytes())
    assert len(formulas) > 1000
    assert formulas.keys() == values.keys()
    chart_gaps = chart_points(path)  # #N/A on purpose: damage that cannot happen is not plotted
    shared = shared_parts(path)  # hidden parts of the log's rows, read only where they stand inline
    errors = {
        cell: text
        for cell, (kind, text) in values.items()
        if kind == ERROR_TYPE and not (cell in chart_gaps and text == "#N/A") and cell not in shared
    }
    assert not errors, f"error values at the default inputs: {list(errors.items())[:5]}"


def shared_parts(path: Path) -> set[tuple[str, str]]:
    """The cells of the parts the Encounter log's rows share (``LOG_SHARED_PARTS``): a MATCH of an
    empty row's name is #N/A there, as it was inline where an IF or IFERROR did not read it."""
    book = openpyxl.load_workbook(path)
    if "LOG_SHARED_PARTS" not in book.defined_names:
        return set()
    (title, ref), *_ = book.defined_names["LOG_SHARED_PARTS"].destinations
    return {(title, cell.coordinate) for row in book[title][ref.replace("$", "")] for cell in row}


def chart_points(path: Path) -> set[tuple[str, str]]:
    book = openpyxl.load_workbook(path)
    cells = set()
    for name in CHART_POINTS:
        for sheet_title, reference in book.defined_names[name].destinations:
            for row in book[sheet_title][reference.replace("$", "")]:
                cells |= {(sheet_title, cell.coordinate) for cell in row}
    return cells


def shown_by_label(path: Path, sheet_title: str) -> dict[object, object]:
    """What a viewer that reads cached values shows: each label -> the value beside it (the roll block
    has its inputs in columns A-B and its outputs in columns D-E)."""
    sheet = openpyxl.load_workbook(path, data_only=True)[sheet_title]
    return {
        sheet.cell(row, column).value: sheet.cell(row, column + 1).value
        for row in range(1, sheet.max_row + 1)
        for column in (1, 4)
    }


def test_a_preview_shows_the_default_calculation(built):
    shown = shown_by_label(built / "spelljammer.xlsx", "Strike calculator")
    assert shown["Roll this or less to hit (modified SC)"] == 72
    assert shown["Chance to hit"] == pytest.approx(0.72)
    assert shown["Chance of a critical"] == pytest.approx(0.07)


def test_cached_values_equal_a_live_libreoffice_recalculation(ruleset_folder, calc):
    """The values written at build time are what LibreOffice shows after recalculating on its own."""
    ruleset_id, folder = ruleset_folder
    path = folder / f"{ruleset_id}.xlsx"
    values = cached_values.read_values(path.read_bytes())
    cells = sorted(values)[:: max(1, len(values) // 400)]
    live = calc.evaluate_cells(path, cells)
    for cell, shown in zip(cells, live, strict=True):
        kind, text = values[cell]
        if kind == "n":
            assert shown == pytest.approx(float(text), rel=1e-12, abs=1e-12), cell
        elif kind == "b":
            assert shown in (1, 1.0, True) if text == "1" else shown in (0, 0.0, False), cell
        elif kind == ERROR_TYPE:
            assert isinstance(shown, str) and ERROR_NAMES.get(int(shown.removeprefix("#ERR:"))) == text, cell
        else:
            assert (shown or "") == text, cell


UDF_CALL = re.compile(r"^=(?P<name>[a-z0-9_]+)\((?P<args>[^()]*)\)$")


def argument_value(text: str, named: dict[str, object], sheet=None) -> object:
    """One argument of a plain UDF call: a literal, a defined name, a cell of the call's own sheet
    (an Encounter log row), or names added together."""
    if text.startswith('"'):
        return text.strip('"')
    if text in ("TRUE", "FALSE"):
        return text == "TRUE"
    if re.fullmatch(r"-?[0-9.]+", text):
        return float(text)

    def one(part: str) -> object:
        if sheet is not None and re.fullmatch(r"\$?[A-Z]+\$?[0-9]+", part):
            found = sheet[part.replace("$", "")]
            return "" if found.value is None and found.data_type == "s" else found.value
        return named[part]

    parts = [one(part) for part in text.split("+")]
    return parts[0] if len(parts) == 1 else sum(float(part or 0) for part in parts)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_xlsm_udf_cells_carry_what_the_udf_returns_at_the_defaults(ruleset_id, build_ruleset):
    """The .xlsm takes its values from the .xlsx: for every plain UDF call, the UDF agrees."""
    require_libreoffice()
    path = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsm"
    book = openpyxl.load_workbook(path, keep_vba=True, data_only=True)
    named = {}
    for name, definition in book.defined_names.items():
        destinations = list(definition.destinations)
        if len(destinations) == 1 and ":" not in destinations[0][1]:
            sheet, ref = destinations[0]
            named[name] = book[sheet][ref.replace("$", "")].value
    checked = 0
    for (sheet, ref), formula in formula_cells(path).items():
        call = UDF_CALL.match(formula)
        if not call or not hasattr(pycalc.udfs, call["name"]):
            continue
        args = [argument_value(arg, named, book[sheet]) for arg in call["args"].split(",")]
        expected = getattr(pycalc.udfs, call["name"])(*args)
        shown = book[sheet][ref].value
        shown = "" if shown is None else shown  # openpyxl reads an empty text result as None
        if isinstance(expected, float):
            assert shown == pytest.approx(expected, rel=1e-12), f"{sheet}!{ref} {formula}"
        else:
            assert shown == expected, f"{sheet}!{ref} {formula}"
        checked += 1
    # the Attack calculators have no UDF; combat17's other calculators one plain call (the rest inside
    # larger formulas) since its critical damage calculator went, bfrpg's Combat maneuvers 3 since its
    # Critical, Two-weapon and Helpless calculators went
    assert checked >= {"combat17": 1, "bfrpg": 3}.get(ruleset_id, 4)


def test_a_rebuild_of_unchanged_tables_reuses_the_values_without_libreoffice(tmp_path, monkeypatch):
    require_libreoffice()
    assert build.main(["--ruleset", "spelljammer", "--out", str(tmp_path), "--quiet"]) == 0
    first = {path.name: path.read_bytes() for path in tmp_path.glob("spelljammer.xls*")}

    def no_libreoffice(files):
        raise AssertionError(f"recalculated {list(files)} although nothing changed")

    monkeypatch.setattr(cached_values, "recalculate", no_libreoffice)
    cached_values._known.clear()  # only the files on disk can supply the values now
    assert build.main(["--ruleset", "spelljammer", "--out", str(tmp_path), "--quiet"]) == 0
    assert {path.name: path.read_bytes() for path in tmp_path.glob("spelljammer.xls*")} == first


def test_a_kept_input_is_reflected_in_the_cached_values(tmp_path):
    require_libreoffice()
    assert build.main(["--ruleset", "spelljammer", "--out", str(tmp_path), "--quiet"]) == 0
    path = tmp_path / "spelljammer.xlsx"
    book = openpyxl.load_workbook(path)
    sheet_title, ref = next(iter(book.defined_names["STRIKE_SC"].destinations))
    book[sheet_title][ref.replace("$", "")] = 130  # the attacker's SC, a kept input
    book.save(path)
    assert build.main(["--ruleset", "spelljammer", "--out", str(tmp_path), "--quiet"]) == 0
    shown = shown_by_label(path, "Strike calculator")
    assert shown["Roll this or less to hit (modified SC)"] == 90  # 130 - 40 DEF


def test_values_go_in_and_come_out_without_changing_anything_else(built):
    data = (built / "spelljammer.xlsx").read_bytes()
    with zipfile.ZipFile(built / "spelljammer.xlsx") as book:
        part = book.read(cached_values.sheet_parts(book)["Strike calculator"])
    stripped = formula_cells_emptied(part)
    assert b"<v />" in stripped and stripped != part
    assert cached_values.content_key(data) == cached_values.content_key(
        cached_values.with_values(data, cached_values.read_values(data))
    )
    assert cached_values.number_text("0.72999999999999998") == "0.73"
    assert cached_values.number_text("12.0") == "12"
