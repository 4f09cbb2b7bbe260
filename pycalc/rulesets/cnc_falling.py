"""Castles & Crusades falling damage: the dice of a fall by its height, and the Dex-check band.

Reads ``falling_damage`` of ``tables/cnc`` and the rulings falling_partial_increment and
falling_five_feet; ``pycalc.sheets.cnc_falling`` writes the same rule as native formulas.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def falling_increments(rules: RuleSet, feet: int) -> int:
    """10-ft increments of a fall above the Dex-check band (ruling falling_partial_increment)."""
    step = int(rules.constant("falling_damage", "increment_ft"))
    full, rest = divmod(feet, step)
    reading = rules.ruling("falling_partial_increment")
    if reading == "round_up":
        return full + (rest > 0)
    if reading == "round_down":
        return full
    return full + (rest > int(rules.constant("falling_damage", "partial_increment_counts_over_ft")))


@dataclass(frozen=True)
class Fall:
    dice: str  # damage dice ("0": none); in the Dex-check band, the damage on a failed check
    dex_check: bool  # a successful Dex check avoids all damage


def falling(rules: RuleSet, feet: int) -> Fall:
    if feet < 0:
        raise RuleError("#FEET? 0 or more")
    table = rules.table("falling_damage")
    low, high = int(table.value("dex_check_from_ft")), int(table.value("dex_check_to_ft"))
    check = Fall(str(table.value("dex_check_fail_damage", "dice")), True)
    if feet < low:
        five_counts = rules.ruling("falling_five_feet") == "dex_check"
        return check if five_counts and feet >= int(table.value("min_fall_ft")) else Fall("0", False)
    if feet <= high:
        return check
    n = falling_increments(rules, feet)
    first, more = int(table.value("dice_first_increment")), int(table.value("dice_added_per_increment"))
    count = n * first + more * n * (n - 1) // 2  # the (k+1)-th 10 feet deals first + k x more dice
    return Fall(f"{count}d{int(table.value('die_faces'))}" if count else "0", False)


def falling_damage(rules: RuleSet, feet: int) -> str:
    return falling(rules, feet).dice
