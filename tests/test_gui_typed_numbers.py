"""Numbers the GM types beside the pickers (``situation.numbers``), typed in the real LibreOffice window
(AutoInput on, as shipped) on an own ruleset (the gated fixture of tests/test_generic_parity.py): the
defender's Dex leaves the AC only while a counted pick says it loses Dex; the attacker's Dex offsets a
two-weapon penalty down to 0 and no further; on the Log, each row reads the roster's numbers of its
attacker and target. The values are read back from the saved file."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from pycalc.d20 import HIT, MISS
from pycalc.encounter import Attack, Combatant, Fight
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs, number_name
from pycalc.resolution_range import OUT_OF_RANGE
from pycalc.tables import load_ruleset
from tests.test_encounter_parity import expected_outputs, mismatches, sheet_inputs
from tests.test_generic_parity import gated_bx  # noqa: F401 (a fixture)
from tests.test_gui_window import (
    read_back,
    type_roster_then_log,
    window,
    window_tools,  # noqa: F401 (a fixture)
)

SHOWN = ["ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_EFFECT", "ATTACK_SUMMARY", "ATTACK_NEED"]


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
            rows = list(sheet.iter_rows(min_row=15, max_row=60))
            picks = {row[3].value: row[5].value for row in rows}  # a pick's label: its note
            notes.append({**picks, **{row[0].value: row[3].value for row in rows}})  # a typed number's
        calc.screenshot("dex-typed-bow-held")
    alone, behind, bow_held = states
    assert alone["ATTACK_NEED"] == 15 and alone["ATTACK_RESULT"] == MISS  # 13 against AC 15
    assert notes[0][dex_note] == "counts with: Loses Dex to AC"
    assert behind["ATTACK_NEED"] == 15 - 1 - 2 and behind["ATTACK_RESULT"] == HIT  # +1, AC 13
    assert behind["ATTACK_DAMAGE"] == 4 + 3  # the fury
    assert notes[1][dex_note] == "-2 to AC (Loses Dex to AC)"
    assert notes[1]["Fury (to the damage)"] == "+3 damage"
    assert notes[2][dex_note] == "counts with: Loses Dex to AC"  # held: melee only
    assert notes[2]["Defender held (melee)"] == "Loses Dex to AC, melee only"
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


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_log_rows_read_the_typed_numbers_of_their_attacker_and_target(gated_bx, tmp_path: Path) -> None:  # noqa: F811
    """The thief's Dex (a roster column) leaves its AC on the row that attacks it from behind, not on
    the row that does not; the brute's fury adds to its hits' damage."""
    rules, xlsx = gated_bx
    book = openpyxl.load_workbook(xlsx)
    thief = {"attack_bonus": 2, "ac": 15, "dice": "1d6", "number_defender_dex": 2}
    brute = {"attack_bonus": 0, "ac": 12, "dice": "1d8", "number_fury": 3}
    roster = [
        Combatant("Thief", init_rolls=(4,), max_hp=12, stats=thief),
        Combatant("Brute", init_rolls=(2,), max_hp=14, stats=brute),
    ]
    attacks = [
        Attack("Brute", "Thief", round=1, roll=13, damage_roll=4),  # 13 against AC 15: a miss
        Attack("Brute", "Thief", roll=13, damage_roll=4, named_picks="from behind"),  # +1, AC 13: a hit
        Attack("Thief", "Brute", roll=10, damage_roll=5, named_picks="from behind"),  # the brute has no Dex
    ]
    fight = Fight(roster, attacks, round=1)
    expected = expected_outputs(rules, fight)
    assert expected["LOG_RESULT"][:3] == [MISS, HIT, HIT]
    assert expected["LOG_HP_LOST"][:3] == [0, 4 + 3, 5]
    with window(xlsx, tmp_path) as calc:
        type_roster_then_log(calc, book, sheet_inputs(rules, fight))
        calc.save()
        got = read_back(calc, list(expected))
        calc.screenshot("typed-numbers-log")
    found = mismatches(expected, got, 1)
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    assert got["LOG_RESULT"][:3] == [MISS, HIT, HIT] and got["LOG_HP_LOST"][:3] == [0, 7, 5]


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_osr_typed_shield_and_dex_leave_with_a_pick(build_ruleset, tmp_path: Path) -> None:
    """osr's situation is data (its block's ``modifiers`` and ``situation.numbers``): in the shipped
    workbook the target's shield and DEX typed beside the picks leave its AC once the attack comes from
    behind, and a charge loses the attacker's DEX and doubles the damage."""
    rules = load_ruleset("osr")
    xlsx = build_ruleset("osr") / "osr.xlsx"
    typed = {"ATTACK_BONUS": "1", "ATTACK_TARGET": "14", "ATTACK_ROLL": "12", "ATTACK_DAMAGE_ROLL": "4"}
    typed |= {"ATTACK_NUMBER_TARGET_SHIELD": "1", "ATTACK_NUMBER_TARGET_DEX": "2"}
    typed |= {"ATTACK_NUMBER_ATTACKER_DEX": "1", "ATTACK_DICE": "1d6+1"}
    behind = "From behind or surprise attack, first round"
    picks = (
        {},
        {"attack_direction": behind},
        {"attack_direction": behind, "charge_attack": "Charging attacker"},
    )
    shown = ["ATTACK_TARGET_NOW", "ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE"]
    states = []
    with window(xlsx, tmp_path) as calc:
        for name, value in typed.items():
            calc.enter(name, value)
        for chosen in picks:
            for table_id, label in chosen.items():
                calc.enter(f"PICK_{table_id.upper()}", label)
            calc.save()
            states.append({k: v[0] for k, v in read_back(calc, shown).items()})
        calc.screenshot("osr-charge-from-behind")
    numbers = {"target_shield": 1, "target_dex": 2, "attacker_dex": 1}
    for chosen, state in zip(picks, states, strict=True):
        inputs = CalculatorInputs(
            1, 14, roll=12, damage_roll=4, dice="1d6+1", choices=chosen, numbers=numbers
        )
        assert state == {k: attack_outputs(rules, inputs)[k] for k in shown}, (chosen, state)
    front, from_behind, charging = states
    assert (front["ATTACK_NEED"], front["ATTACK_RESULT"]) == (13, MISS)
    assert from_behind["ATTACK_TARGET_NOW"] == 14 - 1 - 2  # shield and DEX lost
    assert (from_behind["ATTACK_NEED"], from_behind["ATTACK_DAMAGE"]) == (11 - 1 - 2, 4 + 1)
    assert charging["ATTACK_NEED"] == 11 - 1 - (2 + 2 - 1)  # +2 charge, the attacker's DEX lost
    assert charging["ATTACK_DAMAGE"] == (4 + 1) * 2


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_cnc_typed_dex_leaves_the_ac_and_offsets_two_weapons(build_ruleset, tmp_path: Path) -> None:
    """cnc's situation is data too: in the shipped workbook the defender's Dex typed beside the picks
    leaves its AC on a rear attack, and the attacker's Dex offsets the off hand's -6 to -4."""
    rules = load_ruleset("cnc")
    xlsx = build_ruleset("cnc") / "cnc.xlsx"
    typed = {"ATTACK_BONUS": "3", "ATTACK_TARGET": "15", "ATTACK_ROLL": "10", "ATTACK_DAMAGE_ROLL": "5"}
    typed |= {"ATTACK_NUMBER_DEFENDER_DEX": "2", "ATTACK_NUMBER_ATTACKER_DEX": "2", "ATTACK_DICE": "1d8+1"}
    two_weapons = {"attack_direction": "Rear", "two_weapon_fighting": "Two weapons, off hand"}
    picks = ({}, {"attack_direction": "Rear"}, two_weapons)
    shown = ["ATTACK_TARGET_NOW", "ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE"]
    states = []
    with window(xlsx, tmp_path) as calc:
        for name, value in typed.items():
            calc.enter(name, value)
        for chosen in picks:
            for table_id, label in chosen.items():
                calc.enter(f"PICK_{table_id.upper()}", label)
            calc.save()
            states.append({k: v[0] for k, v in read_back(calc, shown).items()})
        calc.screenshot("cnc-rear-two-weapons")
    for chosen, state in zip(picks, states, strict=True):
        inputs = CalculatorInputs(
            3,
            15,
            roll=10,
            damage_roll=5,
            dice="1d8+1",
            numbers={"defender_dex": 2, "attacker_dex": 2},
            choices=chosen,
        )
        assert state == {k: attack_outputs(rules, inputs)[k] for k in shown}, (chosen, state)
    front, rear, off_hand = states
    assert (front["ATTACK_NEED"], front["ATTACK_RESULT"]) == (15 - 3, MISS)
    assert (rear["ATTACK_TARGET_NOW"], rear["ATTACK_NEED"], rear["ATTACK_DAMAGE"]) == (
        15 - 2,
        13 - 3 - 2,
        5 + 1,
    )
    assert (off_hand["ATTACK_NEED"], off_hand["ATTACK_RESULT"]) == (13 - 3 - 2 + 6 - 2, MISS)


