"""From each d20 ruleset's Attack calculator inputs to the generic engine's Attack and Damage.

The situation (what the pickers add up to) stays each ruleset's own; these adapters hand its sums
and flags to ``pycalc.resolution``. They are what the switch-over moves into the rulesets' modules,
and ``generic_outputs`` is what ``attack_outputs`` becomes: the same defined names, from the
generic engine. Tested against the four engines in ``test_resolution_calculators.py``.
"""

from __future__ import annotations

from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg, cnc, combat17, osr
from pycalc.tables import RuleSet


def cnc_attack(rules: RuleSet, inputs: cnc.AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    where = cnc.situation(rules, inputs)
    kind = cnc.chosen(rules, inputs, cnc.KIND_TABLE)
    dex = inputs.defender_dex if where.loses_dex else 0
    attack = generic.Attack(
        inputs.bonus, inputs.target, inputs.mods + where.hit, inputs.level, where.ac - dex
    )
    parsed = dice_module.parse("".join((inputs.dice or "").split()).lower() or "0")
    least, deals = int(kind["min_damage"]), bool(kind["deals_damage"])
    return attack, generic.Damage(parsed, where.damage, least=least, deals_damage=deals)


def osr_attack(rules: RuleSet, inputs: osr.AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    where = osr.situation(rules, inputs)
    rows = osr.picked_rows(rules, inputs)
    attack = generic.Attack(
        inputs.bonus,
        inputs.target,
        inputs.mods + where.hit,
        inputs.level,
        ac_change=where.ac,
        advantage=osr.flag(rows, "advantage"),
        disadvantage=osr.flag(rows, "disadvantage"),
        needs_magic=where.needs_magic,
    )
    double = int(rules.constant("damage_multipliers", "double_damage_multiplier"))
    multipliers = {"double": Fraction(double)} if where.double else {}
    return attack, generic.Damage(dice_module.parse(inputs.dice), multipliers=multipliers)


def combat17_attack(rules: RuleSet, inputs: combat17.AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    where = combat17.situation(rules, inputs)
    attack = generic.Attack(
        inputs.bonus, inputs.target, inputs.mods + where.hit, inputs.level, where.ac, cannot_hit=where.barred
    )
    damage = generic.Damage(
        dice_module.parse(inputs.dice), where.damage, multipliers={"situation": where.multiplier}
    )
    return attack, damage


def bfrpg_attack(rules: RuleSet, inputs: bfrpg.AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    kind = bfrpg.chosen_row(rules, inputs.choices, "attack_kinds")
    ranged = bool(kind["ranged"])
    rows = bfrpg.situation_rows(rules, inputs, ranged)
    two_weapon = bfrpg.two_weapon_hit(
        rules, bfrpg.chosen_row(rules, inputs.choices, "two_weapon_fighting"), inputs.dex_bonus
    )
    ability = bfrpg.ability_bonus(rules, kind, inputs.str_bonus, inputs.dex_bonus)
    hit = bfrpg.column_sum(rows, "hit", bfrpg.SPECIAL_HIT) + two_weapon
    attack = generic.Attack(
        inputs.bonus,
        inputs.target,
        inputs.mods + ability + hit,
        inputs.level,
        ac_change=bfrpg.column_sum(rows, "ac"),
        blocked=bool(bfrpg.blocked_label(rules, inputs)),
        auto_hit=not ranged and any(r.values.get("auto_hit_melee") for _, r in rows),
    )
    text, added = bfrpg.attack_dice_text(rules, inputs)
    parsed = bfrpg.damage_dice(text)
    by = bfrpg.attack_multipliers(rules, inputs.choices)
    damage = generic.Damage(
        dice_module.Dice(parsed.count, parsed.sides, parsed.modifier + added),
        multipliers={
            "double": Fraction(by.double),
            "mode": Fraction(str(by.mode)),
            "water": Fraction(str(by.water)),
        },
        round_up={"water": by.water_round_up},
        critical_extra=bool(bfrpg.chosen_row(rules, inputs.choices, "critical_effect")["extra_damage"]),
    )
    return attack, damage


ADAPTERS = {"cnc": cnc_attack, "osr": osr_attack, "combat17": combat17_attack, "bfrpg": bfrpg_attack}


def generic_outputs(rules: RuleSet, inputs: object) -> dict[str, object]:
    """The Attack calculator's common outputs (defined names) from the generic engine."""
    attack, damage = ADAPTERS[rules.id](rules, inputs)
    odds = generic.chances(rules, attack)
    found: dict[str, object] = {
        "ATTACK_NEED": generic.need(rules, attack),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": odds[FUMBLE],
        "ATTACK_RESULT": "",
        "ATTACK_DAMAGE": "",
    }
    roll, follow = getattr(inputs, "roll", None), getattr(inputs, "follow_roll", None)
    if roll is None:
        return found
    try:
        outcome = generic.result(rules, attack, roll, follow)
    except RuleError as error:
        return {**found, "ATTACK_RESULT": str(error)}
    found["ATTACK_RESULT"] = outcome
    try:
        found["ATTACK_DAMAGE"] = generic.attack_damage(
            rules,
            attack,
            damage,
            outcome,
            roll,
            follow,
            getattr(inputs, "damage_roll", None),
            getattr(inputs, "extra_roll", None),
        )
    except RuleError as error:
        found["ATTACK_DAMAGE"] = str(error)
    return found
