"""The whole Attack calculator through the generic engine: each ruleset's own situation (its pickers
and rulings) handed to pycalc.resolution by the adapters of resolution_adapters.py gives the same
need, chances, result, damage and damage distribution as the ruleset's attack_outputs and odds,
over seeded random picker scenarios with every ruling drawn at random.

bfrpg is not compared here any more: its attack_outputs and odds run on the generic engine through
its adapter, so the comparison would be of the engine with itself."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pycalc import resolution_odds as generic_odds
from pycalc.rulesets import cnc, cnc_odds, combat17, combat17_odds, osr, osr_odds
from pycalc.tables import RuleSet, load_ruleset
from tests.resolution_adapters import ADAPTERS, generic_outputs

SCENARIOS = 150
ENGINES = {
    "cnc": (cnc, cnc_odds, cnc.CHOICE_PICKERS, cnc.TOGGLE_PICKERS),
    "osr": (osr, osr_odds, osr.CHOICE_PICKERS, osr.TOGGLE_PICKERS),
    "combat17": (combat17, combat17_odds, combat17.ATTACK_CHOICE_PICKERS, combat17.ATTACK_TOGGLE_PICKERS),
}


def scenarios(ruleset_id: str, count: int, seed: int) -> list[tuple[RuleSet, object]]:
    engine, _, choice_tables, toggle_tables = ENGINES[ruleset_id]
    base = load_ruleset(ruleset_id)
    chance = random.Random(seed)
    found = []
    for _ in range(count):
        chosen = {r: chance.choice(list(ruling.choices)) for r, ruling in base.rulings.items()}
        rules = dataclasses.replace(base, chosen=chosen)
        choices = {}
        for table_id in choice_tables:
            rows = rules.table(table_id).rows
            choices[table_id] = str((chance.choice(rows) if chance.random() < 0.4 else rows[0]).label)
        toggles = frozenset(
            (t, r.id) for t in toggle_tables for r in rules.table(t).rows if chance.random() < 0.12
        )
        number, sides = chance.choice([1, 1, 2]), chance.choice([4, 6, 8])
        modifier = chance.randint(-2, 3)
        dice = f"{number}d{sides}{modifier:+d}" if modifier else f"{number}d{sides}"
        roll = chance.choice([1, 2, 19, 20, 20, chance.randint(1, 20)])
        fields = {
            "bonus": chance.randint(-2, 10),
            "target": chance.randint(8, 24),
            "mods": chance.randint(-3, 3),
            "roll": roll,
            "follow_roll": chance.choice([None, 1, 20, chance.randint(1, 20)]),
            "level": chance.randint(0, 9),
            "dice": dice,
            "damage_roll": chance.randint(number, number * sides),
            "choices": choices,
            "toggles": toggles,
        }
        if ruleset_id != "cnc":
            fields["damage_roll"] = chance.choice([None, fields["damage_roll"]])
        if ruleset_id == "cnc":
            fields.update(defender_dex=chance.randint(0, 3), attacker_dex=chance.randint(-1, 3))
        if ruleset_id == "osr":
            fields.update(
                target_shield=chance.randint(0, 2),
                target_dex=chance.randint(0, 2),
                attacker_dex=chance.randint(0, 2),
            )
        found.append((rules, engine.AttackInputs(**fields)))
    return found


@pytest.mark.parametrize("ruleset_id", list(ENGINES))
def test_attack_calculator_outputs(ruleset_id: str):
    engine = ENGINES[ruleset_id][0]
    compared = 0
    for rules, inputs in scenarios(ruleset_id, SCENARIOS, seed=10):
        expected = engine.attack_outputs(rules, inputs)
        got = generic_outputs(rules, inputs)
        for name, found in got.items():
            if name in expected:
                assert found == expected[name], (name, inputs, rules.chosen)
                compared += 1
    assert compared >= SCENARIOS * 4


@pytest.mark.parametrize("ruleset_id", list(ENGINES))
def test_damage_distribution(ruleset_id: str):
    odds = ENGINES[ruleset_id][1]
    for rules, inputs in scenarios(ruleset_id, SCENARIOS // 3, seed=11):
        expected = odds.damage_distribution(rules, odds.odds_attack(rules, inputs))
        attack, damage = ADAPTERS[ruleset_id](rules, inputs)
        assert generic_odds.damage_distribution(rules, attack, damage) == expected, (inputs, rules.chosen)
