"""An own ruleset's target state after the hit, typed in a real LibreOffice window as a GM does: on the
Attack calculator a hit that leaves the target at -2 HP says it is dying, the Kind of damage picked as
Subdual says knocked out; on the Log a row whose Kind is typed as its first letter says the same as
the calculator. The words are the generic calculator's (``pycalc.resolution_calculator``)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.sheets.target_state import KIND, STATE
from pycalc.tables import RuleSet
from tests.test_encounter_parity import sheet_inputs
from tests.test_generic_target_state import subdual_bx  # noqa: F401 (a fixture)
from tests.test_gui_window import read_back, type_roster_then_log, window, window_tools  # noqa: F401 (a fixture)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_the_state_after_a_subdual_hit_typed_in_the_window(
    subdual_bx: tuple[RuleSet, Path],  # noqa: F811
    tmp_path: Path,
) -> None:
    rules, xlsx = subdual_bx
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 5, "ac": 5, "dice": "1d6"}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=4, stats=stats),
        Combatant("Kara", init_rolls=(2,), max_hp=4, stats=stats),
    ]
    attacks = [
        Attack("Lem", "Kara", round=1, roll=15, damage_roll=6),  # -2 HP: dying
        Attack("Kara", "Lem", roll=15, damage_roll=6, kind="s"),  # subdual: knocked out
    ]
    inputs = sheet_inputs(rules, Fight(roster, attacks, round=1))
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, inputs)
        for name, text in (
            ("ATTACK_BONUS", "5"),
            ("ATTACK_TARGET", "5"),
            ("ATTACK_ROLL", "15"),
            ("ATTACK_DAMAGE_ROLL", "6"),
            ("ATTACK_TARGET_HP", "4"),
        ):
            calc.enter(name, text)
        calc.save()
        normal = read_back(calc, ["ATTACK_SUMMARY", STATE])
        calc.enter(KIND, "Subdual")
        calc.save()
        subdual = read_back(calc, ["ATTACK_SUMMARY", STATE, "LOG_SUMMARY"])
    assert normal == {"ATTACK_SUMMARY": ["Hit: 6 damage, the target is at -2 HP: dying"], STATE: ["dying"]}
    assert subdual["ATTACK_SUMMARY"] == ["Hit: 6 damage, the target is at -2 HP: knocked out"]
    assert subdual[STATE] == ["knocked out"]
    assert subdual["LOG_SUMMARY"][:2] == [
        "Hit: 6 damage, the target is at -2 HP: dying",
        "Hit: 6 damage, the target is at -2 HP: knocked out",
    ]
