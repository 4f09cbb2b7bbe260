"""The roll block of the generic Attack calculator: the numbers that change every attack (bonus,
target, modifier, the natural roll, any follow-up roll, the damage roll, the target's hit points)
beside the number needed, the chances and the result."""

from __future__ import annotations

from dataclasses import replace

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc.damage_kinds import labels
from pycalc.encounter_block import SUBDUAL
from pycalc.odds import EXPECTED, EXPECTED_ROUND, KILL, KILL_ROUND
from pycalc.resolution_block import (
    NEAR_MISS_COLUMN,
    Resolution,
    checked_charts,
    outcome_chart,
    own_roll_charts,
    possible,
    shows_chart_text,
    target_kind,
)
from pycalc.resolution_calculator import adds_dice, rolls_further, uses_follow, uses_level
from pycalc.resolution_situation import DICE_COLUMN
from pycalc.sheets import block_formulas, d20_cells, d20_check
from pycalc.sheets import d20_formulas as f
from pycalc.sheets.calculator import add_list
from pycalc.sheets.common import (
    CALCULATOR_CHART_ANCHOR,
    PERCENT_FORMAT,
    SUBTITLE,
    put,
)
from pycalc.sheets.d20_cells import FACE_CRITS, FACE_FUMBLES, FACE_HITS, FACE_WEIGHTS
from pycalc.sheets.d20_check import check_lines
from pycalc.sheets.d20_damage import odds_formulas
from pycalc.sheets.d20_layout import (
    OUT_COLUMN,
    OUT_LABEL,
    ROLL_COLUMN,
    Line,
    put_input,
    put_output,
    whole_number_check,
)
from pycalc.sheets.d20_pickers import first_filled
from pycalc.sheets.d20_range import unless_stopped
from pycalc.sheets.d20_workings import calculator_cells, damage_cells
from pycalc.sheets.kind_formulas import subdual_picked
from pycalc.sheets.roll_entry import DICE_SHOWN, add_roll_check, attack_roll, follow_roll, own_chart_roll
from pycalc.sheets.situation_cells import pick_name
from pycalc.sheets.target_state import (
    KIND,
    KIND_HELP,
    PART,
    STATE,
    SUBDUAL_TAKEN,
    TAKEN_HELP,
    guarded,
    has_subdual,
    state_formulas,
)
from pycalc.table_files import Table
from pycalc.tables import RuleSet


def target_words(block: Resolution) -> tuple[str, str]:
    """(input label, help) of the target the GM types."""
    return {
        "number_needed": (
            "Number needed (attack matrix)",
            "the number the attacker needs on the matrix for this defender",
        ),
        "descending_ac": ("Defender's armor class (descending)", "descending AC, before the situation below"),
    }.get(target_kind(block), ("Defender's armor class", "ascending AC, before the situation below"))


def bonus_words(block: Resolution) -> tuple[str, str]:
    """(input label, help) of the attacker's number the GM types: its bonus, or its THAC0."""
    if target_kind(block) == "descending_ac":
        return "THAC0", "the attacker's roll needed to hit AC 0, before any modifier"
    return "Attack bonus", "the attacker's total bonus to hit"


def follow_words(block: Resolution) -> str:
    """The follow-up roll's label: what each of the block's follow-up rolls is for."""
    words = {
        "confirm": "confirm",
        "chart": "chart",
        "level_check": "fumble check",
    }
    critical = [words[m] for m in possible(block.critical.mode) if m in ("confirm", "chart")]
    fumble = [words[m] for m in possible(block.fumble.mode) if m in ("level_check", "chart")]
    uses = [f"critical: {'/'.join(critical)}"] if critical else []
    uses += [f"fumble: {'/'.join(fumble)}"] if fumble else []
    return f"Follow-up d20 ({'; '.join(uses)})"


def follow_help(block: Resolution) -> str:
    """The follow-up roll's help: a confirmation (critical mode confirm) confirms at the number needed."""
    confirms = "confirm" in possible(block.critical.mode)
    return (
        "only when the result asks for it"
        + (" (a confirmation: the natural roll needed or more)" if confirms else "")
        + "; clear it after"
    )


