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
reads the GM's own rows and never invents one), surprise, mass combat, Normal Men, grappling,
saves and spell interruption.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT, HITS, OUTCOMES, Attack
from pycalc.errors import RuleError, not_in_list
from pycalc.resolution_block import Stage
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

BAD_DICE = "#DICE? write it like 2d4+2"  # the calculator's own message for dice it cannot read

USES_FOLLOW_ROLL = True
NO_FUMBLE_TABLE = (
    "#NONE? the seed has no fumble table; fill in the fumble table on the Criticals fumbles tables sheet"
)


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


def fumble_effect(rules: RuleSet, roll: int) -> str:
    """The GM's fumble table row for that roll; the seed has none, so none is invented."""
    table = rules.table("fumble_table")
    if not table.rows:
        raise RuleError(NO_FUMBLE_TABLE)
    found = [row for row in table.rows if row["d20_from"] <= roll <= row["d20_to"]]
    if not found:
        raise RuleError(f"#ROLL? no row of the fumble table covers {roll}")
    if len(found) > 1:
        raise RuleError(f"#FUMBLE TABLE? rows overlap at {roll}")
    return str(found[0]["effect"])


def attack_effect(rules: RuleSet, outcome: str, fumble_roll: int | None = None) -> str:
    """What the result does; for a Critical Fumble, the GM's fumble table line when there is one. A
    fumble table roll typed for another result is called out (a later fumble would read it)."""
    text = str(outcome_row(rules, outcome)["effect"])
    if outcome != FUMBLE:
        return text if fumble_roll is None else f"{text}{FUMBLE_ROLL_UNUSED.format(fumble_roll)}"
    if not rules.table("fumble_table").rows:
        return f"{text}: {NO_FUMBLE_TABLE[len('#NONE? ') :]}"
    if fumble_roll is None:
        return f"{text}: roll on the fumble table"
    try:
        return f"{text}: {fumble_effect(rules, generic.check_roll(rules, fumble_roll, 'FUMBLE ROLL'))}"
    except RuleError as error:
        return str(error)


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


# --------------------------------------------------------------------------- surprise


def surprise_range(rules: RuleSet, surprises_on: int, surprised_on: int) -> int:
    """Top d6 face on which a side that "surprises on 1-``surprises_on``" surprises a side that is
    normally "surprised on 1-``surprised_on``" (fits the seed's four examples)."""
    sides = constant(rules, "surprise_rules", "surprise_die_sides")
    for value, what in ((surprises_on, "SURPRISES ON"), (surprised_on, "SURPRISED ON")):
        if not 0 <= value <= sides:
            raise RuleError(f"#{what}? 0 to {sides}")
    shift = constant(rules, "surprise_rules", "normal_surprise_max") - surprised_on
    if rules.ruling("surprise_range_adjustment") == "reduce_only":
        shift = max(0, shift)
    return min(sides, max(0, surprises_on - shift))


def surprise_chance(rules: RuleSet, top_face: int) -> Fraction:
    return Fraction(top_face, constant(rules, "surprise_rules", "surprise_die_sides"))


def surprise_outcome(rules: RuleSet, a_on_b: int, b_on_a: int, roll_for_b: int, roll_for_a: int) -> str:
    """``roll_for_b``: the d6 rolled to see whether B is surprised (B is when it is <= a_on_b)."""
    sides = constant(rules, "surprise_rules", "surprise_die_sides")
    for value, what in ((roll_for_b, "ROLL FOR B"), (roll_for_a, "ROLL FOR A")):
        if not 1 <= value <= sides:
            raise RuleError(f"#{what}? 1 to {sides}")
    b_surprised, a_surprised = roll_for_b <= a_on_b, roll_for_a <= b_on_a
    entry = (
        "both_surprised"
        if a_surprised and b_surprised
        else "a_surprises_b"
        if b_surprised
        else "b_surprises_a"
        if a_surprised
        else "no_surprise"
    )
    return str(rules.table("surprise_outcomes").value(entry, "result"))


