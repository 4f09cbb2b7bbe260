"""The bfrpg calculators: the Attack calculator, its Odds sheet and workings come from the generic d20
writer (``pycalc.sheets.d20``: bfrpg's ``resolution:`` block and pickers say everything its attack
needs: threat and confirmation, the ability bonus by attack kind, what rules an attack out, a brawl's
own dice, a near miss into a melee, two weapons, a helpless target); what is bfrpg's own is the Combat
maneuvers sheet, whose calculators come from their own modules (``bfrpg_joust``, ``bfrpg_parry``,
``bfrpg_surprise``). The parity tests recalculate these sheets in LibreOffice and compare them
with the engine (``pycalc.resolution_calculator`` and ``pycalc.rulesets.bfrpg_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.bfrpg_joust import joust_section
from pycalc.sheets.bfrpg_parry import parry_section
from pycalc.sheets.bfrpg_surprise import surprise_section
from pycalc.sheets.calculator import ATTACK_SHEET, Section, write_calculator
from pycalc.sheets.dual import Udfs
from pycalc.tables import RuleSet

MANEUVER_SHEET = "Combat maneuvers"


def maneuver_sections(rules: RuleSet) -> list[Section]:
    return [joust_section(), parry_section(rules), surprise_section(rules)]


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    generic.write_calculators(book, rules, with_udfs)
    maneuvers = write_calculator(
        book,
        MANEUVER_SHEET,
        f"{rules.name}: jousting, parry, surprise",
        "Yellow cells are yours; green cells are worked out from the rule tables. Rulings in force: Rulings sheet.",
        maneuver_sections(rules),
        with_udfs,
    )
    # beside the Attack calculator, where it was before bfrpg's attack moved onto the generic writer
    book.move_sheet(
        maneuvers, book.sheetnames.index(ATTACK_SHEET) + 1 - book.sheetnames.index(MANEUVER_SHEET)
    )
