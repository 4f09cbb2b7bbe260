"""The d100 strike engine: the seed's own examples, the rulings, and properties over many inputs."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc.errors import RuleError
from pycalc.rulesets import spelljammer as strike
from pycalc.tables import load_ruleset

RULES = load_ruleset("spelljammer")


def result(modified: int, roll: int) -> str:
    return strike.resolve(RULES, modified, roll).label


def test_seed_example_sc_112_def_40():
    # "if you have a SC of 112, and the target has a DEF of 40, you need to roll a 72 or less to hit.
    #  If you roll an 11 or less, it is a critical hit. If you roll a 4 or less, it is a grievous hit."
    modified = strike.modified_sc(112, 40)
    assert modified == 72
    assert strike.critical_max(RULES, modified) == 11
    assert strike.grievous_max(RULES, modified) == 4
    assert [result(72, r) for r in (4, 5, 11, 12, 72, 73)] == [
        "Grievous",
        "Critical",
        "Critical",
        "Hit",
        "Hit",
        "Miss",
    ]


def test_table_governs_as_printed_at_the_24_28_29_36_boundary():
    assert (strike.critical_max(RULES, 28), strike.grievous_max(RULES, 28)) == (4, 1)
    assert (strike.critical_max(RULES, 29), strike.grievous_max(RULES, 29)) == (5, 2)


def test_every_band_edge_of_the_critical_grievous_table():
    for row in RULES.table("critical_grievous").rows:
        for edge in (row.low, row.high if row.high is not None else 400):
            assert strike.critical_max(RULES, edge) == row["critical_max"]
            assert strike.grievous_max(RULES, edge) == row["grievous_max"]
    assert strike.critical_max(RULES, 0) == strike.grievous_max(RULES, 0) == 0
    assert strike.critical_max(RULES, -50) == 0


def test_automatic_results_override_the_table():
    # 96-100 always miss, even against a modified SC of 200
    assert {result(200, r) for r in range(96, 101)} == {"Miss"}
    # 01 grievous, 02 at least critical, 03 at least hit, even at modified SC 0 or below
    assert [result(-30, r) for r in (1, 2, 3, 4)] == ["Grievous", "Critical", "Hit", "Miss"]
    # 02 against modified SC 5 (table: critical only on 01) is still a critical
    assert result(5, 2) == "Critical"
    # 01 at modified SC 9 (no grievous by the table) is a grievous hit
    assert result(9, 1) == "Grievous"


def test_distribution_at_modified_sc_72():
    odds = strike.distribution(RULES, 72)
    assert odds == {
        "miss": Fraction(28, 100),
        "hit": Fraction(61, 100),
        "critical": Fraction(7, 100),
        "grievous": Fraction(4, 100),
    }
    assert strike.hit_chance(RULES, 72) == Fraction(72, 100)


def test_hit_chance_bounds_come_from_the_automatic_results():
    assert strike.hit_chance(RULES, -100) == Fraction(3, 100)  # only 01, 02, 03
    assert strike.hit_chance(RULES, 500) == Fraction(95, 100)  # 96-100 always miss


def test_damage_after_prot_and_doubling():
    hit, critical, grievous, miss = (
        strike.outcome_named(RULES, n) for n in ("Hit", "Critical", "Grievous", "Miss")
    )
    assert strike.damage_taken(RULES, 12, 3, hit) == 9
    assert strike.damage_taken(RULES, 2, 3, hit) == 0  # PROT never heals
    assert strike.damage_taken(RULES, 12, 3, critical) == 24  # double, no PROT
    assert strike.damage_taken(RULES, 12, 3, grievous) == 24
    assert strike.damage_taken(RULES, 12, 3, miss) == 0
    assert grievous.prot_wear == 1 and critical.prot_wear == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(-300, 400), st.integers(1, 100))
def test_result_is_monotone_in_the_roll(modified: int, roll: int):
    """A lower roll is never a worse outcome, except the automatic miss at 96-100."""
    if roll > 1:
        assert strike.resolve(RULES, modified, roll - 1).rank >= strike.resolve(RULES, modified, roll).rank


@settings(max_examples=100, deadline=None)
@given(st.integers(-300, 400))
def test_distribution_is_exact_and_monotone_in_modified_sc(modified: int):
    odds = strike.distribution(RULES, modified)
    assert sum(odds.values()) == 1
    assert all(p.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) for p in odds.values())
    assert strike.hit_chance(RULES, modified + 1) >= strike.hit_chance(RULES, modified)
    crit_or_better = odds["critical"] + odds["grievous"]
    assert crit_or_better == Fraction(max(strike.critical_max(RULES, modified), 2), 100)


@settings(max_examples=100, deadline=None)
@given(st.integers(-300, 400), st.integers(1, 100))
def test_result_matches_brute_force_reading_of_the_rules(modified: int, roll: int):
    """An independent reading: automatic results first, then the bands."""
    if roll >= 96:
        expected = "Miss"
    elif roll == 1:
        expected = "Grievous"
    elif roll == 2:
        expected = "Grievous" if roll <= strike.grievous_max(RULES, modified) else "Critical"
    else:
        bands = [
            ("Grievous", strike.grievous_max(RULES, modified)),
            ("Critical", strike.critical_max(RULES, modified)),
            ("Hit", max(modified, 3 if roll == 3 else modified)),
        ]
        expected = next((name for name, top in bands if roll <= top), "Miss")
    assert result(modified, roll) == expected


@given(st.integers(min_value=-50, max_value=250))
@settings(max_examples=60, deadline=None)
def test_00_on_the_d100_is_100(modified: int):
    """A d100 shows 00 for 100; typed as 0 (or 00) it reads 100, in the strike and the shot into melee."""
    assert result(modified, 0) == result(modified, 100)
    assert strike.shooting_total(RULES, 0, 2, 1, "normal") == strike.shooting_total(
        RULES, 100, 2, 1, "normal"
    )


def test_check_roll_reads_00_as_the_highest_face_and_refuses_the_rest():
    faces = strike.die_faces(RULES)
    assert [strike.check_roll(RULES, r) for r in (0, 1, 5, faces)] == [faces, 1, 5, faces]
    for bad in (-1, faces + 1):
        with pytest.raises(RuleError, match=re.escape(f"#ROLL? 1 to {faces} (00 = {faces})")):
            strike.check_roll(RULES, bad)


@given(
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=0, max_value=4),
    st.sampled_from([str(r.label) for r in RULES.table("shooter_training").rows]),
    st.sampled_from([(r["friends"], r["opponents"]) for r in RULES.table("shooting_into_melee").rows]),
)
@settings(max_examples=80, deadline=None)
def test_00_on_the_shot_into_melee_is_100(
    weapon_rank: int, master: int, training: str, situation: tuple[int, int]
):
    """The friend-or-foe d100: 0 (the die's 00) targets whom 100 targets."""
    friends, opponents = situation
    at_zero = strike.targets_friend(RULES, 0, weapon_rank, master, training, friends, opponents)
    at_hundred = strike.targets_friend(RULES, 100, weapon_rank, master, training, friends, opponents)
    assert at_zero == at_hundred
