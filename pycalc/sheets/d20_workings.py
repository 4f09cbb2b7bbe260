"""The d20 workings sheet of the generic Attack calculator: its working cells (the situation's
sums, the target now, the number needed, the multiplier stages) and the face-by-face columns the
chances are counted from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc import limits, resolution_situation
from pycalc import resolution as engine
from pycalc.resolution_block import NEAR_MISS_COLUMN, Resolution, own_roll_charts, possible
from pycalc.resolution_calculator import (
    adds_dice,
    uses_follow,
    uses_level,
)
from pycalc.resolution_situation import CRITICAL_AS_HIT, DICE_COLUMN
from pycalc.sheets import block_formulas, d20_cells
from pycalc.sheets import d20_formulas as f
from pycalc.sheets import d20_heat as heat
from pycalc.sheets.common import (
    BOLD,
    absolute,
    define_name,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.d20_added import added_cells, dice_rows, write_added_dice
from pycalc.sheets.d20_cells import (
    FACE_CONFIRMS,
    FACE_CRIT_FORMULAS,
    FACE_CRIT_KEEPS,
    FACE_CRITS,
    FACE_FUMBLES,
    FACE_HITS,
    FACE_WEIGHTS,
    WORKINGS_SHEET,
)
from pycalc.sheets.d20_damage import NAMED, shared_parts
from pycalc.sheets.d20_pickers import (
    first_filled,
    kept_cells,
    kind_flag,
    no_attack_said,
    situation_flag,
    situation_product,
    situation_sum,
    stage_product,
)
from pycalc.sheets.d20_range import HIT as RANGE_HIT
from pycalc.sheets.d20_range import range_cells, stop_cells, unless_stopped
from pycalc.sheets.formulas import DICE_ERROR, band
from pycalc.tables import RuleSet


def calculator_cells(rules: RuleSet) -> d20_cells.Cells:
    """The generic calculator's cells: with dice on the roll, the result reads the need less their
    typed total and the chances weigh every total; with the block's ``effect``, the summary says it."""
    cells = NAMED
    if adds_dice(rules):
        cells = replace(
            cells, need=f"({d20_cells.NEED}-{d20_cells.ADDED_VALUE})", added_any=d20_cells.ADDED_ANY
        )
    if engine.block(rules).effect is not None:
        cells = replace(cells, effect=d20_cells.EFFECT)
    if own_roll_charts(engine.block(rules)):
        cells = replace(cells, chart_roll=d20_cells.CHART_ROLL)
    return with_critical_as_hit(rules, cells)


def odds_cells(rules: RuleSet) -> d20_cells.Cells:
    cells = d20_cells.Cells(added_values=d20_cells.ADDED_VALUES) if adds_dice(rules) else NAMED
    return with_critical_as_hit(rules, cells)


def damage_cells(rules: RuleSet) -> d20_cells.Cells:
    """The cells the odds of the damage read (the Damage workings, the odds outputs)."""
    return with_critical_as_hit(rules, NAMED)


def critical_as_hit_picked(rules: RuleSet) -> bool:
    """A picker has the column ``critical_as_hit`` (a Critical dealing what a Hit deals)."""
    tables = engine.block(rules).modifiers or ()
    return any(CRITICAL_AS_HIT in rules.table(t).column_ids for t in tables)


def with_critical_as_hit(rules: RuleSet, cells: d20_cells.Cells) -> d20_cells.Cells:
    """The cells with a Critical's extra damage off while a picked row ticks ``critical_as_hit``."""
    if not critical_as_hit_picked(rules):
        return cells
    return replace(cells, critical_extra=f"NOT({d20_cells.SIT_CRITICAL_AS_HIT})")


