"""Shared formulas (pycalc.sheets.ooxml.shared_formulas): a run of formulas down a column is stored once, and
every cell reads back, worked out by another reader, as the formula the builder gave it."""

from __future__ import annotations

import io

import openpyxl
import pytest

from pycalc.sheets.ooxml.shared_formulas import formula_elements, formula_runs, row_template
from pycalc.sheets.workbook import build_workbook, workbook_parts, zipped
from pycalc.tables import load_folder, tables_dir


def column(formula: str, rows: range) -> list[tuple[int, str]]:
    """A column's formula cells: ``formula`` with {r} the row and {above} the row above."""
    return [(row, "=" + formula.format(r=row, above=row - 1)) for row in rows]


@pytest.mark.parametrize(
    "formula",
    [
        "$A{r}*2+B{r}-$C$5",  # relative rows (absolute column or not), an absolute cell
        "SUMIFS($D$3:$D{above},$E$3:$E{above},$E{r})",  # a span growing row by row
        'IF(F{r}="",0,T_ATTACKS_D20+LOG10(2))',  # names and calls ending in digits are no cells
        "'Attack calculator'!$B{r}&\"{{x}}\"",  # a sheet's name, braces in a text
        "B{above}+1",  # the row above
    ],
)
def test_a_filled_down_column_is_one_run(formula: str):
    cells = column(formula, range(3, 40))
    assert formula_runs(cells) == [(0, len(cells) - 1)]


@pytest.mark.parametrize(
    "formula",
    [
        "$A7*2",  # the same relative row on every row: moving the first down would change it
        '"A{r}"&A{r}',  # a text that changes with the row: moving a formula leaves texts as they are
        "SUM({r}:{r})",  # whole rows
    ],
)
def test_a_column_that_moving_the_first_formula_does_not_give_is_not_shared(formula: str):
    assert formula_runs(column(formula, range(3, 10))) == []


def test_runs_end_where_the_rows_stop_or_the_formula_changes():
    cells = column("A{r}", range(2, 6)) + column("A{r}", range(8, 9)) + column("B{r}", range(9, 12))
    assert formula_runs(cells) == [(0, 3), (5, 7)]


def test_the_template_of_a_formula_keeps_what_does_not_move():
    assert row_template('=IF($A5="x5",$B$5+C4,0)', 5) == ('=IF($A{0}="x5",$B$5+C{1},0)', (0, -1))
    assert row_template("=SUM(5:5)", 5) is None


def test_the_first_cell_holds_the_formula_and_the_range_and_the_others_the_runs_number():
    book = openpyxl.Workbook()
    sheet = book.active
    for row, value in column("A{r}&B{above}", range(2, 5)):
        sheet.cell(row, 3, value)
    sheet.cell(6, 3, "=A6")
    assert formula_elements(sheet) == {
        (2, 3): '<f t="shared" ref="C2:C4" si="0">A2&amp;B1</f>',
        (3, 3): '<f t="shared" si="0" />',
        (4, 3): '<f t="shared" si="0" />',
    }


@pytest.mark.parametrize("ruleset_id", ["spelljammer", "bfrpg"])
def test_every_formula_of_a_built_workbook_reads_back_as_the_builder_wrote_it(ruleset_id: str):
    """openpyxl works each shared formula's cells out itself (its own ``Translator``): every formula
    cell of the saved file reads back as the one the builder held, and most are shared."""
    book = build_workbook(load_folder(tables_dir() / ruleset_id), macro=True)
    written = {
        (sheet.title, cell.coordinate): cell.value
        for sheet in book.worksheets
        for cell in sheet._cells.values()
        if cell.data_type == "f" and isinstance(cell.value, str)
    }
    parts = workbook_parts(book)
    assert sum(part.count(b'<f t="shared" si=') for part in parts.values()) > len(written) / 2
    read = openpyxl.load_workbook(io.BytesIO(zipped(parts)), keep_vba=True)
    assert {(title, ref): read[title][ref].value for title, ref in written} == written
