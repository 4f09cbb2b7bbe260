"""Basic Fantasy RPG with house rules (bfrpg): d20 + AB + mods >= AC, critical threat and confirmation.

The natural-roll rules, as the seed states them ("THE COMBAT", "Critical Hits and Lingering
Injuries"): a natural 1 always fails; a natural 20 always hits and threatens a critical; a second
d20 that hits "normally" confirms it; no critical when only a natural 20 can hit. There is no
fumble chart. Every number is read from ``tables/bfrpg``; the ambiguities are its rulings.

Besides ``result`` (what ``pycalc.d20`` dispatches to) the module holds one pure function per
calculator of the workbook: ``attack_outputs``, ``critical_outputs``, ``two_weapon_hit``,
``helpless_damage``, ``joust_outputs``, ``parry_outputs``, ``firing_outputs``, ``surprise_outputs``.
Their keys are the workbook's defined names; '' stands for a cell left blank until rolled.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, HIT, MISS, Attack
from pycalc.errors import RuleError, not_in_list
from pycalc.tables import Row, RuleSet, Table

USES_FOLLOW_ROLL = True

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

# --------------------------------------------------------------------------- natural rolls


def attack_constant(rules: RuleSet, entry: str) -> int:
    return int(rules.constant("attack_roll", entry))


def faces(rules: RuleSet) -> int:
    return attack_constant(rules, "attack_die_faces")


def check_roll(rules: RuleSet, roll: int, what: str = "ROLL") -> int:
    if not 1 <= roll <= faces(rules):
        raise RuleError(f"#{what}? 1 to {faces(rules)}")
    return roll


def hits(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """A natural 1 always fails; a natural 20 always hits; otherwise total >= AC."""
    if roll <= attack_constant(rules, "natural_always_fails"):
        return False
    by_total = roll - attack.need >= attack_constant(rules, "hit_margin_min")
    return by_total or roll >= attack_constant(rules, "natural_always_hits")


def critical_possible(rules: RuleSet, attack: Attack) -> bool:
    """False when the only way to hit is the natural-20 rule (ruling only_natural_20_hits)."""
    always = attack_constant(rules, "natural_always_hits")
    if rules.ruling("only_natural_20_hits") == "no_critical":
        return attack.need < always
    return attack.need <= always


def threatens(rules: RuleSet, attack: Attack, roll: int) -> bool:
    threat = int(rules.constant("critical_hits", "threat_natural"))
    return roll >= threat and hits(rules, attack, roll) and critical_possible(rules, attack)


def confirms(rules: RuleSet, attack: Attack, follow_roll: int) -> bool:
    """The second roll is "a normal hit, not just another natural 20" (ruling confirmation_natural_1)."""
    if rules.ruling("confirmation_natural_1") == "fails" and follow_roll <= attack_constant(
        rules, "natural_always_fails"
    ):
        return False
    return follow_roll - attack.need >= attack_constant(rules, "hit_margin_min")


def confirm_min(rules: RuleSet, attack: Attack) -> int:
    """Lowest confirmation roll that confirms."""
    lowest = attack_constant(rules, "natural_always_fails") + 1
    floor = lowest if rules.ruling("confirmation_natural_1") == "fails" else 1
    return max(attack.need + attack_constant(rules, "hit_margin_min"), floor)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss, Hit or Critical. A threat without its confirmation roll yet is a Hit."""
    if not hits(rules, attack, roll):
        return MISS
    if threatens(rules, attack, roll) and follow_roll is not None and confirms(rules, attack, follow_roll):
        return CRITICAL
    return HIT


@dataclass(frozen=True)
class Odds:
    hit: Fraction  # any hit, criticals included
    critical: Fraction


def chances(rules: RuleSet, attack: Attack) -> Odds:
    """Exact odds over every (roll, confirmation roll) pair of the YAML's die."""
    count = faces(rules)
    rolls = range(1, count + 1)
    hit = sum(1 for roll in rolls if hits(rules, attack, roll))
    threat = sum(1 for roll in rolls if threatens(rules, attack, roll))
    confirm = sum(1 for follow in rolls if confirms(rules, attack, follow))
    return Odds(Fraction(hit, count), Fraction(threat * confirm, count * count))


