"""Picks that rule the attack out (``no_attack``, or ``no_attack_ranged`` for a ranged attack), a
pick that makes a Critical deal what a Hit deals (``critical_as_hit``) and picks whose damage dice
replace those typed (``dice``: a weapon), in a ruleset of YAML alone: by hand against the engine,
then the calculator and the Encounter log in LibreOffice against it."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import build
from pycalc import resolution_odds as odds
from pycalc.odds import CALCULATOR_ODDS
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs, weighed
from pycalc.tables import RuleSet
from tests.test_generic_parity import (
    BASE_RULES,
    CRITICAL_BLOCK,
    FIXTURE,
    MAGIC,
    edited_bx,
    fights_match,
    mismatches,
    scenarios,
)

BLOCK = (
    CRITICAL_BLOCK
    + """  modifiers: [attack_kind, weapon, missile_range, cover, situation, two_weapons, stance, hindrances,
    critical_choice, into_melee]
  effect: {near_miss_by: 3}
  situation:
    kind_table: attack_kind
    only: {missile_range: ranged, cover: ranged, into_melee: ranged}
    numbers:
      attacker_str: {label: STR bonus, adds_to: hit, when: uses_str, best_of: ability, of: attacker}
      attacker_dex: {label: DEX bonus, adds_to: hit, when: uses_dex, best_of: ability, of: attacker}
      dex_two_weapons: {same_as: attacker_dex, adds_to: hit, when: dex_reduces, at_most: 0}
