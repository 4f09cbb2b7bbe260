"""The combat17 UDFs called as xlwings calls them (floats, None for empty cells) equal the engine."""

from __future__ import annotations

import inspect

from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import d20_engines, udfs
from pycalc.d20 import Attack
from pycalc.registry import SHIPPED
from pycalc.rulesets import combat17 as c17
from pycalc.rulesets import combat17_subdual
from pycalc.tables import load_ruleset

RULES = load_ruleset("combat17")
UDF_MODULES = SHIPPED["combat17"].udfs
UDFS = [
    f
    for module in UDF_MODULES
    for name, f in inspect.getmembers(module, inspect.isfunction)
    if name.startswith("combat17_") and f.__module__ == module.__name__
]

any_cell = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.integers(-(10**6), 10**6),
    st.lists(st.floats(), max_size=3),
)


def test_every_udf_is_exported_and_prefixed():
    assert sorted(f.__name__ for f in UDFS) == sorted(n for module in UDF_MODULES for n in module.__all__)
    assert len(UDFS) == 7  # the subsystems (its attack and its charts are the shared functions)


def test_the_attack_is_the_shared_functions_with_the_situation_picked_by_name():
    """What combat17's own functions took as arguments (barred, the multiplier, the condition roll) is
    the situation picked by name, or the chart roll; their agreement with the calculator is
    tests/test_shared_attack_udfs.py's."""
    barred = "needs magic or silver"
    assert udfs.d20_hit_chance("combat17", 30.0, 10.0, picks=barred) == 0
    assert udfs.d20_result("combat17", 20.0, 3.0, 15.0, picks=barred) == "Miss"
    assert udfs.d20_result("combat17", 1.0, 3.0, 15.0, 0.0, 0.0, 3.0, barred) == "Fumble"  # still
    assert udfs.d20_damage("combat17", 12.0, 3.0, 15.0, "1d8+1", 4.0) == 5
    assert udfs.d20_damage("combat17", 12.0, 3.0, 15.0, "1d8+1", 4.0, picks="charge") == 10  # doubled
    assert udfs.d20_damage("combat17", 12.0, 3.0, 15.0, "1d8+1", 4.0, damage_bonus=2.0) == 7
    assert udfs.d20_damage("combat17", 20.0, 3.0, 15.0, "1d8+1", 4.0) == ""  # the chart roll first
    shaken = "Critical Damage (see above) plus roll on the chart below; Enemy is Shaken: -2 to hit, Saves, DC checks"
    assert udfs.d20_effect("combat17", 20.0, 3.0, 15.0, 0.0, 0.0, 20.0, 2.0) == shaken
    assert udfs.d20_effect("combat17", 20.0, 3.0, 15.0, 0.0, 0.0, 20.0, 5.0) == "#CHART ROLL? 1 to 4"
    assert udfs.d20_effect("combat17", 12.0, 3.0, 15.0) == ""  # a plain hit: no chart line


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.integers(1, 20), st.integers(-3, 4))
def test_the_shared_damage_of_a_natural_20_is_the_chart_rows_outcome(shown, follow, modifier):
    """What the removed combat17_damage and combat17_crit_damage gave: d20_damage on a natural 20 with
    the follow-up roll of the chart row (regular 1-10, maximum 11-15, critical 16-20)."""
    dice = f"2d4{modifier:+d}" if modifier else "2d4"
    cell = float(shown) if shown >= 2 else None
    outcome = RULES.table("critical_hits").band(follow)["damage"]
    pending = cell is None and RULES.table("outcomes").entry(outcome)["rolled_dice"]
    expected = (
        "" if pending else c17.damage(RULES, outcome, c17.parse_dice(dice), None if cell is None else shown)
    )
    assert udfs.d20_damage("combat17", 20.0, 0.0, 10.0, dice, cell, 0.0, float(follow)) == expected


def test_chart_and_other_udfs():
    assert udfs.crit_effect("combat17", 20.0) == c17.crit_effect(RULES, 20)
    assert udfs.fumble_effect("combat17", 4.0) == c17.fumble_effect(RULES, 4)
    assert (
        udfs.d20_check("combat17", 1.0, 0.0, 10.0, 18.0, 1.0, 4.0)
        == "DEX check failed (19 vs DC 20): -1 to combat rolls for 1d2 rounds"
    )
    assert udfs.d20_check("combat17", 1.0, 0.0, 10.0, None, 0.0, 8.0) == "DEX check DC 15: roll it"
    assert udfs.d20_check("combat17", 1.0, 0.0, 10.0, 21.0, 0.0, 8.0) == "#CHECK ROLL? 1 to 20"
    assert udfs.combat17_shots("Light crossbow", 6.0) == 3
    assert udfs.combat17_shots("Siege weapon (its own rate)", 12.0, 6.0) == 2
    assert udfs.combat17_scatter(5.0) == "Left"
    assert udfs.combat17_scatter_feet(1.0, "toward") == 20
    assert udfs.combat17_brawl_need("Kick", 2.0, 12.0, None) == 12
    assert udfs.combat17_brawl_damage("Punch", 3.0, 2.0) == 5
    assert udfs.combat17_subdual_damage(7.0) == 3
    assert udfs.combat17_subdual_state(3.0, 7.0, True, None, None) == combat17_subdual.UNCONSCIOUS


def test_bad_arguments_say_what_is_wrong():
    assert udfs.d20_result("combat17", 21.0, 3.0, 15.0) == "#ROLL? 1 to 20"
    assert udfs.d20_result("combat17", 20.0, 3.0, 15.0, 0.0, 0.0, 0.0) == "#FOLLOW ROLL? 1 to 20"
    assert (
        udfs.d20_result("combat17", 12.5, 3.0, 15.0)
        == "#ROLL? roll: a whole number from -1,000,000,000 to 1,000,000,000"
    )
    assert udfs.d20_damage("combat17", 20.0, 0.0, 10.0, "2x4", 3.0, 0.0, 12.0).startswith("#DICE?")
    assert udfs.d20_damage("combat17", 20.0, 0.0, 10.0, "1d6", 9.0, 0.0, 5.0) == "#DAMAGE ROLL? 1 to 6"
    assert udfs.d20_chance("combat17", "Grievous", 1.0, 10.0).startswith("#RESULT?")
    assert udfs.combat17_shots("Trebuchet", 3.0).startswith(
        "#WEAPON? one of Bow (most missile weapons), Thrown weapon"
    )
    assert udfs.combat17_scatter_feet(3.0, "up").startswith("#AXIS?")
    assert (
        udfs.d20_hit_chance("combat17", 1.0, 10.0, 0.0, 0.0, "maybe")
        == "#PICKS? a name not in the list, or two of one kind"
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(any_cell, min_size=0, max_size=7))
def test_no_udf_raises_into_a_cell(cells):
    for function in UDFS:
        count = len(inspect.signature(function).parameters)
        value = function(*(cells + [None] * count)[:count])
        assert value is None or isinstance(value, (int, float, str, bool))


def test_the_shared_hit_chance_is_the_engine_s():
    for bonus in range(-5, 25, 3):
        assert udfs.d20_hit_chance("combat17", float(bonus), 15.0) == float(
            d20_engines.hit_chance("combat17", Attack(bonus, 15))
        )
