"""The damage of a d20 attack's outcome from the ``resolution:`` block: the formula of the outcome (or
of the critical chart's row), the multiplier stages and their rounding, the natural penalty and the
least damage."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc.d20 import CRITICAL, HIT
from pycalc.errors import RuleError
from pycalc.resolution import LOWEST_FACE, Attack, Damage, always_hits, block, critical_mode, get, need_basis
from pycalc.resolution_block import (
    HIT_FORMULA,
    Formula,
)
from pycalc.resolution_results import critical_chart, critical_chart_row
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class Coefficients:
    """A formula with every number resolved."""

    dice_rolled: int
    rerolled: int
    dice_max: int
    die_max: int
    modifier: int

    @property
    def rolls_dice(self) -> bool:
        return bool(self.dice_rolled or self.rerolled)


def coefficients(rules: RuleSet, spec: Any) -> Coefficients:
    """A formula of the block (inline, a row of ``damage.formulas``, or by ruling) resolved."""
    spec = get(rules, spec)
    if isinstance(spec, str):
        table = block(rules).damage.formulas
        assert table is not None  # checked when the YAML is loaded
        row = rules.table(table.table).entry(spec)
        found = {key: int(row[column]) for key, column in table.columns.items()}
        return Coefficients(**{key: found.get(key, 0) for key in Coefficients.__dataclass_fields__})
    formula = spec if isinstance(spec, Formula) else HIT_FORMULA
    return Coefficients(
        *(int(get(rules, getattr(formula, key))) for key in Coefficients.__dataclass_fields__)
    )


def formula_for(
    rules: RuleSet, attack: Attack, damage: Damage, outcome: str, follow: int | None
) -> tuple[Coefficients, bool] | None:
    """(formula, multipliers applied) of a hit; None while the critical chart is not rolled."""
    rule = block(rules).damage
    if attack.auto_hit and not attack.blocked and rule.auto_hit is not None:
        return coefficients(rules, rule.auto_hit), bool(get(rules, rule.auto_hit_multiplied))
    if outcome != CRITICAL or not damage.critical_extra:
        return coefficients(rules, rule.hit), True
    if critical_mode(rules) == "chart":
        if follow is None:
            return None
        chart = critical_chart(rules)
        assert chart.formula is not None  # checked when the YAML is loaded
        return coefficients(rules, str(critical_chart_row(rules, attack, follow)[chart.formula])), True
    return coefficients(rules, rule.hit if rule.critical is None else rule.critical), True


def natural_penalty(rules: RuleSet, attack: Attack, roll: int) -> int:
    """Damage lost by a hit on an always-hit roll when the number needed is above ``above``."""
    penalty = block(rules).damage.natural_penalty
    if penalty is None or not always_hits(rules, roll):
        return 0
    above = int(get(rules, penalty.above))
    basis = need_basis(rules, attack)
    return (basis - above) * int(get(rules, penalty.per_point)) if basis > above else 0


def deals(rules: RuleSet, damage: Damage) -> bool:
    """Whether a hit deals damage: the attack's own say (cnc's kind) and the block's ``damage.deals``."""
    return damage.deals_damage and bool(get(rules, block(rules).damage.deals))


def least(rules: RuleSet, damage: Damage) -> int:
    return int(get(rules, block(rules).damage.least)) if damage.least is None else damage.least


def rounded(amount: Fraction, up: bool) -> int:
    return math.ceil(amount) if up else math.floor(amount)


def amount(
    rules: RuleSet,
    formula: Coefficients,
    damage: Damage,
    rolled: int,
    penalty: int = 0,
    multiplied: bool = True,
) -> int:
    """Damage of a hit whose dice part is ``rolled`` (dice_rolled x the roll + the further rolls):
    the formula's parts, the multiplier stages in order, the penalty, never below the least."""
    return amount_rule(rules, formula, damage, penalty, multiplied)(rolled)


SCOPES = {
    "whole": ("rolled", "dice_max", "die_max", "modifier"),
    "dice": ("rolled", "dice_max", "die_max"),
    "not_max_die": ("rolled", "dice_max", "modifier"),
}


def amount_rule(
    rules: RuleSet, formula: Coefficients, damage: Damage, penalty: int = 0, multiplied: bool = True
) -> Callable[[int], int]:
    """``amount`` for one formula, damage and penalty, as a function of the dice part: everything that
    does not depend on the roll is worked out once (the odds call it for every total of the dice).
    Whole numbers throughout: each stage's exact product is rounded by integer division."""
    floor = least(rules, damage)
    dice = damage.dice
    rule = block(rules).damage
    applies_to = None if rule.natural_penalty is None else get(rules, rule.natural_penalty.applies_to)
    fixed = {
        "dice_max": formula.dice_max * dice.count * dice.sides,
        "die_max": formula.die_max * dice.sides,
        "modifier": formula.modifier * (dice.modifier + damage.bonus),
    }
    stages = []
    for index, stage in enumerate(rule.multipliers if multiplied else ()):
        factor = Fraction(damage.multipliers.get(stage.name, 1))
        scope = SCOPES[str(get(rules, stage.scope))] if not index else ()
        rounding = str(get(rules, stage.rounding))
        up = damage.round_up.get(stage.name, False) if rounding == "picked" else rounding == "up"
        stages.append((factor.numerator, factor.denominator, scope, up))
    die_penalty = penalty if applies_to == "die" else 0
    total_penalty = penalty if applies_to == "total" else 0

    def of(rolled: int) -> int:
        if die_penalty:
            rolled = max(floor, rolled - die_penalty)
        parts = {"rolled": rolled, **fixed}
        total = sum(parts.values())
        for index, (numerator, denominator, scope, up) in enumerate(stages):
            inside = sum(parts[p] for p in scope) if not index else total
            exact = inside * numerator + (total - inside) * denominator  # x denominator
            total = -(-exact // denominator) if up else exact // denominator
        return max(floor, total - total_penalty)

    return of


def check_damage_roll(dice: dice_module.Dice, shown: int, what: str = "DAMAGE ROLL") -> int:
    """What the dice show, without the expression's modifier."""
    low, high = dice.count * LOWEST_FACE, dice.count * dice.sides
    if not low <= shown <= high:
        raise RuleError(f"#{what}? {low} to {high}")
    return shown


def attack_damage(
    rules: RuleSet,
    attack: Attack,
    damage: Damage,
    outcome: str,
    roll: int,
    follow: int | None = None,
    damage_roll: int | None = None,
    extra_roll: int | None = None,
) -> int | str:
    """Damage of the attack: 0 for a miss or fumble, '' while a roll it needs is not entered
    (the critical chart's follow roll, the damage roll, ``extra_roll``: what the further rolls of a
    formula with ``rerolled`` show together)."""
    if outcome not in (HIT, CRITICAL) or not deals(rules, damage):
        return 0
    found = formula_for(rules, attack, damage, outcome, follow)
    if found is None:
        return ""
    formula, multiplied = found
    rolled = 0
    if formula.dice_rolled and damage.dice.count:
        if damage_roll is None:
            return ""
        rolled += formula.dice_rolled * check_damage_roll(damage.dice, damage_roll)
    if formula.rerolled and damage.dice.count:
        if extra_roll is None:
            return ""
        again = dice_module.Dice(formula.rerolled * damage.dice.count, damage.dice.sides)
        rolled += check_damage_roll(again, extra_roll, "EXTRA DAMAGE ROLL")
    penalty = natural_penalty(rules, attack, roll) if not attack.auto_hit else 0
    return amount(rules, formula, damage, rolled, penalty, multiplied)