@pytest.mark.timeout(300)
@pytest.mark.usefixtures("window_tools")
def test_cnc_range_band_and_prone_defender_typed_in_the_window(build_ruleset, tmp_path: Path) -> None:
    """A thrown dagger in the shipped workbook, as a GM types it: the increment and the distance give
    the band (medium -2, long -6), beyond long range the attack is refused before any roll, and a
    prone defender's +5 counts with the ranged attack's -4 against it (net +1, ruling ranged_vs_prone)."""
    rules = load_ruleset("cnc")
    xlsx = build_ruleset("cnc") / "cnc.xlsx"
    thrown = str(rules.table("attack_types").entry("ranged_thrown").label)
    steps: tuple[dict[str, str], ...] = (
        {"PICK_ATTACK_TYPES": thrown, "ATTACK_RANGE_INCREMENT": "10", "ATTACK_DISTANCE": "15"},
        {"ATTACK_DISTANCE": "25"},
        {"ATTACK_DISTANCE": "35"},
        {"ATTACK_DISTANCE": "20", "PICK_DEFENDER_PRONE": "Defender prone or blind"},
        {"PICK_SITUATIONAL_MODIFIERS_RANGED_VS_PRONE_OR_IN_MELEE": "TRUE"},
    )
    shown = ["ATTACK_RANGE_BAND", "ATTACK_NEED", "ATTACK_RESULT", "ATTACK_SUMMARY"]
    states = []
    with window(xlsx, tmp_path) as calc:
        for name, value in {
            "ATTACK_BONUS": "2",
            "ATTACK_TARGET": "14",
            "ATTACK_ROLL": "11",
            "ATTACK_DICE": "1d4",
        }.items():
            calc.enter(name, value)
        for step in steps:
            for name, value in step.items():
                calc.enter(name, value)
            calc.save()
            states.append({k: v[0] for k, v in read_back(calc, shown).items()})
        calc.screenshot("cnc-range-and-prone")
    close, long_, beyond, prone, against_prone = states
    assert (close["ATTACK_RANGE_BAND"], close["ATTACK_NEED"], close["ATTACK_RESULT"]) == (
        "medium (-2 to hit)",
        14,
        MISS,
    )
    assert (long_["ATTACK_RANGE_BAND"], long_["ATTACK_NEED"]) == ("long (-6 to hit)", 18)
    assert beyond["ATTACK_RANGE_BAND"] == "out of range"
    assert beyond["ATTACK_RESULT"] == beyond["ATTACK_SUMMARY"] == OUT_OF_RANGE
    assert (prone["ATTACK_NEED"], prone["ATTACK_RESULT"]) == (14 - 5, HIT)
    assert against_prone["ATTACK_NEED"] == 14 - 5 + 4
    ranged = {"attack_types": thrown, "defender_prone": "Defender prone or blind"}
    expected = attack_outputs(
        rules,
        CalculatorInputs(
            2, 14, roll=11, dice="1d4", range_increment=10, distance=20, choices=ranged,
            toggles=frozenset({("situational_modifiers", "ranged_vs_prone_or_in_melee")}),
        ),
    )  # fmt: skip
    assert against_prone == {k: expected[k] for k in shown}


