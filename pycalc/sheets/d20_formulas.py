"""Native formulas of the generic d20 resolution (``pycalc.resolution``), written from a ruleset's
``resolution:`` block: the same rules, as spreadsheet formula text over defined names.

Every value of the block becomes an expression: a literal, a lookup of the table cell it names
(``formulas.const``), or, when a ruling chooses it, ``IF(RULING_X="choice", ..., ...)`` over the
Rulings sheet's cell, so flipping a ruling in the workbook changes the result as the engine does.
The rules are those of :func:`pycalc.resolution_results.resolve` in the same order (see its module).

What the generic sheet does not write yet is refused when the workbook is built, with the block's
``file:line``: a follow die of its own read by a confirmation or a chart (a fumble check reads
it), further rolls (``rerolled``) with a ``dice_rolled`` above 1 or in a table of formulas, and with
dice a picker adds to the roll (``hit: 1d4``) a chart read with the roll's modifiers, and the rules that
read the number needed where the block does not read the target (``unsupported_with_added_dice``). Those dice enter the result through their typed total and the
chances through the row of every total's chance (``Cells.added_values``).
Advantage weighs each face (``face_weight``); each damage multiplier stage takes its factor from a
cell (the first the situation's, a later one its own, ``stage_factor_name``) and a picked rounding
from a flag (``stage_round_up_name``); the natural penalty of an always-hit roll comes off the dice
part or the total as the block says; a critical chart's row names the damage formula
(``ChartFormula``), and a chart's ``text`` is shown. The shipped rulesets use these formulas over
their own calculators' cells (``own_calculator``) for the roll's result, and for a hit's damage
(bfrpg, cnc, combat17, osr) and the damage odds (all four): a ruleset whose pickers are its own
names in ``Cells`` the cells that hold what they decide (the situation's damage and multipliers, the
least damage, whether a hit deals any, the natural penalty).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from pycalc import resolution_results
from pycalc.d20 import CRITICAL, FUMBLE
from pycalc.resolution_block import (
    HIT_FORMULA,
    TEXT_JOIN,
    Chart,
    Formula,
    Stage,
    possible,
)
from pycalc.resolution_calculator import rolls_further
from pycalc.resolution_damage import SCOPES
from pycalc.sheets.block_formulas import by_choice, choose, expr, is_mode, off_dice, rounded, typed_number
from pycalc.sheets.common import table_name
from pycalc.sheets.d20_cells import EXACT_DIGITS, Cells, ChartFormula, stage_factor_name, stage_round_up_name
from pycalc.sheets.d20_roll_formulas import RollFormulas, chart_filled
from pycalc.sheets.formulas import band, last, q
from pycalc.table_files import TableError, TableProblem
from pycalc.tables import RuleSet


def own_calculator(rules: RuleSet, **cells: Any) -> Formulas:
    """The generic formulas over a shipped ruleset's own Attack calculator cells (``cells``: Cells
    fields). Its pickers are its own, so the situation flags default to FALSE and every multiplier
    stage's factor to 1 (rounded down where the rounding is picked); without a ``need`` the roll
    needed is worked from ``raw_need`` and the block's hit margin."""
    block = rules.resolution_block
    if block is None:
        raise TableError([TableProblem(f"{rules.id}/ruleset.yaml", 1, "no resolution block")])
    stages = [stage.name for stage in block.damage.multipliers]
    flags = {
        "sit_cannot_hit": "FALSE",
        "sit_needs_magic": "FALSE",
        "sit_auto_hit": "FALSE",
        "sit_advantage": "FALSE",
        "sit_disadvantage": "FALSE",
        "roll_mode": '"normal"',
        "sit_multiplier": "1",
        "stage_multipliers": {**dict.fromkeys(stages, "1"), **cells.pop("stage_multipliers", {})},
        "stage_round_up": {**dict.fromkeys(stages, "FALSE"), **cells.pop("stage_round_up", {})},
    }
    found = Cells(**{**flags, **cells})
    if "need" not in cells:
        found = replace(found, need=f"({Formulas(block, found).need()})")
    if "natural_penalty" not in cells:
        found = replace(found, natural_penalty=f"({Formulas(block, found).natural_penalty()})")
    return Formulas(block, found)


def chart_ends(chart: Chart) -> tuple[str, str]:
    """The lowest and highest roll on a chart rolled on by a roll of its own: its bands' ends, or 1 to
    its die over an entries table (``resolution_results.chart_die``)."""
    if chart.die is not None:
        return "1", expr(chart.die)
    return f"INDEX({table_name(chart.table, 'from')},1)", last(chart.table, "to")


