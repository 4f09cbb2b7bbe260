"""Odds before the dice are rolled (bfrpg): the exact distribution of the damage one attack does.

Every (d20 roll, confirmation d20) pair of the YAML's die gives Miss, Hit or Critical exactly as
``bfrpg.result`` does (a natural 1 always fails, a natural 20 always hits and threatens, the
confirmation roll must hit normally, no critical when only a natural 20 can hit). Each outcome is
then combined with every damage-dice total, as ``bfrpg.attack_damage`` computes it: a miss is 0, a
hit is the roll plus modifiers, a confirmed critical adds the maximum die (ruling critical_damage:
and with normal_plus_max_plus_roll a second roll with modifiers), then the doubling of a charge
(ruling critical_with_double_damage) and the halvings (subduing, swung weapons underwater), never
below 0. A helpless target takes double the maximum; a blocked attack (total defense, an unusable
weapon underwater) does nothing. Several attacks are independent. Exact fractions; nothing sampled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.grid_limits import MAX_DICE, MAX_SIDES
from pycalc.rulesets import bfrpg as engine
from pycalc.tables import RuleSet

Distribution = shared_odds.Distribution

# The workbook's native grid (pycalc.sheets.dice_grid): larger dice need the .xlsm.
GRID_MESSAGE = (
    "#DICE? NdS+M with up to {dice} dice (half that when a critical adds "
    "a second damage roll) of up to {sides} sides"
)
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"


@dataclass(frozen=True)
class OddsAttack:
    """What the odds of one attack depend on, once the situation has been worked out."""

    attack: Attack  # bonus, the target's AC in the situation, every modifier to the roll
    dice: dice_module.Dice  # the damage dice used, with everything added to them
    by: engine.Multipliers = field(default_factory=engine.Multipliers)
    extra_damage: bool = True  # critical_effect: extra damage (or a lingering injury instead)
    auto_hit: bool = False  # melee against a helpless target
    blocked: bool = False  # no attack possible


def odds_attack(rules: RuleSet, inputs: engine.AttackInputs) -> OddsAttack:
    """The Attack calculator's inputs and situation, as ``bfrpg.attack_outputs`` reads them."""
    choose = inputs.choices
    kind = engine.chosen_row(rules, choose, "attack_kinds")
    ranged = bool(kind["ranged"])
    rows = engine.situation_rows(rules, inputs, ranged)
    two_weapon = engine.two_weapon_hit(
        rules, engine.chosen_row(rules, choose, "two_weapon_fighting"), inputs.dex_bonus
    )
    ability = engine.ability_bonus(rules, kind, inputs.str_bonus, inputs.dex_bonus)
    situation_hit = engine.column_sum(rows, "hit", engine.SPECIAL_HIT) + two_weapon
    attack = Attack(
        inputs.bonus, inputs.target + engine.column_sum(rows, "ac"), inputs.mods + ability + situation_hit
    )
    text, added = engine.attack_dice_text(rules, inputs)
    parsed = engine.damage_dice(text)
    return OddsAttack(
        attack=attack,
        dice=dice_module.Dice(parsed.count, parsed.sides, parsed.modifier + added),
        by=engine.attack_multipliers(rules, choose),
        extra_damage=bool(engine.chosen_row(rules, choose, "critical_effect")["extra_damage"]),
        auto_hit=not ranged and any(r.values.get("auto_hit_melee") for _, r in rows),
        blocked=bool(engine.blocked_label(rules, inputs)),
    )


def outcome_chances(rules: RuleSet, odds: OddsAttack) -> tuple[Fraction, Fraction, Fraction]:
    """(miss, plain hit, confirmed critical), as ATTACK_HIT_CHANCE and ATTACK_CRIT_CHANCE count them."""
    if odds.blocked:
        return Fraction(1), Fraction(0), Fraction(0)
    if odds.auto_hit:
        return Fraction(0), Fraction(1), Fraction(0)
    chances = engine.chances(rules, odds.attack)
    return 1 - chances.hit, chances.hit - chances.critical, chances.critical


