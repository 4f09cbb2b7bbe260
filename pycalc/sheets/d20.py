"""The generic workbook sheets of a d20 ruleset described by its YAML alone: the Attack calculator,
its workings, the damage chart and the printable Odds sheet, all written from the ruleset's
``resolution:`` block and its ``modifiers:`` pickers (``pycalc.sheets.d20_formulas``). The
reference for every cell is ``pycalc.resolution_calculator``.

The calculator opens with the roll block: the numbers that change every attack (bonus, target,
modifier, the natural roll, any follow-up roll, the damage roll, the target's hit points) in column
B, holding numbers only, beside the number needed, the chances and the result in column E. The
dice text and the situation pickers sit in column E too, never in a roll's column, so that typing
``1`` in a roll cell cannot be completed into dice text by AutoInput / AutoComplete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openpyxl.chart import ScatterChart
from openpyxl.comments import Comment
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc import resolution as engine
from pycalc.grid_limits import MAX_DICE, MAX_SIDES, beyond_grid_formula
from pycalc.resolution_block import ROLL_COLUMN as HIT_COLUMN
from pycalc.resolution_block import Resolution, possible, target_kind
from pycalc.resolution_calculator import (
    NOT_ADDED,
    added_dice_bounds,
    adds_dice,
    rolls_further,
    shows_chart_text,
    uses_follow,
    uses_level,
)
from pycalc.sheets import block_formulas, d20_cells, d20_supported
from pycalc.sheets import d20_formulas as f
from pycalc.sheets import d20_heat as heat
from pycalc.sheets.calculator import ATTACK_SHEET, BOOLEAN_FORMAT, add_list
from pycalc.sheets.common import (
    BOLD,
    NOTE,
    PERCENT_FORMAT,
    SUBTITLE,
    TITLE,
    WRAP,
    absolute,
    damage_chart,
    define_name,
    mark_input,
    mark_output,
    protect,
    put,
    put_formula,
    show_chart,
    table_name,
)
from pycalc.sheets.dice_grid import HEADER_ROW, DiceGrid, write_dice_grid
from pycalc.sheets.dual import Udfs
from pycalc.sheets.formulas import DICE_ERROR, band, by_label, const, q, unless_down
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.log_rows import PartsArea, table_cells
from pycalc.sheets.roll_entry import DICE_SHOWN, add_roll_check, attack_roll, follow_roll
from pycalc.sheets.situation_cells import Pickers, column_terms, pick_name, picked
from pycalc.table_files import roll_dice
from pycalc.tables import RuleSet, Table

WORKINGS_SHEET = "d20 workings"
DAMAGE_SHEET = "Damage workings"
ODDS_SHEET = "Odds"
PREFIX = "D20_DMG"
P = f"{PREFIX}_P"
HIT_DAMAGE, CRIT_DAMAGE = "D20_ODDS_HIT_DAMAGE", "D20_ODDS_CRIT_DAMAGE"
MOST_ATTACKS, MOST_HP = "D20_ODDS_MOST_ATTACKS", "D20_ODDS_MOST_HP"
ODDS_LIMITS = (  # the odds' limits (pycalc.limits) as cells: no number is typed into a formula
    (MOST_ATTACKS, "Most attacks in a round (odds)", limits.ATTACKS),
    (MOST_HP, "Most hit points (odds)", limits.HIT_POINTS),
)
EXPECTED, EXPECTED_ROUND, KILL = (
    "ATTACK_EXPECTED_DAMAGE",
    "ATTACK_EXPECTED_DAMAGE_ROUND",
    "ATTACK_KILL_CHANCE",
)
FACE_CRIT_KEEPS, FACE_CRIT_FORMULAS = "D20W_CRIT_KEEPS", "D20W_CRIT_FORMULAS"
FACE_HITS, FACE_CRITS, FACE_FUMBLES, FACE_CONFIRMS, FACE_WEIGHTS = (
    "D20W_HITS",
    "D20W_CRITS",
    "D20W_FUMBLES",
    "D20W_CONFIRMS",
    "D20W_WEIGHTS",
)
CHART_CHANCE = "D20_ODDS_CHART_CHANCE"
CHART_DAMAGE = range(0, 121)  # chart rows (layout): damage 0..120
DOUBLED_CHART_DAMAGE = range(2 * MAX_DICE * MAX_SIDES + 1)  # a ruleset that doubles the damage: 0..192
HEAT_BONUS = {  # rows of the printed odds sheet (layout): the bonus, or THAC0 from the best down
    "armor_class": range(-2, 16),
    "number_needed": range(-2, 16),
    "descending_ac": range(1, 21),
}
HEAT_TARGET = {
    "armor_class": range(8, 29),
    "number_needed": range(2, 22),
    "descending_ac": range(10, -11, -1),
}
ROLL_COLUMN, OUT_LABEL, OUT_COLUMN, NOTE_COLUMN = 2, 4, 5, 6
SUMMARY_ROW = 3  # "In one line"; one row lower when the roster picks (roster_pick.PICKS) take row 3


@dataclass(frozen=True)
class Line:
    """One row of the roll block: an input on the left and an output on the right (either may be absent)."""

    label: str = ""
    name: str | None = None
    value: object = None
    help: str = ""
    out_label: str = ""
    out_name: str | None = None
    out_formula: str = ""
    out_format: str | None = None
    key: bool = False


# --------------------------------------------------------------------------- names and pickers


def picker_tables(rules: RuleSet, block: Resolution) -> list[Table]:
    return [rules.table(table_id) for table_id in block.modifiers or ()]


def pickers(rules: RuleSet, block: Resolution) -> Pickers:
    tables = picker_tables(rules, block)
    return Pickers(
        tuple(t.id for t in tables if t.picker == "choice"),
        tuple(t.id for t in tables if t.picker != "choice"),
        order=tuple(t.id for t in tables),
    )


def picked_terms(
    rules: RuleSet,
    block: Resolution,
    column: str,
    chosen: Callable[[str], str],
    ticked: Callable[[str, str], str],
) -> list[str]:
    """One term per picker row that has ``column``: ``chosen(value)`` of a choice table's picked row,
    ``ticked(is_ticked, value)`` for each row of a toggle table."""
    situation = pickers(rules, block)
    return column_terms(
        rules,
        situation,
        column,
        lambda table_id: chosen(picked(situation, table_id, column)),
        lambda box, value: ticked(f"{box}=TRUE", value),
    )


def situation_sum(rules: RuleSet, block: Resolution, column: str) -> str:
    """What the picked rows add up to in ``column`` (``resolution.picked_situation``)."""
    terms = picked_terms(rules, block, column, lambda v: f"N({v})", lambda tick, v: f"IF({tick},N({v}),0)")
    return "+".join(terms) or "0"


def situation_product(rules: RuleSet, block: Resolution, *columns: str) -> str:
    """The product of ``columns`` over the picked rows (1 where nothing is picked)."""
    terms = [
        term
        for column in columns
        for term in picked_terms(
            rules, block, column, lambda v: f"N({v})", lambda tick, v: f"IF({tick},N({v}),1)"
        )
    ]
    return "*".join(terms) or "1"


def situation_flag(rules: RuleSet, block: Resolution, column: str) -> str:
    """TRUE when a picked row has ``column`` ticked."""
    terms = picked_terms(rules, block, column, lambda v: f"{v}=TRUE", lambda tick, v: f"AND({tick},{v}=TRUE)")
    return f"OR({','.join(terms)})" if terms else "FALSE"


# --------------------------------------------------------------------------- dice on the roll


@dataclass(frozen=True)
class DiceRow:
    """A picker row whose ``hit`` adds dice to the roll (``1d4``, ``-1d4``)."""

    picked: str  # TRUE when the row is picked
    text: str  # its dice cell
    count: int  # how many dice, negative when taken away (the layout of their chances' rows)
    sides: int

    def part(self, name: str) -> str:
        """The count, the sides or the sign (-1 for dice taken away) read from the dice cell."""
        t = self.text
        return {
            "count": f'VALUE(SUBSTITUTE(LEFT({t},FIND("d",{t})-1),"-",""))',
            "sides": f'VALUE(MID({t},FIND("d",{t})+1,9))',
            "sign": f'IF(LEFT({t},1)="-",-1,1)',
        }[name]


def dice_rows(rules: RuleSet, block: Resolution) -> list[DiceRow]:
    found = []
    for table in picker_tables(rules, block):
        for row in table.rows:
            dice = roll_dice(row.values.get(HIT_COLUMN))
            if dice is None:
                continue
            if table.picker == "choice":
                picked = f"{pick_name(table.id)}={const(table.id, str(row.id), 'label')}"
            else:
                picked = f"{pick_name(table.id, str(row.id))}=TRUE"
            found.append(DiceRow(picked, const(table.id, str(row.id), HIT_COLUMN), *dice))
    return found


ADDED_SAID = "ATTACK_ADDED_SAID"


def added_cells(rows: list[DiceRow]) -> list[tuple[str, str, str]]:
    """(name, label, formula) of the working cells of the dice on the roll: each over the picks
    alone, so that a log row works them out from its own picks."""

    def picked_sum(term: Callable[[DiceRow], str]) -> str:
        return "+".join(f"IF({row.picked},{term(row)},0)" for row in rows)

    def low(row: DiceRow) -> str:
        count, sides = row.part("count"), row.part("sides")
        return f"IF({row.part('sign')}<0,-{count}*{sides},{count})"

    def high(row: DiceRow) -> str:
        count, sides = row.part("count"), row.part("sides")
        return f"IF({row.part('sign')}<0,-{count},{count}*{sides})"

    said = "&".join(
        f'IF({row.picked},IF({row.part("sign")}<0," - "," + ")&SUBSTITUTE({row.text},"-",""),"")'
        for row in rows
    )
    return [
        (d20_cells.ADDED_ANY, "Dice on the roll: any picked", f"OR({','.join(row.picked for row in rows)})"),
        (d20_cells.ADDED_LOW, "Dice on the roll: lowest total", picked_sum(low)),
        (d20_cells.ADDED_HIGH, "Dice on the roll: highest total", picked_sum(high)),
        (
            d20_cells.ADDED_VALUE,
            "Dice on the roll: their total (0 when none is picked)",
            f"IF({d20_cells.ADDED_ANY},{block_formulas.typed_number(d20_cells.ADDED_ROLL)},0)",
        ),
        (ADDED_SAID, "Dice on the roll: the picked rows' dice", said),
        (
            d20_cells.ADDED_DICE,
            "Dice on the roll: what they are",
            f'IF({d20_cells.ADDED_ANY},IF(LEFT({ADDED_SAID},3)=" + ","","-")&MID({ADDED_SAID},4,99)'
            f'&": type their total, "&{d20_cells.ADDED_LOW}&" to "&{d20_cells.ADDED_HIGH},{q(NOT_ADDED)})',
        ),
    ]


def write_added_dice(book: Workbook, sheet: Worksheet, rules: RuleSet, rows: list[DiceRow], top: int) -> int:
    """From row ``top`` of the hidden workings: the totals the picked dice can show across, then one
    row per die a picker row may add (picked, sign, sides) holding the chance of each total of the
    picked dice so far; the last row's are the chances the odds weigh. The next free row."""
    low, high = added_dice_bounds(rules)  # every total any picks can show
    totals = range(low, high + 1)
    titles = ("Dice on the roll", "Picked", "Sign", "Sides")
    for col, title in enumerate(titles, start=1):
        put(sheet.cell(top, col), title).font = BOLD
    first = len(titles) + 1
    start, end = get_column_letter(first), get_column_letter(first + len(totals) - 1)
    values = f"${start}${top}:${end}${top}"
    for col, total in enumerate(totals, start=first):
        put(sheet.cell(top, col), total)
        put_formula(sheet.cell(top + 1, col), f"IF({get_column_letter(col)}${top}=0,1,0)")
    put(sheet.cell(top + 1, 1), "No dice")
    dice = [row for row in rows for _ in range(abs(row.count))]
    for at, row in enumerate(dice, start=top + 2):
        put(sheet.cell(at, 1), f"Die {at - top - 1}")
        put_formula(sheet.cell(at, 2), f"IF({row.picked},1,0)")
        put_formula(sheet.cell(at, 3), row.part("sign"))
        put_formula(sheet.cell(at, 4), row.part("sides"))
        sign, sides, previous = f"$C{at}", f"$D{at}", f"${start}{at - 1}:${end}{at - 1}"
        for col in range(first, first + len(totals)):
            here = f"{get_column_letter(col)}${top}"
            near, far = f"{here}-{sign}", f"{here}-{sign}*{sides}"
            spread = (
                f"SUMPRODUCT(({values}>=MIN({near},{far}))*({values}<=MAX({near},{far}))*{previous})/{sides}"
            )
            put_formula(sheet.cell(at, col), f"IF($B{at}=1,{spread},{get_column_letter(col)}{at - 1})")
    last = top + 1 + len(dice)
    define_name(book, d20_cells.ADDED_VALUES, absolute(sheet, f"{start}{top}", f"{end}{top}"))
    define_name(book, d20_cells.ADDED_CHANCES, absolute(sheet, f"{start}{last}", f"{end}{last}"))
    return last + 1


