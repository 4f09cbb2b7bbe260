"""The LibreOffice harness: soffice conversions and the UNO scenario evaluator."""

from __future__ import annotations

import os
import re
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName
from pytest import MonkeyPatch

from pycalc import libreoffice
from pycalc.libreoffice import CalcSession, LibreOfficeError, convert
from tests.conftest import require_libreoffice

SHEET = "Calc"
CELLS = {
    "IN_A": ("B2", 1),
    "IN_B": ("B3", 2),
    "IN_TEXT": ("B4", "x"),
    "OUT_SUM": ("B5", "=IN_A+IN_B"),
    "OUT_TEXT": ("B6", '=IF(IN_TEXT="x","yes","no")'),
    "OUT_BOOL": ("B7", "=IN_A>IN_B"),
    "OUT_ERR": ("B8", "=1/0"),
    "OUT_EMPTY": ("B9", None),
}
OUTPUTS = ["OUT_SUM", "OUT_TEXT", "OUT_BOOL", "OUT_ERR"]
DIV0 = "#ERR:532"


@pytest.fixture(scope="module", autouse=True)
def _libreoffice_required() -> None:
    require_libreoffice()


@pytest.fixture(scope="module")
def calc() -> Iterator[CalcSession]:
    with CalcSession() as session:
        yield session


def make_book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws["A1"] = "tiny harness book"
    for name, (ref, value) in CELLS.items():
        ws[f"A{ref[1:]}"] = name
        if value is not None:
            ws[ref] = value
        wb.defined_names[name] = DefinedName(name, attr_text=f"{SHEET}!${ref[0]}${ref[1:]}")
    wb.save(path)
    return path


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return make_book(tmp_path / "tiny.xlsx")


def expected(a: float, b: float, text: str) -> dict[str, float | str]:
    return {
        "OUT_SUM": float(a + b),
        "OUT_TEXT": "yes" if text == "x" else "no",
        "OUT_BOOL": 1.0 if a > b else 0.0,
        "OUT_ERR": DIV0,
    }


# -- CalcSession.evaluate ----------------------------------------------------------------------


def test_500_scenarios_give_the_right_answers(calc: CalcSession, book: Path) -> None:
    scenarios = [
        {"IN_A": i % 37 - 10, "IN_B": (i * 7) % 23 + 0.5, "IN_TEXT": "x" if i % 3 else "z"}
        for i in range(500)
    ]
    start = time.perf_counter()
    results = calc.evaluate(book, scenarios, OUTPUTS)
    elapsed = time.perf_counter() - start
    assert results == [expected(s["IN_A"], s["IN_B"], s["IN_TEXT"]) for s in scenarios]
    assert elapsed < 30, f"500 scenarios took {elapsed:.1f} s"


def test_outputs_of_the_saved_workbook(calc: CalcSession, book: Path) -> None:
    results = calc.evaluate(book, [{}], [*OUTPUTS, "OUT_EMPTY"])
    assert results == [{**expected(1, 2, "x"), "OUT_EMPTY": None}]


def test_text_results_are_strings(calc: CalcSession, book: Path) -> None:
    scenarios = [{"IN_TEXT": "x"}, {"IN_TEXT": "X "}, {"IN_TEXT": ""}]
    results = calc.evaluate(book, scenarios, ["OUT_TEXT"])
    assert results == [{"OUT_TEXT": "yes"}, {"OUT_TEXT": "no"}, {"OUT_TEXT": "no"}]


def test_comparison_results_come_back_as_one_or_zero(calc: CalcSession, book: Path) -> None:
    results = calc.evaluate(book, [{"IN_A": 5, "IN_B": 2}, {"IN_A": 2, "IN_B": 5}], ["OUT_BOOL"])
    assert results == [{"OUT_BOOL": 1.0}, {"OUT_BOOL": 0.0}]
    assert all(type(r["OUT_BOOL"]) is float for r in results)


def test_boolean_inputs_are_true_and_false(calc: CalcSession, book: Path) -> None:
    results = calc.evaluate(
        book, [{"IN_A": True, "IN_B": 0}, {"IN_A": False, "IN_B": True}], ["OUT_SUM", "OUT_BOOL"]
    )
    assert results == [{"OUT_SUM": 1.0, "OUT_BOOL": 1.0}, {"OUT_SUM": 1.0, "OUT_BOOL": 0.0}]


def test_none_empties_an_input(calc: CalcSession, book: Path) -> None:
    results = calc.evaluate(book, [{"IN_A": None, "IN_B": 4, "IN_TEXT": None}], OUTPUTS[:3])
    assert results == [{"OUT_SUM": 4.0, "OUT_TEXT": "no", "OUT_BOOL": 0.0}]


