"""Castles & Crusades (seed 000): d20 + BtH + modifiers >= AC, and the ruleset's other calculators.

An attack is resolved by the generic d20 engine (``pycalc.resolution``) from the ``resolution:``
block of ``tables/cnc/ruleset.yaml``: the total against AC (never below the least AC), and the
``natural_rolls`` boxes, all false in the seed, which states no natural-1 or natural-20 rule and has
no critical or fumble chart; a house rule ticked there is followed without code changes. What is
this ruleset's own stays here: what its situation adds to the generic one (the block's
``modifiers`` and typed Dex modifiers, ``pycalc.resolution_situation``): the prone rows by ruling and
the range band of a typed distance (``situation``), the plain writing of damage dice, the
attack kinds' least damage and effect texts, the hit point states and the range bands. Its
subsystems have a module each: ``cnc_falling``, ``cnc_special_ac`` (disarm, grapple, touch),
``cnc_movement`` (movement, charge), ``cnc_subdual``. Every number comes from ``tables/cnc``; where
the seed is ambiguous the ruling in force (``rules.ruling``) decides.

Pure functions, no spreadsheet code: ``pycalc.sheets.cnc`` writes the same rules as native formulas
and the parity tests require both to agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import (
    dice,
    pickers,
    resolution_chances,
    resolution_damage,
    resolution_results,
    resolution_situation,
)
from pycalc import resolution as generic
from pycalc.d20 import HIT, Attack
from pycalc.errors import RuleError
from pycalc.pickers import chosen_row
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

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


def kind_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table("attack_types").by_label(kind)
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


# --------------------------------------------------------------------------- attack calculator


@dataclass(frozen=True)
class AttackInputs:
    """What a GM types or picks in the Attack calculator (None: the cell is empty)."""

    bonus: int
    target: int
    mods: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    level: int = 0
    dice: str | None = None
    damage_roll: int | None = None
    defender_dex: int = 0  # the defender's Dex modifier, inside the AC typed in
    attacker_dex: int = 0  # the attacker's Dex modifier (two-weapon penalties)
    range_increment: int | None = None  # the ranged weapon's, in feet (None: no range band)
    distance: int | None = None  # to the target, in feet (None: no range band)
    choices: dict[str, str] = field(default_factory=dict)  # choice picker table id -> row label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (toggle table id, row id) ticked


picker_tables = resolution_situation.picker_tables  # the Attack calculator's choice or toggle pickers


KIND_TABLE = "attack_types"
RANGED_VS_PRONE_ROW = "ranged_vs_prone_or_in_melee"
PRONE_ROW, PRONE_DEFENSELESS_ROW = "prone_or_blind", "prone_and_defenseless"
PRONE_HIT = "prone_hit"  # defender_prone's bonus, by ruling (the generic sums leave it out)


def prone_hit(rules: RuleSet, inputs: AttackInputs, ranged: bool) -> int:
    """The prone/defenseless bonus, with rulings prone_modifiers_stack and ranged_vs_prone."""
    table = rules.table("defender_prone")
    row = chosen_row(rules, inputs.choices, "defender_prone")
    if row.id == table.rows[0].id:
        return 0
    value = int(row[PRONE_HIT])
    if row.id == PRONE_DEFENSELESS_ROW and rules.ruling("prone_modifiers_stack") == "cumulative":
        value += int(table.value(PRONE_ROW, PRONE_HIT))
    replaced = (
        ranged
        and rules.ruling("ranged_vs_prone") == "ranged_replaces"
        and ("situational_modifiers", RANGED_VS_PRONE_ROW) in inputs.toggles
    )
    return 0 if replaced else value


OUT_OF_RANGE = "#RANGE? the target is out of range: no attack"
BAD_INCREMENT, BAD_DISTANCE = "#INCREMENT? more than 0 ft", "#DISTANCE? 0 or more"


def attack_range(rules: RuleSet, inputs: AttackInputs, ranged: bool) -> Row | None:
    """The range band of a ranged attack with its weapon's increment and the distance both typed (None
    otherwise: no band, no modifier); RuleError for an increment of 0 or less or a negative distance."""
    if not ranged or inputs.range_increment is None or inputs.distance is None:
        return None
    return range_row(rules, inputs.range_increment, inputs.distance)


def range_hit(band: Row | None) -> int:
    """The band's modifier to the roll (none out of range: the attack is refused there)."""
    return 0 if band is None or band["hit"] is None else int(band["hit"])


@dataclass(frozen=True)
class Situation:
    hit: int  # added to the roll
    ac: int  # added to the defender's AC (less its Dex while it loses Dex)
    damage: int  # added to the damage on a hit
    loses_dex: bool
    band: Row | None = None  # a ranged attack's range band at the distance typed (None: no band)
    band_error: str = ""  # why no band can be read: an increment or distance that cannot be


DEFENDER_DEX = "defender_dex"  # the typed number the defender loses with its Dex (situation.numbers)


