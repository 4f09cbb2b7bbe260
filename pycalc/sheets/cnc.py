"""The Castles & Crusades calculators: the Attack calculator, its Odds sheet and workings come from
the generic d20 writer (``pycalc.sheets.d20``: cnc's ``resolution:`` block and pickers say everything
its attack needs, the prone rows by ruling and the range band of a typed distance included); what is
cnc's own is the sheet of its other calculators: hit points here, falling, special ACs,
movement and subdual from their own modules (``cnc_falling``...). The parity tests recalculate these
sheets in LibreOffice and compare them with the engine (``pycalc.resolution_calculator`` and
``pycalc.rulesets.cnc_*``).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.sheets import d20 as generic
from pycalc.sheets.calculator import BOOLEAN_FORMAT, INPUT, Field, Section
from pycalc.sheets.cnc_falling import falling_section
from pycalc.sheets.cnc_movement import charge_section, movement_section
from pycalc.sheets.cnc_special_ac import disarm_section, grapple_section, touch_section
from pycalc.sheets.cnc_subdual import subdual_section
from pycalc.sheets.dual import Udfs
from pycalc.sheets.formulas import band
from pycalc.tables import RuleSet

OTHER_SHEET = generic.OTHER_SHEET


def hp_section() -> Section:
    hp = "HP_NOW"
    bad = f"NOT(ISNUMBER({hp}))"

    def column(name: str) -> str:
        return f'IF({bad},"#HP? a number is needed",{band("hit_point_states", name, hp)})'

    return Section(
        "Hit point state",
        (
            Field("Current hit points", hp, INPUT, 0),
            Field("State", "HP_STATE_NOW", key=True, native=column("state"), udf=f'hp_state("cnc",{hp})'),
            Field("Can act", "HP_CAN_ACT", native=column("can_act"), number_format=BOOLEAN_FORMAT),
            Field("Hit points lost per round", "HP_LOSS_PER_ROUND", native=column("hp_loss_per_round")),
        ),
    )


def other_sections(rules: RuleSet) -> list[Section]:
    return [
        falling_section(),
        hp_section(),
        disarm_section(rules),
        grapple_section(rules),
        touch_section(rules),
        movement_section(rules),
        charge_section(),
        subdual_section(rules),
    ]


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    subtitle = "falling, hit points, special ACs, movement, subdual"
    generic.write_with_own_sheet(book, rules, with_udfs, OTHER_SHEET, subtitle, other_sections(rules))
