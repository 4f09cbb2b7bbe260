"""OSR house rules (seed 001, descending AC): the Attack calculator's situation and the GM's calculators.

Every number comes from ``tables/osr``; the rulings in force come from ``rules.ruling(...)``.

Attack: the natural d20 needed is ``target - bonus - mods`` where ``target`` is the number the
GM's attack matrix gives for the defender's AC. A natural 1 always misses and is a Critical Fumble
when a second d20 rolls higher than the attacker's level; a natural 20 always hits (a Critical HIT
unless only a 19 or 20 could hit; 1 damage less per point needed over 20). Those rules are the
``resolution:`` block of ``tables/osr/ruleset.yaml``, resolved by the generic d20 engine
(``pycalc.resolution``), and so is its situation: the pickers of the block's ``modifiers`` list and
the typed DEX and shield points of its ``situation.numbers`` (:func:`situation`). This module keeps
what is the ruleset's own: the effect texts (the seed's fumble table is missing: :func:`fumble_effect`
reads the GM's own rows and never invents one). Its subsystems have a module each: ``osr_surprise``,
``osr_mass_combat``, ``osr_normal_men`` (attacks against Normal Men, kills per round),
``osr_grappling``, ``osr_saves`` (saves after a maneuver, spell interruption).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT, HITS, OUTCOMES, Attack
from pycalc.errors import RuleError
from pycalc.resolution_block import Stage
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

BAD_DICE = "#DICE? write it like 2d4+2"  # the calculator's own message for dice it cannot read

USES_FOLLOW_ROLL = True


picker_tables = resolution_situation.picker_tables  # the Attack calculator's choice or toggle pickers


DOUBLE = "double"  # the resolution block's damage multiplier stage of double damage


# --------------------------------------------------------------------------- constants


def constant(rules: RuleSet, table_id: str, entry_id: str) -> int:
    return rules.constant(table_id, entry_id)


def die_sides(rules: RuleSet) -> int:
    return constant(rules, "to_hit_roll", "to_hit_die_sides")


# --------------------------------------------------------------------------- the generic engine


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
    """The shared d20 interface (pycalc.d20): no situation flags."""
    return resolution_results.resolve(rules, generic.from_d20(attack), roll, follow_roll)


def double_stage(rules: RuleSet) -> Stage:
    """The block's double-damage stage: its factor, and the picker column that applies it."""
    return next(stage for stage in generic.block(rules).damage.multipliers if stage.name == DOUBLE)


def generic_damage(rules: RuleSet, dice: dice_module.Dice, double: bool = False) -> generic.Damage:
    """The weapon's dice for the generic engine, doubled when the situation says so."""
    times = Fraction(generic.value(rules, double_stage(rules).factor))
    return generic.Damage(dice, multipliers={DOUBLE: times} if double else {})


# --------------------------------------------------------------------------- effects and damage


def outcome_row(rules: RuleSet, outcome: str) -> Row:
    for row in rules.table("attack_outcomes").rows:
        if row["result"] == outcome:
            return row
    raise RuleError(f"#RESULT? use {', '.join(OUTCOMES)}")


def fumble_effect(rules: RuleSet, roll: int | None) -> str:
    """The GM's fumble table row for that roll (the block's chart over it: ``resolution_results``);
    '' before the roll. The seed has none, so none is invented: until the GM fills it in, it says where."""
    return resolution_results.chart_text(rules, ANY_ATTACK, FUMBLE, None, roll)


def attack_effect(rules: RuleSet, outcome: str, fumble_roll: int | None = None) -> str:
    """What the result does; for a Critical Fumble, the GM's fumble table line when there is one. A
    fumble table roll typed for another result is called out (a later fumble would read it)."""
    text = str(outcome_row(rules, outcome)["effect"])
    if outcome != FUMBLE:
        return text if fumble_roll is None else f"{text}{FUMBLE_ROLL_UNUSED.format(fumble_roll)}"
    said = str(shown(fumble_effect, rules, fumble_roll))
    return said if said.startswith("#") else f"{text}: {said or ROLL_ON_IT}"


ROLL_ON_IT = "roll on the fumble table"
FUMBLE_ROLL_UNUSED = " - the fumble table roll {} is not used by this roll: clear it"

# The formula of a hit does not depend on the attack here (no automatic hit, no critical chart).
ANY_ATTACK = generic.Attack(0, 0)


def hit_damage(
    rules: RuleSet,
    dice_text: str,
    damage_roll: int,
    penalty: int = 0,
    double: bool = False,
    outcome: str = HIT,
) -> int:
    """Damage of a hit whose natural-20 penalty is known: the generic engine's formula for that result
    (a Critical deals what a Hit deals) of the dice shown, doubled when the situation says so, less
    the penalty (ruling nat20_penalty_applies_to), never below the least (``pycalc.resolution_damage.amount``)."""
    damage = generic_damage(rules, attack_dice(dice_text), double)
    shown = resolution_damage.check_damage_roll(damage.dice, damage_roll)  # dice of none (a constant) show 0
    found = resolution_damage.formula_for(rules, ANY_ATTACK, damage, outcome, None)
    assert found is not None  # only a critical chart waits on a roll
    formula, multiplied = found
    return resolution_damage.amount(rules, formula, damage, formula.dice_rolled * shown, penalty, multiplied)


