"""``resolution_results.follow_matters``: the odds resolve a natural roll once, not once per follow-up roll, where
no follow-up roll changes its result or its damage. Checked against ``resolve`` and ``formula_for`` for
every d20 ruleset (and the B/X-like fixture), every choice of every ruling, and attacks that reach each
branch of the resolution."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pycalc import dice, resolution, resolution_chances, resolution_damage, resolution_results
from pycalc.tables import RuleSet, load_folder, load_ruleset

FIXTURE = Path(__file__).parent / "fixtures" / "tables" / "bx"
ATTACKS = [
    resolution.Attack(5, 15, 1, 5),
    resolution.Attack(0, 21, 0, 1),  # only an always-hit roll hits
    resolution.Attack(12, 10, 3, 9, advantage=True),
    resolution.Attack(2, 14, -2, 0, disadvantage=True),
    resolution.Attack(5, 15, needs_magic=True),
    resolution.Attack(5, 15, cannot_hit=True),
    resolution.Attack(5, 15, blocked=True),
    resolution.Attack(5, 15, auto_hit=True),
]
DAMAGE = resolution.Damage(dice.parse("2d6+1"), 1)


def variants(rules: RuleSet) -> list[RuleSet]:
    """The ruleset under its defaults and under every other choice of each ruling."""
    return [rules] + [
        dataclasses.replace(rules, chosen={ruling: choice})
        for ruling, spec in rules.rulings.items()
        for choice in spec.choices
        if choice != spec.default
    ]


def what_the_roll_gives(rules: RuleSet, attack: resolution.Attack, roll: int, follow: int | None) -> object:
    outcome = resolution_results.resolve(rules, attack, roll, follow)
    return outcome, resolution_damage.formula_for(rules, attack, DAMAGE, outcome, follow)


@pytest.mark.parametrize("ruleset", ["cnc", "osr", "combat17", "bfrpg", "bx"])
def test_a_roll_the_follow_roll_does_not_matter_to_gives_the_same_with_every_follow_roll(ruleset: str):
    base = load_folder(FIXTURE) if ruleset == "bx" else load_ruleset(ruleset)
    checked = followed = 0
    rolled_twice = False
    for rules in variants(base):
        rolled_twice |= resolution.uses_follow_roll(rules)
        follows = [follow for follow, _ in resolution_chances.follow_weights(rules)]
        for attack in ATTACKS:
            for roll, _ in resolution_chances.roll_weights(rules, attack):
                given = {repr(what_the_roll_gives(rules, attack, roll, follow)) for follow in follows}
                if resolution_results.follow_matters(rules, attack, roll):
                    followed += 1
                else:
                    assert len(given) == 1, (ruleset, rules.chosen, attack, roll, given)
                checked += 1
    assert checked > 100
    assert followed > 0 or not rolled_twice  # a ruleset with a follow-up roll met rolls it decides
