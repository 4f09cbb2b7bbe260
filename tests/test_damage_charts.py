"""The calculators' damage chart (issue 11): on the first screen, its axis spans the current dice's range
(only the damage that can happen is plotted), and a bad dice entry plots nothing. Recalculated in
LibreOffice, for every ruleset and the generic d20 workbook."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.libreoffice import CalcSession, Scalar
from pycalc.sheets.common import CALCULATOR_CHART_ANCHOR, CHART_ROWS
from pycalc.sheets.d20_picker_rows import BELOW_CHART
from pycalc.tables import RULESET_IDS

CALCULATORS = ("Attack calculator", "Strike calculator")
Point = tuple[float, float]


def chart_columns(book: openpyxl.Workbook) -> tuple[str, list[str], list[str]]:
    """The calculator's chart: its sheet's name and the cells of its x and y values."""
    sheet = next(book[title] for title in CALCULATORS if title in book.sheetnames)
    (series,) = sheet._charts[0].series
    columns = []
    for reference in (series.xVal.numRef.f, series.yVal.numRef.f):
        sheet_name, cells = reference.rsplit("!", 1)
        first, last = cells.replace("$", "").split(":")
        columns.append([c.coordinate for (c,) in book[sheet_name.strip("'")][f"{first}:{last}"]])
    return sheet_name.strip("'"), columns[0], columns[1]


def plotted(calc: CalcSession, xlsx: Path, book: openpyxl.Workbook, entries: list[str]) -> list[list[Point]]:
    """The (damage, chance) points the chart draws with the dice cell holding each entry in turn (the
    workbook loaded once in LibreOffice, the dice typed into its named cell entry by entry)."""
    data_sheet, xs, ys = chart_columns(book)
    scenarios: list[dict[str, Scalar]] = [{dice_name(book): dice} for dice in entries]
    found = calc.evaluate_cells_per_scenario(xlsx, scenarios, [(data_sheet, c) for c in xs + ys])
    return [
        [
            (x, y)
            for x, y in zip(values[: len(xs)], values[len(xs) :], strict=True)
            if isinstance(x, float) and isinstance(y, float)
        ]
        for values in found
    ]


def dice_name(book: openpyxl.Workbook) -> str:
    return "STRIKE_DICE" if "STRIKE_DICE" in book.defined_names else "ATTACK_DICE"


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_chart_spans_the_dice_and_a_bad_entry_plots_nothing(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession
):
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    book = openpyxl.load_workbook(xlsx)
    sheet = next(book[title] for title in CALCULATORS if title in book.sheetnames)
    anchor = sheet._charts[0].anchor._from
    top = anchor.row + 1
    # its usual row, or lower where the roll block's inputs reach it: osr's and bfrpg's Attacks this
    # round at row 18 (the chart hid its label until 43b6b79), combat17's at 19 (the DEX check's two rows)
    expected = {"osr": 19, "bfrpg": 19, "combat17": 20}.get(ruleset_id, int(CALCULATOR_CHART_ANCHOR[1:]))
    assert (top, anchor.col + 1) == (expected, 1)
    covered = [sheet.cell(row, col).value for row in range(top, top + CHART_ROWS) for col in (1, 2)]
    assert covered == [None] * len(covered), covered  # no label nor input under the chart
    assert ruleset_id == "spelljammer" or top + CHART_ROWS <= BELOW_CHART  # the typed numbers start under it
    points, bad_entry = plotted(calc, xlsx, book, ["1d8+4", "1d8+x"])
    damage = sorted(x for x, _ in points)
    assert 0 < len(points) <= 40, points
    assert {5.0, 12.0} <= set(damage), damage  # every hit's damage 5..12 can happen
    assert all(0 < chance <= 1 for _, chance in points)
    assert sum(chance for _, chance in points) == pytest.approx(1, abs=1e-9)
    assert max(damage) <= 2 * 12 + 12  # at most a doubled or maximised critical, not the grid's 0-192
    assert bad_entry == []
