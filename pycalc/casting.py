"""Spell casting time and the initiative a spell goes off on (spelljammer)."""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def spell_kinds(rules: RuleSet) -> list[str]:
    return [c.id.upper() for c in rules.table("mage_casting_time").columns]


def cast_time(rules: RuleSet, rank: int, kind: str) -> int:
    """Casting time of a mage spell of this rank and kind (GK or SK)."""
    table = rules.table("mage_casting_time")
    column = kind.strip().lower()
    if column not in table.column_ids:
        raise RuleError(f"#KIND? use {' or '.join(spell_kinds(rules))}")
    band = table.band(rank)
    if band is None:
        raise RuleError(f"#RANK? {table.rows[0].low} to {table.rows[-1].high}")
    return band[column]


def spell_goes_off(rules: RuleSet, initiative: int, casting_time: int) -> int | str:
    """The initiative the spell goes off on this round, or what happens when that is too late.

    Too late means at or after the initiative on which actions are lost (-6); the late_spell
    ruling says whether the casting restarts on initiative 10 next round or is lost.
    """
    if casting_time < 0:
        raise RuleError("#CASTING TIME? 0 or more")
    goes_off = initiative - casting_time
    if goes_off > rules.constant("initiative_rules", "lost_at_or_below"):
        return goes_off
    if rules.ruling("late_spell") == "lost":
        return "Lost"
    restart = rules.constant("initiative_rules", "round_start_for_long_spells")
    return f"Next round on {restart - casting_time}"
