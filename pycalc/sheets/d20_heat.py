"""The Odds sheet's heat maps of every d20 ruleset, written from its ``resolution:`` block: the chance
to hit, of a critical and of a fumble by attack bonus and target, with no situation (the reference is
``pycalc.resolution_chances.chances`` of ``Attack(bonus, target, level=level)``).

A heat-map cell counts the faces of the die, so it needs the die's faces with what the block says of
each: :func:`write_face_columns` writes them on a hidden sheet (one row per face; none of them
depends on the calculator's inputs). A cell's formula is then arithmetic over those columns inside
SUMPRODUCT (no IF over a range, which Excel would need as an array formula); what depends on the
bonus and the target alone (the number needed, whether a critical is possible) is worked out by
:class:`pycalc.sheets.d20_formulas.Formulas` over the cell's own row and column headers.

A ruleset whose pickers add dice to the roll (``hit: 1d4``) gets a hit grid over every total of the
dice picked on its calculator, and so does its critical grid (``hit_formula``, ``critical_formula`` with
``added``; the reference is then ``Attack(bonus, target, added=...)``).

A critical grid is written when the chance of a critical can change with the number needed (a
confirmation roll, or no critical when a high number is needed); a fumble row by the attacker's
level when the fumble check is against the level. A confirmation or chart roll is counted on the
attack die's faces; the follow-up die of its own that a block may name is read by the level check only
(the generic calculator refuses one for the rest, ``d20_formulas.unsupported``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution as engine
from pycalc.resolution_block import Chart, Resolution, possible
from pycalc.sheets import block_formulas, d20_cells
from pycalc.sheets import d20_formulas as f
from pycalc.sheets.common import BOLD, SUBTITLE, absolute, define_name, put, put_formula, style_header
from pycalc.sheets.heat_map import HeatMap, colour_by_range
from pycalc.sheets.log_rows import PartsArea
from pycalc.tables import RuleSet

FACE, ALWAYS_MISS, ALWAYS_HIT = "D20W_FACE", "D20W_ALWAYS_MISS", "D20W_ALWAYS_HIT"
CRITICAL_ROLL = "D20W_CRITICAL_ROLL"
CRITICAL_CHART = "D20W_CRITICAL_CHART"  # 1: a critical chart row that keeps the critical
FUMBLE_CHART = "D20W_FUMBLE_CHART"  # 1: a fumble chart row that keeps the fumble
FACES, FOLLOW_FACES = "D20W_FACES", d20_cells.FOLLOW_FACES
HEADER = 4  # the face columns' header row; the faces follow
FUMBLE_LEVELS = range(0, 21)  # the fumble row's columns (layout)


@dataclass(frozen=True)
class FaceColumn:
    name: str
    title: str
    formula: Callable[[str], str] | None  # of the face's cell; None: the face itself


def chart_keeps(block: Resolution, chart: Chart, face: str) -> str:
    """1 when the chart row read with ``face`` (no modifiers) keeps the critical or fumble."""
    return f"IF({f.Formulas(block).plain_row(chart, face)},0,1)"


def read_by_follow(chart: Chart | None) -> bool:
    """A chart the follow-up roll reads (mode chart), which may keep or drop the critical or fumble; a
    chart rolled on by a roll of its own only says what happens."""
    return chart is not None and not chart.own_roll


def face_columns(block: Resolution) -> list[FaceColumn]:
    rolls = f.Formulas(block)
    columns = [
        FaceColumn(FACE, "Natural roll", None),
        FaceColumn(ALWAYS_MISS, "Always misses", lambda face: f"IF({rolls.always_misses(face)},1,0)"),
        FaceColumn(ALWAYS_HIT, "Always hits", lambda face: f"IF({rolls.always_hits(face)},1,0)"),
        FaceColumn(CRITICAL_ROLL, "A critical roll", lambda face: f"IF({rolls.critical_roll(face)},1,0)"),
    ]
    for name, title, chart in (
        (CRITICAL_CHART, "Critical chart keeps it", block.critical.chart),
        (FUMBLE_CHART, "Fumble chart keeps it", block.fumble.chart),
    ):
        if read_by_follow(chart):
            columns.append(FaceColumn(name, title, lambda x, chart=chart: chart_keeps(block, chart, x)))
    return columns


def write_face_columns(
    book: Workbook,
    sheet: Worksheet,
    rules: RuleSet,
    block: Resolution,
    first_col: int,
    parts: PartsArea | None = None,
) -> None:
    """From ``first_col`` of the hidden ``sheet``: a header row, then one row per face of the die (the
    parts the columns share worked out once in ``parts``, when given)."""
    faces = engine.faces(rules)
    follow_die = block.die if block.follow_die is None else block.follow_die
    for col, (name, title, die) in enumerate(
        ((FACES, "Faces of the die", block.die), (FOLLOW_FACES, "Faces of the follow-up die", follow_die)),
        start=first_col,
    ):
        put(sheet.cell(1, col), title)
        cell = sheet.cell(2, col)
        if isinstance(die, int):  # a number in the block: the cell holds it (no number in a formula)
            put(cell, die)
        else:
            put_formula(cell, block_formulas.expr(die))
        define_name(book, name, absolute(sheet, cell.coordinate))
    header = HEADER
    for col, column in enumerate(face_columns(block), start=first_col):
        letter = get_column_letter(col)
        put(sheet.cell(header, col), column.title).font = BOLD
        sheet.column_dimensions[letter].width = 14
        formula = (
            column.formula
            if parts is None or column.formula is None
            else parts.column_formula(column.formula)
        )
        write_numbered(book, sheet, (column.name, col, header), faces, formula, get_column_letter(first_col))


def write_numbered(
    book: Workbook,
    sheet: Worksheet,
    where: tuple[str, int, int],
    count: int,
    formula: Callable[[str], str] | None,
    numbers: str,
) -> None:
    """Below row ``top`` of column ``col`` (``where``: name, col, top), ``count`` cells named ``name``:
    the numbers 1 to ``count`` (``formula`` None), or ``formula`` of the number in column ``numbers``
    of the same row."""
    name, col, top = where
    for number in range(1, count + 1):
        cell = sheet.cell(top + number, col)
        if formula is None:
            put(cell, number)
        else:
            put_formula(cell, formula(f"${numbers}{top + number}"))
    letter = get_column_letter(col)
    define_name(book, name, absolute(sheet, f"{letter}{top + 1}", f"{letter}{top + count}"))


# --------------------------------------------------------------------------- one cell of a heat map


def cell_formulas(block: Resolution, bonus: str, target: str) -> f.Formulas:
    """The generic formulas for Attack(bonus, target) with no situation: each working cell is the
    expression the one before gives."""
    cells = d20_cells.Cells(bonus=bonus, target=target, total_mods="0", sit_ac="0")
    for field, work in (
        ("target_now", f.Formulas.target_now),
        ("raw_need", f.Formulas.raw_need),
        ("need", f.Formulas.need),
        ("need_basis", f.Formulas.need_basis),
    ):
        cells = replace(cells, **{field: f"({work(f.Formulas(block, cells))})"})
    return f.Formulas(block, cells)


def hit_faces(need: str) -> str:
    """1 for each face that hits (always-miss first, then always-hit or the total)."""
    return f"(1-{ALWAYS_MISS})*({ALWAYS_HIT}+(1-{ALWAYS_HIT})*({FACE}>={need}))"


def hit_faces_added(need: str) -> str:
    """``hit_faces`` over every total of the dice on the roll, each by its chance (the faces down, the
    totals across: SUMPRODUCT adds every pair)."""
    by_total = f"({FACE}+{d20_cells.ADDED_VALUES}>={need})"
    return f"(1-{ALWAYS_MISS})*({ALWAYS_HIT}+(1-{ALWAYS_HIT})*{by_total})*{d20_cells.ADDED_CHANCES}"


def hit_formula(block: Resolution, bonus: str, target: str, added: bool = False) -> str:
    """Chance to hit (Hit or Critical); with ``added``, over every total of the dice the calculator's
    picks add to the roll."""
    need = cell_formulas(block, bonus, target).c.need
    return f"SUMPRODUCT({(hit_faces_added if added else hit_faces)(need)})/{FACES}"


def critical_formula(block: Resolution, bonus: str, target: str, added: bool = False) -> str:
    """Chance of a critical: a critical roll that hits (``added``: over every total of the dice on the
    roll), when a critical is possible, times what the critical mode asks of the follow-up roll. With
    dice on the roll the block reads neither a confirmation nor the number needed
    (``d20_formulas.unsupported_with_added_dice``), so only the hit depends on their total."""
    rules = cell_formulas(block, bonus, target)
    need, mode = rules.c.need, block.critical.mode
    fails = f"IF({block_formulas.expr(block.critical.confirm_natural_miss_fails)},1,0)"
    confirm = f"SUMPRODUCT(({FACE}>={need})*(1-{fails}*{ALWAYS_MISS}))/{FACES}"
    chart = f"SUM({CRITICAL_CHART})/{FACES}" if read_by_follow(block.critical.chart) else "0"
    follow = (
        f"IF({block_formulas.is_mode(mode, 'automatic')},1,IF({block_formulas.is_mode(mode, 'confirm')},{confirm},"
        f"IF({block_formulas.is_mode(mode, 'chart')},{chart},0)))"
    )
    threats = f"SUMPRODUCT({(hit_faces_added if added else hit_faces)(need)}*{CRITICAL_ROLL})/{FACES}"
    by_mode = f"{threats}*{follow}"
    if added and "confirm" in possible(mode):  # the one total of the dice is added to both rolls
        weights = block_formulas.need_weights(need, d20_cells.ADDED_VALUES, d20_cells.ADDED_CHANCES)
        both = f"SUMPRODUCT({d20_cells.THREAT_COUNTS}*{d20_cells.CONFIRM_COUNTS}*{weights})/{FACES}^2"
        by_mode = block_formulas.choose(block_formulas.is_mode(mode, "confirm"), both, by_mode)
    return f"IF({rules.crit_possible()},{by_mode},0)"


def write_confirm_counts(book: Workbook, sheet: Worksheet, block: Resolution, faces: int, top: int) -> None:
    """From row ``top`` of the hidden ``sheet``: each number a total of the dice on the roll may leave
    needed (the faces and one above), how many follow-up faces confirm at it and how many critical
    rolls hit at it with no situation (``d20_formulas.need_weights`` weighs them by the dice)."""
    fails = f"IF({block_formulas.expr(block.critical.confirm_natural_miss_fails)},1,0)"
    columns = (
        (d20_cells.CONFIRM_NEEDS, "Needed after the dice", None),
        (
            d20_cells.CONFIRM_COUNTS,
            "Faces that confirm",
            lambda k: f"SUMPRODUCT(({FACE}>={k})*(1-{fails}*{ALWAYS_MISS}))",
        ),
        (
            d20_cells.THREAT_COUNTS,
            "Critical rolls that hit",
            lambda k: f"SUMPRODUCT({hit_faces(k)}*{CRITICAL_ROLL})",
        ),
    )
    for col, (name, title, formula) in enumerate(columns, start=1):
        put(sheet.cell(top, col), title).font = BOLD
        write_numbered(book, sheet, (name, col, top), faces + 1, formula, "A")


def fumble_formula(block: Resolution, level: str) -> str:
    """Chance of a fumble for an attacker of ``level`` (any bonus and target)."""
    mode = block.fumble.mode
    by_level = f"MAX(0,MIN({FOLLOW_FACES},{FOLLOW_FACES}-{level}))/{FOLLOW_FACES}"
    chart = f"SUM({FUMBLE_CHART})/{FACES}" if read_by_follow(block.fumble.chart) else "0"
    follow = (
        f"IF({block_formulas.is_mode(mode, 'always')},1,IF({block_formulas.is_mode(mode, 'level_check')},{by_level},"
        f"IF({block_formulas.is_mode(mode, 'chart')},{chart},0)))"
    )
    return f"SUM({ALWAYS_MISS})/{FACES}*{follow}"


# --------------------------------------------------------------------------- which maps


def critical_varies(block: Resolution) -> bool:
    """Whether the chance of a critical can change with the number needed."""
    confirms = "confirm" in possible(block.critical.mode)
    limited = any(span is not None for span in possible(block.critical.no_critical_when_needed))
    return confirms or (limited and possible(block.critical.mode) != ["none"])


def fumble_by_level(block: Resolution) -> bool:
    return "level_check" in possible(block.fumble.mode)


def heat_maps(
    block: Resolution,
    corner: str,
    bonuses: range,
    targets: range,
    critical_title: str = "Chance of a critical",
    added: bool = False,
) -> list[HeatMap]:
    """The hit grid and the critical grid when it can vary (``added``: both over the dice the
    calculator's picks add to the roll)."""
    maps = [
        HeatMap(
            "Chance to hit",
            "ODDS_HIT_GRID",
            corner,
            bonuses,
            targets,
            lambda b, t: hit_formula(block, b, t, added),
        )
    ]
    if critical_varies(block):
        maps.append(
            HeatMap(
                critical_title,
                "ODDS_CRIT_GRID",
                corner,
                bonuses,
                targets,
                lambda b, t: critical_formula(block, b, t, added),
            )
        )
    return maps


def write_fumble_row(
    book: Workbook,
    sheet: Worksheet,
    block: Resolution,
    row: int,
) -> int:
    """At ``row``: the chance of a fumble for each level of FUMBLE_LEVELS (ODDS_FUMBLE_ROW); the next
    free row."""
    put(sheet.cell(row, 1), "Chance of a fumble by the attacker's level").font = SUBTITLE
    style_header(sheet.cell(row + 1, 1, "Level"))
    style_header(sheet.cell(row + 2, 1, "Fumble"))
    for col, level in enumerate(FUMBLE_LEVELS, start=2):
        style_header(sheet.cell(row + 1, col, level))
        level_cell = f"{get_column_letter(col)}{row + 1}"
        put_formula(sheet.cell(row + 2, col), fumble_formula(block, level_cell)).number_format = "0.0%"
    last = get_column_letter(1 + len(FUMBLE_LEVELS))
    define_name(book, "ODDS_FUMBLE_ROW", absolute(sheet, f"B{row + 2}", f"{last}{row + 2}"))
    colour_by_range(sheet, f"B{row + 2}:{last}{row + 2}")
    return row + 4
