"""Subdual damage and healing typed on the Log sheet in a real LibreOffice window (AutoInput on, as
shipped), as a GM types them: a thug brought to 0 by subduing damage reads Unconscious, not Dying; a
trap's damage on Aria, then a heal typed with its Kind's first letter gives the hit points back; the
values read back from the saved file equal the model (``pycalc.encounter``, ``pycalc.damage_kinds``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.damage_kinds import HEALED
from pycalc.encounter import Attack, Combatant, Fight
from pycalc.encounter_rows import roster_state
from pycalc.tables import load_ruleset
from tests.test_encounter_parity import expected_outputs, mismatches, sheet_inputs
from tests.test_gui_window import (
    cells_to_type,
    read_back,
    type_cells,
    type_roster_then_log,
    window,
    window_tools,  # noqa: F401 (a fixture)
)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_subdual_knock_out_and_a_heal_typed_in_the_window(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    rules = load_ruleset("bfrpg")
    xlsx = build_ruleset("bfrpg") / "bfrpg.xlsx"
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 2, "ac": 12, "dice": "1d6"}
    roster = [
        Combatant("Aria", init_rolls=(4,), max_hp=10, stats=stats),
        Combatant("Thug", init_rolls=(2,), max_hp=6, stats=stats),
    ]
    attacks = [
        Attack("a", "t", round=1, damage=6, kind="s"),  # subduing, by the kind's first letter
        Attack("", "a", damage=7),  # a trap
        Attack("", "a", round=2, damage=5, kind="h"),  # a healing potion
    ]
    fight = Fight(roster, attacks, round=2)
    states = roster_state(rules, fight)
    assert states[1].state.startswith("Unconscious") and states[1].hp_now == 0
    assert states[0].hp_now == 8
    inputs = sheet_inputs(rules, fight)
    roster = {n: v for n, v in inputs.items() if not n.startswith("LOG_")}
    log = {n: v for n, v in inputs.items() if n.startswith("LOG_")}
    with window(xlsx, tmp_path) as calc:
        type_cells(calc, cells_to_type(book, roster))
        # the log's Kind and Dmg, no roll sit right of the outcome: each reached through the Name Box
        for (sheet, row, column), text in sorted(cells_to_type(book, log).items()):
            calc.enter(f"{sheet}.{openpyxl.utils.get_column_letter(column)}{row}", text)
        calc.save()
        expected = expected_outputs(rules, fight)
        got = read_back(calc, [*expected, "ROSTER_SUBDUAL_TAKEN", "LOG_KIND"])
        if mismatches(expected, got, 1):
            calc.screenshot("kinds")
    found = mismatches(expected, got, 1)
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    assert got["LOG_KIND"][:3] == ["s", None, "h"]  # nothing completed by AutoInput
    assert got["ROSTER_STATE"][1].startswith("Unconscious")
    assert got["ROSTER_SUBDUAL_TAKEN"][1] == 6
    assert got["LOG_RESULT"][2] == HEALED and got["LOG_HP_LOST"][2] == -5
    assert got["ROSTER_HP_NOW"][:2] == [8, 0]


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_the_one_line_names_the_state_a_subdual_hit_leaves(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    """A rolled subduing hit typed on the log says the thug is knocked out in its one line; the Attack
    calculator, the thug picked from the roster, then says a further subduing hit leaves it dying
    (the seed: "Any further subduing damage is then considered killing damage")."""
    rules = load_ruleset("bfrpg")
    xlsx = build_ruleset("bfrpg") / "bfrpg.xlsx"
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 2, "ac": 12, "dice": "1d6"}
    roster = [
        Combatant("Aria", init_rolls=(4,), max_hp=10, stats=stats),
        Combatant("Thug", init_rolls=(2,), max_hp=4, stats=stats),
    ]
    fight = Fight(roster, [Attack("a", "t", round=1, roll=15, damage_roll=5, kind="s")], round=1)
    thug = roster_state(rules, fight)[1]
    assert thug.state.startswith("Unconscious") and thug.hp_now == -1
    inputs = sheet_inputs(rules, fight)
    calculator = {  # the picks first: the roster fills the bonus, the dice, the HP and the subdual taken
        "FROM_ROSTER_ATTACKER": "Aria",
        "FROM_ROSTER_TARGET": "Thug",
        "ATTACK_SUBDUAL_KIND": "Subduing",
        "ATTACK_ROLL": "15",
        "ATTACK_DAMAGE_ROLL": "2",
    }
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, inputs)
        for name, text in calculator.items():
            (sheet, row, column), _ = next(iter(cells_to_type(book, {name: [text]}).items()))
            calc.enter(f"'{sheet}'.{openpyxl.utils.get_column_letter(column)}{row}", text)
        calc.save()
        calc.screenshot("calculator")
        got = read_back(calc, ["LOG_SUMMARY", "ATTACK_SUMMARY", "ATTACK_TARGET_STATE", "ROSTER_STATE"])
    assert str(got["LOG_SUMMARY"][0]).endswith(f"the target is at -1 HP: {thug.state}"), got["LOG_SUMMARY"][0]
    assert got["ROSTER_STATE"][1] == thug.state
    assert got["ATTACK_SUMMARY"][0] == "Hit: 2 damage, the target is at -3 HP: Dying", got["ATTACK_SUMMARY"]
