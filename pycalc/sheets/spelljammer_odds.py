"""Native odds for the Strike calculator: damage distribution, expected damage, stun and kill chances,
and the SC x DEF heat maps. Mirrors ``pycalc.rulesets.spelljammer_odds``.

The damage dice's distribution is computed in the sheet by adding one die at a time (a column per
number of dice), from cumulative sums, so it stays exact to floating-point rounding.
"""

from __future__ import annotations

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.grid_limits import beyond_grid_formula
from pycalc.odds import SEVERAL_ATTACKS
from pycalc.sheets.calculator import Field
from pycalc.sheets.common import (
    PERCENT_FORMAT,
    absolute,
    damage_chart,
    define_name,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.common import table_name as T
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import band, round_kill_formula, unless_down
from pycalc.sheets.heat_map import HeatMap, finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.tables import RuleSet

DAMAGE_SHEET = "Damage workings"
ODDS_SHEET = "Odds SC x DEF"
OUTCOME_IDS = ("miss", "hit", "critical", "grievous")
CHANCE_OF = {
    "miss": "STRIKE_MISS_CHANCE",
    "hit": "STRIKE_PLAIN_HIT_CHANCE",
    "critical": "STRIKE_CRIT_CHANCE",
    "grievous": "STRIKE_GRIEVOUS_CHANCE",
}
HEAT_SC = range(40, 201, 10)  # layout of the printed odds sheet
HEAT_DEF = range(0, 101, 10)


def outcome_value(outcome_id: str, column: str) -> str:
    return f'INDEX({T("outcomes", column)},MATCH("{outcome_id}",{T("outcomes", "id")},0))'


def write_damage_workings(book: Workbook) -> ScatterChart:
    sheet = book.create_sheet(DAMAGE_SHEET)
    grid = write_dice_grid(book, sheet, "STRIKE_DICE", "DMG")
    put(sheet["D1"], "Damage modifier (dice + situation)")
    put_formula(sheet["E1"], "DMG_DICE_MOD+STRIKE_SITUATION_DAMAGE")
    define_name(book, "DMG_MOD", absolute(sheet, "E1"))
    header, first = HEADER_ROW, grid.first
    dmg_col = grid.free_column
    put(sheet.cell(header, dmg_col), "Damage (with modifiers)")
    for index, outcome_id in enumerate(OUTCOME_IDS):
        put(sheet.cell(header, dmg_col + 1 + index), f"HP lost on {outcome_id}")
    for row in range(grid.first, grid.last + 1):
        put_formula(sheet.cell(row, dmg_col), f"MAX(0,$A{row}+DMG_MOD)")
        damage = f"${get_column_letter(dmg_col)}{row}"
        for index, outcome_id in enumerate(OUTCOME_IDS):
            prot = f"IF({outcome_value(outcome_id, 'prot_applies')},SUM(STRIKE_PROT),0)"
            put_formula(
                sheet.cell(row, dmg_col + 1 + index),
                f"MAX(0,{damage}*{outcome_value(outcome_id, 'damage_multiplier')}-{prot})",
            )
    define_name(book, "DMG_TOTAL", grid.column(dmg_col))
    for index, outcome_id in enumerate(OUTCOME_IDS):
        define_name(book, f"DMG_LOSS_{outcome_id.upper()}", grid.column(dmg_col + 1 + index))
    totals = grid.last - grid.first
    # distribution of hit points lost to one attack, for the chart
    loss_col = dmg_col + 6
    put(sheet.cell(header, loss_col), "HP lost")
    put(sheet.cell(header, loss_col + 1), "Chance")
    for x in range(2 * totals + 1):
        row = first + x
        put(sheet.cell(row, loss_col), x)
        terms = "+".join(
            f"{CHANCE_OF[o]}*SUMPRODUCT(DMG_P,--(DMG_LOSS_{o.upper()}={get_column_letter(loss_col)}{row}))"
            for o in OUTCOME_IDS
        )
        largest = "DMG_COUNT*DMG_SIDES+MAX(0,DMG_MOD)"
        biggest_multiplier = f"MAX({T('outcomes', 'damage_multiplier')})"
        put_formula(
            sheet.cell(row, loss_col + 1),
            f"IF(DMG_OK,IF({get_column_letter(loss_col)}{row}>({largest})*{biggest_multiplier},0,{terms}),0)",
        )
        sheet.cell(row, loss_col + 1).number_format = PERCENT_FORMAT
    chart = damage_chart(
        sheet,
        "Hit points lost to one attack",
        "hit points lost",
        loss_col,
        header,
        first,
        first + 2 * totals,
        7,
        dice_ok="DMG_OK",
    )
    sheet.sheet_state = "hidden"
    protect(sheet)
    return chart  # of the hidden sheet's numbers, to be shown beside the calculator


def odds_fields() -> tuple[Field, ...]:
    def over_outcomes(test: str) -> str:
        return "+".join(
            f"{CHANCE_OF[o]}*SUMPRODUCT(DMG_P,--({test.format(loss=f'DMG_LOSS_{o.upper()}')}))"
            for o in OUTCOME_IDS
        )

    expected = "+".join(f"{CHANCE_OF[o]}*SUMPRODUCT(DMG_P,DMG_LOSS_{o.upper()})" for o in OUTCOME_IDS)
    rolled_stun = "STRIKE_CHANCE_TO_HIT*SUMPRODUCT(DMG_P,--(DMG_TOTAL>TARGET_STUN_THRESHOLD))"
    stun = (
        f'IF(RULING_STUN_DAMAGE_BASIS="taken",{over_outcomes("{loss}>TARGET_STUN_THRESHOLD")},{rolled_stun})'
    )
    bad = beyond_grid_formula("DMG")

    def guarded(formula: str) -> str:
        return f"IF(DMG_OK,{formula},{bad})"

    udf_args = "STRIKE_SC+STRIKE_SITUATION_SC,STRIKE_DEF_EFFECTIVE,STRIKE_DICE"
    udf_tail = "STRIKE_PROT,STRIKE_MODS,STRIKE_SITUATION_DAMAGE"
    return (
        Field(
            "Expected HP lost per attack",
            "STRIKE_EXPECTED_DAMAGE",
            key=True,
            number_format="0.00",
            native=guarded(expected),
            udf=f"expected_damage({udf_args},{udf_tail},1)",
        ),
        Field(
            "Expected HP lost per round",
            "STRIKE_EXPECTED_DAMAGE_ROUND",
            number_format="0.00",
            native=guarded(f"SUM(STRIKE_ATTACKS)*({expected})"),
            udf=f"expected_damage({udf_args},{udf_tail},STRIKE_ATTACKS)",
        ),
        Field(
            "Chance one attack stuns",
            "STRIKE_STUN_CHANCE",
            number_format=PERCENT_FORMAT,
            native=guarded(stun),
            udf=f"stun_chance({udf_args},TARGET_CON,TARGET_SIZE,TARGET_MAX_HP,{udf_tail})",
        ),
        Field(
            "Chance one attack drops the target",
            "STRIKE_KILL_CHANCE",
            number_format=PERCENT_FORMAT,
            native=unless_down("TARGET_HP", guarded(over_outcomes("{loss}>=TARGET_HP"))),
            udf=unless_down("TARGET_HP", f"kill_chance({udf_args},TARGET_HP,1,{udf_tail})"),
        ),
        Field(
            "Chance the round's attacks drop the target",
            "STRIKE_KILL_CHANCE_ROUND",
            number_format=PERCENT_FORMAT,
            native=round_kill_formula(
                "STRIKE_ATTACKS",
                "STRIKE_KILL_CHANCE",
                "TARGET_HP",
                SEVERAL_ATTACKS,
            ),
            udf=unless_down("TARGET_HP", f"kill_chance({udf_args},TARGET_HP,STRIKE_ATTACKS,{udf_tail})"),
        ),
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable heat maps: chance to hit and to score a critical or better, by SC and DEF."""
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: odds by SC and DEF",
        "Exact chances with the automatic results (01-03, 96-00); no situation modifiers. "
        "Roll SC - DEF or less.",
        len(HEAT_DEF),
        height=24,
    )
    cmax = f"IFERROR({band('critical_grievous', 'critical_max', '{msc}')},0)"
    maps = (
        ("Chance to hit", "ODDS_HIT_GRID", "((D100_ROLLS<={msc})+(D100_AUTO_FLOOR>=RANK_HIT))"),
        (
            "Chance of a critical or grievous hit",
            "ODDS_CRIT_GRID",
            f"((D100_ROLLS<={cmax})+(D100_AUTO_FLOOR>=RANK_CRITICAL))",
        ),
    )
    formula = "SUMPRODUCT((1-D100_AUTO_MISS)*({hits}>0))/DICE_FACES"
    heats = [
        HeatMap(
            title,
            name,
            "SC \\ DEF",
            HEAT_SC,
            HEAT_DEF,
            lambda sc, def_value, hits=hits: formula.format(hits=hits.format(msc=f"({sc}-{def_value})")),
        )
        for title, name, hits in maps
    ]
    write_heat_maps(book, sheet, 4, heats)
    finish_odds_sheet(sheet, 10, len(HEAT_DEF), 7)
