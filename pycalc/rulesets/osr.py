"""OSR house rules (seed 001, descending AC): what its Excel functions and subsystems share.

Every number comes from ``tables/osr``; the rulings in force come from ``rules.ruling(...)``.

Attack: the natural d20 needed is ``target - bonus - mods`` where ``target`` is the number the
GM's attack matrix gives for the defender's AC. A natural 1 always misses and is a Critical Fumble
when a second d20 rolls higher than the attacker's level; a natural 20 always hits (a Critical HIT
unless only a 19 or 20 could hit; 1 damage less per point needed over 20). Those rules, the
situation's pickers and typed numbers and the GM's fumble table are the ``resolution:`` block of
``tables/osr/ruleset.yaml``: the generic engine resolves them (``pycalc.resolution``) and the generic
calculator (``pycalc.resolution_calculator``) is osr's Attack calculator. This module keeps what the
osr Excel functions (``pycalc.udfs.osr``) say of one attack: its effect text (the seed's fumble
table is missing: :func:`fumble_effect` reads the GM's own rows and never invents one) and its
damage. Its subsystems have a module each: ``osr_surprise``, ``osr_mass_combat``, ``osr_normal_men``
(attacks against Normal Men, kills per round), ``osr_grappling``, ``osr_saves`` (saves after a
maneuver, spell interruption).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_damage, resolution_results
from pycalc.d20 import FUMBLE, HIT, HITS, OUTCOMES, Attack
from pycalc.errors import RuleError
from pycalc.resolution_block import Stage
from pycalc.tables import Row, RuleSet

BAD_DICE = "#DICE? write it like 2d4+2"  # the Excel functions' message for dice they cannot read

USES_FOLLOW_ROLL = True


DOUBLE = "double"  # the resolution block's damage multiplier stage of double damage


# --------------------------------------------------------------------------- constants


def constant(rules: RuleSet, table_id: str, entry_id: str) -> int:
    return rules.constant(table_id, entry_id)


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


def attack_dice(text: object) -> dice_module.Dice:
    """A weapon's dice as osr's Excel functions read them: dice (``1d8+1``), never a plain number."""
    if dice_module.PATTERN.match(re.sub(r"\s+", "", str(text or ""))) is None:
        raise RuleError(BAD_DICE)
    return dice_module.parse(text)


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


# --------------------------------------------------------------------------- calculator sections
# The subsystem modules' ``*_outputs`` each return every output of one calculator section by defined
# name, as the sheet shows it: a RuleError becomes its '#...' text, a value not yet computable is ''.


def shown(function: Callable[..., object], *args: object) -> object:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)
