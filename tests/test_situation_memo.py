"""``resolution_situation.picked_situation`` keeps its answers (a sheet's notes ask the same situation
again and again): a kept answer is the one worked out afresh, under any rulings, and a rules object
with other tables never gets another's."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pycalc import resolution_situation
from pycalc.tables import RuleSet, load_ruleset


def listed(ruleset_id: str) -> RuleSet:
    rules = load_ruleset(ruleset_id)
    block = rules.resolution_block
    if block is None or not isinstance(block.modifiers, tuple | list):
        pytest.skip(f"{ruleset_id}'s block lists no pickers")
    return rules


def random_case(rules: RuleSet, rng: random.Random) -> tuple[RuleSet, dict, list, dict]:
    """Random rulings in force, a random row of each choice table, random toggles, a typed number."""
    for ruling_id, ruling in rules.rulings.items():
        rules = dataclasses.replace(
            rules, chosen={**rules.chosen, ruling_id: rng.choice(list(ruling.choices))}
        )
    tables = [rules.table(t) for t in resolution_situation.modifier_tables(rules)]
    choices = {t.id: str(rng.choice(t.rows).label) for t in tables if t.picker == "choice"}
    toggles = [(t.id, r.id) for t in tables if t.picker == "toggle" for r in t.rows if rng.random() < 0.3]
    block = rules.resolution_block
    numbers = {n.id: rng.randint(-3, 3) for n in (block.situation.numbers if block.situation else ())}
    return rules, choices, toggles, numbers


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "bfrpg"])
def test_a_kept_situation_is_the_one_worked_out_afresh(ruleset_id: str):
    base = listed(ruleset_id)
    rng = random.Random(2026)
    cases = [random_case(base, rng) for _ in range(150)]
    for rules, choices, toggles, numbers in cases * 2:  # the second time round, every answer is kept
        worked_out = resolution_situation.worked_out_situation(rules, choices, toggles, numbers)
        assert resolution_situation.picked_situation(rules, choices, toggles, numbers) == worked_out


def test_rules_with_other_tables_are_not_answered_from_another():
    rules = listed("cnc")
    adding = rules.resolution_block.situation
    table_id = next(
        t
        for t in resolution_situation.modifier_tables(rules)
        if "hit" in rules.table(t).column_ids and not (adding and adding.only.get(t))
    )
    table = rules.table(table_id)
    row = next(r for r in table.rows if isinstance(r.values.get("hit"), int))
    changed_row = dataclasses.replace(row, values={**row.values, "hit": row.values["hit"] + 7})
    changed = dataclasses.replace(table, rows=tuple(changed_row if r is row else r for r in table.rows))
    house = dataclasses.replace(rules, tables={**rules.tables, table_id: changed})
    choices, toggles = (
        ({table_id: str(row.label)}, []) if table.picker == "choice" else ({}, [(table_id, row.id)])
    )
    before = resolution_situation.picked_situation(rules, choices, toggles)
    after = resolution_situation.picked_situation(house, choices, toggles)
    assert after.hit == before.hit + 7
