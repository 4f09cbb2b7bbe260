"""A sixth d20 ruleset with no Python of its own: the B/X-like fixture (tests/fixtures/tables/bx) loads
with the ordinary loader and resolves with the generic engine, its pickers included; edits of its
resolution block alone give it criticals (double dice, double total) and fumbles."""

from __future__ import annotations

import itertools
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.errors import RuleError
from pycalc.tables import RuleSet, available_rulesets, load_folder

FIXTURE = Path(__file__).parent / "fixtures" / "tables" / "bx"
RULES = load_folder(FIXTURE)
D4_MINUS_3, TWO_D3_PLUS_1 = dice_module.parse("1d4-3"), dice_module.parse("2d3+1")


def brute_force(bonus: int, ac: int, dice: dice_module.Dice) -> dict[int, Fraction]:
    """B/X by hand: a natural 20 hits, a natural 1 misses, else d20 + bonus >= AC; at least 1 damage."""
    found: dict[int, Fraction] = {}
    faces = range(1, dice.sides + 1)
    for roll in range(1, 21):
        hit = roll == 20 or (roll != 1 and roll + bonus >= ac)
        for shown in itertools.product(faces, repeat=dice.count):
            amount = max(1, sum(shown) + dice.modifier) if hit else 0
            found[amount] = found.get(amount, Fraction(0)) + Fraction(1, 20 * dice.sides**dice.count)
    return found


def test_the_fixture_loads_with_the_ordinary_loader_and_is_not_a_shipped_ruleset():
    assert RULES.id == "bx" and RULES.resolution_block is not None
    assert "bx" not in set(available_rulesets())
    assert generic.faces(RULES) == 20 and not generic.uses_follow_roll(RULES)


@pytest.mark.parametrize("bonus", [-5, 0, 3])
def test_a_natural_20_hits_whatever_the_target(bonus: int):
    for ac in range(10, 41):
        attack = generic.Attack(bonus, ac, mods=-4)
        assert resolution_results.result(RULES, attack, 20) == HIT
        assert resolution_results.result(RULES, attack, 19) == (HIT if 19 + bonus - 4 >= ac else MISS)
        assert resolution_chances.hit_chance(RULES, attack) >= Fraction(1, 20)


@pytest.mark.parametrize("bonus", [0, 10, 25])
def test_a_natural_1_misses_whatever_the_bonus(bonus: int):
    for ac in range(-5, 20):
        attack = generic.Attack(bonus, ac, mods=4)
        assert resolution_results.result(RULES, attack, 1) == MISS
        assert resolution_results.result(RULES, attack, 2) == (HIT if 2 + bonus + 4 >= ac else MISS)
        assert resolution_chances.hit_chance(RULES, attack) <= Fraction(19, 20)


def test_no_critical_and_no_fumble():
    for bonus, ac in itertools.product(range(-3, 8), range(8, 24)):
        odds = resolution_chances.chances(RULES, generic.Attack(bonus, ac))
        assert odds[CRITICAL] == odds[FUMBLE] == 0
        assert odds[HIT] == Fraction(min(19, max(1, 21 - (ac - bonus))), 20)


def test_modifiers_apply():
    attack, damage = generic.Attack(2, 15), generic.Damage(TWO_D3_PLUS_1)
    assert generic.need(RULES, attack) == 13
    cases = [
        ({}, frozenset(), 13),
        ({"missile_range": "Short range"}, frozenset(), 12),
        ({"missile_range": "Long range", "cover": "Most of the body covered"}, frozenset(), 18),
        ({}, frozenset({("situation", "from_behind")}), 11),
        ({}, frozenset({("situation", "no_shield")}), 12),
        (
            {"cover": "Partial cover"},
            frozenset({("situation", "from_behind"), ("situation", "no_shield")}),
            12,
        ),
    ]
    for choices, toggles, need in cases:
        where = resolution_situation.picked_situation(RULES, choices, toggles)
        situated, _ = resolution_situation.situated(RULES, attack, damage, where)
        assert generic.need(RULES, situated) == need, (choices, toggles)
        assert resolution_results.result(RULES, situated, need) == HIT
        assert resolution_results.result(RULES, situated, need - 1) == MISS
        assert resolution_chances.hit_chance(RULES, situated) == Fraction(21 - need, 20)


