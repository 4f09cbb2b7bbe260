"""Native odds for the bfrpg Attack calculator: damage distribution, expected damage, kill chance,
the chart of the damage one attack does, and the printable "Odds" sheet, whose heat maps (AB x AC)
are the generic ones of ``pycalc.sheets.d20_heat``, read from the resolution block.

Mirrors ``pycalc.rulesets.bfrpg_odds``. The damage dice's distribution comes from the shared grid
(``pycalc.sheets.dice_grid``) over ATTACK_DICE_USED; a second grid over twice as many dice gives the
sum of the two damage rolls of a critical under ruling critical_damage = normal_plus_max_plus_roll.
Per-total columns hold the damage of a hit and of a critical for each dice total; the outcome
chances are the calculator's own ATTACK_HIT_CHANCE and ATTACK_CRIT_CHANCE.
"""

from __future__ import annotations

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.sheets.bfrpg_formulas import (
    DICE_ERROR,
    multiplied,
    pick_name,
)
from pycalc.sheets.calculator import INPUT, Field
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
    ruling_name,
)
from pycalc.sheets.d20_heat import ALWAYS_MISS, heat_maps
from pycalc.sheets.d20_heat import FACES as D20W_FACES
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import by_label, const
from pycalc.sheets.heat_map import write_heat_map
from pycalc.tables import RuleSet

WORKINGS_SHEET = "Attack odds workings"
WORKINGS_SHEET_2 = "Attack odds workings 2"
ODDS_SHEET = "Odds"
HEAT_BONUS = range(0, 16)  # layout of the printed heat maps: attack bonus rows
HEAT_AC = range(10, 26)  # target AC columns

GRID = "BFRPG_DMG"
GRID_2 = "BFRPG_DMG2"
HIT_DMG, CRIT_DMG, CRIT2_DMG = "ODDS_HIT_DMG", "ODDS_CRIT_DMG", "ODDS_CRIT2_DMG"
PLAIN, CRIT = "ODDS_PLAIN_HIT_CHANCE", "ATTACK_CRIT_CHANCE"
GRID_MESSAGE = (
    '"#DICE? NdS+M with up to "&BFRPG_DMG_MAX_DICE&" dice (half that when a critical adds '
    'a second damage roll) of up to "&BFRPG_DMG_MAX_SIDES&" sides"'
)


def situation_multiplied(value: str, fixed: str) -> str:
    """The block's multiplier stages (``pycalc.resolution.amount``) with the calculator's charge,
    subduing and underwater pickers."""
    water = pick_name("underwater_weapons")
    return multiplied(
        value,
        fixed,
        by_label("charge_options", "damage_multiplier", pick_name("charge_options")),
        by_label("damage_mode", "damage_multiplier", pick_name("damage_mode")),
        by_label("underwater_weapons", "damage_multiplier", water),
        by_label("underwater_weapons", "round_up", water),
    )


def over_outcomes(test: str) -> str:
    """Chance over the plain hits and criticals of the dice totals meeting ``test`` ({dmg})."""
    hit = f"SUMPRODUCT({GRID}_P,--({test.format(dmg=HIT_DMG)}))"
    one = f"SUMPRODUCT({GRID}_P,--({test.format(dmg=CRIT_DMG)}))"
    two = f"SUMPRODUCT({GRID_2}_P,--({test.format(dmg=CRIT2_DMG)}))"
    return f"{PLAIN}*{hit}+{CRIT}*IF(ODDS_TWO_ROLLS,{two},{one})"