def chart_roll_words(rules: RuleSet, block: Resolution) -> tuple[str, str]:
    """The chart roll's label and help: the chart's title, or with a chart each after a Critical and a
    Fumble, which is which."""
    charts = [(outcome, rules.table(chart.table).title) for outcome, chart in own_roll_charts(block).items()]
    if len(charts) == 1:
        outcome, title = charts[0]
        return f"Roll on the {title}", f"only after {chart_follows(rules, block, outcome)}; clear it after"
    said = "; ".join(
        f"after {chart_follows(rules, block, outcome)}: the {title}" for outcome, title in charts
    )
    return "Chart roll (" + " or ".join(outcome for outcome, _ in charts) + ")", f"{said}; clear it after"


def column_label(table: Table, column_id: str) -> str:
    return next(c.label for c in table.columns if c.id == column_id)


def chart_follows(rules: RuleSet, block: Resolution, outcome: str) -> str:
    """The result a chart rolled on by a roll of its own follows: "a Critical", or the row of the chart
    that leads to it (``Chart.then``): "a Critical whose chart row says: Also roll 1d4 ..."."""
    chart = own_roll_charts(block)[outcome]
    if chart.when is None:
        return f"a {outcome}"
    parent = outcome_chart(block, outcome)
    assert parent is not None
    return f"a {outcome} whose chart row says: {column_label(rules.table(parent.table), chart.when)}"


def near_miss_effect(rules: RuleSet, block: Resolution, effect: str) -> str:
    """The effect, or what a Miss short of the target by 1 to ``effect.near_miss_by`` does
    (``resolution_calculator.near_miss_said``): "missed by 2: " and a counted pick's words."""
    if block.effect is None or block.effect.near_miss_by is None:
        return effect
    if first_filled(rules, block, NEAR_MISS_COLUMN) is None:
        return effect
    added = f"-{d20_cells.ADDED_VALUE}" if adds_dice(rules) else ""
    margin = f"({d20_cells.RAW_NEED}-{d20_cells.ROLL}{added})"
    near = (
        f'AND({d20_cells.RESULT}="Miss",{d20_cells.NEAR_MISS}<>"",{margin}>=1,'
        f"{margin}<={block_formulas.expr(block.effect.near_miss_by)})"
    )
    return f'IF({near},"missed by "&{margin}&": "&{d20_cells.NEAR_MISS},{effect})'


