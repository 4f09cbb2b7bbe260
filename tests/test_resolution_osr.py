"""The generic resolution engine equals pycalc.rulesets.osr (and osr_odds): every natural roll and
fumble-check roll, every combination of the rulings that change a result, a needed magic weapon,
Advantage and Disadvantage, the natural-20 damage penalty and double damage."""

from __future__ import annotations

import itertools

import pytest

from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS, Attack
from pycalc.rulesets import osr, osr_odds
from pycalc.tables import load_ruleset
from tests.resolution_cases import ATTACKS, DICE, FEW_ATTACKS, FOLLOWS, damage_rolls, ruling_combos

RULES = load_ruleset("osr")
RESULT_RULINGS = ("magic_weapon_needed", "nat20_crit_exception", "nat20_needed_basis")
DAMAGE_RULINGS = ("nat20_penalty_applies_to", "nat20_needed_basis")
LEVELS = (0, 5, 25)
MODES = {  # (advantage, disadvantage) ticked
    "normal": (False, False),
    "advantage": (True, False),
    "disadvantage": (False, True),
    "both": (True, True),
}


def pair(bonus: int, target: int, mods: int, level: int = 0, needs_magic: bool = False, mode: str = "normal"):
    advantage, disadvantage = MODES[mode]
    new = generic.Attack(
        bonus, target, mods, level, advantage=advantage, disadvantage=disadvantage, needs_magic=needs_magic
    )
    return Attack(bonus, target, mods, level), new


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS)))
@pytest.mark.parametrize("needs_magic", [False, True])
def test_result_on_every_roll_and_fumble_check(name, rules, needs_magic: bool):
    seen = set()
    for (bonus, target, mods), roll, follow in itertools.product(ATTACKS, range(1, 21), FOLLOWS):
        for level in LEVELS if roll == 1 else LEVELS[:1]:
            old, new = pair(bonus, target, mods, level, needs_magic)
            expected = osr.resolve(rules, old, roll, follow, needs_magic)
            assert generic.result(rules, new, roll, follow) == expected, (
                bonus,
                target,
                mods,
                level,
                roll,
                follow,
            )
            seen.add(expected)
    can_hit = not (needs_magic and rules.ruling("magic_weapon_needed") == "no_hit")
    assert seen == ({MISS, HIT, CRITICAL, FUMBLE} if can_hit else {MISS, FUMBLE})


@pytest.mark.parametrize(
    "name, rules", list(ruling_combos(RULES, *RESULT_RULINGS, "advantage_meets_disadvantage"))
)
def test_chances_with_advantage_and_disadvantage(name, rules):
    for (bonus, target, mods), needs_magic, mode in itertools.product(FEW_ATTACKS, (False, True), MODES):
        old, new = pair(bonus, target, mods, 3, needs_magic, mode)
        kept = osr.roll_mode(rules, *MODES[mode])
        assert generic.chances(rules, new) == osr.chances(rules, old, kept, needs_magic), (
            bonus,
            target,
            mods,
            mode,
        )


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *DAMAGE_RULINGS, "nat20_crit_exception")))
def test_damage_and_natural_20_penalty(name, rules):
    double = int(rules.constant("damage_multipliers", "double_damage_multiplier"))
    for (bonus, target, mods), roll, doubled, parsed in itertools.product(
        ATTACKS, (1, 2, 12, 19, 20), (False, True), DICE
    ):
        old, new = pair(bonus, target, mods)
        outcome = osr.resolve(rules, old, roll, 20)
        penalty = osr.nat20_penalty(rules, old, roll) if outcome in (HIT, CRITICAL) else 0
        assert (generic.natural_penalty(rules, new, roll) if outcome in (HIT, CRITICAL) else 0) == penalty
        damage = generic.Damage(parsed, multipliers={"double": double} if doubled else {})
        for shown in [None, *damage_rolls(parsed)]:
            expected = osr.damage_for(rules, outcome, str(parsed), shown, penalty, doubled)
            got = generic.attack_damage(rules, new, damage, outcome, roll, 20, shown)
            assert got == expected, (bonus, target, mods, roll, str(parsed), shown)


def test_the_seed_example_22_needed_loses_2():
    attack = generic.Attack(0, 22)
    assert generic.result(RULES, attack, 20) == HIT
    assert generic.natural_penalty(RULES, attack, 20) == 2
    assert generic.attack_damage(RULES, attack, generic.Damage(DICE[3]), HIT, 20, None, 5) == 5 + 3 - 2


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, "ac_change_to_number_needed")))
def test_ac_change_to_number_needed(name, rules):
    for target, change in itertools.product((5, 12, 20), (-4, 0, 3)):
        expected = osr.effective_target(rules, target, change)
        assert generic.target(rules, generic.Attack(0, target, ac_change=change)) == expected


@pytest.mark.parametrize(
    "name, rules",
    list(ruling_combos(RULES, "nat20_penalty_applies_to", "nat20_needed_basis", "magic_weapon_needed")),
)
@pytest.mark.parametrize("mode", ["normal", "advantage", "disadvantage"])
def test_damage_distribution(name, rules, mode: str):
    double = int(rules.constant("damage_multipliers", "double_damage_multiplier"))
    kept = osr.roll_mode(rules, *MODES[mode])
    for (bonus, target, mods), doubled, needs_magic, parsed in itertools.product(
        FEW_ATTACKS, (False, True), (False, True), DICE[:3]
    ):
        old, new = pair(bonus, target, mods, 4, needs_magic, mode)
        expected = osr_odds.damage_distribution(
            rules, osr_odds.OddsAttack(old, parsed, kept, doubled, needs_magic)
        )
        damage = generic.Damage(parsed, multipliers={"double": double} if doubled else {})
        assert generic_odds.damage_distribution(rules, new, damage) == expected, (
            bonus,
            target,
            mods,
            str(parsed),
        )


def test_critical_exception_under_both_readings():
    """A critical needs the roll 19 or more by default, 19 or 20 only under the other reading."""
    default = RULES
    for need, crit in ((18, True), (19, False), (20, False), (21, False)):
        assert generic.result(default, generic.Attack(0, need), 20) == (CRITICAL if crit else HIT)
    (_, only), *_ = [
        (n, r) for n, r in ruling_combos(RULES, "nat20_crit_exception") if n == "needed_19_or_20_only"
    ]
    assert generic.result(only, generic.Attack(0, 21), 20) == CRITICAL
