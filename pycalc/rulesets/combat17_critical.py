"""17 Combat critical hits (seed 17.0.3): the Critical damage calculator (regular, maximum and
critical damage of a weapon, and what the follow-up d20 on the critical hit chart gives) and the
critical condition chart (the 1d4 rolled after a chart 20), as modifiers.

Reads ``outcomes``, ``critical_hits``, ``critical_conditions``, ``attacker_conditions`` and
``target_conditions`` of ``tables/combat17`` and the ruling critical_follow_up_roll, through the chart
readings the Attack calculator shares (``pycalc.rulesets.combat17``); ``pycalc.sheets.combat17_critical``
writes the same rules as native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.d20 import Attack, check_roll
from pycalc.errors import RuleError
from pycalc.rulesets.combat17 import (
    condition_row,
    condition_text,
    condition_unused,
    crit_line,
    crit_row,
    damage,
    follow_total,
    guarded,
    parse_dice,
)
from pycalc.tables import RuleSet


def critical_damage_outputs(
    rules: RuleSet,
    dice_text: object,
    damage_roll: int | None,
    follow_roll: int | None = None,
    mods: int = 0,
    condition_roll: int | None = None,
) -> dict[str, Any]:
    """Regular, maximum and critical damage of a weapon, and what the chart roll gives."""
    try:
        dice = parse_dice(dice_text)
    except RuleError as error:
        return dict.fromkeys(CRIT_OUTPUTS, str(error))
    pending = damage_roll is None and dice.count

    def variant(outcome_id: str) -> int | str:
        needs_roll = rules.table("outcomes").entry(outcome_id)["rolled_dice"]
        return "" if pending and needs_roll else guarded(damage, rules, outcome_id, dice, damage_roll)

    found: dict[str, Any] = {
        "CRIT_REGULAR": variant("regular_damage"),
        "CRIT_MAXIMUM": variant("maximum_damage"),
        "CRIT_CRITICAL": variant("critical_damage"),
        "CRIT_CHART": "",
        "CRIT_DAMAGE": "",
        "CRIT_CONDITION": "",
    }
    if follow_roll is None:
        return found
    attack = Attack(0, 0, mods)
    try:
        check_roll(follow_roll, "FOLLOW ROLL")
    except RuleError as error:
        found["CRIT_CHART"] = str(error)
        return found
    total = follow_total(rules, attack, follow_roll)
    row = crit_row(rules, total)
    found["CRIT_CHART"] = guarded(crit_line, rules, total, condition_roll)
    found["CRIT_DAMAGE"] = variant(str(row["damage"]))
    if row["condition_roll"] and condition_roll is not None:
        found["CRIT_CONDITION"] = guarded(condition_text, rules, condition_roll)
    elif condition_roll is not None:
        found["CRIT_CONDITION"] = condition_unused(condition_roll)
    return found


CRIT_OUTPUTS = (
    "CRIT_REGULAR",
    "CRIT_MAXIMUM",
    "CRIT_CRITICAL",
    "CRIT_CHART",
    "CRIT_DAMAGE",
    "CRIT_CONDITION",
)


# --------------------------------------------------------------------------- the condition chart


CONDITION_COLUMNS = {
    "CONDITION_HIT": ("attacker_conditions", "when_attacking", "hit"),
    "CONDITION_SAVES": ("attacker_conditions", "when_attacking", "saves"),
    "CONDITION_DC_CHECKS": ("attacker_conditions", "when_attacking", "dc_checks"),
    "CONDITION_INIT": ("attacker_conditions", "when_attacking", "init"),
    "CONDITION_AC_MELEE": ("target_conditions", "when_attacked", "ac_melee"),
    "CONDITION_AC_RANGED": ("target_conditions", "when_attacked", "ac_ranged"),
}
CONDITION_OUTPUTS = ("CONDITION_NAME", "CONDITION_EFFECT", "CONDITION_DISARMED", *CONDITION_COLUMNS)


def condition_modifier(rules: RuleSet, roll: int, output: str) -> int:
    table_id, link, column = CONDITION_COLUMNS[output]
    entry = condition_row(rules, roll)[link]
    return rules.table(table_id).value(entry, column) if entry else 0


def condition_outputs(rules: RuleSet, roll: int | None) -> dict[str, Any]:
    """The 1d4 condition chart: what the enemy suffers, as modifiers."""
    if roll is None:
        return dict.fromkeys(CONDITION_OUTPUTS, "")
    try:
        row = condition_row(rules, roll)
    except RuleError as error:
        return dict.fromkeys(CONDITION_OUTPUTS, str(error))
    found: dict[str, Any] = {
        "CONDITION_NAME": row["condition"],
        "CONDITION_EFFECT": row["effect"],
        "CONDITION_DISARMED": row["disarmed"],
    }
    found.update({name: condition_modifier(rules, roll, name) for name in CONDITION_COLUMNS})
    return found