def roll_block(rules: RuleSet, block: Resolution) -> list[Line]:
    target_label, target_help = target_words(block)
    bonus_label, bonus_help = bonus_words(block)
    lines = [
        Line(
            bonus_label,
            d20_cells.BONUS,
            20 if target_kind(block) == "descending_ac" else 0,
            bonus_help,
            "Natural roll needed",
            d20_cells.NEED,
            d20_cells.NEED,
            key=True,
        ),
        Line(
            target_label,
            d20_cells.TARGET,
            10,
            target_help,
            "Chance to hit",
            d20_cells.HIT_CHANCE,
            unless_stopped(rules, block, f"SUMPRODUCT({FACE_HITS},{FACE_WEIGHTS})", "0"),
            PERCENT_FORMAT,
        ),
        Line(
            "Modifier to the roll (free)",
            d20_cells.MODS,
            0,
            "anything not among the situation picks below",
            "Chance of a critical",
            d20_cells.CRIT_CHANCE,
            unless_stopped(rules, block, f"SUMPRODUCT({FACE_CRITS},{FACE_WEIGHTS})", "0"),
            PERCENT_FORMAT,
        ),
        Line(
            "Natural roll (the kept die)"
            if block.advantage is not None
            else "Natural roll (the die as it shows)",
            d20_cells.ROLL,
            None,
            "type the die as rolled: 1 to 20"
            + (
                "; with Advantage type the highest of the dice rolled, with Disadvantage the lowest"
                if block.advantage is not None
                else ""
            ),
            "Result",
            d20_cells.RESULT,
            unless_stopped(rules, block, f.Formulas(block, calculator_cells(rules)).checked_result()),
            key=True,
        ),
    ]
    if block.effect is not None:
        lines.append(
            Line(
                out_label="What the result does",
                out_name=d20_cells.EFFECT,
                out_formula=near_miss_effect(
                    rules, block, f.Formulas(block, calculator_cells(rules)).effect()
                ),
            )
        )
    if adds_dice(rules):
        lines.append(
            Line(
                "Dice on the roll: their total",
                d20_cells.ADDED_ROLL,
                None,
                "the total of the dice the picked rows add to the roll (a die taken away counts minus)",
                "Dice on the roll",
                d20_cells.ADDED_DICE,
                d20_cells.ADDED_DICE,
            )
        )
    chart = (
        {
            "out_label": "What the chart says",
            "out_name": d20_cells.CHART_EFFECT,
            "out_formula": f.Formulas(block, calculator_cells(rules)).chart_effect(rules),
        }
        if shows_chart_text(block)
        else {}
    )
    rolled_charts = own_roll_charts(block)  # the chart's words then show beside its own roll
    if uses_follow(block):
        lines.append(
            Line(
                follow_words(block),
                d20_cells.FOLLOW,
                None,
                follow_help(block),
                **({} if rolled_charts else chart),
            )
        )
    if rolled_charts:
        label, help_text = chart_roll_words(rules, block)
        lines.append(Line(label, d20_cells.CHART_ROLL, None, help_text, **chart))
    lines += check_lines(block, calculator_cells(rules))
    if uses_level(block):
        lines.append(
            Line("Attacker's level", d20_cells.LEVEL, 1, "a fumble happens when the check roll is higher")
        )
    lines += [
        Line(
            "Damage roll (what the dice show)",
            d20_cells.DAMAGE_ROLL,
            None,
            "the dice alone, without the +N",
            "Damage",
            d20_cells.DAMAGE,
            f.Formulas(block, calculator_cells(rules)).attack_damage(),
            key=True,
        ),
        *(
            [
                Line(
                    "Further damage roll (extra dice)",
                    d20_cells.EXTRA_ROLL,
                    None,
                    "the critical's further roll of the dice, all of them together",
                )
            ]
            if rolls_further(block)
            else []
        ),
        Line(
            "Damage bonus (free)",
            d20_cells.DAMAGE_BONUS,
            0,
            "added to the dice's +N",
            "Chance of a fumble",
            d20_cells.FUMBLE_CHANCE,
            unless_stopped(rules, block, f"SUMPRODUCT({FACE_FUMBLES},{FACE_WEIGHTS})", "0"),
            PERCENT_FORMAT,
        ),
        Line(
            "Target's hit points now",
            d20_cells.HP,
            10,
            "the target's current hit points",
            "Target's hit points after",
            d20_cells.HP_AFTER,
            f'IF(OR({d20_cells.DAMAGE}="",NOT(ISNUMBER({d20_cells.DAMAGE}))),"",N({d20_cells.HP})-{d20_cells.DAMAGE})',
            key=True,
        ),
        *target_state_lines(rules, block),
        Line(
            "Attacks this round",
            d20_cells.ATTACKS,
            1,
            "same attack, independent",
            "Expected damage per attack",
            EXPECTED,
            odds_formulas(rules, block, damage_cells(rules))[EXPECTED],
            "0.00",
        ),
        Line(
            out_label="Expected damage this round",
            out_name=EXPECTED_ROUND,
            out_formula=odds_formulas(rules, block, damage_cells(rules))[EXPECTED_ROUND],
            out_format="0.00",
        ),
        Line(
            out_label="Chance one attack drops the target",
            out_name=KILL,
            out_formula=odds_formulas(rules, block, damage_cells(rules))[KILL],
            out_format=PERCENT_FORMAT,
        ),
        Line(
            out_label="Chance to drop it this round",
            out_name=KILL_ROUND,
            out_formula=odds_formulas(rules, block, damage_cells(rules))[KILL_ROUND],
            out_format=PERCENT_FORMAT,
        ),
    ]
    return lines


