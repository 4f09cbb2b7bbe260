"""An own ruleset's Attack calculator names the target's state after the hit, from its encounter
block's hit-point states (``pycalc.resolution_calculator.target_state``), in LibreOffice: with a
subdual kind of damage (``encounter.damage_kinds``) the calculator asks for the Kind and the subdual
damage already taken, a pick can deal subdual damage, and a knock-out reads the states table's
knocked-out column; the one line ends with the state once the target can no longer act, and a log
row says the same."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.sheets.target_state import KIND, PART, STATE, SUBDUAL_TAKEN
from pycalc.tables import RuleSet, load_folder
from tests.test_generic_parity import FIXTURE, mismatches, rebuilt, scenarios
from tests.test_log_says_what_the_calculator_says import log_and_calculator_lines

STATES = """    columns:
      state: {label: State, type: text}
    rows:
      - {to: 0, state: dead}
      - {from: 1, state: fighting}
"""
SUBDUAL_STATES = """    columns:
      state: {label: State, type: text}
      knocked: {label: With subdual damage, type: text}
    rows:
      - {to: -10, state: dead, knocked: dead}
      - {from: -9, to: 0, state: dying, knocked: knocked out}
      - {from: 1, state: fighting, knocked: fighting}

  damage_kinds:
    title: Damage kinds on the attack log
    kind: entries
    source: {section: Hit points}
    columns:
      effect: {label: Effect, type: text}
    rows:
      - {id: subdual, label: Subdual, effect: knocks out but does not wound}
      - {id: heal, label: Heal, effect: gives hit points back}
"""
BLOW = """
  blow:
    title: How the blow is struck
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      subdual: {label: Deals subdual damage, type: bool}
    rows:
      - {id: edge, label: With the edge, hit: 0, subdual: false}
      - {id: flat, label: With the flat of the blade, hit: -1, subdual: true}
"""
KINDS = """  damage_kinds:
    table: damage_kinds
    knocked_out: knocked
    further_damage_lethal: true
    subdual_picks: [blow.subdual]
  conditions: conditions
"""


@pytest.fixture(scope="module")
def subdual_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture with three hit-point states, a subdual kind of damage that knocks out, and a pick
    (the flat of the blade) that deals it: still no Python."""
    folder = tmp_path_factory.mktemp("tables") / "bx"
    shutil.copytree(FIXTURE, folder)
    fight = folder / "fight.yaml"
    assert STATES in fight.read_text()
    fight.write_text(fight.read_text().replace(STATES, SUBDUAL_STATES))
    attack = folder / "attack.yaml"
    attack.write_text(attack.read_text() + BLOW)
    header = folder / "ruleset.yaml"
    text = header.read_text()
    assert "situation, magic]" in text and "  conditions: conditions\n" in text
    text = text.replace("situation, magic]", "situation, magic, blow]")
    header.write_text(text.replace("  conditions: conditions\n", KINDS, 1))
    return load_folder(folder), rebuilt(folder, tmp_path_factory.mktemp("bx-subdual"))


def test_the_state_after_the_hit_and_the_subdual_kind_equal_the_engine(calc, subdual_bx):
    rules, xlsx = subdual_bx
    cases = list(scenarios(rules, 200, 31))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    outputs = [attack_outputs(rules, one) for one in cases]
    states = {str(o[STATE]) for o in outputs}
    assert {"dead", "dying", "knocked out", "fighting"} <= states, states
    assert sum(1 for o in outputs if str(o["ATTACK_SUMMARY"]).endswith("HP: knocked out")) >= 3


def test_a_pick_that_deals_subdual_damage_knocks_out(subdual_bx):
    """The engine's reading the sheet is held to above: the flat of the blade knocks out where the edge
    leaves the target dying; damage to a target already down is never subdual (further_damage_lethal)."""
    rules, _ = subdual_bx
    hit = CalculatorInputs(bonus=5, target=5, roll=15, dice="1d6", damage_roll=6, hp=4)
    flat = {"blow": "With the flat of the blade"}
    assert attack_outputs(rules, hit)[STATE] == "dying"
    assert attack_outputs(rules, replace(hit, choices=flat))[STATE] == "knocked out"
    typed = replace(hit, kind="Subdual")
    assert attack_outputs(rules, typed)[STATE] == "knocked out"
    assert attack_outputs(rules, typed)["ATTACK_SUMMARY"].endswith("the target is at -2 HP: knocked out")
    down = replace(typed, hp=0)
    assert attack_outputs(rules, down)[STATE] == "dying"
    assert attack_outputs(rules, replace(hit, hp=20))["ATTACK_SUMMARY"].endswith("the target is at 14 HP")


@pytest.mark.timeout(600)
def test_a_log_row_names_the_state_the_calculator_names(calc, subdual_bx):
    """A log row's Kind (and its picks) feed the calculator's: each row's one line is the calculator's."""
    rules, xlsx = subdual_bx
    lines = log_and_calculator_lines(calc, rules, xlsx, 300)
    states = [line.rsplit(" HP: ", 1)[1] for line in lines if " HP: " in line]
    assert len(states) >= 3 and "knocked out" in states, states


def test_the_calculator_asks_for_the_kind_only_where_the_ruleset_has_a_subdual_kind(
    build_ruleset: Callable[[str], Path], subdual_bx: tuple[RuleSet, Path]
):
    """Without damage kinds only the state after the hit is added; with them the Kind, the subdual
    damage taken and this hit's part of it too."""
    bx_xlsx = build_ruleset(FIXTURE.name) / f"{FIXTURE.name}.xlsx"
    plain = set(openpyxl.load_workbook(bx_xlsx, read_only=True).defined_names)
    assert STATE in plain and not {KIND, SUBDUAL_TAKEN, PART} & plain
    subdual = set(openpyxl.load_workbook(subdual_bx[1], read_only=True).defined_names)
    assert {STATE, KIND, SUBDUAL_TAKEN, PART} <= subdual