"""
)
TABLES = """
  attack_kind:
    title: Attack kind
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      ranged: {label: Ranged, type: bool}
      uses_str: {label: Adds STR, type: bool}
      uses_dex: {label: Adds DEX, type: bool}
    rows:
      - {id: sword, label: Sword, ranged: false, uses_str: true, uses_dex: false}
      - {id: bow, label: Bow, ranged: true, uses_str: false, uses_dex: true}
      - {id: rapier, label: Rapier (the better of STR and DEX), ranged: false, uses_str: true, uses_dex: true}

  weapon:
    title: Weapon
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      dice: {label: Damage, type: dice, optional: true}
    rows:
      - {id: as_typed, label: The dice typed, dice: null}
      - {id: longsword, label: Longsword, dice: 1d8}
      - {id: greataxe, label: Greataxe, dice: 1d12+1}

  two_weapons:
    title: Weapons in hand
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      dex_reduces: {label: DEX reduces it, type: bool}
    rows:
      - {id: one_weapon, label: One weapon, hit: 0, dex_reduces: false}
      - {id: two_weapons, label: Two weapons (-4), hit: -4, dex_reduces: true}

  stance:
    title: Attacker's stance
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      no_attack: {label: No attack, type: bool}
    rows:
      - {id: normal, label: Normal fighting, hit: 0, no_attack: false}
      - {id: guarded, label: Guarded (-4), hit: -4, no_attack: false}
      - {id: total_defense, label: Total defense, hit: 0, no_attack: true}

  hindrances:
    title: The attacker's hindrances
    kind: entries
    picker: toggle
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      no_attack_ranged: {label: No ranged attack, type: bool}
      dice: {label: Damage, type: dice, optional: true}
    rows:
      - {id: underwater, label: Underwater, hit: -2, no_attack_ranged: true, dice: null}
      - {id: tired, label: Tired, hit: -1, no_attack_ranged: false, dice: null}
      - {id: bare_handed, label: Bare-handed, hit: 0, no_attack_ranged: false, dice: 1d2}

  into_melee:
    title: Firing into melee
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      near_miss: {label: A near miss, type: text, optional: true}
    rows:
      - {id: no_melee, label: Target not in melee, hit: 0, near_miss: null}
      - {id: careful, label: Target in melee (-4), hit: -4, near_miss: null}
      - {id: risky, label: Target in melee (no penalty), hit: 0, near_miss: the shot hits the target's melee opponent}

  critical_choice:
    title: What a critical does
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      critical_as_hit: {label: A critical deals a hit's damage, type: bool}
    rows:
      - {id: extra_damage, label: Double damage, critical_as_hit: false}
      - {id: injury, label: A lasting injury instead, critical_as_hit: true}
"""
UNDERWATER = frozenset({("hindrances", "underwater")})


@pytest.fixture(scope="module")
def stopping_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    return edited_bx(
        tmp_path_factory,
        BLOCK,
        "bx-stopping",
        old,
        TABLES,
        "attack_kind, weapon, stance, critical_choice, into_melee",
    )


def test_a_picked_row_rules_the_attack_out_by_hand(stopping_bx):
    """Total defense stops any attack, roll or not; underwater stops a ranged attack only (its
    table's title says why); the first table that stops it is named."""
    rules, _ = stopping_bx
    sword = CalculatorInputs(bonus=3, target=12, roll=15, dice="1d6", damage_roll=4)
    defending = replace(sword, choices={"stance": "Total defense"})
    for inputs in (defending, replace(defending, roll=None)):
        found = attack_outputs(rules, inputs)
        assert found["ATTACK_RESULT"] == found["ATTACK_SUMMARY"] == "#NO ATTACK? Total defense"
        assert found["ATTACK_DAMAGE"] == ""
        chance_cells = ("ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE", "ATTACK_FUMBLE_CHANCE", *CALCULATOR_ODDS)
        assert [found[name] for name in chance_cells] == [0] * len(chance_cells)  # no chance of anything
    assert attack_outputs(rules, replace(sword, roll=None))["ATTACK_HIT_CHANCE"] > 0
    assert odds.expected_damage(*weighed(rules, replace(defending, dice="1d6"))) == 0  # the functions' odds
    bow = replace(sword, choices={"attack_kind": "Bow"}, toggles=UNDERWATER)
    said = "#NO ATTACK? The attacker's hindrances"
    assert attack_outputs(rules, bow)["ATTACK_RESULT"] == said
    assert attack_outputs(rules, replace(sword, toggles=UNDERWATER))["ATTACK_RESULT"] == "Hit"  # 15+3-2
    assert attack_outputs(rules, replace(sword, toggles=UNDERWATER))["ATTACK_NEED"] == 12 - 3 + 2
    both = replace(bow, choices={"attack_kind": "Bow", "stance": "Total defense"})
    assert attack_outputs(rules, both)["ATTACK_RESULT"] == "#NO ATTACK? Total defense"


def test_a_picked_row_makes_a_critical_deal_a_hit_s_damage_by_hand(stopping_bx):
    """A confirmed critical doubles the dice, unless the lasting injury is picked instead."""
    rules, _ = stopping_bx
    critical = CalculatorInputs(bonus=3, target=12, roll=20, follow_roll=15, dice="1d6+1", damage_roll=4)
    found = attack_outputs(rules, critical)
    assert (found["ATTACK_RESULT"], found["ATTACK_DAMAGE"]) == ("Critical", 2 * 4 + 1)
    injury = attack_outputs(rules, replace(critical, choices={"critical_choice": "A lasting injury instead"}))
    assert (injury["ATTACK_RESULT"], injury["ATTACK_DAMAGE"]) == ("Critical", 4 + 1)
    plain = attack_outputs(
        rules, replace(critical, dice="1d6", choices={"critical_choice": "A lasting injury instead"})
    )
    assert (
        plain["ATTACK_EXPECTED_DAMAGE"]
        < attack_outputs(rules, replace(critical, dice="1d6"))["ATTACK_EXPECTED_DAMAGE"]
    )


def test_the_picked_weapon_s_dice_replace_those_typed_by_hand(stopping_bx):
    """A weapon's dice replace those typed, in the damage and the odds; the first table that gives
    dice wins (the weapon before a ticked bare hand); a weapon row without dice keeps those typed."""
    rules, _ = stopping_bx
    typed = CalculatorInputs(bonus=3, target=12, roll=15, dice="1d4", damage_roll=7)
    assert attack_outputs(rules, typed)["ATTACK_DAMAGE"] == "#DAMAGE ROLL? 1 to 4"
    axe = replace(typed, choices={"weapon": "Greataxe"})
    assert attack_outputs(rules, axe)["ATTACK_DAMAGE"] == 7 + 1
    assert attack_outputs(rules, replace(axe, dice="nonsense"))["ATTACK_DAMAGE"] == 7 + 1
    bare = frozenset({("hindrances", "bare_handed")})
    assert attack_outputs(rules, replace(axe, toggles=bare))["ATTACK_DAMAGE"] == 7 + 1
    assert attack_outputs(rules, replace(typed, damage_roll=2, toggles=bare))["ATTACK_DAMAGE"] == 2
    assert (
        attack_outputs(rules, replace(typed, damage_roll=3, toggles=bare))["ATTACK_DAMAGE"]
        == "#DAMAGE ROLL? 1 to 2"
    )
    odds = [
        attack_outputs(rules, replace(typed, choices={"weapon": w}))["ATTACK_EXPECTED_DAMAGE"]
        for w in ("The dice typed", "Longsword", "Greataxe")
    ]
    assert odds == sorted(odds) and len(set(odds)) == 3


def test_the_attack_kind_adds_its_ability_the_better_of_two_and_dex_again_by_hand(stopping_bx):
    """STR for a sword, DEX for a bow, the better of them for a rapier (``best_of``); the one DEX
    cell also offsets a two-weapon penalty down to 0 (``same_as``)."""
    rules, _ = stopping_bx

    def hit(kind: str, strength: int, dex: int, weapons: str = "One weapon") -> int:
        inputs = CalculatorInputs(
            choices={"attack_kind": kind, "two_weapons": weapons},
            numbers={"attacker_str": strength, "attacker_dex": dex},
        )
        return int(attack_outputs(rules, inputs)["ATTACK_SITUATION_HIT"])

    assert (hit("Sword", 3, 1), hit("Bow", 3, 1)) == (3, 1)
    rapier = "Rapier (the better of STR and DEX)"
    assert (hit(rapier, 3, 1), hit(rapier, -1, 2), hit(rapier, -2, -1)) == (3, 2, -1)
    assert hit("Sword", 3, 1, "Two weapons (-4)") == 3 - 4 + 1
    assert hit("Sword", 0, 6, "Two weapons (-4)") == 0  # offset down to 0, no further
    assert hit("Bow", 0, 2, "Two weapons (-4)") == 2 - 4 + 2


def test_a_near_miss_says_what_the_picked_row_says_by_hand(stopping_bx):
    """A ranged Miss short by 1 to 3 into a melee says the shot hits the target's melee opponent."""
    rules, _ = stopping_bx
    shot = CalculatorInputs(
        bonus=0,
        target=15,
        roll=13,
        choices={"attack_kind": "Bow", "into_melee": "Target in melee (no penalty)"},
    )
    found = attack_outputs(rules, shot)
    said = "missed by 2: the shot hits the target's melee opponent"
    assert (found["ATTACK_RESULT"], found["ATTACK_EFFECT"]) == ("Miss", said)
    assert said in str(found["ATTACK_SUMMARY"])
    assert attack_outputs(rules, replace(shot, roll=11))["ATTACK_EFFECT"] == ""  # short by 4
    assert attack_outputs(rules, replace(shot, roll=15))["ATTACK_EFFECT"] == ""  # a hit
    sword = replace(shot, choices={**shot.choices, "attack_kind": "Sword"})
    assert attack_outputs(rules, sword)["ATTACK_EFFECT"] == ""  # the table counts for ranged attacks only


def test_stopping_and_critical_picks_in_the_sheet(calc, stopping_bx):
    rules, xlsx = stopping_bx
    cases = list(scenarios(rules, 160, 41))
    stopped = [
        one for one in cases if str(attack_outputs(rules, one)["ATTACK_RESULT"]).startswith("#NO ATTACK")
    ]
    injured = [
        one
        for one in cases
        if attack_outputs(rules, one)["ATTACK_RESULT"] == "Critical"
        and one.choices.get("critical_choice") == "A lasting injury instead"
    ]
    armed = [
        one
        for one in cases
        if one.choices.get("weapon") in ("Longsword", "Greataxe")
        and isinstance(attack_outputs(rules, one)["ATTACK_DAMAGE"], int)
        and attack_outputs(rules, one)["ATTACK_DAMAGE"] > 0
    ]
    near = [one for one in cases if str(attack_outputs(rules, one)["ATTACK_EFFECT"]).startswith("missed by")]
    assert len(stopped) >= 20 and injured and len(armed) >= 10 and near, (
        len(stopped),
        len(injured),
        len(armed),
    )
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_encounter_log_rows_stop_as_the_calculator_does(calc, stopping_bx):
    """A log row whose picks rule the attack out says so, as the encounter model does."""
    rules, xlsx = stopping_bx
    fights = fights_match(calc, rules, xlsx, random.Random("encounter-stopping"), 30)
    stances = {attack.picks.get("stance") for fight in fights for attack in fight.attacks if attack.picks}
    assert "Total defense" in stances


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("{same_as: attacker_dex,", "{same_as: attacker_wis,"),  # no such number
        ("{same_as: attacker_dex,", "{same_as: dex_two_weapons,"),  # not a number with a cell
        ("{same_as: attacker_dex,", "{same_as: attacker_dex, label: DEX again,"),  # its label is the other's
        ("{label: DEX bonus, adds_to: hit,", "{label: DEX bonus, adds_to: ac,"),  # a group adds to one sum
    ],
)
def test_a_typed_number_mistake_is_named_with_its_line(tmp_path: Path, edit: str, said: str, capsys):
    folder = tmp_path / "tables" / "bx"
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    assert edit in BLOCK
    block = BLOCK.replace(edit, said)
    header.write_text(header.read_text().replace(MAGIC, "situation]").replace(old, block))
    tables = folder / "attack.yaml"
    tables.write_text(tables.read_text() + TABLES)
    out = tmp_path / "out"
    assert build.main(["--tables", str(folder.parent), "--out", str(out), "--quiet"]) != 0
    error = capsys.readouterr().err
    assert "bx/ruleset.yaml:" in error and "Traceback" not in error, error
    assert not out.exists() or not any(out.glob("*.xlsx"))
