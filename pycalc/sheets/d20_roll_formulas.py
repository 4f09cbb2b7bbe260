"""The roll half of the generic d20 formulas (``pycalc.sheets.d20_formulas``): the target and the
number needed, the result of a roll, and the chances face by face."""

from __future__ import annotations

from typing import Any

from pycalc.d20 import CRITICAL
from pycalc.resolution_block import (
    Chart,
    NeedRange,
    Resolution,
    outcome_chart,
    own_roll_charts,
    possible,
    shows_chart_text,
)
from pycalc.sheets.block_formulas import (
    by_choice,
    choose,
    expr,
    in_rolls,
    is_mode,
    literal,
    need_weights,
    off_dice,
)
from pycalc.sheets.common import table_name
from pycalc.sheets.d20_cells import CHART_EFFECT, CONFIRM_COUNTS, Cells
from pycalc.sheets.formulas import band, q


def chart_filled(chart: Chart) -> str:
    """TRUE once a chart over an entries table has a row (``resolution_results.unfilled``): the GM's
    rows of a table shipped empty, typed into the workbook; a row with one end only is none)."""
    low, high = (table_name(chart.table, str(column)) for column in (chart.from_column, chart.to_column))
    return f"SUMPRODUCT(ISNUMBER({low})*ISNUMBER({high}))>0"


