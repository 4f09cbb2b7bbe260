"""Basic Fantasy RPG with house rules (bfrpg): d20 + AB + mods >= AC, critical threat and confirmation.

The attack roll and its damage are resolved by the generic d20 engine (``pycalc.resolution``) from
the ``resolution:`` block of ``tables/bfrpg/ruleset.yaml``, which states the seed's rules ("THE
COMBAT", "Critical Hits and Lingering Injuries") with every number a table cell and every ambiguity
a ruling: a natural 1 always fails; a natural 20 always hits and threatens a critical; a second d20
that hits "normally" confirms it; no critical when only a natural 20 can hit; a critical adds the
maximum die; a charge doubles, subduing and swung weapons underwater halve; a helpless target takes
double the maximum. There is no fumble chart.

What is bfrpg's own stays here: the situation its pickers add up to (``situation``, handed to the
engine by ``generic_attack``), the effect texts, and one pure function per calculator of the
workbook: ``attack_outputs``, ``critical_outputs``, ``two_weapon_outputs``, ``helpless_outputs``,
``joust_outputs``, ``parry_outputs``, ``firing_outputs``, ``surprise_outputs``. Their keys are the
workbook's defined names; '' stands for a cell left blank until rolled. ``result`` (what
``pycalc.d20`` dispatches to), ``chances``, ``critical_possible``, ``confirms`` and ``confirm_min``
take a plain ``pycalc.d20.Attack`` and ask the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, HIT, HITS, MISS, Attack
from pycalc.errors import RuleError
from pycalc.pickers import chosen_row
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read
picker_tables = resolution_situation.picker_tables  # the Attack calculator's choice or toggle pickers

USES_FOLLOW_ROLL = True
# No face of the die: the natural roll of a result already known (bfrpg's damage has no natural-roll rule).
NO_NATURAL_ROLL = 0

# Text the calculators show (the workbook formulas use the same strings).
EFFECT_MISS = "Miss"
EFFECT_HIT = "Hit: normal damage"
EFFECT_NATURAL_MISS = "Natural {roll}: always a miss"
EFFECT_STRAY = "Missed by {margin}: the shot hits the target's melee opponent (roll randomly if several)"
EFFECT_NO_ATTACK = "No attack possible: {label}"
EFFECT_AUTO_HIT = "Helpless target: automatic hit, double maximum damage"
EFFECT_THREAT = "Critical threat: roll the confirmation d20 ({confirm} or more confirms)"
EFFECT_UNCONFIRMED = "Critical threat not confirmed: normal damage"
EFFECT_NO_CRITICAL = "Natural {roll}: a hit, but no critical (only a natural 20 could hit)"
EFFECT_CRITICAL = "Critical hit: {label}"
EFFECT_SUBDUAL = ", subduing damage"
FIRE_HIT, FIRE_STRAY, FIRE_MISS = "Hit", "Miss: hits the target's melee opponent", "Miss"
BLOCK_ABSORBED, BLOCK_FULL = "Absorbed", "Full damage"
JOUST_SAVED = "Saved: stays in the saddle"
JOUST_UNHORSED = "Unhorsed: prone, {dice} falling damage"
JOUST_KNOCKED_OUT = ", knocked out {dice} rounds"
JOUST_STUNNED = ", stunned {dice} rounds"
JOUST_AFTER_WAKING = " after waking"
FIGHTER, CLERIC, OTHER_CLASS = "Fighter", "Cleric", "Other"
CLASSES = (FIGHTER, CLERIC, OTHER_CLASS)

# --------------------------------------------------------------------------- the attack roll (generic engine)


def faces(rules: RuleSet) -> int:
    return generic.faces(rules)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss, Hit or Critical. A threat without its confirmation roll yet is a Hit."""
    return resolution_results.resolve(rules, generic.from_d20(attack), roll, follow_roll)


def critical_possible(rules: RuleSet, attack: Attack) -> bool:
    """False when the only way to hit is the natural-20 rule (ruling only_natural_20_hits)."""
    return generic.critical_possible(rules, generic.from_d20(attack))


def confirms(rules: RuleSet, attack: Attack, follow_roll: int) -> bool:
    """The second roll is "a normal hit, not just another natural 20" (ruling confirmation_natural_1)."""
    return generic.confirms(rules, generic.from_d20(attack), follow_roll)


