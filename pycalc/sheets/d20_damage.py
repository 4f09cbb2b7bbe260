"""The damage of the generic d20 calculator: the Damage workings sheet (one column per way a hit can
deal damage, over the dice grid), the odds formulas read from it (expected damage, the chance to drop
the target) and the damage chart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc.grid_limits import MAX_DICE, beyond_grid_formula
from pycalc.odds import EXPECTED, EXPECTED_ROUND, KILL, KILL_ROUND
from pycalc.resolution_block import Resolution
from pycalc.sheets import block_formulas, d20_cells, d20_round
from pycalc.sheets import d20_formulas as f
from pycalc.sheets.common import (
    PERCENT_FORMAT,
    absolute,
    damage_chart,
    define_name,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.d20_cells import (
    CHART_CHANCE,
    CRIT_DAMAGE,
    DAMAGE_SHEET,
    FACE_CRIT_FORMULAS,
    FACE_CRIT_KEEPS,
    HIT_DAMAGE,
    MOST_ATTACKS,
    MOST_HP,
    PREFIX,
    P,
)
from pycalc.sheets.dice_grid import HEADER_ROW, DiceGrid, write_dice_grid
from pycalc.sheets.formulas import q, unless_down
from pycalc.sheets.log_rows import PartsArea, table_cells
from pycalc.tables import RuleSet

ODDS_LIMITS = (  # the odds' limits (pycalc.limits) as cells: no number is typed into a formula
    (MOST_ATTACKS, "Most attacks in a round (odds)", limits.ATTACKS),
    (MOST_HP, "Most hit points (odds)", limits.HIT_POINTS),
)


CHART_DAMAGE = range(0, 121)  # chart rows (layout): damage 0..120


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
    for x in range(max(chart[-1] + 1, d20_round.ROWS)):  # the chart's amounts, and every one the round reads
        row = grid.first + x
        put(sheet.cell(row, x_col), x)
        here = f"${get_column_letter(x_col)}{row}"
        # past the chart, an amount at or above the target's hit points drops it: its chance is not read
        formula = chance(here) if x in chart else f"IF({here}>={d20_round.ROUND_HP},0,{chance(here)})"
        put_formula(sheet.cell(row, x_col + 1), formula).number_format = PERCENT_FORMAT
    chances = get_column_letter(x_col + 1)
    last = grid.first + chart[-1]
    define_name(book, CHART_CHANCE, absolute(sheet, f"{chances}{grid.first}", f"{chances}{last}"))
    d20_round.write_round_workings(book, sheet, x_col, x_col + 1, grid.first, x_col + 5, cells)
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
        KILL_ROUND: unless_down(cells.hp, guarded(rules, block, d20_round.round_kill_formula(cells), cells)),
    }
