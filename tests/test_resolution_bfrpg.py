"""The generic resolution engine equals pycalc.rulesets.bfrpg (and bfrpg_odds): every natural roll and
confirmation roll, every combination of the rulings that change a result or a damage, blocked and
helpless (automatic hit) attacks, the critical damage, the charge, subdual and underwater multipliers."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import CRITICAL, HIT, MISS, Attack
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg, bfrpg_odds
from pycalc.tables import RuleSet, load_ruleset
from tests.resolution_cases import ATTACKS, DICE, FEW_ATTACKS, FOLLOWS, damage_rolls, ruling_combos

RULES = load_ruleset("bfrpg")
RESULT_RULINGS = ("only_natural_20_hits", "confirmation_natural_1")
DAMAGE_RULINGS = (
    "critical_damage",
    "critical_with_double_damage",
    "subdual_half_rounding",
    "helpless_multipliers",
)
FLAGS = {"plain": (False, False), "blocked": (True, False), "helpless": (False, True)}
# (charge_options, damage_mode, underwater_weapons, critical_effect) row ids
DAMAGE_PICKS = [
    ("none", "normal", "not_underwater", "extra_damage"),
    ("charge", "normal", "not_underwater", "extra_damage"),
    ("charge", "flat_of_blade", "swung_weapon", "extra_damage"),
    ("none", "flat_of_blade", "not_underwater", "lingering_injury"),
    ("set_against_charge", "normal", "swung_weapon", "lingering_injury"),
]
PICKER_TABLES = ("charge_options", "damage_mode", "underwater_weapons", "critical_effect")


def old_outcome(rules: RuleSet, attack: Attack, roll: int, follow: int | None, flags: str) -> str:
    """ATTACK_RESULT as bfrpg.attack_outputs gives it."""
    blocked, helpless = FLAGS[flags]
    return MISS if blocked else HIT if helpless else bfrpg.result(rules, attack, roll, follow)


def pair(bonus: int, target: int, mods: int, flags: str = "plain"):
    blocked, helpless = FLAGS[flags]
    return Attack(bonus, target, mods), generic.Attack(
        bonus, target, mods, blocked=blocked, auto_hit=helpless
    )


def choices(picks: tuple[str, ...]) -> dict[str, str]:
    return {t: str(RULES.table(t).entry(row).label) for t, row in zip(PICKER_TABLES, picks, strict=True)}


def generic_damage(rules: RuleSet, parsed, picks: tuple[str, ...]) -> generic.Damage:
    """What the Attack calculator's damage pickers make of the damage (the switch-over's adapter)."""
    by = bfrpg.attack_multipliers(rules, choices(picks))
    return generic.Damage(
        parsed,
        multipliers={
            "double": Fraction(by.double),
            "mode": Fraction(str(by.mode)),
            "water": Fraction(str(by.water)),
        },
        round_up={"water": by.water_round_up},
        critical_extra=bool(rules.table("critical_effect").entry(picks[3])["extra_damage"]),
    )


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS)))
@pytest.mark.parametrize("flags", list(FLAGS))
def test_result_chances_and_critical_cells(name, rules, flags: str):
    for bonus, target, mods in ATTACKS:
        old, new = pair(bonus, target, mods, flags)
        for roll, follow in itertools.product(range(1, 21), FOLLOWS):
            expected = old_outcome(rules, old, roll, follow, flags)
            assert generic.result(rules, new, roll, follow) == expected, (bonus, target, mods, roll, follow)
        if flags == "plain":
            odds = bfrpg.chances(rules, old)
            found = generic.chances(rules, new)
            assert (found[HIT] + found[CRITICAL], found[CRITICAL]) == (odds.hit, odds.critical)
            assert generic.critical_possible(rules, new) == bfrpg.critical_possible(rules, old)
            assert generic.confirm_min(rules, new) == bfrpg.confirm_min(rules, old)
            assert generic.need(rules, new) == old.need + int(rules.constant("attack_roll", "hit_margin_min"))


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *DAMAGE_RULINGS)))
@pytest.mark.parametrize("flags", list(FLAGS))
def test_damage(name, rules, flags: str):
    for (bonus, target, mods), roll, follow, parsed, picks in itertools.product(
        ((2, 13, 1), (0, 20, 0), (1, 22, 0)), (1, 12, 20), (None, 1, 9, 20), DICE[1:3], DAMAGE_PICKS
    ):
        old, new = pair(bonus, target, mods, flags)
        outcome = old_outcome(rules, old, roll, follow, flags)
        damage = generic_damage(rules, parsed, picks)
        for shown, extra in itertools.product([None, *damage_rolls(parsed)], (None, 1, 5)):
            inputs = bfrpg.AttackInputs(
                bonus,
                target,
                mods,
                roll,
                follow,
                dice=str(parsed),
                damage_roll=shown,
                extra_roll=extra,
                choices=choices(picks),
            )
            try:
                expected: object = bfrpg.attack_damage(rules, inputs, outcome, FLAGS[flags][1])
            except RuleError as error:
                expected = str(error)
            try:
                got: object = generic.attack_damage(rules, new, damage, outcome, roll, follow, shown, extra)
            except RuleError as error:
                got = str(error)
            assert got == expected, (bonus, target, mods, roll, follow, str(parsed), picks, shown, extra)


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS, *DAMAGE_RULINGS[:3])))
def test_damage_distribution(name, rules):
    for (bonus, target, mods), flags, parsed, picks in itertools.product(
        FEW_ATTACKS[1:5], FLAGS, DICE[1:3], DAMAGE_PICKS
    ):
        old, new = pair(bonus, target, mods, flags)
        by = bfrpg.attack_multipliers(rules, choices(picks))
        extra = bool(rules.table("critical_effect").entry(picks[3])["extra_damage"])
        blocked, helpless = FLAGS[flags]
        expected = bfrpg_odds.damage_distribution(
            rules, bfrpg_odds.OddsAttack(old, parsed, by, extra, helpless, blocked)
        )
        got = generic_odds.damage_distribution(rules, new, generic_damage(rules, parsed, picks))
        assert got == expected, (bonus, target, mods, flags, str(parsed), picks)


def test_helpless_multipliers_none_in_the_odds():
    (_, rules), *_ = [(n, r) for n, r in ruling_combos(RULES, "helpless_multipliers") if n == "none"]
    old, new = pair(0, 15, 0, "helpless")
    picks = DAMAGE_PICKS[2]
    by = bfrpg.attack_multipliers(rules, choices(picks))
    expected = bfrpg_odds.damage_distribution(
        rules, bfrpg_odds.OddsAttack(old, DICE[3], by, True, True, False)
    )
    assert (
        generic_odds.damage_distribution(rules, new, generic_damage(rules, DICE[3], picks))
        == expected
        == {22: 1}
    )


def test_the_seed_critical_example():
    """1d8+2, roll 5: 8 + 5 + 2 = 15 (ruling critical_damage, default)."""
    attack = generic.Attack(0, 10)
    damage = generic.Damage(DICE[3].__class__(1, 8, 2))
    assert generic.result(RULES, attack, 20, 10) == CRITICAL
    assert generic.attack_damage(RULES, attack, damage, CRITICAL, 20, 10, 5) == 15


@pytest.mark.parametrize(
    "entry, value",
    [("natural_always_hits", 18), ("natural_always_fails", 2), ("hit_margin_min", 1)],
)
def test_a_house_rule_on_the_tables_is_followed(entry: str, value: int):
    """The block refers to table cells, so an edited cell changes both engines alike."""
    from tests.resolution_cases import with_cell

    rules = with_cell(RULES, "attack_roll", entry, "value", value)
    rules = with_cell(rules, "critical_hits", "threat_natural", "value", 19)
    for (bonus, target, mods), roll, follow in itertools.product(ATTACKS, range(1, 21), FOLLOWS):
        old, new = pair(bonus, target, mods)
        assert generic.result(rules, new, roll, follow) == bfrpg.result(rules, old, roll, follow)
    old, new = pair(0, 15, 0)
    assert generic.confirm_min(rules, new) == bfrpg.confirm_min(rules, old)
