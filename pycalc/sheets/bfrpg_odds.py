"""Native odds for the bfrpg Attack calculator: expected damage, kill chance, the chart of the damage
one attack does, and the printable "Odds" sheet, whose heat maps (AB x AC) are the generic ones of
``pycalc.sheets.d20_heat``, read from the resolution block. Mirrors ``pycalc.rulesets.bfrpg_odds``.

The damage odds are the generic d20 writer's (``pycalc.sheets.d20_damage``: the Damage workings' dice grid
over ATTACK_DICE_USED, a hit's and a critical's damage for each dice total, with the totals of a
critical's second damage roll under ruling critical_damage normal_plus_max_plus_roll, the chart's
data, expected damage and kill chance) over the calculator's own cells that
``pycalc.sheets.bfrpg.damage_rules`` names: the multiplier stages and rounding the pickers give,
whether a critical adds damage, a helpless target's automatic hit. A blocked attack has no chance
to hit (ATTACK_HIT_CHANCE 0). What stays here is the ruleset's own: the odds panel's fields (the
round's chance to drop the target shows one attack's message, then the round's, first:
``bfrpg_odds.ROUND_MESSAGES_FIRST``), and the printable sheet.
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.rulesets.bfrpg_odds import ROUND_MESSAGES_FIRST
from pycalc.sheets import odds_panel
from pycalc.sheets.bfrpg_formulas import udf_damage_picks
from pycalc.sheets.calculator import Field
from pycalc.sheets.common import (
    absolute,
    define_name,
    put,
    put_formula,
)
from pycalc.sheets.d20_formulas import Formulas
from pycalc.sheets.d20_heat import ALWAYS_MISS, heat_maps
from pycalc.sheets.d20_heat import FACES as D20W_FACES
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.odds_panel import OddsPanel, generic_native
from pycalc.tables import RuleSet

ODDS_SHEET = "Odds"
HEAT_BONUS = range(0, 16)  # layout of the printed heat maps: attack bonus rows
HEAT_AC = range(10, 26)  # target AC columns


def odds_fields(rules: RuleSet, damage: Formulas) -> tuple[Field, ...]:
    """The odds panel: the generic writer's formulas over the calculator's cells (``damage``)."""
    panel = OddsPanel(
        "bfrpg",
        "ATTACK_BONUS,ATTACK_TARGET_AC,ATTACK_DICE_USED",
        f"ATTACK_TOTAL_MODS,ATTACK_DICE_ADDED,{udf_damage_picks()},ATTACK_AUTO_HIT,ATTACK_BLOCKED",
        generic_native(rules, damage.block, damage.c, ROUND_MESSAGES_FIRST),
        attacks_label="Attacks this round",
        attacks_help="for the round's odds",
        hp_help="for the chance to drop it",
        expected_label="Expected damage per attack (misses count 0)",
        kill_key=True,
    )
    return odds_panel.odds_fields(panel)


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable heat maps: chance to hit and of a confirmed critical, by attack bonus and AC."""
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: odds by attack bonus and target AC",
        "d20 + AB >= AC; a natural 1 always misses, a natural 20 always hits and threatens a critical, "
        "confirmed by a second d20 that hits normally. No situation modifiers. There is no fumble chart.",
    )
    put(sheet["A3"], "Chance of a natural 1 (always a miss)")
    put_formula(sheet["F3"], f"SUM({ALWAYS_MISS})/{D20W_FACES}").number_format = "0%"
    define_name(book, "ODDS_NATURAL_1_CHANCE", absolute(sheet, "F3"))
    block = rules.resolution_block
    assert block is not None
    critical = "Chance of a confirmed critical hit"
    write_heat_maps(book, sheet, 5, heat_maps(block, "AB \\ AC", HEAT_BONUS, HEAT_AC, critical))
    finish_odds_sheet(sheet, 10, len(HEAT_AC), 6)
