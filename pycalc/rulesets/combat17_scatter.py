"""17 Combat missiles that miss (seed 17.0.12): where a grenade-like missile lands, a direct hit or
the 1d10 square of the scatter diagram.

Reads ``grenade_scatter`` and ``grenade_missiles`` of ``tables/combat17`` and the ruling
grenade_missing_ten; ``pycalc.sheets.combat17_scatter`` writes the same rule as native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.tables import RuleSet

# Text the calculator shows (the same strings are written into the workbook's formulas).
DIRECT_HIT, ROLL_AGAIN = "Direct hit", "Roll again"


GRENADE_OUTPUTS = ("GRENADE_LANDS", "GRENADE_TOWARD_FT", "GRENADE_RIGHT_FT", "GRENADE_DISTANCE_FT")


def scatter(rules: RuleSet, hit: bool, roll: int | None) -> dict[str, Any]:
    """Where a grenade-like missile lands: a direct hit, or the 1d10 diagram square."""
    if hit:
        return dict(zip(GRENADE_OUTPUTS, (DIRECT_HIT, 0, 0, 0), strict=True))
    if roll is None:
        return dict.fromkeys(GRENADE_OUTPUTS, "")
    table = rules.table("grenade_scatter")
    row = table.band(roll)
    if row is None:
        return dict.fromkeys(GRENADE_OUTPUTS, f"#SCATTER ROLL? {table.rows[0].low} to {table.rows[-1].high}")
    if row["reinterpreted"] and rules.ruling("grenade_missing_ten") == "reroll_ten":
        return dict(zip(GRENADE_OUTPUTS, (ROLL_AGAIN, "", "", ""), strict=True))
    square = rules.table("grenade_missiles").value("scatter_square_ft")
    toward, right = row["toward_thrower"], row["to_right"]
    return {
        "GRENADE_LANDS": row["direction"],
        "GRENADE_TOWARD_FT": toward * square,
        "GRENADE_RIGHT_FT": right * square,
        "GRENADE_DISTANCE_FT": max(abs(toward), abs(right)) * square,
    }
