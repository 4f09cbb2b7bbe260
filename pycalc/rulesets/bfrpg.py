"""Basic Fantasy RPG with house rules (bfrpg): d20 + AB + mods >= AC, critical threat and confirmation.

The attack roll and its damage are resolved by the generic d20 engine (``pycalc.resolution``) from
the ``resolution:`` block of ``tables/bfrpg/ruleset.yaml``, which states the seed's rules ("THE
COMBAT", "Critical Hits and Lingering Injuries") with every number a table cell and every ambiguity
a ruling: a natural 1 always fails; a natural 20 always hits and threatens a critical; a second d20
that hits "normally" confirms it; no critical when only a natural 20 can hit; a critical adds the
maximum die; a charge doubles, subduing and swung weapons underwater halve; a helpless target takes
double the maximum. There is no fumble chart.

What is bfrpg's own stays here: the situation its pickers add up to (``situation``, handed to the
engine by ``generic_attack``), the effect texts, the damage a result deals, and the Attack
calculator's pure function ``attack_outputs``. Its subsystems, the Combat maneuvers calculators,
have a module each with one pure function: ``bfrpg_critical``, ``bfrpg_two_weapon``,
``bfrpg_helpless``, ``bfrpg_joust``, ``bfrpg_parry`` (parry and block), ``bfrpg_firing`` (firing into
melee), ``bfrpg_surprise``. Their keys are the workbook's defined names; '' stands for a cell left
blank until rolled. ``result`` (what ``pycalc.d20`` dispatches to), ``chances``,
``critical_possible``, ``confirms`` and ``confirm_min`` take a plain ``pycalc.d20.Attack`` and ask the
engine.
"""

from __future__ import annotations

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


# --------------------------------------------------------------------------- Attack calculator

KIND_TABLE = "attack_kinds"
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
