"""OSR house rules mass combat: a unit fought as one man, the hit points a hit takes from it and the
men left alive.

Reads ``mass_combat`` of ``tables/osr`` and the ruling mass_combat_damage_multiplier;
``pycalc.sheets.osr_mass_combat`` writes the same rules as native formulas.
"""

from __future__ import annotations

from pycalc import dice as dice_module
from pycalc.errors import RuleError, said
from pycalc.tables import RuleSet


def check_men(men: int) -> int:
    if men < 1:
        raise RuleError("#MEN? 1 or more")
    return men


def mass_damage(rules: RuleSet, damage_roll: int, men: int) -> int:
    """Hit points a unit loses to one hit: the d6 times 10 (or times the men, by ruling)."""
    sides = dice_module.parse(rules.table("mass_combat").value("unit_damage_die", "dice")).sides
    if not 1 <= damage_roll <= sides:
        raise RuleError(f"#DAMAGE ROLL? 1 to {sides}")
    if rules.ruling("mass_combat_damage_multiplier") == "men_in_unit":
        return damage_roll * check_men(men)
    return damage_roll * rules.constant("mass_combat", "unit_damage_multiplier")


def mass_survivors(rules: RuleSet, original_hp: int, remaining_hp: int, men: int) -> int:
    """Men left alive: one per tenth (per man's share) of the original hit points left, rounded up."""
    check_men(men)
    if original_hp < 1:
        raise RuleError("#ORIGINAL HP? 1 or more")
    if remaining_hp > original_hp:
        raise RuleError("#REMAINING HP? at most the original hit points")
    if remaining_hp <= 0:
        return 0
    return -(-remaining_hp * men // original_hp)


def mass_outputs(
    rules: RuleSet, men: int, original_hp: int, hp_before: int, damage_roll: int | None
) -> dict[str, object]:
    damage: object = "" if damage_roll is None else said(mass_damage, rules, damage_roll, men)
    after = max(0, hp_before - damage) if isinstance(damage, int) else hp_before
    return {
        "MASS_DAMAGE_DEALT": damage,
        "MASS_HP_AFTER": after,
        "MASS_SLAIN": after <= 0,
        "MASS_SURVIVORS_LEFT": said(mass_survivors, rules, original_hp, after, men),
    }
