"""A die on the attack roll typed in the real LibreOffice window (AutoInput on, as shipped), as a GM
plays Bless on an own ruleset (the bx fixture: Bless adds 1d4): ticked, the result asks for the die's
total and the chance to hit is exact over the die; the total typed gives the hit; a total the die
cannot show is named in the cell; each row of the magic picker says what it adds (+1d4 to hit); with Bless unticked, the number left in the die's cell changes
nothing. The values are read back from the saved file and checked against hand-worked chances."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from pycalc.d20 import HIT, MISS
from tests.test_gui_window import read_back, window, window_tools  # noqa: F401 (a fixture)

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
