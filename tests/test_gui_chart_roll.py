"""An own ruleset's fumble table and wound chart, rolled on in the Log's Chart column of a real
LibreOffice window as a GM types it: a Fumble without its chart roll says to type it, with it the row
says what the table says, a chart roll left on a plain hit is called out, and a roll no chart has is
refused at entry. The rows' words are the generic calculator's (``pycalc.resolution_calculator``)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.encounter_rulesets import adapter
from pycalc.sheets.encounter_looks import log_roll_label
from pycalc.sheets.roll_entry import log_roll
from pycalc.tables import RuleSet
from tests.test_encounter_parity import sheet_inputs
from tests.test_generic_parity import rolled_chart_bx  # noqa: F401 (a fixture)
from tests.test_gui_condition_roll import column_of
from tests.test_gui_roll_entry import name_box, refused
from tests.test_gui_window import cells_to_type, read_back, type_cells, window, window_tools  # noqa: F401 (a fixture)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_chart_roll_typed_in_the_window(rolled_chart_bx: tuple[RuleSet, Path], tmp_path: Path) -> None:  # noqa: F811
    rules, xlsx = rolled_chart_bx
    book = openpyxl.load_workbook(xlsx)
    chart_roll = next(r for r in adapter(rules).rolls if r.field == "chart_roll")
    stats = {"attack_bonus": 3, "ac": 12, "dice": "1d6", "level": 1}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=30, stats=stats),
        Combatant("Kara", init_rolls=(2,), max_hp=30, stats=stats),
    ]
    attacks = [
        Attack("Lem", "Kara", round=1, roll=1, follow_roll=15),  # a Fumble: the table not yet rolled
        Attack("Kara", "Lem", roll=1, follow_roll=15, chart_roll=2),
        Attack("Lem", "Kara", round=2, roll=15, damage_roll=3, chart_roll=4),  # left from row 2
        Attack("Kara", "Lem", roll=20, damage_roll=3, chart_roll=12),  # a Critical: the wound chart
    ]
    inputs = sheet_inputs(rules, Fight(roster, attacks, round=2))
    with window(xlsx, tmp_path) as calc:
        type_cells(calc, cells_to_type(book, inputs))
        where = name_box("Log", f"{column_of(book, 'LOG_CHART_ROLL')}16")
        assert refused(calc, where, "13", log_roll(rules, chart_roll)), "a 13 was taken for a chart roll"
        calc.save()
        got = read_back(calc, ["LOG_SUMMARY", "LOG_CHART_ROLL", "LOG_HP_LOST"])
    header = book["Log"][f"{column_of(book, 'LOG_CHART_ROLL')}11"].value
    assert header == f'="{log_roll_label(chart_roll)}"' == '="Chart"'  # no digit first: AutoInput
    assert got["LOG_CHART_ROLL"][:5] == [None, 2, 4, 12, None], got["LOG_CHART_ROLL"][:5]
    pending, named, stray, wound = got["LOG_SUMMARY"][:4]
    assert pending == "Fumble (follow-up roll 15) - type the chart roll", pending
    assert named == "Fumble (follow-up roll 15), Weapon dropped", named
    assert stray.endswith(" - the chart roll 4 is not used by this roll: clear it"), stray
    assert wound.startswith("Critical, A limb broken: "), wound
    assert got["LOG_HP_LOST"][:2] == [0, 0] and got["LOG_HP_LOST"][3] > 0
