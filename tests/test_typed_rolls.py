"""Rolls as a GM types them (issue 11): `1`, `01`, `20` (and on the d100 `00`, `05`, `100`) entered as the
keyboard enters them, parsed by LibreOffice rather than set as numbers, land as numbers in the roll
cell and give the outcome the same number set directly gives, which is the engine's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pycalc.libreoffice import CalcSession, typed
from pycalc.rulesets import spelljammer
from pycalc.tables import RULESET_IDS, load_ruleset

D20_TYPED = {"1": 1, "01": 1, "20": 20, "7": 7}
D100_TYPED = {"00": 100, "0": 100, "05": 5, "100": 100, "1": 1, "01": 1, "72": 72}


def roll_and_result(ruleset_id: str) -> tuple[str, str]:
    return (
        ("STRIKE_ROLL", "STRIKE_OUTCOME") if ruleset_id == "spelljammer" else ("ATTACK_ROLL", "ATTACK_RESULT")
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_typed_rolls_are_numbers_and_resolve_as_the_same_number(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession
):
    roll, result = roll_and_result(ruleset_id)
    entries = D100_TYPED if ruleset_id == "spelljammer" else D20_TYPED
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    scenarios = [{roll: typed(text)} for text in entries] + [{roll: number} for number in entries.values()]
    got = calc.evaluate(xlsx, scenarios, [roll, result])
    typed_results, set_results = got[: len(entries)], got[len(entries) :]
    for text, typed_got, set_got in zip(entries, typed_results, set_results, strict=True):
        assert isinstance(typed_got[roll], float), (text, typed_got)  # a number, not the text "01"
        assert typed_got[result] == set_got[result], (text, typed_got, set_got)
        assert not str(typed_got[result]).startswith("#"), (text, typed_got)


def test_00_on_the_d100_resolves_as_the_engine_reads_100(built: Path, calc: CalcSession):
    rules = load_ruleset("spelljammer")
    inputs = {"STRIKE_SC": 112, "STRIKE_DEF": 40}
    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [{**inputs, "STRIKE_ROLL": typed(text)} for text in ("00", "96", "04")],
        ["STRIKE_OUTCOME"],
    )
    expected = [spelljammer.resolve(rules, 72, roll).label for roll in (0, 96, 4)]
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
