"""Native odds for the Castles & Crusades Attack calculator: expected damage, kill chance, a bar chart
of one attack's damage, and the printable "Odds" sheet, whose heat map (chance to hit by bonus and AC)
is the generic one of ``pycalc.sheets.d20_heat``, read from the resolution block.
Mirrors ``pycalc.rulesets.cnc_odds``.

The damage odds are the generic d20 writer's (``pycalc.sheets.d20``: the Damage workings' dice grid,
a hit's damage for each dice total, the chart's data, expected damage and kill chance) over the
calculator's own cells that ``pycalc.sheets.cnc.resolution`` names: the situation's damage (charge),
the kind's least damage and whether it deals any, the dice as read. A miss does 0, with chance
1 - ATTACK_HIT_CHANCE (every face counted in the d20 workings). C&C has no critical or fumble.
What stays here is the ruleset's own: the odds panel's fields and texts, the round's kill chance
(the .xlsm's), and the printable sheet.
"""

from __future__ import annotations

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.rulesets.cnc_odds import SEVERAL_ATTACKS
from pycalc.sheets import d20
from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import NOTE, PERCENT_FORMAT, TITLE, WRAP, protect, put
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import heat_maps
from pycalc.sheets.formulas import round_kill_formula, unless_down
from pycalc.sheets.heat_map import write_heat_map
from pycalc.tables import RuleSet

ODDS_SHEET = "Odds"
HEAT_BONUS = range(-2, 16)  # layout of the printed odds sheet (cell values, not formulas)
HEAT_AC = range(8, 29)


def odds_section(rules: RuleSet, formulas: Formulas) -> Section:
    """The odds panel: the generic writer's formulas over the calculator's cells (``formulas``)."""
    native = d20.odds_formulas(rules, formulas.block, formulas.c)
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
                native=native[d20.EXPECTED],
                udf=f"cnc_expected_damage({head},1,{tail})",
                help="a miss counts 0; chart of the damage on the right",
            ),
            Field(
                "Expected damage per round",
                "ATTACK_EXPECTED_DAMAGE_ROUND",
                number_format="0.00",
                native=native[d20.EXPECTED_ROUND],
                udf=f"cnc_expected_damage({head},ATTACK_ATTACKS,{tail})",
            ),
            Field(
                "Chance one attack drops the target",
                "ATTACK_KILL_CHANCE",
                number_format=PERCENT_FORMAT,
                native=native[d20.KILL],
                udf=unless_down("ATTACK_TARGET_HP", f"cnc_kill_chance({head},ATTACK_TARGET_HP,1,{tail})"),
                help="damage at least the target's hit points",
            ),
            Field(
                "Chance the round's attacks drop the target",
                "ATTACK_KILL_CHANCE_ROUND",
                number_format=PERCENT_FORMAT,
                native=round_kill_formula(
                    "ATTACK_ATTACKS", "ATTACK_KILL_CHANCE", "ATTACK_TARGET_HP", SEVERAL_ATTACKS
                ),
                udf=unless_down(
                    "ATTACK_TARGET_HP", f"cnc_kill_chance({head},ATTACK_TARGET_HP,ATTACK_ATTACKS,{tail})"
                ),
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
