"""The Castles & Crusades engine: the seed's worked examples, its rulings, and properties."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import d20, d20_engines
from pycalc.errors import RuleError
from pycalc.hit_point_states import hit_point_state
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.resolution_range import OUT_OF_RANGE
from pycalc.rulesets import cnc, cnc_falling, cnc_movement, cnc_special_ac, cnc_subdual
from pycalc.tables import RuleSet, load_ruleset

RULES = load_ruleset("cnc")


def ruled(**chosen: str) -> RuleSet:
    return dataclasses.replace(RULES, chosen=chosen)


# --------------------------------------------------------------------------- the seed's examples


@pytest.mark.parametrize("row", RULES.table("falling_damage_examples").rows, ids=lambda r: r.id)
def test_falling_damage_matches_the_seeds_worked_examples(row):
    assert cnc_falling.falling_damage(RULES, row["height_ft"]) == row["damage"]  # 18 ft -> 3d6, 45 ft -> 10d6


def test_falling_complete_increments_are_triangular():
    assert [cnc_falling.falling_damage(RULES, f) for f in (20, 30, 40, 50)] == ["3d6", "6d6", "10d6", "15d6"]


@pytest.mark.parametrize("feet", [6, 7, 10])
def test_six_to_ten_feet_is_a_dex_check_for_1d6(feet):
    assert cnc_falling.falling(RULES, feet) == cnc_falling.Fall("1d6", True)


def test_short_falls_and_the_five_foot_ruling():
    assert cnc_falling.falling(RULES, 4) == cnc_falling.Fall("0", False)
    assert cnc_falling.falling(RULES, 5) == cnc_falling.Fall("0", False)
    assert cnc_falling.falling(ruled(falling_five_feet="dex_check"), 5) == cnc_falling.Fall("1d6", True)
    assert cnc_falling.falling(ruled(falling_five_feet="dex_check"), 4) == cnc_falling.Fall("0", False)


def test_partial_increment_rulings():
    assert cnc_falling.falling_damage(RULES, 15) == "1d6" and cnc_falling.falling_damage(RULES, 16) == "3d6"
    assert cnc_falling.falling_damage(ruled(falling_partial_increment="round_up"), 45) == "15d6"
    assert cnc_falling.falling_damage(ruled(falling_partial_increment="round_up"), 11) == "3d6"
    assert cnc_falling.falling_damage(ruled(falling_partial_increment="round_down"), 18) == "1d6"
    assert cnc_falling.falling_damage(ruled(falling_partial_increment="round_down"), 45) == "10d6"


def test_disarm_example_ranger_against_5_hit_dice():
    assert cnc_special_ac.disarm_ac(RULES, 5) == 23
    assert cnc_special_ac.disarm_ac(RULES, 5, 2) == 25
    assert cnc_special_ac.disarm_ac(RULES, 5, -2) == 23
    assert cnc_special_ac.disarm_ac(ruled(disarm_dex="modifier"), 5, -2) == 21


def test_charge_example_una():
    """Una, base 30 ft (jog 60 ft), may charge an orc at least 30 feet away but no more than 60."""
    assert cnc_movement.charge_window(RULES, 30) == (30, 60)
    assert [cnc_movement.charge_verdict(RULES, 30, d) for d in (29, 30, 60, 61)] == [
        "Too close: at least 30 ft",
        "Yes",
        "Yes",
        "Too far: at most 60 ft",
    ]


def test_chain_mail_example_and_touch_ac():
    base = RULES.constant("armor_class", "base_ac")
    assert base + RULES.constant("armor_class", "chain_mail_example") == 15
    assert cnc_special_ac.touch_ac(RULES, dex=2, magic=1, armor=5, shield=1) == 13
    assert cnc_special_ac.touch_ac(RULES, dex=2, monster=True, magic=1, armor=5) == 10
    assert cnc_special_ac.touch_ac(RULES, dex=-12) == 1  # "never below 1"


@pytest.mark.parametrize(
    "hp, state",
    [(5, "able to act"), (1, "able to act"), (0, "passed out"), (-1, "unconscious and grievously wounded"),
     (-6, "unconscious and grievously wounded"), (-7, "mortally wounded"), (-9, "mortally wounded"),
     (-10, "dead"), (-25, "dead")],
)  # fmt: skip
def test_hit_point_states(hp, state):
    assert hit_point_state(RULES, hp) == state


# --------------------------------------------------------------------------- d20 resolution


def test_no_natural_roll_rules_a_natural_20_can_miss_and_a_natural_1_can_hit():
    assert cnc.USES_FOLLOW_ROLL is False
    assert not hasattr(cnc, "crit_effect") and not hasattr(cnc, "fumble_effect")
    assert d20_engines.result("cnc", d20.Attack(bonus=0, target=21), 20) == "Miss"
    assert d20_engines.result("cnc", d20.Attack(bonus=10, target=11), 1) == "Hit"
    assert d20_engines.result("cnc", d20.Attack(bonus=5, target=15), 10) == "Hit"
    assert d20_engines.result("cnc", d20.Attack(bonus=5, target=15), 9) == "Miss"
    with pytest.raises(RuleError, match="no critical chart"):
        d20_engines.chart_effect("cnc", 20, "crit")


attacks = st.builds(
    d20.Attack, bonus=st.integers(-10, 30), target=st.integers(-5, 45), mods=st.integers(-15, 15)
)


@settings(max_examples=100, deadline=None)
@given(attacks)
def test_exact_chance_equals_brute_force_and_the_shared_core(attack):
    brute = Fraction(sum(roll + attack.bonus + attack.mods >= attack.target for roll in range(1, 21)), 20)
    assert brute == d20_engines.hit_chance("cnc", attack)
    assert d20_engines.chances("cnc", attack)["Critical"] == d20_engines.chances("cnc", attack)["Fumble"] == 0


@settings(max_examples=100, deadline=None)
@given(attacks, st.integers(1, 5))
def test_hit_chance_is_monotonic_in_bonus_and_target(attack, step):
    better = dataclasses.replace(attack, bonus=attack.bonus + step)
    harder = dataclasses.replace(attack, target=attack.target + step)
    chance = d20_engines.hit_chance
    assert chance("cnc", better) >= chance("cnc", attack) >= chance("cnc", harder)


@settings(max_examples=100, deadline=None)
@given(attacks, st.integers(1, 20))
def test_a_hit_is_exactly_total_at_least_ac(attack, roll):
    assert (cnc.result(RULES, attack, roll) == "Hit") == (roll + attack.bonus + attack.mods >= attack.target)


# --------------------------------------------------------------------------- the Attack calculator


def test_attack_outputs_before_and_after_the_roll():
    before = attack_outputs(RULES, CalculatorInputs(bonus=3, target=15))
    assert before["ATTACK_NEED"] == 12 and before["ATTACK_HIT_CHANCE"] == Fraction(9, 20)
    assert before["ATTACK_RESULT"] == before["ATTACK_DAMAGE"] == ""
    hit = attack_outputs(RULES, CalculatorInputs(bonus=3, target=15, roll=12, dice="1d8+2", damage_roll=5))
    assert (hit["ATTACK_RESULT"], hit["ATTACK_DAMAGE"]) == ("Hit", 7)
    miss = attack_outputs(RULES, CalculatorInputs(bonus=3, target=15, roll=11, dice="1d8+2", damage_roll=5))
    assert (miss["ATTACK_RESULT"], miss["ATTACK_DAMAGE"]) == ("Miss", 0)
    bad = attack_outputs(RULES, CalculatorInputs(bonus=3, target=15, roll=21))
    assert bad["ATTACK_RESULT"] == "#ROLL? 1 to 20"


def test_charge_adds_two_damage_and_grapple_deals_none():
    charge = frozenset({("charge", "charge_damage_bonus")})
    out = attack_outputs(
        RULES, CalculatorInputs(bonus=3, target=10, roll=10, dice="1d8", damage_roll=4, toggles=charge)
    )
    assert out["ATTACK_DAMAGE"] == 6
    grapple = attack_outputs(
        RULES,
        CalculatorInputs(
            bonus=3, target=10, roll=10, dice="1d8", damage_roll=4, choices={"attack_types": "Grapple"}
        ),
    )
    assert grapple["ATTACK_DAMAGE"] == 0 and "Held" in grapple["ATTACK_EFFECT"]
    pummel = attack_outputs(
        RULES,
        CalculatorInputs(
            bonus=3, target=10, roll=10, dice="1d2-1", damage_roll=1, choices={"attack_types": "Pummel"}
        ),
    )
    assert pummel["ATTACK_DAMAGE"] == 1  # subdual attacks deal at least 1


def test_situational_modifiers_sum_by_attack_kind():
    ranged = {"attack_types": "Ranged, propelled weapon (crossbow, sling)"}
    toggles = frozenset(
        {("situational_modifiers", "melee_from_mount"), ("situational_modifiers", "ranged_from_mount")}
    )
    melee_out = attack_outputs(RULES, CalculatorInputs(bonus=0, target=10, toggles=toggles))
    ranged_out = attack_outputs(RULES, CalculatorInputs(bonus=0, target=10, toggles=toggles, choices=ranged))
    assert (melee_out["ATTACK_SITUATION_HIT"], ranged_out["ATTACK_SITUATION_HIT"]) == (-2, -4)


def test_prone_rulings():
    prone = {
        "defender_prone": "Defender prone or blind",
        "attack_types": "Ranged, thrown weapon (javelin, dagger, spear)",
    }
    vs_prone = frozenset({("situational_modifiers", "ranged_vs_prone_or_in_melee")})
    inputs = CalculatorInputs(bonus=0, target=10, choices=prone, toggles=vs_prone)
    assert attack_outputs(RULES, inputs)["ATTACK_SITUATION_HIT"] == 1
    assert attack_outputs(ruled(ranged_vs_prone="ranged_replaces"), inputs)["ATTACK_SITUATION_HIT"] == -4
    held = CalculatorInputs(
        bonus=0,
        target=10,
        choices={"defender_prone": "Defender prone and defenseless (e.g. held by a grapple)"},
    )
    assert attack_outputs(RULES, held)["ATTACK_SITUATION_HIT"] == 10
    assert attack_outputs(ruled(prone_modifiers_stack="cumulative"), held)["ATTACK_SITUATION_HIT"] == 15
    replaced = ruled(ranged_vs_prone="ranged_replaces", prone_modifiers_stack="cumulative")
    held_ranged = CalculatorInputs(
        bonus=0,
        target=10,
        choices={**prone, "defender_prone": held.choices["defender_prone"]},
        toggles=vs_prone,
    )
    assert attack_outputs(replaced, held_ranged)["ATTACK_SITUATION_HIT"] == -4  # both prone rows replaced
    melee = CalculatorInputs(
        bonus=0, target=10, choices={"defender_prone": prone["defender_prone"]}, toggles=vs_prone
    )
    assert (
        attack_outputs(ruled(ranged_vs_prone="ranged_replaces"), melee)["ATTACK_SITUATION_HIT"] == 5
    )  # ranged only


def test_the_range_band_by_hand():
    """Close, medium -2, long -6 at twice and three times the increment; out of range beyond it."""

    def said(distance: int) -> tuple[object, object, object]:
        inputs = CalculatorInputs(
            bonus=3,
            target=15,
            roll=12,
            range_increment=30,
            distance=distance,
            choices={"attack_types": "Ranged, thrown weapon (javelin, dagger, spear)"},
        )
        found = attack_outputs(RULES, inputs)
        return found["ATTACK_RANGE_BAND"], found["ATTACK_NEED"], found["ATTACK_RESULT"]

    assert said(30) == ("close", 12, "Hit")
    assert said(31) == ("medium (-2 to hit)", 14, "Miss")
    assert said(90) == ("long (-6 to hit)", 18, "Miss")
    assert said(91) == ("out of range", 12, OUT_OF_RANGE)


def test_two_weapon_dex_ruling_and_rear_attack_dex_loss():
    off_hand = {"two_weapon_fighting": "Two weapons, off hand"}
    assert (
        attack_outputs(RULES, CalculatorInputs(0, 10, numbers={"attacker_dex": 2}, choices=off_hand))[
            "ATTACK_SITUATION_HIT"
        ]
        == -4
    )
    primary = {"two_weapon_fighting": "Two weapons, primary hand"}
    assert (
        attack_outputs(RULES, CalculatorInputs(0, 10, numbers={"attacker_dex": 4}, choices=primary))[
            "ATTACK_SITUATION_HIT"
        ]
        == 0
    )
    added = ruled(twf_dex_modifier="added")
    assert (
        attack_outputs(added, CalculatorInputs(0, 10, numbers={"attacker_dex": 4}, choices=primary))[
            "ATTACK_SITUATION_HIT"
        ]
        == 1
    )
    rear = attack_outputs(
        RULES, CalculatorInputs(0, 16, numbers={"defender_dex": 2}, choices={"attack_direction": "Rear"})
    )
    assert (rear["ATTACK_TARGET_NOW"], rear["ATTACK_SITUATION_HIT"]) == (14, 2)


# --------------------------------------------------------------------------- special ACs and the rest


def test_grapple_ac_as_written_and_its_rulings():
    defender = cnc_special_ac.Defender(str_prime=True, str_mod=1, dex_mod=2, bth=4, normal_ac=17)
    assert cnc_special_ac.grapple_ac(RULES, "Grapple", defender, 1) == 18 + 1 + 2 + 2
    assert (
        cnc_special_ac.grapple_ac(ruled(grapple_size_direction="reversed"), "Grapple", defender, 1)
        == 18 + 1 + 2 - 2
    )
    assert cnc_special_ac.grapple_ac(RULES, "Grapple", defender, -2) == 18 + 1 + 2 - 4
    assert cnc_special_ac.grapple_ac(RULES, "Overbear", defender, 0) == 18 + 1 + 2 + 4
    assert (
        cnc_special_ac.grapple_ac(ruled(overbear_ac_modifiers="overbear_as_listed"), "Overbear", defender)
        == 18 + 1 + 4
    )
    assert (
        cnc_special_ac.grapple_ac(ruled(overbear_ac_modifiers="overbear_bth_twice"), "Overbear", defender)
        == 18 + 1 + 8
    )
    assert cnc_special_ac.grapple_ac(ruled(grapple_ac_reading="normal_ac"), "Grapple", defender) == 17
    assert cnc_special_ac.grapple_ac(RULES, "Grapple", cnc_special_ac.Defender()) == 12
    with pytest.raises(RuleError, match="#KIND"):
        cnc_special_ac.grapple_ac(RULES, "Melee (armed)", defender)


def test_overbear_size_limit_and_roll_bonus():
    assert cnc_special_ac.grapple_allowed(RULES, "Overbear", -1) and not cnc_special_ac.grapple_allowed(
        RULES, "Overbear", -2
    )
    assert cnc_special_ac.grapple_allowed(RULES, "Grapple", -5)
    assert cnc_special_ac.grapple_roll_bonus(RULES, "Grapple", 2, 5) == 7
    assert cnc_special_ac.grapple_roll_bonus(RULES, "Overbear", 2, 5) == 2
    assert cnc_special_ac.grapple_roll_bonus(ruled(overbear_attacker_bth="added"), "Overbear", 2, 5) == 7


def test_movement_rates():
    assert [cnc_movement.action_move(RULES, 30, a) for a in ("attack", "walk", "jog", "run")] == [
        15,
        30,
        60,
        120,
    ]
    assert cnc_movement.action_move(RULES, 25, "attack") == 12  # fractions dropped
    assert cnc_movement.action_move(RULES, 1, "attack") == 1  # at least 1 ft
    assert cnc_movement.grid_squares(RULES, 30) == 6 and cnc_movement.grid_squares(RULES, 34) == 6
    assert cnc_movement.reduced_rate(RULES, 30, Fraction(1, 2)) == 15
    assert cnc_movement.reduced_rate(RULES, 40, Fraction(9, 10)) == 10  # reduced by at most 3/4
    assert cnc_movement.reduced_rate(ruled(movement_reduction_limit="reduced_to"), 40, Fraction(1, 2)) == 30
    assert cnc_movement.reduced_rate(RULES, 12, Fraction(3, 4)) == 5  # always at least 5 ft
    assert cnc_movement.reduced_rate(RULES, 3, Fraction(3, 4)) == 3
    assert cnc_movement.reduced_rate(RULES, 30, Fraction(3, 10)) == 21
    with pytest.raises(RuleError, match="#RATE"):
        cnc_movement.reduced_rate(RULES, 0)


@pytest.mark.parametrize(
    "distance, band, need", [(0, "close", 12), (50, "close", 12), (51, "medium (-2 to hit)", 14),
                             (100, "medium (-2 to hit)", 14), (101, "long (-6 to hit)", 18),
                             (150, "long (-6 to hit)", 18), (151, "out of range", 12)]
)  # fmt: skip
def test_range_bands(distance, band, need):
    """The Attack calculator's band at an increment of 50 ft, and the roll it needs (+3 against AC 15)."""
    thrown = {"attack_types": "Ranged, thrown weapon (javelin, dagger, spear)"}
    inputs = CalculatorInputs(3, 15, range_increment=50, distance=distance, choices=thrown)
    found = attack_outputs(RULES, inputs)
    assert (found["ATTACK_RANGE_BAND"], found["ATTACK_NEED"]) == (band, need)


