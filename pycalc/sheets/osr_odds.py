"""Native odds for the osr Attack calculator: damage distribution of one attack, expected damage,
kill chance, a bar chart, and the printable "Odds" sheet (chance to hit, critical and fumble: the
generic heat maps of ``pycalc.sheets.d20_heat``, read from the resolution block).
Mirrors ``pycalc.rulesets.osr_odds`` (the generic engine's odds, ``pycalc.resolution_odds``).

The damage dice's distribution comes from the shared dice grid (OSR_DMG_P over OSR_DMG_TOTALS). A
hit does ODDS_DMG_PLAIN (no natural-20 penalty) unless the kept roll is the natural 20, which does
ODDS_DMG_NAT20 (both the generic d20 damage formulas, ``Formulas.damage_of``, less the generic
natural penalty); their chances, ODDS_HIT_PLAIN and ODDS_HIT_NAT20, come from the d20 workings
(every kept roll and fumble check, Advantage weights included).
"""

from __future__ import annotations

from dataclasses import replace

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.grid_limits import MAX_DICE, MAX_SIDES, beyond_grid_formula
from pycalc.rulesets import osr_odds
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
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import FUMBLE_LEVELS, heat_maps, write_fumble_row
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import round_kill_formula
from pycalc.sheets.heat_map import write_heat_map
from pycalc.tables import RuleSet

DAMAGE_SHEET = "Damage workings"
ODDS_SHEET = "Odds"
PREFIX = "OSR_DMG"
HEAT_BONUS = range(-2, 11)  # layout of the printed odds sheet (cell values, not formulas)
HEAT_TARGET = range(4, 27)
MODE_TEXT = 'IF(ATTACK_MODE=1,"Advantage",IF(ATTACK_MODE=0,"Normal","Disadvantage"))'
BAD_DICE = beyond_grid_formula(PREFIX)
PENALTY = "ODDS_PENALTY_NAT20"


def write_damage_workings(book: Workbook, rules_f: Formulas) -> ScatterChart:
    """Hidden sheet: the dice grid, the damage of each total (the generic d20 formulas ``rules_f`` over
    the Attack calculator's cells: a Critical deals what a Hit deals), the distribution of one attack's
    damage."""
    rules_f = Formulas(
        rules_f.block, replace(rules_f.c, dice_mod=f"{PREFIX}_DICE_MOD", natural_penalty=PENALTY)
    )
    sheet = book.create_sheet(DAMAGE_SHEET)
    grid = write_dice_grid(book, sheet, "ATTACK_DICE", PREFIX)
    col = grid.free_column
    label_col = col + 4  # single cells, right of the per-total columns
    singles = (
        (PENALTY, "Natural-20 damage penalty", rules_f.natural_penalty()),
        (
            "ODDS_HIT_NAT20",
            "Chance of a hit on the natural 20",
            "SUMPRODUCT(D20_HITS,D20_WEIGHTS,--(D20_ROLLS=ATTACK_NAT20))/ATTACK_SIDES",
        ),
        (
            "ODDS_HIT_PLAIN",
            "Chance of a hit on another roll",
            "SUMPRODUCT(D20_HITS,D20_WEIGHTS,--(D20_ROLLS<>ATTACK_NAT20))/ATTACK_SIDES",
        ),
        ("ODDS_NO_HIT", "Chance of a miss or fumble (0 damage)", "1-ODDS_HIT_NAT20-ODDS_HIT_PLAIN"),
    )
    for row, (name, label, formula) in enumerate(singles, start=1):
        put(sheet.cell(row, label_col), label)
        put_formula(sheet.cell(row, label_col + 1), formula)
        define_name(book, name, absolute(sheet, sheet.cell(row, label_col + 1).coordinate))
    header = HEADER_ROW
    put(sheet.cell(header, col), "Damage of a hit")
    put(sheet.cell(header, col + 1), "Damage of a natural 20")
    for row in range(grid.first, grid.last + 1):
        put_formula(sheet.cell(row, col), rules_f.damage_of('"Hit"', f"$A{row}"))
        put_formula(sheet.cell(row, col + 1), rules_f.damage_of('"Hit"', f"$A{row}", penalty=PENALTY))
    define_name(book, "ODDS_DMG_PLAIN", grid.column(col))
    define_name(book, "ODDS_DMG_NAT20", grid.column(col + 1))
    # distribution of one attack's damage, for the chart
    x_col = col + 2
    put(sheet.cell(header, x_col), "Damage")
    put(sheet.cell(header, x_col + 1), "Chance")
    biggest = 2 * MAX_DICE * MAX_SIDES  # chart rows (layout), double damage included
    p = f"{PREFIX}_P"
    for x in range(biggest + 1):
        row = grid.first + x
        put(sheet.cell(row, x_col), x)
        here = f"${get_column_letter(x_col)}{row}"
        chance = (
            f"({here}=0)*ODDS_NO_HIT+ODDS_HIT_PLAIN*SUMPRODUCT({p},--(ODDS_DMG_PLAIN={here}))"
            f"+ODDS_HIT_NAT20*SUMPRODUCT({p},--(ODDS_DMG_NAT20={here}))"
        )
        put_formula(sheet.cell(row, x_col + 1), f"IF({PREFIX}_OK,{chance},0)").number_format = PERCENT_FORMAT
    chart = damage_chart(
        sheet,
        "Damage of one attack (0: miss or fumble)",
        "damage",
        x_col,
        header,
        grid.first,
        grid.first + biggest,
        8,
        dice_ok=f"{PREFIX}_OK",
    )
    sheet.sheet_state = "hidden"
    protect(sheet)
    return chart


