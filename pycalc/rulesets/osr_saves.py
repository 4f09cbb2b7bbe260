"""OSR house rules Saves vs Paralysis: the one after a special maneuver (whip entangle, dismount,
disarm; the level-gap bonus), and the one of a spellcaster hit while casting (spell interruption).

Reads ``special_maneuvers``, ``level_gap_save_bonus``, ``spell_interruption`` and
``spell_interruption_failure`` of ``tables/osr``; ``pycalc.sheets.osr_saves`` writes the same rules as
native formulas.
"""

from __future__ import annotations

from pycalc.errors import RuleError, not_in_list, said
from pycalc.tables import Row, RuleSet


def level_gap_save_bonus(rules: RuleSet, saver_level: int, attacker_level: int) -> int:
    """+1 to the save for every full 3 levels the saver is above the attacker."""
    if saver_level < 0 or attacker_level < 0:
        raise RuleError("#LEVEL? 0 or more")
    step = rules.constant("level_gap_save_bonus", "levels_per_step")
    per_step = rules.constant("level_gap_save_bonus", "save_bonus_per_step")
    return max(0, saver_level - attacker_level) // step * per_step


def maneuver_row(rules: RuleSet, maneuver: str) -> Row:
    try:
        row = rules.table("special_maneuvers").by_label(maneuver)
    except KeyError:
        raise not_in_list("maneuver", (r.label for r in rules.table("special_maneuvers").rows)) from None
    if row["saver"] is None:
        raise RuleError("#MANEUVER? no save for this one")
    return row


def maneuver_save_modifier(
    rules: RuleSet, maneuver: str, saver_level: int, attacker_level: int, target_str_bonus: int
) -> int:
    """What the saver adds to the Save vs Paralysis for a whip entangle, dismount or disarm."""
    row = maneuver_row(rules, maneuver)
    gap = level_gap_save_bonus(rules, saver_level, attacker_level)
    return (gap if row["level_gap_bonus"] else 0) - (target_str_bonus if row["minus_target_str_bonus"] else 0)


SAVE_MADE, SAVE_FAILED = "Made", "Failed"


def spell_interruption(rules: RuleSet, situation_label: str, save: str | None, d6_roll: int | None) -> str:
    """What happens to a spell whose caster is hit while casting."""
    try:
        row = rules.table("spell_interruption").by_label(situation_label)
    except KeyError:
        raise not_in_list("situation", (r.label for r in rules.table("spell_interruption").rows)) from None
    if not row["save_vs_paralysis"] or save is None:
        return str(row["result"])
    if save.casefold() == SAVE_MADE.casefold():
        return str(row["if_save_made"])
    if save.casefold() != SAVE_FAILED.casefold():
        raise RuleError(f"#SAVE? {SAVE_MADE} or {SAVE_FAILED}")
    if d6_roll is None:
        return str(row["if_save_failed"])
    bands = rules.table("spell_interruption_failure").rows
    low, high = bands[0].low, bands[-1].high
    if not low <= d6_roll <= high:
        raise RuleError(f"#D6? {low} to {high}")
    return str(rules.table("spell_interruption_failure").band(d6_roll)["outcome"])


def save_outputs(
    rules: RuleSet, maneuver: str, saver_level: int, attacker_level: int, target_str_bonus: int
) -> dict[str, object]:
    row: object = said(maneuver_row, rules, maneuver)
    return {
        "SAVE_LEVEL_GAP_BONUS": said(level_gap_save_bonus, rules, saver_level, attacker_level),
        "SAVE_WHO": row if isinstance(row, str) else row["saver"],
        "SAVE_MODIFIER": said(
            maneuver_save_modifier, rules, maneuver, saver_level, attacker_level, target_str_bonus
        ),
        "SAVE_EFFECT": row if isinstance(row, str) else row["effect"],
    }


def spell_outputs(
    rules: RuleSet, situation_label: str, save: str | None, d6_roll: int | None
) -> dict[str, object]:
    return {"SPELL_OUTCOME": said(spell_interruption, rules, situation_label, save, d6_roll)}
