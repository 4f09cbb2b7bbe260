"""bfrpg's Attack calculator (the generic one, ``pycalc.resolution_calculator``) gives every answer of
the four Combat maneuvers calculators it replaced: Critical, Firing into melee, Two-weapon and
Helpless. Each expected number below is what the removed engine function
(``pycalc.rulesets.bfrpg_critical.critical_outputs``, ``bfrpg_firing.firing_outputs``,
``bfrpg_two_weapon.two_weapon_outputs``, ``bfrpg_helpless.helpless_outputs``) returned for the same
situation at commit 51e5de5, with how it follows from the YAML (seed 004, "Critical Hits and
Lingering Injuries", "Charging", "Two Weapon Combat", "Prone and Helpless Opponents", firing into a
melee under "Missile Fire"); the shared Excel functions that replace the removed ones are checked too.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import shared

RULES = load_ruleset("bfrpg")
HELPLESS = frozenset({("target_conditions", "helpless")})


def label(table: str, row: str) -> str:
    return str(RULES.table(table).entry(row).label)


def ruled(**chosen: str) -> RuleSet:
    return dataclasses.replace(RULES, chosen={**{r: RULES.ruling(r) for r in RULES.rulings}, **chosen})


CHARGE = {"charge_options": label("charge_options", "charge")}  # +2 to hit, damage x2


def attack(rules: RuleSet = RULES, **given: object) -> dict[str, object]:
    return attack_outputs(rules, CalculatorInputs(**given))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Critical

# The Critical calculator's default: bonus 3, AC 15, 1d8+2. CRIT_NEED 12 (15 - 3), CRIT_POSSIBLE
# (12 < 20), CRIT_CONFIRM_MIN 12, CRIT_CHANCE 9/400 (a 20 on the first d20, 1/20, then 12..20 on the
# second, 9/20), CRIT_MAX_DIE 8 (critical_hits.maximum_dice_added = 1 die of the d8 at its maximum).
# Rolled 5 (and 3 for a second roll): CRIT_NORMAL_DAMAGE 5 + 2 = 7; CRIT_DAMAGE by ruling
# critical_damage max_die_plus_roll 8 + 5 + 2 = 15, normal_plus_max_plus_roll 5 + 2 + 8 + 3 + 2 = 20.
# CRIT_DOUBLE 2 (a charge, charge_options.damage_multiplier): ruling critical_with_double_damage
# double_total 2 x 15 = 30, double_roll_only 2 x (5 + 2) + 8 = 22, and with the second roll
# 2 x (5 + 2 + 3 + 2) + 8 = 32; the charge's hit doubled: 14. (The Attack calculator's charge also adds
# its +2 to the roll, so the free modifier -2 keeps the old need of 12.)
CRITICALS = [
    # (rulings, charge, follow roll, extra roll, old CRIT_CONFIRMED, old CRIT_DAMAGE, old CRIT_NORMAL_DAMAGE)
    ({}, False, 14, None, True, 15, 7),
    ({}, False, 11, None, False, 15, 7),
    ({}, False, 12, None, True, 15, 7),
    ({}, True, 14, None, True, 30, 14),
    ({"critical_with_double_damage": "double_roll_only"}, True, 14, None, True, 22, 14),
    ({"critical_damage": "normal_plus_max_plus_roll"}, False, 14, 3, True, 20, 7),
    (
        {"critical_damage": "normal_plus_max_plus_roll", "critical_with_double_damage": "double_roll_only"},
        True,
        14,
        3,
        True,
        32,
        14,
    ),
]


def test_critical_default_before_the_roll():
    found = attack(bonus=3, target=15, dice="1d8+2")
    assert found["ATTACK_NEED"] == 12  # CRIT_NEED (and CRIT_CONFIRM_MIN: same bonuses, 12 > a natural 1)
    assert found["ATTACK_CRIT_CHANCE"] == Fraction(9, 400)  # CRIT_CHANCE; > 0: CRIT_POSSIBLE
    rolled = attack(bonus=3, target=15, dice="1d8+2", roll=20)
    assert rolled["ATTACK_RESULT"] == "Hit"  # a threat: the confirmation is asked for
    assert str(rolled["ATTACK_SUMMARY"]).endswith("type the follow-up roll")


@pytest.mark.parametrize(
    ("chosen", "charge", "follow", "extra", "confirmed", "critical", "normal"), CRITICALS
)
def test_critical_damage_and_confirmation(chosen, charge, follow, extra, confirmed, critical, normal):
    rules = ruled(**chosen)
    given = {
        "bonus": 3,
        "target": 15,
        "mods": -2 if charge else 0,
        "dice": "1d8+2",
        "damage_roll": 5,
        "extra_roll": extra,
        "choices": CHARGE if charge else {},
    }
    found = attack(rules, roll=20, follow_roll=follow, **given)
    assert found["ATTACK_NEED"] == 12
    assert found["ATTACK_RESULT"] == ("Critical" if confirmed else "Hit")  # CRIT_CONFIRMED
    assert found["ATTACK_DAMAGE"] == (critical if confirmed else normal)  # CRIT_DAMAGE / NORMAL_DAMAGE
    assert attack(rules, roll=15, **given)["ATTACK_DAMAGE"] == normal  # CRIT_NORMAL_DAMAGE
    # CRIT_MAX_DIE (8): what a confirmed critical adds over the hit under max_die_plus_roll
    if not chosen and not charge:
        assert critical - normal == 8
    # a lingering injury instead (critical_effect): the hit's damage only
    injury = {**given["choices"], "critical_effect": label("critical_effect", "lingering_injury")}
    found = attack(rules, roll=20, follow_roll=follow, **{**given, "choices": injury})
    assert found["ATTACK_RESULT"] == ("Critical" if confirmed else "Hit")
    assert found["ATTACK_DAMAGE"] == normal


def test_no_critical_when_only_a_natural_20_hits():
    # bonus 3, AC 23: CRIT_NEED 20, CRIT_POSSIBLE FALSE (ruling only_natural_20_hits no_critical),
    # CRIT_CHANCE 0, CRIT_CONFIRMED FALSE for a second 20; the 20 is a plain hit: 5 + 2 = 7
    found = attack(bonus=3, target=23, roll=20, follow_roll=20, dice="1d8+2", damage_roll=5)
    assert (found["ATTACK_NEED"], found["ATTACK_CRIT_CHANCE"]) == (20, 0)
    assert (found["ATTACK_RESULT"], found["ATTACK_DAMAGE"]) == ("Hit", 7)
    # ruling no_critical_past_20: needing exactly 20 still threatens
    past = attack(
        ruled(only_natural_20_hits="no_critical_past_20"), bonus=3, target=23, roll=20, follow_roll=20
    )
    assert past["ATTACK_RESULT"] == "Critical"


def test_a_natural_1_never_confirms():
    # bonus 5, AC 4: CRIT_NEED -1, CRIT_CONFIRM_MIN 2 (ruling confirmation_natural_1 fails),
    # CRIT_CHANCE 19/400 (1/20 x 19/20), a confirmation of 1 not confirmed, 2 confirmed; 1d6 rolled 3:
    # normal 3, critical 6 + 3 = 9
    given = {"bonus": 5, "target": 4, "dice": "1d6", "damage_roll": 3, "roll": 20}
    assert attack(**given)["ATTACK_CRIT_CHANCE"] == Fraction(19, 400)
    assert (
        attack(follow_roll=1, **given)["ATTACK_RESULT"],
        attack(follow_roll=1, **given)["ATTACK_DAMAGE"],
    ) == (
        "Hit",
        3,
    )
    assert attack(follow_roll=2, **given)["ATTACK_DAMAGE"] == 9
    total_only = ruled(confirmation_natural_1="total_only")
    assert attack(total_only, follow_roll=1, **given)["ATTACK_RESULT"] == "Critical"


# --------------------------------------------------------------------------- Firing into melee

# The Firing calculator's default: the risky shot (firing_into_melee row 3: no -4, near misses hit
# the ally), bonus 2, AC 14: FIRE_NEED 12. A miss by 1 to 3 (ranged_rules.stray_hit_max_miss) hits
# the target's melee opponent; by 4, or a shot with the -4 (need 16), or at a Large target, a plain Miss.
FIRING = [
    # (row, roll, old FIRE_NEED, old FIRE_MARGIN, old FIRE_OUTCOME)
    ("risky_shot", None, 12, "", ""),
    ("risky_shot", 11, 12, 1, "Miss: hits the target's melee opponent"),
    ("risky_shot", 10, 12, 2, "Miss: hits the target's melee opponent"),
    ("risky_shot", 9, 12, 3, "Miss: hits the target's melee opponent"),
    ("risky_shot", 8, 12, 4, "Miss"),
    ("risky_shot", 12, 12, 0, "Hit"),
    ("risky_shot", 20, 12, -8, "Hit"),
    ("risky_shot", 1, 12, 11, "Miss"),
    ("careful_shot", 15, 16, 1, "Miss"),
    ("careful_shot", 16, 16, 0, "Hit"),
    ("large_target", 10, 12, 2, "Miss"),
    ("none", 11, 12, 1, "Miss"),
]


@pytest.mark.parametrize(("shot", "roll", "need", "margin", "outcome"), FIRING)
def test_firing_into_melee(shot, roll, need, margin, outcome):
    choices = {
        "firing_into_melee": label("firing_into_melee", shot),
        "attack_kinds": label("attack_kinds", "missile"),
    }
    found = attack(bonus=2, target=14, roll=roll, dice="1d6", damage_roll=3, choices=choices)
    assert found["ATTACK_NEED"] == need
    if roll is None:
        assert found["ATTACK_RESULT"] == ""
        return
    assert found["ATTACK_RESULT"] == outcome.split(":")[0]
    near = outcome.startswith("Miss:")
    assert str(found["ATTACK_EFFECT"]).startswith(f"missed by {margin}: the shot hits") == near
    assert (found["ATTACK_EFFECT"] == "") == (not near)


# --------------------------------------------------------------------------- Two-weapon

# The Two-weapon calculator: each two_weapon_fighting row's hit plus the DEX bonus where dex_reduces
# (ruling two_weapon_dex), never above two_weapon_rules.penalty_cap 0: primary -2, off hand -5, off
# hand alone -3; DEX 2: -2+2 = 0, -5+2 = -3, -3+2 = -1; DEX 4: 0, -1, 0 (capped); DEX -1: -3, -6, -4.
TWO_WEAPONS = {
    # DEX -> old TWO_WEAPON_<ROW> for none, primary_hand, off_hand, off_hand_only, off_hand_defensive
    0: (0, -2, -5, -3, 0),
    1: (0, -1, -4, -2, 0),
    2: (0, 0, -3, -1, 0),
    3: (0, 0, -2, 0, 0),
    4: (0, 0, -1, 0, 0),
    6: (0, 0, 0, 0, 0),
    -1: (0, -3, -6, -4, 0),
}


@pytest.mark.parametrize("dex", sorted(TWO_WEAPONS))
def test_two_weapon_penalties(dex):
    rows = RULES.table("two_weapon_fighting").rows
    found = tuple(
        attack(numbers={"attacker_dex": dex}, choices={"two_weapon_fighting": str(row.label)})[
            "ATTACK_SITUATION_HIT"
        ]
        for row in rows
    )
    assert found == TWO_WEAPONS[dex]


def test_two_weapon_dex_off_hand_only():
    # ruling two_weapon_dex off_hand_only, DEX 2: the primary hand keeps its -2, the off hand -5+2 = -3
    rules = ruled(two_weapon_dex="off_hand_only")
    found = [
        attack(
            rules,
            numbers={"attacker_dex": 2},
            choices={"two_weapon_fighting": label("two_weapon_fighting", row)},
        )["ATTACK_SITUATION_HIT"]
        for row in ("primary_hand", "off_hand", "off_hand_only")
    ]
    assert found == [-2, -3, -1]


# --------------------------------------------------------------------------- Helpless

# The Helpless calculator: helpless_damage.max_damage_multiplier (2) x the dice's maximum with the
# modifier: 1d8+1 -> 18 (the seed's own example), 2d6 -> 24, 1d4-1 -> 6, 3d6+2 -> 40. The Attack
# calculator's helpless target (target_conditions, auto_hit_melee) hits a melee attack automatically
# for the same; a charge doubles it again under ruling helpless_multipliers all (36), not under none.
HELPLESS_DAMAGE = {"1d8+1": 18, "2d6": 24, "1d4-1": 6, "3d6+2": 40}


@pytest.mark.parametrize(("dice", "damage"), sorted(HELPLESS_DAMAGE.items()))
@pytest.mark.parametrize("roll", [1, 2, 20])
def test_helpless_target(dice, damage, roll):
    found = attack(target=30, roll=roll, dice=dice, toggles=HELPLESS)
    assert (found["ATTACK_RESULT"], found["ATTACK_DAMAGE"]) == ("Hit", damage)
    assert found["ATTACK_HIT_CHANCE"] == 1


def test_helpless_multipliers():
    given = {"target": 30, "roll": 2, "dice": "1d8+1", "toggles": HELPLESS, "choices": CHARGE}
    assert attack(**given)["ATTACK_DAMAGE"] == 36
    assert attack(ruled(helpless_multipliers="none"), **given)["ATTACK_DAMAGE"] == 18
    missile = {"attack_kinds": label("attack_kinds", "missile")}
    assert (
        attack(target=30, roll=5, dice="1d8+1", toggles=HELPLESS, choices=missile)["ATTACK_RESULT"] == "Miss"
    )


# --------------------------------------------------------------------------- the shared Excel functions


def test_shared_functions_replace_the_removed_ones():
    # bfrpg_crit_chance(3, 15) / bfrpg_crit_possible(3, 15): 9/400 > 0
    assert shared.d20_chance("bfrpg", "Critical", 3, 15) == pytest.approx(9 / 400)
    # bfrpg_confirms(14, 3, 15): TRUE; bfrpg_confirms(11, 3, 15): FALSE
    assert shared.d20_result("bfrpg", 20, 3, 15, 0, 0, 14) == "Critical"
    assert shared.d20_result("bfrpg", 20, 3, 15, 0, 0, 11) == "Hit"
    # bfrpg_critical_damage("1d8+2", 5, , 2): 30 (a charge)
    assert shared.d20_damage("bfrpg", 20, 3, 15, "1d8+2", 5, -2, 14, picks="charge") == 30
    # bfrpg_firing_outcome has none: a shared function's picks cannot name bfrpg's attack kind (the
    # log's own column), and firing_into_melee counts only for a ranged one (the sheet's dropdown does)
    # bfrpg_helpless_damage("1d8+1"): 18; with backstab TRUE, "2d4": 2 x 8 = 16
    assert shared.d20_damage("bfrpg", 2, 0, 30, "1d8+1", None, picks="helpless") == 18
    backstab = shared.modifier("bfrpg", "helpless_damage", "backstab_max_multiplier")
    assert backstab * shared.dice_max("2d4") == 16
