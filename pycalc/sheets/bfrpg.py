"""The bfrpg calculators: the Attack calculator, its Odds sheet and workings come from the generic d20
writer (``pycalc.sheets.d20``: bfrpg's ``resolution:`` block and pickers say everything its attack
needs: threat and confirmation, the ability bonus by attack kind, what rules an attack out, a brawl's
own dice, a near miss into a melee, two weapons, a helpless target); what is bfrpg's own is the Combat
maneuvers sheet: the generic Surprise calculator (``pycalc.sheets.surprise``: bfrpg's encounter block)
and its own modules' (``bfrpg_joust``, ``bfrpg_parry``). The parity tests recalculate these sheets in LibreOffice and compare them
with the engine (``pycalc.resolution_calculator`` and ``pycalc.rulesets.bfrpg_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.bfrpg_joust import joust_section
from pycalc.sheets.bfrpg_parry import parry_section
from pycalc.sheets.dual import Udfs
from pycalc.tables import RuleSet

MANEUVER_SHEET = "Combat maneuvers"


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    sections = [joust_section(), parry_section(rules)]
    generic.write_with_own_sheet(
        book, rules, with_udfs, MANEUVER_SHEET, "surprise, jousting, parry", sections
    )