@pytest.mark.parametrize(
    "damage, default, started, full",
    [
        (0, 1, 1, 0),
        (1, 1, 1, 0),
        (4, 1, 1, 0),
        (5, 1, 1, 1),
        (6, 1, 2, 1),
        (9, 1, 2, 1),
        (10, 2, 2, 2),
        (11, 2, 3, 2),
    ],
)
def test_subdual_split_rulings(damage, default, started, full):
    assert cnc_subdual.subdual_normal(RULES, damage) == default
    assert cnc_subdual.subdual_normal(ruled(subdual_normal_split="started_fives"), damage) == started
    assert cnc_subdual.subdual_normal(ruled(subdual_normal_split="full_fives"), damage) == full


@settings(max_examples=100, deadline=None)
@given(st.integers(11, 400))
def test_falling_dice_grow_with_height(feet):
    count = int(cnc_falling.falling_damage(RULES, feet).split("d")[0])
    assert int(cnc_falling.falling_damage(RULES, feet + 1).split("d")[0]) >= count >= 1


@pytest.mark.parametrize(
    "call",
    [
        lambda: cnc_falling.falling(RULES, -1),
        lambda: cnc_special_ac.disarm_ac(RULES, -1),
        lambda: cnc_movement.charge_verdict(RULES, 30, -1),
        lambda: cnc_subdual.subdual_normal(RULES, -1),
        lambda: cnc_movement.action_move(RULES, 30, "fly"),
        lambda: cnc_movement.reduced_rate(RULES, 30, Fraction(2)),
    ],
)
def test_input_the_rules_do_not_cover_raises_a_rule_error(call):
    with pytest.raises(RuleError, match=r"^#"):
        call()
