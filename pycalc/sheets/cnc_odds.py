"""Native odds for the Castles & Crusades Attack calculator: expected damage, kill chance, a bar chart
of one attack's damage, and the printable "Odds" sheet, whose heat map (chance to hit by bonus and AC)
is the generic one of ``pycalc.sheets.d20_heat``, read from the resolution block.
Mirrors ``pycalc.rulesets.cnc_odds``.

The damage odds are the generic d20 writer's (``pycalc.sheets.d20_damage``: the Damage workings' dice grid,
a hit's damage for each dice total, the chart's data, expected damage and kill chance) over the
calculator's own cells that ``pycalc.sheets.cnc.resolution`` names: the situation's damage (charge),
the kind's least damage and whether it deals any, the dice as read. A miss does 0, with chance
1 - ATTACK_HIT_CHANCE (every face counted in the d20 workings). C&C has no critical or fumble.
What stays here is the ruleset's own: the odds panel's fields and texts, and the printable sheet.
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets.calculator import Section
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import heat_maps
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.odds_panel import OddsPanel, generic_native, odds_fields
from pycalc.tables import RuleSet

ODDS_SHEET = "Odds"
HEAT_BONUS = range(-2, 16)  # layout of the printed odds sheet (cell values, not formulas)
HEAT_AC = range(8, 29)


def odds_section(rules: RuleSet, formulas: Formulas) -> Section:
    """The odds panel: the generic writer's formulas over the calculator's cells (``formulas``)."""
    panel = OddsPanel(
        "cnc",
        "ATTACK_BONUS,ATTACK_AC,ATTACK_DICE",
        "ATTACK_TOTAL_MODS,ATTACK_SITUATION_DAMAGE,ATTACK_KIND_ID",
        generic_native(rules, formulas.block, formulas.c),
        expected_help="a miss counts 0; chart of the damage on the right",
        kill_help="damage at least the target's hit points",
    )
    return Section(
        "Odds before the dice are rolled (this attack, with the situation below)", odds_fields(panel)
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit by attack bonus (rows) and the defender's AC (columns)."""
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: chance to hit by attack bonus and armor class",
        "Exact chances on one d20: d20 + bonus >= AC hits. Rows: the attacker's bonus (BtH + Str or Dex, "
        "modifiers included); columns: the defender's AC in the situation. C&C has no critical hit or fumble; "
        "a natural-roll house rule ticked in the natural_rolls table is counted.",
        len(HEAT_AC),
    )
    block = rules.resolution_block
    assert block is not None
    write_heat_maps(book, sheet, 4, heat_maps(block, "Bonus \\ AC", HEAT_BONUS, HEAT_AC))
    finish_odds_sheet(sheet, 12, len(HEAT_AC), 5.5)