@pytest.mark.timeout(900)  # the bfrpg build takes about 4 minutes of CPU when no other test made it first
@pytest.mark.usefixtures("window_tools")
def test_bfrpg_dex_offsets_two_weapons_and_only_melee_hits_the_helpless(
    build_ruleset, tmp_path: Path
) -> None:
    """bfrpg's situation is data too: in the shipped workbook the STR bonus counts for a melee attack,
    the DEX bonus typed once offsets the off hand's -5 to -3, a helpless target is hit automatically by
    a melee attack (double the maximum) and not by a missile, whose DEX counts instead, and a total
    defense rules any attack out before the roll counts, its chance to hit and expected damage 0."""
    rules = load_ruleset("bfrpg")
    xlsx = build_ruleset("bfrpg") / "bfrpg.xlsx"
    numbers = {"attacker_str": 1, "attacker_dex": 2}
    typed = {"ATTACK_BONUS": "3", "ATTACK_TARGET": "15"}
    typed |= {number_name(n): str(v) for n, v in numbers.items()}
    typed |= {"ATTACK_DICE": "1d8", "ATTACK_ROLL": "9", "ATTACK_DAMAGE_ROLL": "5"}
    helpless = ("target_conditions", "helpless")
    steps = (
        {},
        {"two_weapon_fighting": "Two weapons: off-hand attack"},
        {helpless: "TRUE"},
        {"attack_kinds": "Missile weapon", "two_weapon_fighting": "One weapon"},
        {"defense_stance": "Total (full) defense"},
    )
    shown = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_SUMMARY"]
    odds = ["ATTACK_HIT_CHANCE", "ATTACK_EXPECTED_DAMAGE"]
    states, chances = [], []
    with window(xlsx, tmp_path) as calc:
        for name, value in typed.items():
            calc.enter(name, value)
        for step in steps:
            for picked, value in step.items():
                name = f"PICK_{picked[0]}_{picked[1]}" if isinstance(picked, tuple) else f"PICK_{picked}"
                calc.enter(name.upper(), value)
            calc.save()
            read = {k: v[0] for k, v in read_back(calc, shown + odds).items()}
            states.append({k: read[k] for k in shown})
            chances.append([read[k] for k in odds])
        calc.screenshot("bfrpg-two-weapons-helpless")
    chosen: dict[str, str] = {}
    ticked: frozenset[tuple[str, str]] = frozenset()
    for step, state, chance in zip(steps, states, chances, strict=True):
        chosen |= {k: v for k, v in step.items() if isinstance(k, str)}
        ticked |= {k for k in step if isinstance(k, tuple)}
        inputs = CalculatorInputs(
            3, 15, roll=9, dice="1d8", damage_roll=5, numbers=numbers, choices=dict(chosen), toggles=ticked
        )
        expected = attack_outputs(rules, inputs)
        assert state == {k: None if expected[k] == "" else expected[k] for k in shown}, (step, state)
        assert chance == pytest.approx([float(expected[k]) for k in odds]), step
    assert chances[-2][0] > 0 and chances[-1] == [0, 0]  # total defense: no chance to hit, no damage
    plain, two_weapons, helpless_melee, missile, defending = states
    assert (plain["ATTACK_NEED"], plain["ATTACK_RESULT"]) == (15 - 3 - 1, MISS)  # STR to a melee attack
    assert two_weapons["ATTACK_NEED"] == 15 - 3 - 1 + 5 - 2  # the off hand's -5, DEX 2 off it
    assert (helpless_melee["ATTACK_RESULT"], helpless_melee["ATTACK_DAMAGE"]) == (HIT, 2 * 8)
    assert (missile["ATTACK_NEED"], missile["ATTACK_RESULT"]) == (15 - 3 - 2, MISS)  # DEX to a missile
    assert defending["ATTACK_RESULT"] == "#NO ATTACK? Total (full) defense"