def calculator_cells(rules: RuleSet) -> d20_cells.Cells:
    """The generic calculator's cells: with dice on the roll, the result reads the need less their
    typed total and the chances weigh every total."""
    if not adds_dice(rules):
        return NAMED
    return d20_cells.Cells(
        need=f"({d20_cells.NEED}-{d20_cells.ADDED_VALUE})",
        added_any=d20_cells.ADDED_ANY,
    )


def odds_cells(rules: RuleSet) -> d20_cells.Cells:
    return d20_cells.Cells(added_values=d20_cells.ADDED_VALUES) if adds_dice(rules) else NAMED


# --------------------------------------------------------------------------- workings


def stage_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """(name, label, formula) of each multiplier stage's factor, the product of its own column over
    the picked rows (the first stage's also of ``damage_multiplier``), and of the round-up flag of
    each stage whose rounding may be picked."""
    stages = block.damage.multipliers
    first = [engine.stage_factor_column(stage.name) for stage in stages[:1]]
    cells = [
        (
            d20_cells.SIT_MULTIPLIER,
            "Situation: damage multiplier",
            situation_product(rules, block, "damage_multiplier", *first),
        )
    ]
    for index, stage in enumerate(stages):
        if index:
            own = situation_product(rules, block, engine.stage_factor_column(stage.name))
            cells.append(
                (d20_cells.stage_factor_name(stage.name), f"Situation: damage multiplier {stage.name}", own)
            )
        if "picked" in possible(stage.rounding):
            up = situation_flag(rules, block, engine.stage_round_up_column(stage.name))
            cells.append(
                (d20_cells.stage_round_up_name(stage.name), f"Situation: {stage.name} rounds up", up)
            )
    return cells


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
        (d20_cells.SIT_HIT, "Situation: to the roll", situation_sum(rules, block, "hit")),
        (d20_cells.SIT_AC, "Situation: to the defender's AC", situation_sum(rules, block, "ac")),
        (d20_cells.SIT_DAMAGE, "Situation: to the damage", situation_sum(rules, block, "damage")),
        (d20_cells.SIT_CANNOT_HIT, "Situation: no roll can hit", situation_flag(rules, block, "cannot_hit")),
        (
            d20_cells.SIT_NEEDS_MAGIC,
            "Situation: only a magic weapon hits",
            situation_flag(rules, block, "needs_magic"),
        ),
        (d20_cells.SIT_AUTO_HIT, "Situation: an automatic hit", situation_flag(rules, block, "auto_hit")),
        (d20_cells.SIT_ADVANTAGE, "Situation: Advantage", situation_flag(rules, block, "advantage")),
        (d20_cells.SIT_DISADVANTAGE, "Situation: Disadvantage", situation_flag(rules, block, "disadvantage")),
        (d20_cells.ROLL_MODE, "The roll: normal, advantage or disadvantage", f.Formulas(block).roll_mode()),
        *stage_cells(rules, block),
        (
            d20_cells.TOTAL_MODS,
            "Modifiers to the roll, all told",
            f"SUM({d20_cells.MODS})+{d20_cells.SIT_HIT}",
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
            f"SUM({heat.FUMBLE_CHART})/{d20_cells.FACES}" if block.fumble.chart is not None else "0",
        ),
        (d20_cells.DICE_TEXT, "Dice as read", f'LOWER(SUBSTITUTE({d20_cells.DICE}&""," ",""))'),
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
                f"SUMPRODUCT({FACE_HITS},{FACE_WEIGHTS},{heat.ALWAYS_HIT})",
            ),
            (
                d20_cells.NATURAL_CRIT_CHANCE,
                "Chance of a critical on an always-hit roll",
                f"SUMPRODUCT({FACE_CRITS},{FACE_WEIGHTS},{heat.ALWAYS_HIT})",
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


# --------------------------------------------------------------------------- damage odds and chart
#
# Written over the cells a ``d20_cells.Cells`` names: the generic calculator's (``NAMED``), or those of a
# ruleset's own calculator (its situation's damage, its least damage, its dice cells, ...).

NAMED = d20_cells.Cells()


@dataclass(frozen=True)
class DamageColumn:
    """One column of damage per total of the dice on the Damage workings sheet."""

    name: str
    title: str
    weight: str  # its share of the criticals ("1": the only one, or the hit's column)
    amount: Callable[[str], str]  # the damage for the dice total in the cell given
    dice: str | None = None  # how many dice its totals are of, when a formula rolls further dice


def further_dice(rules_f: f.Formulas, spec: Any) -> str | None:
    """How many dice a formula with further rolls throws in all (None: none further)."""
    rerolled = rules_f.coefficient(spec, "rerolled")
    if rerolled == "0":
        return None
    dice_rolled = rules_f.coefficient(spec, "dice_rolled")
    count = rules_f.c.dice_count
    return f"IF(({rerolled})<>0,(({dice_rolled})+({rerolled}))*{count},{count})"


def damage_columns(
    rules: RuleSet, block: Resolution, cells: d20_cells.Cells = NAMED, penalty: str = "0"
) -> list[DamageColumn]:
    """The hit's column, then a critical's: one, or with a critical chart one per row of
    ``damage.formulas``, weighed by the share of the follow-up faces whose chart row names it (among
    those that keep the critical). With a natural ``penalty``: the same for a hit on an always-hit
    roll (:func:`natural_columns`)."""
    rules_f = f.Formulas(block, cells)
    named = (lambda name: name) if penalty == "0" else (lambda name: f"{name}_NATURAL")
    titled = (lambda title: title) if penalty == "0" else (lambda title: f"{title}, always-hit roll")
    hit, critical, auto = rules_f.damage_specs()
    hit_dice, auto_dice = further_dice(rules_f, hit), further_dice(rules_f, auto)
    dice = None
    if hit_dice or auto_dice:
        dice = f"IF({cells.sit_auto_hit},{auto_dice or cells.dice_count},{hit_dice or cells.dice_count})"
    columns = [
        DamageColumn(
            named(HIT_DAMAGE),
            titled("Damage of a hit"),
            "1",
            lambda x: rules_f.damage_of('"Hit"', x, penalty=penalty),
            dice,
        )
    ]
    formulas = block.damage.formulas
    if not rules_f.charted_critical() or formulas is None:
        columns.append(
            DamageColumn(
                named(CRIT_DAMAGE),
                titled("Damage of a critical"),
                "1",
                lambda x: rules_f.damage_of('"Critical"', x, penalty=penalty),
                further_dice(rules_f, critical),
            )
        )
        return columns
    keeps = f"MAX(1,SUM({FACE_CRIT_KEEPS}))"
    for number, row in enumerate(rules.table(formulas.table).rows, start=1):
        row_id = str(row.id)
        columns.append(
            DamageColumn(
                named(f"{CRIT_DAMAGE}_{number}"),
                titled(f"Damage of a critical: {row_id}"),
                f"SUMPRODUCT({FACE_CRIT_KEEPS},--({FACE_CRIT_FORMULAS}={q(row_id)}))/{keeps}",
                lambda x, row_id=row_id: rules_f.penalized_amount(row_id, x, penalty),
                further_dice(rules_f, row_id),
            )
        )
    return columns


def natural_columns(rules: RuleSet, block: Resolution, cells: d20_cells.Cells = NAMED) -> list[DamageColumn]:
    """The damage columns of a hit on an always-hit roll, less the natural penalty (none without
    ``damage.natural_penalty``)."""
    if block.damage.natural_penalty is None:
        return []
    return damage_columns(rules, block, cells, cells.natural_penalty)


def chances_of(column: DamageColumn) -> str:
    """The name of the chances its totals have: the dice grid's, or the column's own (further dice)."""
    return P if column.dice is None else f"{column.name}_P"


def fits(rules: RuleSet, block: Resolution, cells: d20_cells.Cells = NAMED) -> str:
    """The dice fit the grid, the further dice of every formula included (none: any dice fit)."""
    columns = damage_columns(rules, block, cells)
    further = [f"{c.dice}<={PREFIX}_MAX_DICE" for c in columns if c.dice is not None]
    return f"OR({cells.dice_count}=0,AND({','.join([f'{PREFIX}_OK', *further])}))"


def guarded(rules: RuleSet, block: Resolution, formula: str, cells: d20_cells.Cells = NAMED) -> str:
    """The dice's own message first, then the grid's, then the value."""
    return (
        f'IF({cells.dice_message}<>"",{cells.dice_message},'
        f"IF({fits(rules, block, cells)},{formula},{beyond_grid_formula(PREFIX)}))"
    )


def over_dice(column: DamageColumn, term: Callable[[str], str], cells: d20_cells.Cells = NAMED) -> str:
    """The mean of ``term`` of a per-total column over the dice (no dice: the row of total 0)."""
    return (
        f"IF({cells.dice_count}=0,{term(f'INDEX({column.name},1)')},"
        f"SUMPRODUCT({chances_of(column)},{term(column.name)}))"
    )


def weighted_terms(
    columns: list[DamageColumn],
    hit_only: str,
    critical: str,
    term: Callable[[str], str],
    cells: d20_cells.Cells,
) -> str:
    """The hit column by the chance ``hit_only``, then each critical column by its weight, by ``critical``;
    a critical that deals what a hit deals (``cells.critical_extra`` FALSE) has the hit's damage, over
    the hit's dice (not the further dice a critical's formula would roll)."""
    hit, *criticals = columns
    critical_terms = "+".join(f"{c.weight}*{over_dice(c, term, cells)}" for c in criticals)
    critical_terms = block_formulas.choose(cells.critical_extra, critical_terms, over_dice(hit, term, cells))
    return f"{hit_only}*{over_dice(hit, term, cells)}+{critical}*({critical_terms})"


def outcome_terms(
    rules: RuleSet, block: Resolution, term: Callable[[str], str], cells: d20_cells.Cells = NAMED
) -> str:
    """A miss-free sum over the outcomes: the hit alone, then each critical column by its weight;
    with a natural penalty, the hits on an always-hit roll apart, by their own columns."""
    hit, critical = cells.hit_chance, cells.crit_chance
    columns = damage_columns(rules, block, cells)
    natural = natural_columns(rules, block, cells)
    if not natural:
        return outcome_sum(columns, term, cells)
    natural_hit, natural_crit = cells.natural_hit_chance, cells.natural_crit_chance
    plain = weighted_terms(
        columns,
        f"({hit}-{critical}-{natural_hit}+{natural_crit})",
        f"({critical}-{natural_crit})",
        term,
        cells,
    )
    return f"{plain}+{weighted_terms(natural, f'({natural_hit}-{natural_crit})', natural_crit, term, cells)}"


def outcome_sum(columns: list[DamageColumn], term: Callable[[str], str], cells: d20_cells.Cells) -> str:
    """The outcomes' sum over ``columns`` (``damage_columns``, maybe with each weight read from a
    cell of its own) and the chances in the cells ``cells`` names."""
    return weighted_terms(
        columns, f"({cells.hit_chance}-{cells.crit_chance})", cells.crit_chance, term, cells
    )


def shared_parts(book: Workbook, sheet: Worksheet, rules: RuleSet, column: int) -> PartsArea:
    """Where a hidden workings sheet works out, once, the parts its columns share: down ``column``
    from row 1."""
    return PartsArea(sheet, column, 1, table_cells(rules, book))


def columns_width(columns: list[DamageColumn]) -> int:
    """The sheet columns ``write_damage_columns`` fills: one per column, two with further dice."""
    return sum(1 if c.dice is None else 2 for c in columns)


def write_damage_columns(
    book: Workbook, grid: DiceGrid, columns: list[DamageColumn], parts: PartsArea | None = None
) -> int:
    """The damage of each column per dice total of the grid (named as the column), and the chances
    of the totals of its further dice (the parts they share worked out once in ``parts``, when
    given); returns the first column left free."""
    sheet, col = grid.sheet, grid.free_column
    shared = (lambda formula: formula) if parts is None else parts.column_formula
    for column in columns:
        put(sheet.cell(HEADER_ROW, col), column.title)
        amount = shared(column.amount)
        for row in range(grid.first, grid.last + 1):
            put_formula(sheet.cell(row, col), amount(f"$A{row}"))
        define_name(book, column.name, grid.column(col))
        col += 1
        if column.dice is not None:
            put(sheet.cell(HEADER_ROW, col), f"Chance of the total ({column.dice})")
            chance = shared(
                lambda chances, dice=column.dice: (
                    f"IF({dice}<={grid.prefix}_MAX_DICE,INDEX({chances},1,{dice}+1),0)"
                )
            )
            for row in range(grid.first, grid.last + 1):
                put_formula(sheet.cell(row, col), chance(f"$B{row}:${get_column_letter(2 + MAX_DICE)}{row}"))
            define_name(book, chances_of(column), grid.column(col))
            col += 1
    return col


def write_damage_workings(
    book: Workbook,
    rules: RuleSet,
    block: Resolution,
    cells: d20_cells.Cells = NAMED,
    chart: range = CHART_DAMAGE,
) -> tuple[Worksheet, int]:
    """Hidden sheet: the dice grid, a hit's and a critical's damage for each dice total (and the
    chances of the totals of further dice), the chart's data (the damage amounts ``chart``): the
    sheet and the column of the chart's damage amounts (their chances are in the next)."""
    sheet = book.create_sheet(DAMAGE_SHEET)
    columns = damage_columns(rules, block, cells)
    further = [c.dice for c in columns if c.dice is not None]
    grid = write_dice_grid(
        book, sheet, cells.dice_text, PREFIX, f"MAX({','.join(further)})" if further else None
    )
    col = grid.free_column
    for row, (name, label, most) in enumerate(ODDS_LIMITS, start=1):
        put(sheet.cell(row, col), label)
        put(sheet.cell(row, col + 1), most)
        define_name(book, name, absolute(sheet, sheet.cell(row, col + 1).coordinate))
    every = columns + natural_columns(rules, block, cells)
    x_col = grid.free_column + columns_width(every)
    parts = shared_parts(book, sheet, rules, x_col + 3)  # right of the chart's damage and chance
    write_damage_columns(book, grid, every, parts)
    put(sheet.cell(HEADER_ROW, x_col), "Damage")
    put(sheet.cell(HEADER_ROW, x_col + 1), "Chance")

    def chance_of(here: str) -> str:
        terms = outcome_terms(rules, block, lambda x: f"--({x}={here})", cells)
        shown = f'AND({cells.dice_message}="",{fits(rules, block, cells)})'
        return f"IF({shown},IF({here}=0,1-{cells.hit_chance},0)+{terms},0)"

    chance = parts.column_formula(chance_of)
    for x in chart:
        row = grid.first + x
        put(sheet.cell(row, x_col), x)
        cell = put_formula(sheet.cell(row, x_col + 1), chance(f"${get_column_letter(x_col)}{row}"))
        cell.number_format = PERCENT_FORMAT
    chances = get_column_letter(x_col + 1)
    last = grid.first + chart[-1]
    define_name(book, CHART_CHANCE, absolute(sheet, f"{chances}{grid.first}", f"{chances}{last}"))
    sheet.sheet_state = "hidden"
    protect(sheet)
    return sheet, x_col


def write_damage_chart(
    book: Workbook,
    rules: RuleSet,
    block: Resolution,
    cells: d20_cells.Cells = NAMED,
    chart: range = CHART_DAMAGE,
) -> ScatterChart:
    """The Damage workings sheet, and the chart of one attack's damage (amounts ``chart``) drawn from it."""
    damage, x_col = write_damage_workings(book, rules, block, cells, chart)
    first = HEADER_ROW + 1
    return damage_chart(
        damage,
        "Damage of one attack (0: a miss)",
        "damage",
        x_col,
        HEADER_ROW,
        first,
        first + chart[-1],
        7,
        dice_ok=f"{PREFIX}_OK",
    )


def odds_formulas(rules: RuleSet, block: Resolution, cells: d20_cells.Cells = NAMED) -> dict[str, str]:
    expected = outcome_terms(rules, block, lambda x: x, cells)
    hp = f"N({cells.hp})"
    kill = outcome_terms(rules, block, lambda x: f"--({x}>={hp})", cells)
    attacks = f"N({cells.attacks})"
    return {
        EXPECTED: guarded(rules, block, expected, cells),
        EXPECTED_ROUND: guarded(
            rules,
            block,
            f"IF(OR({attacks}<0,{attacks}>{MOST_ATTACKS},{attacks}<>INT({attacks})),"
            f'"#ATTACKS? 0 to {limits.ATTACKS}",{attacks}*({expected}))',
            cells,
        ),
        KILL: unless_down(
            cells.hp,
            guarded(rules, block, f'IF({hp}>{MOST_HP},"#HP? up to {limits.HIT_POINTS}",{kill})', cells),
        ),
    }


# --------------------------------------------------------------------------- the Attack calculator


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
            f"SUMPRODUCT({FACE_HITS},{FACE_WEIGHTS})",
            PERCENT_FORMAT,
        ),
        Line(
            "Modifier to the roll (free)",
            d20_cells.MODS,
            0,
            "anything not among the situation picks below",
            "Chance of a critical",
            d20_cells.CRIT_CHANCE,
            f"SUMPRODUCT({FACE_CRITS},{FACE_WEIGHTS})",
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
            f.Formulas(block, calculator_cells(rules)).checked_result(),
            key=True,
        ),
    ]
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
    if uses_follow(block):
        chart = (
            {
                "out_label": "What the chart says",
                "out_name": d20_cells.CHART_EFFECT,
                "out_formula": f.Formulas(block, calculator_cells(rules)).chart_effect(),
            }
            if shows_chart_text(block)
            else {}
        )
        lines.append(
            Line(
                follow_words(block),
                d20_cells.FOLLOW,
                None,
                "only when the result asks for it; clear it after",
                **chart,
            )
        )
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
            f"SUMPRODUCT({FACE_FUMBLES},{FACE_WEIGHTS})",
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
        Line(
            "Attacks this round",
            d20_cells.ATTACKS,
            1,
            "same attack, independent",
            "Expected damage per attack",
            EXPECTED,
            odds_formulas(rules, block)[EXPECTED],
            "0.00",
        ),
        Line(
            out_label="Expected damage this round",
            out_name=EXPECTED_ROUND,
            out_formula=odds_formulas(rules, block)[EXPECTED_ROUND],
            out_format="0.00",
        ),
        Line(
            out_label="Chance one attack drops the target",
            out_name=KILL,
            out_formula=odds_formulas(rules, block)[KILL],
            out_format=PERCENT_FORMAT,
        ),
    ]
    return lines