def test_error_cells_give_their_code(calc: CalcSession, book: Path) -> None:
    results = calc.evaluate(book, [{}, {"IN_A": "seven"}], ["OUT_ERR", "OUT_SUM"])
    assert results[0] == {"OUT_ERR": DIV0, "OUT_SUM": 3.0}
    assert results[1]["OUT_ERR"] == DIV0
    assert results[1]["OUT_SUM"] == "#ERR:519"  # "seven" + 2 is #VALUE!
    assert libreoffice.ERROR_NAMES[532] == "#DIV/0!"


def test_an_omitted_input_gets_its_saved_value_back(calc: CalcSession, book: Path) -> None:
    scenarios = [{"IN_A": 40, "IN_TEXT": "q"}, {"IN_B": 5}]
    results = calc.evaluate(book, scenarios, ["OUT_SUM", "OUT_TEXT"])
    assert results == [{"OUT_SUM": 42.0, "OUT_TEXT": "no"}, {"OUT_SUM": 6.0, "OUT_TEXT": "yes"}]


def test_an_input_held_over_from_the_scenario_before_keeps_its_entry(calc: CalcSession, book: Path) -> None:
    """The evaluator leaves an input alone when the scenario before gave it the same entry; one the
    scenario in between left out is back at its saved value, and is set again."""
    scenarios = [{"IN_A": 40}, {"IN_A": 40, "IN_B": 5}, {"IN_B": 5}, {"IN_A": 40, "IN_B": 5}, {"IN_A": 40}]
    results = calc.evaluate(book, scenarios, ["OUT_SUM"])
    assert [r["OUT_SUM"] for r in results] == [42.0, 45.0, 6.0, 45.0, 42.0]


def test_the_workbook_file_is_left_unchanged(calc: CalcSession, book: Path) -> None:
    before = book.read_bytes()
    calc.evaluate(book, [{"IN_A": 100}], ["OUT_SUM"])
    assert book.read_bytes() == before
    assert calc.evaluate(book, [{}], ["OUT_SUM"]) == [{"OUT_SUM": 3.0}]


def test_unknown_name_is_an_error_naming_it(calc: CalcSession, book: Path) -> None:
    with pytest.raises(LibreOfficeError, match="OUT_NOPE"):
        calc.evaluate(book, [{}], ["OUT_SUM", "OUT_NOPE"])
    with pytest.raises(LibreOfficeError, match="IN_NOPE"):
        calc.evaluate(book, [{"IN_NOPE": 1}], ["OUT_SUM"])
    assert calc.evaluate(book, [{}], ["OUT_SUM"]) == [{"OUT_SUM": 3.0}]


def test_missing_workbook_is_an_error(calc: CalcSession, tmp_path: Path) -> None:
    with pytest.raises(LibreOfficeError, match="no such workbook"):
        calc.evaluate(tmp_path / "absent.xlsx", [{}], ["OUT_SUM"])


def test_unsupported_input_value_is_refused(calc: CalcSession, book: Path) -> None:
    with pytest.raises(TypeError, match="IN_A"):
        calc.evaluate(book, [{"IN_A": [1, 2]}], ["OUT_SUM"])  # type: ignore[dict-item]


# -- CalcSession.evaluate_cells ----------------------------------------------------------------


def test_evaluate_cells_reads_sheet_cells(calc: CalcSession, book: Path) -> None:
    cells = [(SHEET, "B5"), (SHEET, "B6"), (SHEET, "B8"), (SHEET, "A2"), (SHEET, "C20")]
    assert calc.evaluate_cells(book, cells) == [3.0, "yes", DIV0, "IN_A", None]


def test_evaluate_cells_unknown_sheet_is_an_error(calc: CalcSession, book: Path) -> None:
    with pytest.raises(LibreOfficeError, match="Odds"):
        calc.evaluate_cells(book, [("Odds", "B7")])


def test_evaluate_cells_per_scenario_sets_the_inputs_then_reads(calc: CalcSession, book: Path) -> None:
    cells = [(SHEET, "B5"), (SHEET, "B6")]
    got = calc.evaluate_cells_per_scenario(book, [{"IN_A": 10}, {}, {"IN_TEXT": "y"}], cells)
    assert got == [[12.0, "yes"], [3.0, "yes"], [3.0, "no"]]


# -- CalcSession.formula_values ----------------------------------------------------------------


def test_formula_values_reads_every_formula_cell_per_scenario(calc: CalcSession, book: Path) -> None:
    first, second = calc.formula_values(book, [{}, {"IN_A": 5, "IN_TEXT": "y"}])
    assert set(first) == {SHEET}
    assert sorted(first[SHEET]) == [(4, 1, 3.0), (5, 1, "yes"), (6, 1, 0.0), (7, 1, DIV0)]
    assert sorted(second[SHEET]) == [(4, 1, 7.0), (5, 1, "no"), (6, 1, 1.0), (7, 1, DIV0)]


