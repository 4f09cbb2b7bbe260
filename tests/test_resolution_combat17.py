"""The generic resolution engine equals pycalc.rulesets.combat17 (and combat17_odds): every natural
roll and chart roll, every combination of the rulings that change a result or a damage, a barred
target, the critical chart's damage formulas, the situation's multiplier and damage modifier."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS, Attack
from pycalc.errors import RuleError
from pycalc.rulesets import combat17, combat17_odds
from pycalc.tables import load_ruleset
from tests.resolution_cases import ATTACKS, DICE, FEW_ATTACKS, FOLLOWS, damage_rolls, ruling_combos

RULES = load_ruleset("combat17")
RESULT_RULINGS = ("natural_roll_outcome", "critical_follow_up_roll")
DAMAGE_RULINGS = ("double_damage_basis", "subdual_half_rounding")
MULTIPLIERS = [Fraction(1), Fraction(2), Fraction(1, 2)]
# mods from -6 to +6 move the critical chart's key past both ends when the ruling adds them
MODS = (-6, -1, 0, 3, 6)


def pair(bonus: int, target: int, mods: int, barred: bool = False):
    return Attack(bonus, target, mods), generic.Attack(bonus, target, mods, cannot_hit=barred)


def situation(extra: int, multiplier: Fraction) -> combat17.Situation:
    return combat17.Situation("melee", 0, 0, extra, multiplier, False, False)


def old_damage(rules, old, outcome, follow, parsed, shown, extra, multiplier) -> object:
    try:
        return combat17.attack_damage(
            rules, old, outcome, follow, str(parsed), shown, situation(extra, multiplier)
        )
    except RuleError as error:
        return str(error)


def new_damage(rules, new, outcome, roll, follow, parsed, shown, extra, multiplier) -> object:
    damage = generic.Damage(parsed, extra, multipliers={"situation": multiplier})
    try:
        return generic.attack_damage(rules, new, damage, outcome, roll, follow, shown)
    except RuleError as error:
        return str(error)


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS)))
@pytest.mark.parametrize("barred", [False, True])
def test_result_on_every_roll_and_chart_roll(name, rules, barred: bool):
    seen = set()
    for (bonus, target, _), extra_mods, roll, follow in itertools.product(
        ATTACKS, MODS, range(1, 21), FOLLOWS
    ):
        old, new = pair(bonus, target, extra_mods, barred)
        expected = combat17.attack_result(rules, old, roll, follow, barred)
        assert generic.result(rules, new, roll, follow) == expected, (bonus, target, extra_mods, roll, follow)
        seen.add(expected)
    assert seen == ({MISS, FUMBLE} if barred else {MISS, HIT, CRITICAL, FUMBLE})


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS)))
def test_chances(name, rules):
    for (bonus, target, _), extra_mods, barred in itertools.product(FEW_ATTACKS, MODS, (False, True)):
        old, new = pair(bonus, target, extra_mods, barred)
        assert generic.chances(rules, new) == combat17.attack_chances(rules, old, barred)


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS, *DAMAGE_RULINGS)))
def test_damage_of_every_chart_line(name, rules):
    """Rolls 20 (the chart), 1 (fumble) and 2..19 (plain) with every follow roll and dice shown."""
    for (bonus, target, _), mods, roll, follow, parsed, extra, multiplier in itertools.product(
        ((2, 13, 0), (1, 22, 0)), (-3, 4), (1, 11, 20), FOLLOWS, DICE[1:3], (0, -1), MULTIPLIERS
    ):
        old, new = pair(bonus, target, mods)
        outcome = combat17.attack_result(rules, old, roll, follow, False)
        for shown in [None, *damage_rolls(parsed)]:
            expected = old_damage(rules, old, outcome, follow, parsed, shown, extra, multiplier)
            got = new_damage(rules, new, outcome, roll, follow, parsed, shown, extra, multiplier)
            assert got == expected, (bonus, target, mods, roll, follow, str(parsed), shown, extra, multiplier)


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS, *DAMAGE_RULINGS)))
def test_damage_distribution(name, rules):
    for (bonus, target, _), mods, barred, parsed, extra, multiplier in itertools.product(
        FEW_ATTACKS[1:4], (0, 4), (False, True), DICE[1:3], (0, -1), MULTIPLIERS
    ):
        old, new = pair(bonus, target, mods, barred)
        expected = combat17_odds.damage_distribution(
            rules, combat17_odds.OddsAttack(old, parsed, barred, multiplier, extra)
        )
        damage = generic.Damage(parsed, extra, multipliers={"situation": multiplier})
        assert generic_odds.damage_distribution(rules, new, damage) == expected


def test_chart_rows_and_follow_total():
    (_, adds), *_ = [
        (n, r) for n, r in ruling_combos(RULES, "critical_follow_up_roll") if n == "add_modifiers"
    ]
    for rules, follow, mods in itertools.product((RULES, adds), range(1, 21), MODS):
        old, new = pair(0, 10, mods)
        assert generic.follow_total(rules, new, follow) == combat17.follow_total(rules, old, follow)
        assert generic.critical_chart_row(rules, new, follow) is combat17.crit_row(
            rules, combat17.follow_total(rules, old, follow)
        )
        assert generic.fumble_chart_row(rules, follow) is combat17.fumble_row(rules, follow)
