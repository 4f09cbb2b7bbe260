"""Castles & Crusades (seed 000): d20 + BtH + modifiers >= AC, and the ruleset's other calculators.

An attack is resolved by the generic d20 engine (``pycalc.resolution``) from the ``resolution:``
block of ``tables/cnc/ruleset.yaml``: the total against AC (never below the least AC), and the
``natural_rolls`` boxes, all false in the seed, which states no natural-1 or natural-20 rule and has
no critical or fumble chart; a house rule ticked there is followed without code changes. What is
this ruleset's own stays here: what its situation adds to the generic one (the block's
``modifiers`` and typed Dex modifiers, ``pycalc.resolution_situation``): the prone rows by ruling and
the range band of a typed distance (``situation``), the plain writing of damage dice, the
attack kinds' least damage and effect texts, and the other calculators (falling, special ACs,
movement, charge, range, subdual). Every number comes from ``tables/cnc``; where the seed is
ambiguous the ruling in force (``rules.ruling``) decides.

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


# --------------------------------------------------------------------------- falling damage


def falling_increments(rules: RuleSet, feet: int) -> int:
    """10-ft increments of a fall above the Dex-check band (ruling falling_partial_increment)."""
    step = int(rules.constant("falling_damage", "increment_ft"))
    full, rest = divmod(feet, step)
    reading = rules.ruling("falling_partial_increment")
    if reading == "round_up":
        return full + (rest > 0)
    if reading == "round_down":
        return full
    return full + (rest > int(rules.constant("falling_damage", "partial_increment_counts_over_ft")))


@dataclass(frozen=True)
class Fall:
    dice: str  # damage dice ("0": none); in the Dex-check band, the damage on a failed check
    dex_check: bool  # a successful Dex check avoids all damage


def falling(rules: RuleSet, feet: int) -> Fall:
    if feet < 0:
        raise RuleError("#FEET? 0 or more")
    table = rules.table("falling_damage")
    low, high = int(table.value("dex_check_from_ft")), int(table.value("dex_check_to_ft"))
    check = Fall(str(table.value("dex_check_fail_damage", "dice")), True)
    if feet < low:
        five_counts = rules.ruling("falling_five_feet") == "dex_check"
        return check if five_counts and feet >= int(table.value("min_fall_ft")) else Fall("0", False)
    if feet <= high:
        return check
    n = falling_increments(rules, feet)
    first, more = int(table.value("dice_first_increment")), int(table.value("dice_added_per_increment"))
    count = n * first + more * n * (n - 1) // 2  # the (k+1)-th 10 feet deals first + k x more dice
    return Fall(f"{count}d{int(table.value('die_faces'))}" if count else "0", False)


def falling_damage(rules: RuleSet, feet: int) -> str:
    return falling(rules, feet).dice


# --------------------------------------------------------------------------- hit points


def hp_row(rules: RuleSet, hp: int) -> Row:
    row = rules.table("hit_point_states").band(hp)
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError("#HP? not in the hit point table")
    return row


def hp_state(rules: RuleSet, hp: int) -> str:
    return str(hp_row(rules, hp)["state"])


# --------------------------------------------------------------------------- special ACs


def min_ac(rules: RuleSet) -> int:
    return int(rules.constant("armor_class", "minimum_ac"))


def disarm_ac(rules: RuleSet, hit_dice: int, dex: int = 0) -> int:
    """18 + hit dice or level of the defender (+ Dex bonus, ruling disarm_dex)."""
    if hit_dice < 0:
        raise RuleError("#LEVEL? 0 or more")
    table = rules.table("disarm")
    dex_part = dex if rules.ruling("disarm_dex") == "modifier" else max(0, dex)
    ac = int(table.value("disarm_base_ac")) + int(table.value("disarm_ac_per_hd_or_level")) * hit_dice
    return max(min_ac(rules), ac + dex_part)


GRAPPLE, OVERBEAR = "grapple", "overbear"


def grapple_kind(rules: RuleSet, kind: str) -> str:
    try:
        row_id = rules.table("attack_types").by_label(kind).id
    except KeyError:
        row_id = None
    if row_id not in (GRAPPLE, OVERBEAR):
        raise RuleError("#KIND? Grapple or Overbear")
    return str(row_id)


def size_modifier(rules: RuleSet, size_difference: int) -> int:
    """AC change for an attacker size_difference categories larger (negative: smaller)."""
    column = "ac_reversed" if rules.ruling("grapple_size_direction") == "reversed" else "ac_as_written"
    table = rules.table("grapple_size_modifier")
    if size_difference >= 0:
        return int(table.value("attacker_larger", column)) * size_difference
    return int(table.value("attacker_smaller", column)) * -size_difference


@dataclass(frozen=True)
class Defender:
    str_prime: bool = False
    str_mod: int = 0
    dex_mod: int = 0
    bth: int = 0
    normal_ac: int = 0  # only for ruling grapple_ac_reading = normal_ac


def grapple_ac(rules: RuleSet, kind: str, defender: Defender, size_difference: int = 0) -> int:
    """Target AC of a grappling or overbearing attack (size_difference: attacker minus defender)."""
    which = grapple_kind(rules, kind)
    if which == GRAPPLE and rules.ruling("grapple_ac_reading") == "normal_ac":
        return max(min_ac(rules), defender.normal_ac)
    base = rules.table("grapple_target_ac").value(
        "strength_prime" if defender.str_prime else "strength_not_prime", "ac"
    )
    column = "grappling" if which == GRAPPLE else rules.ruling("overbear_ac_modifiers")
    weights = rules.table("grapple_ac_modifiers")
    values = {
        "defender_str_modifier": defender.str_mod,
        "defender_dex_modifier": defender.dex_mod,
        "size_difference": size_modifier(rules, size_difference),
        "defender_bth": defender.bth,
        "defender_armor": 0,  # "not included": no input for it
    }
    total = int(base) + sum(int(weights.value(k, column)) * v for k, v in values.items())
    return max(min_ac(rules), total)


def grapple_allowed(rules: RuleSet, kind: str, size_difference: int) -> bool:
    """An attacker cannot knock over a defender two sizes larger (overbearing only)."""
    if grapple_kind(rules, kind) == GRAPPLE:
        return True
    return -size_difference <= int(rules.constant("overbearing", "max_defender_size_larger"))


def grapple_roll_bonus(rules: RuleSet, kind: str, str_mod: int, bth: int) -> int:
    """Str modifier, plus BtH where the kind adds it (overbearing: ruling overbear_attacker_bth)."""
    which = grapple_kind(rules, kind)
    adds = bool(kind_row(rules, which)["adds_bth"]) or (
        which == OVERBEAR and rules.ruling("overbear_attacker_bth") == "added"
    )
    return str_mod + (bth if adds else 0)


def touch_ac(
    rules: RuleSet, dex: int = 0, monster: bool = False, magic: int = 0, armor: int = 0, shield: int = 0
) -> int:
    """10, adjusted by what touch_attack_adjustments lets count for a character or a monster."""
    column = "monsters" if monster else "characters"
    table = rules.table("touch_attack_adjustments")
    values = {"dex_modifier": dex, "magic_protection": magic, "armor": armor, "shield": shield}
    total = int(rules.constant("touch_attack_ac", "touch_base_ac"))
    total += sum(v for k, v in values.items() if table.value(k, column))
    return max(min_ac(rules), total)


# --------------------------------------------------------------------------- movement, charge, range


def check_rate(rate: int) -> int:
    if rate <= 0:
        raise RuleError("#RATE? more than 0 ft")
    return rate


def reduced_rate(rules: RuleSet, rate: int, reduction: Fraction = Fraction(0)) -> int:
    """Movement rate after the Castle Keeper's reduction (a fraction of the rate, 0 to 1), capped by
    ruling movement_reduction_limit, fractions dropped (at least 1 ft), and never below 5 ft (or the
    whole rate when that is less)."""
    check_rate(rate)
    if not 0 <= reduction <= 1:
        raise RuleError("#REDUCTION? 0 to 1 (0.5 = half)")
    table = rules.table("movement_rules")
    cap = Fraction(str(table.value("max_terrain_reduction")))
    limit = cap if rules.ruling("movement_reduction_limit") == "reduced_by" else 1 - cap
    kept = int(rate * (1 - min(reduction, limit)))
    floor = min(rate, int(table.value("min_move_ft")))
    return max(int(table.value("min_rate_ft")), kept, floor)


def action_move(rules: RuleSet, rate: int, action: str) -> int:
    """Most feet moved with that action (combat_actions: attack, walk, jog, run...), fractions dropped."""
    try:
        row = rules.table("combat_actions").by_label(action)
    except KeyError:
        raise RuleError("#ACTION? pick an action from the list") from None
    return scaled_rate(rules, check_rate(rate), row["max_move"])


def scaled_rate(rules: RuleSet, rate: int, factor: float) -> int:
    """rate x factor with fractions dropped (at least 1 ft unless the factor is 0)."""
    if factor == 0:
        return 0
    return max(int(rules.constant("movement_rules", "min_rate_ft")), int(rate * Fraction(str(factor))))


def grid_squares(rules: RuleSet, rate: int) -> int:
    """Inches, hexes or squares: the rate divided by 5, fractions dropped."""
    return int(Fraction(check_rate(rate)) / Fraction(str(rules.constant("movement_rules", "grid_divisor"))))


def charge_window(rules: RuleSet, rate: int) -> tuple[int, int]:
    """Least and most distance of a charge: the movement rate to the jogging rate."""
    row = rules.table("combat_actions").entry("charge")
    check_rate(rate)
    return scaled_rate(rules, rate, row["min_move"]), scaled_rate(rules, rate, row["max_move"])


def charge_verdict(rules: RuleSet, rate: int, distance: int) -> str:
    if distance < 0:
        raise RuleError(BAD_DISTANCE)
    least, most = charge_window(rules, rate)
    if distance < least:
        return f"Too close: at least {least} ft"
    if distance > most:
        return f"Too far: at most {most} ft"
    return "Yes"


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


# --------------------------------------------------------------------------- subdual damage


def subdual_total(rules: RuleSet, damage: int) -> int:
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    return max(int(rules.constant("subdual_damage", "weapon_subdual_min_damage")), damage)


def subdual_normal(rules: RuleSet, damage: int) -> int:
    """Points of a subdual hit counted as normal damage (ruling subdual_normal_split)."""
    total = subdual_total(rules, damage)
    per = int(rules.constant("subdual_damage", "subdual_points_per_normal_point"))
    reading = rules.ruling("subdual_normal_split")
    if reading == "started_fives":
        return -(-total // per)
    if reading == "full_fives":
        return total // per
    return max(1, total // per)  # "All subdual damage delivers some normal damage"
