"""Nothing cut off (issue 11): every text written into a visible sheet shows in full, measured with the
font's widths against Excel's narrower columns; the PDFs are checked word by word in test_printing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.cell.cell import Cell
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.fit import (
    column_widths,
    cut_off,
    font_of,
    merged_spans,
    text_fits,
    wrapped_line_count,
    written_text,
)
from pycalc.tables import RULESET_IDS


def cut_cells(workbook: Path, find: Callable[[Worksheet], list[Cell]], titled: str = "") -> list[str]:
    """The cells ``find`` reports on the visible sheets whose title starts with ``titled``."""
    book = openpyxl.load_workbook(workbook)
    return [
        f"{sheet.title}!{cell.coordinate}: {cell.value!r:.60}"
        for sheet in book.worksheets
        if sheet.sheet_state == "visible" and sheet.title.startswith(titled)
        for cell in find(sheet)
    ]


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_every_text_fits_its_cell_or_wraps_in_a_tall_enough_row(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    cut = cut_cells(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx", cut_off)
    assert not cut, cut[:20]


def test_the_measure_counts_wrapped_lines():
    assert wrapped_line_count("one line", 200, 10, False) == 1
    assert wrapped_line_count("word " * 40, 200, 10, False) > 3
    assert wrapped_line_count("first\nsecond", 200, 10, False) == 2


def across_the_freeze(sheet: Worksheet) -> list[Cell]:
    """Text left of a frozen column that runs on past it (merged over it, or spilling into it): the
    part past the freeze line scrolls away from the rest, so the GM sees it cut when scrolling."""
    if not sheet.freeze_panes:
        return []
    frozen = sheet[sheet.freeze_panes].column  # the first column that scrolls
    spans, points_of = merged_spans(sheet), column_widths(sheet)
    found = []
    for cell in list(sheet._cells.values()):
        text = written_text(cell)
        if text is None or cell.column >= frozen or spans.get((cell.row, cell.column), ()) is None:
            continue
        span = spans.get((cell.row, cell.column))
        room = sum(points_of(column) for column in range(cell.column, frozen))
        size, bold = font_of(cell)
        if (span is not None and span[1] >= frozen) or (
            not cell.alignment.wrap_text and not text_fits(text, room, size, bold)
        ):
            found.append(cell)
    return found


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_no_odds_title_or_header_runs_across_a_freeze_line(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    """The Odds sheets: each heat map carries its own title and header, so none is frozen."""
    cut = cut_cells(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx", across_the_freeze, "Odds")
    assert not cut, cut[:20]
