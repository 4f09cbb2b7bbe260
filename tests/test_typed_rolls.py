"""Rolls as a GM types them (issue 11): `1`, `01`, `20` (and on the d100 `00`, `0`, `05`, `100`) entered
as the keyboard enters them: through UNO's ``setFormula(text)``, which LibreOffice parses as it parses a
keystroke entry, never ``setValue``. Every calculator roll cell of the five workbooks must then hold the
number (not the text "01") and every output must equal the Python engine's for that roll."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import openpyxl
import pytest

from pycalc import resolution_calculator
from pycalc.libreoffice import CalcSession, typed
from pycalc.rulesets import spelljammer as d100
from pycalc.rulesets.spelljammer_calculator import StrikeInputs
from pycalc.rulesets.spelljammer_calculator import outputs as strike_outputs
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset
from tests import test_generic_parity
from tests.parity import same
from tests.test_libreoffice_parity import strike_cells

D20_TYPED = ("1", "01", "20")
D100_TYPED = ("00", "0", "05", "100", "1", "01", "20")
# the generic calculator (every d20 ruleset's) as a ruleset module's attack_outputs and AttackInputs
GENERIC = SimpleNamespace(
    attack_outputs=resolution_calculator.attack_outputs, AttackInputs=resolution_calculator.CalculatorInputs
)
D20_ENGINES: dict[str, tuple[ModuleType | SimpleNamespace, Callable[[RuleSet, Any], dict[str, object]]]] = {
    "cnc": (GENERIC, test_generic_parity.cells),
    "osr": (GENERIC, test_generic_parity.cells),
    "combat17": (GENERIC, test_generic_parity.cells),
    "bfrpg": (GENERIC, test_generic_parity.cells),
}
# Each d20 Attack calculator's roll cells (defined name -> the engine's AttackInputs field).
D20_ROLL_CELLS: dict[str, dict[str, str]] = {
    "cnc": {"ATTACK_ROLL": "roll"},  # no follow-up roll
    "osr": {"ATTACK_ROLL": "roll", "ATTACK_FOLLOW_ROLL": "follow_roll", "ATTACK_CHART_ROLL": "chart_roll"},
    "combat17": {
        "ATTACK_ROLL": "roll",
        "ATTACK_FOLLOW_ROLL": "follow_roll",
        "ATTACK_CHART_ROLL": "chart_roll",
        "ATTACK_CHECK_ROLL": "check_roll",  # the DEX check a critical miss chart row calls for
    },
    "bfrpg": {"ATTACK_ROLL": "roll", "ATTACK_FOLLOW_ROLL": "follow_roll", "ATTACK_EXTRA_ROLL": "extra_roll"},
}
STRIKE_BASE = {"sc": 112, "defense": 40, "con": 14, "hp": 30, "start_hp": 30, "damage": 12, "prot": 3}


def as_read(text: str) -> int:
    """The number a keyboard entry of digits stands for ("01" is 1, "00" is 0)."""
    return int(text)


def d20_inputs(ruleset_id: str, roll_text: str, follow_text: str) -> Any:
    """The engine's AttackInputs for a roll typed as ``roll_text``, every other die roll as ``follow_text``."""
    module, _ = D20_ENGINES[ruleset_id]
    rolls = {
        field: as_read(roll_text if name == "ATTACK_ROLL" else follow_text)
        for name, field in D20_ROLL_CELLS[ruleset_id].items()
    }
    return module.AttackInputs(bonus=3, target=14, mods=0, level=3, dice="1d8+2", damage_roll=5, **rolls)


def d20_typed_cells(rules: RuleSet, ruleset_id: str, roll_text: str, follow_text: str) -> dict[str, object]:
    """Every Attack calculator input as the engine's, the rolls typed at the keyboard."""
    _, attack_cells = D20_ENGINES[ruleset_id]
    cells = attack_cells(rules, d20_inputs(ruleset_id, roll_text, follow_text))
    for name in D20_ROLL_CELLS[ruleset_id]:
        cells[name] = typed(roll_text if name == "ATTACK_ROLL" else follow_text)
    return cells | {"ATTACK_DAMAGE_ROLL": typed("05")}


def cell_mismatches(expected: Mapping[str, object], got: Mapping[str, object], where: str) -> list[str]:
    return [
        f"{name} {where}: engine {expected[name]!r} != sheet {got[name]!r}"
        for name in expected
        if not same(expected[name], got[name])
    ]


