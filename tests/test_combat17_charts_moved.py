"""17 Combat's Critical damage and condition chart calculators and the chart half of its Critical miss
calculator were removed: the generic Attack calculator (``pycalc.resolution_calculator``, combat17's
``resolution:`` block) gives the GM the same answers for the same rolls. A before/after check: the
expected values below are what the removed functions (``combat17_critical.critical_damage_outputs``,
``condition_outputs``, ``combat17_fumble.fumble_outputs``) returned at 51e5de5, each derived in its
comment from ``tables/combat17`` and the seed's 17.0.3 Critical Hit and 17.0.4 Critical Miss.

What the Critical miss calculator's DEX check gives (passed or failed, and what follows) stays in
``combat17_fumble``: the Attack calculator prints the check's DC and what a failure does, but does not
resolve the check; its attack-roll penalty is the Attacker's condition pick "Stumbling".
"""

from __future__ import annotations

import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import combat17_fumble
from pycalc.tables import load_ruleset
from tests.resolution_cases import with_rulings

RULES = load_ruleset("combat17")
NATURAL_20, NATURAL_1 = 20, 1


def attack(rules=RULES, **given) -> dict[str, object]:
    return attack_outputs(rules, CalculatorInputs(**given))


# --------------------------------------------------------------------------- Critical damage


@pytest.mark.parametrize(
    ("dice", "shown", "follow", "old"),
    [
        # the old calculator's defaults (1d6+2 showing 3): regular 3+2 = 5, maximum 6+2 = 8, critical
        # 3+6+2 = 11, the seed's own worked examples (17.0.3); the chart's bands 1-10, 11-15, 16-19, 20
        ("1d6+2", 3, 5, 5),
        ("1d6+2", 3, 12, 8),
        ("1d6+2", 3, 17, 11),
        ("1d6+2", 3, 20, 11),
        # critical damage of 1d8 showing 6: 6 + 8 = 14 (the row with extra damage: outcomes' max_dice 1)
        ("1d8", 6, 17, 14),
        ("2d4+1", 5, 20, 14),  # 5 + 8 + 1
        ("1d8", None, 17, ""),  # the damage roll is still to type
    ],
)
def test_a_natural_20_gives_the_chart_damage_the_critical_calculator_gave(dice, shown, follow, old):
    found = attack(bonus=0, target=30, roll=NATURAL_20, follow_roll=follow, dice=dice, damage_roll=shown)
    assert (
        found["ATTACK_RESULT"] == "Critical"
    )  # a natural 20 always hits (ruling natural_roll_outcome: always)
    assert found["ATTACK_DAMAGE"] == old


def test_regular_maximum_and_critical_damage_are_three_follow_up_rolls():
    """The old calculator's three side-by-side cells (CRIT_REGULAR, CRIT_MAXIMUM, CRIT_CRITICAL of 1d6+2
    showing 3: 5, 8, 11) are the Attack calculator's damage on a follow-up roll in each band."""
    side_by_side = [
        attack(roll=NATURAL_20, follow_roll=follow, dice="1d6+2", damage_roll=3)["ATTACK_DAMAGE"]
        for follow in (1, 11, 16)
    ]
    assert side_by_side == [5, 8, 11]


@pytest.mark.parametrize(
    ("follow", "old_chart"),
    [(5, "Regular damage"), (12, "Maximum damage"), (17, "Critical damage")],
)
def test_the_chart_row_is_said(follow, old_chart):
    """CRIT_CHART named the row's outcome; the Attack calculator says the row as printed."""
    said = attack(roll=NATURAL_20, follow_roll=follow, dice="1d6+2", damage_roll=3)["ATTACK_CHART_EFFECT"]
    assert str(said).lower() == old_chart.lower()


@pytest.mark.parametrize(
    ("condition_roll", "old_condition"),
    [
        # critical_conditions' 1d4: "Enemy is <condition>: <effect>" (CRIT_CONDITION, combat17_condition)
        (1, "Enemy is Disarmed: Primary weapon is knocked from enemy’s grasp"),
        (2, "Enemy is Shaken: -2 to hit, Saves, DC checks"),
        (3, "Enemy is Prone: -4 to hit, a -4 AC (melee), +4 AC (ranged)"),
        (4, "Enemy is Blinded: -4 to hit, a -4 AC, -2 Init"),
    ],
)
def test_a_chart_20_leads_to_the_condition_chart(condition_roll, old_condition):
    found = attack(roll=NATURAL_20, follow_roll=20, dice="2d4+1", damage_roll=5, chart_roll=condition_roll)
    assert found["ATTACK_DAMAGE"] == 14  # CRIT_DAMAGE: 5 + 8 + 1
    assert str(found["ATTACK_CHART_EFFECT"]).endswith(f"; {old_condition}")


def test_the_condition_roll_awaited_or_unused_is_said():
    # CRIT_CHART said "...; roll 1d4 on the condition chart" before the 1d4 of a chart 20
    waiting = attack(roll=NATURAL_20, follow_roll=20, dice="1d6+2", damage_roll=3)
    assert waiting["ATTACK_DAMAGE"] == 11 and "type the chart roll" in str(waiting["ATTACK_SUMMARY"])
    # CRIT_CONDITION said "the condition roll 3 is not used by this roll: clear it" on a chart 12
    unused = attack(roll=NATURAL_20, follow_roll=12, dice="1d6+2", damage_roll=3, chart_roll=3)
    assert unused["ATTACK_DAMAGE"] == 8
    assert "the chart roll 3 is not used by this roll: clear it" in str(unused["ATTACK_SUMMARY"])