def situation(rules: RuleSet, inputs: AttackInputs) -> Situation:
    """The picked rows and typed Dex modifiers added up by the generic engine (the block's
    ``modifiers`` and ``situation.numbers``), with the prone bonus and the range band on top."""
    numbers = {DEFENDER_DEX: inputs.defender_dex, "attacker_dex": inputs.attacker_dex}
    picked = resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles, numbers)
    kind = chosen_row(rules, inputs.choices, KIND_TABLE)
    ranged = bool(kind["ranged"])
    band, band_error = None, ""
    try:
        band = attack_range(rules, inputs, ranged)
    except RuleError as error:  # the result says it (range_stop)
        band_error = str(error)
    hit = picked.hit + prone_hit(rules, inputs, ranged) + range_hit(band)
    return Situation(hit, picked.ac, picked.damage, DEFENDER_DEX in picked.counting, band, band_error)


def situated_attack(inputs: AttackInputs, where: Situation) -> generic.Attack:
    """The attack with its situation: the picked modifiers to the roll, and the AC typed in plus
    cover, the defender's action and its Dex lost (the engine keeps it at least 1)."""
    return generic.Attack(inputs.bonus, inputs.target, inputs.mods + where.hit, inputs.level, where.ac)


def situated_damage(rules: RuleSet, inputs: AttackInputs, where: Situation) -> generic.Damage:
    """The damage of the picked kind with the situation's damage (charge); RuleError for bad dice."""
    kind = chosen_row(rules, inputs.choices, KIND_TABLE)
    return generic_damage(rules, inputs.dice, where.damage, str(kind.id))


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``):
    the situation the pickers add up to is this ruleset's own. RuleError for badly written dice."""
    where = situation(rules, inputs)
    return situated_attack(inputs, where), situated_damage(rules, inputs, where)


def range_stop(where: Situation) -> tuple[str, str]:
    """(the range band shown, what stops the attack: "" when nothing does)."""
    if where.band_error:
        return where.band_error, where.band_error
    if where.band is None:
        return "", ""
    return str(where.band["band"]), "" if where.band["in_range"] else OUT_OF_RANGE


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, object]:
    """Every output of the Attack calculator by defined name ('' before the roll; a range that stops
    the attack is the result, roll or not)."""
    where = situation(rules, inputs)
    attack = situated_attack(inputs, where)  # generic_attack, its damage worked out after the roll
    found: dict[str, object] = {
        "ATTACK_AC": generic.target(rules, attack),
        "ATTACK_SITUATION_HIT": where.hit,
        "ATTACK_SITUATION_DAMAGE": where.damage,
        "ATTACK_NEED": generic.need(rules, attack),
        "ATTACK_HIT_CHANCE": resolution_chances.hit_chance(rules, attack),
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_DAMAGE": "",
    }
    found["ATTACK_RANGE_BAND"], stop = range_stop(where)
    if stop:
        found["ATTACK_RESULT"] = stop
        return found
    if inputs.roll is None:
        return found
    try:
        outcome = resolution_results.result(rules, attack, inputs.roll)  # no follow roll in C&C
    except RuleError as error:
        found["ATTACK_RESULT"] = str(error)
        return found
    found["ATTACK_RESULT"] = outcome
    found["ATTACK_EFFECT"] = attack_effect(
        rules, outcome, str(chosen_row(rules, inputs.choices, KIND_TABLE).id)
    )
    try:
        damage = situated_damage(rules, inputs, where)
        found["ATTACK_DAMAGE"] = hit_damage(rules, damage, inputs.damage_roll or 0) if outcome == HIT else 0
    except RuleError as error:
        found["ATTACK_DAMAGE"] = str(error)
    return found


# --------------------------------------------------------------------------- hit points


def hp_row(rules: RuleSet, hp: int) -> Row:
    row = rules.table("hit_point_states").band(hp)
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError("#HP? not in the hit point table")
    return row


def hp_state(rules: RuleSet, hp: int) -> str:
    return str(hp_row(rules, hp)["state"])


# --------------------------------------------------------------------------- range


def range_increments(increment: int, distance: int) -> int:
    if increment <= 0:
        raise RuleError(BAD_INCREMENT)
    if distance < 0:
        raise RuleError(BAD_DISTANCE)
    return -(-distance // increment)


def range_row(rules: RuleSet, increment: int, distance: int) -> Row:
    row = rules.table("range_bands").band(range_increments(increment, distance))
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError("#RANGE? not in the range table")
    return row


def range_band(rules: RuleSet, increment: int, distance: int) -> str:
    return str(range_row(rules, increment, distance)["band"])


def range_modifier(rules: RuleSet, increment: int, distance: int) -> int | str:
    """To-hit modifier of the band; '' out of range (no attack possible)."""
    value = range_row(rules, increment, distance)["hit"]
    return "" if value is None else int(value)
