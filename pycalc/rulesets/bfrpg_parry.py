"""Basic Fantasy RPG's Parry and block calculator: what is added to the parry d20 in a defensive
stance, whether the parry surpasses the attack roll, and whether the block absorbs the damage.

Reads ``parry_rules`` and ``parry_with`` of ``tables/bfrpg/maneuvers.yaml``, ``defense_stance`` of
``modifiers.yaml`` and the rulings parry_includes_str, block_magic_bonus and block_tie;
``pycalc.sheets.bfrpg_parry`` writes the same rules as native formulas.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycalc import dice as dice_module
from pycalc import resolution_damage
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

# Text the calculator shows (the workbook formulas use the same strings).
BLOCK_ABSORBED, BLOCK_FULL = "Absorbed", "Full damage"
FIGHTER, CLERIC, OTHER_CLASS = "Fighter", "Cleric", "Other"
CLASSES = (FIGHTER, CLERIC, OTHER_CLASS)


@dataclass(frozen=True)
class ParryInputs:
    stance: str
    parry_with: str
    attack_bonus: int
    str_bonus: int = 0
    parry_number: int = 1
    character_class: str = OTHER_CLASS
    level: int = 1
    ranged: bool = False
    attack_total: int | None = None
    roll: int | None = None
    block_roll: int | None = None
    magic_bonus: int = 0
    damage: int | None = None


def parry_rule(rules: RuleSet, entry: str) -> int:
    return int(rules.constant("parry_rules", entry))


def parries_allowed(rules: RuleSet, stance: Row, character_class: str, level: int) -> int | None:
    """Parries this round in that stance (None: every attack)."""
    base = stance["parries_per_round"]
    if base is None:
        return None
    if character_class == FIGHTER and base:
        return max(int(base), level * parry_rule(rules, "fighter_parries_per_level"))
    return int(base)


def parry_bonus(rules: RuleSet, inputs: ParryInputs) -> int:
    """What is added to the parry d20; RuleError when that parry may not be attempted."""
    stance = rules.table("defense_stance").by_label(inputs.stance)
    with_row = rules.table("parry_with").by_label(inputs.parry_with)
    if inputs.character_class not in CLASSES:
        raise RuleError(f"#CLASS? use {', '.join(CLASSES)}")
    allowed = parries_allowed(rules, stance, inputs.character_class, inputs.level)
    if allowed == 0:
        raise RuleError("#STANCE? parry only in partial or total defense")
    if with_row["block_dice"] is None:
        raise RuleError("#PARRY WITH? a weapon or a shield")
    if inputs.parry_number < 1:
        raise RuleError("#PARRY NUMBER? 1 or more")
    if allowed is not None and inputs.parry_number > allowed:
        raise RuleError(f"#PARRIES? at most {allowed} this round")
    if inputs.ranged and not (with_row["can_parry_ranged"] and inputs.character_class == FIGHTER):
        raise RuleError("#RANGED? only fighters with shields parry ranged attacks")
    bonus = inputs.attack_bonus + int(with_row["parry_bonus"]) + int(stance["parry_bonus"])
    bonus += inputs.str_bonus if rules.ruling("parry_includes_str") == "with_str" else 0
    bonus += (inputs.parry_number - 1) * int(stance["extra_parry_penalty"])
    bonus += parry_rule(rules, "ranged_parry_penalty") if inputs.ranged else 0
    return bonus


def block_total(rules: RuleSet, inputs: ParryInputs, roll: int) -> int:
    with_row = rules.table("parry_with").by_label(inputs.parry_with)
    dice = dice_module.parse(with_row["block_dice"])
    resolution_damage.check_damage_roll(dice, roll, "BLOCK ROLL")
    magic = with_row["block_adds_magic"] or rules.ruling("block_magic_bonus") == "weapon_or_shield"
    level = inputs.level * parry_rule(rules, "block_bonus_per_level")
    return (
        roll
        + dice.modifier
        + inputs.str_bonus
        + (inputs.magic_bonus if magic else 0)
        + (level if inputs.character_class in (FIGHTER, CLERIC) else 0)
    )


def parry_outputs(rules: RuleSet, inputs: ParryInputs) -> dict[str, object]:
    out: dict[str, object] = dict.fromkeys(
        ("PARRY_BONUS", "PARRY_TOTAL", "PARRY_SUCCESS", "BLOCK_TOTAL", "BLOCK_RESULT", "BLOCK_DAMAGE_TAKEN"),
        "",
    )
    try:
        out["PARRY_BONUS"] = bonus = parry_bonus(rules, inputs)
    except (RuleError, KeyError) as error:
        out["PARRY_BONUS"] = str(error) if isinstance(error, RuleError) else "#PICK? from the list"
        return out
    if inputs.roll is None:
        return out
    if not 1 <= inputs.roll <= parry_rule(rules, "parry_die_faces"):
        out["PARRY_TOTAL"] = f"#ROLL? 1 to {parry_rule(rules, 'parry_die_faces')}"
        return out
    out["PARRY_TOTAL"] = total = inputs.roll + bonus
    if inputs.attack_total is None:
        return out
    success = total - inputs.attack_total >= parry_rule(rules, "parry_must_exceed_attack_by")
    out["PARRY_SUCCESS"] = success
    if not success or inputs.block_roll is None:
        return out
    try:
        out["BLOCK_TOTAL"] = block = block_total(rules, inputs, inputs.block_roll)
    except RuleError as error:
        out["BLOCK_TOTAL"] = str(error)
        return out
    if inputs.damage is None:
        return out
    absorbed = block > inputs.damage or (block == inputs.damage and rules.ruling("block_tie") == "absorbed")
    out["BLOCK_RESULT"] = BLOCK_ABSORBED if absorbed else BLOCK_FULL
    out["BLOCK_DAMAGE_TAKEN"] = 0 if absorbed else inputs.damage
    return out
