"""Native odds for the 17 Combat Attack calculator: the damage distribution of one attack over the
shared dice grid, expected damage, kill chance, a bar chart, and the printable "Odds" sheet: the
generic heat map and natural-roll chances of ``pycalc.sheets.d20_heat``, read from the resolution block.
Mirrors ``pycalc.rulesets.combat17_odds``.

The damage per dice total and its weighing are the generic writer's (``pycalc.sheets.d20_damage``:
``damage_columns``, ``outcome_sum``) over the Attack calculator's own cells (``combat17.resolution``):
a hit alone does the hit's formula, a critical the formula of each ``outcomes`` row by the share of
follow-up faces whose critical chart row names it (``natural_roll_outcome`` and
``critical_follow_up_roll`` applied per face, in the d20 workings). What is this module's own is the
layout: the odds panel and its messages, the chart's 0..59 bars and "60 or more", the Odds sheet.
"""

from __future__ import annotations

from dataclasses import replace

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.d20 import D20_FACES
from pycalc.grid_limits import beyond_grid_formula
from pycalc.odds import EXPECTED, EXPECTED_ROUND, KILL, KILL_ROUND, SEVERAL_ATTACKS
from pycalc.rulesets import combat17_odds as odds_engine
from pycalc.sheets import d20_cells, d20_damage
from pycalc.sheets.calculator import Section
from pycalc.sheets.common import (
    PERCENT_FORMAT,
    SUBTITLE,
    absolute,
    damage_chart,
    define_name,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import (
    critical_formula,
    face_columns,
    fumble_formula,
    heat_maps,
    write_face_columns,
)
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import band, q, unless_down
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.odds_panel import ATTACKS, TARGET_HP, OddsPanel, odds_fields
from pycalc.sheets.situation_cells import ruling_is
from pycalc.tables import RuleSet

WORKINGS = "Odds workings"
ODDS_SHEET = "Odds"
FACES = "FACE_COUNT"
CHART_LARGEST = 60  # layout: the chart's bars are 0..59 damage and "60 or more"
FACE_TITLES = ("d20 face", "Plain follow-up gives")
HEAT_BONUS = range(-2, 16)  # layout of the printed heat map
HEAT_AC = range(8, 27)


def outcome_ids(rules: RuleSet) -> list[str]:
    return [str(row.id) for row in rules.table("outcomes").rows]


def follow_id(total: str) -> str:
    """The outcomes row a natural 20 gives for that critical chart total."""
    return (
        f"IF(AND({ruling_is('natural_roll_outcome', 'special_only')},NOT({band('critical_hits', 'special', total)})),"
        f'"regular_damage",{band("critical_hits", "damage", total)})'
    )


def damage_columns(rules: RuleSet, rules_f: Formulas) -> list[d20_damage.DamageColumn]:
    block = rules.resolution_block
    assert block is not None
    return d20_damage.damage_columns(rules, block, rules_f.c)


def share_name(column: d20_damage.DamageColumn) -> str:
    """The side cell holding a critical column's share of the criticals."""
    return f"{column.name}_SHARE"


def weighed(columns: list[d20_damage.DamageColumn]) -> list[d20_damage.DamageColumn]:
    """The columns with each critical's share read from its side cell, not worked out again."""
    return [c if c.weight == "1" else replace(c, weight=share_name(c)) for c in columns]


def write_odds_workings(book: Workbook, rules: RuleSet, rules_f: Formulas) -> ScatterChart:
    """The hidden sheet: dice grid, the damage of each column per total, side cells (the checks,
    each critical's share), per-face columns, chart data."""
    sheet = book.create_sheet(WORKINGS)
    block = rules.resolution_block
    assert block is not None
    grid = write_dice_grid(book, sheet, "ATTACK_DICE_TEXT", d20_cells.PREFIX)
    header, first = HEADER_ROW, grid.first
    columns = damage_columns(rules, rules_f)
    face_col = grid.free_column + d20_damage.columns_width(columns) + 1
    chart_col = face_col + len(FACE_TITLES) + 1
    side = chart_col + 4
    parts = d20_damage.shared_parts(
        book, sheet, rules, side + 3 + len(face_columns(block)) + 1
    )  # right of all
    d20_damage.write_damage_columns(book, grid, columns, parts)
    label_at, value_at = get_column_letter(side), get_column_letter(side + 1)
    grid_ok = f"{d20_cells.PREFIX}_OK,{d20_cells.PREFIX}_COUNT=ATTACK_DICE_COUNT,{d20_cells.PREFIX}_SIDES=ATTACK_DICE_SIDES"
    side_cells = [
        (
            "ODDS_OK",
            "Dice fit the grid and read as the calculator reads them",
            f'AND(ATTACK_DICE_ERROR="",{grid_ok})',
        ),
        (
            "ODDS_MESSAGE",
            "Why no odds",
            f'IF(ATTACK_DICE_ERROR<>"",ATTACK_DICE_ERROR,{beyond_grid_formula(d20_cells.PREFIX)})',
        ),
        *(
            (share_name(c), f"Share of the criticals: {c.title}", c.weight)
            for c in columns
            if c.weight != "1"
        ),
    ]
    for row, (name, label, formula) in enumerate(side_cells, start=1):
        put(sheet[f"{label_at}{row}"], label)
        put_formula(sheet[f"{value_at}{row}"], formula)
        define_name(book, name, absolute(sheet, f"{value_at}{row}"))
    columns = weighed(columns)
    # --- per d20 face: the outcomes row a plain follow-up gives, for the Odds sheet
    for offset, title in enumerate(FACE_TITLES):
        put(sheet.cell(header, face_col + offset), title)
    faces = get_column_letter(face_col)
    for face in range(1, D20_FACES + 1):
        row = first + face - 1
        put(sheet.cell(row, face_col), face)
        put_formula(sheet.cell(row, face_col + 1), follow_id(f"${faces}{row}"))
    for offset, name in enumerate(("ODDS_FACES", "ODDS_PLAIN_FOLLOW_IDS")):
        letter = get_column_letter(face_col + offset)
        define_name(book, name, absolute(sheet, f"{letter}{first}", f"{letter}{first + D20_FACES - 1}"))
    write_face_columns(book, sheet, rules, block, first_col=side + 3)  # the Odds sheet's chances
    # --- the chart's data: chance of each damage 0..CHART_LARGEST-1, then "CHART_LARGEST or more"
    put(sheet.cell(header, chart_col), "Damage")
    put(sheet.cell(header, chart_col + 1), "Chance")
    for x in range(CHART_LARGEST + 1):
        row = first + x
        put(sheet.cell(row, chart_col), x if x < CHART_LARGEST else f"{x}+")
        put(sheet.cell(row, chart_col + 2), x)
        amount = f"${get_column_letter(chart_col + 2)}{row}"
        if x < CHART_LARGEST:
            hits = d20_damage.outcome_sum(columns, lambda d, amount=amount: f"--({d}={amount})", rules_f.c)
            chance = f"IF({amount}=0,1-{rules_f.c.hit_chance},0)+{hits}"
        else:
            chance = d20_damage.outcome_sum(columns, lambda d, amount=amount: f"--({d}>={amount})", rules_f.c)
        put_formula(sheet.cell(row, chart_col + 1), f"IF(ODDS_OK,{chance},0)").number_format = PERCENT_FORMAT
    last = first + CHART_LARGEST
    letter = get_column_letter(chart_col + 1)
    define_name(book, "ODDS_CHART_CHANCES", absolute(sheet, f"{letter}{first}", f"{letter}{last}"))
    chart = damage_chart(
        sheet,
        "Damage of one attack (before the roll)",
        "damage",
        chart_col,
        header,
        first,
        last,
        8,
        dice_ok=f"{d20_cells.PREFIX}_OK",
    )
    sheet.sheet_state = "hidden"
    protect(sheet)
    return chart


def odds_section(rules: RuleSet, rules_f: Formulas) -> Section:
    """The odds panel of the Attack calculator (inputs and outputs): the generic expected damage and
    kill chance (``d20_damage.outcome_sum``) over the Odds workings' columns."""

    def guarded(formula: str) -> str:
        return f"IF(ODDS_OK,{formula},ODDS_MESSAGE)"

    columns = weighed(damage_columns(rules, rules_f))
    expected = d20_damage.outcome_sum(columns, lambda d: d, rules_f.c)
    hp = f"SUM({TARGET_HP})"
    kill = d20_damage.outcome_sum(columns, lambda d: f"--({d}>={hp})", rules_f.c)
    attacks_bad = q(odds_engine.ATTACKS_MESSAGE)
    native = {
        EXPECTED: guarded(expected),
        EXPECTED_ROUND: (
            f"IF(ISTEXT({EXPECTED}),{EXPECTED},IF(SUM({ATTACKS})<0,{attacks_bad},SUM({ATTACKS})*{EXPECTED}))"
        ),
        KILL: unless_down(TARGET_HP, guarded(kill)),
        KILL_ROUND: unless_down(
            TARGET_HP,
            f"IF(ISTEXT({KILL}),{KILL},IF(SUM({ATTACKS})=1,{KILL},"
            f"IF(SUM({ATTACKS})=0,0,{q(SEVERAL_ATTACKS)})))",
        ),
    }
    panel = OddsPanel(
        "combat17",
        "ATTACK_BONUS,ATTACK_AC,ATTACK_DICE",
        "ATTACK_TOTAL_MODS,ATTACK_SITUATION_DAMAGE,ATTACK_BARRED,ATTACK_DAMAGE_MULTIPLIER",
        native,
        attacks_label="Attacks this round",
        attacks_help="independent attacks, same situation",
        kill_key=True,
    )
    return Section("Odds before the roll (every d20, chart roll and damage die weighed)", odds_fields(panel))


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit by attack bonus x target AC, and the natural-roll chances."""
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: chance to hit by attack bonus and Armor Class",
        "Exact chances with the natural rolls (a natural 20 always hits, a natural 1 always misses); "
        "no situation modifiers. d20 + attack bonus >= AC.",
    )
    block = rules.resolution_block
    assert block is not None
    row = write_heat_maps(book, sheet, 3, heat_maps(block, "Bonus \\ AC", HEAT_BONUS, HEAT_AC))
    row -= 1
    put(sheet.cell(row, 1), "Natural rolls (any bonus, plain follow-up d20)").font = SUBTITLE
    lines = [  # a target every roll reaches: only the natural roll counts
        ("Chance of a critical", "ODDS_CRIT", critical_formula(block, "0", "0")),
        ("Chance of a fumble", "ODDS_FUMBLE", fumble_formula(block, "0")),
    ]
    for outcome_id in outcome_ids(rules):
        if outcome_id == "miss":
            continue
        label = rules.table("outcomes").entry(outcome_id).label
        lines.append(
            (
                f"After a natural 20: {label}",
                f"ODDS_N20_{outcome_id.upper()}",
                f'COUNTIF(ODDS_PLAIN_FOLLOW_IDS,"{outcome_id}")/{FACES}',
            )
        )
    for offset, (label, name, formula) in enumerate(lines, start=1):
        put(sheet.cell(row + offset, 1), label)
        put_formula(sheet.cell(row + offset, 2), formula).number_format = PERCENT_FORMAT
        define_name(book, name, absolute(sheet, f"B{row + offset}"))
    finish_odds_sheet(sheet, 34, len(HEAT_AC), 6)
