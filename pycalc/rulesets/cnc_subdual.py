"""Castles & Crusades subdual damage: how much of a subdual hit counts as normal damage.

Reads ``subdual_damage`` of ``tables/cnc``; the normal part is the encounter block's
``damage_kinds.normal_part`` (ruling subdual_normal_split), which the Attack calculator's target
state and the Encounter sheet count the same way.
"""

from __future__ import annotations

from pycalc.damage_kinds import normal_part
from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def subdual_total(rules: RuleSet, damage: int) -> int:
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    return max(int(rules.constant("subdual_damage", "weapon_subdual_min_damage")), damage)


def subdual_normal(rules: RuleSet, damage: int) -> int:
    """Points of a subdual hit counted as normal damage (``damage_kinds.normal_part``: the encounter
    block's ``normal_part``, ruling subdual_normal_split)."""
    return normal_part(rules, subdual_total(rules, damage))
