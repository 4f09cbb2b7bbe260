"""17 Combat brawling (seed 17.0.17): a punch or kick, the natural d20 it needs, its damage (STR
added or not, lethal or not) and who takes it (a punch on hard armour hurts the attacker).

Reads ``brawling``, ``brawling_armour`` and ``kick_damage_readings`` of ``tables/combat17`` and the
ruling kick_damage; the damage is the Attack calculator's regular damage
(``pycalc.rulesets.combat17.damage``). ``pycalc.sheets.combat17_brawling`` writes the same rules as
native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.errors import RuleError, not_in_list
from pycalc.rulesets.combat17 import damage, guarded, parse_dice
from pycalc.tables import Row, RuleSet

# Text the calculator shows (the same strings are written into the workbook's formulas).
TARGET, ATTACKER = "Target", "Attacker"


BRAWL_OUTPUTS = (
    "BRAWL_HIT_MOD",
    "BRAWL_NEED",
    "BRAWL_DICE",
    "BRAWL_NON_LETHAL",
    "BRAWL_TAKES_DAMAGE",
    "BRAWL_DAMAGE",
)


def brawl_value(rules: RuleSet, row: Row, column: str) -> Any:
    """A brawling value; an empty one follows the ruling kick_damage."""
    value = row[column]
    if value is None:
        return rules.table("kick_damage_readings").value(rules.ruling("kick_damage"), column)
    return value


def brawl_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table("brawling").by_label(kind)
    except KeyError:
        raise not_in_list("brawl", (r.label for r in rules.table("brawling").rows)) from None


def brawl_outputs(
    rules: RuleSet,
    kind: str,
    bonus: int,
    target: int,
    mods: int = 0,
    strength: int = 0,
    damage_roll: int | None = None,
    armour: str | None = None,
) -> dict[str, Any]:
    """Punch or kick: the roll needed, and the damage and who takes it."""
    try:
        row = brawl_row(rules, kind)
        armour_table = rules.table("brawling_armour")
        armour_row = armour_table.by_label(armour) if armour else armour_table.rows[0]
    except KeyError:
        return dict.fromkeys(BRAWL_OUTPUTS, str(not_in_list("armour", (r.label for r in armour_table.rows))))
    except RuleError as error:
        return dict.fromkeys(BRAWL_OUTPUTS, str(error))
    dice = parse_dice(row["damage"])
    found: dict[str, Any] = {
        "BRAWL_HIT_MOD": row["hit"],
        "BRAWL_NEED": target - bonus - mods - row["hit"],
        "BRAWL_DICE": row["damage"],
        "BRAWL_NON_LETHAL": brawl_value(rules, row, "non_lethal"),
        "BRAWL_TAKES_DAMAGE": ATTACKER if armour_row["backfires"] else TARGET,
        "BRAWL_DAMAGE": "",
    }
    if damage_roll is not None:
        strength_added = strength if brawl_value(rules, row, "adds_strength") else 0
        found["BRAWL_DAMAGE"] = guarded(damage, rules, "regular_damage", dice, damage_roll, strength_added)
    return found