def whole_number_check(sheet: Worksheet, coordinate: str, low: int, high: int, what: str) -> None:
    check = DataValidation(
        type="whole",
        operator="between",
        formula1=str(low),
        formula2=str(high),
        allow_blank=True,
        showErrorMessage=True,
        showInputMessage=False,
    )
    check.errorTitle, check.error = "Not a whole number", f"Type {what}: a whole number from {low} to {high}."
    sheet.add_data_validation(check)
    check.add(coordinate)


def put_input(
    book: Workbook, sheet: Worksheet, row: int, col: int, name: str, value: object, help: str
) -> None:
    cell = put(sheet.cell(row, col), value)
    mark_input(cell)
    if isinstance(value, bool):
        cell.number_format = BOOLEAN_FORMAT
    define_name(book, name, absolute(sheet, cell.coordinate))
    if help:
        cell.comment = Comment(help[:1].upper() + help[1:] + ".", "pycalc", width=220, height=40)


def put_output(book: Workbook, sheet: Worksheet, row: int, line: Line) -> None:
    label = put(sheet.cell(row, OUT_LABEL), line.out_label)
    cell = put_formula(sheet.cell(row, OUT_COLUMN), line.out_formula)
    mark_output(cell, bold=line.key)
    if line.key:
        label.font = BOLD
    if line.out_format:
        cell.number_format = line.out_format
    assert line.out_name is not None
    if line.out_formula != line.out_name:  # else it shows a name the workings define
        define_name(book, line.out_name, absolute(sheet, cell.coordinate))


