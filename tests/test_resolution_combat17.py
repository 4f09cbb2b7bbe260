"""The generic resolution engine reading combat17's ``resolution:`` block gives the seed's documented
numbers: the worked damage examples, the critical chart's damage bands, the printed shares of the
critical and critical-miss charts, the natural 1 and 20, and the rulings' readings of a multiplied
damage. (``pycalc.rulesets.combat17`` now runs on this engine, so comparing the two would compare the
engine with itself; these numbers come from the seed and the YAML's printed columns instead.)"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage, resolution_results
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.tables import load_ruleset

RULES = load_ruleset("combat17")
SEED_DICE = dice_module.parse("1d6+2")  # the seed's example weapon, rolling a 3
SHOWN = 3
ONLY_A_NATURAL_20_HITS = generic.Attack(0, 99)


def ruled(**chosen: str):
    return dataclasses.replace(RULES, chosen=chosen)


def seed_damage(rules, outcome: str, roll: int, follow: int | None, multiplier=Fraction(1)) -> int | str:
    damage = generic.Damage(SEED_DICE, multipliers={"situation": multiplier})
    return resolution_damage.attack_damage(rules, generic.Attack(0, 10), damage, outcome, roll, follow, SHOWN)


def printed_share(table_id: str, special_only: bool) -> Fraction:
    """The printed percent of the chart's rows that a natural roll keeps as a special."""
    rows = RULES.table(table_id).rows
    return Fraction(sum(row["percent"] for row in rows if row["special"] or not special_only), 100)


def test_seed_examples_regular_5_maximum_8_critical_11():
    """ "1d6 +2 would have a Maximum Damage of 6 +2 = 8"; "rolls a 3 + Maximum Damage of 6 + 2 = 11" """
    assert seed_damage(RULES, HIT, 12, None) == 5
    assert [seed_damage(RULES, CRITICAL, 20, follow) for follow in (10, 11, 15, 16, 19, 20)] == [
        5,
        8,
        8,
        11,
        11,
        11,
    ]
    assert seed_damage(RULES, CRITICAL, 20, None) == ""  # the chart is rolled first
    assert seed_damage(RULES, MISS, 5, None) == seed_damage(RULES, FUMBLE, 1, 20) == 0


@pytest.mark.parametrize("special_only", [False, True])
def test_printed_shares_of_the_charts(special_only: bool):
    """Only a natural 20 hits AC 99: a critical on the chart's specials, a plain hit on the rest; a
    natural 1 fumbles on the critical-miss chart's specials."""
    rules = ruled(natural_roll_outcome="special_only" if special_only else "always")
    chances = resolution_chances.chances(rules, ONLY_A_NATURAL_20_HITS)
    one_face = Fraction(1, 20)
    assert chances[CRITICAL] == one_face * printed_share("critical_hits", special_only)
    assert chances[HIT] == one_face - chances[CRITICAL]
    assert chances[FUMBLE] == one_face * printed_share("critical_misses", special_only)
    assert sum(chances.values()) == 1


@pytest.mark.parametrize("bonus, target", [(-20, 10), (0, 15), (30, 5)])
def test_a_natural_20_always_hits_and_a_natural_1_always_misses(bonus: int, target: int):
    attack = generic.Attack(bonus, target)
    assert all(resolution_results.result(RULES, attack, 20, follow) == CRITICAL for follow in range(1, 21))
    assert all(resolution_results.result(RULES, attack, 1, follow) == FUMBLE for follow in range(1, 21))
    assert generic.need(RULES, attack) == target - bonus


@pytest.mark.parametrize(
    "basis, rounding, multiplier, expected",
    [
        ("whole_damage", "down", Fraction(2), 10),  # (3 + 2) x 2
        ("dice_only", "down", Fraction(2), 8),  # 3 x 2 + 2
        ("whole_damage", "down", Fraction(1, 2), 2),  # 5 / 2 rounded down
        ("whole_damage", "up", Fraction(1, 2), 3),  # 5 / 2 rounded up
    ],
)
def test_rulings_read_a_multiplied_hit(basis: str, rounding: str, multiplier: Fraction, expected: int):
    rules = ruled(double_damage_basis=basis, subdual_half_rounding=rounding)
    assert seed_damage(rules, HIT, 12, None, multiplier) == expected
