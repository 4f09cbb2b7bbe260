"""Basic Fantasy RPG's Helpless opponent calculator: the damage of a melee hit on a helpless
opponent, double the maximum, and of a backstab on one.

Reads ``helpless_damage`` of ``tables/bfrpg/damage.yaml``; ``pycalc.sheets.bfrpg_helpless`` writes the
same rule as native formulas. (The Attack calculator's helpless target is the generic engine's
automatic hit, ``pycalc.rulesets.bfrpg``.)
"""

from __future__ import annotations

from pycalc import dice as dice_module
from pycalc.errors import RuleError
from pycalc.rulesets.bfrpg import damage_dice
from pycalc.tables import RuleSet


def helpless_damage(rules: RuleSet, dice: object, entry: str = "max_damage_multiplier") -> int:
    """Double the maximum usual damage (1d8+1 -> 18); entry backstab_max_multiplier for backstabs."""
    parsed = dice if isinstance(dice, dice_module.Dice) else dice_module.parse(dice)
    return int(rules.constant("helpless_damage", entry)) * parsed.maximum


def helpless_outputs(rules: RuleSet, dice: str | None, backstab: str | None) -> dict[str, object]:
    def one(text: str | None, entry: str) -> object:
        if text is None:
            return ""
        try:
            return helpless_damage(rules, damage_dice(text), entry) if text else ""
        except RuleError as error:
            return str(error)

    return {
        "HELPLESS_DAMAGE": one(dice, "max_damage_multiplier"),
        "HELPLESS_BACKSTAB_DAMAGE": one(backstab, "backstab_max_multiplier"),
    }