def confirm_min(rules: RuleSet, attack: Attack) -> int:
    """Lowest confirmation roll that confirms."""
    return generic.confirm_min(rules, generic.from_d20(attack))


@dataclass(frozen=True)
class Odds:
    hit: Fraction  # any hit, criticals included
    critical: Fraction


def chances(rules: RuleSet, attack: Attack) -> Odds:
    """Exact odds over every (roll, confirmation roll) pair of the YAML's die."""
    found = resolution_chances.chances(rules, generic.from_d20(attack))
    return Odds(found[HIT] + found[CRITICAL], found[CRITICAL])


def threatens(rules: RuleSet, attack: generic.Attack, roll: int) -> bool:
    """A roll that hits and threatens a critical: the confirmation d20 decides."""
    return (
        generic.in_rolls(rules, generic.critical_rolls(rules), roll)
        and resolution_results.resolve(rules, attack, roll) in HITS
        and generic.critical_possible(rules, attack)
    )


# --------------------------------------------------------------------------- damage


def damage_dice(text: object) -> dice_module.Dice:
    """Weapon damage such as 1d8+2 (dice are needed: a critical adds the maximum die)."""
    parsed = dice_module.parse(text)
    if parsed.sides < 1:
        raise RuleError("#DICE? write it like 2d4+2")
    return parsed


def max_die(rules: RuleSet, dice: dice_module.Dice) -> int:
    """What a critical adds at maximum: "the max damage die" (the block's critical formula)."""
    critical = generic.block(rules).damage.critical
    return resolution_damage.coefficients(rules, critical).die_max * dice.sides


def result_damage(
    rules: RuleSet,
    damage: generic.Damage,
    outcome: str,
    damage_roll: int | None,
    extra_roll: int | None = None,
    auto_hit: bool = False,
) -> int | str:
    """Damage of a result already known (Miss, Hit or Critical): 0 on a miss, '' while a damage roll
    it needs is missing. Of the attack only an automatic hit (a helpless target) changes the damage:
    bfrpg's block has no critical chart and no natural-roll penalty."""
    attack = generic.Attack(0, 0, auto_hit=auto_hit)
    return resolution_damage.attack_damage(
        rules, attack, damage, outcome, NO_NATURAL_ROLL, None, damage_roll, extra_roll
    )


def helpless_damage(rules: RuleSet, dice: object, entry: str = "max_damage_multiplier") -> int:
    """Double the maximum usual damage (1d8+1 -> 18); entry backstab_max_multiplier for backstabs."""
    parsed = dice if isinstance(dice, dice_module.Dice) else dice_module.parse(dice)
    return int(rules.constant("helpless_damage", entry)) * parsed.maximum


# --------------------------------------------------------------------------- Attack calculator

KIND_TABLE = "attack_kinds"
TWO_WEAPON = "two_weapon_fighting"
CRITICAL_EFFECT = "critical_effect"
DEX_NUMBER = "attacker_dex"  # the block's typed number the DEX bonus is (against a two-weapon penalty)


def ranged_only(rules: RuleSet) -> frozenset[str]:
    return pickers.only_for(pickers.declared(rules), pickers.RANGED)


def melee_only(rules: RuleSet) -> frozenset[str]:
    return pickers.only_for(pickers.declared(rules), pickers.MELEE)


@dataclass(frozen=True)
class AttackInputs:
    bonus: int
    target: int
    mods: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    level: int = 0
    dice: str = "1d8"
    damage_roll: int | None = None
    extra_roll: int | None = None  # second damage roll (ruling critical_damage normal_plus_max_plus_roll)
    str_bonus: int = 0
    dex_bonus: int = 0
    shield_specialist: bool = False
    choices: dict[str, str] = field(default_factory=dict)
    toggles: frozenset[tuple[str, str]] = frozenset()


def ability_bonus(rules: RuleSet, kind: Row, str_bonus: int, dex_bonus: int) -> int:
    ability = str(kind["ability"])
    if ability == "ruling":
        ability = rules.ruling("thrown_attack_ability")
    if ability == "better":
        return max(str_bonus, dex_bonus)
    return dex_bonus if ability == "dex" else str_bonus


