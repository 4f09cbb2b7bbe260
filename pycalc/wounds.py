"""Wound modifiers (spelljammer), with the seed's exception for low starting hit points."""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def _tier_index(rules: RuleSet, hp: int) -> int:
    rows = rules.table("wound_tiers").rows
    return next(i for i, row in enumerate(rows) if row.contains(hp))


def wound_modifier(rules: RuleSet, hp: int, starting_hp: int) -> int:
    """Modifier to all actions at ``hp`` current hit points.

    "If starting hit points are at one of these levels, then the character has no modifier until
    they reach the next level": the tier that holds the starting hit points gives no modifier.
    """
    if starting_hp <= 0:
        raise RuleError("#START HP? more than 0")
    tier = _tier_index(rules, hp)
    if tier == _tier_index(rules, starting_hp):
        return 0
    return rules.table("wound_tiers").rows[tier]["modifier"]
