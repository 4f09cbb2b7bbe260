"""What a GM reads is written for a GM (issue 11): no YAML id, file name, seed file or defined name in any
label, note, help, comment, dropdown message, header or footer of a visible sheet, in the tables'
cells (labels, text columns and columns naming other rows: the ids the formulas match on live on a
hidden sheet), in the text a formula can show, in a sheet's title, or in the printed reference PDF.
Booleans read TRUE/FALSE wherever they are shown. Hidden columns and formulas themselves are not text
to read; dice such as 1d8 and words such as "non-lethal" are not ids."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.calculator import BOOLEAN_FORMAT
from pycalc.sheets.gm_text import readable
from pycalc.tables import RULESET_IDS, load_ruleset

FORBIDDEN = re.compile(
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case ids
    r"|\.yaml\b|shared/seeds|tables/[a-z]|\b\d{3}_[0-9a-f]{16}\.txt\b"  # file names and paths
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\bInput [A-Z_]+"  # defined names such as STRIKE_ROLL
)
LITERAL = re.compile(r'"((?:[^"]|"")*)"')
WORKBOOK = Path(__file__).resolve().parent.parent / "workbook"


def shown_literals(formula: str) -> list[str]:
    """The text a formula can show: its string literals with a space in them (a one-word literal is
    an id or a value the formula compares with, never shown as a sentence)."""
    return [text for text in LITERAL.findall(formula) if " " in text]


def texts_a_gm_reads(book: openpyxl.Workbook) -> list[tuple[str, str]]:
    found = [("sheet title", sheet.title) for sheet in book.worksheets if sheet.sheet_state == "visible"]
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        hidden = hidden_columns(sheet)
        for row in sheet.iter_rows():
            for cell in row:
                where = f"{sheet.title}!{cell.coordinate}"
                if cell.comment is not None:
                    found.append((where + " comment", cell.comment.text))
                value = cell.value
                if not isinstance(value, str) or get_column_letter(cell.column) in hidden:
                    continue
                if value.startswith("="):
                    found += [(where + " formula text", text) for text in shown_literals(value)]
                else:
                    found.append((where, value))
        for check in sheet.data_validations.dataValidation:
            found += [
                (f"{sheet.title} validation", text or "")
                for text in (check.prompt, check.error, check.promptTitle, check.errorTitle)
            ]
        for part in (
            sheet.oddHeader.left,
            sheet.oddHeader.right,
            sheet.oddFooter.left,
            sheet.oddFooter.right,
        ):
            found.append((f"{sheet.title} header/footer", part.text or ""))
    return found


def hidden_columns(sheet: Worksheet) -> set[str]:
    return {letter for letter, dimension in sheet.column_dimensions.items() if dimension.hidden}


def cached_texts(path: Path) -> list[tuple[str, str]]:
    """The text the visible cells show at the workbook's inputs (formula cells: their cached values)."""
    book = openpyxl.load_workbook(path, data_only=True)
    return [
        (f"{sheet.title}!{cell.coordinate} value", cell.value)
        for sheet in book.worksheets
        if sheet.sheet_state == "visible"
        for hidden in [hidden_columns(sheet)]
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and get_column_letter(cell.column) not in hidden
    ]


def offending(texts: list[tuple[str, str]]) -> list[str]:
    return [
        f"{where}: {match.group(0)!r} in {text[:80]!r}"
        for where, text in texts
        for match in [FORBIDDEN.search(text)]
        if match
    ]


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_no_id_file_name_or_defined_name_reaches_the_gm(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    for suffix in ("xlsx", "xlsm"):
        path = build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}"
        found = offending(texts_a_gm_reads(openpyxl.load_workbook(path)) + cached_texts(path))
        assert not found, found[:15]


