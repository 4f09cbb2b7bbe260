"""Odds before the dice are rolled (17 Combat): the exact distribution of the damage of one attack.

The generic engine's odds (``pycalc.resolution_odds``) for the attack as this ruleset's calculator
sees it (:class:`OddsAttack`: the roll, the dice, the barred target, the situation's damage multiplier
and modifier, handed over by :func:`generic_of`): every natural
d20 and every follow-up d20 on the critical chart weighed, a miss or fumble doing 0, a hit regular
damage, a natural 20 the damage kind the critical chart gives, each over every total of the damage
dice. Several attacks add up as independent attacks (a capped convolution). What is this module's own
is the Attack calculator's odds cells (:func:`odds_outputs`, :func:`damage_chart`) and the chance of
each damage kind (:func:`outcome_weights`, the Odds sheet's natural-20 shares). Fractions throughout;
nothing is sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_odds as generic_odds
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.grid_limits import BEYOND_GRID, fits_grid
from pycalc.rulesets import combat17 as engine
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
GRID_MESSAGE = BEYOND_GRID
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"
ATTACKS_MESSAGE = "#ATTACKS? 0 or more"
ODDS_OUTPUTS = (
    "ATTACK_EXPECTED_DAMAGE",
    "ATTACK_EXPECTED_DAMAGE_ROUND",
    "ATTACK_KILL_CHANCE",
    "ATTACK_KILL_CHANCE_ROUND",
)
MISS_ROW = "miss"


@dataclass(frozen=True)
class OddsAttack:
    """One attack as the Attack calculator sees it, before any die is rolled."""

    attack: Attack  # bonus, AC with the situation, all roll modifiers
    dice: dice_module.Dice
    barred: bool = False
    multiplier: Fraction = Fraction(1)
    damage_mod: int = 0  # the situation's extra damage modifier


def generic_of(odds: OddsAttack, attacks: int = 1) -> tuple[generic.Attack, generic.Damage]:
    """The attack and its damage as the generic engine's, once the number of attacks and then the
    dice are checked: dice beyond the odds' limits say so even when no roll can hit (the generic
    engine reads the dice only for a hit)."""
    generic_odds.check_attacks(attacks)
    dice_module.counts(dice_module.Dice(odds.dice.count, odds.dice.sides))
    return (
        engine.generic_roll(odds.attack, odds.barred),
        engine.generic_damage(odds.dice, odds.damage_mod, odds.multiplier),
    )


def outcome_weights(rules: RuleSet, attack: Attack, barred: bool = False) -> dict[str, Fraction]:
    """Chance of each outcomes row (miss / regular / maximum / critical damage) over both d20s: the
    generic engine's chance of each damage formula, named by the outcomes row it is read from."""
    nothing, formulas = generic_odds.outcome_weights(
        rules, engine.generic_roll(attack, barred), engine.generic_damage(engine.NO_DICE)
    )
    rows = rules.table("outcomes").rows
    named = {generic.coefficients(rules, str(row.id)): str(row.id) for row in rows if row["hits"]}
    found = {MISS_ROW: nothing} if nothing else {}
    for (formula, _, _), chance in formulas.items():
        found[named[formula]] = found.get(named[formula], Fraction(0)) + chance
    return found


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (a miss does 0)."""
    return generic_odds.damage_distribution(rules, *generic_of(odds))


def round_distribution(
    rules: RuleSet, odds: OddsAttack, attacks: int, cap: int | None = None
) -> Distribution:
    """The damage of ``attacks`` independent attacks together (capped at ``cap`` when given)."""
    return generic_odds.round_distribution(rules, *generic_of(odds, attacks), attacks, cap)


def expected_damage(rules: RuleSet, odds: OddsAttack, attacks: int = 1) -> Fraction:
    return generic_odds.expected_damage(rules, *generic_of(odds, attacks), attacks)


def chance_at_least(rules: RuleSet, odds: OddsAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    return generic_odds.chance_at_least(rules, *generic_of(odds, attacks), amount, attacks)


def kill_chance(rules: RuleSet, odds: OddsAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    return generic_odds.kill_chance(rules, *generic_of(odds, attacks), hp, attacks)


# --------------------------------------------------------------------------- the calculator's odds cells


def odds_attack(rules: RuleSet, inputs: engine.AttackInputs) -> OddsAttack:
    where = engine.situation(rules, inputs)
    return OddsAttack(
        engine.situated_attack(inputs, where),
        engine.parse_dice(inputs.dice),
        where.barred,
        where.multiplier,
        where.damage,
    )


def odds_outputs(
    rules: RuleSet, inputs: engine.AttackInputs, attacks: int = 1, hp: int = 10, native: bool = True
) -> dict[str, Any]:
    """The odds cells of the Attack calculator by defined name. ``native``: as the .xlsx shows them
    (dice beyond the sheet's grid give a '#DICE?' text; several attacks' kill chance points to the
    .xlsm); otherwise as the .xlsm's UDFs give them."""
    try:
        odds = odds_attack(rules, inputs)
        if native and not fits_grid(odds.dice.count, odds.dice.sides):
            raise RuleError(GRID_MESSAGE)
    except RuleError as error:
        return shared_odds.down_already(dict.fromkeys(ODDS_OUTPUTS, str(error)), hp)
    one = expected_damage(rules, odds)
    kill = kill_chance(rules, odds, hp)
    found: dict[str, Any] = {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": attacks * one if attacks >= 0 else ATTACKS_MESSAGE,
        "ATTACK_KILL_CHANCE": kill,
    }
    if native:
        found["ATTACK_KILL_CHANCE_ROUND"] = (
            kill if attacks == 1 else Fraction(0) if attacks == 0 else SEVERAL_ATTACKS
        )
    else:
        found["ATTACK_KILL_CHANCE_ROUND"] = engine.guarded(kill_chance, rules, odds, hp, attacks)
    return shared_odds.down_already(found, hp)


def damage_chart(rules: RuleSet, inputs: engine.AttackInputs, largest: int) -> list[Fraction]:
    """The chart column: chance of exactly 0..largest damage (0 where the dice do not fit)."""
    try:
        odds = odds_attack(rules, inputs)
    except RuleError:
        return [Fraction(0)] * (largest + 1)
    if not fits_grid(odds.dice.count, odds.dice.sides):
        return [Fraction(0)] * (largest + 1)
    spread = damage_distribution(rules, odds)
    return [spread.get(x, Fraction(0)) for x in range(largest + 1)]