def write_roll_block(
    book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, first_row: int
) -> int:
    rolls = {
        d20_cells.ROLL: attack_roll(rules),
        d20_cells.FOLLOW: follow_roll(rules),
        d20_cells.DAMAGE_ROLL: DICE_SHOWN,
        d20_cells.EXTRA_ROLL: DICE_SHOWN,
    }
    number_ranges = {
        d20_cells.ATTACKS: (0, limits.ATTACKS, "the attacks this round"),
        d20_cells.LEVEL: (0, 99, "the attacker's level"),
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
        "the weapon's damage dice with its +N, e.g. 1d8+1",
    )
    return row + 2


EFFECT_WORDS = (("hit", "to hit"), ("ac", "to AC"), ("damage", "damage"))
FLAG_WORDS = (
    ("advantage", "Advantage"),
    ("disadvantage", "Disadvantage"),
    ("cannot_hit", "cannot be hit"),
    ("needs_magic", "magic weapons only"),
    ("auto_hit", "hits automatically"),
)


def effect_text(table: Table, value_of: Callable[[str], str]) -> str:
    """A short text of what a row changes, read from its cells (``value_of(column)``): the numbers
    stay in the table sheet."""
    dice_columns = {c.id for c in table.columns if c.type == "modifier"}  # a number or dice (1d4)
    parts = [
        signed_dice(value_of(column), word)
        if column in dice_columns
        else f'IF(N({value_of(column)})=0,"",TEXT({value_of(column)},"+0;-0")&" {word} ")'
        for column, word in EFFECT_WORDS
        if column in table.column_ids
    ]
    for column in table.column_ids:
        if column == "damage_multiplier" or column.startswith(engine.stage_factor_column("")):
            factor = value_of(column)
            parts.append(f'IF(N({factor})=1,"","damage x"&{factor}&" ")')
        elif column.startswith(engine.stage_round_up_column("")):
            parts.append(f'IF({value_of(column)}=TRUE,"rounded up ","")')
    parts += [
        f'IF({value_of(column)}=TRUE,"{word} ","")'
        for column, word in FLAG_WORDS
        if column in table.column_ids
    ]
    return f"TRIM({'&'.join(parts)})" if parts else '""'


