"""Pickers that count for some attack kinds only, typed in the real LibreOffice window (AutoInput on,
as shipped) on an own ruleset (the gated fixture of tests/test_generic_parity.py): a Disarm picked by
its label hits for no damage and says what it does; the same roll with a Bow takes the ranged-only
missile range and cover and the aimed shot, and not the melee-only higher ground; the notes beside
the picks say which attacks they count for. The values are read back from the saved file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pycalc.d20 import HIT, MISS
from tests.test_generic_parity import gated_bx  # noqa: F401 (a fixture)
from tests.test_gui_window import read_back, window, window_tools  # noqa: F401 (a fixture)

SHOWN = ["ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_EFFECT", "ATTACK_SUMMARY", "ATTACK_NEED"]


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_the_attack_kind_typed_in_the_window_gates_the_picks(gated_bx, tmp_path: Path) -> None:  # noqa: F811
    _, xlsx = gated_bx
    states = []
    with window(xlsx, tmp_path) as calc:
        for name, typed in (("ATTACK_BONUS", "5"), ("ATTACK_TARGET", "10"), ("ATTACK_ROLL", "6")):
            calc.enter(name, typed)
        calc.enter("ATTACK_DAMAGE_ROLL", "4")
        calc.enter("PICK_FOOTING_HIGHER_GROUND", "TRUE")
        calc.enter("PICK_FOOTING_AIMED", "TRUE")
        calc.enter("PICK_MISSILE_RANGE", "Long range")
        calc.save()
        states.append(read_back(calc, SHOWN))  # a sword: higher ground counts, range and aim do not
        calc.enter("PICK_ATTACK_KIND", "Bow")
        calc.save()
        states.append(read_back(calc, SHOWN))  # a bow: long range -1 and the aimed shot +2, no higher ground
        calc.enter("PICK_ATTACK_KIND", "Disarm (no damage)")
        calc.save()
        states.append(read_back(calc, SHOWN))
        sheet = calc.values("Attack calculator")
        notes = {row[3].value: row[5].value for row in sheet.iter_rows(min_row=15, max_row=45)}
        calc.screenshot("disarm-picked")
    sword, bow, disarm = ({k: v[0] for k, v in s.items()} for s in states)
    assert sword["ATTACK_NEED"] == 10 - 5 - 1 and sword["ATTACK_RESULT"] == HIT  # 6 + 5 + 1 = 12
    assert sword["ATTACK_DAMAGE"] == 4 and not sword["ATTACK_EFFECT"]  # a sword hit says nothing more
    assert bow["ATTACK_NEED"] == 10 - 5 + 1 - 2 and bow["ATTACK_RESULT"] == HIT  # 6 + 5 - 1 + 2 = 12
    assert disarm["ATTACK_RESULT"] == HIT and disarm["ATTACK_DAMAGE"] == 0
    assert disarm["ATTACK_SUMMARY"] == "Hit, the defender drops its weapon"
    assert (
        notes["Higher ground"] == "+1 to hit, melee only" and notes["Aimed shot"] == "+2 to hit, ranged only"
    )
    assert notes["Spear set against a charge"].endswith("Spear (set against a charge) only")
    assert notes["Attack kind"] == "melee attack"  # the Disarm's note
    assert MISS not in (sword["ATTACK_RESULT"], bow["ATTACK_RESULT"])
