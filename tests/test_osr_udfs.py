"""The osr UDFs called as xlwings calls them (floats, None for empty cells) equal the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_results, udfs
from pycalc.rulesets import osr_grappling, osr_surprise
from pycalc.tables import load_ruleset
from pycalc.udfs import osr as udfs_osr

RULES = load_ruleset("osr")


@settings(max_examples=100, deadline=None)
@given(
    roll=st.integers(1, 20),
    bonus=st.integers(-3, 8),
    target=st.integers(0, 26),
    level=st.integers(0, 20),
    follow=st.one_of(st.none(), st.integers(1, 20)),
)
def test_attack_result_and_chance_equal_the_engine(roll, bonus, target, level, follow):
    attack = generic.Attack(bonus, target, 0, level)
    got = udfs_osr.osr_attack_result(
        float(roll), float(bonus), float(target), None, float(level), follow and float(follow)
    )
    assert got == resolution_results.result(RULES, attack, roll, follow)
    assert got == udfs.d20_result("osr", float(roll), float(bonus), float(target), 0.0, float(level), follow)
    assert udfs_osr.osr_chance(float(bonus), float(target), None, float(level)) == pytest.approx(
        float(resolution_chances.hit_chance(RULES, attack))
    )
    assert udfs_osr.osr_chance(
        float(bonus), float(target), 0.0, float(level), "Hit", "Advantage"
    ) == pytest.approx(
        float(resolution_chances.hit_chance(RULES, generic.Attack(bonus, target, 0, level, advantage=True)))
    )


def test_damage_and_effect():
    assert udfs_osr.osr_nat20_penalty(20.0, 22.0, 22.0) == 2
    assert udfs_osr.osr_damage("Hit", "1d6", 5.0, 2.0, False) == 3
    assert udfs_osr.osr_damage("Critical", "1d6+1", 5.0, None, True) == 12
    assert udfs_osr.osr_damage("Miss", "1d6", None) == 0
    assert udfs_osr.osr_damage("Hit", "1d6", None) == ""
    assert udfs_osr.osr_attack_effect("Fumble", None).startswith("Critical Fumble")
    assert udfs.fumble_effect("osr", 4.0) == "fill in its table on the Criticals fumbles tables sheet"


def test_other_calculators_equal_the_engine():
    assert udfs.surprise_range(5.0, 1.0) == 4
    assert udfs.osr_surprise_chance(5.0, 1.0) == pytest.approx(4 / 6)
    assert udfs.osr_surprise_outcome(5.0, 2.0, 3.0, 6.0) == osr_surprise.surprise_outcome(RULES, 5, 2, 3, 6)
    assert udfs.mass_survivors(40.0, 4.0, 10.0) == 1
    assert udfs.mass_survivors(40.0, 8.0, None) == 2
    assert udfs.osr_mass_damage(3.0, None) == 30
    assert udfs.osr_expected_kills(8.0, 7.0, "1d6+1", None) == pytest.approx(5.6)
    assert udfs.osr_attacks_vs_normal_men("monster", 6.0) == 6
    assert udfs.osr_grapple_result(11.0, 7.0) == osr_grappling.grapple_result(RULES, 11, 7)
    assert udfs.osr_grapple_stun_rounds(11.0, 7.0) == 4
    assert udfs.osr_level_gap_save_bonus(7.0, 1.0) == 2
    assert udfs.osr_maneuver_save_modifier("polearm_dismount", 10.0, 1.0, None) == 3
    assert udfs.osr_spell_interruption("simultaneous_initiative", "Failed", 6.0) == "Spell miscast"
    assert udfs.osr_spell_interruption("caster_won_initiative", None, None).startswith("The spell goes off")


@pytest.mark.parametrize(
    "call",
    [
        lambda: udfs_osr.osr_attack_result(21.0, 0.0, 10.0),
        lambda: udfs_osr.osr_attack_result(10.0, 0.0, None),
        lambda: udfs_osr.osr_attack_result(1.0, 0.0, 10.0, 0.0, -1.0, 5.0),
        lambda: udfs_osr.osr_attack_result(1.5, 0.0, 10.0),
        lambda: udfs_osr.osr_chance(0.0, 10.0, 0.0, 0.0, "Hit", "sideways"),
        lambda: udfs_osr.osr_damage("Bounce", "1d6", 3.0),
        lambda: udfs_osr.osr_damage("Hit", "1d6", 7.0),
        lambda: udfs_osr.osr_damage("Hit", "banana", 3.0),
        lambda: udfs.surprise_range(9.0, 2.0),
        lambda: udfs.surprise_range("x", 2.0),
        lambda: udfs.mass_survivors(0.0, 0.0, 10.0),
        lambda: udfs.osr_mass_damage(7.0, 10.0),
        lambda: udfs.osr_expected_kills(-1.0, 7.0, "1d6"),
        lambda: udfs.osr_attacks_vs_normal_men("dragon", 3.0),
        lambda: udfs.osr_level_gap_save_bonus(-1.0, 3.0),
        lambda: udfs.osr_maneuver_save_modifier("backstab_multiple_attacks", 3.0, 1.0),
        lambda: udfs.osr_spell_interruption("asleep"),
        lambda: udfs.osr_spell_interruption("simultaneous_initiative", "Maybe"),
        lambda: udfs.osr_grapple_result(None, 3.0),
    ],
)
def test_bad_input_returns_a_message_never_raises(call):
    got = call()
    assert isinstance(got, str) and got.startswith("#"), got


def test_hit_chance_is_every_hit():
    assert udfs_osr.osr_hit_chance(0.0, 11.0) == udfs_osr.osr_chance(0.0, 11.0, None, None, "Hit")
    assert udfs_osr.osr_hit_chance(2.0, 15.0, 1.0, 3.0, "Advantage") == udfs_osr.osr_chance(
        2.0, 15.0, 1.0, 3.0, "Hit", "Advantage"
    )