def test_the_follow_up_roll_adds_the_modifiers_under_the_ruling():
    """Ruling critical_follow_up_roll add_modifiers: 15 + 5 = 20 on the chart, critical damage 11 and
    the condition chart (the old calculator's CRIT_MODS 5, condition roll 2: Shaken)."""
    rules = with_rulings(RULES, {"critical_follow_up_roll": "add_modifiers"})
    found = attack(rules, roll=NATURAL_20, follow_roll=15, mods=5, dice="1d6+2", damage_roll=3, chart_roll=2)
    assert found["ATTACK_DAMAGE"] == 11
    assert str(found["ATTACK_CHART_EFFECT"]).endswith("; Enemy is Shaken: -2 to hit, Saves, DC checks")


# --------------------------------------------------------------------------- the condition chart as modifiers


@pytest.mark.parametrize(
    ("condition_roll", "old_hit", "old_ac_melee", "old_ac_ranged"),
    [
        # CONDITION_HIT, CONDITION_AC_MELEE, CONDITION_AC_RANGED: the attacker_conditions and
        # target_conditions rows critical_conditions names (when_attacking, when_attacked)
        (1, 0, 0, 0),
        (2, -2, 0, 0),
        (3, -4, -4, 4),
        (4, -4, -4, -4),
    ],
)
def test_the_condition_modifiers_are_the_attack_calculators_picks(
    condition_roll, old_hit, old_ac_melee, old_ac_ranged
):
    row = RULES.table("critical_conditions").band(condition_roll)
    attacking = frozenset({("attacker_conditions", row["when_attacking"])} if row["when_attacking"] else ())
    attacked = frozenset({("target_conditions", row["when_attacked"])} if row["when_attacked"] else ())
    assert attack(roll=10, toggles=attacking)["ATTACK_SITUATION_HIT"] == old_hit
    assert attack(roll=10, toggles=attacked)["ATTACK_SITUATION_AC"] == old_ac_melee
    missile = {"attack_kind": "Missile attack"}
    assert attack(roll=10, choices=missile, toggles=attacked)["ATTACK_SITUATION_AC"] == old_ac_ranged


# --------------------------------------------------------------------------- the critical miss chart


@pytest.mark.parametrize(
    ("follow", "old_effect", "old_no_attack"),
    [
        # critical_misses' bands 1-2, 3-5, 6-10, 11-15, 16-20 (17.0.4): FUMBLE_CHART_EFFECT and
        # FUMBLE_NO_ATTACK_NEXT_ROUND ("no attack next round" in the printed effect)
        (1, "Weapon breaks, no attack next round", True),
        (4, "Stumble; DEX check (DC20) or -1 to combat rolls for 1d2 rounds", False),
        (8, "Sloppy Attack; DEX check (DC15) or opponent gets free attack.", False),
        (13, "Drop weapon, no attack next round", True),
        (18, "Just a Miss.", False),
    ],
)
def test_a_natural_1_gives_the_critical_miss_chart(follow, old_effect, old_no_attack):
    found = attack(roll=NATURAL_1, follow_roll=follow)
    assert found["ATTACK_RESULT"] == "Fumble"  # ruling natural_roll_outcome: always
    assert found["ATTACK_CHART_EFFECT"] == old_effect
    assert ("no attack next round" in old_effect) == old_no_attack


@pytest.mark.parametrize(
    ("follow", "dex_bonus", "dex_roll", "rounds", "old_dc", "old_check", "old_consequence", "old_penalty"),
    [
        # the Stumble (3-5): DC 20; 15 + 0 fails: the attacker_conditions row stumbling's -1 to hit, 1d2 rounds
        (4, 0, 15, 2, 20, "Failed", "DEX check failed: -1 to hit for 2 rounds", -1),
        (4, 1, 19, None, 20, "Passed", "DEX check passed: just a miss", 0),  # 19 + 1 = 20
        (4, 0, None, None, 20, "", "DEX check DC 20 needed", 0),
        # the Sloppy Attack (6-10): DC 15, failed_check_free_attack
        (8, 0, 10, None, 15, "Failed", "DEX check failed: the opponent gets a free attack", 0),
        (8, 2, 13, None, 15, "Passed", "DEX check passed: just a miss", 0),
        (1, 0, None, None, "", "", "Weapon breaks, no attack next round", 0),  # no DEX check
    ],
)
def test_the_dex_check_stays_and_its_penalty_is_the_stumbling_pick(
    follow, dex_bonus, dex_roll, rounds, old_dc, old_check, old_consequence, old_penalty
):
    kept = combat17_fumble.fumble_outputs(RULES, follow, dex_bonus, dex_roll, rounds)
    assert (kept["FUMBLE_DEX_DC"], kept["FUMBLE_CHECK"], kept["FUMBLE_CONSEQUENCE"]) == (
        old_dc,
        old_check,
        old_consequence,
    )
    # FUMBLE_PENALTY: the Attack calculator applies it once the GM ticks the row the chart names
    condition = RULES.table("critical_misses").band(follow)["failed_check_condition"]
    picked = (
        frozenset({("attacker_conditions", condition)})
        if old_check == "Failed" and condition
        else frozenset()
    )
    assert attack(roll=10, toggles=picked)["ATTACK_SITUATION_HIT"] == old_penalty
