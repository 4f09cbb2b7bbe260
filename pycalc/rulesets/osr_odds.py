"""Odds before the d20 is rolled (osr): the exact distribution of the damage one attack does.

One attack: every kept natural d20 (Advantage/Disadvantage weights of :func:`osr.face_weight`) and
every fumble-check d20, resolved by :func:`osr.resolve`; a Miss or Fumble does 0, a Hit or Critical
does :func:`osr.dice_damage` of the dice total (the expression's modifier, double damage, the
natural-20 penalty of that roll, never below the least damage), exactly as ATTACK_DAMAGE. A
Critical does the same damage as a Hit (the seed's critical effect is not a damage rule).
Several attacks: the sum of independent attacks, convolved with a cap. Fractions; nothing sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc.d20 import CRITICAL, HIT, Attack
from pycalc.errors import RuleError
from pycalc.rulesets import osr
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


@dataclass(frozen=True)
class OddsAttack:
    attack: Attack  # bonus, number needed after AC changes, all roll modifiers, level
    dice: dice_module.Dice
    mode: int = osr.NORMAL
    double: bool = False
    needs_magic: bool = False


def hit_weights(rules: RuleSet, odds: OddsAttack) -> dict[int, Fraction]:
    """Chance of hitting, by the natural-20 penalty the hitting roll carries (0 for most rolls)."""
    sides = osr.die_sides(rules)
    found: dict[int, Fraction] = {}
    for roll in range(1, sides + 1):
        weight = osr.face_weight(rules, roll, odds.mode) / sides
        hits = sum(
            osr.resolve(rules, odds.attack, roll, follow, odds.needs_magic) in (HIT, CRITICAL)
            for follow in range(1, sides + 1)
        )
        if hits:
            penalty = osr.nat20_penalty(rules, odds.attack, roll)
            found[penalty] = found.get(penalty, Fraction(0)) + weight * hits
    return found


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss or fumble)."""
    if odds.dice.count < 1 or odds.dice.sides < 1:
        raise RuleError("#DICE? write it like 2d4+2")
    ways, rolls = dice_module.counts(dice_module.Dice(odds.dice.count, odds.dice.sides))
    weights = hit_weights(rules, odds)
    parts: list[shared_odds.Part] = [(1 - sum(weights.values(), Fraction(0)), {0: 1}, 1)]
    for penalty, chance in weights.items():

        def damage(shown: int, penalty: int = penalty) -> int:
            return osr.dice_damage(rules, odds.dice, shown, penalty, odds.double)

        parts.append((chance, shared_odds.regrouped(ways, damage), rolls))
    return shared_odds.mixed(parts)


def check_attacks(attacks: int) -> int:
    if attacks < 0:
        raise RuleError("#ATTACKS? 0 or more")
    return attacks


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


# --------------------------------------------------------------------------- the Attack calculator


ODDS_NAMES = (
    "ATTACK_EXPECTED_DAMAGE",
    "ATTACK_EXPECTED_DAMAGE_ROUND",
    "ATTACK_KILL_CHANCE",
    "ATTACK_KILL_CHANCE_ROUND",
)


@dataclass(frozen=True)
class OddsInputs:
    attacks: int = 1  # ATTACK_ATTACKS
    target_hp: int = 10  # ATTACK_TARGET_HP


def odds_attack(rules: RuleSet, inputs: osr.AttackInputs) -> OddsAttack:
    """The attack the Attack calculator's inputs and pickers describe."""
    where = osr.situation(rules, inputs)
    attack = Attack(
        inputs.bonus,
        osr.effective_target(rules, inputs.target, where.ac),
        inputs.mods + where.hit,
        inputs.level,
    )
    return OddsAttack(attack, dice_module.parse(inputs.dice), where.mode, where.double, where.needs_magic)


def odds_outputs(
    rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs = OddsInputs()
) -> dict[str, object]:
    """The odds cells of the Attack calculator (engine reference; the .xlsm's UDF values).

    ATTACK_KILL_CHANCE_ROUND is the .xlsx's text for several attacks; ``round_kill_chance`` gives
    the number the .xlsm shows."""
    try:
        odds = odds_attack(rules, inputs)
        one = expected_damage(rules, odds)
        kill = kill_chance(rules, odds, more.target_hp)
        round_damage: object = osr.shown(expected_damage, rules, odds, more.attacks)
    except RuleError as error:
        found = dict.fromkeys(ODDS_NAMES, str(error))
        return {
            **found,
            "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(
                str(error), more.attacks, more.target_hp, SEVERAL_ATTACKS
            ),
        }
    return {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": round_damage,
        "ATTACK_KILL_CHANCE": kill,
        "ATTACK_KILL_CHANCE_ROUND": shared_odds.round_kill(
            kill, more.attacks, more.target_hp, SEVERAL_ATTACKS
        ),
    }


def round_kill_chance(rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs) -> object:
    """ATTACK_KILL_CHANCE_ROUND as the .xlsm computes it (osr_kill_chance)."""
    try:
        return kill_chance(rules, odds_attack(rules, inputs), more.target_hp, more.attacks)
    except RuleError as error:
        return str(error)
