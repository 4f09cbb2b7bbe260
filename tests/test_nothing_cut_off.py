"""Nothing cut off (issue 11): every text written into a visible sheet shows in full, measured with the
font's widths against Excel's narrower columns; the PDFs are checked word by word in test_printing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.sheets.fit import cut_off, wrapped_line_count
from pycalc.tables import RULESET_IDS


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_every_text_fits_its_cell_or_wraps_in_a_tall_enough_row(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    cut = [
        f"{sheet.title}!{cell.coordinate}: {cell.value!r:.60}"
        for sheet in book.worksheets
        if sheet.sheet_state == "visible"
        for cell in cut_off(sheet)
    ]
    assert not cut, cut[:20]


def test_the_measure_counts_wrapped_lines():
    assert wrapped_line_count("one line", 200, 10, False) == 1
    assert wrapped_line_count("word " * 40, 200, 10, False) > 3
    assert wrapped_line_count("first\nsecond", 200, 10, False) == 2