def signed_dice(value: str, word: str) -> str:
    """'+2 to hit ', '+1d4 to hit ', '-1d4 to hit ' or nothing, for a cell holding a number or dice."""
    number = f'IF({value}=0,"",TEXT({value},"+0;-0")&" {word} ")'
    dice = f'IF({value}="","",IF(LEFT({value},1)="-","","+")&{value}&" {word} ")'
    return f"IF(ISNUMBER({value}),{number},{dice})"


def write_pickers(book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, top: int) -> int:
    put(sheet.cell(top, OUT_LABEL), "The situation").font = SUBTITLE
    put(sheet.cell(top, NOTE_COLUMN), "what it changes").font = NOTE
    row = top + 1
    for table in picker_tables(rules, block):
        if table.picker == "choice":
            put(sheet.cell(row, OUT_LABEL), table.title)
            name = pick_name(table.id)
            put_input(
                book,
                sheet,
                row,
                OUT_COLUMN,
                name,
                str(table.rows[0].label),
                f"pick from the list ({table.title})",
            )
            add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, f"={table_name(table.id, 'label')}")
            chosen = effect_text(
                table, lambda column, name=name, table_id=table.id: by_label(table_id, column, name)
            )
            put_formula(sheet.cell(row, NOTE_COLUMN), chosen).font = NOTE
            row += 1
            continue
        put(sheet.cell(row, OUT_LABEL), f"{table.title} (tick what applies)").font = BOLD
        row += 1
        for entry in table.rows:
            put(sheet.cell(row, OUT_LABEL), str(entry.label)).alignment = WRAP
            name = pick_name(table.id, str(entry.id))
            put_input(book, sheet, row, OUT_COLUMN, name, False, "TRUE when it applies, FALSE when not")
            add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, "TRUE,FALSE")
            ticked = effect_text(
                table, lambda column, entry=entry, table_id=table.id: const(table_id, str(entry.id), column)
            )
            put_formula(sheet.cell(row, NOTE_COLUMN), ticked).font = NOTE
            row += 1
    return row


