"""Castles & Crusades (seed 000): d20 + BtH + modifiers >= AC, and the ruleset's other calculators.

An attack is resolved by the generic d20 engine (``pycalc.resolution``) from the ``resolution:``
block of ``tables/cnc/ruleset.yaml``: the total against AC (never below the least AC), and the
``natural_rolls`` boxes, all false in the seed, which states no natural-1 or natural-20 rule and has
no critical or fumble chart; a house rule ticked there is followed without code changes. The
Attack calculator is the generic one (``pycalc.resolution_calculator``: the block's pickers, the
prone rows by ruling, the range band of a typed distance, the attack kinds' least damage and effect
texts). What stays here is what the Excel functions (``pycalc.udfs.cnc``) take: one attack of a
worked-out AC, its damage dice written plainly and its kind, the hit point states and the range
bands. Its subsystems have a module each: ``cnc_falling``, ``cnc_special_ac`` (disarm, grapple,
touch), ``cnc_movement`` (movement, charge), ``cnc_subdual``. Every number comes from
``tables/cnc``.
"""

from __future__ import annotations

from fractions import Fraction

from pycalc import (
    dice,
    resolution_chances,
    resolution_damage,
    resolution_range,
    resolution_results,
)
from pycalc import resolution as generic
from pycalc.d20 import HIT, Attack
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

USES_FOLLOW_ROLL = False
RULESET_ID = "cnc"

# --------------------------------------------------------------------------- d20 resolution


def as_generic(attack: Attack) -> generic.Attack:
    """A d20 attack whose AC is already worked out (a UDF's argument, a chart's column) for the
    generic engine: the AC is taken as given, not raised to the least AC."""
    return generic.from_d20(attack, target_as_given=True)


def faces(rules: RuleSet) -> int:
    return generic.faces(rules)


def need(rules: RuleSet, attack: Attack) -> int:
    """Natural roll needed: the total must reach AC by the hit margin (0: 'greater than or equal')."""
    return generic.need(rules, as_generic(attack))


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss or Hit: the total against AC, with the natural-roll rules of the table (none in the seed).

    There is no follow roll in C&C; ``follow_roll`` is accepted and ignored.
    """
    return resolution_results.resolve(rules, as_generic(attack), roll)


def hit_chance(rules: RuleSet, attack: Attack) -> Fraction:
    """Exact probability of a hit, every face of the die enumerated."""
    return resolution_chances.hit_chance(rules, as_generic(attack))


# --------------------------------------------------------------------------- damage


BAD_DICE = "#DICE? write it like 2d4+2"


def damage_dice(expression: object) -> dice.Dice:
    """The dice of a damage expression such as 1d8+2; empty is no dice (0).

    The text must be written plainly (``2d4+2``, ``d8``, ``1d6-1``; spaces and case ignored): no
    ``+0``, leading zeros or a bare number, so the sheet's own check agrees with this one.
    """
    if expression is None or (isinstance(expression, str) and not expression.strip()):
        return dice.Dice(0, 0, 0)
    if not isinstance(expression, str):
        raise RuleError(BAD_DICE)
    text = "".join(expression.split()).lower()
    parsed = dice.parse(text)
    count = "" if text.startswith("d") else str(parsed.count)
    plain = f"{count}d{parsed.sides}" + (f"{parsed.modifier:+d}" if parsed.modifier else "")
    if parsed.count == 0 or plain != text:
        raise RuleError(BAD_DICE)
    return parsed


def damage_modifier(expression: object) -> int:
    """The +modifier of a damage expression such as 1d8+2; empty is 0."""
    return damage_dice(expression).modifier


KIND_TABLE = "attack_types"


def kind_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table(KIND_TABLE).by_label(kind)
    except KeyError:
        raise RuleError("#KIND? pick an attack kind from the list") from None


def generic_damage(rules: RuleSet, expression: object, bonus: int = 0, kind: str = "melee") -> generic.Damage:
    """The damage side of an attack for the generic engine: the dice (checked first), the situation's
    damage bonus (charge), and the kind's least damage and whether it deals any."""
    parsed = damage_dice(expression)
    row = kind_row(rules, kind)
    return generic.Damage(parsed, bonus, least=int(row["min_damage"]), deals_damage=bool(row["deals_damage"]))


def hit_damage(rules: RuleSet, damage: generic.Damage, shown: int) -> int:
    """Damage of a hit whose dice show ``shown``: the block's hit formula through the generic engine
    (``resolution_damage.amount``: dice + modifier + bonus, at least the least damage; 0 for a kind that deals
    none). The roll is taken as the sheet reads it: not checked against the dice, counted with no dice."""
    if not damage.deals_damage:
        return 0
    formula = resolution_damage.coefficients(rules, generic.block(rules).damage.hit)
    return resolution_damage.amount(rules, formula, damage, formula.dice_rolled * shown)


def attack_damage(
    rules: RuleSet, outcome: str, expression: object, damage_roll: int, bonus: int = 0, kind: str = "melee"
) -> int:
    """Damage of the attack: on a hit the dice rolled + the expression's modifier + picked bonuses
    (charge), at least the kind's least damage; 0 on a miss or for a kind that deals none."""
    damage = generic_damage(rules, expression, bonus, kind)
    return hit_damage(rules, damage, damage_roll) if outcome == HIT else 0


def attack_effect(rules: RuleSet, outcome: str, kind: str = "melee") -> str:
    row = kind_row(rules, kind)
    return str(row["on_hit"] if outcome == HIT else row["on_miss"])


# --------------------------------------------------------------------------- hit points


def hp_row(rules: RuleSet, hp: int) -> Row:
    row = rules.table("hit_point_states").band(hp)
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError("#HP? not in the hit point table")
    return row


def hp_state(rules: RuleSet, hp: int) -> str:
    return str(hp_row(rules, hp)["state"])


# --------------------------------------------------------------------------- range


def range_row(rules: RuleSet, increment: int, distance: int) -> Row:
    row = rules.table("range_bands").band(resolution_range.increments(increment, distance))
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError(resolution_range.OFF_TABLE)
    return row


def range_band(rules: RuleSet, increment: int, distance: int) -> str:
    return str(range_row(rules, increment, distance)["band"])


def range_modifier(rules: RuleSet, increment: int, distance: int) -> int | str:
    """To-hit modifier of the band; '' out of range (no attack possible)."""
    value = range_row(rules, increment, distance)["hit"]
    return "" if value is None else int(value)
