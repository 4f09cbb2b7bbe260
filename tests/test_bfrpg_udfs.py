"""The bfrpg UDFs called as xlwings calls them (floats, None for empty cells) equal the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import udfs
from pycalc.d20 import Attack
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import bfrpg_firing, bfrpg_joust
from pycalc.tables import load_ruleset

RULES = load_ruleset("bfrpg")


def label(table_id: str, row_id: str) -> str:
    return str(RULES.table(table_id).entry(row_id).label)


@settings(max_examples=150, deadline=None)
@given(st.integers(-5, 20), st.integers(-5, 35), st.integers(-5, 5), st.integers(1, 20))
def test_critical_udfs_equal_the_engine(bonus: int, target: int, mods: int, follow: int):
    attack = Attack(bonus, target, mods)
    args = (float(bonus), float(target), float(mods))
    assert udfs.bfrpg_crit_possible(*args) == engine.critical_possible(RULES, attack)
    assert udfs.bfrpg_confirm_min(*args) == engine.confirm_min(RULES, attack)
    assert udfs.bfrpg_crit_chance(*args) == float(engine.chances(RULES, attack).critical)
    confirmed = engine.critical_possible(RULES, attack) and engine.confirms(RULES, attack, follow)
    assert udfs.bfrpg_confirms(float(follow), *args) == confirmed


def test_the_shared_d20_udfs_dispatch_to_bfrpg():
    assert udfs.d20_result("bfrpg", 20.0, 5.0, 15.0, None, None, 12.0) == "Critical"
    assert udfs.d20_result("bfrpg", 20.0, 5.0, 15.0, None, None, None) == "Hit"
    assert udfs.d20_result("bfrpg", 1.0, 30.0, 10.0) == "Miss"
    assert udfs.d20_hit_chance("bfrpg", 5.0, 15.0) == pytest.approx(0.55)


def test_damage_udfs():
    assert udfs.bfrpg_critical_damage("1d8+2", 5.0) == 15
    assert udfs.bfrpg_critical_damage("1d8+2", 5.0, None, 2.0) == 30
    assert udfs.bfrpg_helpless_damage("1d8+1") == 18
    assert udfs.bfrpg_helpless_damage("2d4", True) == 16
    # the attack's damage is the shared function's, by the generic Attack calculator
    assert udfs.d20_damage("bfrpg", 20.0, 5.0, 15.0, "1d8+2", 5.0, follow_roll=12.0) == 15
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8+2", 5.0) == 7
    assert udfs.d20_damage("bfrpg", 2.0, 5.0, 15.0, "1d8+2", 5.0) == 0
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", 5.0, picks="charge, flat of blade") == 5  # x2 /2
    assert udfs.d20_damage("bfrpg", 2.0, 5.0, 30.0, "1d8+1", None, picks="helpless") == 18
    assert udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", None) == ""


def test_maneuver_udfs():
    assert udfs.bfrpg_two_weapon_hit("primary_hand", 3.0) == 0
    assert udfs.bfrpg_two_weapon_hit(label("two_weapon_fighting", "off_hand"), 1.0) == -4
    assert udfs.bfrpg_joust_save_penalty(14.0) == -2
    assert (
        udfs.bfrpg_joust_result(10.0, 12.0, 0.0, 4.0)
        == bfrpg_joust.joust_outputs(RULES, 10, 12, 0, 4)["JOUST_RESULT"]
    )
    partial, weapon = label("defense_stance", "partial_defense"), label("parry_with", "weapon")
    assert udfs.bfrpg_parry_bonus(partial, weapon, 5.0, 0.0, 3.0, "Fighter", 3.0, False) == 1
    assert udfs.bfrpg_block_result(8.0, 8.0) == "Absorbed"
    assert udfs.bfrpg_block_result(7.0, 8.0) == "Full damage"
    risky = label("firing_into_melee", "risky_shot")
    assert udfs.bfrpg_firing_outcome(risky, 2.0, 14.0, 0.0, 10.0) == bfrpg_firing.FIRE_STRAY
    assert udfs.bfrpg_surprise_max("Normal", True) == 1
    assert udfs.bfrpg_surprise_max(label("surprise_range", "ambush")) == 4
    assert udfs.bfrpg_is_surprised(3.0, "ambush", False) is True
    assert udfs.bfrpg_is_surprised(3.0, "normal", None) is False


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: udfs.bfrpg_crit_possible(None, None), "#TARGET?"),
        (lambda: udfs.bfrpg_confirms(21.0, 5.0, 15.0), "#FOLLOW ROLL? 1 to 20"),
        (
            lambda: udfs.bfrpg_confirms(2.5, 5.0, 15.0),
            "#FOLLOW ROLL? follow roll: a whole number from -1,000,000,000 to 1,000,000,000",
        ),
        (lambda: udfs.bfrpg_critical_damage("sword", 5.0), "#DICE?"),
        (lambda: udfs.bfrpg_critical_damage("1d8+2", 9.0), "#DAMAGE ROLL? 1 to 8"),
        (lambda: udfs.bfrpg_critical_damage("1d8+2", 5.0, None, 0.0), "#DOUBLE?"),
        (lambda: udfs.d20_damage("bfrpg", 15.0, 5.0, 15.0, "1d8", 5.0, picks="joust"), "#PICKS?"),
        (lambda: udfs.bfrpg_two_weapon_hit("third hand", 0.0), "#TWO-WEAPON COMBAT?"),
        (lambda: udfs.bfrpg_helpless_damage(None), "#DICE?"),
        (lambda: udfs.bfrpg_joust_save_penalty(-3.0), "#DAMAGE? 0 or more"),
        (lambda: udfs.bfrpg_joust_result(5.0, 12.0, 0.0, 0.0), "#ROLL? 1 to 20"),
        (
            lambda: udfs.bfrpg_parry_bonus("Normal fighting (no defensive combat)", "weapon", 3.0),
            "#STANCE?",
        ),
        (lambda: udfs.bfrpg_parry_bonus("total_defense", "weapon", 3.0, 0, 1, "Wizard"), "#CLASS?"),
        (lambda: udfs.bfrpg_firing_outcome("risky_shot", 2.0, None, 0.0, 10.0), "#TARGET?"),
        (lambda: udfs.bfrpg_is_surprised(7.0, "normal"), "#ROLL? 1 to 6"),
        (lambda: udfs.bfrpg_surprise_max("sometimes"), "#SURPRISE RANGE?"),
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