# --------------------------------------------------------------------------- damage


def damage_dice(text: object) -> dice_module.Dice:
    """Weapon damage such as 1d8+2 (dice are needed: a critical adds the maximum die)."""
    parsed = dice_module.parse(text)
    if parsed.sides < 1:
        raise RuleError("#DICE? write it like 2d4+2")
    return parsed


def check_damage_roll(dice: dice_module.Dice, roll: int, what: str = "DAMAGE ROLL") -> int:
    """The sum shown on the dice, without the expression's modifier."""
    if not dice.count <= roll <= dice.count * dice.sides:
        raise RuleError(f"#{what}? {dice.count} to {dice.count * dice.sides}")
    return roll


def max_die(rules: RuleSet, dice: dice_module.Dice) -> int:
    """What a critical adds at maximum: "the max damage die"."""
    return int(rules.constant("critical_hits", "maximum_dice_added")) * dice.sides


def normal_damage(dice: dice_module.Dice, roll: int) -> int:
    return check_damage_roll(dice, roll) + dice.modifier


def critical_damage(rules: RuleSet, dice: dice_module.Dice, roll: int, extra_roll: int | None) -> int | None:
    """Ruling critical_damage; None while the second roll of normal_plus_max_plus_roll is missing."""
    base = normal_damage(dice, roll) + max_die(rules, dice)
    if rules.ruling("critical_damage") == "max_die_plus_roll":
        return base
    if extra_roll is None:
        return None
    return base + check_damage_roll(dice, extra_roll, "EXTRA DAMAGE ROLL") + dice.modifier


def helpless_damage(rules: RuleSet, dice: object, entry: str = "max_damage_multiplier") -> int:
    """Double the maximum usual damage (1d8+1 -> 18); entry backstab_max_multiplier for backstabs."""
    parsed = dice if isinstance(dice, dice_module.Dice) else dice_module.parse(dice)
    return int(rules.constant("helpless_damage", entry)) * parsed.maximum


def scaled(value: int, multiplier: object, round_up: bool) -> int:
    exact = value * Fraction(str(multiplier))
    return math.ceil(exact) if round_up else math.floor(exact)


@dataclass(frozen=True)
class Multipliers:
    double: int = 1  # charge, set weapon: damage_multiplier of charge_options
    mode: object = 1  # damage_mode: subduing with the flat of the blade halves
    water: object = 1  # underwater_weapons: swung weapons halve
    water_round_up: bool = False


def multiplied(rules: RuleSet, damage: int, fixed: int, by: Multipliers) -> int:
    """Doubling (``fixed``: the critical's maximum die, doubled or not by ruling), then halvings."""
    if rules.ruling("critical_with_double_damage") == "double_roll_only":
        total = (damage - fixed) * by.double + fixed
    else:
        total = damage * by.double
    total = scaled(total, by.mode, rules.ruling("subdual_half_rounding") == "up")
    total = scaled(total, by.water, by.water_round_up)
    return max(0, total)


# --------------------------------------------------------------------------- pickers


def default_choice(table: Table) -> str:
    return str(table.rows[0].label)


def chosen_row(rules: RuleSet, choices: dict[str, str], table_id: str) -> Row:
    table = rules.table(table_id)
    label = choices.get(table_id, default_choice(table))
    try:
        return table.by_label(label)
    except KeyError:
        raise not_in_list(table.title, (row.label for row in table.rows)) from None


def ticked_rows(rules: RuleSet, toggles: Iterable[tuple[str, str]], table_id: str) -> list[Row]:
    ticked = set(toggles)
    return [row for row in rules.table(table_id).rows if (table_id, row.id) in ticked]


# --------------------------------------------------------------------------- Attack calculator

