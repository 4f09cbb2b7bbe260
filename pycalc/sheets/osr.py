"""The osr calculators: the Attack calculator, its Odds sheet and workings come from the generic d20
writer (``pycalc.sheets.d20``: osr's ``resolution:`` block and pickers say everything its attack
needs, the GM's fumble table included); what is osr's own is the sheet of the Combat calculators,
whose sections are the generic Surprise calculator (``pycalc.sheets.surprise``: osr's encounter
block) and those of its own modules (``osr_mass_combat``, ``osr_normal_men``, ``osr_grappling``,
``osr_saves``: mass combat, Normal Men, grappling, level-gap saves, spell interruption). The parity tests recalculate these sheets in LibreOffice and
compare them with the engine (``pycalc.resolution_calculator`` and ``pycalc.rulesets.osr_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.dual import Udfs
from pycalc.sheets.osr_grappling import grapple_section
from pycalc.sheets.osr_mass_combat import mass_section
from pycalc.sheets.osr_normal_men import normal_men_section
from pycalc.sheets.osr_saves import save_section, spell_section
from pycalc.tables import RuleSet

COMBAT_SHEET = "Combat calculators"


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    sections = [
        mass_section(rules),
        normal_men_section(rules),
        grapple_section(rules),
        save_section(rules),
        spell_section(rules),
    ]
    subtitle = "surprise, mass combat, Normal Men, grappling, saves, spells"
    generic.write_with_own_sheet(book, rules, with_udfs, COMBAT_SHEET, subtitle, sections)
