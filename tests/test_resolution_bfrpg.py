"""The generic resolution engine on bfrpg's documented results: the seed's critical example, the
helpless target under ruling helpless_multipliers, and house rules on the tables' cells followed.

The exhaustive comparisons with the hand-written bfrpg engine are gone with that engine: bfrpg's
calculators, odds and UDFs now run on the generic engine (``pycalc.rulesets.bfrpg``). The natural-roll
rules are checked as properties in ``test_bfrpg_engine.py``, the odds against brute force in
``test_bfrpg_odds.py``, and everything against the native formulas in ``test_bfrpg_parity.py``."""

from __future__ import annotations

import pytest

from pycalc import resolution as generic
from pycalc import resolution_damage, resolution_results
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import CRITICAL, HIT, MISS
from pycalc.resolution_calculator import CalculatorInputs, attack_and_damage
from pycalc.tables import load_ruleset
from tests.resolution_cases import DICE, ruling_combos, with_cell

RULES = load_ruleset("bfrpg")
PICKER_TABLES = ("charge_options", "damage_mode", "underwater_weapons", "critical_effect")


def choices(picks: tuple[str, ...]) -> dict[str, str]:
    return {t: str(RULES.table(t).entry(row).label) for t, row in zip(PICKER_TABLES, picks, strict=True)}


def test_helpless_multipliers_none_in_the_odds():
    """1d8+3 against a helpless target: double the maximum, 22, charge and halvings ignored."""
    (_, rules), *_ = [(n, r) for n, r in ruling_combos(RULES, "helpless_multipliers") if n == "none"]
    picks = ("charge", "flat_of_blade", "swung_weapon", "extra_damage")
    helpless = frozenset({("target_conditions", "helpless")})
    inputs = CalculatorInputs(0, 15, dice=str(DICE[3]), choices=choices(picks), toggles=helpless)
    attack, damage, _ = attack_and_damage(rules, inputs, DICE[3])
    assert attack.auto_hit
    assert generic_odds.damage_distribution(rules, attack, damage) == {22: 1}


def test_the_seed_critical_example():
    """1d8+2, roll 5: 8 + 5 + 2 = 15 (ruling critical_damage, default)."""
    attack = generic.Attack(0, 10)
    damage = generic.Damage(DICE[3].__class__(1, 8, 2))
    assert resolution_results.result(RULES, attack, 20, 10) == CRITICAL
    assert resolution_damage.attack_damage(RULES, attack, damage, CRITICAL, 20, 10, 5) == 15


@pytest.mark.parametrize(
    "table, entry, value, bonus, target, roll, follow, with_house_rule, without",
    [
        ("attack_roll", "natural_always_hits", 18, 0, 30, 18, None, HIT, MISS),  # need 30
        ("attack_roll", "natural_always_hits", 18, 0, 30, 17, None, MISS, MISS),
        ("attack_roll", "natural_always_fails", 2, 20, 10, 2, None, MISS, HIT),  # need -10
        ("attack_roll", "natural_always_fails", 2, 20, 10, 3, None, HIT, HIT),
        ("attack_roll", "hit_margin_min", 1, 4, 15, 11, None, MISS, HIT),  # the total equals the AC
        ("attack_roll", "hit_margin_min", 1, 4, 15, 12, None, HIT, HIT),
        ("attack_roll", "hit_margin_min", 1, 5, 15, 20, 10, HIT, CRITICAL),  # the confirmation too
        ("critical_hits", "threat_natural", 19, 5, 15, 19, 10, CRITICAL, HIT),
        ("critical_hits", "threat_natural", 19, 5, 15, 18, 10, HIT, HIT),
    ],
)
def test_a_house_rule_on_the_tables_is_followed(
    table, entry, value, bonus, target, roll, follow, with_house_rule, without
):
    """The block refers to table cells, so an edited cell changes the engine's results."""
    attack = generic.Attack(bonus, target)
    assert resolution_results.result(RULES, attack, roll, follow) == without
    rules = with_cell(RULES, table, entry, "value", value)
    assert resolution_results.result(rules, attack, roll, follow) == with_house_rule


def test_a_house_rule_moves_the_confirmation():
    attack = generic.Attack(0, 15)
    assert generic.confirm_min(RULES, attack) == 15
    assert generic.confirm_min(with_cell(RULES, "attack_roll", "hit_margin_min", "value", 1), attack) == 16