def two_weapon_hit(rules: RuleSet, row: Row, dex_bonus: int) -> int:
    """The two-weapon row's penalty with the DEX bonus as the block's situation counts it (its typed
    ``attacker_dex``: while the row's ``dex_reduces`` by ruling two_weapon_dex is ticked, no further
    than the cap)."""
    adding = resolution_situation.modifiers_adding(rules)
    totals = pickers.added_up(rules, adding, [(TWO_WEAPON, row)])
    return (
        totals.sums["hit"]
        + resolution_situation.typed_sums(rules, adding, totals, {DEX_NUMBER: dex_bonus})["hit"]
    )


def attack_dice_text(rules: RuleSet, inputs: AttackInputs) -> tuple[str, int]:
    """The damage dice used (the brawling row's own, or ATTACK_DICE) and what is added to them."""
    unarmed = chosen_row(rules, inputs.choices, "unarmed_attacks")
    if unarmed["brawl_dice"] is None:
        return inputs.dice, 0
    added = inputs.str_bonus if unarmed["str_to_damage"] else 0
    added += int(unarmed["specialist_damage"]) if inputs.shield_specialist else 0
    return str(unarmed["brawl_dice"]), added


def blocked_label(rules: RuleSet, inputs: AttackInputs) -> str:
    """Label of the picked situation that rules out an attack ('' when the attack may be made)."""
    stance = chosen_row(rules, inputs.choices, "defense_stance")
    if not stance["can_attack"]:
        return str(stance.label)
    water = chosen_row(rules, inputs.choices, "underwater_weapons")
    return "" if water["usable"] else str(water.label)


@dataclass(frozen=True)
class Situation:
    """What the Attack calculator's pickers add up to (the block's situation, ``picked``) with what
    is bfrpg's own: the attack kind's ability bonus and what rules the attack out."""

    ability: int  # STR, DEX or the better of them, by the attack kind
    picked: resolution_situation.Situation
    ranged: bool
    blocked: str  # the label of what rules the attack out, '' when it may be made


def situation(rules: RuleSet, inputs: AttackInputs) -> Situation:
    kind = chosen_row(rules, inputs.choices, KIND_TABLE)
    numbers = {DEX_NUMBER: inputs.dex_bonus}
    return Situation(
        ability=ability_bonus(rules, kind, inputs.str_bonus, inputs.dex_bonus),
        picked=resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles, numbers),
        ranged=bool(kind["ranged"]),
        blocked=blocked_label(rules, inputs),
    )


def situated_attack(inputs: AttackInputs, where: Situation) -> generic.Attack:
    """The attack roll in the situation, as the generic engine's."""
    return generic.Attack(
        inputs.bonus,
        inputs.target,
        inputs.mods + where.ability + where.picked.hit,
        inputs.level,
        ac_change=where.picked.ac,
        blocked=bool(where.blocked),
        auto_hit=where.picked.auto_hit,
    )


def picked_damage(rules: RuleSet, choices: dict[str, str], dice: dice_module.Dice) -> generic.Damage:
    """The damage pickers (charge, subduing, underwater, what a critical does) on these dice, as the
    generic engine's damage: the block's multiplier stages double, mode and water."""
    extra = bool(chosen_row(rules, choices, CRITICAL_EFFECT)["extra_damage"])
    where = resolution_situation.picked_situation(rules, choices)
    unsituated = generic.Attack(0, 0), generic.Damage(dice, critical_extra=extra)
    return resolution_situation.situated(rules, *unsituated, where)[1]


