"""Printing: every sheet set up for paper, and the PDFs LibreOffice makes of them (issue: cheat sheets)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

import build
from pycalc.libreoffice import convert
from pycalc.sheets.fight_record import SHEET as FIGHT_RECORD
from pycalc.sheets.gm_text import readable, shown_text
from pycalc.tables import RULESET_IDS, load_ruleset
from tests.conftest import require_libreoffice
from tests.pdf_words import pdf_pages, pieces
from tests.test_encounter_parity import random_fight, sheet_inputs
from tests.test_readable_text import offending

A4_WIDTH, LETTER_WIDTH = 595, 612


@pytest.fixture(scope="module")
def pdfs(build_printed: Callable[[str], Path]) -> Path:
    require_libreoffice()
    return build_printed("spelljammer")


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def page_widths(path: Path) -> list[int]:
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "999", str(path)], capture_output=True, text=True, check=True
    ).stdout
    return [
        round(float(line.split()[3]))
        for line in info.splitlines()
        if line.startswith("Page") and "size:" in line
    ]


def test_every_visible_sheet_prints_one_page_wide_with_header_and_footer(built: Path):
    book = openpyxl.load_workbook(built / "spelljammer.xlsx")
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        assert sheet.print_area, sheet.title
        one_page = sheet.title == FIGHT_RECORD  # the fight on one page: one page tall too, portrait
        assert sheet.page_setup.fitToWidth == 1, sheet.title
        library = sheet.title == "Creatures"  # a library to fill by hand: one page tall too
        assert sheet.page_setup.fitToHeight == (1 if one_page or library else 0), sheet.title
        if one_page:
            assert sheet.page_setup.orientation == "portrait"
        assert sheet.sheet_properties.pageSetUpPr.fitToPage
        assert sheet.oddFooter.right.text == "Page &P of &N"
        assert sheet.oddFooter.left.text.startswith("Tables ")
        assert sheet.oddHeader.left.text == "Spelljammer d100 strike chance"
    assert book["Strike calculator"].freeze_panes == "A4"


def test_the_fight_record_prints_on_one_page(pdfs: Path):
    pages = pdf_text(pdfs / "spelljammer-reference.pdf").split("\f")
    headed = [p for p in pages if p.strip() and p.strip().splitlines()[0].rstrip().endswith(FIGHT_RECORD)]
    assert len(headed) == 1
    assert "Acting order" in headed[0] and "Attack log" in headed[0]


def test_reference_pdf_has_every_table_and_no_column_cut_off(pdfs: Path):
    reference = pdfs / "spelljammer-reference.pdf"
    assert set(page_widths(reference)) <= {A4_WIDTH, 842}  # A4 portrait or landscape
    text = " ".join(pdf_text(reference).split())
    for table in load_ruleset("spelljammer").tables.values():
        assert " ".join(table.title.split()) in text, table.title
        # the last column of every table is on the page: the source of its first row
        assert f"§ {table.rows[0].section}"[:30] in text, table.id
    for title in ("Chance to hit", "In one line", "Spell goes off on initiative", "Rulings in force"):
        assert title in text


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_rulesets_pdfs_are_readable_and_nothing_is_cut_off(
    ruleset_id: str, build_printed: Callable[[str], Path]
):
    require_libreoffice()
    out = build_printed(ruleset_id)
    reference = " ".join(pdf_text(out / f"{ruleset_id}-reference.pdf").split())
    assert not offending([("reference PDF", reference)]), offending([("reference PDF", reference)])
    rules = load_ruleset(ruleset_id)
    for table in rules.tables.values():
        assert " ".join(readable(table.title, rules).split()) in reference, table.title
    printed = Counter(
        piece
        for _, page in pdf_pages(out / f"{ruleset_id}-reference.pdf")
        for word in page
        for piece in pieces(word.text)
    )
    book = openpyxl.load_workbook(out / f"{ruleset_id}.xlsx")
    written = Counter(
        piece
        for sheet in book.worksheets
        if sheet.sheet_state == "visible"
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
        and not cell.value.startswith("=")
        and not sheet.column_dimensions[get_column_letter(cell.column)].hidden
        for piece in pieces(shown_text(cell) or "")
    )
    missing = written - printed
    assert not missing, f"{ruleset_id}: cut off in the reference PDF: {sorted(missing)[:20]}"


def test_every_sheet_links_back_to_contents(built: Path):
    book = openpyxl.load_workbook(built / "spelljammer.xlsx")
    for sheet in book.worksheets:
        if sheet.sheet_state == "visible" and sheet.title != "Contents":
            links = [c.hyperlink.location for c in sheet[1] if c.hyperlink]
            assert "'Contents'!A1" in links, sheet.title
    contents = [c.hyperlink.location for row in book["Contents"].iter_rows() for c in row if c.hyperlink]
    assert "'Strike calculator'!A1" in contents and "'Odds SC x DEF'!A1" in contents
    assert book["Rulings"].print_title_rows == "$1:$4"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_print_titles_come_after_every_print_area(ruleset_id: str):
    """LibreOffice works out the pages of every sheet whose print area it has not read yet when it
    reads a sheet's print titles (about 0.1 s more to open bfrpg's workbook), so the titles come last,
    as Excel writes them."""
    for suffix in ("xlsx", "xlsm"):
        with zipfile.ZipFile(build.PROJECT_ROOT / "workbook" / f"{ruleset_id}.{suffix}") as archive:
            names = re.findall(
                r'<definedName name="_xlnm\.(Print_\w+)"', archive.read("xl/workbook.xml").decode()
            )
        assert "Print_Titles" in names, suffix
        assert names == sorted(names), suffix  # Print_Area before Print_Titles


def test_paper_size_is_a_build_option(tmp_path: Path):
    require_libreoffice()
    if not shutil.which("pdfinfo"):
        pytest.fail("pdfinfo (poppler-utils) is needed")
    assert (
        build.main(
            ["--ruleset", "spelljammer", "--out", str(tmp_path), "--pdf", "--paper", "letter", "--quiet"]
        )
        == 0
    )
    assert set(page_widths(tmp_path / "spelljammer-cheatsheet.pdf")) == {LETTER_WIDTH}
    assert set(page_widths(tmp_path / "spelljammer-screen.pdf")) == {792}  # Letter landscape


SMALLEST_ON_THE_RECORD = 7.0  # points: every word of a full fight's record, headers and footers too


@pytest.mark.timeout(600)  # one full fight entered and saved, then the workbook printed
def test_a_full_fights_record_prints_every_word_at_7_points_or_more(
    calc, build_ruleset: Callable[[str], Path], tmp_path: Path
):
    rules = load_ruleset("cnc")
    xlsx = build_ruleset("cnc") / "cnc.xlsx"
    fight = random_fight(rules, random.Random("fight-record-print"), full=True)
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    entered = {n: v for n, v in sheet_inputs(rules, fight).items() if n in present}
    calc.hard_recalculations(xlsx, [entered], ["ROSTER_NAME"], tmp_path / "fight.xlsx")
    (pdf,) = convert([tmp_path / "fight.xlsx"], tmp_path / "printed", "pdf")
    records = [words for _, words in pdf_pages(pdf) if "Acting" in {w.text for w in words}]
    assert len(records) == 1
    texts = [w.text for w in records[0]]
    assert any(t.startswith("+") for t in texts), "an area hit's target reads 'Goblin 1 +2'"
    assert "Fighter" in texts and len(texts) > 500  # a full page: 30 combatants, the last 60 attacks
    small = [(round(w.size, 1), w.text) for w in records[0] if w.size < SMALLEST_ON_THE_RECORD]
    assert not small, f"printed below {SMALLEST_ON_THE_RECORD} pt: {small[:10]}"
