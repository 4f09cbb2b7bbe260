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
    assert notes["Higher ground"] == "+1 to hit melee only" and notes["Aimed shot"] == "+2 to hit ranged only"
    assert notes["Spear set against a charge"].endswith("Spear (set against a charge) only")
    assert notes["Attack kind"] == "melee attack"  # the Disarm's note
    assert MISS not in (sword["ATTACK_RESULT"], bow["ATTACK_RESULT"])


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_typed_dex_leaves_the_ac_while_a_pick_says_so(gated_bx, tmp_path: Path) -> None:  # noqa: F811
    """The defender's Dex typed beside the pickers counts only while a counted pick says the defender
    loses Dex (held counts for melee only); the fury typed there adds to every hit's damage."""
    _, xlsx = gated_bx
    dex_note = "Defender's Dex modifier (inside the AC)"
    states, notes = [], []
    with window(xlsx, tmp_path) as calc:
        for name, typed in (("ATTACK_BONUS", "0"), ("ATTACK_TARGET", "15"), ("ATTACK_ROLL", "13")):
            calc.enter(name, typed)
        calc.enter("ATTACK_DAMAGE_ROLL", "4")
        calc.enter("ATTACK_NUMBER_DEFENDER_DEX", "2")
        calc.enter("ATTACK_NUMBER_FURY", "3")
        for ticks in ((), ("PICK_GUARD_FROM_BEHIND",), ("PICK_ATTACK_KIND", "PICK_GUARD_HELD")):
            for name in ticks:
                calc.enter(name, "Bow" if name == "PICK_ATTACK_KIND" else "TRUE")
            if "PICK_GUARD_HELD" in ticks:
                calc.enter("PICK_GUARD_FROM_BEHIND", "FALSE")
            calc.save()
            states.append({k: v[0] for k, v in read_back(calc, SHOWN).items()})
            sheet = calc.values("Attack calculator")
            notes.append({row[3].value: row[5].value for row in sheet.iter_rows(min_row=15, max_row=60)})
        calc.screenshot("dex-typed-bow-held")
    alone, behind, bow_held = states
    assert alone["ATTACK_NEED"] == 15 and alone["ATTACK_RESULT"] == MISS  # 13 against AC 15
    assert notes[0][dex_note] == "counts with: Loses Dex to AC"
    assert behind["ATTACK_NEED"] == 15 - 1 - 2 and behind["ATTACK_RESULT"] == HIT  # +1, AC 13
    assert behind["ATTACK_DAMAGE"] == 4 + 3  # the fury
    assert notes[1][dex_note] == "-2 to AC (Loses Dex to AC)"
    assert notes[1]["Fury (to the damage)"] == "+3 damage"
    assert notes[2][dex_note] == "counts with: Loses Dex to AC"  # held: melee only
    assert notes[2]["Defender held (melee)"] == "Loses Dex to AC melee only"
    assert bow_held["ATTACK_NEED"] > behind["ATTACK_NEED"]  # the Bow's AC keeps the Dex


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_a_typed_dex_offsets_the_two_weapon_penalty_down_to_zero(gated_bx, tmp_path: Path) -> None:  # noqa: F811
    """The attacker's Dex typed beside the pickers offsets the picked two-weapon penalty no further than
    0 (the ruling as built: offsets); a Dex penalty adds to it."""
    _, xlsx = gated_bx
    needs = []
    with window(xlsx, tmp_path) as calc:
        for name, typed in (("ATTACK_BONUS", "0"), ("ATTACK_TARGET", "15"), ("ATTACK_ROLL", "10")):
            calc.enter(name, typed)
        calc.enter("ATTACK_NUMBER_ATTACKER_DEX", "6")
        for name, typed in (
            ("PICK_TWO_WEAPONS", "Two weapons (-4)"),
            ("ATTACK_NUMBER_ATTACKER_DEX", "3"),
            ("ATTACK_NUMBER_ATTACKER_DEX", "-1"),
        ):
            calc.save()
            needs.append(read_back(calc, ["ATTACK_NEED"])["ATTACK_NEED"][0])
            calc.enter(name, typed)
        calc.save()
        needs.append(read_back(calc, ["ATTACK_NEED"])["ATTACK_NEED"][0])
        calc.screenshot("dex-offsets-two-weapons")
    one_weapon, offset, dex3, dex_penalty = needs
    assert one_weapon == 15  # one weapon: the Dex does not count
    assert offset == 15  # -4 offset by 6, down to 0 and no further
    assert dex3 == 15 - (-4 + 3)
    assert dex_penalty == 15 - (-4 - 1)  # a Dex penalty adds to the two-weapon penalty
