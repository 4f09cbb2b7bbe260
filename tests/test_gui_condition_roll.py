"""combat17's chart 20 condition typed on the Log sheet in a real LibreOffice window, as a GM types
it: the 1d4 is the row's chart roll (the critical chart's 20 leads to the condition chart,
``critical.then``); a chart 20 without it says to roll it, with it the row names the condition, and
a 1d4 left on a row that takes none is called out; a 5 is refused at entry. The row's words are the
generic calculator's (``pycalc.resolution_calculator``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.encounter_rulesets import adapter
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.sheets.encounter_looks import log_roll_label
from pycalc.sheets.roll_entry import log_roll
from pycalc.tables import load_ruleset
from tests.test_encounter_parity import sheet_inputs
from tests.test_gui_roll_entry import first_cell, name_box, refused
from tests.test_gui_window import cells_to_type, read_back, type_cells, window, window_tools  # noqa: F401 (a fixture)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_chart_20_condition_typed_in_the_window(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    rules = load_ruleset("combat17")
    xlsx = build_ruleset("combat17") / "combat17.xlsx"
    book = openpyxl.load_workbook(xlsx)
    condition_roll = next(r for r in adapter(rules).rolls if r.field == "chart_roll")
    stats = {"attack_bonus": 3, "ac": 12, "dice": "1d6"}
    roster = [
        Combatant("Lem", init_rolls=(4,), max_hp=30, stats=stats),
        Combatant("Kara", init_rolls=(2,), max_hp=30, stats=stats),
    ]
    attacks = [
        Attack("Lem", "Kara", round=1, roll=20, follow_roll=20, damage_roll=4),  # the 1d4 not yet rolled
        Attack("Kara", "Lem", roll=20, follow_roll=20, damage_roll=4, chart_roll=2),
        Attack("Lem", "Kara", round=2, roll=15, damage_roll=3, chart_roll=3),  # left from row 2
    ]
    fight = Fight(roster, attacks, round=2)
    inputs = sheet_inputs(rules, fight)
    with window(xlsx, tmp_path) as calc:
        type_cells(calc, cells_to_type(book, inputs))
        where = name_box("Log", f"{column_of(book, 'LOG_CHART_ROLL')}15")
        assert refused(calc, where, "5", log_roll(rules, condition_roll)), "a 5 was taken for a 1d4"
        calc.save()
        got = read_back(calc, ["LOG_SUMMARY", "LOG_CHART_ROLL", "LOG_HP_LOST"])
    header = book["Log"][f"{column_of(book, 'LOG_CHART_ROLL')}11"].value
    assert (
        header == f'="{log_roll_label(condition_roll)}"' == '="Chart"'
    )  # no digit first: AutoInput would complete a typed 1 to it (were it text, not a formula)
    assert got["LOG_CHART_ROLL"][:4] == [None, 2, 3, None], got["LOG_CHART_ROLL"][:4]
    pending, named = got["LOG_SUMMARY"][:2]
    assert pending.endswith(" - type the chart roll"), pending
    assert "plus roll on the chart below; Enemy is Shaken: " in named, named
    assert got["LOG_SUMMARY"][2].endswith(" - the chart roll 3 is not used by this roll: clear it"), got[
        "LOG_SUMMARY"
    ]
    assert all(isinstance(lost, int) and lost > 0 for lost in got["LOG_HP_LOST"][:3])


def column_of(book: openpyxl.Workbook, name: str) -> str:
    return first_cell(book, name)[1].rstrip("0123456789")


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_chart_20_condition_typed_into_the_attack_calculator(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    """The Attack calculator in the window, typed as the dice fall: a natural 20, the follow-up 20 (the
    line asks for the 1d4), the 1d4 and the damage: the line, the chart's words and the damage are the
    engine's; a follow-up 12 then leaves the 1d4 called out."""
    rules = load_ruleset("combat17")
    xlsx = build_ruleset("combat17") / "combat17.xlsx"
    typed = [("ATTACK_BONUS", "3"), ("ATTACK_TARGET", "15"), ("ATTACK_DICE", "1d6+2")]
    typed += [("ATTACK_ROLL", "20"), ("ATTACK_FOLLOW_ROLL", "20"), ("ATTACK_DAMAGE_ROLL", "4")]
    outputs = ["ATTACK_SUMMARY", "ATTACK_CHART_EFFECT", "ATTACK_DAMAGE"]
    with window(xlsx, tmp_path) as calc:
        for name, text in typed:
            calc.enter(name, text)
        calc.save()
        asked = read_back(calc, outputs)
        calc.enter("ATTACK_CHART_ROLL", "3")
        calc.save()
        calc.screenshot("combat17-condition-in-the-calculator")
        rolled = read_back(calc, outputs)
        calc.enter("ATTACK_FOLLOW_ROLL", "12")
        calc.save()
        left = read_back(calc, outputs)
    inputs = CalculatorInputs(bonus=3, target=15, dice="1d6+2", roll=20, follow_roll=20, damage_roll=4)
    for got, case in (
        (asked, inputs),
        (rolled, replace(inputs, chart_roll=3)),
        (left, replace(inputs, chart_roll=3, follow_roll=12)),
    ):
        expected = attack_outputs(rules, case)
        assert {n: got[n][0] for n in outputs} == {n: expected[n] for n in outputs}, got
    assert asked["ATTACK_SUMMARY"][0].endswith(" - type the chart roll")
    assert "; Enemy is Prone: -4 to hit" in rolled["ATTACK_SUMMARY"][0]
    assert left["ATTACK_SUMMARY"][0].endswith(" - the chart roll 3 is not used by this roll: clear it")


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_critical_miss_dex_check_typed_into_the_attack_calculator(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    """The DEX check a critical miss chart row calls for (fumble.check), typed as the dice fall: a
    natural 1, the follow-up 4 (the Stumble: the check asks for its d20), the d20 19 (failed at DC 20),
    then a DEX bonus of 1 (passed); each as the engine says."""
    rules = load_ruleset("combat17")
    xlsx = build_ruleset("combat17") / "combat17.xlsx"
    outputs = ["ATTACK_RESULT", "ATTACK_CHART_EFFECT", "ATTACK_CHECK"]
    with window(xlsx, tmp_path) as calc:
        for name, text in [("ATTACK_ROLL", "1"), ("ATTACK_FOLLOW_ROLL", "4")]:
            calc.enter(name, text)
        calc.save()
        asked = read_back(calc, outputs)
        calc.enter("ATTACK_CHECK_ROLL", "19")
        calc.save()
        failed = read_back(calc, outputs)
        calc.enter("ATTACK_CHECK_BONUS", "1")
        calc.save()
        calc.screenshot("combat17-dex-check-in-the-calculator")
        passed = read_back(calc, outputs)
    inputs = CalculatorInputs(roll=1, follow_roll=4)
    for got, case in (
        (asked, inputs),
        (failed, replace(inputs, check_roll=19)),
        (passed, replace(inputs, check_roll=19, check_bonus=1)),
    ):
        expected = attack_outputs(rules, case)
        assert {n: got[n][0] for n in outputs} == {n: expected[n] for n in outputs}, got
    assert asked["ATTACK_CHECK"][0] == "DEX check DC 20: roll it"
    assert failed["ATTACK_CHECK"][0].startswith("DEX check failed (19 vs DC 20)")
    assert passed["ATTACK_CHECK"][0] == "DEX check passed (20 vs DC 20): just a miss"