ATTACK_CHOICES = (
    "attack_kinds",
    "charge_options",
    "cover_concealment",
    "firing_into_melee",
    "two_weapon_fighting",
    "unarmed_attacks",
    "damage_mode",
    "defense_stance",
    "underwater_weapons",
    "critical_effect",
)
ATTACK_TOGGLES = ("melee_conditions", "attacker_conditions", "ranged_conditions", "target_conditions")
RANGED_ONLY = frozenset({"firing_into_melee", "ranged_conditions"})
MELEE_ONLY = frozenset({"melee_conditions"})
SPECIAL_HIT = frozenset({"two_weapon_fighting"})  # its hit depends on DEX


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
    """The row's penalty less the DEX bonus, never better than the cap (ruling two_weapon_dex)."""
    reduces = row["dex_reduces"] and (rules.ruling("two_weapon_dex") == "both" or row.id != "primary_hand")
    if not reduces:
        return int(row["hit"])
    return min(int(rules.constant("two_weapon_rules", "penalty_cap")), int(row["hit"]) + dex_bonus)


def applies(table_id: str, ranged: bool) -> bool:
    return not ((table_id in RANGED_ONLY and not ranged) or (table_id in MELEE_ONLY and ranged))


def situation_rows(rules: RuleSet, inputs: AttackInputs, ranged: bool) -> list[tuple[str, Row]]:
    rows = [(t, chosen_row(rules, inputs.choices, t)) for t in ATTACK_CHOICES]
    rows += [(t, r) for t in ATTACK_TOGGLES for r in ticked_rows(rules, inputs.toggles, t)]
    return [(t, r) for t, r in rows if applies(t, ranged)]


def column_sum(rows: list[tuple[str, Row]], column: str, skip: frozenset[str] = frozenset()) -> int:
    return sum(int(r.values.get(column) or 0) for t, r in rows if t not in skip)


def attack_dice_text(rules: RuleSet, inputs: AttackInputs) -> tuple[str, int]:
    """The damage dice used (the brawling row's own, or ATTACK_DICE) and what is added to them."""
    unarmed = chosen_row(rules, inputs.choices, "unarmed_attacks")
    if unarmed["damage"] is None:
        return inputs.dice, 0
    added = inputs.str_bonus if unarmed["str_to_damage"] else 0
    added += int(unarmed["specialist_damage"]) if inputs.shield_specialist else 0
    return str(unarmed["damage"]), added


def blocked_label(rules: RuleSet, inputs: AttackInputs) -> str:
    """Label of the picked situation that rules out an attack ('' when the attack may be made)."""
    stance = chosen_row(rules, inputs.choices, "defense_stance")
    if not stance["can_attack"]:
        return str(stance.label)
    water = chosen_row(rules, inputs.choices, "underwater_weapons")
    return "" if water["usable"] else str(water.label)


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, object]:
    """Every output of the Attack calculator, by defined name."""
    choose = inputs.choices
    kind = chosen_row(rules, choose, "attack_kinds")
    ranged = bool(kind["ranged"])
    rows = situation_rows(rules, inputs, ranged)
    two_weapon = two_weapon_hit(rules, chosen_row(rules, choose, "two_weapon_fighting"), inputs.dex_bonus)
    ability = ability_bonus(rules, kind, inputs.str_bonus, inputs.dex_bonus)
    situation_hit = column_sum(rows, "hit", SPECIAL_HIT) + two_weapon
    situation_ac = column_sum(rows, "ac")
    attack = Attack(inputs.bonus, inputs.target + situation_ac, inputs.mods + ability + situation_hit)
    auto_hit = not ranged and any(r.values.get("auto_hit_melee") for _, r in rows)
    blocked = blocked_label(rules, inputs)
    odds = chances(rules, attack)
    out: dict[str, object] = {
        "ATTACK_ABILITY_BONUS": ability,
        "ATTACK_SITUATION_HIT": situation_hit,
        "ATTACK_SITUATION_AC": situation_ac,
        "ATTACK_TARGET_AC": attack.target,
        "ATTACK_NEED": attack.need,
        "ATTACK_CRIT_POSSIBLE": critical_possible(rules, attack) and not blocked and not auto_hit,
        "ATTACK_CONFIRM_MIN": confirm_min(rules, attack),
        "ATTACK_HIT_CHANCE": Fraction(0) if blocked else Fraction(1) if auto_hit else odds.hit,
        "ATTACK_CRIT_CHANCE": Fraction(0) if blocked or auto_hit else odds.critical,
        "ATTACK_OWN_AC_CHANGE": column_sum(rows, "own_ac"),
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_DAMAGE": "",
    }
    if inputs.roll is None:
        return out
    try:
        check_roll(rules, inputs.roll)
        if inputs.follow_roll is not None:
            check_roll(rules, inputs.follow_roll, "FOLLOW ROLL")
    except RuleError as error:
        out["ATTACK_RESULT"] = str(error)
        return out
    if blocked:
        outcome = MISS
    elif auto_hit:
        outcome = HIT
    else:
        outcome = result(rules, attack, inputs.roll, inputs.follow_roll)
    out["ATTACK_RESULT"] = outcome
    out["ATTACK_EFFECT"] = attack_effect(rules, inputs, attack, outcome, blocked, auto_hit, ranged)
    try:
        out["ATTACK_DAMAGE"] = attack_damage(rules, inputs, outcome, auto_hit)
    except RuleError as error:
        out["ATTACK_DAMAGE"] = str(error)
    return out