def test_a_magic_only_defender_is_never_hit_and_bad_picks_are_refused():
    where = resolution_situation.picked_situation(RULES, {}, {("situation", "magic_only")})
    situated, _ = resolution_situation.situated(
        RULES, generic.Attack(10, 5), generic.Damage(TWO_D3_PLUS_1), where
    )
    assert (
        resolution_results.result(RULES, situated, 20) == MISS
        and resolution_chances.hit_chance(RULES, situated) == 0
    )
    with pytest.raises(RuleError, match="#COVER"):
        resolution_situation.picked_situation(RULES, {"cover": "Behind a wall"})


def test_damage_is_at_least_one_point():
    attack, damage = generic.Attack(0, 10), generic.Damage(D4_MINUS_3)
    assert [
        resolution_damage.attack_damage(RULES, attack, damage, HIT, 15, None, shown) for shown in range(1, 5)
    ] == [
        1,
        1,
        1,
        1,
    ]
    assert resolution_damage.attack_damage(RULES, attack, damage, MISS, 3, None, 4) == 0
    assert resolution_damage.attack_damage(RULES, attack, damage, HIT, 15) == ""
    with pytest.raises(RuleError, match="#DAMAGE ROLL"):
        resolution_damage.attack_damage(RULES, attack, damage, HIT, 15, None, 5)


@pytest.mark.parametrize("dice", [D4_MINUS_3, TWO_D3_PLUS_1, dice_module.parse("1d6")])
def test_odds_equal_a_brute_force_count(dice: dice_module.Dice):
    for bonus, ac in itertools.product((-2, 0, 5), (2, 11, 17, 25, 30)):
        found = generic_odds.damage_distribution(RULES, generic.Attack(bonus, ac), generic.Damage(dice))
        assert found == brute_force(bonus, ac, dice)
    attack, damage = generic.Attack(0, 11), generic.Damage(dice)
    one = generic_odds.damage_distribution(RULES, attack, damage)
    assert generic_odds.expected_damage(RULES, attack, damage, 3) == 3 * sum(a * p for a, p in one.items())
    assert generic_odds.kill_chance(RULES, attack, damage, 1) == 1 - one[0]


# --------------------------------------------------------------------------- other modes by YAML alone


def variant(tmp_path: Path, find: str, replace: str) -> RuleSet:
    folder = tmp_path / "bx"
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    text = header.read_text()
    assert text.count(find) == 1
    header.write_text(text.replace(find, replace))
    return load_folder(folder)


CRITICALS = {
    "double dice": "{dice_rolled: 1, rerolled: 1, modifier: 1}",
    "double total": "{dice_rolled: 2, modifier: 2}",
}


@pytest.mark.parametrize("name", list(CRITICALS))
def test_a_critical_on_20_by_yaml_alone(tmp_path: Path, name: str):
    rules = variant(
        tmp_path,
        "  critical: none\n  damage:\n",
        f"  critical: automatic\n  damage:\n    critical: {CRITICALS[name]}\n",
    )
    attack, damage = generic.Attack(0, 12), generic.Damage(TWO_D3_PLUS_1)
    assert (
        resolution_results.result(rules, attack, 20) == CRITICAL
        and resolution_results.result(rules, attack, 19) == HIT
    )
    assert resolution_chances.chances(rules, attack)[CRITICAL] == Fraction(1, 20)
    if name == "double dice":
        assert resolution_damage.attack_damage(rules, attack, damage, CRITICAL, 20, None, 5) == ""
        assert resolution_damage.attack_damage(rules, attack, damage, CRITICAL, 20, None, 5, 3) == 5 + 3 + 1
    else:
        assert resolution_damage.attack_damage(rules, attack, damage, CRITICAL, 20, None, 5) == 2 * (5 + 1)
    expected: dict[int, Fraction] = {}
    faces = range(1, 4)
    for roll, first, second in itertools.product(
        range(1, 21), itertools.product(faces, repeat=2), itertools.product(faces, repeat=2)
    ):
        weight = Fraction(1, 20 * 81)
        if roll == 20:
            amount = sum(first) + sum(second) + 1 if name == "double dice" else 2 * (sum(first) + 1)
        else:
            amount = sum(first) + 1 if roll != 1 and roll >= 12 else 0
        expected[amount] = expected.get(amount, Fraction(0)) + weight
    assert generic_odds.damage_distribution(rules, attack, damage) == expected


def test_a_fumble_on_every_natural_1_by_yaml_alone(tmp_path: Path):
    rules = variant(tmp_path, "  fumble: none\n", "  fumble: always\n")
    attack = generic.Attack(30, 10)
    assert resolution_results.result(rules, attack, 1) == FUMBLE
    assert resolution_chances.chances(rules, attack) == {
        MISS: 0,
        HIT: Fraction(19, 20),
        CRITICAL: 0,
        FUMBLE: Fraction(1, 20),
    }
