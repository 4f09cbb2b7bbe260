"""The generic resolution engine equals pycalc.rulesets.cnc (and cnc_odds) on every roll, with the
seed's natural-roll boxes and with each house rule they offer."""

from __future__ import annotations

import itertools

import pytest

from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import HIT, MISS, Attack
from pycalc.rulesets import cnc, cnc_odds
from pycalc.tables import RuleSet, load_ruleset
from tests.resolution_cases import ATTACKS, DICE, damage_rolls, with_cell

RULES = load_ruleset("cnc")

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


def attack_of(bonus: int, target: int, mods: int) -> tuple[Attack, generic.Attack]:
    return Attack(bonus, target, mods), generic.Attack(bonus, target, mods)


@pytest.mark.parametrize("name", list(NATURAL))
def test_result_need_and_hit_chance(name: str):
    rules = natural(name)
    compared = 0
    for bonus, target, mods in ATTACKS:
        old, new = attack_of(bonus, target, mods)
        assert generic.need(rules, new) == cnc.need(rules, old)
        assert generic.hit_chance(rules, new) == cnc.hit_chance(rules, old)
        assert generic.chances(rules, new)["Critical"] == generic.chances(rules, new)["Fumble"] == 0
        for roll in range(1, 21):
            assert generic.result(rules, new, roll) == cnc.result(rules, old, roll), (
                bonus,
                target,
                mods,
                roll,
            )
            compared += 1
    assert compared == len(ATTACKS) * 20


def test_effective_ac_floor_and_situation_change():
    for target, ac, dex in itertools.product((-3, 1, 2, 10, 15), (-6, 0, 4), (0, 2, 5)):
        where = cnc.Situation(hit=0, ac=ac, damage=0, loses_dex=True)
        old = cnc.effective_ac(RULES, cnc.AttackInputs(bonus=0, target=target, defender_dex=dex), where)
        assert generic.target(RULES, generic.Attack(0, target, ac_change=ac - dex)) == old


@pytest.mark.parametrize("kind", [row.id for row in RULES.table("attack_types").rows])
def test_damage_of_every_kind(kind: str):
    row = RULES.table("attack_types").entry(kind)
    attack = generic.Attack(0, 10)
    for parsed, bonus, outcome in itertools.product(DICE, (0, 2), (HIT, MISS)):
        damage = generic.Damage(
            parsed, bonus, least=int(row["min_damage"]), deals_damage=bool(row["deals_damage"])
        )
        for shown in damage_rolls(parsed):
            old = cnc.attack_damage(RULES, outcome, str(parsed), shown, bonus, kind)
            roll = 15 if outcome == HIT else 2
            assert generic.attack_damage(RULES, attack, damage, outcome, roll, None, shown) == old


@pytest.mark.parametrize("name", ["seed", "both"])
@pytest.mark.parametrize("kind", ["melee", "grapple", "pummel"])
def test_damage_distribution(name: str, kind: str):
    rules = natural(name)
    row = rules.table("attack_types").entry(kind)
    for (bonus, target, mods), parsed, extra in itertools.product(ATTACKS[::2], DICE, (0, 2)):
        old_attack, new_attack = attack_of(bonus, target, mods)
        old = cnc_odds.damage_distribution(rules, cnc_odds.OddsAttack(old_attack, str(parsed), extra, kind))
        damage = generic.Damage(
            parsed, extra, least=int(row["min_damage"]), deals_damage=bool(row["deals_damage"])
        )
        assert generic_odds.damage_distribution(rules, new_attack, damage) == old
        assert sum(old.values()) == 1
