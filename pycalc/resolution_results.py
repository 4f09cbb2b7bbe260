"""The result of one d20 attack roll (``pycalc.resolution``'s rules, in its order of precedence): the
critical and fumble charts read with the follow-up roll, and Hit, Miss, Critical or Fumble."""

from __future__ import annotations

from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.errors import RuleError
from pycalc.resolution import (
    FOLLOWED_CRITICALS,
    FOLLOWED_FUMBLES,
    Attack,
    always_hits,
    always_misses,
    block,
    cannot_hit,
    check_roll,
    confirms,
    critical_mode,
    critical_possible,
    critical_rolls,
    effective_needs_magic,
    follow_faces,
    fumble_mode,
    get,
    hits_by_total,
    in_rolls,
)
from pycalc.resolution_added import with_added_roll
from pycalc.resolution_block import TEXT_JOIN, Chart, own_roll_charts
from pycalc.tables import Row, RuleSet


def chart_row(rules: RuleSet, chart: Chart, key: int) -> Row:
    if chart.from_column is not None:
        return listed_row(rules, chart, key)
    row = rules.table(chart.table).band(key)
    if row is None:
        raise RuleError(f"#FOLLOW ROLL? not on the {rules.table(chart.table).title}")
    return row


def listed_rows(rules: RuleSet, chart: Chart) -> list[Row]:
    """The rows of a chart over an entries table that say their rolls (a row the GM left half filled
    is no row yet)."""
    ends = (str(chart.from_column), str(chart.to_column))
    return [
        row
        for row in rules.table(chart.table).rows
        if all(isinstance(row.values.get(end), int) for end in ends)
    ]


def listed_row(rules: RuleSet, chart: Chart, roll: int) -> Row:
    """The one row of a chart over an entries table whose rolls cover ``roll``."""
    rows = [
        r for r in listed_rows(rules, chart) if r[str(chart.from_column)] <= roll <= r[str(chart.to_column)]
    ]
    if not rows:
        raise RuleError(f"#CHART ROLL? no row covers {roll}")
    if len(rows) > 1:
        raise RuleError(f"#CHART? two rows cover {roll}")
    return rows[0]


def unfilled(rules: RuleSet, chart: Chart) -> bool:
    """A chart over an entries table with no row yet (a table the GM fills, shipped empty)."""
    return chart.from_column is not None and not listed_rows(rules, chart)


def fill_in_words(rules: RuleSet, chart: Chart) -> str:
    """What an unfilled chart says instead of its row: where the GM fills it in (the calculator's
    roll cell names the table: the line stays within the laptop window)."""
    return f"fill in its table on the {rules.table(chart.table).sheet_title} sheet"


def critical_chart(rules: RuleSet) -> Chart:
    chart = block(rules).critical.chart
    if chart is None:
        raise RuleError(f"#NONE? {rules.id} has no critical chart")
    return chart


def fumble_chart(rules: RuleSet) -> Chart:
    chart = block(rules).fumble.chart
    if chart is None:
        raise RuleError(f"#NONE? {rules.id} has no fumble chart")
    return chart


def follow_total(rules: RuleSet, attack: Attack, follow: int) -> int:
    """The critical chart's key: the follow roll, plus the roll's mods when ``follow_adds_mods``."""
    return follow + (attack.mods if get(rules, critical_chart(rules).follow_adds_mods) else 0)


def critical_chart_row(rules: RuleSet, attack: Attack, follow: int) -> Row:
    return chart_row(rules, critical_chart(rules), follow_total(rules, attack, follow))


def fumble_chart_row(rules: RuleSet, follow: int) -> Row:
    return chart_row(rules, fumble_chart(rules), follow)


def plain_row(rules: RuleSet, chart: Chart, row: Row) -> bool:
    """The chart row makes the natural roll plain (Hit / Miss) under ``plain_unless_special``."""
    return (
        bool(get(rules, chart.plain_unless_special)) and chart.special is not None and not row[chart.special]
    )


def own_roll_chart(rules: RuleSet, attack: Attack, outcome: str, follow: int | None) -> Chart | None:
    """The chart a roll of its own is made on after this outcome (a Critical's or a Fumble's), if any;
    one that follows a chart's row (``Chart.then``) only once the follow-up roll has read a row that
    ticks its ``when``."""
    chart = own_roll_charts(block(rules)).get(outcome)
    if chart is None or chart.when is None:
        return chart
    if follow is None:
        return None
    row = (
        critical_chart_row(rules, attack, follow) if outcome == CRITICAL else fumble_chart_row(rules, follow)
    )
    return chart if row[chart.when] else None


def chart_die(rules: RuleSet, chart: Chart) -> tuple[int, int]:
    """The lowest and highest roll on a chart rolled on by a roll of its own: its bands' ends, or 1 to
    its die over an entries table."""
    if chart.die is not None:
        return 1, int(get(rules, chart.die))
    rows = rules.table(chart.table).rows
    low, high = rows[0].low, rows[-1].high
    assert low is not None and high is not None  # resolution_refs.closed_bands
    return low, high


def check_chart_roll(rules: RuleSet, chart: Chart, roll: int) -> int:
    """The roll on a chart of its own, or #CHART ROLL? off its die."""
    low, high = chart_die(rules, chart)
    if not low <= roll <= high:
        raise RuleError(f"#CHART ROLL? {low} to {high}")
    return roll