def test_the_scan_finds_what_it_looks_for():
    texts = [
        ("a", "Damage (ruling stumble_penalty_scope)"),
        ("b", "see maneuvers.yaml"),
        ("c", "fill tables/osr fumble_table"),
        ("d", "Input STRIKE_ROLL"),
        ("e", "shared/seeds/003_abb45db44eb0a0ba.txt"),
    ]
    assert [line[0] for line in offending(texts)] == list("abcde")
    assert not offending([("f", "Weapon damage (e.g. 1d8+2); non-lethal, 2d6 x 10 ft")])
    assert shown_literals('=IF(A1="fails","see the .xlsm (kill_chance)",MATCH("hit_margin_min",X,0))') == [
        "see the .xlsm (kill_chance)"
    ]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_printed_reference_names_no_id(ruleset_id: str):
    """The shipped reference PDF (build.py prints it) reads like the workbook: no id, file or path."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is needed")
    pdf = WORKBOOK / f"{ruleset_id}-reference.pdf"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    found = offending([(f"{pdf.name} line {n}", line) for n, line in enumerate(text.splitlines(), 1)])
    assert not found, found[:15]
    assert "TRUE" in text or "FALSE" in text  # booleans print as they show in the window


BOOLEAN_FORMULA = re.compile(r"=(?:AND|OR|NOT)\(|=INDEX\((T_[A-Z0-9_]+),")


def boolean_ranges(book: openpyxl.Workbook) -> set[str]:
    """The defined names over table cells that are all TRUE/FALSE."""
    names = set()
    for name, defined in book.defined_names.items():
        cells = [
            cell.value
            for title, reference in defined.destinations
            if title in book.sheetnames and ":" in reference
            for row in book[title][reference.replace("$", "")]
            for cell in row
            if cell.value is not None
        ]
        if cells and all(isinstance(value, bool) for value in cells):
            names.add(name)
    return names


def gives_true_or_false(formula: str, booleans: set[str]) -> bool:
    """AND/OR/NOT, or a look-up into a TRUE/FALSE column of a table."""
    match = BOOLEAN_FORMULA.match(formula)
    return match is not None and (match.group(1) is None or match.group(1) in booleans)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_boolean_reads_true_or_false(ruleset_id: str, build_ruleset: Callable[[str], Path]):
    """A formula that gives TRUE/FALSE carries the TRUE/FALSE format, as the input boxes do: LibreOffice
    would otherwise show a look-up into a TRUE/FALSE column as 1 or 0, where Excel and the printed PDF
    show TRUE."""
    path = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    values = openpyxl.load_workbook(path, data_only=True)
    book = openpyxl.load_workbook(path)
    booleans = boolean_ranges(book)
    checked, numeric = 0, []
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible" or sheet.title.endswith(" tables"):
            continue
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type != "f":
                    continue
                cached = values[sheet.title][cell.coordinate].value
                if isinstance(cached, bool) or gives_true_or_false(str(cell.value), booleans):
                    checked += 1
                    if cell.number_format != BOOLEAN_FORMAT:
                        label = sheet.cell(cell.row, max(cell.column - 1, 1)).value
                        numeric.append(f"{sheet.title}!{cell.coordinate} ({label})")
    assert checked
    assert not numeric, numeric


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_workbook_opens_on_its_calculator(ruleset_id: str, build_ruleset: Callable[[str], Path]):
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    assert book.active.title == ("Strike calculator" if ruleset_id == "spelljammer" else "Attack calculator")


def test_ids_are_rewritten_as_the_names_a_gm_sees():
    rules = load_ruleset("combat17")
    assert readable("Damage (ruling stumble_penalty_scope)", rules) == (
        f"Damage (ruling “{rules.rulings['stumble_penalty_scope'].label}”)"
    )
    assert readable("see maneuvers.yaml", rules) == "see the Maneuvers tables sheet"
    assert readable("as in target_conditions", rules) == f"as in “{rules.table('target_conditions').title}”"
    assert readable("choice not_combined", rules) == "choice not combined"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_contents_line_says_what_the_sheet_is_for(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    contents = book["Contents"]
    listed = {
        row[0].value: row[1].value for row in contents.iter_rows(min_row=7, max_col=2) if row[0].hyperlink
    }
    visible = {s.title for s in book.worksheets if s.sheet_state == "visible"} - {"Contents"}
    assert set(listed) == visible
    purposes = (
        "Resolve one attack",
        "Calculators: ",
        "Tables: ",
        "Printable odds",
        "Where the seed is ambiguous",
        "Run a whole fight",
        "The fight on one printed page",
        "Log the attacks",
        "Your creature library",
    )
    for title, purpose in listed.items():
        assert str(purpose).startswith(purposes), (title, purpose)
    rules = load_ruleset(ruleset_id)
    tables = " ".join(str(p) for p in listed.values())
    for table in rules.tables.values():
        assert readable(table.title, rules) in tables, table.title