def subdual(rules: RuleSet, choices: dict[str, str]) -> bool:
    return bool(
        chosen_row(rules, choices, "damage_mode")["subdual"]
        or chosen_row(rules, choices, "unarmed_attacks")["subdual"]
    )


def attack_effect(
    rules: RuleSet,
    inputs: AttackInputs,
    attack: Attack,
    outcome: str,
    blocked: str,
    auto_hit: bool,
    ranged: bool,
) -> str:
    roll = inputs.roll or 0
    if blocked:
        return EFFECT_NO_ATTACK.format(label=blocked)
    suffix = EFFECT_SUBDUAL if subdual(rules, inputs.choices) else ""
    if auto_hit:
        return EFFECT_AUTO_HIT + suffix
    if outcome == MISS:
        margin = attack.need - roll  # AC minus the total
        shot = chosen_row(rules, inputs.choices, "firing_into_melee")
        stray_max = int(rules.constant("ranged_rules", "stray_hit_max_miss"))
        if ranged and shot["stray_hits_ally"] and 1 <= margin <= stray_max:
            return EFFECT_STRAY.format(margin=margin)
        if roll <= attack_constant(rules, "natural_always_fails"):
            return EFFECT_NATURAL_MISS.format(roll=roll)
        return EFFECT_MISS
    if outcome == CRITICAL:
        return (
            EFFECT_CRITICAL.format(label=chosen_row(rules, inputs.choices, "critical_effect").label) + suffix
        )
    if threatens(rules, attack, roll):
        if inputs.follow_roll is None:
            return EFFECT_THREAT.format(confirm=confirm_min(rules, attack)) + suffix
        return EFFECT_UNCONFIRMED + suffix
    if roll >= int(rules.constant("critical_hits", "threat_natural")):
        return EFFECT_NO_CRITICAL.format(roll=roll) + suffix
    return EFFECT_HIT + suffix


def attack_multipliers(rules: RuleSet, choices: dict[str, str]) -> Multipliers:
    water = chosen_row(rules, choices, "underwater_weapons")
    return Multipliers(
        int(chosen_row(rules, choices, "charge_options")["damage_multiplier"]),
        chosen_row(rules, choices, "damage_mode")["damage_multiplier"],
        water["damage_multiplier"],
        bool(water["round_up"]),
    )


def attack_damage(rules: RuleSet, inputs: AttackInputs, outcome: str, auto_hit: bool) -> int | str:
    """Damage of the attack: 0 on a miss, '' while a needed damage roll is missing."""
    if outcome == MISS:
        return 0
    text, added = attack_dice_text(rules, inputs)
    parsed = damage_dice(text)
    dice = dice_module.Dice(parsed.count, parsed.sides, parsed.modifier + added)
    by = attack_multipliers(rules, inputs.choices)
    if auto_hit:
        most = helpless_damage(rules, dice)
        return most if rules.ruling("helpless_multipliers") == "none" else multiplied(rules, most, 0, by)
    if inputs.damage_roll is None:
        return ""
    extra = chosen_row(rules, inputs.choices, "critical_effect")["extra_damage"]
    if outcome == CRITICAL and extra:
        total = critical_damage(rules, dice, inputs.damage_roll, inputs.extra_roll)
        return "" if total is None else multiplied(rules, total, max_die(rules, dice), by)
    return multiplied(rules, normal_damage(dice, inputs.damage_roll), 0, by)


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


