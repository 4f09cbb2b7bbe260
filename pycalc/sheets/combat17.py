"""The 17 Combat calculators: the Attack calculator, its Odds sheet and workings come from the generic
d20 writer (``pycalc.sheets.d20``: combat17's ``resolution:`` block and pickers say everything its
attack needs, the critical hit chart, its 1d4 condition chart, the critical miss chart and the DEX
check its rows call for, the block's ``fumble.check``); what is combat17's own is one sheet of its
other calculators, each section from its own module: rate of fire (``combat17_rate_of_fire``),
grenade scatter (``combat17_scatter``), brawling (``combat17_brawling``) and subdual
(``combat17_subdual``); the cells they share come from ``combat17_cells``. The parity tests
recalculate these sheets in LibreOffice and compare them with the engine
(``pycalc.resolution_calculator`` and ``pycalc.rulesets.combat17_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.combat17_brawling import brawling_section
from pycalc.sheets.combat17_rate_of_fire import rate_of_fire_section
from pycalc.sheets.combat17_scatter import grenade_section
from pycalc.sheets.combat17_subdual import subdual_section
from pycalc.sheets.dual import Udfs
from pycalc.tables import RuleSet

OTHER_SHEET = generic.OTHER_SHEET


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    sections = [
        rate_of_fire_section(rules),
        grenade_section(),
        brawling_section(rules),
        subdual_section(),
    ]
    subtitle = "rate of fire, grenade scatter, brawling, subdual"
    generic.write_with_own_sheet(book, rules, with_udfs, OTHER_SHEET, subtitle, sections)