# --------------------------------------------------------------------------- mass combat


def check_men(men: int) -> int:
    if men < 1:
        raise RuleError("#MEN? 1 or more")
    return men


def mass_damage(rules: RuleSet, damage_roll: int, men: int) -> int:
    """Hit points a unit loses to one hit: the d6 times 10 (or times the men, by ruling)."""
    sides = dice_module.parse(rules.table("mass_combat").value("unit_damage_die", "dice")).sides
    if not 1 <= damage_roll <= sides:
        raise RuleError(f"#DAMAGE ROLL? 1 to {sides}")
    if rules.ruling("mass_combat_damage_multiplier") == "men_in_unit":
        return damage_roll * check_men(men)
    return damage_roll * constant(rules, "mass_combat", "unit_damage_multiplier")


def mass_survivors(rules: RuleSet, original_hp: int, remaining_hp: int, men: int) -> int:
    """Men left alive: one per tenth (per man's share) of the original hit points left, rounded up."""
    check_men(men)
    if original_hp < 1:
        raise RuleError("#ORIGINAL HP? 1 or more")
    if remaining_hp > original_hp:
        raise RuleError("#REMAINING HP? at most the original hit points")
    if remaining_hp <= 0:
        return 0
    return -(-remaining_hp * men // original_hp)


# --------------------------------------------------------------------------- Normal Men


def attacks_vs_normal_men(rules: RuleSet, kind: str, level_or_hd: int) -> int:
    """Melee attacks per round against Normal Men (level for fighter types, whole HD for monsters)."""
    table = rules.table("attacker_kinds_vs_normal_men")
    try:
        row = table.by_label(kind)
    except KeyError:
        raise not_in_list("kind", (row.label for row in table.rows)) from None
    if level_or_hd < 0:
        raise RuleError("#LEVEL? 0 or more")
    if row.id == "other_pc" and rules.ruling("normal_men_multiple_attacks") == "all_pcs":
        row = table.entry("fighter_type")
    if level_or_hd > row["more_than"]:
        return max(row["otherwise"], level_or_hd * row["per_level_or_hd"])
    return row["otherwise"]


@dataclass(frozen=True)
class Kills:
    hit_chance: Fraction
    hits: Fraction
    average_damage: Fraction
    average_hp: Fraction
    kills: Fraction | int


def expected_kills(rules: RuleSet, attacks: int, need: int, damage_dice: str, hp_dice: str) -> Kills:
    """The seed's shortcut: hits from the chance to hit, then Normal Men killed per round."""
    if attacks < 0:
        raise RuleError("#ATTACKS? 0 or more")
    chance = resolution_chances.hit_chance(rules, generic.Attack(0, need))
    hits = attacks * chance
    damage = dice_module.parse(damage_dice).mean
    hp = dice_module.parse(hp_dice).mean
    if hp <= 0:
        raise RuleError("#HP DICE? average hit points must be above 0")
    if rules.ruling("expected_kills_method") == "one_per_hit_capped":
        kills: Fraction | int = hits * min(Fraction(1), damage / hp)
    else:
        kills = hits * damage / hp
    if rules.ruling("expected_kills_rounding") == "up":
        kills = math.ceil(kills)
    return Kills(chance, hits, damage, hp, kills)


# --------------------------------------------------------------------------- grappling


def grapple_row(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> Row:
    row = rules.table("grappling_result").band(hero_roll - grapplers_roll)
    assert row is not None  # the bands are open at both ends
    return row


def grapple_result(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> str:
    return str(grapple_row(rules, hero_roll, grapplers_roll)["result"])


def grapple_stun_rounds(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> int:
    """Rounds the thrown-off grapplers are stunned: the hero's roll minus their combined roll."""
    if not grapple_row(rules, hero_roll, grapplers_roll)["grapplers_stunned"]:
        return 0
    per_point = constant(rules, "grappling_dice", "stun_rounds_per_point")
    return (hero_roll - grapplers_roll) * per_point


def check_grapple_roll(rules: RuleSet, roll: int, hit_dice: int, per_hd_entry: str, what: str) -> int:
    """A total of ``hit_dice`` x d6: between the count of dice and six times it."""
    count = hit_dice * constant(rules, "grappling_dice", per_hd_entry)
    sides = constant(rules, "grappling_dice", "grappling_die_sides")
    if hit_dice < 1:
        raise RuleError(f"#{what} HD? 1 or more")
    if not count <= roll <= count * sides:
        raise RuleError(f"#{what} ROLL? {count} to {count * sides}")
    return roll


# --------------------------------------------------------------------------- saves and spells


def level_gap_save_bonus(rules: RuleSet, saver_level: int, attacker_level: int) -> int:
    """+1 to the save for every full 3 levels the saver is above the attacker."""
    if saver_level < 0 or attacker_level < 0:
        raise RuleError("#LEVEL? 0 or more")
    step = constant(rules, "level_gap_save_bonus", "levels_per_step")
    per_step = constant(rules, "level_gap_save_bonus", "save_bonus_per_step")
    return max(0, saver_level - attacker_level) // step * per_step


def maneuver_row(rules: RuleSet, maneuver: str) -> Row:
    try:
        row = rules.table("special_maneuvers").by_label(maneuver)
    except KeyError:
        raise not_in_list("maneuver", (r.label for r in rules.table("special_maneuvers").rows)) from None
    if row["saver"] is None:
        raise RuleError("#MANEUVER? no save for this one")
    return row


def maneuver_save_modifier(
    rules: RuleSet, maneuver: str, saver_level: int, attacker_level: int, target_str_bonus: int
) -> int:
    """What the saver adds to the Save vs Paralysis for a whip entangle, dismount or disarm."""
    row = maneuver_row(rules, maneuver)
    gap = level_gap_save_bonus(rules, saver_level, attacker_level)
    return (gap if row["level_gap_bonus"] else 0) - (target_str_bonus if row["minus_target_str_bonus"] else 0)


SAVE_MADE, SAVE_FAILED = "Made", "Failed"


def spell_interruption(rules: RuleSet, situation_label: str, save: str | None, d6_roll: int | None) -> str:
    """What happens to a spell whose caster is hit while casting."""
    try:
        row = rules.table("spell_interruption").by_label(situation_label)
    except KeyError:
        raise not_in_list("situation", (r.label for r in rules.table("spell_interruption").rows)) from None
    if not row["save_vs_paralysis"] or save is None:
        return str(row["result"])
    if save.casefold() == SAVE_MADE.casefold():
        return str(row["if_save_made"])
    if save.casefold() != SAVE_FAILED.casefold():
        raise RuleError(f"#SAVE? {SAVE_MADE} or {SAVE_FAILED}")
    if d6_roll is None:
        return str(row["if_save_failed"])
    bands = rules.table("spell_interruption_failure").rows
    low, high = bands[0].low, bands[-1].high
    if not low <= d6_roll <= high:
        raise RuleError(f"#D6? {low} to {high}")
    return str(rules.table("spell_interruption_failure").band(d6_roll)["outcome"])


# --------------------------------------------------------------------------- calculator sections
# Each returns every output of one calculator section by defined name, as the sheet shows it:
# a RuleError becomes its '#...' text, a value not yet computable is ''.


def shown(function: Callable[..., object], *args: object) -> object:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)


def surprise_outputs(
    rules: RuleSet,
    a_surprises_on: int,
    a_surprised_on: int,
    b_surprises_on: int,
    b_surprised_on: int,
    roll_for_a: int | None = None,
    roll_for_b: int | None = None,
) -> dict[str, object]:
    a_on_b = shown(surprise_range, rules, a_surprises_on, b_surprised_on)
    b_on_a = shown(surprise_range, rules, b_surprises_on, a_surprised_on)
    outcome: object = ""
    if roll_for_a is not None and roll_for_b is not None:
        if isinstance(a_on_b, str) or isinstance(b_on_a, str):
            outcome = a_on_b if isinstance(a_on_b, str) else b_on_a
        else:
            outcome = shown(surprise_outcome, rules, a_on_b, b_on_a, roll_for_b, roll_for_a)
    return {
        "SURPRISE_A_ON_B": a_on_b,
        "SURPRISE_B_ON_A": b_on_a,
        "SURPRISE_A_CHANCE": a_on_b if isinstance(a_on_b, str) else surprise_chance(rules, a_on_b),
        "SURPRISE_B_CHANCE": b_on_a if isinstance(b_on_a, str) else surprise_chance(rules, b_on_a),
        "SURPRISE_RESULT": outcome,
    }


def mass_outputs(
    rules: RuleSet, men: int, original_hp: int, hp_before: int, damage_roll: int | None
) -> dict[str, object]:
    damage: object = "" if damage_roll is None else shown(mass_damage, rules, damage_roll, men)
    after = max(0, hp_before - damage) if isinstance(damage, int) else hp_before
    return {
        "MASS_DAMAGE_DEALT": damage,
        "MASS_HP_AFTER": after,
        "MASS_SLAIN": after <= 0,
        "MASS_SURVIVORS_LEFT": shown(mass_survivors, rules, original_hp, after, men),
    }


def kills_outputs(
    rules: RuleSet, attacks: int, need: int, damage_dice: str, hp_dice: str
) -> dict[str, object]:
    try:
        found = expected_kills(rules, attacks, need, damage_dice, hp_dice)
    except RuleError as error:
        return dict.fromkeys(
            ("KILLS_HIT_CHANCE", "KILLS_HITS", "KILLS_PER_ROUND"),
            str(error),
        )
    return {
        "KILLS_HIT_CHANCE": found.hit_chance,
        "KILLS_HITS": found.hits,
        "KILLS_AVG_DAMAGE": found.average_damage,
        "KILLS_AVG_HP": found.average_hp,
        "KILLS_PER_ROUND": found.kills,
    }


def normal_men_outputs(rules: RuleSet, kind: str, level_or_hd: int) -> dict[str, object]:
    return {"NORMAL_MEN_ATTACKS": shown(attacks_vs_normal_men, rules, kind, level_or_hd)}


def grapple_outputs(
    rules: RuleSet, hero_hd: int, grapplers_hd: int, hero_roll: int, grapplers_roll: int
) -> dict[str, object]:
    try:
        check_grapple_roll(rules, hero_roll, hero_hd, "defender_d6_per_hd", "HERO")
        check_grapple_roll(rules, grapplers_roll, grapplers_hd, "grappler_d6_per_hd", "GRAPPLERS")
    except RuleError as error:
        return dict.fromkeys(("GRAPPLE_MARGIN", "GRAPPLE_OUTCOME", "GRAPPLE_STUNNED_ROUNDS"), str(error))
    return {
        "GRAPPLE_MARGIN": hero_roll - grapplers_roll,
        "GRAPPLE_OUTCOME": grapple_result(rules, hero_roll, grapplers_roll),
        "GRAPPLE_STUNNED_ROUNDS": grapple_stun_rounds(rules, hero_roll, grapplers_roll),
    }


def save_outputs(
    rules: RuleSet, maneuver: str, saver_level: int, attacker_level: int, target_str_bonus: int
) -> dict[str, object]:
    row: object = shown(maneuver_row, rules, maneuver)
    return {
        "SAVE_LEVEL_GAP_BONUS": shown(level_gap_save_bonus, rules, saver_level, attacker_level),
        "SAVE_WHO": row if isinstance(row, str) else row["saver"],
        "SAVE_MODIFIER": shown(
            maneuver_save_modifier, rules, maneuver, saver_level, attacker_level, target_str_bonus
        ),
        "SAVE_EFFECT": row if isinstance(row, str) else row["effect"],
    }


def spell_outputs(
    rules: RuleSet, situation_label: str, save: str | None, d6_roll: int | None
) -> dict[str, object]:
    return {"SPELL_OUTCOME": shown(spell_interruption, rules, situation_label, save, d6_roll)}