def listed_text(chart: Chart, roll: str) -> str:
    """The text of the one row of a chart over an entries table whose rolls cover ``roll``, or why
    there is none (``resolution_results.listed_row``)."""
    low, high = (table_name(chart.table, str(column)) for column in (chart.from_column, chart.to_column))
    covers = f"ISNUMBER({low})*ISNUMBER({high})*({low}<={roll})*({high}>={roll})"
    index = f"SUMPRODUCT({covers}*(ROW({low})-ROW(INDEX({low},1))+1))"
    return (
        f'IF(SUMPRODUCT({covers})=0,"#CHART ROLL? no row covers "&{roll},'
        f'IF(SUMPRODUCT({covers})>1,"#CHART? two rows cover "&{roll},'
        f"{text_of(chart, lambda column: f'INDEX({table_name(chart.table, column)},{index})')}))"
    )


def text_of(chart: Chart, value_of: Callable[[str], str]) -> str:
    """What a chart row says (``resolution_results.row_text``): its ``text`` columns' texts
    (``value_of(column)``), the empty ones left out, joined by ': ' (each part starts with it: the first
    one's is cut)."""
    return joined(chart.text or (), value_of)


def joined(columns: tuple[str, ...], value_of: Callable[[str], str]) -> str:
    """The texts of a row's ``columns`` (``value_of(column)``), the empty ones left out, joined by ': '
    (each part starts with it: the first one's is cut)."""
    parts = [f'IF({value_of(c)}&""="","","{TEXT_JOIN}"&{value_of(c)})' for c in columns]
    return f'REPLACE({"&".join(parts)},1,LEN("{TEXT_JOIN}"),"")'