def stage_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """(name, label, formula) of each multiplier stage's factor, the product of its own column over
    the picked rows (the first stage's also of ``damage_multiplier``), and of the round-up flag of
    each stage whose rounding may be picked."""
    stages = block.damage.multipliers
    first = (
        stage_product(rules, block, stages[0], "damage_multiplier")
        if stages
        else situation_product(rules, block, "damage_multiplier")
    )
    cells = [(d20_cells.SIT_MULTIPLIER, "Situation: damage multiplier", first)]
    for index, stage in enumerate(stages):
        if index:
            own = stage_product(rules, block, stage)
            cells.append(
                (d20_cells.stage_factor_name(stage.name), f"Situation: damage multiplier {stage.name}", own)
            )
        if "picked" in possible(stage.rounding):
            up = situation_flag(rules, block, resolution_situation.stage_round_up_column(stage.name))
            cells.append(
                (d20_cells.stage_round_up_name(stage.name), f"Situation: {stage.name} rounds up", up)
            )
    return cells


def dice_text_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """The damage dice as read: a counted picked row's (a weapon's ``dice``) where a picker has them,
    else those typed; lower case, no spaces."""
    picked = first_filled(rules, block, DICE_COLUMN)
    if picked is None:
        return [(d20_cells.DICE_TEXT, "Dice as read", f'LOWER(SUBSTITUTE({d20_cells.DICE}&""," ",""))')]
    used = f'IF({d20_cells.PICKED_DICE}<>"",{d20_cells.PICKED_DICE},{d20_cells.DICE})'
    return [
        (d20_cells.PICKED_DICE, "Dice of a picked row", picked),
        (d20_cells.DICE_TEXT, "Dice as read", f'LOWER(SUBSTITUTE({used}&""," ",""))'),
    ]


def near_miss_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """What a near Miss does, the first counted pick's ``near_miss`` text (the block's
    ``effect.near_miss_by``)."""
    said = first_filled(rules, block, NEAR_MISS_COLUMN)
    if block.effect is None or block.effect.near_miss_by is None or said is None:
        return []
    return [(d20_cells.NEAR_MISS, "What a near miss does", said)]


