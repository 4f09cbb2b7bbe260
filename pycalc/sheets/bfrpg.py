"""The bfrpg calculators: the Attack calculator, its Odds sheet and workings come from the generic d20
writer (``pycalc.sheets.d20``: bfrpg's ``resolution:`` block and pickers say everything its attack
needs: threat and confirmation, the ability bonus by attack kind, what rules an attack out, a brawl's
own dice, a near miss into a melee); what is bfrpg's own is the Combat maneuvers sheet, whose
calculators come from their own modules (``bfrpg_critical``, ``bfrpg_two_weapon``, ``bfrpg_helpless``,
``bfrpg_joust``, ``bfrpg_parry``, ``bfrpg_firing``, ``bfrpg_surprise``) over the rule numbers of the
die written at its top. The parity tests recalculate these sheets in LibreOffice and compare them
with the engine (``pycalc.resolution_calculator`` and ``pycalc.rulesets.bfrpg_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.bfrpg_critical import critical_section
from pycalc.sheets.bfrpg_firing import firing_section
from pycalc.sheets.bfrpg_formulas import ALWAYS_MIN, FAIL_MAX, MARGIN_MIN, THREAT_MIN
from pycalc.sheets.bfrpg_helpless import helpless_section
from pycalc.sheets.bfrpg_joust import joust_section
from pycalc.sheets.bfrpg_parry import parry_section
from pycalc.sheets.bfrpg_surprise import surprise_section
from pycalc.sheets.bfrpg_two_weapon import two_weapon_section
from pycalc.sheets.calculator import ATTACK_SHEET, Section, rule_field, write_calculator
from pycalc.sheets.dual import Udfs
from pycalc.tables import RuleSet

MANEUVER_SHEET = "Combat maneuvers"


def die_section() -> Section:
    """The attack die's rule numbers the maneuvers read (its faces are the Attack calculator's)."""
    return Section(
        "The attack die (rule numbers)",
        (
            rule_field(
                "Natural roll that always fails, up to", FAIL_MAX, "attack_roll", "natural_always_fails"
            ),
            rule_field(
                "Natural roll that always hits, from", ALWAYS_MIN, "attack_roll", "natural_always_hits"
            ),
            rule_field("Total minus AC needed to hit", MARGIN_MIN, "attack_roll", "hit_margin_min"),
            rule_field("Threat on a natural", THREAT_MIN, "critical_hits", "threat_natural"),
        ),
    )


def maneuver_sections(rules: RuleSet) -> list[Section]:
    return [
        critical_section(),
        two_weapon_section(rules),
        helpless_section(),
        joust_section(),
        parry_section(rules),
        firing_section(rules),
        surprise_section(rules),
        die_section(),
    ]


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    generic.write_calculators(book, rules, with_udfs)
    maneuvers = write_calculator(
        book,
        MANEUVER_SHEET,
        f"{rules.name}: criticals, two weapons, helpless foes, jousting, parry, firing into melee, surprise",
        "Yellow cells are yours; green cells are worked out from the rule tables. Rulings in force: Rulings sheet.",
        maneuver_sections(rules),
        with_udfs,
    )
    # beside the Attack calculator, where it was before bfrpg's attack moved onto the generic writer
    book.move_sheet(
        maneuvers, book.sheetnames.index(ATTACK_SHEET) + 1 - book.sheetnames.index(MANEUVER_SHEET)
    )
