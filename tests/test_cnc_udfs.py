"""The cnc UDFs called as xlwings calls them: floats for numbers, None for empty cells, text as str."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import d20, udfs
from pycalc.registry import SHIPPED
from pycalc.rulesets import cnc, cnc_movement
from pycalc.tables import load_ruleset
from pycalc.udfs import cnc as udfs_cnc

RULES = load_ruleset("cnc")


@settings(max_examples=100, deadline=None)
@given(st.integers(-10, 30), st.integers(-5, 40), st.integers(-10, 10), st.integers(1, 20))
def test_attack_udfs_equal_the_engine(bonus, ac, mods, roll):
    attack = d20.Attack(bonus, ac, mods)
    assert udfs_cnc.cnc_attack_need(float(bonus), float(ac), float(mods)) == cnc.need(RULES, attack)
    assert udfs_cnc.cnc_attack_result(float(roll), float(bonus), float(ac), float(mods)) == cnc.result(
        RULES, attack, roll
    )
    assert udfs_cnc.cnc_hit_chance(float(bonus), float(ac), float(mods)) == float(
        cnc.hit_chance(RULES, attack)
    )


def test_empty_cells_use_the_defaults():
    assert udfs_cnc.cnc_attack_need(None, 15.0, None) == 15
    assert udfs_cnc.cnc_attack_damage("Hit", "1d8+2", 5.0, None, None) == 7
    assert udfs_cnc.cnc_attack_damage("Miss", "1d8+2", 5.0) == 0
    assert udfs_cnc.cnc_attack_damage("Hit", None, 5.0, 2.0, "Melee (armed)") == 7
    assert udfs_cnc.cnc_attack_damage("Hit", "1d8", 5.0, 0.0, "grapple") == 0
    assert udfs_cnc.cnc_attack_effect("Miss", "Grapple") == "Missed: no hold"


def test_falling_and_hit_point_udfs():
    assert udfs.falling_damage(18.0) == "3d6"
    assert udfs.falling_damage(45.0) == "10d6"
    assert udfs.falling_damage("8") == "1d6" and udfs.cnc_falling_dex_check(8.0) is True
    assert udfs.cnc_falling_dex_check(18.0) is False
    assert udfs_cnc.hp_state("cnc", -8.0) == "mortally wounded"
    assert udfs_cnc.hp_state("CNC", 0.0) == "passed out"


def test_special_ac_udfs():
    assert udfs.cnc_disarm_ac(5.0) == 23
    assert udfs.cnc_disarm_ac(5.0, 2.0) == 25
    assert udfs.cnc_grapple_ac("Grapple", True, 1.0, 2.0, 4.0, 1.0, None) == 23
    assert udfs.cnc_grapple_ac("Overbear", "FALSE", None, None, 3.0) == 15
    assert udfs.cnc_grapple_allowed("Overbear", -2.0) is False
    assert udfs.cnc_touch_ac(2.0, False, 1.0, 5.0) == 13
    assert udfs.cnc_touch_ac(2.0, 1.0) == 10


def test_movement_charge_range_subdual_udfs():
    assert udfs.cnc_movement(30.0) == 30
    assert udfs.cnc_movement(30.0, "Attack") == 15
    assert udfs.cnc_movement(30.0, "Move (run)", 0.5) == 60
    assert udfs.cnc_movement(30.0, "walk", 0.3) == cnc_movement.reduced_rate(RULES, 30, Fraction(3, 10)) == 21
    assert udfs.cnc_grid_squares(30.0) == 6
    assert udfs.cnc_charge_window(30.0, 45.0) == "Yes"
    assert udfs.cnc_charge_window(30.0, 61.0) == "Too far: at most 60 ft"
    assert udfs_cnc.cnc_range_band(10.0, 25.0) == "long"
    assert udfs_cnc.cnc_range_modifier(10.0, 25.0) == -6
    assert udfs_cnc.cnc_range_modifier(10.0, 31.0) == ""
    assert udfs.cnc_subdual_normal(7.0) == 1
    assert udfs.cnc_subdual_normal(10.0) == 2


@pytest.mark.parametrize(
    "call, start",
    [
        (lambda: udfs_cnc.cnc_attack_result(21.0, 3.0, 15.0), "#ROLL?"),
        (lambda: udfs_cnc.cnc_attack_result(10.0, 3.0, None), "#AC?"),
        (lambda: udfs_cnc.cnc_attack_need("x", 15.0), "#BONUS?"),
        (lambda: udfs_cnc.cnc_attack_damage("Crit", "1d8", 3.0), "#RESULT?"),
        (lambda: udfs_cnc.cnc_attack_damage("Hit", "1d8+0", 3.0), "#DICE?"),
        (lambda: udfs_cnc.cnc_attack_damage("Hit", "1d8", 3.0, 0.0, "Joust"), "#KIND?"),
        (lambda: udfs.falling_damage(-5.0), "#FEET?"),
        (lambda: udfs.falling_damage(7.5), "#FEET?"),
        (lambda: udfs.falling_damage(None), "#FEET?"),
        (lambda: udfs_cnc.hp_state("osr", 3.0), "#RULESET?"),
        (lambda: udfs_cnc.hp_state("cnc", None), "#HP?"),
        (lambda: udfs.cnc_disarm_ac(-1.0), "#LEVEL?"),
        (lambda: udfs.cnc_grapple_ac("Pummel", True), "#KIND?"),
        (lambda: udfs.cnc_grapple_ac("Grapple", "maybe"), "#STR PRIME?"),
        (lambda: udfs.cnc_touch_ac(1.0, "x"), "#MONSTER?"),
        (lambda: udfs.cnc_movement(0.0), "#RATE?"),
        (lambda: udfs.cnc_movement(30.0, "Fly"), "#ACTION?"),
        (lambda: udfs.cnc_movement(30.0, "walk", 2.0), "#REDUCTION?"),
        (lambda: udfs.cnc_movement(30.0, "walk", "lots"), "#REDUCTION?"),
        (lambda: udfs.cnc_charge_window(30.0, -1.0), "#DISTANCE?"),
        (lambda: udfs_cnc.cnc_range_band(0.0, 10.0), "#INCREMENT?"),
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
