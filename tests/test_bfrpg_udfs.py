"""The bfrpg UDFs called as xlwings calls them (floats, None for empty cells) equal the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import resolution as generic
from pycalc import udfs
from pycalc.d20 import Attack
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import bfrpg_joust
from pycalc.tables import load_ruleset

RULES = load_ruleset("bfrpg")


def label(table_id: str, row_id: str) -> str:
    return str(RULES.table(table_id).entry(row_id).label)


@settings(max_examples=150, deadline=None)
@given(st.integers(-5, 20), st.integers(-5, 35), st.integers(-5, 5), st.integers(1, 20))
def test_critical_by_the_shared_udfs_equals_the_engine(bonus: int, target: int, mods: int, follow: int):
    """The shared functions answer what bfrpg's Critical functions did: the chance of a confirmed
    critical (bfrpg_crit_chance; above 0 where bfrpg_crit_possible) and a confirmation (bfrpg_confirms)."""
    attack = generic.from_d20(Attack(bonus, target, mods))
    args = (float(bonus), float(target), float(mods))
    chance = udfs.d20_chance("bfrpg", "Critical", *args)
    assert chance == float(engine.chances(RULES, Attack(bonus, target, mods)).critical)
    assert (chance > 0) == generic.critical_possible(RULES, attack)
    confirmed = generic.critical_possible(RULES, attack) and generic.confirms(RULES, attack, follow)
    assert (udfs.d20_result("bfrpg", 20.0, *args, None, float(follow)) == "Critical") == confirmed


def test_the_shared_d20_udfs_dispatch_to_bfrpg():
    assert udfs.d20_result("bfrpg", 20.0, 5.0, 15.0, None, None, 12.0) == "Critical"
    assert udfs.d20_result("bfrpg", 20.0, 5.0, 15.0, None, None, None) == "Hit"
    assert udfs.d20_result("bfrpg", 1.0, 30.0, 10.0) == "Miss"
    assert udfs.d20_hit_chance("bfrpg", 5.0, 15.0) == pytest.approx(0.55)


def test_an_attack_a_pick_rules_out_has_no_chance_and_says_why():
    """Total defense: the result says why; every chance and the odds are 0, as in the calculator."""
    defending = {"picks": "total defense"}
    assert str(udfs.d20_result("bfrpg", 15.0, 5.0, 15.0, **defending)).startswith("#NO ATTACK? Total")
    assert udfs.d20_hit_chance("bfrpg", 5.0, 15.0, **defending) == 0
    assert udfs.d20_chance("bfrpg", "Miss", 5.0, 15.0, **defending) == 1
    assert udfs.d20_expected_damage("bfrpg", 5.0, 15.0, "1d8", **defending) == 0
    assert udfs.d20_kill_chance("bfrpg", 5.0, 15.0, "1d8", 1.0, **defending) == 0


def test_damage_udfs():
    assert udfs.modifier("bfrpg", "helpless_damage", "backstab_max_multiplier") * udfs.dice_max("2d4") == 16
    # the attack's damage is the shared function's, by the generic Attack calculator
    assert udfs.d20_damage("bfrpg", 20.0, 5.0, 15.0, "1d8+2", 5.0, follow_roll=12.0) == 15
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8+2", 5.0) == 7
    assert udfs.d20_damage("bfrpg", 2.0, 5.0, 15.0, "1d8+2", 5.0) == 0
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", 5.0, picks="charge, flat of blade") == 5  # x2 /2
    assert udfs.d20_damage("bfrpg", 2.0, 5.0, 30.0, "1d8+1", None, picks="helpless") == 18
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", None) == ""


def test_maneuver_udfs():
    assert udfs.bfrpg_joust_save_penalty(14.0) == -2
    assert (
        udfs.bfrpg_joust_result(10.0, 12.0, 0.0, 4.0)
        == bfrpg_joust.joust_outputs(RULES, 10, 12, 0, 4)["JOUST_RESULT"]
    )
    partial, weapon = label("defense_stance", "partial_defense"), label("parry_with", "weapon")
    assert udfs.bfrpg_parry_bonus(partial, weapon, 5.0, 0.0, 3.0, "Fighter", 3.0, False) == 1
    assert udfs.bfrpg_block_result(8.0, 8.0) == "Absorbed"
    assert udfs.bfrpg_block_result(7.0, 8.0) == "Full damage"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: udfs.d20_result("bfrpg", 20.0, 5.0, 15.0, None, None, 21.0), "#FOLLOW ROLL? 1 to 20"),
        (lambda: udfs.d20_damage("bfrpg", 20.0, 5.0, 15.0, "sword", 5.0, follow_roll=12.0), "#DICE?"),
        (lambda: udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8+2", 9.0), "#DAMAGE ROLL? 1 to 8"),
        (lambda: udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", 5.0, picks="joust"), "#PICKS?"),
        (lambda: udfs.bfrpg_joust_save_penalty(-3.0), "#DAMAGE? 0 or more"),
        (lambda: udfs.bfrpg_joust_result(5.0, 12.0, 0.0, 0.0), "#ROLL? 1 to 20"),
        (
            lambda: udfs.bfrpg_parry_bonus("Normal fighting (no defensive combat)", "weapon", 3.0),
            "#STANCE?",
        ),
        (lambda: udfs.bfrpg_parry_bonus("total_defense", "weapon", 3.0, 0, 1, "Wizard"), "#CLASS?"),
    ],
)
def test_bad_input_returns_text_not_an_exception(call, message: str):
    got = call()
    assert isinstance(got, str) and got.startswith(message), got


def test_attack_result_and_hit_chance_follow_the_engine():
    attack = Attack(3, 15)
    for roll in range(1, 21):
        for follow in (None, 1, 12, 20):
            expected = engine.result(RULES, attack, roll, follow)
            follow_cell = None if follow is None else float(follow)
            assert udfs.d20_result("bfrpg", float(roll), 3.0, 15.0, None, None, follow_cell) == expected
    assert udfs.d20_hit_chance("bfrpg", 3.0, 15.0) == float(engine.chances(RULES, attack).hit)
    assert udfs.d20_result("bfrpg", 21.0, 3.0, 15.0).startswith("#ROLL?")
