"""Basic Fantasy RPG's Surprise calculator: the highest d6 roll that surprises a side in that
situation with its adjustments, the odds, and whether a roll surprises.

Reads ``surprise_range``, ``surprise_adjustments`` and ``surprise_roll`` of
``tables/bfrpg/initiative_surprise.yaml``; ``pycalc.sheets.bfrpg_surprise`` writes the same rule as
native formulas.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from pycalc.tables import RuleSet


def surprise_max(rules: RuleSet, range_label: str, adjustments: Iterable[str]) -> int:
    """Highest d6 roll that surprises (0: never)."""
    base = int(rules.table("surprise_range").by_label(range_label)["surprised_max"])
    table = rules.table("surprise_adjustments")
    wanted = set(adjustments)
    total = base + sum(int(r["surprised_max"]) for r in table.rows if r.id in wanted)
    return max(0, total)


def surprise_outputs(
    rules: RuleSet, range_label: str, adjustments: Iterable[str], roll: int | None
) -> dict[str, object]:
    die = int(rules.constant("surprise_roll", "surprise_die_faces"))
    top = surprise_max(rules, range_label, adjustments)
    out: dict[str, object] = {
        "SURPRISE_MAX": top,
        "SURPRISE_ODDS": Fraction(min(top, die), die),
        "SURPRISED": "",
    }
    if roll is not None:
        out["SURPRISED"] = roll <= top if 1 <= roll <= die else f"#ROLL? 1 to {die}"
    return out