def number_mismatches(typed_numbers: Mapping[str, float], got: Mapping[str, object]) -> list[str]:
    """Roll cells that do not hold the typed number as a number (text "01" or anything else)."""
    return [
        f"{name} holds {got[name]!r}, not the number {number:g}"
        for name, number in typed_numbers.items()
        if not (isinstance(got[name], float) and got[name] == number)
    ]


@pytest.mark.parametrize("ruleset_id", list(D20_ENGINES))
def test_typed_d20_rolls_are_numbers_and_the_outcome_is_the_engines(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession
):
    module, _ = D20_ENGINES[ruleset_id]
    rules = load_ruleset(ruleset_id)
    pairs = list(itertools.product(D20_TYPED, D20_TYPED))
    roll_cells = [*D20_ROLL_CELLS[ruleset_id], "ATTACK_DAMAGE_ROLL"]
    names = list(module.attack_outputs(rules, d20_inputs(ruleset_id, "10", "10")))
    got = calc.evaluate(
        build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx",
        [d20_typed_cells(rules, ruleset_id, roll, follow) for roll, follow in pairs],
        [*roll_cells, *names],
    )
    mismatches: list[str] = []
    for (roll, follow), cells in zip(pairs, got, strict=True):
        numbers = {name: float(as_read(roll if name == "ATTACK_ROLL" else follow)) for name in roll_cells}
        mismatches += number_mismatches(numbers | {"ATTACK_DAMAGE_ROLL": 5.0}, cells)
        expected = module.attack_outputs(rules, d20_inputs(ruleset_id, roll, follow))
        mismatches += cell_mismatches(expected, cells, f"typed {roll!r}, follow-up {follow!r}")
        assert str(cells["ATTACK_RESULT"]) in {"Miss", "Hit", "Critical", "Fumble"}, (roll, follow, cells)
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


def strike_inputs(text: str) -> StrikeInputs:
    return StrikeInputs(**STRIKE_BASE, roll=as_read(text))


def test_typed_d100_strike_rolls_are_numbers_and_the_outcome_is_the_engines(
    built: Path, calc: CalcSession, spelljammer: RuleSet
):
    names = list(strike_outputs(spelljammer, strike_inputs("1")))
    scenarios = [strike_cells(spelljammer, strike_inputs(t)) | {"STRIKE_ROLL": typed(t)} for t in D100_TYPED]
    got = calc.evaluate(built / "spelljammer.xlsx", scenarios, ["STRIKE_ROLL", "STRIKE_ROLL_READ", *names])
    mismatches: list[str] = []
    for text, cells in zip(D100_TYPED, got, strict=True):
        mismatches += number_mismatches({"STRIKE_ROLL": float(as_read(text))}, cells)
        mismatches += number_mismatches({"STRIKE_ROLL_READ": float(d100_read(spelljammer, text))}, cells)
        mismatches += cell_mismatches(
            strike_outputs(spelljammer, strike_inputs(text)), cells, f"typed {text!r}"
        )
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])
    by_text = dict(zip(D100_TYPED, got, strict=True))
    # SC 112 vs DEF 40: 00 is 100, an automatic miss (read as 0 it would be a grievous hit); 05 a critical
    assert [by_text[t]["STRIKE_OUTCOME"] for t in ("00", "0", "100", "05", "01")] == [
        "Miss",
        "Miss",
        "Miss",
        "Critical",
        "Grievous",
    ]


def d100_read(rules: RuleSet, text: str) -> int:
    return d100.check_roll(rules, as_read(text))


def shot_expected(rules: RuleSet, text: str, training: str, situation: Any) -> dict[str, object]:
    roll = as_read(text)
    friend = d100.targets_friend(rules, roll, 5, 0, training, situation["friends"], situation["opponents"])
    return {
        "SHOOT_TOTAL": d100.shooting_total(rules, roll, 5, 0, training),
        "SHOOT_TARGET": "Friend" if friend else "Foe",
    }