class RollFormulas:
    """The block's roll rules as formula text over the cells named in ``c`` (any expression will do)."""

    def __init__(self, block: Resolution, c: Cells | None = None) -> None:
        self.block = block
        self.c = c or Cells()

    def always_misses(self, face: str) -> str:
        return in_rolls(self.block.always_miss, face)

    def always_hits(self, face: str) -> str:
        return in_rolls(self.block.always_hit, face)

    def critical_roll(self, face: str) -> str:
        rolls = self.block.critical.rolls
        return in_rolls(self.block.always_hit if rolls is None else rolls, face)

    # --------------------------------------------------------------------------- the target and the need

    def target_now(self) -> str:
        no_change = self.c.sit_ac == "0"  # (the heat maps' cells: no situation)

        def changed(kind: str) -> str:
            sign = "-" if kind == "descending_ac" else "+"  # harder to hit: a lower descending AC
            return (
                self.c.target
                if no_change
                else f"{self.c.target}{sign}{self.c.sit_ac}*({expr(self.block.ac_change)})"
            )

        return by_choice(
            self.block.target,
            lambda kind: by_choice(
                self.block.least_target,
                lambda least: changed(kind) if least is None else f"MAX({literal(least)},{changed(kind)})",
            ),
        )

    def raw_need(self) -> str:
        return by_choice(
            self.block.target,
            lambda kind: (
                f"{self.c.bonus}-{self.c.target_now}-{self.c.total_mods}"
                if kind == "descending_ac"
                else f"{self.c.target_now}-{self.c.bonus}-{self.c.total_mods}"
            ),
        )

    def need(self) -> str:
        return f"{self.c.raw_need}+({expr(self.block.hit_margin)})"

    def need_basis(self) -> str:
        return by_choice(
            self.block.need_basis, lambda basis: self.c.target_now if basis == "target" else self.c.raw_need
        )

    def in_need_range(self, span: Any) -> str:
        """TRUE when the need basis is in the range (``resolution.in_need_range``)."""

        def render(found: Any) -> str:
            if found is None:
                return "FALSE"
            assert isinstance(found, NeedRange)
            tests = (("at_least", ">="), ("above", ">"), ("at_most", "<="), ("below", "<"))
            parts = [
                by_choice(
                    getattr(found, key),
                    lambda b, op=op: "TRUE" if b is None else f"{self.c.need_basis}{op}{literal(b)}",
                )
                for key, op in tests
                if getattr(found, key) is not None
            ]
            return f"AND({','.join(parts)})" if parts else "TRUE"

        return by_choice(span, render)

    def crit_possible(self) -> str:
        return f"AND(NOT({is_mode(self.block.critical.mode, 'none')}),NOT({self.in_need_range(self.block.critical.no_critical_when_needed)}))"

    def cannot_hit(self) -> str:
        return f"OR({self.c.sit_cannot_hit},AND({self.c.sit_needs_magic},{is_mode(self.block.needs_magic, 'cannot_hit')}))"

    def loses_auto_hit(self) -> str:
        return f"AND({self.c.sit_needs_magic},{is_mode(self.block.needs_magic, 'no_auto_hit')})"

    def hits(self, face: str) -> str:
        """TRUE when ``face`` hits (by the always-hit rule or by the total), before the always-miss rule."""
        return f"OR(AND({self.always_hits(face)},NOT({self.loses_auto_hit()})),{face}>={self.c.need})"

    def confirms(self, follow: str) -> str:
        fails = expr(self.block.critical.confirm_natural_miss_fails)
        return f"AND(NOT(AND({fails},{self.always_misses(follow)})),{follow}>={self.c.need})"

    # --------------------------------------------------------------------------- the result of a roll

    def plain_row(self, chart: Chart | None, key: str) -> str:
        """TRUE when the chart row of ``key`` makes the natural roll plain (``resolution.plain_row``)."""
        if chart is None or chart.special is None:
            return "FALSE"
        special = f"IFERROR({band(chart.table, chart.special, key)}=TRUE,FALSE)"
        return f"AND({expr(chart.plain_unless_special)},NOT({special}))"

    def follow_total(self, follow: str) -> str:
        """The critical chart's key: the follow roll, plus the roll's mods when ``follow_adds_mods``."""
        chart = self.block.critical.chart
        if chart is None:
            return follow
        return f"{follow}+IF({expr(chart.follow_adds_mods)},{self.c.total_mods},0)"

    def fumble_result(self, follow: str) -> str:
        mode = self.block.fumble.mode
        checked = f'IF(AND(ISNUMBER({follow}),{follow}>{self.c.level}),"Fumble","Miss")'
        charted = f'IF(ISNUMBER({follow}),IF({self.plain_row(self.block.fumble.chart, follow)},"Miss","Fumble"),"Fumble")'
        return (
            f'IF({is_mode(mode, "always")},"Fumble",IF({is_mode(mode, "level_check")},{checked},'
            f'IF({is_mode(mode, "chart")},{charted},"Miss")))'
        )

    def critical_result(self, face: str, follow: str) -> str:
        mode = self.block.critical.mode
        confirmed = f'IF(ISNUMBER({follow}),IF({self.confirms(follow)},"Critical","Hit"),"Hit")'
        plain = self.plain_row(self.block.critical.chart, self.follow_total(follow))
        charted = f'IF(ISNUMBER({follow}),IF({plain},"Hit","Critical"),"Critical")'
        return (
            f'IF(OR(NOT({self.critical_roll(face)}),NOT({self.c.crit_possible})),"Hit",'
            f'IF({is_mode(mode, "automatic")},"Critical",IF({is_mode(mode, "chart")},{charted},{confirmed})))'
        )

    def result(self, face: str, follow: str) -> str:
        """Miss, Hit, Critical or Fumble of a natural roll (``resolution.resolve``)."""
        return (
            f'IF({self.c.sit_auto_hit},"Hit",IF({self.always_misses(face)},{self.fumble_result(follow)},'
            f'IF({self.cannot_hit()},"Miss",IF(NOT({self.hits(face)}),"Miss",{self.critical_result(face, follow)}))))'
        )

    def follow_needed(self, face: str) -> str:
        """TRUE when the result of the natural roll ``face`` waits on a follow-up roll (a fumble check
        or chart after an always-miss roll, a confirmation or chart after a critical roll)."""
        fumble, critical = self.block.fumble.mode, self.block.critical.mode
        fumble_follows = f"OR({is_mode(fumble, 'level_check')},{is_mode(fumble, 'chart')})"
        critical_follows = f"OR({is_mode(critical, 'confirm')},{is_mode(critical, 'chart')})"
        threat = (
            f"AND(NOT({self.cannot_hit()}),{self.hits(face)},{self.critical_roll(face)},"
            f"{self.c.crit_possible},{critical_follows})"
        )
        return f"AND(NOT({self.c.sit_auto_hit}),IF({self.always_misses(face)},{fumble_follows},{threat}))"

    def chart_read(self, follow: str) -> str:
        """The summary's words after a follow-up roll the critical chart read with the modifiers
        (``&" + 2 = 16 on the chart"``, ``resolution_summary.follow_read``); '' without such a chart."""
        chart = self.block.critical.chart
        if chart is None or not any(possible(chart.follow_adds_mods)):
            return ""
        read = self.follow_total(follow)
        result = self.c.result
        charted = f'AND(OR({result}="Hit",{result}="Critical"),{is_mode(self.block.critical.mode, "chart")},{read}<>{follow})'
        added = f'" "&IF({read}<{follow},"- ","+ ")&ABS({read}-{follow})&" = "&({read})&" on the chart"'
        return f'&IF({charted},{added},"")'

    def ruled_out(self, cannot_hit_words: str, needs_magic_words: str) -> str:
        """Why a Miss could never hit, after the result (``resolution_summary.ruled_out_said``): the
        words of the situation flag that rules the attack out (cannot hit, else needs magic)."""
        said = f"IF({self.c.sit_cannot_hit},{q(cannot_hit_words)},{q(needs_magic_words)})"
        return f'&IF(AND({self.c.result}="Miss",{self.cannot_hit()}),{said},"")'

    def penalty_said(self) -> str:
        """The damage a hit on an always-hit roll lost, after the damage (``resolution_summary.penalty_said``)."""
        lost = self.roll_penalty(self.c.roll)
        return f'&IF({lost}>0," ("&{lost}&" less for a natural "&{self.c.roll}&")","")'

    def summary(self, state: str = "", ruled_out: str = "", penalty: str = "") -> str:
        """The outcome in one line, naming the follow-up roll it used (and the total the critical chart
        read, when it adds the modifiers); a follow-up roll left from an
        earlier attack that this roll does not use is called out, never silently kept. The roll it
        waits for is named once: the follow-up roll first, then the damage roll, then any further one.
        ``state``: the words after the target's hit points (``target_state.said``: its state);
        ``ruled_out``: why a Miss could never hit (``ruled_out``), after the result; ``penalty``: the
        damage the natural roll cost (``penalty_said``), after the damage."""
        c = self.c
        result, damage, follow = c.result, c.damage, c.follow
        needed = self.follow_needed(c.roll)
        given = f"ISNUMBER({follow})"
        used = f'IF(AND({needed},{given})," (follow-up roll "&{follow}{self.chart_read(follow)}&")","")'
        waiting = (
            f'IF(AND({needed},NOT({given}))," - type the follow-up roll",'
            f'IF(AND(NOT({needed}),{given})," - the follow-up roll "&{follow}&" is not used by this roll: clear it",""))'
        )
        dealt = f'" damage"{penalty}&", the target is at "' if penalty else '" damage, the target is at "'
        damage_part = (
            f'IF(ISNUMBER({damage}),IF({damage}>0,": "&{damage}&{dealt}&{c.hp_after}&" HP"{state},""),'
            f'IF({damage}="",IF(OR(AND({needed},NOT({given})),AND({result}<>"Hit",{result}<>"Critical")),"",'
            f'IF(ISNUMBER({c.damage_roll}),": type the further damage roll",": type the damage roll")),": "&{damage}))'
        )
        said = "" if c.effect is None else f'&IF({c.effect}="","",", "&{c.effect})'
        chart_said = f'&IF({CHART_EFFECT}<>"",", "&{CHART_EFFECT},"")' if shows_chart_text(self.block) else ""
        chart_asks = ""
        if c.chart_roll is not None:  # asked for once the follow-up roll, if any, has decided the result
            chart_asks = f'&IF(AND({needed},NOT({given})),"",""{self.chart_asks()})'
        return (
            f'IF({result}="","Type the natural roll",IF(LEFT({result},1)="#",{result},'
            f"{result}&{used}{ruled_out}{said}{chart_said}&{damage_part}&{waiting}{chart_asks}))"
        )

    def chart_reads(self, outcome: str, chart: Chart) -> str:
        """TRUE when the result reads the chart rolled on by a roll of its own after ``outcome``
        (``resolution_results.own_roll_chart``): one that follows a chart's row (``Chart.then``) once the
        follow-up roll has read a row ticking its ``when``."""
        result = self.c.result
        if chart.when is None:
            return f'{result}="{outcome}"'
        parent = outcome_chart(self.block, outcome)
        key = self.follow_total(self.c.follow) if outcome == CRITICAL else self.c.follow
        assert parent is not None
        ticks = band(parent.table, chart.when, key)
        return f'IF({result}="{outcome}",IF(ISNUMBER({self.c.follow}),{ticks},FALSE),FALSE)'

    def chart_asks(self) -> str:
        """The summary's end for the charts rolled on by a roll of their own (``resolution_summary.chart_wait``):
        the roll it waits for, or the chart roll this result does not read."""
        c = self.c
        charts = own_roll_charts(self.block)
        reads = "OR(" + ",".join(self.chart_reads(o, chart) for o, chart in charts.items()) + ")"
        # a chart with no row yet asks for no roll: its words say where to fill it in
        waits = (
            "OR("
            + ",".join(
                self.chart_reads(o, chart)
                if chart.from_column is None
                else f"AND({self.chart_reads(o, chart)},{chart_filled(chart)})"
                for o, chart in charts.items()
            )
            + ")"
        )
        given = f"ISNUMBER({c.chart_roll})"
        return (
            f'&IF(AND({waits},NOT({given}))," - type the chart roll",'
            f'IF(AND(NOT({reads}),{given})," - the chart roll "&{c.chart_roll}&" is not used by this roll: clear it",""))'
        )

    def effect(self) -> str:
        """EFFECT: what the result does in words (``resolution_results.effect_text``): the block's
        ``effect.hit`` for a Hit or a Critical, its ``miss`` for a Miss or a Fumble."""
        effect, result = self.block.effect, self.c.result
        assert effect is not None
        hit, miss = (q("") if said is None else expr(said) for said in (effect.hit, effect.miss))
        return (
            f'IF(OR({result}="",LEFT({result},1)="#"),"",'
            f'IF(OR({result}="Hit",{result}="Critical"),{hit},{miss})&"")'
        )

    def checked_result(self) -> str:
        """RESULT: '' before the roll, the engine's messages for a roll off its die (the follow-up roll's
        die may be a die of its own, ``follow_die``)."""
        off_die = f"OR({self.c.roll}<1,{self.c.roll}>{self.c.faces},{self.c.roll}<>INT({self.c.roll}))"
        follow, top = self.c.follow, self.c.follow_faces  # IF, not AND: INT() of a text is an error
        follow_off = f"IF(ISNUMBER({follow}),OR({follow}<1,{follow}>{top},{follow}<>INT({follow})),FALSE)"
        return (
            f'IF(ISBLANK({self.c.roll}),"",IF(NOT(ISNUMBER({self.c.roll})),"#ROLL? 1 to "&{self.c.faces},IF({off_die},"#ROLL? 1 to "&{self.c.faces},'
            f'IF({follow_off},"#FOLLOW ROLL? 1 to "&{top},{self.with_added_dice(self.result(self.c.roll, self.c.follow))}))))'
        )

    def with_added_dice(self, result: str) -> str:
        """``result``, or the message while the total of the dice a picked row adds to the roll is not
        typed or off their range (``resolution.with_added_roll``)."""
        c = self.c
        if c.added_any == "FALSE":
            return result
        off = off_dice(c.added_roll, c.added_low, c.added_high)
        return (
            f'IF(AND({c.added_any},{off}),"#DICE ON THE ROLL? "&{c.added_low}&" to "&{c.added_high},{result})'
        )

    def by_total_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` hits by its total: over every total of the dice added to
        the roll (a row of totals, ``Cells.added_values``)."""
        assert self.c.added_values is not None
        return f"SUMPRODUCT(({face}+{self.c.added_values}>={self.c.need})*{self.c.added_chances})"

    # --------------------------------------------------------------------------- chances, face by face

    def face_hit_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` is a Hit or a Critical (0 or 1 without dice on the roll)."""
        if self.c.added_values is not None:
            auto = f"AND({self.always_hits(face)},NOT({self.loses_auto_hit()}))"
            hit = f"IF({auto},1,{self.by_total_chance(face)})"
        else:
            hit = f"IF({self.hits(face)},1,0)"
        return f"IF({self.c.sit_auto_hit},1,IF({self.always_misses(face)},0,IF({self.cannot_hit()},0,{hit})))"

    def face_crit_chance(self, face: str) -> str:
        mode = self.block.critical.mode
        if self.c.added_values is not None and "confirm" in possible(mode):
            hit = self.face_hit_chance(face)
            by_mode = choose(
                is_mode(mode, "automatic"),
                hit,
                choose(
                    is_mode(mode, "chart"), f"{hit}*{self.c.crit_keep}", self.hit_and_confirm_chance(face)
                ),
            )
            return (
                f"IF({self.c.sit_auto_hit},0,IF(OR(NOT({self.critical_roll(face)}),"
                f"NOT({self.c.crit_possible})),0,{by_mode}))"
            )
        return (
            f"IF({self.c.sit_auto_hit},0,{self.face_hit_chance(face)}*IF(OR(NOT({self.critical_roll(face)}),"
            f"NOT({self.c.crit_possible})),0,IF({is_mode(mode, 'automatic')},1,"
            f"IF({is_mode(mode, 'chart')},{self.c.crit_keep},{self.c.confirm_chance}))))"
        )

    def hit_and_confirm_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` hits and a follow-up roll confirms it, over every total
        of the dice on the roll: the engine adds the one total to both rolls (``resolution.chances``
        over ``fixed_attacks``), so the two are weighed together, total by total."""
        c = self.c
        assert c.added_values is not None
        auto = f"AND({self.always_hits(face)},NOT({self.loses_auto_hit()}))"
        weighed = f"{CONFIRM_COUNTS}*{need_weights(c.need, c.added_values, c.added_chances)}"
        by_total = f"({face}+{c.added_values}>={c.need})"
        confirmed = f"IF({auto},SUMPRODUCT({weighed}),SUMPRODUCT({weighed}*{by_total}))/{c.faces}"
        return f"IF({self.always_misses(face)},0,IF({self.cannot_hit()},0,{confirmed}))"

    def face_fumble_chance(self, face: str) -> str:
        mode = self.block.fumble.mode
        top = self.c.follow_faces
        by_level = f"MAX(0,MIN({top},{top}-{self.c.level}))/{top}"
        return (
            f"IF({self.c.sit_auto_hit},0,IF({self.always_misses(face)},IF({is_mode(mode, 'always')},1,"
            f"IF({is_mode(mode, 'level_check')},{by_level},IF({is_mode(mode, 'chart')},{self.c.fumble_keep},0))),0))"
        )

    def face_confirms(self, face: str) -> str:
        return f"IF({is_mode(self.block.critical.mode, 'confirm')},IF({self.confirms(face)},1,0),0)"

    def roll_mode(self) -> str:
        """normal, advantage or disadvantage (``resolution.roll_mode``): both at once as the block says."""
        rule = self.block.advantage
        both = q("normal") if rule is None else expr(rule.both)
        adv, dis = self.c.sit_advantage, self.c.sit_disadvantage
        return f'IF(AND({adv},{dis}),{both},IF({adv},"advantage",IF({dis},"disadvantage","normal")))'

    def face_weight(self, face: str) -> str:
        """Chance the kept natural roll shows ``face`` (``resolution.face_weight``): with Advantage the
        highest of n dice is kept, with Disadvantage the lowest of m."""
        faces, mode, rule = self.c.faces, self.c.roll_mode, self.block.advantage
        if rule is None:
            return f"1/{faces}"
        n, m = expr(rule.highest_of), expr(rule.lowest_of)
        return (
            f'IF({mode}="advantage",({face}^{n}-({face}-1)^{n})/{faces}^{n},'
            f'IF({mode}="disadvantage",(({faces}+1-{face})^{m}-({faces}-{face})^{m})/{faces}^{m},1/{faces}))'
        )
