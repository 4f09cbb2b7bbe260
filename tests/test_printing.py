"""Printing: every sheet set up for paper, and the PDFs LibreOffice makes of them (issue: cheat sheets)."""

from __future__ import annotations

import html
import random
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

import build
from pycalc.libreoffice import convert
from pycalc.sheets.cheatsheet import (
    BOTTOM,
    GRID_COLUMNS,
    TITLE_SIZE,
    TOP,
    cheatsheet_tables,
    columns_needed,
    heading,
    place,
    rows_per_page,
    wrapped_lines,
)
from pycalc.sheets.fight_record import SHEET as FIGHT_RECORD
from pycalc.sheets.gm_text import readable, shown_text
from pycalc.sheets.text_width import text_points
from pycalc.tables import RULESET_IDS, load_ruleset
from tests.conftest import require_libreoffice
from tests.test_encounter_parity import random_fight, sheet_inputs
from tests.test_readable_text import offending

A4_WIDTH, LETTER_WIDTH = 595, 612
HEIGHT_PER_POINT = 1.3  # pdftotext boxes a word 1.299 times its font size tall (Liberation Sans, measured)
SMALLEST_PRINTED = 7.5  # points
PAGE_ONE_USED = 0.85
WORD = re.compile(
    r'<page width="([\d.]+)" height="([\d.]+)">'
    r'|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


@dataclass(frozen=True)
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def size(self) -> float:
        return (self.y1 - self.y0) / HEIGHT_PER_POINT


def pdf_pages(path: Path) -> list[tuple[float, list[Word]]]:
    """Each page's height and the words on it, with their boxes (pdftotext -bbox)."""
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True)
    pages: list[tuple[float, list[Word]]] = []
    for match in WORD.finditer(out.stdout):
        if match.group(2):
            pages.append((float(match.group(2)), []))
        else:
            x0, y0, x1, y1 = (float(match.group(i)) for i in range(3, 7))
            pages[-1][1].append(Word(x0, y0, x1, y1, html.unescape(match.group(7))))
    return pages


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
        assert sheet.page_setup.fitToHeight == (1 if one_page else 0), sheet.title
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


def test_cheatsheet_fits_two_pages_and_names_every_table(pdfs: Path):
    cheatsheet = pdfs / "spelljammer-cheatsheet.pdf"
    widths = page_widths(cheatsheet)
    assert 1 <= len(widths) <= 2 and set(widths) == {A4_WIDTH}
    assert (pdfs / "spelljammer-cheatsheet.png").stat().st_size > 10_000


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


def pieces(text: str) -> list[str]:
    """Words, split after hyphens too (where the office may wrap a line)."""
    return [piece for piece in re.split(r"\s+|(?<=-)(?=\S)", text) if piece]


def check_cheatsheet(pdf: Path, ruleset_id: str, paper: str) -> None:
    """What a GM needs of the printed cheat sheet: readable size, two pages at most, page 1 filled,
    the most used tables on page 1 and first, every title, header and value printed in full."""
    rules = load_ruleset(ruleset_id)
    shown = cheatsheet_tables(rules)
    pages = pdf_pages(pdf)
    assert 1 <= len(pages) <= 2, f"{ruleset_id}: {len(pages)} pages"
    words = [word for _, page in pages for word in page]
    smallest = min(words, key=lambda word: word.size)
    assert smallest.size >= SMALLEST_PRINTED, f"{ruleset_id}: {smallest} prints at {smallest.size:.2f} pt"
    height, first_page = pages[0]
    body = [word for word in first_page if word.y0 >= TOP * 72 and word.y1 <= height - BOTTOM * 72]
    used = (max(word.y1 for word in body) - TOP * 72) / (height - (TOP + BOTTOM) * 72)
    assert used >= PAGE_ONE_USED, f"{ruleset_id}: page 1 is {used:.0%} used"
    page_one = " ".join(word.text for word in first_page)
    text = " ".join(word.text for _, page in pages for word in page)
    for table in shown:
        assert " ".join(table.title.split()) in text, table.title
        if table.group in ("to_hit", "results"):
            assert " ".join(table.title.split()) in page_one, table.title
    titles = [word for word in body if abs(word.size - TITLE_SIZE) < 0.4]
    first_title = min(titles, key=lambda word: (word.y0, word.x0))
    assert shown[0].title.startswith(first_title.text), (first_title, shown[0].title)
    # a clipped cell prints only part of its text, "###" for a number
    printed = Counter(piece for word in words for piece in pieces(word.text))
    wanted = Counter(
        word
        for table in shown
        for values in [[table.title], table.header, *table.rows]
        for value in values
        for word in pieces(str(value))
    )
    missing = wanted - printed
    assert not missing, f"{ruleset_id}: cut off or missing: {sorted(missing)[:20]}"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_rulesets_pdfs_are_readable_and_nothing_is_cut_off(
    ruleset_id: str, build_printed: Callable[[str], Path]
):
    require_libreoffice()
    out = build_printed(ruleset_id)
    check_cheatsheet(out / f"{ruleset_id}-cheatsheet.pdf", ruleset_id, "a4")
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


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_cheatsheet_cell_fits_on_one_line(ruleset_id: str):
    """Measured with the font's own widths (checked against the PDF below): every value fits its cell,
    every body row is one line unless the table cannot be one line across the whole page."""
    for table in cheatsheet_tables(load_ruleset(ruleset_id)):
        for values in table.rows:
            for value, span in zip(values, table.spans, strict=True):
                assert wrapped_lines(str(value), span) <= table.body_lines, (table.table.id, value)
        for text, span in zip(table.header, table.spans, strict=True):
            assert wrapped_lines(text, span, bold=True) <= table.header_lines, (table.table.id, text)
        if table.body_lines > 1:
            assert sum(columns_needed(table.header, table.rows, 3, 1)) > GRID_COLUMNS, table.table.id


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_cheatsheet_is_laid_out_on_two_pages_at_most(ruleset_id: str, paper: str):
    rules = load_ruleset(ruleset_id)
    shown = cheatsheet_tables(rules)
    placed = place(shown, *rows_per_page(paper, sum(height for _, _, height in heading(rules))))
    assert max(item.page for item in placed) <= 1
    assert [item.shown for item in placed] == shown  # none lost


def test_text_widths_match_what_libreoffice_prints(pdfs: Path):
    """The width table the layout measures with agrees with the PDF, word by word, within 3%."""
    checked = 0
    for _, page in pdf_pages(pdfs / "spelljammer-cheatsheet.pdf"):
        for word in page:
            if 7.6 <= word.size <= 8.1 and len(word.text) >= 4:  # 8 pt body and header text
                printed = word.x1 - word.x0
                measured = [text_points(word.text, 8, bold) for bold in (False, True)]
                assert min(abs(printed - m) / m for m in measured) < 0.03, (word, measured)
                checked += 1
    assert checked > 200


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
    check_cheatsheet(tmp_path / "spelljammer-cheatsheet.pdf", "spelljammer", "letter")


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