class Formulas(RollFormulas):
    """The block's rules as formula text over the cells named in ``c`` (any expression will do): the
    roll's (``RollFormulas``) and the damage's."""

    # --------------------------------------------------------------------------- damage

    def coefficient(self, spec: Any, part: str) -> str:
        """One part of a damage formula as a formula: inline, a row of ``damage.formulas`` (by id, or
        the one a critical chart row names), or chosen by a ruling."""

        def render(found: Any) -> str:
            if isinstance(found, ChartFormula):
                chart = self.block.critical.chart
                assert chart is not None and chart.formula is not None
                return self.formula_row_part(band(chart.table, chart.formula, found.key), part)
            if isinstance(found, str):
                return self.formula_row_part(q(found), part)
            formula = found if isinstance(found, Formula) else HIT_FORMULA
            return expr(getattr(formula, part))

        return by_choice(spec, render)

    def formula_row_part(self, row_id: str, part: str) -> str:
        """``part`` of the ``damage.formulas`` row whose id is ``row_id`` (0 when no column holds it)."""
        found = self.block.damage.formulas
        column = None if found is None else found.columns.get(part)
        if found is None or column is None:
            return "0"
        return f"INDEX({table_name(found.table, column)},MATCH({row_id},{table_name(found.table, 'id')},0))"

    def charted_critical(self) -> bool:
        """A critical's damage is the formula its chart row names (critical mode chart)."""
        return possible(self.block.critical.mode) == ["chart"]

    def formula_parts(
        self, spec: Any, rolled: str, extra: str | None = None, penalty: str = "0"
    ) -> dict[str, str]:
        """A hit's damage parts (``resolution.SCOPES`` names): the dice part and the fixed parts of the
        formula. The dice part is ``dice_rolled`` x ``rolled`` + the further rolls' total ``extra``;
        without ``extra`` (the odds), ``rolled`` is a total of all the dice a formula with further
        rolls throws (``dice_rolled`` is then 0 or 1: ``unsupported``). A natural ``penalty`` taken
        from the die comes off the dice part (:meth:`less_die_penalty`). A part whose coefficient is
        0 in every case (no column holds it) is left out."""
        part = self.coefficient
        dice_rolled, rerolled = part(spec, "dice_rolled"), part(spec, "rerolled")
        if rerolled == "0":
            dice_part = f"({dice_rolled})*{rolled}"
        elif extra is None:
            dice_part = f"IF(({rerolled})<>0,{rolled},({dice_rolled})*{rolled})"
        else:
            dice_part = f"({dice_rolled})*{rolled}+IF(({rerolled})<>0,{extra},0)"
        parts = {
            "rolled": (dice_rolled == rerolled == "0", self.less_die_penalty(dice_part, penalty)),
            "dice_max": (
                part(spec, "dice_max") == "0",
                f"({part(spec, 'dice_max')})*{self.c.dice_count}*{self.c.dice_sides}",
            ),
            "die_max": (part(spec, "die_max") == "0", f"({part(spec, 'die_max')})*{self.c.dice_sides}"),
            "modifier": (
                part(spec, "modifier") == "0",
                f"({part(spec, 'modifier')})*({self.c.dice_mod}+{self.c.sit_damage}+{self.c.damage_bonus})",
            ),
        }
        return {name: text for name, (none, text) in parts.items() if not none}

    def stage_factor(self, index: int, stage: Stage) -> str:
        """The factor of a multiplier stage: the situation's for the first, the stage's own cell after."""
        if not index:
            return self.c.sit_multiplier
        return self.c.stage_multipliers.get(stage.name, stage_factor_name(stage.name))

    def rounds_up(self, stage: Stage) -> str:
        """TRUE when the stage rounds up: by the block (maybe by ruling), or as the picked row says."""
        picked = self.c.stage_round_up.get(stage.name, stage_round_up_name(stage.name))
        return by_choice(
            stage.rounding, lambda rounding: {"up": "TRUE", "picked": picked}.get(rounding, "FALSE")
        )

    def formula_amount(
        self, spec: Any, rolled: str, multiplied: Any = True, extra: str | None = None, penalty: str = "0"
    ) -> str:
        """A hit's damage before the least (``resolution.amount_rule``): the parts, then each multiplier
        stage in order, rounded as the block says: the first over its scope, a later one over the
        running total."""
        parts = self.formula_parts(spec, rolled, extra, penalty)
        total = "+".join(parts.values()) or "0"
        stages = self.block.damage.multipliers
        if not stages or multiplied is False:
            return total
        amount = total
        for index, stage in enumerate(stages):
            factor = self.stage_factor(index, stage)
            if not index:  # the parts outside the scope are kept out of the product
                outside = by_choice(
                    stage.scope,
                    lambda scope: "+".join(parts[p] for p in parts if p not in SCOPES[scope]) or "0",
                )
                exact = f"ROUND(({total}-({outside}))*{factor}+({outside}),{EXACT_DIGITS})"
            else:
                exact = f"ROUND(({amount})*{factor},{EXACT_DIGITS})"
            amount = rounded(self.rounds_up(stage), exact)
        return amount if multiplied is True else f"IF({expr(multiplied)},{amount},{total})"

    def damage_specs(self) -> tuple[Any, Any, Any]:
        """(hit, critical, automatic hit) formula specs of the block; a charted critical reads the row
        of the entered follow-up roll."""
        rule = self.block.damage
        critical = rule.hit if rule.critical is None else rule.critical
        if self.charted_critical():
            critical = ChartFormula(self.follow_total(self.c.follow))
        return rule.hit, critical, rule.hit if rule.auto_hit is None else rule.auto_hit

    def least_of(self, amount: str) -> str:
        """A hit's damage never below the least, or 0 when the hit deals none (``resolution.amount``,
        ``Damage.least`` and ``Damage.deals_damage``)."""
        least = expr(self.block.damage.least) if self.c.least is None else self.c.least
        return choose(self.deals(), f"MAX({least},{amount})", "0")

    def deals(self) -> str:
        """TRUE when a hit deals damage (``resolution_damage.deals``): the calculator's own say and the
        block's ``damage.deals``."""
        flags = [flag for flag in (self.c.deals_damage, expr(self.block.damage.deals)) if flag != "TRUE"]
        return "TRUE" if not flags else flags[0] if len(flags) == 1 else f"AND({','.join(flags)})"

    # --------------------------------------------------------------------------- the natural penalty

    def natural_penalty(self) -> str:
        """NATURAL_PENALTY: what a hit on an always-hit roll loses in this attack
        (``resolution.natural_penalty``): ``per_point`` for each point the need basis is above
        ``above``; nothing for an automatic hit, nor without ``damage.natural_penalty``."""
        rule = self.block.damage.natural_penalty
        if rule is None:
            return "0"
        above, basis = f"({expr(rule.above)})", self.c.need_basis
        return (
            f"IF(AND(NOT({self.c.sit_auto_hit}),{basis}>{above}),"
            f"({basis}-{above})*({expr(rule.per_point)}),0)"
        )

    def roll_penalty(self, face: str) -> str:
        """What a hit on the natural roll ``face`` loses: NATURAL_PENALTY on an always-hit roll."""
        if self.block.damage.natural_penalty is None:
            return "0"
        return f"IF({self.always_hits(face)},{self.c.natural_penalty},0)"

    def penalty_from(self, where: str, penalty: str) -> str:
        """``penalty`` when the block takes it from ``where`` (``total`` or ``die``), else 0."""
        rule = self.block.damage.natural_penalty
        if rule is None or penalty == "0":
            return "0"
        return f"IF({is_mode(rule.applies_to, where)},{penalty},0)"

    def less_die_penalty(self, dice_part: str, penalty: str) -> str:
        """The dice part less a penalty taken from the die, never below the least (``amount_rule``)."""
        taken = self.penalty_from("die", penalty)
        if taken == "0":
            return dice_part
        return f"IF({taken}<>0,MAX({expr(self.block.damage.least)},{dice_part}-{taken}),{dice_part})"

    def less_total_penalty(self, total: str, penalty: str) -> str:
        """The damage less a penalty taken from the total (after the multipliers)."""
        taken = self.penalty_from("total", penalty)
        return total if taken == "0" else f"{total}-{taken}"

    def penalized_amount(self, spec: Any, rolled: str, penalty: str) -> str:
        """A hit's damage by the formula ``spec`` less the natural ``penalty``, never below the least."""
        return self.least_of(
            self.less_total_penalty(self.formula_amount(spec, rolled, True, None, penalty), penalty)
        )

    def damage_of(self, outcome: str, rolled: str, extra: str | None = None, penalty: str = "0") -> str:
        """A hit's damage (Hit or Critical in ``outcome``) less the natural ``penalty`` of its roll
        (none for an automatic hit), never below the least."""
        hit, critical, auto = self.damage_specs()
        rule = self.block.damage
        auto_multiplied = True if rule.auto_hit is None else rule.auto_hit_multiplied
        chosen = self.by_outcome(
            outcome,
            lambda: self.formula_amount(auto, rolled, auto_multiplied, extra),
            lambda: self.formula_amount(critical, rolled, True, extra, penalty),
            lambda: self.formula_amount(hit, rolled, True, extra, penalty),
        )
        return self.least_of(self.less_total_penalty(chosen, penalty))

    def by_outcome(
        self, outcome: str, auto: Callable[[], str], critical: Callable[[], str], hit: Callable[[], str]
    ) -> str:
        """``auto`` on an automatic hit, else ``critical`` for a Critical in ``outcome``, else ``hit``;
        a branch that cannot be taken (no automatic hit in an own calculator, a literal "Hit") is
        left out of the formula."""
        chosen = hit() if outcome == q("Hit") else choose(self.deals_critical(outcome), critical(), hit())
        return chosen if self.c.sit_auto_hit == "FALSE" else choose(self.c.sit_auto_hit, auto(), chosen)

    def deals_critical(self, outcome: str) -> str:
        """TRUE when ``outcome`` deals a critical's damage: a Critical, unless ``critical_extra`` says
        a critical deals what a hit deals."""
        critical = f'{outcome}="Critical"'
        return critical if self.c.critical_extra == "TRUE" else f"AND({critical},{self.c.critical_extra})"

    def in_use(self, part: str) -> str:
        """``part`` of the formula the entered result uses (automatic hit, critical or hit)."""
        hit, critical, auto = self.damage_specs()
        return self.by_outcome(
            self.c.result,
            lambda: self.coefficient(auto, part),
            lambda: self.coefficient(critical, part),
            lambda: self.coefficient(hit, part),
        )

    def attack_damage(self) -> str:
        """DAMAGE of the entered rolls (``resolution.attack_damage``): 0 for a miss, '' until rolled."""
        c = self.c
        count, sides = c.dice_count, c.dice_sides
        needs_roll = f"AND({self.in_use('dice_rolled')}<>0,{count}>0)"
        rolled = f"IF({count}>0,{typed_number(c.damage_roll)},0)"  # checked where the formula in use rolls it
        chart_waits = (
            f'AND({c.result}="Critical",NOT(ISNUMBER({c.follow})))' if self.charted_critical() else "FALSE"
        )
        no_damage, deals = f'AND({c.result}<>"Hit",{c.result}<>"Critical")', self.deals()
        if deals != "TRUE":  # a hit that deals none needs no damage roll
            no_damage = f"OR({no_damage},NOT({deals}))"
        return (
            f'IF(OR({c.result}="",LEFT({c.result},1)="#"),"",IF({no_damage},0,'
            f'IF({c.dice_message}<>"",{c.dice_message},IF({chart_waits},"",'
            f'IF(AND({needs_roll},ISBLANK({c.damage_roll})),"",'
            f"IF(AND({needs_roll},{off_dice(c.damage_roll, count, f'{count}*{sides}')}),"
            f'"#DAMAGE ROLL? "&{count}&" to "&{count}*{sides},'
            f"{self.with_further_roll(rolled)}))))))"
        )

    def with_further_roll(self, rolled: str) -> str:
        """The damage of the entered result, with the further dice's total when a formula rolls them:
        '' until it is typed, a message when those dice cannot show it."""
        c = self.c
        penalty = self.roll_penalty(c.roll)
        if not rolls_further(self.block):
            return self.damage_of(c.result, rolled, penalty=penalty)
        further = f"({self.in_use('rerolled')})*{c.dice_count}"
        needs_extra = f"AND({further}<>0,{c.dice_count}>0)"
        damage = self.damage_of(
            c.result, rolled, f"IF({c.dice_count}>0,{typed_number(c.extra_roll)},0)", penalty
        )
        return (
            f'IF(AND({needs_extra},ISBLANK({c.extra_roll})),"",'
            f"IF(AND({needs_extra},{off_dice(c.extra_roll, further, f'{further}*{c.dice_sides}')}),"
            f'"#EXTRA DAMAGE ROLL? "&{further}&" to "&{further}*{c.dice_sides},{damage}))'
        )

    def chart_effect(self, rules: RuleSet) -> str:
        """What the chart row of a Critical or a Fumble says (``resolution_results.chart_text``): read
        by the follow-up roll, or by the chart roll on a chart of its own."""
        c, critical, fumble = self.c, self.block.critical.chart, self.block.fumble.chart
        critical_text = (
            self.rolled_chart(rules, critical)
            if critical is not None and critical.own_roll
            else self.followed(
                text_of(critical, partial(band, critical.table, key_expr=self.follow_total(c.follow)))
            )
            if critical is not None and critical.text and self.charted_critical()
            else '""'
        )
        fumble_text = (
            self.rolled_chart(rules, fumble)
            if fumble is not None and fumble.own_roll
            else self.followed(text_of(fumble, partial(band, fumble.table, key_expr=c.follow)))
            if fumble is not None and fumble.text and possible(self.block.fumble.mode) == ["chart"]
            else '""'
        )
        critical_text = self.then_said(rules, CRITICAL, critical, critical_text)
        fumble_text = self.then_said(rules, FUMBLE, fumble, fumble_text)
        return f'IF({c.result}="Critical",{critical_text}&"",IF({c.result}="Fumble",{fumble_text}&"",""))'

    def then_said(self, rules: RuleSet, outcome: str, chart: Chart | None, read: str) -> str:
        """A chart row's text, then '; ' and what the chart it leads to (``Chart.then``) says once the row
        ticks its ``when`` and its roll is typed; the row's text alone without such a chart."""
        then = None if chart is None else chart.then
        if then is None:
            return read
        rolled = self.rolled_chart(rules, then)
        joined = f'IF({rolled}="","",IF({read}="","","; ")&{rolled})'
        return f'{read}&IF({self.chart_reads(outcome, then)},{joined},"")'

    def followed(self, text: str) -> str:
        return f'IF(ISNUMBER({self.c.follow}),{text},"")'

    def rolled_chart(self, rules: RuleSet, chart: Chart) -> str:
        """A chart's text read by the chart roll: '' before it, a message off the chart's die; where
        the GM fills the chart in, and before they do."""
        roll, low, high = self.c.chart_roll, *chart_ends(chart)
        assert roll is not None and chart.text is not None
        row = (
            text_of(chart, partial(band, chart.table, key_expr=roll))
            if chart.from_column is None
            else listed_text(chart, roll)
        )
        read = (
            f'IF(NOT(ISNUMBER({roll})),"",IF(OR({roll}<{low},{roll}>{high},{roll}<>INT({roll})),'
            f'"#CHART ROLL? "&{low}&" to "&{high},{row}))'
        )
        if chart.from_column is None:
            return read
        return f"IF({chart_filled(chart)},{read},{q(resolution_results.fill_in_words(rules, chart))})"