def critical_outputs(rules: RuleSet, inputs: CriticalInputs) -> dict[str, object]:
    """Whether a natural 20 can be a critical, whether the follow roll confirms, and its damage."""
    attack = Attack(inputs.bonus, inputs.target, inputs.mods)
    possible = critical_possible(rules, attack)
    out: dict[str, object] = {
        "CRIT_NEED": attack.need,
        "CRIT_POSSIBLE": possible,
        "CRIT_CONFIRM_MIN": confirm_min(rules, attack),
        "CRIT_CHANCE": chances(rules, attack).critical,
        "CRIT_CONFIRMED": "",
        "CRIT_MAX_DIE": "",
        "CRIT_NORMAL_DAMAGE": "",
        "CRIT_DAMAGE": "",
    }
    if inputs.follow_roll is not None:
        try:
            check_roll(rules, inputs.follow_roll, "FOLLOW ROLL")
            out["CRIT_CONFIRMED"] = possible and confirms(rules, attack, inputs.follow_roll)
        except RuleError as error:
            out["CRIT_CONFIRMED"] = str(error)
    try:
        if inputs.double < 1:
            raise RuleError("#DOUBLE? 1 or more")
        dice = damage_dice(inputs.dice)
        out["CRIT_MAX_DIE"] = max_die(rules, dice)
        if inputs.damage_roll is None:
            return out
        by = Multipliers(double=inputs.double)
        out["CRIT_NORMAL_DAMAGE"] = multiplied(rules, normal_damage(dice, inputs.damage_roll), 0, by)
        total = critical_damage(rules, dice, inputs.damage_roll, inputs.extra_roll)
        out["CRIT_DAMAGE"] = "" if total is None else multiplied(rules, total, max_die(rules, dice), by)
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
    check_damage_roll(dice, roll, "BLOCK ROLL")
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
    attack = Attack(bonus, target, mods + int(shot["hit"]))
    out: dict[str, object] = {"FIRE_NEED": attack.need, "FIRE_MARGIN": "", "FIRE_OUTCOME": ""}
    if roll is None:
        return out
    if not 1 <= roll <= faces(rules):
        out["FIRE_OUTCOME"] = f"#ROLL? 1 to {faces(rules)}"
        return out
    margin = attack.need - roll
    out["FIRE_MARGIN"] = margin
    stray_max = int(rules.constant("ranged_rules", "stray_hit_max_miss"))
    if hits(rules, attack, roll):
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


# --------------------------------------------------------------------------- the generic engine


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``):
    the situation the pickers add up to is this ruleset's own."""
    kind = chosen_row(rules, inputs.choices, "attack_kinds")
    ranged = bool(kind["ranged"])
    rows = situation_rows(rules, inputs, ranged)
    two_weapon = two_weapon_hit(
        rules, chosen_row(rules, inputs.choices, "two_weapon_fighting"), inputs.dex_bonus
    )
    ability = ability_bonus(rules, kind, inputs.str_bonus, inputs.dex_bonus)
    hit = column_sum(rows, "hit", SPECIAL_HIT) + two_weapon
    attack = generic.Attack(
        inputs.bonus,
        inputs.target,
        inputs.mods + ability + hit,
        inputs.level,
        ac_change=column_sum(rows, "ac"),
        blocked=bool(blocked_label(rules, inputs)),
        auto_hit=not ranged and any(r.values.get("auto_hit_melee") for _, r in rows),
    )
    text, added = attack_dice_text(rules, inputs)
    parsed = damage_dice(text)
    by = attack_multipliers(rules, inputs.choices)
    damage = generic.Damage(
        dice_module.Dice(parsed.count, parsed.sides, parsed.modifier + added),
        multipliers={
            "double": Fraction(by.double),
            "mode": Fraction(str(by.mode)),
            "water": Fraction(str(by.water)),
        },
        round_up={"water": by.water_round_up},
        critical_extra=bool(chosen_row(rules, inputs.choices, "critical_effect")["extra_damage"]),
    )
    return attack, damage
