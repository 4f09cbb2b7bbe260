"""17 Combat non-lethal attacks or subdual damage (seed 17.0.16): the flat of the blade's half
damage, and whether the hit leaves the target conscious, unconscious or dead, and when it wakes.

Reads the ``flat_of_blade`` row of ``attack_situation`` and ``zero_hit_points`` of
``tables/combat17`` and the ruling subdual_half_rounding; ``pycalc.sheets.combat17_subdual`` writes
the same rules as native formulas.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from pycalc.tables import RuleSet

# Text the calculator shows (the same strings are written into the workbook's formulas).
CONSCIOUS, UNCONSCIOUS, DEAD = "Conscious", "Unconscious", "Dead"


def rounded(rules: RuleSet, value: Fraction) -> int:
    return math.floor(value) if rules.ruling("subdual_half_rounding") == "down" else math.ceil(value)


SUBDUAL_OUTPUTS = (
    "SUBDUAL_HIT_MOD",
    "SUBDUAL_DAMAGE_DEALT",
    "SUBDUAL_HP_AFTER",
    "SUBDUAL_STATE",
    "SUBDUAL_WAKE",
)


def subdual_damage(rules: RuleSet, damage_value: int) -> int:
    """Half normal damage (flat of the blade), rounded per subdual_half_rounding."""
    factor = Fraction(str(rules.table("attack_situation").value("flat_of_blade", "damage_multiplier")))
    return rounded(rules, damage_value * factor)


def wake_text(rules: RuleSet) -> str:
    table = rules.table("zero_hit_points")
    wake_hp, wake, revive = table.entry("wake_hp"), table.entry("wake_after"), table.entry("revive_after")
    return (
        f"wakes with {wake_hp['value']} {wake_hp['unit']} after {wake['dice']} {wake['unit']}, "
        f"or can be revived after {revive['dice']} {revive['unit']}"
    )


def subdual_outputs(
    rules: RuleSet,
    hp: int,
    damage_value: int,
    flat: bool = True,
    earlier_non_lethal: bool = False,
    unconscious: bool = False,
) -> dict[str, Any]:
    """A hit on a character: damage dealt (half with the flat of the blade) and whether they drop."""
    dealt = subdual_damage(rules, damage_value) if flat else damage_value
    after = hp - dealt
    zero = rules.constant("zero_hit_points", "zero_hp_threshold")
    if unconscious:
        state = DEAD if dealt > 0 else UNCONSCIOUS
    elif after > zero:
        state = CONSCIOUS
    else:
        state = UNCONSCIOUS if flat or earlier_non_lethal else DEAD
    return {
        "SUBDUAL_HIT_MOD": rules.table("attack_situation").value("flat_of_blade", "hit") if flat else 0,
        "SUBDUAL_DAMAGE_DEALT": dealt,
        "SUBDUAL_HP_AFTER": after,
        "SUBDUAL_STATE": state,
        "SUBDUAL_WAKE": wake_text(rules) if state == UNCONSCIOUS else "",
    }
