"""A die on the attack roll typed in the real LibreOffice window (AutoInput on, as shipped), as a GM
plays Bless on an own ruleset (the bx fixture: Bless adds 1d4): ticked, the result asks for the die's
total and the chance to hit is exact over the die; the total typed gives the hit; a total the die
cannot show is named in the cell; each row of the magic picker says what it adds (+1d4 to hit); with Bless unticked, the number left in the die's cell changes
nothing. The values are read back from the saved file and checked against hand-worked chances."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc.d20 import HIT, MISS
from pycalc.encounter import Attack, Combatant, Fight
from pycalc.tables import load_folder
from tests.test_encounter_parity import expected_outputs, mismatches, sheet_inputs
from tests.test_gui_window import (
    read_back,
    type_roster_then_log,
    window,
    window_tools,  # noqa: F401 (a fixture)
)
from tests.test_own_encounter import FIXTURE

SHOWN = ["ATTACK_RESULT", "ATTACK_HIT_CHANCE", "ATTACK_ADDED_ROLL", "ATTACK_SUMMARY"]


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_bless_typed_in_the_window_asks_for_its_die_and_adds_it(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    xlsx = build_ruleset("bx") / "bx.xlsx"
    states = []
    with window(xlsx, tmp_path) as calc:
        for name, typed in (("ATTACK_BONUS", "5"), ("ATTACK_TARGET", "15"), ("ATTACK_ROLL", "9")):
            calc.enter(name, typed)
        calc.save()
        states.append(read_back(calc, SHOWN))
        calc.enter("PICK_MAGIC_BLESS", "TRUE")
        calc.save()
        states.append(read_back(calc, SHOWN))
        sheet = calc.values("Attack calculator")
        notes = {row[3].value: row[5].value for row in sheet.iter_rows(min_row=20, max_row=40)}
        calc.screenshot("bless-ticked")
        for total in ("1", "5"):
            calc.enter("ATTACK_ADDED_ROLL", total)
            calc.save()
            states.append(read_back(calc, SHOWN))
        calc.enter("PICK_MAGIC_BLESS", "FALSE")
        calc.save()
        states.append(read_back(calc, SHOWN))
    assert (notes["Bless"], notes["Bane"], notes["Prayer"]) == ("+1d4 to hit", "-1d4 to hit", "+1 to hit")
    plain, asked, blessed, too_high, unticked = ({k: v[0] for k, v in s.items()} for s in states)
    # +5 against AC 15 needs a natural 10; Bless's d4 lowers that by the die
    assert plain["ATTACK_RESULT"] == MISS and plain["ATTACK_HIT_CHANCE"] == pytest.approx(11 / 20)
    assert str(asked["ATTACK_RESULT"]).startswith("#DICE ON THE ROLL? 1 to 4")
    assert asked["ATTACK_HIT_CHANCE"] == pytest.approx(float(Fraction(12 + 13 + 14 + 15, 80)))
    assert "1 to 4" in str(asked["ATTACK_SUMMARY"])
    assert blessed["ATTACK_ADDED_ROLL"] == 1 and blessed["ATTACK_RESULT"] == HIT  # 9 + 5 + 1 = 15
    assert str(too_high["ATTACK_RESULT"]).startswith("#DICE ON THE ROLL? 1 to 4")
    assert unticked["ATTACK_RESULT"] == MISS and unticked["ATTACK_HIT_CHANCE"] == pytest.approx(11 / 20)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_blessed_attack_typed_on_the_log_takes_the_dice_total(
    build_ruleset: Callable[[str], Path], tmp_path: Path
) -> None:
    """The log's +Dice column takes what Bless's die shows: typed, the row hits as the engine says;
    left empty, the row asks for it and takes no hit points."""
    rules = load_folder(FIXTURE)
    xlsx = build_ruleset("bx") / "bx.xlsx"
    book = openpyxl.load_workbook(xlsx)
    stats = {"attack_bonus": 5, "ac": 15, "dice": "1d6"}
    roster = [
        Combatant("Aria", init_rolls=(4,), max_hp=10, stats=stats),
        Combatant("Orc", init_rolls=(2,), max_hp=9, stats=stats),
    ]
    attacks = [
        Attack("Aria", "Orc", round=1, roll=9, damage_roll=4, named_picks="bless", added_roll=1),
        Attack("Orc", "Aria", roll=9, damage_roll=3, named_picks="bless"),  # the die not typed yet
    ]
    fight = Fight(roster, attacks, round=1)
    expected = expected_outputs(rules, fight)
    assert expected["LOG_RESULT"][:2] == [HIT, "#DICE ON THE ROLL? 1 to 4"]
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, sheet_inputs(rules, fight))
        calc.save()
        got = read_back(calc, [*expected, "LOG_ADDED_ROLL"])
        calc.screenshot("blessed-log")
    found = mismatches(expected, got, 1)
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    assert got["LOG_ADDED_ROLL"][:2] == [1, None]
    assert got["LOG_HP_LOST"][:2] == [4, 0] and got["ROSTER_HP_NOW"][:2] == [10, 5]