def chart_text(
    rules: RuleSet, attack: Attack, outcome: str, follow: int | None, chart_roll: int | None = None
) -> str:
    """What the chart row read for a Critical or a Fumble says (its ``text`` column; '' without one,
    or before the roll it is read by: the follow-up roll, or ``chart_roll`` for a chart of its own),
    then '; ' and what the chart its row leads to says (``Chart.then``)."""
    own = own_roll_chart(rules, attack, outcome, follow)
    if own is not None and own.when is None:
        return rolled_text(rules, own, chart_roll)
    if follow is None:
        return ""
    read = ""
    if outcome == CRITICAL and critical_mode(rules) == "chart" and critical_chart(rules).text:
        read = row_text(critical_chart(rules), critical_chart_row(rules, attack, follow))
    if outcome == FUMBLE and fumble_mode(rules) == "chart" and fumble_chart(rules).text:
        read = row_text(fumble_chart(rules), fumble_chart_row(rules, follow))
    try:
        then = "" if own is None else rolled_text(rules, own, chart_roll)
    except RuleError as error:  # a chart roll off its die: said after what the row says
        then = str(error)
    return "; ".join(part for part in (read, then) if part)


def rolled_text(rules: RuleSet, chart: Chart, chart_roll: int | None) -> str:
    """What the row of a chart rolled on by a roll of its own says: '' before its roll; where the GM
    fills the chart in and has not yet, where to fill it."""
    if unfilled(rules, chart):
        return fill_in_words(rules, chart)
    if chart_roll is None:
        return ""
    return row_text(chart, chart_row(rules, chart, check_chart_roll(rules, chart, chart_roll)))


def row_text(chart: Chart, row: Row) -> str:
    """What a chart's row says: its ``text`` columns' texts, the empty ones left out, joined by ': '."""
    return TEXT_JOIN.join(str(row[column]) for column in chart.text or () if row[column])


def effect_text(rules: RuleSet, outcome: str) -> str:
    """What the result does in words (the block's ``effect``: its ``hit`` for a Hit or a Critical,
    its ``miss`` for a Miss or a Fumble); '' where the block says nothing."""
    effect = block(rules).effect
    if effect is None:
        return ""
    said = effect.hit if outcome in (HIT, CRITICAL) else effect.miss
    return str(get(rules, said) or "")


def fumble_result(rules: RuleSet, attack: Attack, follow: int | None) -> str:
    """Miss or Fumble for an always-miss roll."""
    mode = fumble_mode(rules)
    if mode == "always":
        return FUMBLE
    if mode == "level_check":
        return FUMBLE if follow is not None and follow > attack.level else MISS
    if mode == "chart":
        chart = fumble_chart(rules)
        if follow is not None and plain_row(rules, chart, fumble_chart_row(rules, follow)):
            return MISS
        return FUMBLE
    return MISS


def threatens(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether a roll that hits may be a critical: a critical roll, where criticals are possible."""
    return (
        critical_mode(rules) != "none"
        and in_rolls(rules, critical_rolls(rules), roll)
        and critical_possible(rules, attack)
    )


def critical_result(rules: RuleSet, attack: Attack, roll: int, follow: int | None) -> str:
    """Hit or Critical for a roll that hits."""
    mode = critical_mode(rules)
    if not threatens(rules, attack, roll):
        return HIT
    if mode == "automatic":
        return CRITICAL
    if mode == "confirm":
        return CRITICAL if follow is not None and confirms(rules, attack, follow) else HIT
    chart = critical_chart(rules)
    if follow is not None and plain_row(rules, chart, critical_chart_row(rules, attack, follow)):
        return HIT
    return CRITICAL


def hits(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether a roll that does not always miss hits (always, or by its total)."""
    if cannot_hit(rules, attack):
        return False
    auto = always_hits(rules, roll) and effective_needs_magic(rules, attack) != "no_auto_hit"
    return auto or hits_by_total(rules, attack, roll)


def resolve(rules: RuleSet, attack: Attack, roll: int, follow: int | None = None) -> str:
    """Miss, Hit, Critical or Fumble for the natural ``roll`` and the follow-up roll (unchecked)."""
    if attack.blocked:
        return MISS
    if attack.auto_hit:
        return HIT
    if always_misses(rules, roll):
        return fumble_result(rules, attack, follow)
    if not hits(rules, attack, roll):
        return MISS
    return critical_result(rules, attack, roll, follow)


def follow_matters(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether the follow-up roll can change the result of this natural roll, or its damage (``resolve``,
    ``formula_for``): the fumble check or chart of a roll that always misses, the confirmation or the
    critical chart of a critical roll that hits."""
    if attack.blocked or attack.auto_hit:
        return False
    if always_misses(rules, roll):
        return fumble_mode(rules) in FOLLOWED_FUMBLES
    return (
        critical_mode(rules) in FOLLOWED_CRITICALS
        and hits(rules, attack, roll)
        and threatens(rules, attack, roll)
    )


def result(rules: RuleSet, attack: Attack, roll: int, follow: int | None = None) -> str:
    """:func:`resolve` with both rolls checked against their dice (an attack with dice added to the
    roll is resolved once their total is in its mods: ``with_added_roll``)."""
    check_rolls(rules, roll, follow)
    return resolve(rules, with_added_roll(attack, None), roll, follow)


def check_rolls(rules: RuleSet, roll: int, follow: int | None) -> None:
    """The natural roll and the follow-up roll on their dice."""
    check_roll(rules, roll)
    if follow is not None:
        check_roll(rules, follow, "FOLLOW ROLL", follow_faces(rules))
