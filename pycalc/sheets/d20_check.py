"""The check a chart row calls for on the generic Attack calculator (a chart's ``check:``): its two
inputs (the check's d20 and what is added to it) and its output, native formulas of
``pycalc.resolution_check.check_said``."""

from __future__ import annotations

from functools import partial

from pycalc.d20 import CRITICAL, FUMBLE
from pycalc.resolution_block import TEXT_JOIN, Chart, Resolution, check_label, checked_charts
from pycalc.resolution_calculator import CHECK
from pycalc.resolution_check import CHECK_ROLL
from pycalc.sheets.d20_cells import Cells
from pycalc.sheets.d20_formulas import Formulas, joined
from pycalc.sheets.d20_layout import Line
from pycalc.sheets.formulas import band, q

ROLL, BONUS = "ATTACK_CHECK_ROLL", "ATTACK_CHECK_BONUS"  # the check's d20 and what is added to it


def chart_check(formulas: Formulas, chart: Chart, key: str) -> str:
    """``check_said`` for the row of ``chart`` the follow-up roll read (``key``: its key)."""
    check, c = chart.check, formulas.c
    assert check is not None
    value = partial(band, chart.table, key_expr=key)
    dc, total, label = value(check.dc), f"({ROLL}+{BONUS})", q(check.label)
    off_die = f'"#{CHECK_ROLL}? 1 to "&{c.faces}'

    def said(word: str, columns: tuple[str, ...]) -> str:
        follows = joined(columns, value)
        return f'{label}&" {word} ("&{total}&" vs DC "&{dc}&")"&IF({follows}="","","{TEXT_JOIN}"&{follows})'

    return (
        f'IF(NOT(ISNUMBER({c.follow})),"",IF(LEN({dc})=0,"",'
        f'IF(ISBLANK({ROLL}),{label}&" DC "&{dc}&": roll it",'
        f"IF(NOT(ISNUMBER({ROLL})),{off_die},IF(OR({ROLL}<1,{ROLL}>{c.faces},{ROLL}<>INT({ROLL})),{off_die},"
        f"IF({total}>={dc},{said('passed', check.passed)},{said('failed', check.failed)}))))))"
    )


def check_formula(block: Resolution, cells: Cells) -> str:
    """CHECK: the check of the chart a Critical or a Fumble read, '' for any other result."""
    formulas = Formulas(block, cells)
    charts = checked_charts(block)
    keys = {CRITICAL: formulas.follow_total(cells.follow), FUMBLE: cells.follow}
    said = '""'
    for outcome, chart in charts.items():
        said = f'IF({cells.result}="{outcome}",{chart_check(formulas, chart, keys[outcome])},{said})'
    return said


def check_lines(block: Resolution, cells: Cells) -> list[Line]:
    """The check's d20 beside what it says, and what the GM adds to it: only where a chart has a check."""
    if not checked_charts(block):
        return []
    label = check_label(block)
    return [
        Line(
            f"d20 for the {label}",
            ROLL,
            None,
            "only when the chart's row calls for it; clear it after",
            f"The {label}",
            CHECK,
            check_formula(block, cells),
        ),
        Line(f"Added to the {label}", BONUS, 0, f"what the attacker adds to the {label}'s d20"),
    ]