def damage_for(
    rules: RuleSet, outcome: str, dice_text: str, damage_roll: int | None, penalty: int, double: bool
) -> int | str:
    """0 for a miss or fumble, '' for a hit with no damage roll yet, else :func:`hit_damage`."""
    if outcome not in HITS:
        return 0
    if damage_roll is None:
        return ""
    return hit_damage(rules, dice_text, damage_roll, penalty, double, outcome)


# --------------------------------------------------------------------------- the Attack calculator


@dataclass(frozen=True)
class AttackInputs:
    bonus: int
    target: int
    mods: int = 0
    level: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    dice: str = "1d6+1"
    damage_roll: int | None = None
    fumble_roll: int | None = None
    target_shield: int = 0  # AC points the target's shield gives
    target_dex: int = 0  # AC points the target's DEX bonus gives
    attacker_dex: int = 0  # the DEX bonus inside the attack bonus
    choices: dict[str, str] = field(default_factory=dict)  # picker table id -> row label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (table id, row id) ticked


def situation(rules: RuleSet, inputs: AttackInputs) -> resolution_situation.Situation:
    """The picked rows and the typed DEX and shield points added up (the block's ``modifiers`` and
    ``situation.numbers``, by the generic engine)."""
    numbers = {
        "target_shield": inputs.target_shield,
        "target_dex": inputs.target_dex,
        "attacker_dex": inputs.attacker_dex,
    }
    return resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles, numbers)


def doubles(where: resolution_situation.Situation) -> bool:
    return where.multipliers.get(DOUBLE, 1) != 1


def situated_attack(
    rules: RuleSet, inputs: AttackInputs, where: resolution_situation.Situation
) -> generic.Attack:
    """The calculator's attack with its situation, for the generic engine (which turns the AC change
    into the number needed by ruling ac_change_to_number_needed)."""
    return situated(rules, inputs, where, dice_module.Dice(0, 0, 0))[0]


def situated(
    rules: RuleSet, inputs: AttackInputs, where: resolution_situation.Situation, dice: dice_module.Dice
) -> tuple[generic.Attack, generic.Damage]:
    base = generic.Attack(inputs.bonus, inputs.target, inputs.mods, inputs.level)
    return resolution_situation.situated(rules, base, generic.Damage(dice), where)


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``).
    RuleError for unreadable dice."""
    return situated(rules, inputs, situation(rules, inputs), attack_dice(inputs.dice))


def attack_dice(text: object) -> dice_module.Dice:
    """A weapon's dice as the Attack calculator reads them: dice (``1d8+1``), never a plain number."""
    if dice_module.PATTERN.match(re.sub(r"\s+", "", str(text or ""))) is None:
        raise RuleError(BAD_DICE)
    return dice_module.parse(text)


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, object]:
    """Every output of the Attack calculator, by defined name ('' where no roll yet): the situation,
    then the generic engine's number needed, chances, result, natural-20 penalty and damage."""
    where = situation(rules, inputs)
    attack = situated_attack(rules, inputs, where)
    odds = resolution_chances.chances(rules, attack)
    out: dict[str, object] = {
        "ATTACK_SITUATION_HIT": where.hit,
        "ATTACK_AC_CHANGE": where.ac,
        "ATTACK_TARGET_EFFECTIVE": generic.target(rules, attack),
        "ATTACK_NEED": generic.need(rules, attack),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": odds[FUMBLE],
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_NAT20_PENALTY": "",
        "ATTACK_DAMAGE": "",
        "ATTACK_CHART_EFFECT": shown(fumble_effect, rules, inputs.fumble_roll),
    }
    if inputs.roll is None:
        return out
    try:
        if inputs.level < 0:
            raise RuleError("#LEVEL? 0 or more")
        outcome = resolution_results.result(rules, attack, inputs.roll, inputs.follow_roll)
    except RuleError as error:
        return {**out, "ATTACK_RESULT": str(error), "ATTACK_EFFECT": str(error), "ATTACK_DAMAGE": str(error)}
    penalty = resolution_damage.natural_penalty(rules, attack, inputs.roll) if outcome in HITS else 0
    try:
        damage: object = damage_for(rules, outcome, inputs.dice, inputs.damage_roll, penalty, doubles(where))
    except RuleError as error:
        damage = str(error)
    out.update(
        ATTACK_RESULT=outcome,
        ATTACK_EFFECT=attack_effect(rules, outcome, inputs.fumble_roll),
        ATTACK_NAT20_PENALTY=penalty,
        ATTACK_DAMAGE=damage,
    )
    return out


# --------------------------------------------------------------------------- calculator sections
# The subsystem modules' ``*_outputs`` each return every output of one calculator section by defined
# name, as the sheet shows it: a RuleError becomes its '#...' text, a value not yet computable is ''.


def shown(function: Callable[..., object], *args: object) -> object:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)
