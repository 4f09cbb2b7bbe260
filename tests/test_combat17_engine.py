"""17 Combat engine: the seed's worked examples, the natural-roll rules and exact odds."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import (
    d20,
    d20_engines,
    damage_kinds,
    resolution_chances,
    resolution_results,
    resolution_situation,
)
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS, Attack
from pycalc.encounter_block import SUBDUAL
from pycalc.errors import RuleError
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import combat17 as c17
from pycalc.rulesets import (
    combat17_brawling,
    combat17_rate_of_fire,
    combat17_scatter,
    combat17_subdual,
)
from pycalc.tables import load_ruleset

RULES = load_ruleset("combat17")


def ruled(**chosen: str):
    return dataclasses.replace(RULES, chosen=chosen)


# --------------------------------------------------------------------------- the seed's examples


def test_seed_example_maximum_damage_of_1d6_plus_2_is_8():
    """ "a character with regular normal damage of 1d6 +2 would have a Maximum Damage of 6 +2 = 8" """
    assert c17.damage(RULES, "maximum_damage", c17.parse_dice("1d6+2"), None) == 8


def test_seed_example_critical_damage_of_1d6_plus_2_rolling_3_is_11():
    """ "1d6+ 2, the character rolls a 3 + Maximum Damage of 6 + 2 = 3 + 6 +2 = 11" """
    dice = c17.parse_dice("1d6+2")
    assert [
        c17.damage(RULES, o, dice, 3) for o in ("regular_damage", "maximum_damage", "critical_damage")
    ] == [
        5,
        8,
        11,
    ]


@pytest.mark.parametrize(
    "follow, damage",
    [(1, 5), (10, 5), (11, 8), (15, 8), (16, 11), (19, 11), (20, 11)],
)
def test_critical_chart_bands_give_regular_maximum_critical(follow: int, damage: int):
    found = attack_outputs(RULES, CalculatorInputs(roll=20, follow_roll=follow, dice="1d6+2", damage_roll=3))
    assert found["ATTACK_DAMAGE"] == damage


def test_chart_20_rolls_the_condition_chart():
    assert c17.crit_effect(RULES, 20) == f"Critical damage; {c17.CONDITION_PENDING}"
    assert c17.crit_effect(RULES, 19) == "Critical damage"


def test_printed_shares_hold_for_a_plain_follow_up_d20():
    for table_id in ("critical_hits", "critical_misses"):
        for row in RULES.table(table_id).rows:
            faces = [f for f in range(1, d20.D20_FACES + 1) if row.contains(f)]
            assert Fraction(len(faces), d20.D20_FACES) == Fraction(row["percent"], 100)


@pytest.mark.parametrize(
    "roll, effect",
    [
        (1, "Weapon breaks, no attack next round"),
        (2, "Weapon breaks, no attack next round"),
        (3, "Stumble; DEX check (DC20) or -1 to combat rolls for 1d2 rounds"),
        (5, "Stumble; DEX check (DC20) or -1 to combat rolls for 1d2 rounds"),
        (6, "Sloppy Attack; DEX check (DC15) or opponent gets free attack."),
        (10, "Sloppy Attack; DEX check (DC15) or opponent gets free attack."),
        (11, "Drop weapon, no attack next round"),
        (16, "Just a Miss."),
        (20, "Just a Miss."),
    ],
)
def test_critical_miss_chart(roll: int, effect: str):
    assert c17.fumble_effect(RULES, roll) == effect
    assert d20_engines.chart_effect("combat17", roll, "fumble") == effect


# --------------------------------------------------------------------------- natural rolls


@settings(max_examples=100, deadline=None)
@given(st.integers(-30, 40), st.integers(-10, 40), st.integers(-10, 10))
def test_natural_20_always_hits_and_natural_1_always_misses(bonus: int, target: int, mods: int):
    attack = Attack(bonus, target, mods)
    for follow in (None, 1, 10, 20):
        assert d20_engines.result("combat17", attack, 20, follow) == CRITICAL
        assert d20_engines.result("combat17", attack, 1, follow) == FUMBLE


def test_other_rolls_hit_at_or_above_the_need():
    attack = Attack(bonus=4, target=15, mods=1)  # need 10
    assert attack.need == 10
    assert d20_engines.result("combat17", attack, 10) == HIT
    assert d20_engines.result("combat17", attack, 9) == MISS


def test_special_only_ruling_names_plain_results():
    rules = ruled(natural_roll_outcome="special_only")
    attack = Attack(0, 15)
    assert c17.result(rules, attack, 20, 10) == HIT
    assert c17.result(rules, attack, 20, 11) == CRITICAL
    assert c17.result(rules, attack, 20, None) == CRITICAL
    assert c17.result(rules, attack, 1, 16) == MISS
    assert c17.result(rules, attack, 1, 15) == FUMBLE


def test_add_modifiers_ruling_moves_the_chart_and_clamps_at_its_ends():
    rules = ruled(critical_follow_up_roll="add_modifiers")
    assert resolution_results.follow_total(rules, c17.generic_roll(Attack(0, 0, 5)), 15) == 20
    assert c17.crit_row(rules, 35)["condition_roll"] is True
    assert c17.crit_row(rules, -8)["damage"] == "regular_damage"


def brute_force(rules, attack: Attack) -> dict[str, Fraction]:
    counts = dict.fromkeys(d20.OUTCOMES, 0)
    for roll in range(1, 21):
        for follow in range(1, 21):
            counts[c17.result(rules, attack, roll, follow)] += 1
    return {k: Fraction(v, 400) for k, v in counts.items()}


@settings(max_examples=100, deadline=None)
@given(
    st.integers(-25, 35),
    st.integers(-5, 35),
    st.integers(-12, 12),
    st.sampled_from(["always", "special_only"]),
    st.sampled_from(["unmodified", "add_modifiers"]),
)
def test_exact_chances_equal_brute_force_enumeration(bonus, target, mods, naming, follow):
    rules = ruled(natural_roll_outcome=naming, critical_follow_up_roll=follow)
    attack = Attack(bonus, target, mods)
    chances = resolution_chances.chances(rules, c17.generic_roll(attack))
    assert chances == brute_force(rules, attack)
    if naming == "always" and follow == "unmodified":
        assert chances == d20_engines.chances("combat17", attack)


@settings(max_examples=100, deadline=None)
@given(st.integers(-25, 35), st.integers(-5, 35))
def test_hit_chance_is_monotonic_in_bonus_and_bounded_by_natural_rolls(bonus: int, target: int):
    lower = d20_engines.hit_chance("combat17", Attack(bonus, target))
    higher = d20_engines.hit_chance("combat17", Attack(bonus + 1, target))
    assert lower <= higher
    assert Fraction(1, 20) <= lower <= Fraction(19, 20)


def test_barred_target_is_never_hit_but_a_natural_1_still_fumbles():
    odds = resolution_chances.chances(RULES, c17.generic_roll(Attack(30, 10), barred=True))
    assert odds[HIT] + odds[CRITICAL] == 0 and odds[FUMBLE] == Fraction(1, 20)


# --------------------------------------------------------------------------- the attack calculator (generic)


def situation(rules, choices=None, toggles=frozenset()):
    return resolution_situation.picked_situation(rules, choices or {}, toggles)


def test_attack_calculator_default_situation_and_a_charge():
    base = CalculatorInputs(bonus=3, target=15, roll=12, dice="1d6+2", damage_roll=4)
    assert attack_outputs(RULES, base)["ATTACK_DAMAGE"] == 6
    charge = dataclasses.replace(base, toggles=frozenset({("attack_situation", "charge")}))
    out = attack_outputs(RULES, charge)
    assert (out["ATTACK_NEED"], out["ATTACK_DAMAGE"]) == (10, 12)
    dice_only = attack_outputs(ruled(double_damage_basis="dice_only"), charge)
    assert dice_only["ATTACK_DAMAGE"] == 10


def test_flat_of_the_blade_halves_with_the_rounding_ruling():
    inputs = CalculatorInputs(
        bonus=5,
        target=10,
        roll=15,
        dice="1d8",
        damage_roll=5,
        toggles=frozenset({("attack_situation", "flat_of_blade")}),
    )
    assert attack_outputs(RULES, inputs)["ATTACK_DAMAGE"] == 2
    assert attack_outputs(ruled(subdual_half_rounding="up"), inputs)["ATTACK_DAMAGE"] == 3
    assert damage_kinds.row_kind(RULES, "", {}, inputs.toggles) == SUBDUAL  # non-lethal


def test_melee_only_modifiers_do_not_count_for_missiles_and_range_only_for_missiles():
    missile = {"attack_kind": "Missile attack", "missile_range": "Short range"}
    toggles = frozenset({("attack_situation", "flanking")})
    out = attack_outputs(RULES, CalculatorInputs(choices=missile, toggles=toggles))
    assert out["ATTACK_SITUATION_HIT"] == 1
    melee = attack_outputs(RULES, CalculatorInputs(choices={"missile_range": "Short range"}, toggles=toggles))
    assert melee["ATTACK_SITUATION_HIT"] == 1


def test_beyond_long_range_cannot_be_hit_even_on_a_natural_20():
    inputs = CalculatorInputs(
        roll=20,
        follow_roll=20,
        choices={"attack_kind": "Missile attack", "missile_range": "Beyond long range"},
    )
    out = attack_outputs(RULES, inputs)
    assert (out["ATTACK_RESULT"], out["ATTACK_DAMAGE"], out["ATTACK_HIT_CHANCE"]) == (MISS, 0, 0)


def test_rulings_on_the_situation():
    unaware = {
        "attack_kind": "Missile attack",
        "missile_range": "Target within 5 ft but unaware of the shooter",
    }
    assert situation(RULES, choices=unaware).hit == 3
    assert situation(ruled(missile_engaged_unaware="add"), choices=unaware).hit == -2
    both = frozenset({("attack_situation", "from_behind"), ("attack_situation", "parting_shot")})
    assert situation(RULES, toggles=both).hit == 2
    assert situation(ruled(parting_shot_from_behind="combined"), toggles=both).hit == 4
    fogged = {"concealment": "50% concealed", "cover": "75% cover"}
    assert situation(RULES, choices=fogged).hit == -2
    assert situation(ruled(cover_values="as_concealment"), choices=fogged).hit == -5
    worse = ruled(cover_values="as_concealment", cover_concealment_together="worse_only")
    assert situation(worse, choices=fogged).hit == -3


def test_bad_inputs_give_messages():
    out = attack_outputs(RULES, CalculatorInputs(roll=21))
    assert out["ATTACK_RESULT"] == "#ROLL? 1 to 20" and out["ATTACK_DAMAGE"] == ""
    out = attack_outputs(RULES, CalculatorInputs(roll=12, target=5, dice="2x6", damage_roll=3))
    assert out["ATTACK_DAMAGE"] == "#DICE? write it like 2d4+2"
    out = attack_outputs(RULES, CalculatorInputs(roll=12, target=5, dice="1d6", damage_roll=7))
    assert out["ATTACK_DAMAGE"] == "#DAMAGE ROLL? 1 to 6"
    with pytest.raises(RuleError):
        d20_engines.result("combat17", Attack(0, 10), 0)


# --------------------------------------------------------------------------- other calculators


def test_rate_of_fire():
    assert combat17_rate_of_fire.shots_fired(RULES, "Light crossbow", 6)["ROF_SHOTS"] == 3
    assert combat17_rate_of_fire.shots_fired(RULES, "Heavy crossbow", 7)["ROF_LAST_SHOT_ROUND"] == 7
    assert combat17_rate_of_fire.shots_fired(RULES, "Bow (most missile weapons)", 5)["ROF_SHOTS"] == 5
    assert combat17_rate_of_fire.shots_fired(RULES, "Siege weapon (its own rate)", 12, 6)["ROF_SHOTS"] == 2
    assert (
        combat17_rate_of_fire.shots_fired(ruled(rate_of_fire_start="unloaded"), "Heavy crossbow", 3)[
            "ROF_SHOTS"
        ]
        == 1
    )
    assert combat17_rate_of_fire.shots_fired(RULES, "Siege weapon (its own rate)", 12)[
        "ROF_SHOTS"
    ].startswith("#RATE?")


def test_grenade_scatter():
    assert combat17_scatter.scatter(RULES, True, None)["GRENADE_LANDS"] == combat17_scatter.DIRECT_HIT
    out = combat17_scatter.scatter(RULES, False, 1)
    assert (out["GRENADE_TOWARD_FT"], out["GRENADE_RIGHT_FT"], out["GRENADE_DISTANCE_FT"]) == (20, 0, 20)
    assert combat17_scatter.scatter(RULES, False, 4)["GRENADE_RIGHT_FT"] == 10
    assert (
        combat17_scatter.scatter(ruled(grenade_missing_ten="reroll_ten"), False, 10)["GRENADE_LANDS"]
        == combat17_scatter.ROLL_AGAIN
    )
    assert combat17_scatter.scatter(RULES, False, 11)["GRENADE_LANDS"] == "#SCATTER ROLL? 1 to 10"


def test_brawling():
    punch = combat17_brawling.brawl_outputs(RULES, "Punch", 2, 12, 0, 2, 3)
    assert (punch["BRAWL_DAMAGE"], punch["BRAWL_NEED"], punch["BRAWL_NON_LETHAL"]) == (5, 10, True)
    kick = combat17_brawling.brawl_outputs(ruled(kick_damage="no_strength_lethal"), "Kick", 2, 12, 0, 2, 3)
    assert (kick["BRAWL_DAMAGE"], kick["BRAWL_NEED"], kick["BRAWL_NON_LETHAL"]) == (3, 12, False)
    back = combat17_brawling.brawl_outputs(
        RULES, "Punch", 0, 10, armour="Target in metal armour, attacker in no or leather armour"
    )
    assert back["BRAWL_TAKES_DAMAGE"] == combat17_brawling.ATTACKER
    assert (
        combat17_brawling.brawl_outputs(RULES, "Punch", 0, 10, damage_roll=4)["BRAWL_DAMAGE"]
        == "#DAMAGE ROLL? 1 to 3"
    )


def test_subdual():
    out = combat17_subdual.subdual_outputs(RULES, 3, 7)
    assert (out["SUBDUAL_DAMAGE_DEALT"], out["SUBDUAL_STATE"], out["SUBDUAL_HIT_MOD"]) == (
        3,
        combat17_subdual.UNCONSCIOUS,
        -4,
    )
    assert combat17_subdual.subdual_outputs(RULES, 3, 7, flat=False)["SUBDUAL_STATE"] == combat17_subdual.DEAD
    assert (
        combat17_subdual.subdual_outputs(RULES, 3, 7, flat=False, earlier_non_lethal=True)["SUBDUAL_STATE"]
        == combat17_subdual.UNCONSCIOUS
    )
    assert (
        combat17_subdual.subdual_outputs(RULES, 0, 2, unconscious=True)["SUBDUAL_STATE"]
        == combat17_subdual.DEAD
    )
    assert (
        combat17_subdual.subdual_outputs(ruled(subdual_half_rounding="up"), 9, 7)["SUBDUAL_DAMAGE_DEALT"] == 4
    )


def fumble_check(follow: int, bonus: int = 0, roll: int | None = None) -> object:
    """The Attack calculator's check after a natural 1 and that follow-up roll."""
    inputs = CalculatorInputs(roll=1, follow_roll=follow, check_roll=roll, check_bonus=bonus)
    return attack_outputs(RULES, inputs)["ATTACK_CHECK"]


def test_fumble_dex_checks():
    """The Sloppy Attack (6-10) at DC 15, the Stumble (3-5) at DC 20 (17.0.4): d20 + DEX bonus >= DC."""
    assert fumble_check(7, 2, 13) == "DEX check passed (15 vs DC 15): just a miss"
    assert fumble_check(7, 2, 12) == "DEX check failed (14 vs DC 15): the opponent gets a free attack"
    assert fumble_check(4, 0, 19) == "DEX check failed (19 vs DC 20): -1 to combat rolls for 1d2 rounds"
    assert fumble_check(4) == "DEX check DC 20: roll it"
    assert fumble_check(1, 0, 12) == ""  # Weapon breaks: no check
    assert fumble_check(4, 0, 0) == "#CHECK ROLL? 1 to 20"
