"""Printing: every sheet set up for paper, and the PDFs LibreOffice makes of them (issue: cheat sheets)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

import build
from pycalc.sheets.cheatsheet import cheatsheet_tables
from pycalc.tables import RULESET_IDS, load_ruleset
from tests.conftest import require_libreoffice

A4_WIDTH, LETTER_WIDTH = 595, 612


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_libreoffice()
    out = tmp_path_factory.mktemp("pdf")
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--pdf", "--quiet"]) == 0
    return out


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
        assert sheet.page_setup.fitToWidth == 1 and sheet.page_setup.fitToHeight == 0, sheet.title
        assert sheet.sheet_properties.pageSetUpPr.fitToPage
        assert sheet.oddFooter.right.text == "Page &P of &N"
        assert sheet.oddFooter.left.text.startswith("Tables ")
        assert sheet.oddHeader.left.text == "Spelljammer d100 strike chance"
    assert book["Strike calculator"].freeze_panes == "A4"


def test_cheatsheet_fits_two_pages_and_names_every_table(pdfs: Path):
    cheatsheet = pdfs / "spelljammer-cheatsheet.pdf"
    widths = page_widths(cheatsheet)
    assert 1 <= len(widths) <= 2 and set(widths) == {A4_WIDTH}
    text = " ".join(pdf_text(cheatsheet).split())
    for table in cheatsheet_tables(load_ruleset("spelljammer")):
        assert " ".join(table.title.split()) in text, table.title
    assert (pdfs / "spelljammer-cheatsheet.png").stat().st_size > 10_000


def test_reference_pdf_has_every_table_and_no_column_cut_off(pdfs: Path):
    reference = pdfs / "spelljammer-reference.pdf"
    assert set(page_widths(reference)) <= {A4_WIDTH, 842}  # A4 portrait or landscape
    text = " ".join(pdf_text(reference).split())
    for table in load_ruleset("spelljammer").tables.values():
        assert " ".join(table.title.split()) in text, table.title
        # the last column of every table is on the page: the source of its first row
        assert f"003 § {table.rows[0].section}"[:30] in text, table.id
    for heading in ("Chance to hit", "In one line", "Spell goes off on initiative", "Rulings in force"):
        assert heading in text


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_rulesets_cheatsheet_fits_two_pages_with_every_table(ruleset_id: str, tmp_path_factory):
    require_libreoffice()
    out = tmp_path_factory.mktemp(f"pdf-{ruleset_id}")
    assert build.main(["--ruleset", ruleset_id, "--out", str(out), "--pdf", "--quiet"]) == 0
    cheatsheet = out / f"{ruleset_id}-cheatsheet.pdf"
    assert 1 <= len(page_widths(cheatsheet)) <= 2
    text = " ".join(pdf_text(cheatsheet).split())
    for table in cheatsheet_tables(load_ruleset(ruleset_id)):
        assert " ".join(table.title.split()) in text, table.title
    reference = " ".join(pdf_text(out / f"{ruleset_id}-reference.pdf").split())
    for table in load_ruleset(ruleset_id).tables.values():
        assert " ".join(table.title.split()) in reference, table.title


def test_every_sheet_links_back_to_contents(built: Path):
    book = openpyxl.load_workbook(built / "spelljammer.xlsx")
    for sheet in book.worksheets:
        if sheet.sheet_state == "visible" and sheet.title != "Contents":
            links = [c.hyperlink.location for c in sheet[1] if c.hyperlink]
            assert "'Contents'!A1" in links, sheet.title
    contents = [c.hyperlink.location for row in book["Contents"].iter_rows() for c in row if c.hyperlink]
    assert "'Strike calculator'!A1" in contents and "'Odds SC x DEF'!A1" in contents
    assert book["Rulings"].print_title_rows == "$1:$4"


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
