"""Native odds for the osr Attack calculator: expected damage, kill chance, a chart of one attack's
damage, and the printable "Odds" sheet (chance to hit, critical and fumble: the generic heat maps of
``pycalc.sheets.d20_heat``, read from the resolution block).
Mirrors ``pycalc.rulesets.osr_odds``.

The damage odds are the generic d20 writer's (``pycalc.sheets.d20_damage``: the Damage workings' dice grid,
a hit's damage for each dice total, plain and less the natural-20 penalty, the chart's data, expected
damage and kill chance) over the calculator's own cells (``pycalc.sheets.osr.resolution``): the
chances of a hit and of a critical, and of each on the natural 20, from the d20 workings (every kept
roll and fumble check, Advantage weights included). The odds need dice: a dice text the calculator
cannot read, or a plain number, shows the calculator's own message; no dice, or more than the grid
holds, the grid's. What stays here is osr's own: the odds panel's fields and texts, the chart's length
(doubled 8d12) and the printable sheet.
"""

from __future__ import annotations

from dataclasses import replace

from openpyxl.chart import ScatterChart
from openpyxl.workbook.workbook import Workbook

from pycalc.grid_limits import beyond_grid_formula
from pycalc.sheets import d20_cells, d20_damage
from pycalc.sheets.calculator import Section
from pycalc.sheets.d20_cells import Cells
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import FUMBLE_LEVELS, heat_maps, write_fumble_row
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.odds_panel import OddsPanel, generic_native, odds_fields
from pycalc.tables import RuleSet

ODDS_SHEET = "Odds"
HEAT_BONUS = range(-2, 11)  # layout of the printed odds sheet (cell values, not formulas)
HEAT_TARGET = range(4, 27)
MODE_TEXT = 'IF(ATTACK_MODE=1,"Advantage",IF(ATTACK_MODE=0,"Normal","Disadvantage"))'


def odds_cells(formulas: Formulas) -> Cells:
    """The calculator's cells as the odds read them: no dice (a count below 1) is beyond the grid."""
    c = formulas.c
    no_dice = f"IF(ISNUMBER({c.dice_count}),{c.dice_count}<1,FALSE)"
    return replace(
        c,
        dice_message=f'IF({c.dice_message}<>"",{c.dice_message},IF({no_dice},{beyond_grid_formula(d20_cells.PREFIX)},""))',
    )


def write_damage_chart(book: Workbook, rules: RuleSet, formulas: Formulas) -> ScatterChart:
    """The generic Damage workings over the calculator's cells (``formulas``), and its chart."""
    return d20_damage.write_damage_chart(
        book, rules, formulas.block, odds_cells(formulas), d20_damage.DOUBLED_CHART_DAMAGE
    )


def odds_section(rules: RuleSet, formulas: Formulas) -> Section:
    """The odds panel: the generic writer's formulas over the calculator's cells (``formulas``)."""
    panel = OddsPanel(
        "osr",
        "ATTACK_BONUS,ATTACK_TARGET_EFFECTIVE,ATTACK_DICE",
        f"{{attacks}},ATTACK_MODS_TOTAL,ATTACK_LEVEL,{MODE_TEXT},ATTACK_DOUBLE,ATTACK_NEEDS_MAGIC",
        generic_native(rules, formulas.block, odds_cells(formulas)),
        expected_help="misses and fumbles count 0; chart of the damage on the right",
        kill_help="damage at least the target's hit points",
    )
    return Section(
        "Odds before the dice are rolled (this attack, with the situation below)", odds_fields(panel)
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit and of a Critical HIT by bonus x matrix number; fumble chance by level."""
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: odds by attack bonus and number needed",
        "Exact chances on one d20, no situation modifiers, no Advantage. Columns: the number your attack "
        "matrix gives for the defender's AC; rows: the attacker's bonus. A natural 1 always misses, a "
        "natural 20 always hits.",
        len(HEAT_TARGET),
    )
    block = rules.resolution_block
    assert block is not None
    critical = "Chance of a Critical HIT (natural 20)"
    row = write_heat_maps(
        book, sheet, 4, heat_maps(block, "Bonus \\ needed", HEAT_BONUS, HEAT_TARGET, critical)
    )
    write_fumble_row(
        book, sheet, block, row, "Chance of a Critical Fumble (natural 1, then the follow d20 over the level)"
    )
    finish_odds_sheet(sheet, 14, max(len(HEAT_TARGET), len(FUMBLE_LEVELS)), 5.5)
