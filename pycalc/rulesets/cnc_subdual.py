"""Castles & Crusades subdual damage: how much of a subdual hit counts as normal damage.

Reads ``subdual_damage`` of ``tables/cnc`` and the ruling subdual_normal_split; the Attack
calculator's target state, the Encounter sheet and ``pycalc.sheets.cnc_subdual`` count it the same way.
"""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def subdual_total(rules: RuleSet, damage: int) -> int:
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    return max(int(rules.constant("subdual_damage", "weapon_subdual_min_damage")), damage)


def subdual_normal(rules: RuleSet, damage: int) -> int:
    """Points of a subdual hit counted as normal damage (ruling subdual_normal_split)."""
    total = subdual_total(rules, damage)
    per = int(rules.constant("subdual_damage", "subdual_points_per_normal_point"))
    reading = rules.ruling("subdual_normal_split")
    if reading == "started_fives":
        return -(-total // per)
    if reading == "full_fives":
        return total // per
    return max(1, total // per)  # "All subdual damage delivers some normal damage"