def odds_section() -> Section:
    p = f"{PREFIX}_P"
    expected = "ODDS_HIT_PLAIN*SUMPRODUCT({p},ODDS_DMG_PLAIN)+ODDS_HIT_NAT20*SUMPRODUCT({p},ODDS_DMG_NAT20)"
    expected = expected.format(p=p)
    kill = (
        f"IF(SUM(ATTACK_TARGET_HP)<=0,1,ODDS_HIT_PLAIN*SUMPRODUCT({p},--(ODDS_DMG_PLAIN>=SUM(ATTACK_TARGET_HP)))"
        f"+ODDS_HIT_NAT20*SUMPRODUCT({p},--(ODDS_DMG_NAT20>=SUM(ATTACK_TARGET_HP))))"
    )

    def guarded(formula: str) -> str:
        return f"IF({PREFIX}_OK,{formula},{BAD_DICE})"

    head = "ATTACK_BONUS,ATTACK_TARGET_EFFECTIVE,ATTACK_DICE"
    tail = f"{{attacks}},ATTACK_MODS_TOTAL,ATTACK_LEVEL,{MODE_TEXT},ATTACK_DOUBLE,ATTACK_NEEDS_MAGIC"
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
                udf=f"osr_expected_damage({head},{tail.format(attacks=1)})",
                help="misses and fumbles count 0; chart of the damage on the right",
            ),
            Field(
                "Expected damage per round",
                "ATTACK_EXPECTED_DAMAGE_ROUND",
                number_format="0.00",
                native=guarded(
                    f'IF(SUM(ATTACK_ATTACKS)<0,"#ATTACKS? 0 or more",SUM(ATTACK_ATTACKS)*({expected}))'
                ),
                udf=f"osr_expected_damage({head},{tail.format(attacks='ATTACK_ATTACKS')})",
            ),
            Field(
                "Chance one attack drops the target",
                "ATTACK_KILL_CHANCE",
                number_format=PERCENT_FORMAT,
                native=guarded(kill),
                udf=f"osr_kill_chance({head},ATTACK_TARGET_HP,{tail.format(attacks=1)})",
                help="damage at least the target's hit points",
            ),
            Field(
                "Chance the round's attacks drop the target",
                "ATTACK_KILL_CHANCE_ROUND",
                number_format=PERCENT_FORMAT,
                native=round_kill_formula(
                    "ATTACK_ATTACKS", "ATTACK_KILL_CHANCE", "ATTACK_TARGET_HP", osr_odds.SEVERAL_ATTACKS
                ),
                udf=f"osr_kill_chance({head},ATTACK_TARGET_HP,{tail.format(attacks='ATTACK_ATTACKS')})",
            ),
        ),
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit and of a Critical HIT by bonus x matrix number; fumble chance by level."""
    sheet = book.create_sheet(ODDS_SHEET)
    put(sheet["A1"], f"{rules.name}: odds by attack bonus and number needed").font = TITLE
    note = put(
        sheet["A2"],
        "Exact chances on one d20, no situation modifiers, no Advantage. Columns: the number your attack "
        "matrix gives for the defender's AC; rows: the attacker's bonus. A natural 1 always misses, a "
        "natural 20 always hits.",
    )
    note.font, note.alignment = NOTE, WRAP
    sheet.merge_cells(start_row=2, start_column=1, end_row=2, end_column=1 + len(HEAT_TARGET))
    sheet.row_dimensions[2].height = 30
    block = rules.resolution_block
    assert block is not None
    row = 4
    for heat in heat_maps(
        block,
        "Bonus \\ needed",
        HEAT_BONUS,
        HEAT_TARGET,
        critical_title="Chance of a Critical HIT (natural 20)",
    ):
        row = write_heat_map(book, sheet, row, heat)
    write_fumble_row(
        book, sheet, block, row, "Chance of a Critical Fumble (natural 1, then the follow d20 over the level)"
    )
    sheet.column_dimensions["A"].width = 14
    for j in range(2, 2 + max(len(HEAT_TARGET), len(FUMBLE_LEVELS))):
        sheet.column_dimensions[get_column_letter(j)].width = 5.5
    protect(sheet)