def situated_damage(rules: RuleSet, inputs: AttackInputs) -> generic.Damage:
    """The damage dice used (the brawling row's own, or ATTACK_DICE, with what is added) and the pickers."""
    text, added = attack_dice_text(rules, inputs)
    parsed = damage_dice(text)
    return picked_damage(
        rules, inputs.choices, dice_module.Dice(parsed.count, parsed.sides, parsed.modifier + added)
    )


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``)."""
    return situated_attack(inputs, situation(rules, inputs)), situated_damage(rules, inputs)


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, object]:
    """Every output of the Attack calculator, by defined name."""
    where = situation(rules, inputs)
    attack = situated_attack(inputs, where)
    odds = resolution_chances.chances(rules, attack)
    out: dict[str, object] = {
        "ATTACK_ABILITY_BONUS": where.ability,
        "ATTACK_SITUATION_HIT": where.picked.hit,
        "ATTACK_SITUATION_AC": where.picked.ac,
        "ATTACK_TARGET_AC": generic.target(rules, attack),
        "ATTACK_NEED": generic.raw_need(rules, attack),
        "ATTACK_CRIT_POSSIBLE": generic.critical_possible(rules, attack)
        and not where.blocked
        and not where.picked.auto_hit,
        "ATTACK_CONFIRM_MIN": generic.confirm_min(rules, attack),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_OWN_AC_CHANGE": where.picked.own_ac,
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_DAMAGE": "",
    }
    if inputs.roll is None:
        return out
    try:
        outcome = resolution_results.result(rules, attack, inputs.roll, inputs.follow_roll)
    except RuleError as error:
        out["ATTACK_RESULT"] = str(error)
        return out
    out["ATTACK_RESULT"] = outcome
    out["ATTACK_EFFECT"] = attack_effect(rules, inputs, attack, outcome, where)
    try:
        out["ATTACK_DAMAGE"] = attack_damage(rules, inputs, outcome, where.picked.auto_hit)
    except RuleError as error:
        out["ATTACK_DAMAGE"] = str(error)
    return out


def subdual(rules: RuleSet, choices: dict[str, str]) -> bool:
    return bool(
        chosen_row(rules, choices, "damage_mode")["subdual"]
        or chosen_row(rules, choices, "unarmed_attacks")["subdual"]
    )


def attack_effect(
    rules: RuleSet, inputs: AttackInputs, attack: generic.Attack, outcome: str, where: Situation
) -> str:
    roll = inputs.roll or 0
    if where.blocked:
        return EFFECT_NO_ATTACK.format(label=where.blocked)
    suffix = EFFECT_SUBDUAL if subdual(rules, inputs.choices) else ""
    if where.picked.auto_hit:
        return EFFECT_AUTO_HIT + suffix
    if outcome == MISS:
        margin = generic.raw_need(rules, attack) - roll  # AC minus the total
        shot = chosen_row(rules, inputs.choices, "firing_into_melee")
        stray_max = int(rules.constant("ranged_rules", "stray_hit_max_miss"))
        if where.ranged and shot["stray_hits_ally"] and 1 <= margin <= stray_max:
            return EFFECT_STRAY.format(margin=margin)
        if generic.always_misses(rules, roll):
            return EFFECT_NATURAL_MISS.format(roll=roll)
        return EFFECT_MISS
    if outcome == CRITICAL:
        return (
            EFFECT_CRITICAL.format(label=chosen_row(rules, inputs.choices, "critical_effect").label) + suffix
        )
    if threatens(rules, attack, roll):
        if inputs.follow_roll is None:
            return EFFECT_THREAT.format(confirm=generic.confirm_min(rules, attack)) + suffix
        return EFFECT_UNCONFIRMED + suffix
    if generic.in_rolls(rules, generic.critical_rolls(rules), roll):
        return EFFECT_NO_CRITICAL.format(roll=roll) + suffix
    return EFFECT_HIT + suffix


def attack_damage(rules: RuleSet, inputs: AttackInputs, outcome: str, auto_hit: bool) -> int | str:
    """Damage of the attack: 0 on a miss (whatever the dice say), '' while a needed damage roll is missing."""
    if outcome not in HITS:
        return 0
    damage = situated_damage(rules, inputs)
    return result_damage(rules, damage, outcome, inputs.damage_roll, inputs.extra_roll, auto_hit)


# --------------------------------------------------------------------------- Critical calculator


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


# --------------------------------------------------------------------------- Two-weapon and helpless


def two_weapon_outputs(rules: RuleSet, dex_bonus: int) -> dict[str, object]:
    """The attack roll modifier of every two_weapon_fighting row for this DEX bonus."""
    table = rules.table("two_weapon_fighting")
    return {f"TWO_WEAPON_{row.id.upper()}": two_weapon_hit(rules, row, dex_bonus) for row in table.rows}


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


# --------------------------------------------------------------------------- Jousting


def joust_save_penalty(rules: RuleSet, damage: int) -> int:
    """-1 for each full 5 points of damage dealt."""
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    step = int(rules.constant("jousting_save", "damage_per_save_penalty"))
    return (damage // step) * int(rules.constant("jousting_save", "save_penalty_per_step"))


def optional_text(value: object) -> str:
    return "" if value is None else str(value)


def joust_outputs(
    rules: RuleSet, damage: int, save_target: int, str_bonus: int, roll: int | None
) -> dict[str, object]:
    out: dict[str, object] = dict.fromkeys(
        (
            "JOUST_SAVE_PENALTY",
            "JOUST_SAVE_TOTAL",
            "JOUST_FAILED_BY",
            "JOUST_UNHORSED",
            "JOUST_FALL_DAMAGE",
            "JOUST_STUNNED",
            "JOUST_KNOCKED_OUT",
            "JOUST_RESULT",
        ),
        "",
    )
    try:
        out["JOUST_SAVE_PENALTY"] = joust_save_penalty(rules, damage)
    except RuleError as error:
        out["JOUST_SAVE_PENALTY"] = out["JOUST_RESULT"] = str(error)
        return out
    if roll is None:
        return out
    if not 1 <= roll <= faces(rules):
        out["JOUST_RESULT"] = f"#ROLL? 1 to {faces(rules)}"
        return out
    total = roll + str_bonus + int(out["JOUST_SAVE_PENALTY"])  # type: ignore[call-overload]
    failed_by = save_target - total
    band = rules.table("jousting_save_failure").band(failed_by)
    assert band is not None  # the bands are open at both ends
    knocked_out = optional_text(band["knocked_out_rounds"])
    stunned = optional_text(band["stunned_rounds"])
    ruling = rules.ruling("joust_knockout_stun")
    if knocked_out and ruling == "knockout_only":
        stunned = ""
    out.update(
        JOUST_SAVE_TOTAL=total,
        JOUST_FAILED_BY=failed_by,
        JOUST_UNHORSED=bool(band["unhorsed"]),
        JOUST_FALL_DAMAGE=optional_text(band["unhorsed_damage"]),
        JOUST_STUNNED=stunned,
        JOUST_KNOCKED_OUT=knocked_out,
    )
    if not band["unhorsed"]:
        out["JOUST_RESULT"] = JOUST_SAVED
        return out
    text = JOUST_UNHORSED.format(dice=out["JOUST_FALL_DAMAGE"])
    if knocked_out:
        text += JOUST_KNOCKED_OUT.format(dice=knocked_out)
    if stunned:
        text += JOUST_STUNNED.format(dice=stunned)
        if knocked_out and ruling == "stun_after_waking":
            text += JOUST_AFTER_WAKING
    out["JOUST_RESULT"] = text
    return out


# --------------------------------------------------------------------------- Parry and block


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


# --------------------------------------------------------------------------- Firing into melee


def firing_outputs(
    rules: RuleSet, shot_label: str, bonus: int, target: int, mods: int, roll: int | None
) -> dict[str, object]:
    shot = rules.table("firing_into_melee").by_label(shot_label)
    attack = generic.Attack(bonus, target, mods + int(shot["hit"]))
    need = generic.raw_need(rules, attack)
    out: dict[str, object] = {"FIRE_NEED": need, "FIRE_MARGIN": "", "FIRE_OUTCOME": ""}
    if roll is None:
        return out
    if not 1 <= roll <= faces(rules):
        out["FIRE_OUTCOME"] = f"#ROLL? 1 to {faces(rules)}"
        return out
    margin = need - roll
    out["FIRE_MARGIN"] = margin
    stray_max = int(rules.constant("ranged_rules", "stray_hit_max_miss"))
    if resolution_results.resolve(rules, attack, roll) in HITS:
        out["FIRE_OUTCOME"] = FIRE_HIT
    elif shot["stray_hits_ally"] and 1 <= margin <= stray_max:
        out["FIRE_OUTCOME"] = FIRE_STRAY
    else:
        out["FIRE_OUTCOME"] = FIRE_MISS
    return out


# --------------------------------------------------------------------------- Surprise


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
