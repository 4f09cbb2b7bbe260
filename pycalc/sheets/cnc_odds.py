"""Native odds for the Castles & Crusades Attack calculator: expected damage, kill chance, a bar chart
of one attack's damage, and the printable "Odds" sheet, whose heat map (chance to hit by bonus and AC)
is the generic one of ``pycalc.sheets.d20_heat``, read from the resolution block.
Mirrors ``pycalc.rulesets.cnc_odds``.

The damage dice's distribution comes from the shared dice grid (CNC_DMG_P over CNC_DMG_TOTALS, read
from ATTACK_DICE_TEXT). A hit does CNC_ODDS_HIT_DAMAGE for each dice total (the kind's least damage,
the expression's +M and the situation's damage, as ATTACK_DAMAGE computes it); a miss does 0, with
chance 1 - ATTACK_HIT_CHANCE (every face counted in the d20 workings). C&C has no critical or fumble.
"""

from __future__ import annotations

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.grid_limits import beyond_grid_formula
from pycalc.rulesets.cnc import KIND_TABLE
from pycalc.rulesets.cnc_odds import SEVERAL_ATTACKS
from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import (
    NOTE,
    PERCENT_FORMAT,
    TITLE,
    WRAP,
    absolute,
    damage_chart,
    define_name,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.d20_heat import heat_maps
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import by_label, round_kill_formula
from pycalc.sheets.heat_map import write_heat_map
from pycalc.tables import RuleSet

DAMAGE_SHEET = "Damage workings"
ODDS_SHEET = "Odds"
PREFIX = "CNC_DMG"
CHART_DAMAGE = range(0, 121)  # chart rows (layout): damage 0..120
HEAT_BONUS = range(-2, 16)  # layout of the printed odds sheet (cell values, not formulas)
HEAT_AC = range(8, 29)
GRID_MESSAGE = beyond_grid_formula(PREFIX)
HIT_DAMAGE = "CNC_ODDS_HIT_DAMAGE"
P = f"{PREFIX}_P"


def guarded(formula: str) -> str:
    """The dice written badly: ATTACK_DICE_MOD's message; beyond the grid: the grid's message."""
    return f"IF(ISNUMBER(ATTACK_DICE_MOD),IF({PREFIX}_OK,{formula},{GRID_MESSAGE}),ATTACK_DICE_MOD)"


def write_damage_workings(book: Workbook) -> ScatterChart:
    """Hidden sheet: the dice grid, a hit's damage for each dice total, one attack's damage distribution."""
    sheet = book.create_sheet(DAMAGE_SHEET)
    grid = write_dice_grid(book, sheet, "ATTACK_DICE_TEXT", PREFIX)
    col = grid.free_column
    label_col = col + 4
    kind = "PICK_ATTACK_TYPES"
    singles = (
        ("CNC_ODDS_DEALS_DAMAGE", "The attack kind deals damage", by_label(KIND_TABLE, "deals_damage", kind)),
        ("CNC_ODDS_LEAST_DAMAGE", "Least damage of a hit", by_label(KIND_TABLE, "min_damage", kind)),
    )
    for row, (name, label, formula) in enumerate(singles, start=1):
        put(sheet.cell(row, label_col), label)
        put_formula(sheet.cell(row, label_col + 1), formula)
        define_name(book, name, absolute(sheet, sheet.cell(row, label_col + 1).coordinate))
    header = HEADER_ROW
    put(sheet.cell(header, col), "Damage of a hit")
    for row in range(grid.first, grid.last + 1):
        put_formula(
            sheet.cell(row, col),
            f"IF(CNC_ODDS_DEALS_DAMAGE,MAX(CNC_ODDS_LEAST_DAMAGE,$A{row}+{PREFIX}_DICE_MOD"
            "+ATTACK_SITUATION_DAMAGE),0)",
        )
    define_name(book, HIT_DAMAGE, grid.column(col))
    x_col = col + 1
    put(sheet.cell(header, x_col), "Damage")
    put(sheet.cell(header, x_col + 1), "Chance")
    for x in CHART_DAMAGE:
        row = grid.first + x
        put(sheet.cell(row, x_col), x)
        here = f"${get_column_letter(x_col)}{row}"
        chance = (
            f"IF({here}=0,1-ATTACK_HIT_CHANCE,0)+ATTACK_HIT_CHANCE*SUMPRODUCT({P},--({HIT_DAMAGE}={here}))"
        )
        put_formula(sheet.cell(row, x_col + 1), f"IF({PREFIX}_OK,{chance},0)").number_format = PERCENT_FORMAT
    last = grid.first + CHART_DAMAGE[-1]
    define_name(book, "CNC_ODDS_CHART_DAMAGE", absolute(sheet, f"{get_column_letter(x_col)}{grid.first}",
                                                          f"{get_column_letter(x_col)}{last}"))  # fmt: skip
    define_name(book, "CNC_ODDS_CHART_CHANCE", absolute(sheet, f"{get_column_letter(x_col + 1)}{grid.first}",
                                                          f"{get_column_letter(x_col + 1)}{last}"))  # fmt: skip
    chart = damage_chart(
        sheet,
        "Damage of one attack (0: a miss)",
        "damage",
        x_col,
        header,
        grid.first,
        last,
        8,
        dice_ok=f"{PREFIX}_OK",
    )
    sheet.sheet_state = "hidden"
    protect(sheet)
    return chart


def odds_section() -> Section:
    hp = "SUM(ATTACK_TARGET_HP)"
    expected = f"ATTACK_HIT_CHANCE*SUMPRODUCT({P},{HIT_DAMAGE})"
    kill = f"IF({hp}<=0,1,ATTACK_HIT_CHANCE*SUMPRODUCT({P},--({HIT_DAMAGE}>={hp})))"
    head = "ATTACK_BONUS,ATTACK_AC,ATTACK_DICE"
    tail = "ATTACK_TOTAL_MODS,ATTACK_SITUATION_DAMAGE,ATTACK_KIND_ID"
    return Section(
        "Odds before the dice are rolled (this attack, with the situation below)",
        (
            Field("Attacks this round (same attack, independent)", "ATTACK_ATTACKS", INPUT, 1),
            Field("Target's hit points now", "ATTACK_TARGET_HP", INPUT, 10),
            Field(
                "Expected damage per attack",
                "ATTACK_EXPECTED_DAMAGE",
                key=True,
                number_format="0.00",
                native=guarded(expected),
                udf=f"cnc_expected_damage({head},1,{tail})",
                help="a miss counts 0; chart of the damage on the right",
            ),
            Field(
                "Expected damage per round",
                "ATTACK_EXPECTED_DAMAGE_ROUND",
                number_format="0.00",
                native=guarded(
                    f'IF(SUM(ATTACK_ATTACKS)<0,"#ATTACKS? 0 or more",SUM(ATTACK_ATTACKS)*{expected})'
                ),
                udf=f"cnc_expected_damage({head},ATTACK_ATTACKS,{tail})",
            ),
            Field(
                "Chance one attack drops the target",
                "ATTACK_KILL_CHANCE",
                number_format=PERCENT_FORMAT,
                native=guarded(kill),
                udf=f"cnc_kill_chance({head},ATTACK_TARGET_HP,1,{tail})",
                help="damage at least the target's hit points",
            ),
            Field(
                "Chance the round's attacks drop the target",
                "ATTACK_KILL_CHANCE_ROUND",
                number_format=PERCENT_FORMAT,
                native=round_kill_formula(
                    "ATTACK_ATTACKS", "ATTACK_KILL_CHANCE", "ATTACK_TARGET_HP", SEVERAL_ATTACKS
                ),
                udf=f"cnc_kill_chance({head},ATTACK_TARGET_HP,ATTACK_ATTACKS,{tail})",
            ),
        ),
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit by attack bonus (rows) and the defender's AC (columns)."""
    sheet = book.create_sheet(ODDS_SHEET)
    put(sheet["A1"], f"{rules.name}: chance to hit by attack bonus and armor class").font = TITLE
    note = put(
        sheet["A2"],
        "Exact chances on one d20: d20 + bonus >= AC hits. Rows: the attacker's bonus (BtH + Str or Dex, "
        "modifiers included); columns: the defender's AC in the situation. C&C has no critical hit or fumble; "
        "a natural-roll house rule ticked in the natural_rolls table is counted.",
    )
    note.font, note.alignment = NOTE, WRAP
    sheet.merge_cells(start_row=2, start_column=1, end_row=2, end_column=1 + len(HEAT_AC))
    sheet.row_dimensions[2].height = 30
    block = rules.resolution_block
    assert block is not None
    row = 4
    for heat in heat_maps(block, "Bonus \\ AC", HEAT_BONUS, HEAT_AC):
        row = write_heat_map(book, sheet, row, heat)
    sheet.column_dimensions["A"].width = 12
    for j in range(2, 2 + len(HEAT_AC)):
        sheet.column_dimensions[get_column_letter(j)].width = 5.5
    protect(sheet)
