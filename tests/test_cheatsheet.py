"""The cheat sheet and the GM screen (issue 33): what a GM reads at arm's length, in the order a round is
played. The layout is checked for every ruleset, paper and form without an office; the printed PDFs
(LibreOffice) for blocks, initiative on page 1, the smallest word, the page count and every value."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from pycalc.sheets import cheatsheet
from pycalc.sheets.cheatsheet import (
    BLOCK_SIZE,
    BLOCK_TITLES,
    PORTRAIT_PANELS,
    SCREEN_PANELS,
    Layout,
    Shown,
    band_label,
    cheatsheet_tables,
    layout,
    wrapped_lines,
)
from pycalc.sheets.text_width import text_points
from pycalc.table_files import CHEATSHEET_BLOCKS, Row
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset
from pycalc.udfs.shared import d20_need
from tests.conftest import require_libreoffice
from tests.pdf_words import Word, pdf_drawings, pdf_pages, pieces, tight_spots
from tests.test_readable_text import offending

SMALLEST = 8.95  # points: every word on the page, body text at 9 pt (measured 9.00-9.01)
PAGE_HEIGHTS = {("a4", False): 842, ("a4", True): 595, ("letter", False): 792, ("letter", True): 612}
FIELD = re.compile(r"\{([a-z0-9_]+)(?:\.([a-z0-9_]+))?\}")
# blocks every ruleset's sheet has, and those its rules have
EVERY_RULESET = {"initiative", "attack", "situation", "hit_points", "conditions"}
OWN_BLOCKS = {  # cnc has no critical, fumble or natural-roll rule
    "spelljammer": {"stun", "results"},
    "osr": {"morale", "damage", "results"},
    "cnc": {"damage"},
    "bfrpg": {"damage", "results"},
    "combat17": {"damage", "results"},
}
REFERENCE_ONLY = {  # engine parameters and tables not looked up during a fight (issue 33)
    "cnc": {"natural_rolls", "monk_secondary_attack", "natural_healing", "situational_difficulty"},
    "osr": {"attack_matrix", "fumble_table"},
}


def laid_out(ruleset_id: str, paper: str, screen: bool) -> tuple[RuleSet, Layout]:
    rules = load_ruleset(ruleset_id)
    return rules, layout(rules, paper, SCREEN_PANELS if screen else PORTRAIT_PANELS)


def key(shown: Shown) -> tuple[str, str]:
    """A table and its parts continued in other panels share a key."""
    if shown.heading:
        return "heading", shown.block
    return shown.block, shown.table.id if shown.table else "grid"


@pytest.mark.parametrize("screen", [False, True], ids=["cheatsheet", "screen"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_two_pages_at_most_every_row_placed_once_nothing_overlaps(ruleset_id: str, paper: str, screen: bool):
    rules, laid = laid_out(ruleset_id, paper, screen)
    assert laid.pages <= 2, f"{ruleset_id} {paper}: {laid.pages} pages"
    wanted = cheatsheet_tables(rules, laid.paper)
    printed: dict[tuple[str, str], list[list[object]]] = defaultdict(list)
    for item in laid.placed:
        printed[key(item.shown)] += item.shown.rows
    assert {key(s): s.rows for s in wanted} == dict(printed)  # every row once, parts in order
    taken: set[tuple[int, int]] = set()
    for item in laid.placed:
        start = laid.paper.page_start(item.page)
        assert start <= item.row and item.row + item.shown.height <= start + laid.paper.capacity(item.page)
        assert item.first_column + item.shown.width - 1 <= laid.paper.columns_across
        cells = {
            (row, column)
            for row in range(item.row, item.row + item.shown.height)
            for column in range(item.first_column, item.first_column + item.shown.width)
        }
        assert not cells & taken, item.shown.title
        taken |= cells
    if screen:  # a table across a fold of the screen would read as two
        assert all(item.shown.width <= laid.paper.panel for item in laid.placed if not item.shown.heading)


@pytest.mark.parametrize("screen", [False, True], ids=["cheatsheet", "screen"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_text_fits_its_cell_in_the_lines_it_is_given(ruleset_id: str, screen: bool):
    """Measured with the font's own widths (checked against the PDF below): no text is cut."""
    _, laid = laid_out(ruleset_id, "a4", screen)
    for item in laid.placed:
        shown = item.shown
        if shown.title:
            assert wrapped_lines(shown.title, shown.width, cheatsheet.TITLE_SIZE, True) <= shown.title_lines
        if shown.rule:
            assert wrapped_lines(shown.rule, shown.width) <= shown.rule_lines
        for text, span in zip(shown.header, shown.spans if shown.header else [], strict=True):
            assert wrapped_lines(text, span, bold=True) <= shown.header_lines, (shown.title, text)
        for values, lines in zip(shown.rows, shown.row_lines, strict=True):
            for value, span in zip(values, shown.spans, strict=True):
                assert wrapped_lines(str(value), span) <= lines, (shown.title, value)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_blocks_follow_the_round_and_initiative_comes_first(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    shown = cheatsheet_tables(rules)
    blocks = [item.block for item in shown]
    assert blocks == sorted(blocks, key=CHEATSHEET_BLOCKS.index)
    assert blocks[0] == "initiative"
    assert EVERY_RULESET | OWN_BLOCKS.get(ruleset_id, set()) <= set(blocks)
    headings = [item.heading for item in shown if item.heading]
    assert headings == [BLOCK_TITLES[block] for block in dict.fromkeys(blocks)]  # one heading a block
    on_sheet = {item.table.id for item in shown if item.table}
    assert not on_sheet & REFERENCE_ONLY.get(ruleset_id, set())


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_table_of_dashes_no_id_and_no_seed(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    for shown in cheatsheet_tables(rules):
        texts = [shown.title, shown.rule, *shown.header, *(str(v) for row in shown.rows for v in row)]
        assert not offending([(shown.title, text) for text in texts])
        assert not any("seed" in text.lower() for text in texts), shown.title
        values = [v for row in shown.rows for v in row[1:]]
        assert shown.heading or shown.rule or any(v not in ("—", "no") for v in values), shown.title
        assert not any(isinstance(v, bool) for v in values)  # booleans read as words


def test_a_table_of_zeros_says_something_a_table_of_dashes_and_no_does_not():
    rules = load_ruleset("combat17")
    on_sheet = {s.table.id for s in cheatsheet_tables(rules) if s.table}
    assert rules.table("damage_rules").value("minimum_damage") == 0 and "damage_rules" in on_sheet
    assert not cheatsheet.has_values(load_ruleset("cnc").table("natural_rolls"))  # every cell "no"


def test_ranges_read_as_words():
    assert band_label(Row({}, "", 0, low=-9, high=-7)) == "\u22129 to \u22127"
    assert band_label(Row({}, "", 0, low=None, high=-10)) == "\u221210 or less"
    assert band_label(Row({}, "", 0, low=4, high=None)) == "4 or more"
    assert band_label(Row({}, "", 0, low=0, high=0)) == "0"
    rules = load_ruleset("cnc")
    states = next(s for s in cheatsheet_tables(rules) if s.table and s.table.id == "hit_point_states")
    assert [row[0] for row in states.rows][:3] == [
        "\u221210 or less",
        "\u22129 to \u22127",
        "\u22126 to \u22121",
    ]


def filled(rule: str, rules: RuleSet, table_id: str) -> str:
    """The rule with each field replaced by the YAML cell it names (as a GM reads a number)."""

    def cell(match: re.Match[str]) -> str:
        value = rules.table(table_id).value(match.group(1), match.group(2) or "value")
        return str(value).replace("-", "\u2212") if isinstance(value, int) else str(value)

    return FIELD.sub(cell, rule)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_rule_line_carries_the_yaml_values(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    ruled = [s for s in cheatsheet_tables(rules) if s.table and s.table.cheatsheet_rule]
    assert ruled
    for shown in ruled:
        assert shown.rule == filled(" ".join(shown.table.cheatsheet_rule.split()), rules, shown.table.id)
        assert "{" not in shown.rule


@pytest.mark.parametrize("ruleset_id", ["cnc", "combat17", "bfrpg"])
def test_the_d20_grid_is_the_number_the_engine_needs(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    grid = next(s for s in cheatsheet_tables(rules) if s.block == "attack" and s.rows and s.table is None)
    classes = [int(text.split()[1]) for text in grid.header[1:]]
    assert len(grid.rows) >= 5 and len(classes) >= 6
    for row in grid.rows:
        bonus = int(str(row[0]))
        assert row[1:] == [max(1, d20_need(ruleset_id, bonus, ac)) for ac in classes]


def test_an_attack_block_without_a_rule_prints_the_rulesets_sentence():
    rules = load_ruleset("osr")
    attack = [s for s in cheatsheet_tables(rules) if s.block == "attack" and not s.heading]
    assert attack[0].rule == rules.resolution and attack[0].table is None


def test_osr_has_no_grid_and_spelljammer_reads_its_strike_table():
    for ruleset_id in ("osr", "spelljammer"):
        shown = cheatsheet_tables(load_ruleset(ruleset_id))
        assert not [s for s in shown if s.block == "attack" and not s.table and s.rows]
    tables = [s.table.id for s in cheatsheet_tables(load_ruleset("spelljammer")) if s.table]
    assert tables.index("critical_grievous") < tables.index("stun_rules")


# --------------------------------------------------------------------------- the printed PDFs


def check_printed(pdf: Path, ruleset_id: str, paper: str, screen: bool) -> None:
    """What a GM gets on paper: two pages at most of the right size, no word under 9 pt, every block's
    heading larger than the body, initiative first on page 1, every title, header, rule and value of
    the layout printed in full (a clipped cell prints part of its text), no "seed" and no id."""
    _, laid = laid_out(ruleset_id, paper, screen)
    pages = pdf_pages(pdf)
    assert 1 <= len(pages) <= 2, f"{pdf.name}: {len(pages)} pages"
    assert len(pages) == laid.pages
    height = PAGE_HEIGHTS[(paper, screen)]  # portrait or landscape, A4 or Letter
    assert all(abs(page_height - height) < 1 for page_height, _ in pages)
    words = [word for _, page in pages for word in page]
    smallest = min(words, key=lambda word: word.size)
    assert smallest.size >= SMALLEST, f"{pdf.name}: {smallest} prints at {smallest.size:.2f} pt"
    headings = [word for word in pages[0][1] if abs(word.size - BLOCK_SIZE) < 0.3]
    first = min(headings, key=lambda word: (word.y0, word.x0))
    assert first.text == BLOCK_TITLES["initiative"], first
    text = " ".join(word.text for word in words)
    for block in {item.shown.block for item in laid.placed}:
        assert printed_in_size(BLOCK_TITLES[block], words, BLOCK_SIZE), block
    printed = Counter(piece for word in words for piece in pieces(word.text))
    wanted = Counter(
        piece
        for item in laid.placed
        for text_ in [item.shown.title, item.shown.rule, item.shown.heading, *item.shown.header]
        + [str(value) for row in item.shown.rows for value in row]
        for piece in pieces(text_)
    )
    missing = wanted - printed
    assert not missing, f"{pdf.name}: cut off or missing: {sorted(missing)[:20]}"
    assert "seed" not in text.lower()
    assert not offending([(pdf.name, text)])


def printed_in_size(title: str, words: list[Word], size: float) -> bool:
    sized = " ".join(word.text for word in words if abs(word.size - size) < 0.3)
    return title in sized


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_printed_cheatsheet_and_screen(ruleset_id: str, build_printed: Callable[[str], Path]):
    require_libreoffice()
    out = build_printed(ruleset_id)
    check_printed(out / f"{ruleset_id}-cheatsheet.pdf", ruleset_id, "a4", False)
    check_printed(out / f"{ruleset_id}-screen.pdf", ruleset_id, "a4", True)
    assert (out / f"{ruleset_id}-cheatsheet.png").stat().st_size > 10_000


def test_text_widths_match_what_libreoffice_prints(build_printed: Callable[[str], Path]):
    """The width table the layout measures with agrees with the PDF, word by word, within 3%."""
    require_libreoffice()
    checked = 0
    for _, page in pdf_pages(build_printed("spelljammer") / "spelljammer-cheatsheet.pdf"):
        for word in page:
            if abs(word.size - cheatsheet.BODY_SIZE) < 0.1 and len(word.text) >= 4:  # body and header text
                printed = word.x1 - word.x0
                measured = [text_points(word.text, cheatsheet.BODY_SIZE, bold) for bold in (False, True)]
                assert min(abs(printed - m) / m for m in measured) < 0.03, (word, measured)
                checked += 1
    assert checked > 200


def test_letter_paper_and_the_screen_option(tmp_path: Path):
    """``--screen`` prints the GM screen alone; on Letter both forms keep their two pages."""
    require_libreoffice()
    import build

    args = ["--ruleset", "osr", "--out", str(tmp_path), "--paper", "letter", "--quiet"]
    assert build.main([*args, "--screen"]) == 0
    assert not (tmp_path / "osr-cheatsheet.pdf").exists()
    check_printed(tmp_path / "osr-screen.pdf", "osr", "letter", True)
    assert build.main([*args, "--pdf"]) == 0
    check_printed(tmp_path / "osr-cheatsheet.pdf", "osr", "letter", False)


MIN_GAP = 1.5  # points of paper at least between a text's ink and a block's rule or the next block


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_text_touches_a_rule_or_the_next_block(ruleset_id: str, build_printed: Callable[[str], Path]):
    """On every page of the cheat sheet and the screen, A4 and Letter, as printed: no line of text
    comes within ``MIN_GAP`` of a block's rule, another block's text or a table's header below or
    above it (the ink of its glyphs, drawn by poppler; lines of one paragraph are 1.54 pt apart)."""
    require_libreoffice()
    out = build_printed(ruleset_id)
    for form in ("cheatsheet", "cheatsheet-letter", "screen", "screen-letter"):
        for number, page in enumerate(pdf_drawings(out / f"{ruleset_id}-{form}.pdf"), start=1):
            assert page.ink and page.rules, (form, number)
            spots = tight_spots(page, MIN_GAP)
            described = [(round(gap, 2), what, round(box.y1, 1)) for gap, what, box, _ in spots[:5]]
            assert not spots, f"{ruleset_id}-{form} page {number}: (gap, against, y) {described}"
