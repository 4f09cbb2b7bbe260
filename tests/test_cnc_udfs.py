"""The cnc UDFs called as xlwings calls them: floats for numbers, None for empty cells, text as str."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pycalc import udfs
from pycalc.hit_point_states import hit_point_state
from pycalc.registry import SHIPPED
from pycalc.rulesets import cnc_movement
from pycalc.tables import load_ruleset

RULES = load_ruleset("cnc")


def test_the_attack_is_the_shared_functions_with_the_kinds_picked_by_name():
    """cnc's attack kinds (least damage, no damage, their words) and the charge's damage, picked by
    name as in the Encounter log; the functions' agreement with the calculator is
    tests/test_shared_attack_udfs.py's."""
    assert udfs.d20_need("cnc", None, 15.0, None) == 15
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d8+2", 5.0, None, None, None, None, None, None) == 7
    assert udfs.d20_damage("cnc", 2.0, 0.0, 10.0, "1d8+2", 5.0) == 0  # a miss
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d8", 5.0, picks="grapple") == 0  # deals none
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d4-3", 1.0) == 0
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d4-3", 1.0, picks="Pummel") == 1  # its least
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d8", 5.0, picks="charge damage bonus") == 7
    assert udfs.d20_damage("cnc", 15.0, 0.0, 10.0, "1d8", 5.0, damage_bonus=3.0) == 8
    assert udfs.d20_effect("cnc", 2.0, 0.0, 10.0, picks="grapple") == "Missed: no hold"
    assert udfs.d20_effect("cnc", 15.0, 0.0, 10.0) == "Weapon damage (Str modifier added)"
    assert udfs.d20_expected_damage("cnc", 0.0, 10.0, "1d8", picks="grapple") == 0


def test_falling_and_hit_point_udfs():
    assert udfs.falling_damage(18.0) == "3d6"
    assert udfs.falling_damage(45.0) == "10d6"
    assert udfs.falling_damage("8") == "1d6" and udfs.cnc_falling_dex_check(8.0) is True
    assert udfs.cnc_falling_dex_check(18.0) is False
    assert udfs.hp_state("cnc", -8.0) == "mortally wounded"
    assert udfs.hp_state("CNC", 0.0) == "passed out"
    assert udfs.hp_state("osr", 0.0) == str(hit_point_state(load_ruleset("osr"), 0))  # any ruleset's


def test_special_ac_udfs():
    assert udfs.cnc_disarm_ac(5.0) == 23
    assert udfs.cnc_disarm_ac(5.0, 2.0) == 25
    assert udfs.cnc_grapple_ac("Grapple", True, 1.0, 2.0, 4.0, 1.0, None) == 23
    assert udfs.cnc_grapple_ac("Overbear", "FALSE", None, None, 3.0) == 15
    assert udfs.cnc_grapple_allowed("Overbear", -2.0) is False
    assert udfs.cnc_touch_ac(2.0, False, 1.0, 5.0) == 13
    assert udfs.cnc_touch_ac(2.0, 1.0) == 10


def test_movement_charge_subdual_udfs():
    assert udfs.cnc_movement(30.0) == 30
    assert udfs.cnc_movement(30.0, "Attack") == 15
    assert udfs.cnc_movement(30.0, "Move (run)", 0.5) == 60
    assert udfs.cnc_movement(30.0, "walk", 0.3) == cnc_movement.reduced_rate(RULES, 30, Fraction(3, 10)) == 21
    assert udfs.cnc_grid_squares(30.0) == 6
    assert udfs.cnc_charge_window(30.0, 45.0) == "Yes"
    assert udfs.cnc_charge_window(30.0, 61.0) == "Too far: at most 60 ft"
    assert udfs.cnc_subdual_normal(7.0) == 1
    assert udfs.cnc_subdual_normal(10.0) == 2


@pytest.mark.parametrize(
    "call, start",
    [
        (lambda: udfs.d20_result("cnc", 21.0, 3.0, 15.0), "#ROLL?"),
        (lambda: udfs.d20_result("cnc", 10.0, 3.0, None), "#TARGET?"),
        (lambda: udfs.d20_need("cnc", "x", 15.0), "#BONUS?"),
        (lambda: udfs.d20_damage("cnc", 15.0, 3.0, 15.0, "abc", 3.0), "#DICE?"),
        (lambda: udfs.d20_damage("cnc", 15.0, 3.0, 15.0, "1d8", 3.0, picks="Joust"), "#PICKS?"),
        (lambda: udfs.d20_kill_chance("cnc", 3.0, 15.0, "1d8", 5.0, 11.0), "#ATTACKS?"),
        (lambda: udfs.falling_damage(-5.0), "#FEET?"),
        (lambda: udfs.falling_damage(7.5), "#FEET?"),
        (lambda: udfs.falling_damage(None), "#FEET?"),
        (lambda: udfs.hp_state("gurps", 3.0), "#RULESET?"),
        (lambda: udfs.hp_state("cnc", None), "#HP?"),
        (lambda: udfs.cnc_disarm_ac(-1.0), "#LEVEL?"),
        (lambda: udfs.cnc_grapple_ac("Pummel", True), "#KIND?"),
        (lambda: udfs.cnc_grapple_ac("Grapple", "maybe"), "#STR PRIME?"),
        (lambda: udfs.cnc_touch_ac(1.0, "x"), "#MONSTER?"),
        (lambda: udfs.cnc_movement(0.0), "#RATE?"),
        (lambda: udfs.cnc_movement(30.0, "Fly"), "#ACTION?"),
        (lambda: udfs.cnc_movement(30.0, "walk", 2.0), "#REDUCTION?"),
        (lambda: udfs.cnc_movement(30.0, "walk", "lots"), "#REDUCTION?"),
        (lambda: udfs.cnc_charge_window(30.0, -1.0), "#DISTANCE?"),
        (lambda: udfs.cnc_subdual_normal(-2.0), "#DAMAGE?"),
    ],
)
def test_bad_input_returns_a_message_not_an_exception(call, start):
    assert str(call()).startswith(start)


def test_every_udf_is_exported_and_documented():
    for module in SHIPPED["cnc"].udfs:
        for name in module.__all__:
            function = getattr(module, name)
            assert callable(function) and function.__doc__, name
