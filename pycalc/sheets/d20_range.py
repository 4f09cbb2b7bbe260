"""The range band of the generic Attack calculator (the block's ``range:``, engine
``pycalc.resolution_range``): the weapon's range increment and the distance typed under the situation,
the band they give, and the working cells the roll reads (its modifier, what stops the attack: out of
range, or a picked row that rules the attack out)."""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.resolution_block import ROLL_COLUMN as HIT_COLUMN
from pycalc.resolution_block import RangeBands, Resolution
from pycalc.resolution_range import BAD_DISTANCE, BAD_INCREMENT, OUT_OF_RANGE
from pycalc.sheets.common import put
from pycalc.sheets.d20_layout import ROLL_COLUMN, Line, put_input, put_output, whole_number_check
from pycalc.sheets.d20_pickers import no_attack_tables
from pycalc.sheets.formulas import band, by_label, q, round_up
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet

INCREMENT, DISTANCE, BAND = "ATTACK_RANGE_INCREMENT", "ATTACK_DISTANCE", "ATTACK_RANGE_BAND"
INCREMENTS, HIT, STOP = "ATTACK_RANGE_INCREMENTS", "ATTACK_RANGE_HIT", "ATTACK_STOP"
MOST_FEET = 99_999  # what the typed cells take (the engine's messages cover the rest)


def ranged(rules: RuleSet, block: Resolution) -> str:
    """TRUE while the picked attack kind is ranged (``resolution_range.ranged``)."""
    kind_table = block.situation.kind_table if block.situation else None
    if kind_table is None or "ranged" not in rules.table(kind_table).column_ids:
        return "TRUE"
    return f"{by_label(kind_table, 'ranged', pick_name(kind_table))}=TRUE"


def increments_counted(increment: str, distance: str) -> str:
    """The range increments to the target (rounded up), or why they cannot be counted
    (``resolution_range.increments``)."""
    return (
        f"IF({increment}<=0,{q(BAD_INCREMENT)},IF({distance}<0,{q(BAD_DISTANCE)},"
        f"{round_up(f'{distance}/{increment}')}))"
    )


def within(rule: RangeBands) -> str:
    return f"{band(rule.table, rule.within, INCREMENTS)}=TRUE"


def range_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """(name, label, formula) of the range's working cells: the increments to the target (or why none
    can be counted) and the band's modifier to the roll."""
    rule = block.range
    if rule is None:
        return []
    typed = f"AND({ranged(rules, block)},ISNUMBER({INCREMENT}),ISNUMBER({DISTANCE}))"
    counted = increments_counted(INCREMENT, DISTANCE)
    hit = f"SUM({band(rule.table, HIT_COLUMN, INCREMENTS)})"  # an empty cell counts 0
    return [
        (INCREMENTS, "Range increments to the target (rounded up)", f'IF({typed},{counted},"")'),
        (HIT, "Range band: to the roll", f"IF(ISNUMBER({INCREMENTS}),IF({within(rule)},{hit},0),0)"),
    ]


def stop_cells(block: Resolution, picked: str | None) -> list[tuple[str, str, str]]:
    """The working cell of what stops the attack before any roll: out of range (or why no band can be
    read), else what a picked row rules out (``picked``: its formula; None where no row can)."""
    rule = block.range
    if rule is None and picked is None:
        return []
    if rule is None:
        stop = str(picked)
    elif picked is None:
        stop = f'IF(ISNUMBER({INCREMENTS}),IF({within(rule)},"",{q(OUT_OF_RANGE)}),{INCREMENTS})'
    else:
        stop = (
            f"IF(ISNUMBER({INCREMENTS}),IF({within(rule)},{picked},{q(OUT_OF_RANGE)}),"
            f'IF({INCREMENTS}="",{picked},{INCREMENTS}))'
        )
    return [(STOP, "What stops the attack before any roll", stop)]


def unless_stopped(rules: RuleSet, block: Resolution, formula: str, instead: str = STOP) -> str:
    """``formula``, or ``instead`` (what stops the attack, or a 0 chance) while something stops the
    attack before any roll (``stop_cells``)."""
    if block.range is None and not no_attack_tables(rules, block):
        return formula
    return f'IF({STOP}<>"",{instead},{formula})'


def band_said(rule: RangeBands) -> str:
    """BAND: the band's name with its modifier to the roll (``resolution_range.band_name``), why none
    can be read, or '' (no band)."""
    hit = f'IF({HIT}=0,""," ("&TEXT({HIT},"+0;-0")&" to hit)")'
    return f"IF(ISNUMBER({INCREMENTS}),{band(rule.table, rule.band, INCREMENTS)}&{hit},{INCREMENTS})"


def write_range_inputs(book: Workbook, sheet: Worksheet, block: Resolution, row: int) -> int:
    """The increment and the distance, typed in the rolls' column (AutoInput completes nothing there),
    the band they give beside them; the next free row."""
    rule = block.range
    if rule is None:
        return row
    typed = (
        (INCREMENT, "Weapon's range increment (ft)", "a ranged attack's; empty: no range band", 1),
        (DISTANCE, "Distance to the target (ft)", "empty: no range band", 0),
    )
    for at, (name, label, help_text, least) in enumerate(typed, start=row):
        put(sheet.cell(at, 1), label)
        put_input(book, sheet, at, ROLL_COLUMN, name, None, help_text)
        whole_number_check(sheet, sheet.cell(at, ROLL_COLUMN).coordinate, least, MOST_FEET, label)
    put_output(book, sheet, row, Line(out_label="Range band", out_name=BAND, out_formula=band_said(rule)))
    return row + len(typed)