def test_typed_d100_shot_into_melee_rolls_are_numbers_and_the_target_is_the_engines(
    built: Path, calc: CalcSession, spelljammer: RuleSet
):
    training = str(spelljammer.table("shooter_training").rows[0].label)
    situation = spelljammer.table("shooting_into_melee").rows[0]
    fixed = {
        "SHOOT_WEAPON_RANK": 5,
        "SHOOT_MASTER_RANK": 0,
        "SHOOT_TRAINING": training,
        "SHOOT_SITUATION": str(situation.label),
    }
    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [fixed | {"SHOOT_ROLL": typed(t)} for t in D100_TYPED],
        ["SHOOT_ROLL", "SHOOT_TOTAL", "SHOOT_TARGET"],
    )
    mismatches: list[str] = []
    for text, cells in zip(D100_TYPED, got, strict=True):
        mismatches += number_mismatches({"SHOOT_ROLL": float(as_read(text))}, cells)
        mismatches += cell_mismatches(
            shot_expected(spelljammer, text, training, situation), cells, f"typed {text!r}"
        )
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])
    # typed 00 shoots as 100 (the foe); read as 0 it would be at or under the always-a-friend number
    assert [c["SHOOT_TARGET"] for c in got[:2]] == ["Foe", "Foe"]


def roll_checks(xlsx: Path) -> dict[str, tuple[str, Any]]:
    """Defined name -> (sheet, its whole-number check) for every named cell that carries one."""
    book = openpyxl.load_workbook(xlsx)
    checks = {
        (sheet.title, str(ref)): check
        for sheet in book.worksheets
        for check in sheet.data_validations.dataValidation
        if check.type == "whole"
        for ref in check.sqref.ranges
    }
    found = {}
    for name, defined in book.defined_names.items():
        for sheet, ref in defined.destinations:
            if (sheet, ref.replace("$", "")) in checks:
                found[name] = (sheet, checks[(sheet, ref.replace("$", ""))])
    return found


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_calculator_die_roll_is_typed_here(ruleset_id: str, build_ruleset: Callable[[str], Path]):
    """The typed-roll tests above cover every die roll of the calculator (damage rolls aside), and the
    d100 cells take 0 to 100 with an input message saying 00 = 100."""
    checks = roll_checks(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    calculator = "Strike calculator" if ruleset_id == "spelljammer" else "Attack calculator"
    die_rolls = {
        n
        for n, (sheet, _) in checks.items()
        if sheet == calculator and n.endswith("_ROLL") and "DAMAGE" not in n
    }
    if ruleset_id != "spelljammer":
        assert die_rolls == set(D20_ROLL_CELLS[ruleset_id])
        return
    assert die_rolls == {"STRIKE_ROLL"}
    faces = d100.die_faces(load_ruleset("spelljammer"))
    for name in ("STRIKE_ROLL", "SHOOT_ROLL"):
        _, check = checks[name]
        assert (check.operator, check.formula1, check.formula2) == ("between", "0", str(faces)), name
        assert check.showInputMessage and f"00 = {faces}" in (check.prompt or ""), name
        assert check.showErrorMessage and f"00 = {faces}" in (check.error or ""), name


def test_00_on_the_d100_resolves_as_the_engine_reads_100(built: Path, calc: CalcSession):
    rules = load_ruleset("spelljammer")
    inputs = {"STRIKE_SC": 112, "STRIKE_DEF": 40}
    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [{**inputs, "STRIKE_ROLL": typed(text)} for text in ("00", "96", "04")],
        ["STRIKE_OUTCOME"],
    )
    expected = [d100.resolve(rules, 72, roll).label for roll in (0, 96, 4)]
    assert [g["STRIKE_OUTCOME"] for g in got] == expected == ["Miss", "Miss", "Grievous"]


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "combat17", "bfrpg"])
def test_every_outcome_gives_the_targets_hit_points_after_the_hit(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession
):
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    scenarios = [
        {"ATTACK_ROLL": roll, "ATTACK_FOLLOW_ROLL": 10, "ATTACK_DAMAGE_ROLL": 5, "ATTACK_TARGET_HP": 12}
        for roll in (2, 19, 20)
    ]
    outputs = ["ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HP_AFTER", "ATTACK_SUMMARY"]
    for got in calc.evaluate(xlsx, scenarios, outputs):
        assert str(got["ATTACK_SUMMARY"]).startswith(str(got["ATTACK_RESULT"])), got
        if isinstance(got["ATTACK_DAMAGE"], float):
            assert got["ATTACK_HP_AFTER"] == 12 - got["ATTACK_DAMAGE"], got
            damage, after = (f"{got[name]:g}" for name in ("ATTACK_DAMAGE", "ATTACK_HP_AFTER"))
            if got["ATTACK_DAMAGE"] > 0:
                assert f"{damage} damage, the target is at {after} HP" in str(got["ATTACK_SUMMARY"]), got
        else:
            assert got["ATTACK_HP_AFTER"] is None, got
