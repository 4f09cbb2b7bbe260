"""Castles & Crusades movement: the rate after the Castle Keeper's reduction, the feet each action
moves, grid squares, and whether a charge reaches its target.

Reads ``movement_rules`` and ``combat_actions`` of ``tables/cnc`` and the ruling
movement_reduction_limit; ``pycalc.sheets.cnc_movement`` writes the same rules as native formulas.
"""

from __future__ import annotations

from fractions import Fraction

from pycalc.errors import RuleError
from pycalc.resolution_range import BAD_DISTANCE
from pycalc.tables import RuleSet


def check_rate(rate: int) -> int:
    if rate <= 0:
        raise RuleError("#RATE? more than 0 ft")
    return rate


def reduced_rate(rules: RuleSet, rate: int, reduction: Fraction = Fraction(0)) -> int:
    """Movement rate after the Castle Keeper's reduction (a fraction of the rate, 0 to 1), capped by
    ruling movement_reduction_limit, fractions dropped (at least 1 ft), and never below 5 ft (or the
    whole rate when that is less)."""
    check_rate(rate)
    if not 0 <= reduction <= 1:
        raise RuleError("#REDUCTION? 0 to 1 (0.5 = half)")
    table = rules.table("movement_rules")
    cap = Fraction(str(table.value("max_terrain_reduction")))
    limit = cap if rules.ruling("movement_reduction_limit") == "reduced_by" else 1 - cap
    kept = int(rate * (1 - min(reduction, limit)))
    floor = min(rate, int(table.value("min_move_ft")))
    return max(int(table.value("min_rate_ft")), kept, floor)


def action_move(rules: RuleSet, rate: int, action: str) -> int:
    """Most feet moved with that action (combat_actions: attack, walk, jog, run...), fractions dropped."""
    try:
        row = rules.table("combat_actions").by_label(action)
    except KeyError:
        raise RuleError("#ACTION? pick an action from the list") from None
    return scaled_rate(rules, check_rate(rate), row["max_move"])


def scaled_rate(rules: RuleSet, rate: int, factor: float) -> int:
    """rate x factor with fractions dropped (at least 1 ft unless the factor is 0)."""
    if factor == 0:
        return 0
    return max(int(rules.constant("movement_rules", "min_rate_ft")), int(rate * Fraction(str(factor))))


def grid_squares(rules: RuleSet, rate: int) -> int:
    """Inches, hexes or squares: the rate divided by 5, fractions dropped."""
    return int(Fraction(check_rate(rate)) / Fraction(str(rules.constant("movement_rules", "grid_divisor"))))


def charge_window(rules: RuleSet, rate: int) -> tuple[int, int]:
    """Least and most distance of a charge: the movement rate to the jogging rate."""
    row = rules.table("combat_actions").entry("charge")
    check_rate(rate)
    return scaled_rate(rules, rate, row["min_move"]), scaled_rate(rules, rate, row["max_move"])


def charge_verdict(rules: RuleSet, rate: int, distance: int) -> str:
    if distance < 0:
        raise RuleError(BAD_DISTANCE)
    least, most = charge_window(rules, rate)
    if distance < least:
        return f"Too close: at least {least} ft"
    if distance > most:
        return f"Too far: at most {most} ft"
    return "Yes"
