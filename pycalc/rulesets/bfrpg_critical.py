"""Basic Fantasy RPG's Critical calculator ("Critical Hits and Lingering Injuries"): whether a
natural 20 can be a critical, whether the confirmation d20 confirms it, and the critical's damage
(the maximum die added, a charge's doubling).

The roll and its damage are the generic d20 engine's (``pycalc.resolution``) from the ``resolution:``
block of ``tables/bfrpg/ruleset.yaml`` (``critical_hits`` of ``criticals.yaml``), with the rulings
only_natural_20_hits, confirmation_natural_1, critical_damage and critical_with_double_damage;
``pycalc.sheets.bfrpg_critical`` writes the same rules as native formulas.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage
from pycalc.d20 import CRITICAL, HIT
from pycalc.errors import RuleError
from pycalc.rulesets.bfrpg import damage_dice, result_damage
from pycalc.tables import RuleSet


def max_die(rules: RuleSet, dice: dice_module.Dice) -> int:
    """What a critical adds at maximum: "the max damage die" (the block's critical formula)."""
    critical = generic.block(rules).damage.critical
    return resolution_damage.coefficients(rules, critical).die_max * dice.sides


@dataclass(frozen=True)
class CriticalInputs:
    bonus: int
    target: int
    mods: int = 0
    follow_roll: int | None = None
    dice: str = "1d8"
    damage_roll: int | None = None
    extra_roll: int | None = None
    double: int = 1


def doubled(dice: dice_module.Dice, double: int) -> generic.Damage:
    """Damage of these dice doubled ``double`` times by a charge (ruling critical_with_double_damage)."""
    return generic.Damage(dice, multipliers={"double": Fraction(double)})


def critical_outputs(rules: RuleSet, inputs: CriticalInputs) -> dict[str, object]:
    """Whether a natural 20 can be a critical, whether the follow roll confirms, and its damage."""
    attack = generic.Attack(inputs.bonus, inputs.target, inputs.mods)
    possible = generic.critical_possible(rules, attack)
    out: dict[str, object] = {
        "CRIT_NEED": generic.raw_need(rules, attack),
        "CRIT_POSSIBLE": possible,
        "CRIT_CONFIRM_MIN": generic.confirm_min(rules, attack),
        "CRIT_CHANCE": resolution_chances.chances(rules, attack)[CRITICAL],
        "CRIT_CONFIRMED": "",
        "CRIT_MAX_DIE": "",
        "CRIT_NORMAL_DAMAGE": "",
        "CRIT_DAMAGE": "",
    }
    if inputs.follow_roll is not None:
        try:
            generic.check_roll(rules, inputs.follow_roll, "FOLLOW ROLL", generic.follow_faces(rules))
            out["CRIT_CONFIRMED"] = possible and generic.confirms(rules, attack, inputs.follow_roll)
        except RuleError as error:
            out["CRIT_CONFIRMED"] = str(error)
    try:
        if inputs.double < 1:
            raise RuleError("#DOUBLE? 1 or more")
        dice = damage_dice(inputs.dice)
        out["CRIT_MAX_DIE"] = max_die(rules, dice)
        if inputs.damage_roll is None:
            return out
        damage = doubled(dice, inputs.double)
        out["CRIT_NORMAL_DAMAGE"] = result_damage(rules, damage, HIT, inputs.damage_roll)
        out["CRIT_DAMAGE"] = result_damage(rules, damage, CRITICAL, inputs.damage_roll, inputs.extra_roll)
    except RuleError as error:
        for name in ("CRIT_MAX_DIE", "CRIT_NORMAL_DAMAGE", "CRIT_DAMAGE"):
            if out[name] == "":
                out[name] = str(error)
    return out
