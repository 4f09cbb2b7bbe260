"""17 Combat's Critical damage and condition chart calculators and the chart half of its Critical miss
calculator were removed: the generic Attack calculator (``pycalc.resolution_calculator``, combat17's
``resolution:`` block) gives the GM the same answers for the same rolls. A before/after check: the
expected values below are what the removed functions (``combat17_critical.critical_damage_outputs``,
``condition_outputs``, ``combat17_fumble.fumble_outputs``) returned at 51e5de5, each derived in its
comment from ``tables/combat17`` and the seed's 17.0.3 Critical Hit and 17.0.4 Critical Miss.

The Critical miss calculator's DEX check (``combat17_fumble``) went at 43b6b79 too: the Attack
calculator resolves the check the chart row calls for (the block's ``fumble.check``), and says what a
pass or a failure does; a failed Stumble's attack-roll penalty is the Attacker's condition pick
"Stumbling".
"""

from __future__ import annotations

import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
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


# What combat17_fumble.fumble_outputs (FUMBLE_DEX_DC, FUMBLE_CHECK, FUMBLE_CONSEQUENCE; no rounds
# roll) returned at 43b6b79 for a follow-up roll in each band of critical_misses (its edges 1-2, 3-5,
# 6-10, 11-15, 16-20) and a DEX check not rolled, failed and passed (d20 + DEX bonus >= the DC: 17.0.4,
# "DEX check (DC20)", "DEX check (DC15)"). A failed Stumble's penalty was the attacker_conditions row
# stumbling's -1 "to hit" for 1d2 rounds; the chart now says the seed's words ("-1 to combat rolls").
OLD_CHECKS = [
    # follow, DEX bonus, DEX d20, old DC, old check, old consequence
    (1, 0, None, "", "", "Weapon breaks, no attack next round"),
    (2, 3, 17, "", "", "Weapon breaks, no attack next round"),
    (3, 0, None, 20, "", "DEX check DC 20 needed"),
    (3, 0, 19, 20, "Failed", "DEX check failed: -1 to hit for 1d2 rounds"),
    (3, 1, 19, 20, "Passed", "DEX check passed: just a miss"),
    (5, 0, 1, 20, "Failed", "DEX check failed: -1 to hit for 1d2 rounds"),
    (5, 0, 20, 20, "Passed", "DEX check passed: just a miss"),
    (5, 3, 17, 20, "Passed", "DEX check passed: just a miss"),
    (6, 0, None, 15, "", "DEX check DC 15 needed"),
    (6, 0, 14, 15, "Failed", "DEX check failed: the opponent gets a free attack"),
    (6, 1, 14, 15, "Passed", "DEX check passed: just a miss"),
    (10, 0, 1, 15, "Failed", "DEX check failed: the opponent gets a free attack"),
    (10, 0, 15, 15, "Passed", "DEX check passed: just a miss"),
    (11, 0, 19, "", "", "Drop weapon, no attack next round"),
    (15, 0, None, "", "", "Drop weapon, no attack next round"),
    (16, 1, 14, "", "", "Just a Miss."),
    (20, 0, 20, "", "", "Just a Miss."),
]


@pytest.mark.parametrize(
    ("follow", "dex_bonus", "dex_roll", "old_dc", "old_check", "old_consequence"), OLD_CHECKS
)
def test_the_attack_calculator_resolves_the_dex_check_as_the_removed_calculator_did(
    follow, dex_bonus, dex_roll, old_dc, old_check, old_consequence
):
    found = attack(roll=NATURAL_1, follow_roll=follow, check_roll=dex_roll, check_bonus=dex_bonus)
    said = str(found["ATTACK_CHECK"])
    if old_dc == "":  # no DEX check: the row's effect alone, as the chart says it
        assert said == "" and found["ATTACK_CHART_EFFECT"] == old_consequence
        return
    assert f"DC {old_dc}" in said
    if not old_check:  # the check still to roll
        assert said == f"DEX check DC {old_dc}: roll it"
        return
    total = dex_roll + dex_bonus
    assert said.startswith(f"DEX check {old_check.lower()} ({total} vs DC {old_dc})")
    if old_check == "Passed":
        assert said.endswith(": just a miss")
    elif "free attack" in old_consequence:
        assert said.endswith(": the opponent gets a free attack")
    else:  # the penalty and its rounds: -1 for 1d2 rounds
        assert said.endswith(": -1 to combat rolls for 1d2 rounds")
        assert RULES.table("attacker_conditions").entry("stumbling")["hit"] == -1


def test_a_failed_stumble_s_penalty_is_the_stumbling_pick():
    """FUMBLE_PENALTY (-1 to hit): the Attack calculator applies it once the GM ticks Stumbling."""
    picked = frozenset({("attacker_conditions", "stumbling")})
    assert attack(roll=10, toggles=picked)["ATTACK_SITUATION_HIT"] == -1
    assert attack(roll=10)["ATTACK_SITUATION_HIT"] == 0


def test_a_dex_check_roll_off_the_d20_is_said_and_the_result_stands():
    # the removed calculator: "#DEX ROLL? 1 to 20" for a DEX d20 of 0 or 21
    for off in (0, 21):
        found = attack(roll=NATURAL_1, follow_roll=4, check_roll=off)
        assert found["ATTACK_CHECK"] == "#CHECK ROLL? 1 to 20" and found["ATTACK_RESULT"] == "Fumble"