def write_odds_workings(book: Workbook) -> ScatterChart:
    """The hidden sheets of the odds; returns the chart of the damage distribution."""
    sheet = book.create_sheet(WORKINGS_SHEET)
    grid = write_dice_grid(book, sheet, "ATTACK_DICE_USED", GRID)
    extra = by_label("critical_effect", "extra_damage", pick_name("critical_effect"))
    base = f"{const('helpless_damage', 'max_damage_multiplier')}*(ATTACK_DICE_COUNT*ATTACK_DICE_SIDES+ATTACK_DICE_MOD)"
    workings = (
        (
            "ODDS_MAX_DIE",
            "Maximum die of a critical",
            f"{const('critical_hits', 'maximum_dice_added')}*ATTACK_DICE_SIDES",
        ),
        (
            "ODDS_TWO_ROLLS",
            "Critical adds a second damage roll",
            f'AND({ruling_name("critical_damage")}="normal_plus_max_plus_roll",{extra})',
        ),
        (PLAIN, "Chance of a hit that is not a critical", "ATTACK_HIT_CHANCE-ATTACK_CRIT_CHANCE"),
        (
            "ODDS_HELPLESS",
            "Damage to a helpless target",
            f'IF({ruling_name("helpless_multipliers")}="none",{base},{situation_multiplied(base, "0")})',
        ),
        (
            "ODDS_DICE_2",
            "Both damage rolls of a critical",
            '(ATTACK_DICE_COUNT+ATTACK_DICE_COUNT)&"d"&ATTACK_DICE_SIDES',
        ),
        (
            "ODDS_OK",
            "Dice fit the grids",
            f'AND({GRID}_OK,OR({ruling_name("critical_damage")}<>"normal_plus_max_plus_roll",{GRID_2}_OK))',
        ),
    )
    col = grid.free_column
    working_col = col + 6  # beside the per-total and distribution columns, clear of the grid's header row
    for row, (name, label, formula) in enumerate(workings, start=1):
        put(sheet.cell(row, working_col), label)
        put_formula(sheet.cell(row, working_col + 1), formula)
        define_name(book, name, absolute(sheet, f"{get_column_letter(working_col + 1)}{row}"))
    put(sheet.cell(HEADER_ROW, col), "Damage of a hit")
    put(sheet.cell(HEADER_ROW, col + 1), "Damage of a critical")
    for row in range(grid.first, grid.last + 1):
        put_formula(sheet.cell(row, col), situation_multiplied(f"$A{row}+ATTACK_DICE_MOD", "0"))
        critical = situation_multiplied(f"$A{row}+ATTACK_DICE_MOD+ODDS_MAX_DIE", "ODDS_MAX_DIE")
        put_formula(sheet.cell(row, col + 1), f"IF({extra},{critical},${get_column_letter(col)}{row})")
    define_name(book, HIT_DMG, grid.column(col))
    define_name(book, CRIT_DMG, grid.column(col + 1))

    second = book.create_sheet(WORKINGS_SHEET_2)
    grid_2 = write_dice_grid(book, second, "ODDS_DICE_2", GRID_2)
    put(second.cell(HEADER_ROW, grid_2.free_column), "Damage of a critical with two rolls")
    for row in range(grid_2.first, grid_2.last + 1):
        total = f"$A{row}+ATTACK_DICE_MOD+ATTACK_DICE_MOD+ODDS_MAX_DIE"
        put_formula(second.cell(row, grid_2.free_column), situation_multiplied(total, "ODDS_MAX_DIE"))
    define_name(book, CRIT2_DMG, grid_2.column(grid_2.free_column))

    # distribution of the damage of one attack, for the chart
    dist = col + 3
    put(sheet.cell(HEADER_ROW, dist), "Damage")
    put(sheet.cell(HEADER_ROW, dist + 1), "Chance")
    amounts = 2 * (grid.last - grid.first) + 1  # layout: damage 0 to twice the grid's largest total
    for index in range(amounts):
        row = grid.first + index
        put(sheet.cell(row, dist), index)
        amount = f"${get_column_letter(dist)}{row}"
        chance = (
            f'IF(NOT(ODDS_OK),0,IF(ATTACK_BLOCKED<>"",--({amount}=0),IF(ATTACK_AUTO_HIT,--(ODDS_HELPLESS={amount}),'
            f"--({amount}=0)*(1-ATTACK_HIT_CHANCE)+{over_outcomes('{dmg}=' + amount)})))"
        )
        put_formula(
            sheet.cell(row, dist + 1), f"IF(ATTACK_DICE_OK,{chance},0)"
        ).number_format = PERCENT_FORMAT
    last = grid.first + amounts - 1
    define_name(
        book,
        "ODDS_DAMAGE_AMOUNTS",
        absolute(sheet, f"{get_column_letter(dist)}{grid.first}", f"{get_column_letter(dist)}{last}"),
    )
    define_name(
        book,
        "ODDS_DAMAGE_CHANCES",
        absolute(sheet, f"{get_column_letter(dist + 1)}{grid.first}", f"{get_column_letter(dist + 1)}{last}"),
    )
    chart = damage_chart(
        sheet,
        "Damage of one attack (a miss is 0)",
        "damage",
        dist,
        HEADER_ROW,
        grid.first,
        last,
        7,
        dice_ok=f"{GRID}_OK",
    )
    for hidden in (sheet, second):
        hidden.sheet_state = "hidden"
        protect(hidden)
    return chart