def chart_anchor(rules: RuleSet, block: Resolution, first_row: int) -> str:
    """Where the damage chart goes: its usual cell, or under the roll block's last input where that
    reaches it (a chart's check adds two), so no input's label hides under the chart."""
    lines = roll_block(rules, block)
    last = max(first_row + 1 + index for index, line in enumerate(lines) if line.name)
    return f"A{max(int(CALCULATOR_CHART_ANCHOR[1:]), last + 1)}"


def target_state_lines(rules: RuleSet, block: Resolution) -> list[Line]:
    """With an encounter block: the target's state after the hit (``target_state``), and where the
    ruleset has a subdual kind of damage the subdual damage it has taken and this hit's part of it."""
    if rules.encounter_block is None:
        return []
    modifiers = block.modifiers or ()
    picked = (
        subdual_picked(
            rules,
            lambda table_id, row_id: pick_name(table_id, row_id) if table_id in modifiers else None,
            lambda table_id: pick_name(table_id) if table_id in modifiers else None,
        )
        if has_subdual(rules)
        else "FALSE"
    )
    part, state = state_formulas(rules, picked)
    shown = Line(out_label="Target's state after the hit", out_name=STATE, out_formula=guarded(state))
    if part is None:
        return [shown]
    label = labels(rules)[SUBDUAL]
    return [
        replace(shown, label=f"{label} damage it has taken", name=SUBDUAL_TAKEN, help=TAKEN_HELP),
        Line(out_label=f"Of this hit, {label.lower()} damage", out_name=PART, out_formula=part),
    ]


def write_roll_block(
    book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, first_row: int
) -> int:
    rolls = {
        d20_cells.ROLL: attack_roll(rules),
        d20_cells.FOLLOW: follow_roll(rules),
        d20_cells.DAMAGE_ROLL: DICE_SHOWN,
        d20_cells.EXTRA_ROLL: DICE_SHOWN,
    }
    if own_roll_charts(block):
        rolls[d20_cells.CHART_ROLL] = own_chart_roll(rules)
    if checked_charts(block):
        rolls[d20_check.ROLL] = attack_roll(rules)
    number_ranges = {
        d20_cells.ATTACKS: (0, limits.ATTACKS, "the attacks this round"),
        d20_cells.LEVEL: (0, 99, "the attacker's level"),
        SUBDUAL_TAKEN: (0, limits.HIT_POINTS, "the subdual damage taken"),
    }
    put(sheet.cell(first_row, 1), "This attack").font = SUBTITLE
    put(sheet.cell(first_row, OUT_LABEL), "What it gives").font = SUBTITLE
    row = first_row
    for row, line in enumerate(roll_block(rules, block), start=first_row + 1):
        if line.name:
            put(sheet.cell(row, 1), line.label)
            put_input(book, sheet, row, ROLL_COLUMN, line.name, line.value, line.help)
            where = sheet.cell(row, ROLL_COLUMN).coordinate
            if line.name in rolls:
                add_roll_check(sheet, where, rolls[line.name])
            if line.name in number_ranges:
                low, high, what = number_ranges[line.name]
                whole_number_check(sheet, where, low, high, what)
        if line.out_name:
            put_output(book, sheet, row, line)
    row += 2
    put(sheet.cell(row, OUT_LABEL), "Damage dice (e.g. 1d8+2)")
    put_input(
        book,
        sheet,
        row,
        OUT_COLUMN,
        d20_cells.DICE,
        "1d8",
        "the weapon's damage dice with its +N, e.g. 1d8+1"
        + (
            "; a picked row's own dice replace them"
            if first_filled(rules, block, DICE_COLUMN) is not None
            else ""
        ),
    )
    if has_subdual(rules):
        row += 1
        label = labels(rules)[SUBDUAL]
        put(sheet.cell(row, OUT_LABEL), "Kind of damage")
        put_input(book, sheet, row, OUT_COLUMN, KIND, None, KIND_HELP.format(label=label))
        add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, label)
    return row + 2
