"""Castles & Crusades special ACs: the AC to hit to disarm, to grapple or overbear, and against a touch.

Reads ``disarm``, ``grapple_*``, ``overbearing`` and ``touch_attack_*`` of ``tables/cnc`` and their
rulings; ``pycalc.sheets.cnc_special_ac`` writes the same rules as native formulas.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycalc.errors import RuleError
from pycalc.rulesets.cnc import KIND_TABLE, kind_row
from pycalc.tables import RuleSet


def min_ac(rules: RuleSet) -> int:
    return int(rules.constant("armor_class", "minimum_ac"))


def disarm_ac(rules: RuleSet, hit_dice: int, dex: int = 0) -> int:
    """18 + hit dice or level of the defender (+ Dex bonus, ruling disarm_dex)."""
    if hit_dice < 0:
        raise RuleError("#LEVEL? 0 or more")
    table = rules.table("disarm")
    dex_part = dex if rules.ruling("disarm_dex") == "modifier" else max(0, dex)
    ac = int(table.value("disarm_base_ac")) + int(table.value("disarm_ac_per_hd_or_level")) * hit_dice
    return max(min_ac(rules), ac + dex_part)


GRAPPLE, OVERBEAR = "grapple", "overbear"


def grapple_kind(rules: RuleSet, kind: str) -> str:
    try:
        row_id = rules.table(KIND_TABLE).by_label(kind).id
    except KeyError:
        row_id = None
    if row_id not in (GRAPPLE, OVERBEAR):
        raise RuleError("#KIND? Grapple or Overbear")
    return str(row_id)


def size_modifier(rules: RuleSet, size_difference: int) -> int:
    """AC change for an attacker size_difference categories larger (negative: smaller)."""
    column = "ac_reversed" if rules.ruling("grapple_size_direction") == "reversed" else "ac_as_written"
    table = rules.table("grapple_size_modifier")
    if size_difference >= 0:
        return int(table.value("attacker_larger", column)) * size_difference
    return int(table.value("attacker_smaller", column)) * -size_difference


@dataclass(frozen=True)
class Defender:
    str_prime: bool = False
    str_mod: int = 0
    dex_mod: int = 0
    bth: int = 0
    normal_ac: int = 0  # only for ruling grapple_ac_reading = normal_ac


def grapple_ac(rules: RuleSet, kind: str, defender: Defender, size_difference: int = 0) -> int:
    """Target AC of a grappling or overbearing attack (size_difference: attacker minus defender)."""
    which = grapple_kind(rules, kind)
    if which == GRAPPLE and rules.ruling("grapple_ac_reading") == "normal_ac":
        return max(min_ac(rules), defender.normal_ac)
    base = rules.table("grapple_target_ac").value(
        "strength_prime" if defender.str_prime else "strength_not_prime", "ac"
    )
    column = "grappling" if which == GRAPPLE else rules.ruling("overbear_ac_modifiers")
    weights = rules.table("grapple_ac_modifiers")
    values = {
        "defender_str_modifier": defender.str_mod,
        "defender_dex_modifier": defender.dex_mod,
        "size_difference": size_modifier(rules, size_difference),
        "defender_bth": defender.bth,
        "defender_armor": 0,  # "not included": no input for it
    }
    total = int(base) + sum(int(weights.value(k, column)) * v for k, v in values.items())
    return max(min_ac(rules), total)


def grapple_allowed(rules: RuleSet, kind: str, size_difference: int) -> bool:
    """An attacker cannot knock over a defender two sizes larger (overbearing only)."""
    if grapple_kind(rules, kind) == GRAPPLE:
        return True
    return -size_difference <= int(rules.constant("overbearing", "max_defender_size_larger"))


def grapple_roll_bonus(rules: RuleSet, kind: str, str_mod: int, bth: int) -> int:
    """Str modifier, plus BtH where the kind adds it (overbearing: ruling overbear_attacker_bth)."""
    which = grapple_kind(rules, kind)
    adds = bool(kind_row(rules, which)["adds_bth"]) or (
        which == OVERBEAR and rules.ruling("overbear_attacker_bth") == "added"
    )
    return str_mod + (bth if adds else 0)


def touch_ac(
    rules: RuleSet, dex: int = 0, monster: bool = False, magic: int = 0, armor: int = 0, shield: int = 0
) -> int:
    """10, adjusted by what touch_attack_adjustments lets count for a character or a monster."""
    column = "monsters" if monster else "characters"
    table = rules.table("touch_attack_adjustments")
    values = {"dex_modifier": dex, "magic_protection": magic, "armor": armor, "shield": shield}
    total = int(rules.constant("touch_attack_ac", "touch_base_ac"))
    total += sum(v for k, v in values.items() if table.value(k, column))
    return max(min_ac(rules), total)