def write_attack_calculator(book: Workbook, rules: RuleSet, block: Resolution) -> Worksheet:
    sheet = book.create_sheet(ATTACK_SHEET, 0)
    sheet.sheet_properties.tabColor = "F0B429"
    for col, width in zip("ABCDEF", (30, 9, 2, 30, 22, 18), strict=True):
        sheet.column_dimensions[col].width = width
    title = put(sheet["A1"], f"{rules.name}: one attack")
    title.font, title.alignment = TITLE, WRAP
    sheet.merge_cells("A1:E1")
    sheet.row_dimensions[1].height = 24
    intro = put(
        sheet["A2"],
        "Type the numbers in the yellow cells of column B as the dice fall; the result, the damage and the "
        "odds follow on the right. Pick the situation below. Resolved as the ruleset's YAML says.",
    )
    intro.font, intro.alignment = NOTE, WRAP
    sheet.merge_cells("A2:F2")
    sheet.row_dimensions[2].height = 26
    summary_row = SUMMARY_ROW + (rules.encounter_block is not None)
    put(sheet.cell(summary_row, 1), "In one line").font = BOLD
    line = put_formula(sheet.cell(summary_row, 2), f.Formulas(block, calculator_cells(rules)).summary())
    mark_output(line, bold=True)
    sheet.merge_cells(start_row=summary_row, start_column=2, end_row=summary_row, end_column=6)
    define_name(book, "ATTACK_SUMMARY", absolute(sheet, line.coordinate))
    next_row = write_roll_block(book, sheet, rules, block, summary_row + 1)
    write_pickers(book, sheet, rules, block, next_row)
    sheet.freeze_panes = f"A{summary_row + 1}"
    protect(sheet)
    return sheet


