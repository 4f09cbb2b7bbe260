"""The generic resolution engine under the cnc ``resolution:`` block, which cnc's Attack calculator
and the shared attack functions (``pycalc.udfs.shared``) run on, against the rule as the seed and the tables state it: d20 + bonus + mods >= AC, AC
never below 1, the natural_rolls boxes (none ticked in the seed, each house rule they offer), and a
hit's damage = dice + modifier + bonus, at least the kind's least damage, none for a kind that deals
none. (These tests compared the engine with cnc's own code, which is gone: they now compare both
with the stated rule, worked out here face by face.)"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pycalc import log_picks, resolution_chances, resolution_damage, resolution_results
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import HIT, MISS, Attack
from pycalc.rulesets import cnc
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs import shared
from tests.resolution_cases import ATTACKS, DICE, damage_rolls, with_cell

RULES = load_ruleset("cnc")
# an attack kind as the Picks text names it (the first, melee, is an empty text)
KIND_PICKS = {str(RULES.table("attack_types").rows[0].id): ""} | {
    p.row_id: p.name for p in log_picks.named_picks(RULES) if p.table_id == "attack_types"
}
FACES = 20
LEAST_AC = 1  # "though never below 1"

# The natural_rolls boxes: the seed's (none ticked) and every single box and the usual pair ticked.
NATURAL = {
    "seed": [],
    "nat20_hits": [("natural_20", "auto_hit")],
    "nat1_misses": [("natural_1", "auto_miss")],
    "nat20_misses": [("natural_20", "auto_miss")],
    "nat1_hits": [("natural_1", "auto_hit")],
    "both": [("natural_20", "auto_hit"), ("natural_1", "auto_miss")],
}


def natural(name: str) -> RuleSet:
    rules = RULES
    for entry, column in NATURAL[name]:
        rules = with_cell(rules, "natural_rolls", entry, column, True)
    return rules


def stated_hit(name: str, bonus: int, target: int, mods: int, roll: int) -> bool:
    """The rule as stated: a ticked box decides its face, else the total against AC."""
    face = {1: "natural_1", FACES: "natural_20"}.get(roll)
    ticked = {column for entry, column in NATURAL[name] if entry == face}
    if ticked:
        return "auto_hit" in ticked
    return roll + bonus + mods >= target


def stated_damage(outcome: str, kind: str, dice_modifier: int, bonus: int, shown: int) -> int:
    row = RULES.table("attack_types").entry(kind)
    if outcome != HIT or not row["deals_damage"]:
        return 0
    return max(int(row["min_damage"]), shown + dice_modifier + bonus)


@pytest.mark.parametrize("name", list(NATURAL))
def test_result_need_and_hit_chance(name: str):
    rules = natural(name)
    compared = 0
    for bonus, target, mods in ATTACKS:
        new, old = generic.Attack(bonus, target, mods), Attack(bonus, target, mods)
        hits = [roll for roll in range(1, FACES + 1) if stated_hit(name, bonus, target, mods, roll)]
        assert generic.need(rules, new) == target - bonus - mods
        assert resolution_chances.hit_chance(rules, new) == Fraction(len(hits), FACES)
        assert (
            resolution_chances.chances(rules, new)["Critical"]
            == resolution_chances.chances(rules, new)["Fumble"]
            == 0
        )
        for roll in range(1, FACES + 1):
            expected = HIT if roll in hits else MISS
            assert resolution_results.result(rules, new, roll) == cnc.result(rules, old, roll) == expected, (
                bonus,
                target,
                mods,
                roll,
            )
            compared += 1
    assert compared == len(ATTACKS) * FACES


def test_effective_ac_floor_and_situation_change():
    for target, ac, dex in itertools.product((-3, 1, 2, 10, 15), (-6, 0, 4), (0, 2, 5)):
        attack = generic.Attack(0, target, ac_change=ac - dex)
        assert generic.target(RULES, attack) == max(LEAST_AC, target + ac - dex)
        as_given = generic.Attack(0, target, ac_change=ac - dex, target_as_given=True)
        assert generic.target(RULES, as_given) == target + ac - dex  # an AC already worked out


@pytest.mark.parametrize("kind", [row.id for row in RULES.table("attack_types").rows])
def test_damage_of_every_kind(kind: str):
    row = RULES.table("attack_types").entry(kind)
    attack = generic.Attack(0, 10)
    for parsed, bonus, outcome in itertools.product(DICE, (0, 2), (HIT, MISS)):
        damage = generic.Damage(
            parsed, bonus, least=int(row["min_damage"]), deals_damage=bool(row["deals_damage"])
        )
        for shown in damage_rolls(parsed):
            expected = stated_damage(outcome, kind, parsed.modifier, bonus, shown)
            roll = 15 if outcome == HIT else 2
            typed = (str(parsed), float(shown), 0.0, None, None, 0.0, float(bonus), KIND_PICKS[kind])
            assert shared.d20_damage("cnc", float(roll), 0.0, 10.0, *typed) == expected
            assert (
                resolution_damage.attack_damage(RULES, attack, damage, outcome, roll, None, shown) == expected
            )


@pytest.mark.parametrize("name", ["seed", "both"])
@pytest.mark.parametrize("kind", ["melee", "grapple", "pummel"])
def test_damage_distribution(name: str, kind: str):
    rules = natural(name)
    row = rules.table("attack_types").entry(kind)
    for (bonus, target, mods), parsed, extra in itertools.product(ATTACKS[::2], DICE, (0, 2)):
        stated: dict[int, Fraction] = {}
        weight = Fraction(1, FACES * parsed.sides**parsed.count)
        for roll in range(1, FACES + 1):
            outcome = HIT if stated_hit(name, bonus, target, mods, roll) else MISS
            for faces in itertools.product(range(1, parsed.sides + 1), repeat=parsed.count):
                amount = stated_damage(outcome, kind, parsed.modifier, extra, sum(faces))
                stated[amount] = stated.get(amount, Fraction(0)) + weight
        damage = generic.Damage(
            parsed, extra, least=int(row["min_damage"]), deals_damage=bool(row["deals_damage"])
        )
        attack = generic.Attack(bonus, target, mods)
        assert generic_odds.damage_distribution(rules, attack, damage) == stated
        if name == "seed":  # the shared functions read the shipped tables
            typed = ("cnc", float(bonus), float(target), str(parsed))
            for amount in range(1, max(stated) + 2):
                at_least = float(sum(p for dealt, p in stated.items() if dealt >= amount))
                situation = (1.0, float(mods), float(extra), 0.0, KIND_PICKS[kind])
                got = shared.d20_damage_chance_at_least(*typed, float(amount), *situation)
                assert got == pytest.approx(at_least, abs=1e-12)
