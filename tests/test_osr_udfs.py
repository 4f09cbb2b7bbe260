"""osr's attack by the shared functions and its own subsystems' UDFs, called as xlwings calls them
(floats, None for empty cells), equal the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_results, udfs
from pycalc.rulesets import osr_grappling
from pycalc.tables import load_ruleset

RULES = load_ruleset("osr")


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    roll=st.integers(1, 20),
    bonus=st.integers(-3, 8),
    target=st.integers(0, 26),
    level=st.integers(0, 20),
    follow=st.one_of(st.none(), st.integers(1, 20)),
)
def test_the_shared_result_and_chance_equal_the_engine(roll, bonus, target, level, follow):
    """The shared functions against the generic engine itself (their agreement with the calculator,
    picks included, is tests/test_shared_attack_udfs.py's)."""
    attack = generic.Attack(bonus, target, 0, level)
    got = udfs.d20_result(
        "osr", float(roll), float(bonus), float(target), None, float(level), follow and float(follow)
    )
    assert got == resolution_results.result(RULES, attack, roll, follow)
    assert udfs.d20_hit_chance("osr", float(bonus), float(target), None, float(level)) == pytest.approx(
        float(resolution_chances.hit_chance(RULES, attack)), abs=1e-12
    )


def test_osr_s_situation_is_picked_by_name():
    """What osr's own functions took as arguments (the kept d20, double damage, a magic weapon needed,
    the natural-20 penalty) is the situation picked, or the calculator's own rule."""
    assert udfs.d20_hit_chance("osr", 0.0, 11.0) == 0.5
    assert udfs.d20_hit_chance("osr", 0.0, 11.0, picks="attacker disadvantage") == 0.25
    assert udfs.d20_hit_chance("osr", 0.0, 11.0, picks="magic weapon needed") == 0
    assert udfs.d20_expected_damage("osr", None, 11.0, "1d6+1") == 2.25  # hits on 11-20, 4.5 a hit
    assert udfs.d20_damage("osr", 20.0, 0.0, 22.0, "1d6", 5.0) == 3  # a natural 20 needing 22: 2 less
    assert udfs.d20_damage("osr", 20.0, 0.0, 22.0, "1d6+1", 4.0, picks="charging") == 10  # (4 + 1) x 2
    assert udfs.d20_damage("osr", 2.0, 0.0, 10.0, "1d6", 5.0) == 0
    assert udfs.d20_damage("osr", 15.0, 0.0, 10.0, "1d6", None) == ""
    assert udfs.d20_chance("osr", "Fumble", 0.0, 10.0, 0.0, 5.0) == pytest.approx(1 / 20 * 15 / 20)
    assert udfs.d20_effect("osr", 1.0, 0.0, 10.0, 0.0, 0.0, 5.0, 7.0) == (
        "fill in its table on the Criticals fumbles tables sheet"
    )
    assert udfs.fumble_effect("osr", 4.0) == "fill in its table on the Criticals fumbles tables sheet"


def test_other_calculators_equal_the_engine():
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
        lambda: udfs.d20_result("osr", 21.0, 0.0, 10.0),
        lambda: udfs.d20_result("osr", 10.0, 0.0, None),
        lambda: udfs.d20_result("osr", 1.0, 0.0, 10.0, 0.0, -1.0, 5.0),
        lambda: udfs.d20_result("osr", 1.5, 0.0, 10.0),
        lambda: udfs.d20_chance("osr", "Sideways", 0.0, 10.0),
        lambda: udfs.d20_hit_chance("osr", 0.0, 10.0, picks="sideways"),
        lambda: udfs.d20_damage("osr", 15.0, 0.0, 10.0, "1d6", 7.0),
        lambda: udfs.d20_damage("osr", 15.0, 0.0, 10.0, "banana", 3.0),
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
