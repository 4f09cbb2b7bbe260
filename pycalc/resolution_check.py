"""The check a chart row calls for (a chart's ``check:`` in the ``resolution:`` block, ``Chart.check``):
17 Combat's Stumble after a natural 1, "DEX check (DC20) or -1 to combat rolls for 1d2 rounds".

Once the follow-up roll has read the row of a Critical's or a Fumble's chart, a row with a DC calls for
the check: a roll of the attack die plus what the GM adds to it (a DEX bonus), passed at the DC or
more; what follows is the row's ``passed`` or ``failed`` text. ``pycalc.sheets.d20_check`` writes the
same rules as native formulas.
"""

from __future__ import annotations

from pycalc import resolution_results
from pycalc.d20 import CRITICAL, FUMBLE
from pycalc.resolution import Attack, block, check_roll, critical_mode, fumble_mode
from pycalc.resolution_block import TEXT_JOIN, Check, checked_charts
from pycalc.tables import Row, RuleSet

CHECK_ROLL = "CHECK ROLL"  # the roll's name in the message of a roll off the die


def checked_row(rules: RuleSet, attack: Attack, outcome: str, follow: int | None) -> tuple[Check, Row] | None:
    """The chart row the follow-up roll read for this result, and the check of its chart; None when
    the result reads no chart with a check or the follow-up roll is not typed yet."""
    chart = checked_charts(block(rules)).get(outcome)
    if chart is None or chart.check is None or follow is None:
        return None
    if outcome == CRITICAL and critical_mode(rules) == "chart":
        return chart.check, resolution_results.critical_chart_row(rules, attack, follow)
    if outcome == FUMBLE and fumble_mode(rules) == "chart":
        return chart.check, resolution_results.fumble_chart_row(rules, follow)
    return None


def consequence(row: Row, columns: tuple[str, ...]) -> str:
    """What a passed or failed check does: the row's texts, the empty ones left out."""
    return TEXT_JOIN.join(str(row[column]) for column in columns if row[column])


def check_said(
    rules: RuleSet,
    attack: Attack,
    outcome: str,
    follow: int | None,
    roll: int | None,
    bonus: int = 0,
) -> str:
    """What the check the chart row calls for says: '' without one; its DC until its roll is typed;
    passed (the roll plus ``bonus`` at the DC or more) or failed, and what follows. A roll off the
    attack die raises the engine's message (``RuleError``)."""
    found = checked_row(rules, attack, outcome, follow)
    if found is None:
        return ""
    check, row = found
    dc = row[check.dc]
    if dc is None:  # the row calls for no check
        return ""
    if roll is None:
        return f"{check.label} DC {dc}: roll it"
    total = check_roll(rules, roll, CHECK_ROLL) + bonus
    passed = total >= dc
    said = f"{check.label} {'passed' if passed else 'failed'} ({total} vs DC {dc})"
    follows = consequence(row, check.passed if passed else check.failed)
    return f"{said}{TEXT_JOIN}{follows}" if follows else said