def helpless_value(rules: RuleSet, odds: OddsAttack) -> int:
    most = engine.helpless_damage(rules, odds.dice)
    if rules.ruling("helpless_multipliers") == "none":
        return most
    return engine.multiplied(rules, most, 0, odds.by)


def two_rolls(rules: RuleSet) -> bool:
    return rules.ruling("critical_damage") == "normal_plus_max_plus_roll"


def damage_distribution(rules: RuleSet, odds: OddsAttack) -> Distribution:
    """Exact probability of each amount of damage one attack does (0 for a miss)."""
    miss, hit, critical = outcome_chances(rules, odds)
    if odds.blocked:
        return {0: Fraction(1)}
    if odds.auto_hit:
        return {helpless_value(rules, odds): Fraction(1)}
    mod = odds.dice.modifier
    ways, rolls = dice_module.counts(dice_module.Dice(odds.dice.count, odds.dice.sides))
    plain = shared_odds.regrouped(ways, lambda total: engine.multiplied(rules, total + mod, 0, odds.by))
    parts: list[shared_odds.Part] = [(miss, {0: 1}, 1), (hit, plain, rolls)]
    if critical:
        if not odds.extra_damage:
            parts.append((critical, plain, rolls))
        else:
            fixed = engine.max_die(rules, odds.dice)
            count = odds.dice.count * (2 if two_rolls(rules) else 1)
            mods = mod * (2 if two_rolls(rules) else 1)
            both, both_rolls = dice_module.counts(dice_module.Dice(count, odds.dice.sides))

            def extra(total: int) -> int:
                return engine.multiplied(rules, total + mods + fixed, fixed, odds.by)

            parts.append((critical, shared_odds.regrouped(both, extra), both_rolls))
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


def fits_grid(rules: RuleSet, dice: dice_module.Dice) -> bool:
    count = dice.count * (2 if two_rolls(rules) else 1)
    return count <= MAX_DICE and dice.sides <= MAX_SIDES


def odds_outputs(
    rules: RuleSet, inputs: engine.AttackInputs, attacks: int = 1, hp: int = 10, native: bool = True
) -> dict[str, object]:
    """The odds cells of the Attack calculator (``native``: as the .xlsx shows them, grid limits)."""
    names = (
        "ATTACK_EXPECTED_DAMAGE",
        "ATTACK_EXPECTED_DAMAGE_ROUND",
        "ATTACK_KILL_CHANCE",
        "ATTACK_KILL_CHANCE_ROUND",
    )
    try:
        odds = odds_attack(rules, inputs)
    except RuleError as error:
        return dict.fromkeys(names, str(error))
    if native and not fits_grid(rules, odds.dice):
        return dict.fromkeys(names, GRID_MESSAGE.format(dice=MAX_DICE, sides=MAX_SIDES))
    one = expected_damage(rules, odds)
    kill = kill_chance(rules, odds, hp)
    out: dict[str, object] = {
        "ATTACK_EXPECTED_DAMAGE": one,
        "ATTACK_EXPECTED_DAMAGE_ROUND": one * attacks if attacks >= 0 else "#ATTACKS? 0 or more",
        "ATTACK_KILL_CHANCE": kill,
    }
    if attacks < 0:
        out["ATTACK_KILL_CHANCE_ROUND"] = "#ATTACKS? 0 or more"
    elif attacks == 0:  # no attack drops nothing; a target at 0 or below is down already
        out["ATTACK_KILL_CHANCE_ROUND"] = Fraction(int(hp <= 0))
    elif attacks == 1:
        out["ATTACK_KILL_CHANCE_ROUND"] = kill
    else:
        out["ATTACK_KILL_CHANCE_ROUND"] = SEVERAL_ATTACKS if native else kill_chance(rules, odds, hp, attacks)
    return out
