"""The hidden "d20 workings" sheet behind a shipped ruleset's Attack calculator: the attack's result
for each natural roll (``write_face_results``: a ruleset whose result reads no follow-up roll, or
reads it only on a chart the odds weigh apart), or for each (roll, follow-up roll) pair
(``write_pair_results``: a fumble check, a confirmation roll). The calculator's chances count these
results; the Odds sheet's heat maps read the face columns (``d20_heat.write_face_columns``).
"""

from __future__ import annotations

from collections.abc import Callable

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution as engine
from pycalc.sheets.common import protect
from pycalc.sheets.d20_cells import WORKINGS_SHEET
from pycalc.sheets.d20_damage import shared_parts
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import (
    FaceFormula,
    face_columns,
    write_face_columns,
    write_face_rows,
    write_result_grid,
)
from pycalc.sheets.log_rows import PartsArea
from pycalc.tables import RuleSet

NO_FOLLOW = '""'  # the follow-up roll a face's result is worked out with: none


def write_face_results(
    book: Workbook,
    rules: RuleSet,
    rolls: Formulas,
    result: tuple[str, str, float],
    corner: str,
    more: list[FaceFormula] | None = None,
    faces_name: str | None = None,
) -> Worksheet:
    """One row per face of the attack die (column A, under ``corner``, named ``faces_name`` when
    given) with the attack's result on that natural roll (``result``: the column's name, title and
    width) and the ``more`` columns after it; the sheet is left for the caller to add to and protect."""
    name, title, width = result
    columns = [(name, title, lambda roll: rolls.result(roll, NO_FOLLOW)), *(more or [])]
    return write_face_rows(book, WORKINGS_SHEET, corner, engine.faces(rules), columns, width, faces_name)


def write_pair_results(
    book: Workbook,
    rules: RuleSet,
    rolls: Formulas,
    corner: str,
    beside: tuple[int, Callable[[Worksheet, PartsArea], None]] = (0, lambda sheet, parts: None),
) -> None:
    """From A1: ``corner``, the follow-up roll's faces across, the roll's down, the result of each pair
    (``d20_heat.write_result_grid``); then the ruleset's own ``beside`` (how many columns it fills
    right of the grid, and what writes them: names, weights, counts); after a blank column, the face
    columns of the Odds sheet's heat maps; right of them, the parts the columns share. Hidden."""
    sheet = book.create_sheet(WORKINGS_SHEET)
    faces = engine.faces(rules)
    columns, write_beside = beside
    face_col = faces + 3 + columns
    parts = shared_parts(book, sheet, rules, face_col + len(face_columns(rolls.block)) + 1)
    write_result_grid(sheet, corner, faces, rolls.result, parts)
    write_beside(sheet, parts)
    write_face_columns(book, sheet, rules, rolls.block, face_col, parts)  # the Odds sheet's heat maps
    sheet.sheet_state = "hidden"
    protect(sheet)