def working_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """(name, label, formula) of the single working cells, in dependency order."""
    dice = block_formulas.dice_parts(d20_cells.DICE_TEXT)
    constant, readable = "ATTACK_DICE_CONSTANT", "ATTACK_DICE_READABLE"
    count_limit, sides_limit, mod_limit = limits.DICE_COUNT, limits.DICE_SIDES, limits.DICE_MODIFIER
    message = (
        f'IF({constant},"",IF(NOT({readable}),{DICE_ERROR},'
        f"IF(OR({d20_cells.DICE_SIDES}<1,{d20_cells.DICE_COUNT}<1,{d20_cells.DICE_COUNT}>{count_limit}),"
        f'"#DICE? 1 to {count_limit} dice of at least 1 side",'
        f'IF({d20_cells.DICE_SIDES}>{sides_limit},"#DICE? dice of 1 to {sides_limit} sides",'
        f'IF(ABS({d20_cells.DICE_MOD})>{mod_limit},"#DICE? dice: a modifier from -{mod_limit:,} to {mod_limit:,}","")))))'
    )
    cells = [
        (d20_cells.FACES, "Faces of the attack die", block_formulas.expr(block.die)),
        *kept_cells(rules, block),
        (d20_cells.SIT_HIT, "Situation: to the roll", situation_sum(rules, block, "hit")),
        *range_cells(rules, block),
        *stop_cells(block, no_attack_said(rules, block)),
        (d20_cells.SIT_AC, "Situation: to the defender's AC", situation_sum(rules, block, "ac")),
        (d20_cells.SIT_DAMAGE, "Situation: to the damage", situation_sum(rules, block, "damage")),
        (d20_cells.SIT_CANNOT_HIT, "Situation: no roll can hit", kind_flag(rules, block, "cannot_hit")),
        (
            d20_cells.SIT_NEEDS_MAGIC,
            "Situation: only a magic weapon hits",
            kind_flag(rules, block, "needs_magic"),
        ),
        (d20_cells.SIT_AUTO_HIT, "Situation: an automatic hit", kind_flag(rules, block, "auto_hit")),
        (d20_cells.SIT_ADVANTAGE, "Situation: Advantage", kind_flag(rules, block, "advantage")),
        (d20_cells.SIT_DISADVANTAGE, "Situation: Disadvantage", kind_flag(rules, block, "disadvantage")),
        *(
            [
                (
                    d20_cells.SIT_CRITICAL_AS_HIT,
                    "Situation: a critical deals a hit's damage",
                    situation_flag(rules, block, CRITICAL_AS_HIT),
                )
            ]
            if critical_as_hit_picked(rules)
            else []
        ),
        (d20_cells.ROLL_MODE, "The roll: normal, advantage or disadvantage", f.Formulas(block).roll_mode()),
        *stage_cells(rules, block),
        (
            d20_cells.TOTAL_MODS,
            "Modifiers to the roll, all told",
            f"SUM({d20_cells.MODS})+{d20_cells.SIT_HIT}" + (f"+{RANGE_HIT}" if block.range else ""),
        ),
        (d20_cells.TARGET_NOW, "Target in this situation", f.Formulas(block).target_now()),
        (d20_cells.RAW_NEED, "Target - bonus - modifiers", f.Formulas(block).raw_need()),
        (d20_cells.NEED, "Natural roll needed", f.Formulas(block).need()),
        (d20_cells.NEED_BASIS, "Number the natural-roll exceptions read", f.Formulas(block).need_basis()),
        (d20_cells.CRIT_POSSIBLE, "A critical is possible", f.Formulas(block).crit_possible()),
        (
            d20_cells.CONFIRM_CHANCE,
            "Chance a follow-up roll confirms",
            f"SUM({FACE_CONFIRMS})/{d20_cells.FACES}",
        ),
        (
            d20_cells.CRIT_KEEP,
            "Chance the critical chart keeps a critical",
            f"SUM({FACE_CRIT_KEEPS})/{d20_cells.FACES}" if f.Formulas(block).charted_critical() else "0",
        ),
        (
            d20_cells.FUMBLE_KEEP,
            "Chance the fumble chart keeps a fumble",
            f"SUM({heat.FUMBLE_CHART})/{d20_cells.FACES}" if heat.read_by_follow(block.fumble.chart) else "0",
        ),
        *dice_text_cells(rules, block),
        *near_miss_cells(rules, block),
        (constant, "Dice: a plain number", dice["constant"]),
        (readable, "Dice: NdS+M", dice["dice"]),
        (d20_cells.DICE_COUNT, "Dice: count", f"IF({constant},0,IF({readable},{dice['count']},0))"),
        (d20_cells.DICE_SIDES, "Dice: sides", f"IF({constant},0,IF({readable},{dice['sides']},0))"),
        (
            d20_cells.DICE_MOD,
            "Dice: modifier",
            f"IF({constant},VALUE({d20_cells.DICE_TEXT}),IF({readable},{dice['modifier']},0))",
        ),
        (d20_cells.DICE_MESSAGE, "Dice: what is wrong", message),
    ]
    if adds_dice(rules):
        cells += added_cells(dice_rows(rules, block))
    if block.damage.natural_penalty is not None:  # a hit on an always-hit roll loses some damage
        cells += [
            (
                d20_cells.NATURAL_PENALTY,
                "Damage a hit on an always-hit roll loses",
                f.Formulas(block).natural_penalty(),
            ),
            (
                d20_cells.NATURAL_HIT_CHANCE,
                "Chance of a hit on an always-hit roll",
                unless_stopped(
                    rules, block, f"SUMPRODUCT({FACE_HITS},{FACE_WEIGHTS},{heat.ALWAYS_HIT})", "0"
                ),
            ),
            (
                d20_cells.NATURAL_CRIT_CHANCE,
                "Chance of a critical on an always-hit roll",
                unless_stopped(
                    rules, block, f"SUMPRODUCT({FACE_CRITS},{FACE_WEIGHTS},{heat.ALWAYS_HIT})", "0"
                ),
            ),
        ]
    return cells