# -- CalcSession.evaluate_columns --------------------------------------------------------------


def column_book(path: Path) -> Path:
    """Named columns on rows 2-4: COL_A (A) and COL_B (B) side by side, COL_C (D) after a gap holding
    a formula; OUT_SUM (E) adds the three and the gap's formula, OUT_GAP (C) doubles COL_A."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    for row in range(2, 5):
        ws[f"A{row}"], ws[f"B{row}"], ws[f"D{row}"] = 1, 2, 3
        ws[f"C{row}"] = f"=2*A{row}"
        ws[f"E{row}"] = f"=A{row}+B{row}+C{row}+D{row}"
    for name, column in (("COL_A", "A"), ("COL_B", "B"), ("OUT_GAP", "C"), ("COL_C", "D"), ("OUT_SUM", "E")):
        wb.defined_names[name] = DefinedName(name, attr_text=f"{SHEET}!${column}$2:${column}$4")
    wb.save(path)
    return path


def test_named_columns_side_by_side_are_filled_as_one_by_one(calc: CalcSession, tmp_path: Path) -> None:
    book = column_book(tmp_path / "columns.xlsx")
    scenarios = [
        {"COL_A": ["1", "10", ""], "COL_B": ["2", "x", "5"], "COL_C": ["7", "0", "01"]},
        {"COL_B": ["4", "4", "4"], "COL_A": ["0", "1", "2"]},  # COL_C keeps what the last one typed
        {"COL_C": ["1", "1", "1"]},
    ]
    results = calc.evaluate_columns(book, scenarios, ["OUT_GAP", "OUT_SUM"])
    assert results == [
        {"OUT_GAP": [2.0, 20.0, 0.0], "OUT_SUM": [12.0, None, 6.0]},  # "x" + numbers: an error
        {"OUT_GAP": [0.0, 2.0, 4.0], "OUT_SUM": [11.0, 7.0, 11.0]},
        {"OUT_GAP": [0.0, 2.0, 4.0], "OUT_SUM": [5.0, 8.0, 11.0]},
    ]
    with pytest.raises(LibreOfficeError):
        calc.evaluate_columns(book, [{"COL_A": ["1", "2"], "COL_B": ["1", "2", "3"]}], ["OUT_SUM"])


def test_a_column_filled_again_with_what_it_holds_keeps_it(calc: CalcSession, tmp_path: Path) -> None:
    """The evaluator leaves a column alone when it already holds the entries a scenario gives it, and
    fills it when an earlier scenario changed it since."""
    book = column_book(tmp_path / "columns.xlsx")
    scenarios = [
        {"COL_A": ["1", "1", "1"]},
        {"COL_A": ["5", "5", "5"]},
        {"COL_A": ["1", "1", "1"], "COL_B": ["0", "0", "0"]},
        {"COL_B": ["0", "0", "0"]},
        {"COL_A": ["1", "1", "1"], "COL_B": ["0", "0", "0"]},
    ]
    results = calc.evaluate_columns(book, scenarios, ["OUT_GAP", "OUT_SUM"])
    assert [r["OUT_GAP"][0] for r in results] == [2.0, 10.0, 2.0, 2.0, 2.0]
    assert [r["OUT_SUM"][0] for r in results] == [8.0, 20.0, 6.0, 6.0, 6.0]


# -- session life cycle ------------------------------------------------------------------------


def test_two_sessions_side_by_side(book: Path) -> None:
    with CalcSession() as one, CalcSession() as two:
        assert one.port != two.port
        assert one._root != two._root
        roots = [one._root, two._root]
        assert one.evaluate(book, [{"IN_A": 10}], ["OUT_SUM"]) == [{"OUT_SUM": 12.0}]
        assert two.evaluate(book, [{"IN_B": 10}], ["OUT_SUM"]) == [{"OUT_SUM": 11.0}]
    assert not any(root.exists() for root in roots)


def test_close_ends_processes_and_deletes_profile(book: Path) -> None:
    session = CalcSession().start()
    procs = dict(session._procs)
    root = session._root
    assert root is not None and (root / "profile" / "user" / "registrymodifications.xcu").is_file()
    session.close()
    session.close()
    assert all(proc.poll() is not None for proc in procs.values())
    with pytest.raises(ProcessLookupError):
        os.killpg(procs["soffice"].pid, 0)
    assert not root.exists()


def test_close_after_an_error_inside_with(book: Path) -> None:
    with pytest.raises(ZeroDivisionError), CalcSession() as session:
        root = session._root
        1 / 0  # noqa: B018
    assert root is not None and not root.exists()


def _fake_soffice(tmp_path: Path, body: str, monkeypatch: MonkeyPatch) -> None:
    fake = tmp_path / "soffice"
    fake.write_text(f"#!/bin/sh\n{body}\n")
    fake.chmod(0o755)
    monkeypatch.setattr(libreoffice, "find_soffice", lambda: str(fake))


def test_soffice_dying_at_start_is_reported(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    _fake_soffice(tmp_path, "echo broken install >&2; exit 3", monkeypatch)
    with pytest.raises(LibreOfficeError, match=r"(?s)exited with code 3.*broken install"):
        CalcSession(startup_timeout=20).start()


def test_startup_timeout_is_reported(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    _fake_soffice(tmp_path, "exec sleep 60", monkeypatch)
    session = CalcSession(startup_timeout=1)
    start = time.monotonic()
    with pytest.raises(LibreOfficeError, match=r"127\.0\.0\.1"):
        session.start()
    assert time.monotonic() - start < 20
    assert not session.running


# -- convert -----------------------------------------------------------------------------------


def test_convert_to_xlsx_stores_computed_values(book: Path, tmp_path: Path) -> None:
    (out,) = convert([book], tmp_path / "out", "xlsx")
    assert out == tmp_path / "out" / "tiny.xlsx"
    ws = openpyxl.load_workbook(out, data_only=True)[SHEET]
    assert [ws[ref].value for ref in ("B5", "B6", "B7", "B8")] == [3, "yes", False, "#DIV/0!"]


def test_convert_recalculates_stale_cached_values(book: Path, tmp_path: Path) -> None:
    (first,) = convert([book], tmp_path / "first", "xlsx")
    stale = tmp_path / "stale.xlsx"
    with zipfile.ZipFile(first) as src, zipfile.ZipFile(stale, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                pattern = r'(<c r="B2"[^>]*>)<v>1</v>'
                text, count = re.subn(pattern, r"\g<1><v>10</v>", data.decode())
                assert count == 1
                data = text.encode()
            dst.writestr(item, data)
    cached = openpyxl.load_workbook(stale, data_only=True)[SHEET]
    assert (cached["B2"].value, cached["B5"].value) == (10, 3)  # the cache is now wrong
    (out,) = convert([stale], tmp_path / "second", "xlsx")
    ws = openpyxl.load_workbook(out, data_only=True)[SHEET]
    assert (ws["B5"].value, ws["B7"].value) == (12, True)


def test_convert_to_pdf_has_pages(book: Path, tmp_path: Path) -> None:
    (pdf,) = convert([book], tmp_path / "pdf", "pdf")
    assert pdf.suffix == ".pdf" and pdf.read_bytes().startswith(b"%PDF")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))  # type: ignore[union-attr]
    assert pages >= 1


def test_convert_many_files_in_one_call(tmp_path: Path) -> None:
    books = [make_book(tmp_path / f"book{i}.xlsx") for i in range(3)]
    outs = convert(books, tmp_path / "many", "xlsx")
    assert [p.name for p in outs] == ["book0.xlsx", "book1.xlsx", "book2.xlsx"]
    assert all(openpyxl.load_workbook(p, data_only=True)[SHEET]["B5"].value == 3 for p in outs)


def test_convert_failure_raises(tmp_path: Path) -> None:
    not_a_book = tmp_path / "junk.xlsx"
    not_a_book.write_bytes(b"\x00\x01 not a workbook")
    with pytest.raises(LibreOfficeError, match="did not write"):
        convert([not_a_book], tmp_path / "out", "nosuchformat")
    with pytest.raises(LibreOfficeError, match="no such file"):
        convert([tmp_path / "absent.xlsx"], tmp_path / "out", "pdf")


def test_a_fresh_profile_records_the_version_so_no_self_test_runs(book: Path, tmp_path: Path) -> None:
    """A profile without the version last run is one LibreOffice was upgraded into: every start runs
    its graphics self-test (about 0.5 s of CPU) and writes its log into the profile."""
    soffice = libreoffice.find_soffice() or "soffice"
    shown = subprocess.run([soffice, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert libreoffice.office_version() == ".".join(shown.split()[1].split(".")[:2])
    profile = tmp_path / "profile"
    subprocess.run(
        [
            soffice,
            "--headless",
            "--norestore",
            f"-env:UserInstallation={libreoffice._make_profile(profile)}",
            "--convert-to",
            "csv",
            "--outdir",
            str(tmp_path / "out"),
            str(book),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert (tmp_path / "out" / "tiny.csv").is_file()
    assert not (profile / "user" / "GraphicsRenderTests.log").exists()


def test_convert_refuses_to_overwrite_its_input(book: Path) -> None:
    with pytest.raises(ValueError, match="overwrite"):
        convert([book], book.parent, "xlsx")
