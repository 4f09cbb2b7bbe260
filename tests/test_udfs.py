"""The xlwings UDFs called as Excel calls them: floats for numbers, None for empty cells."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import udfs
from pycalc.rulesets import spelljammer as engine
from pycalc.rulesets.spelljammer_calculator import StrikeInputs, outputs
from pycalc.tables import load_ruleset

RULES = load_ruleset("spelljammer")
UDF_NAMES = [
    name
    for name, f in inspect.getmembers(udfs, inspect.isfunction)
    if f.__module__.startswith(f"{udfs.__name__}.") and hasattr(f, "__wrapped__")
]

any_cell = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.integers(-(10**6), 10**6),
    st.lists(st.floats(), max_size=3),
)


@settings(max_examples=100, deadline=None)
@given(st.integers(-50, 300), st.integers(-50, 300), st.integers(1, 100), st.integers(-60, 60))
def test_strike_udfs_equal_the_engine(sc: int, def_value: int, roll: int, mods: int):
    engine = outputs(
        RULES, StrikeInputs(sc=sc, defense=def_value, con=10, hp=10, start_hp=10, mods=mods, roll=roll)
    )
    args = (float(sc), float(def_value))
    assert udfs.strike_target(*args, float(mods)) == engine["STRIKE_MODIFIED_SC"]
    assert udfs.strike_crit_max(float(engine["STRIKE_MODIFIED_SC"])) == engine["STRIKE_CRITICAL_UP_TO"]
    assert udfs.strike_grievous_max(float(engine["STRIKE_MODIFIED_SC"])) == engine["STRIKE_GRIEVOUS_UP_TO"]
    assert udfs.strike_result(*args, float(roll), float(mods)) == engine["STRIKE_OUTCOME"]
    assert udfs.strike_hit_chance(*args, float(mods)) == float(engine["STRIKE_CHANCE_TO_HIT"])
    assert udfs.strike_chance(*args, "critical", float(mods)) == float(engine["STRIKE_CRIT_CHANCE"])


def test_empty_optional_cells_use_the_defaults():
    assert udfs.strike_target(112.0, 40.0, None) == 72
    assert udfs.strike_result(112.0, 40.0, 9.0, None) == "Critical"
    assert udfs.stun_threshold(24.0, None, None) == 24
    assert udfs.is_stunned(25.0, 24.0, None, None) is True
    assert udfs.strike_hp_loss(12.0, None, "Hit") == 12


def test_stun_wound_and_action_udfs_equal_the_engine():
    for con in (10.0, 25.0, 26.0, 35.0, 36.0):
        for size in ("Tiny", "Medium", "Large", "Giant"):
            for max_hp in (0.0, 100.0, 101.0, 250.0):
                expected = engine.stun_threshold(RULES, int(con), size, int(max_hp))
                assert udfs.stun_threshold(con, size, max_hp) == expected
                assert udfs.is_stunned(float(expected), con, size, max_hp) is False
                assert udfs.is_stunned(float(expected + 1), con, size, max_hp) is True
    for hp in range(-5, 40):
        for start in (4.0, 8.0, 18.0, 30.0):
            assert udfs.wound_modifier(float(hp), start) == engine.wound_modifier(RULES, hp, int(start))
    assert (
        udfs.full_defense(30.0, 5.0),
        udfs.desperate_defense(30.0, 5.0),
        udfs.defending_bonus(25.0, 5.0),
    ) == (48, 63, 12)
    assert (udfs.cast_time(8.0, "SK"), udfs.spell_goes_off(9.0, 6.0), udfs.spell_goes_off(-1.0, 6.0)) == (
        6,
        3,
        "Next round on 4",
    )
    assert udfs.shooting_target(20.0, 5.0, None, "Normal", 1.0, 1.0) == "Friend"


def test_bad_arguments_say_what_is_wrong():
    assert udfs.stun_threshold(20.0, "Huge") == "#SIZE? use Tiny, Small, Medium, Large or Giant"
    assert udfs.strike_result(112.0, 40.0, 101.0) == "#ROLL? 1 to 100 (00 = 100)"
    assert udfs.strike_result(112.0, 40.0, 0.0) == udfs.strike_result(112.0, 40.0, 100.0)  # 00 is 100
    assert (
        udfs.strike_result(112.0, 40.0, 0.5)
        == "#ROLL? roll: a whole number from -1,000,000,000 to 1,000,000,000"
    )
    assert (
        udfs.strike_result(None, 40.0, 5.0) == "#SC? sc: a whole number from -1,000,000,000 to 1,000,000,000"
    )
    assert (
        udfs.strike_result("lots", 40.0, 5.0)
        == "#SC? sc: a whole number from -1,000,000,000 to 1,000,000,000, not 'lots'"
    )
    assert udfs.strike_chance(1.0, 1.0, "Fumble") == "#RESULT? use Miss, Hit, Critical, Grievous"
    assert udfs.cast_time(30.0, "GK") == "#RANK? 1 to 22"
    assert udfs.defending_bonus(30.0, 5.0) == "#MAX? rank 5 sacrifices at most 25 SC"
    assert udfs.strike_results([[112.0, 40.0, 9.0], [1.0, 2.0, None]]) == [
        ["Critical"],
        ["#ROLL? roll: a whole number from -1,000,000,000 to 1,000,000,000"],
    ]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(UDF_NAMES), st.lists(any_cell, min_size=0, max_size=9))
def test_no_udf_raises_whatever_the_cells_hold(name: str, cells: list):
    function = getattr(udfs, name)
    arity = len(inspect.signature(function).parameters)
    value = function(*(cells + [None] * arity)[:arity])  # a missing argument arrives as an empty cell
    assert isinstance(value, (int, float, str, bool, list))
    if isinstance(value, str) and value.startswith("#"):
        assert "Traceback" not in value and len(value) <= 120


def test_every_udf_has_a_description_for_the_function_wizard():
    for name in UDF_NAMES:
        assert (getattr(udfs, name).__doc__ or "").strip(), name


@pytest.mark.parametrize(
    "prefix, first",
    [
        *(("d20_", (ruleset, 3, 15)) for ruleset in ("cnc", "osr", "combat17", "bfrpg")),
        ("", (60, 40)),  # spelljammer: SC and DEF
    ],
)
def test_no_attack_does_no_damage_in_every_ruleset(prefix: str, first: tuple):
    """attacks = 0 is a round without an attack: 0 expected damage, no chance to drop a standing target
    (and certainty for one already at 0), the same in every ruleset; below 0 is a message."""
    expected, kill = getattr(udfs, f"{prefix}expected_damage"), getattr(udfs, f"{prefix}kill_chance")
    assert expected(*first, "1d8", attacks=0) == 0.0
    assert kill(*first, "1d8", 5, 0) == 0.0
    assert kill(*first, "1d8", 0, 0) == 1.0
    assert str(expected(*first, "1d8", attacks=-1)).startswith("#ATTACKS?")


@given(
    st.integers(min_value=-50, max_value=250),
    st.integers(min_value=-20, max_value=20),
    st.integers(min_value=0, max_value=12),
    st.sampled_from([str(r.label) for r in RULES.table("shooter_training").rows]),
    st.sampled_from([(r["friends"], r["opponents"]) for r in RULES.table("shooting_into_melee").rows]),
)
@settings(max_examples=80, deadline=None)
def test_00_typed_as_0_reads_100_in_every_d100_udf(
    sc: int, mods: int, rank: int, training: str, situation: tuple[int, int]
):
    """Excel hands a typed 00 (or 0) over as 0.0: every UDF taking the d100 reads it as 100."""
    friends, opponents = (float(n) for n in situation)
    assert udfs.strike_result(float(sc), 40.0, 0.0, float(mods)) == udfs.strike_result(
        float(sc), 40.0, 100.0, float(mods)
    )
    assert udfs.strike_results([[float(sc), 40.0, 0.0, float(mods)]]) == udfs.strike_results(
        [[float(sc), 40.0, 100.0, float(mods)]]
    )
    assert udfs.shooting_target(0.0, float(rank), 0.0, training, friends, opponents) == udfs.shooting_target(
        100.0, float(rank), 0.0, training, friends, opponents
    )