def crit_chart_columns(block: Resolution, rules_f: f.Formulas) -> list[tuple[str, str, Callable[[str], str]]]:
    """(name, title, formula of a face cell) of the per-face columns that weigh a charted critical's
    damage: whether the chart row each follow-up roll reads (with the roll's mods when the block
    says) keeps the critical, and the damage formula it names. None without a charted critical."""
    chart = block.critical.chart
    if not rules_f.charted_critical() or chart is None:
        return []
    return [
        (
            FACE_CRIT_KEEPS,
            "Critical chart keeps it",
            lambda x: heat.chart_keeps(block, chart, rules_f.follow_total(x)),
        ),
        (
            FACE_CRIT_FORMULAS,
            "Critical chart's damage",
            lambda x: band(chart.table, str(chart.formula), rules_f.follow_total(x)),
        ),
    ]


def write_workings(book: Workbook, rules: RuleSet, block: Resolution) -> None:
    """Hidden sheet: the working cells, then one row per face of the die: what the block says of it
    (``d20_heat.write_face_columns``) and its chances for this attack."""
    sheet = book.create_sheet(WORKINGS_SHEET)
    sheet.column_dimensions["A"].width = 36
    sheet.column_dimensions["B"].width = 16
    for row, (name, label, formula) in enumerate(working_cells(rules, block), start=1):
        put(sheet.cell(row, 1), label)
        put_formula(sheet.cell(row, 2), formula)
        define_name(book, name, absolute(sheet, f"B{row}"))
    unused = [(d20_cells.FOLLOW, None)] if not uses_follow(block) else []
    unused += [(d20_cells.LEVEL, 0)] if not uses_level(block) else []
    for row, (name, value) in enumerate(unused, start=len(working_cells(rules, block)) + 1):
        put(sheet.cell(row, 1), f"Not asked by this ruleset: {name}")
        put(sheet.cell(row, 2), value)
        define_name(book, name, absolute(sheet, f"B{row}"))
    first_col = 4
    rolls = f.Formulas(block, odds_cells(rules))
    columns = [
        (FACE_HITS, "Hits (this attack)", rolls.face_hit_chance),
        (FACE_CRITS, "Critical chance", rolls.face_crit_chance),
        (FACE_FUMBLES, "Fumble chance", rolls.face_fumble_chance),
        (FACE_CONFIRMS, "Confirms as a follow-up roll", rolls.face_confirms),
        (FACE_WEIGHTS, "Chance the kept roll shows it", rolls.face_weight),
    ]
    columns += crit_chart_columns(block, rolls)
    faces = engine.faces(rules)
    first, last = heat.HEADER + 1, heat.HEADER + faces
    face_letter = get_column_letter(first_col)
    parts = shared_parts(book, sheet, rules, first_col + len(heat.face_columns(block)) + len(columns) + 1)
    heat.write_face_columns(book, sheet, rules, block, first_col, parts)
    for col, (name, title, formula) in enumerate(columns, start=first_col + len(heat.face_columns(block))):
        letter = get_column_letter(col)
        put(sheet.cell(heat.HEADER, col), title).font = BOLD
        sheet.column_dimensions[letter].width = 14
        face_formula = parts.column_formula(formula)
        for row in range(first, last + 1):
            put_formula(sheet.cell(row, col), face_formula(f"${face_letter}{row}"))
        define_name(book, name, absolute(sheet, f"{letter}{first}", f"{letter}{last}"))
    if adds_dice(rules):
        free = write_added_dice(
            book,
            sheet,
            rules,
            dice_rows(rules, block),
            max(len(working_cells(rules, block)) + len(unused), last) + 2,
        )
        if "confirm" in possible(block.critical.mode):  # weighed with the dice, total by total
            heat.write_confirm_counts(book, sheet, block, faces, free + 1)
    sheet.sheet_state = "hidden"
    protect(sheet)