def odds_fields() -> tuple[Field, ...]:
    def guarded(formula: str) -> str:
        return f"IF(NOT(ATTACK_DICE_OK),{DICE_ERROR},IF(NOT(ODDS_OK),{GRID_MESSAGE},{formula}))"

    expected = (
        'IF(ATTACK_BLOCKED<>"",0,IF(ATTACK_AUTO_HIT,ODDS_HELPLESS,'
        f"{PLAIN}*SUMPRODUCT({GRID}_P,{HIT_DMG})+{CRIT}*IF(ODDS_TWO_ROLLS,SUMPRODUCT({GRID_2}_P,{CRIT2_DMG}),"
        f"SUMPRODUCT({GRID}_P,{CRIT_DMG}))))"
    )
    hp = "SUM(ATTACK_TARGET_HP)"
    kill = (
        f'IF({hp}<=0,1,IF(ATTACK_BLOCKED<>"",0,IF(ATTACK_AUTO_HIT,--(ODDS_HELPLESS>={hp}),'
        f"{over_outcomes('{dmg}>=' + hp)})))"
    )
    attacks = "SUM(ATTACK_ATTACKS)"
    bad_attacks = '"#ATTACKS? 0 or more"'
    udf_head = "ATTACK_BONUS,ATTACK_TARGET_AC,ATTACK_DICE_USED"
    udf_tail = (
        f"ATTACK_TOTAL_MODS,ATTACK_DICE_ADDED,{pick_name('charge_options')},{pick_name('damage_mode')},"
        f"{pick_name('underwater_weapons')},{pick_name('critical_effect')},ATTACK_AUTO_HIT,ATTACK_BLOCKED"
    )
    return (
        Field("Attacks this round", "ATTACK_ATTACKS", INPUT, 1, help="for the round's odds"),
        Field("Target's hit points now", "ATTACK_TARGET_HP", INPUT, 10, help="for the chance to drop it"),
        Field(
            "Expected damage per attack (misses count 0)",
            "ATTACK_EXPECTED_DAMAGE",
            key=True,
            number_format="0.00",
            native=guarded(expected),
            udf=f"bfrpg_expected_damage({udf_head},1,{udf_tail})",
        ),
        Field(
            "Expected damage per round",
            "ATTACK_EXPECTED_DAMAGE_ROUND",
            number_format="0.00",
            native=f"IF(ISNUMBER(ATTACK_EXPECTED_DAMAGE),IF({attacks}<0,{bad_attacks},"
            f"{attacks}*ATTACK_EXPECTED_DAMAGE),ATTACK_EXPECTED_DAMAGE)",
            udf=f"bfrpg_expected_damage({udf_head},ATTACK_ATTACKS,{udf_tail})",
        ),
        Field(
            "Chance one attack drops the target",
            "ATTACK_KILL_CHANCE",
            key=True,
            number_format=PERCENT_FORMAT,
            native=guarded(kill),
            udf=f"bfrpg_kill_chance({udf_head},ATTACK_TARGET_HP,1,{udf_tail})",
        ),
        Field(
            "Chance the round's attacks drop the target",
            "ATTACK_KILL_CHANCE_ROUND",
            number_format=PERCENT_FORMAT,
            native=f"IF(ISNUMBER(ATTACK_KILL_CHANCE),IF({attacks}<0,{bad_attacks},IF({attacks}=0,IF({hp}<=0,1,0),IF({attacks}=1,ATTACK_KILL_CHANCE,"
            '"several attacks: the .xlsm gives this chance"))),ATTACK_KILL_CHANCE)',
            udf=f"bfrpg_kill_chance({udf_head},ATTACK_TARGET_HP,ATTACK_ATTACKS,{udf_tail})",
        ),
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable heat maps: chance to hit and of a confirmed critical, by attack bonus and AC."""
    sheet = book.create_sheet(ODDS_SHEET)
    put(sheet["A1"], f"{rules.name}: odds by attack bonus and target AC").font = TITLE
    note = put(
        sheet["A2"],
        "d20 + AB >= AC; a natural 1 always misses, a natural 20 always hits and threatens a critical, "
        "confirmed by a second d20 that hits normally. No situation modifiers. There is no fumble chart.",
    )
    note.font, note.alignment = NOTE, WRAP
    put(sheet["A3"], "Chance of a natural 1 (always a miss)")
    put_formula(sheet["F3"], f"SUM({ALWAYS_MISS})/{D20W_FACES}").number_format = "0%"
    define_name(book, "ODDS_NATURAL_1_CHANCE", absolute(sheet, "F3"))
    block = rules.resolution_block
    assert block is not None
    row = 5
    for heat in heat_maps(block, "AB \\ AC", HEAT_BONUS, HEAT_AC, "Chance of a confirmed critical hit"):
        row = write_heat_map(book, sheet, row, heat)
    sheet.column_dimensions["A"].width = 10
    for j in range(2, 2 + len(HEAT_AC)):
        sheet.column_dimensions[get_column_letter(j)].width = 6
    protect(sheet)