# --------------------------------------------------------------------------- the odds sheet


def write_odds_sheet(book: Workbook, rules: RuleSet, block: Resolution) -> None:
    kind = target_kind(block)
    columns = HEAT_TARGET[kind]
    corner = {"number_needed": "Bonus \\ need", "descending_ac": "THAC0 \\ AC"}.get(kind, "Bonus \\ AC")
    added = adds_dice(rules)
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: chance to hit by attack bonus and target",
        "Exact chances on one die, with the ruleset's natural-roll rules. Rows: the attacker's "
        + ("THAC0 less every modifier" if kind == "descending_ac" else "bonus with every modifier")
        + "; columns: the defender's "
        + {"number_needed": "number needed.", "descending_ac": "descending AC."}.get(kind, "AC.")
        + (
            " With the dice the Attack calculator's picks add to the roll, over every total." if added else ""
        ),
        len(columns),
    )
    row = write_heat_maps(
        book, sheet, 4, heat.heat_maps(block, corner, HEAT_BONUS[kind], columns, added=added)
    )
    if heat.fumble_by_level(block):
        heat.write_fumble_row(book, sheet, block, row)
    finish_odds_sheet(sheet, 12, len(columns), 5.5)


# --------------------------------------------------------------------------- the workbook's part


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    """The generic sheets; the .xlsm gets the same native formulas (the UDFs take no pickers)."""
    block = d20_supported.check_supported(rules)
    sheet = write_attack_calculator(book, rules, block)
    write_odds_sheet(book, rules, block)
    write_workings(book, rules, block)
    show_chart(sheet, write_damage_chart(book, rules, block))
