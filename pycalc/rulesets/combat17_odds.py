"""Odds before the dice are rolled (17 Combat): the exact distribution of the damage of one attack.

Every natural d20 and every follow-up d20 on the critical chart is weighed (1/20 x 1/20): a natural 1
(fumble) or a miss does 0, a hit regular damage, a natural 20 the damage kind the critical chart gives
for the follow-up total (regular / maximum / critical; regular under ``natural_roll_outcome:
special_only`` when the chart row is not a special), each over every total of the damage dice, with
the situation's damage modifier, multiplier, rounding and minimum exactly as ``ATTACK_DAMAGE``. Several
attacks add up as independent attacks (a capped convolution). Fractions throughout; nothing is sampled.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc.d20 import D20_FACES, Attack
from pycalc.errors import RuleError
from pycalc.grid_limits import BEYOND_GRID, MAX_DICE, MAX_SIDES
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


@dataclass(frozen=True)
class OddsAttack:
    """One attack as the Attack calculator sees it, before any die is rolled."""

    attack: Attack  # bonus, AC with the situation, all roll modifiers
    dice: dice_module.Dice
    barred: bool = False
    multiplier: Fraction = Fraction(1)
    damage_mod: int = 0  # the situation's extra damage modifier


def outcome_weights(rules: RuleSet, attack: Attack, barred: bool = False) -> dict[str, Fraction]:
    """Chance of each outcomes row (miss / regular / maximum / critical damage) over both d20s."""
    counts: Counter[str] = Counter()
    for roll in range(1, D20_FACES + 1):
        for follow in range(1, D20_FACES + 1):
            outcome = engine.attack_result(rules, attack, roll, follow, barred)
            outcome_id = engine.outcome_for(rules, attack, outcome, follow)
            counts[str(outcome_id)] += 1
    whole = D20_FACES * D20_FACES
    return {outcome_id: Fraction(n, whole) for outcome_id, n in counts.items()}


def dice_totals(dice: dice_module.Dice) -> Distribution:
    """Chance of each total the dice show (without the +modifier); no dice show 0."""
    return dice_module.distribution(dice_module.Dice(dice.count, dice.sides, 0))


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (a miss does 0)."""
    where = engine.Situation("", 0, 0, odds.damage_mod, odds.multiplier, False, odds.barred)
    ways, rolls = dice_module.counts(dice_module.Dice(odds.dice.count, odds.dice.sides, 0))
    parts: list[shared_odds.Part] = []
    for outcome_id, chance in outcome_weights(rules, odds.attack, odds.barred).items():

        def amount(total: int | None, outcome_id: str = outcome_id) -> int:
            return engine.damage(rules, outcome_id, odds.dice, total, where.damage, where.multiplier)

        if rules.table("outcomes").entry(outcome_id)["rolled_dice"]:
            parts.append((chance, shared_odds.regrouped(ways, amount), rolls))
        else:
            parts.append((chance, {amount(None): 1}, 1))
    return shared_odds.mixed(parts)


def check_attacks(attacks: int) -> None:
    if attacks < 0:
        raise RuleError(ATTACKS_MESSAGE)


def round_distribution(
    rules: RuleSet, odds: OddsAttack, attacks: int, cap: int | None = None
) -> Distribution:
    """The damage of ``attacks`` independent attacks together (capped at ``cap`` when given)."""
    check_attacks(attacks)
    return shared_odds.repeated(damage_distribution(rules, odds), attacks, cap)


def expected_damage(rules: RuleSet, odds: OddsAttack, attacks: int = 1) -> Fraction:
    check_attacks(attacks)
    return attacks * shared_odds.mean(damage_distribution(rules, odds))


def chance_at_least(rules: RuleSet, odds: OddsAttack, amount: int, attacks: int = 1) -> Fraction:
    """Probability that the attacks together do at least ``amount`` damage."""
    check_attacks(attacks)
    return shared_odds.chance_at_least(damage_distribution(rules, odds), amount, attacks)


def kill_chance(rules: RuleSet, odds: OddsAttack, hp: int, attacks: int = 1) -> Fraction:
    """Probability that a target at ``hp`` hit points is at 0 or below after the attacks."""
    return chance_at_least(rules, odds, hp, attacks)


# --------------------------------------------------------------------------- the calculator's odds cells


def fits_grid(dice: dice_module.Dice) -> bool:
    return 1 <= dice.count <= MAX_DICE and 1 <= dice.sides <= MAX_SIDES


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
        if native and not fits_grid(odds.dice):
            raise RuleError(GRID_MESSAGE)
    except RuleError as error:
        return dict.fromkeys(ODDS_OUTPUTS, str(error))
    one = expected_damage(rules, odds)
    kill = kill_chance(rules, odds, hp)
    found: dict[str, Any] = {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": attacks * one if attacks >= 0 else ATTACKS_MESSAGE,
        "ATTACK_KILL_CHANCE": kill,
    }
    if native:
        found["ATTACK_KILL_CHANCE_ROUND"] = (
            kill if attacks == 1 else Fraction(int(hp <= 0)) if attacks == 0 else SEVERAL_ATTACKS
        )
    else:
        found["ATTACK_KILL_CHANCE_ROUND"] = engine.guarded(kill_chance, rules, odds, hp, attacks)
    return found


def damage_chart(rules: RuleSet, inputs: engine.AttackInputs, largest: int) -> list[Fraction]:
    """The chart column: chance of exactly 0..largest damage (0 where the dice do not fit)."""
    try:
        odds = odds_attack(rules, inputs)
    except RuleError:
        return [Fraction(0)] * (largest + 1)
    if not fits_grid(odds.dice):
        return [Fraction(0)] * (largest + 1)
    spread = damage_distribution(rules, odds)
    return [spread.get(x, Fraction(0)) for x in range(largest + 1)]
