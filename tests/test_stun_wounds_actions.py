"""Stun, wound modifiers, defense options, casting time and shooting into melee: seed examples."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc.errors import RuleError
from pycalc.rulesets import spelljammer as engine
from pycalc.tables import load_ruleset

RULES = load_ruleset("spelljammer")


def with_ruling(ruling_id: str, choice: str):
    return dataclasses.replace(RULES, chosen={ruling_id: choice})


def test_stun_up_to_human_max_is_con():
    assert engine.stun_threshold(RULES, 14) == 14
    assert engine.stun_threshold(RULES, 25) == 25
    assert engine.is_stunned(RULES, 15, 14) and not engine.is_stunned(RULES, 14, 14)


def test_stun_table_above_25():
    assert [engine.stun_threshold(RULES, c) for c in range(26, 36)] == list(range(27, 47, 2))


def test_stun_above_the_table_continues_by_default_or_caps():
    assert engine.stun_threshold(RULES, 36) == 47 == 2 * 36 - 25
    assert engine.stun_threshold(RULES, 40) == 55
    assert engine.stun_threshold(with_ruling("stun_above_table", "cap"), 40) == 45


def test_stun_size_and_hit_points_add_to_con_first():
    assert engine.stun_threshold(RULES, 24, "Large") == 27  # 26 read on the table
    assert engine.stun_threshold(RULES, 24, "giant") == 31  # 28; sizes are case-insensitive
    assert engine.hit_point_bonus(RULES, 100) == 0
    assert engine.hit_point_bonus(RULES, 101) == 1  # "or fraction thereof"
    assert engine.hit_point_bonus(RULES, 110) == 1
    assert engine.hit_point_bonus(RULES, 111) == 2
    assert engine.stun_threshold(RULES, 24, "Giant", 150) == 41  # 24 + 4 + 5 = 33


def test_unknown_size_is_a_clear_error():
    with pytest.raises(RuleError, match=r"^#SIZE\? use Tiny, Small, Medium, Large or Giant$"):
        engine.stun_threshold(RULES, 10, "Huge")


def test_wound_tiers_and_the_starting_hp_exception():
    assert [engine.wound_modifier(RULES, hp, 40) for hp in (21, 20, 11, 10, 6, 5, 0, -3)] == [
        0,
        -10,
        -10,
        -20,
        -20,
        -30,
        -30,
        -30,
    ]
    # "if your starting hit points are 18, then you have no modifier for being under 20 hit points,
    #  but when you reach 10 or less hit points, you have the normal -20 modifier."
    assert engine.wound_modifier(RULES, 18, 18) == 0
    assert engine.wound_modifier(RULES, 11, 18) == 0
    assert engine.wound_modifier(RULES, 10, 18) == -20
    assert engine.wound_modifier(RULES, 5, 18) == -30
    assert engine.wound_modifier(RULES, 6, 8) == 0 and engine.wound_modifier(RULES, 5, 8) == -30
    assert engine.wound_modifier(RULES, 1, 4) == 0  # already in the last tier: never a modifier


@settings(max_examples=100, deadline=None)
@given(st.integers(-20, 200), st.integers(1, 200))
def test_wound_modifier_never_worse_than_the_plain_tier(hp: int, start: int):
    plain = engine.wound_modifier(RULES, hp, 10_000)
    assert plain <= engine.wound_modifier(RULES, hp, start) <= 0


def test_defense_options_seed_examples():
    # "if the combatant is rank 5 ... total bonus to DEF of +18. If his normal DEF was 30 ... 48"
    assert engine.full_defense(RULES, 30, 5) == 48
    assert engine.desperate_defense(RULES, 30, 5) == 63
    # "if you sacrifice 25 from SC, your defense improves by 12, not by 13"
    assert engine.defending_bonus(RULES, 25, 5) == 12
    assert engine.defending_bonus(RULES, 20, 4) == 10
    with pytest.raises(RuleError, match="at most 25 SC"):
        engine.defending_bonus(RULES, 26, 5)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.integers(-50, 150))
def test_defense_order(rank: int, def_value: int):
    best_defending = engine.defending_bonus(RULES, engine.max_sacrifice(RULES, rank), rank)
    full = engine.full_defense(RULES, def_value, rank)
    assert def_value + best_defending < full < engine.desperate_defense(RULES, def_value, rank)


def test_casting_time_seed_examples():
    assert engine.cast_time(RULES, 8, "SK") == 6
    assert engine.spell_goes_off(RULES, 9, 6) == 3
    assert engine.spell_goes_off(RULES, 2, 6) == -4
    assert engine.spell_goes_off(RULES, 8, 5) == 3  # the cleric example
    assert engine.spell_goes_off(RULES, 3, 5) == -2
    assert [engine.cast_time(RULES, r, "gk") for r in (1, 5, 6, 10, 11, 15, 16, 20, 21, 22)] == [
        6,
        6,
        5,
        5,
        4,
        4,
        3,
        3,
        2,
        1,
    ]
    with pytest.raises(RuleError, match=r"#RANK\? 1 to 22"):
        engine.cast_time(RULES, 23, "GK")
    with pytest.raises(RuleError, match=r"#KIND\? use GK or SK"):
        engine.cast_time(RULES, 3, "XK")


def test_late_spell_ruling():
    assert engine.spell_goes_off(RULES, 0, 5) == -5
    assert engine.spell_goes_off(RULES, 0, 6) == "Next round on 4"
    assert engine.spell_goes_off(with_ruling("late_spell", "lost"), 0, 6) == "Lost"


def test_shooting_into_melee():
    assert engine.targets_friend(RULES, 20, 5, 0, "Normal", 1, 1)  # 25 <= 30
    assert not engine.targets_friend(RULES, 26, 5, 0, "Normal", 1, 1)  # 31
    assert not engine.targets_friend(RULES, 6, 30, 0, "Normal", 1, 1)
    assert engine.targets_friend(RULES, 5, 30, 0, "Normal", 1, 1)  # 05 or less always a friend
    assert not engine.targets_friend(RULES, 4, 30, 0, "Specialist", 1, 1)
    assert engine.targets_friend(RULES, 1, 30, 5, "Double specialist", 3, 2)
    assert engine.shooting_total(RULES, 40, 5, 3, "Specialist") == 56
    with pytest.raises(RuleError, match="#SITUATION"):
        engine.friend_on(RULES, 2, 2)
