"""17 Combat (seed 002, BFRPG-derived): d20 + AB + mods >= AC, a critical chart and a critical-miss chart.

Attacks are resolved by the generic d20 engine (``pycalc.resolution``) reading the ``resolution:``
block of ``tables/combat17``: natural rolls from the ``natural_rolls`` table (a natural 20 always
hits, a natural 1 always misses), each followed by a second d20 on ``critical_hits`` /
``critical_misses`` (plain unless ruling ``critical_follow_up_roll`` says add_modifiers), damage
formulas from ``outcomes`` (regular / maximum / critical), the situation's multiplier as the block's
``situation`` stage. What is this ruleset's own stays here: the situation its pickers add up to
(:func:`situation`, handed to the engine by :func:`generic_roll` and :func:`generic_damage`), the
effect and chart texts, and the other calculators (critical damage, conditions, fumbles, rate of
fire, grenade scatter, brawling, subdual). Every calculator of the workbook is one pure function here,
returning its outputs by defined name ('' where an input is still empty, '#...' text where an input
is bad), the reference that the workbook's native formulas must equal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT, HITS, OUTCOMES, Attack, check_roll
from pycalc.errors import RuleError, not_in_list
from pycalc.pickers import chosen_row
from pycalc.tables import Row, RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True

# Text the calculators show (the same strings are written into the workbook's formulas).
CRIT_PENDING = "Natural 20: roll the follow-up d20 on the critical hit chart"
FUMBLE_PENDING = "Natural 1: roll the follow-up d20 on the critical miss chart"
CONDITION_PENDING = "roll 1d4 on the condition chart"
CONDITION_UNUSED_START, CONDITION_UNUSED_END = "the condition roll ", " is not used by this roll: clear it"
BARRED_EFFECT = "Cannot be hit (see the ticked situation): no damage"
LETHAL, NON_LETHAL = "lethal", "non-lethal"
DIRECT_HIT, ROLL_AGAIN = "Direct hit", "Roll again"
CHECK_PASSED, CHECK_FAILED = "Passed", "Failed"
TARGET, ATTACKER = "Target", "Attacker"
CONSCIOUS, UNCONSCIOUS, DEAD = "Conscious", "Unconscious", "Dead"

ANY_ATTACK = pickers.ANY
SITUATION_STAGE = "situation"  # the block's damage multiplier stage the ticked situations fill
NO_DICE = dice_module.Dice(0, 0, 0)
# The block has no natural-roll penalty, so the natural roll never changes a hit's damage: any face
# stands in where the generic engine asks for it.
ANY_NATURAL_ROLL = generic.LOWEST_FACE


# --------------------------------------------------------------------------- the generic engine


def generic_roll(attack: Attack, barred: bool = False) -> generic.Attack:
    """A d20 attack (bonus, AC with the situation, every modifier to the roll) as the generic engine's;
    a barred target cannot be hit (a natural 1 still fumbles)."""
    return generic.from_d20(attack, cannot_hit=barred)


def generic_damage(
    dice: dice_module.Dice, extra_modifier: int = 0, multiplier: Fraction = Fraction(1)
) -> generic.Damage:
    """The weapon's dice with the situation's damage modifier and multiplier, as the generic engine's."""
    return generic.Damage(dice, extra_modifier, multipliers={SITUATION_STAGE: multiplier})


# --------------------------------------------------------------------------- natural rolls and charts


def crit_row(rules: RuleSet, total: int) -> Row:
    """The critical chart band of a follow-up total (the chart is open at both ends)."""
    return resolution_results.chart_row(rules, resolution_results.critical_chart(rules), total)


def fumble_row(rules: RuleSet, roll: int) -> Row:
    return resolution_results.fumble_chart_row(rules, generic.check_roll(rules, roll, "FOLLOW ROLL"))


def follow_total(rules: RuleSet, attack: Attack, follow_roll: int) -> int:
    """The critical chart key: the plain d20, or d20 + the roll's modifiers (ruling)."""
    return resolution_results.follow_total(rules, generic_roll(attack), follow_roll)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
    """Miss / Hit / Critical / Fumble (``pycalc.d20``'s entry point): natural 20 always hits, natural 1
    always misses."""
    return resolution_results.result(rules, generic_roll(attack), roll, follow_roll)


def condition_row(rules: RuleSet, roll: int) -> Row:
    table = rules.table("critical_conditions")
    row = table.band(roll)
    if row is None:
        raise RuleError(f"#CONDITION ROLL? {table.rows[0].low} to {table.rows[-1].high}")
    return row


def condition_text(rules: RuleSet, roll: int) -> str:
    row = condition_row(rules, roll)
    return f"{row['condition']}: {row['effect']}"


def crit_line(rules: RuleSet, total: int, condition_roll: int | None = None) -> str:
    """What the critical chart gives for that total: the damage, and the condition where it rolls one."""
    row = crit_row(rules, total)
    text = str(rules.table("outcomes").entry(row["damage"]).label)
    if not row["condition_roll"]:
        return text
    if condition_roll is None:
        return f"{text}; {CONDITION_PENDING}"
    return f"{text}; {condition_text(rules, condition_roll)}"


def crit_effect(rules: RuleSet, roll: int) -> str:
    return crit_line(rules, roll)


def fumble_effect(rules: RuleSet, roll: int) -> str:
    return str(fumble_row(rules, roll)["effect"])


# --------------------------------------------------------------------------- damage


def parse_dice(expression: object) -> dice_module.Dice:
    return dice_module.parse(expression)


def check_damage_roll(dice: dice_module.Dice, rolled: int | None) -> int:
    """What the dice show; nothing need be typed for dice-less damage, and only 0 fits it."""
    low, high = dice.count, dice.count * dice.sides
    if rolled is None and not dice.count:
        return 0
    if rolled is None or not low <= rolled <= high:
        raise RuleError(f"#DAMAGE ROLL? {low} to {high}")
    return rolled


def rounded(rules: RuleSet, value: Fraction) -> int:
    return math.floor(value) if rules.ruling("subdual_half_rounding") == "down" else math.ceil(value)


def damage(
    rules: RuleSet,
    outcome_id: str,
    dice: dice_module.Dice,
    rolled: int | None,
    extra_modifier: int = 0,
    multiplier: Fraction = Fraction(1),
) -> int:
    """Damage of one outcome (regular / maximum / critical), situation multiplier applied: the
    outcomes row as the generic engine's damage formula (a row that does not hit does 0)."""
    if not rules.table("outcomes").entry(outcome_id)["hits"]:
        return 0
    formula = resolution_damage.coefficients(rules, outcome_id)
    shown = check_damage_roll(dice, rolled) if formula.dice_rolled else 0
    situated = generic_damage(dice, extra_modifier, multiplier)
    return resolution_damage.amount(rules, formula, situated, formula.dice_rolled * shown)


# --------------------------------------------------------------------------- the Attack calculator


@dataclass(frozen=True)
class AttackInputs:
    bonus: int = 0
    target: int = 10
    mods: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    level: int = 0
    dice: str = "1d8"
    damage_roll: int | None = None
    condition_roll: int | None = None
    choices: dict[str, str] = field(default_factory=dict)  # picker table id -> row label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (table id, row id) ticked


@dataclass(frozen=True)
class Situation:
    kind: str  # attack_kind row id
    hit: int
    ac: int
    damage: int
    multiplier: Fraction
    non_lethal: bool
    barred: bool


def non_lethal(rules: RuleSet, inputs: AttackInputs) -> bool:
    """Whether a pick that counts for the attack's kind deals non-lethal damage (Flat of the blade)."""
    tables = resolution_situation.modifier_tables(rules)
    picks = pickers.picked(rules, inputs.choices, inputs.toggles, tables)
    _, counted = pickers.counted_picks(rules, pickers.declared(rules), picks)
    return pickers.flagged((row for _, row in counted), "non_lethal")


def situation(rules: RuleSet, inputs: AttackInputs) -> Situation:
    """Everything the pickers add: to the roll, to the target's AC, to and times the damage
    (``resolution_situation.picked_situation``), with the attack's kind and what is non-lethal."""
    picked = resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles)
    return Situation(
        kind=str(chosen_row(rules, inputs.choices, "attack_kind").id),
        hit=picked.hit,
        ac=picked.ac,
        damage=picked.damage,
        multiplier=picked.multiplier,
        non_lethal=non_lethal(rules, inputs),
        barred=picked.cannot_hit,
    )


def situated_attack(inputs: AttackInputs, where: Situation) -> Attack:
    return Attack(inputs.bonus, inputs.target + where.ac, inputs.mods + where.hit, inputs.level)


def attack_result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None, barred: bool) -> str:
    return resolution_results.result(rules, generic_roll(attack, barred), roll, follow_roll)


def attack_chances(rules: RuleSet, attack: Attack, barred: bool = False) -> dict[str, Fraction]:
    """Exact odds of each result over every natural roll and follow-up roll."""
    return resolution_chances.chances(rules, generic_roll(attack, barred))


def attack_effect(
    rules: RuleSet,
    attack: Attack,
    roll: int,
    follow_roll: int | None,
    condition_roll: int | None,
    barred: bool,
) -> str:
    """The chart line (natural 1 or 20) or what a plain hit or miss does."""
    generic.check_roll(rules, roll)
    if generic.always_misses(rules, roll):
        return FUMBLE_PENDING if follow_roll is None else fumble_effect(rules, follow_roll)
    if barred:
        return BARRED_EFFECT
    if generic.always_hits(rules, roll):
        if follow_roll is None:
            return CRIT_PENDING
        return crit_line(rules, follow_total(rules, attack, follow_roll), condition_roll)
    hit = generic.hits_by_total(rules, generic_roll(attack), roll)
    return str(rules.table("outcomes").entry("regular_damage" if hit else "miss")["effect"])


def attack_condition(
    rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None, cond: int | None, barred: bool
) -> str:
    """The 1d4 condition the target suffers ('' unless the chart's 20 and the d4 are rolled); a d4
    typed where this roll takes none is called out (left from an earlier attack, a later chart 20
    would read it)."""
    if cond is None:
        return ""
    if barred or not generic.always_hits(rules, generic.check_roll(rules, roll)):
        return condition_unused(cond)
    if follow_roll is None:
        return ""
    if not crit_row(rules, follow_total(rules, attack, follow_roll))["condition_roll"]:
        return condition_unused(cond)
    return condition_text(rules, cond)


def condition_unused(cond: int) -> str:
    return f"{CONDITION_UNUSED_START}{cond}{CONDITION_UNUSED_END}"


def attack_damage(
    rules: RuleSet,
    attack: Attack,
    outcome: str,
    follow_roll: int | None,
    dice_text: object,
    damage_roll: int | None,
    where: Situation,
) -> int | str:
    """``resolution_damage.attack_damage`` of the result, in the generic calculator's order
    (``pycalc.resolution_calculator``): 0 for a miss or fumble, the dice's message on a hit, '' while
    the critical chart's follow-up roll or the damage roll is not in."""
    if outcome not in HITS:
        return 0
    situated = generic_damage(parse_dice(dice_text), where.damage, where.multiplier)
    return resolution_damage.attack_damage(
        rules, generic_roll(attack), situated, outcome, ANY_NATURAL_ROLL, follow_roll, damage_roll
    )


def guarded(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)


def attack_outputs(rules: RuleSet, inputs: AttackInputs) -> dict[str, Any]:
    """Every output cell of the Attack calculator, by defined name."""
    where = situation(rules, inputs)
    attack = situated_attack(inputs, where)
    rolled = generic_roll(attack, where.barred)
    odds = resolution_chances.chances(rules, rolled)
    found: dict[str, Any] = {
        "ATTACK_SITUATION_HIT": where.hit,
        "ATTACK_SITUATION_AC": where.ac,
        "ATTACK_SITUATION_DAMAGE": where.damage,
        "ATTACK_DAMAGE_MULTIPLIER": where.multiplier,
        "ATTACK_BARRED": where.barred,
        "ATTACK_TOTAL_MODS": rolled.mods,
        "ATTACK_AC": generic.target(rules, rolled),
        "ATTACK_NEED": generic.need(rules, rolled),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": odds[FUMBLE],
        "ATTACK_DAMAGE_KIND": NON_LETHAL if where.non_lethal else LETHAL,
        "ATTACK_RESULT": "",
        "ATTACK_EFFECT": "",
        "ATTACK_CONDITION": "",
        "ATTACK_DAMAGE": "",
    }
    if inputs.roll is None:
        return found
    outcome = guarded(resolution_results.result, rules, rolled, inputs.roll, inputs.follow_roll)
    found["ATTACK_RESULT"] = outcome
    if outcome not in OUTCOMES:
        return found
    args = (rules, attack, inputs.roll, inputs.follow_roll)
    found["ATTACK_EFFECT"] = guarded(attack_effect, *args, inputs.condition_roll, where.barred)
    found["ATTACK_CONDITION"] = guarded(attack_condition, *args, inputs.condition_roll, where.barred)
    found["ATTACK_DAMAGE"] = guarded(
        attack_damage, rules, attack, outcome, inputs.follow_roll, inputs.dice, inputs.damage_roll, where
    )
    return found


# --------------------------------------------------------------------------- critical damage


def critical_damage_outputs(
    rules: RuleSet,
    dice_text: object,
    damage_roll: int | None,
    follow_roll: int | None = None,
    mods: int = 0,
    condition_roll: int | None = None,
) -> dict[str, Any]:
    """Regular, maximum and critical damage of a weapon, and what the chart roll gives."""
    try:
        dice = parse_dice(dice_text)
    except RuleError as error:
        return dict.fromkeys(CRIT_OUTPUTS, str(error))
    pending = damage_roll is None and dice.count

    def variant(outcome_id: str) -> int | str:
        needs_roll = rules.table("outcomes").entry(outcome_id)["rolled_dice"]
        return "" if pending and needs_roll else guarded(damage, rules, outcome_id, dice, damage_roll)

    found: dict[str, Any] = {
        "CRIT_REGULAR": variant("regular_damage"),
        "CRIT_MAXIMUM": variant("maximum_damage"),
        "CRIT_CRITICAL": variant("critical_damage"),
        "CRIT_CHART": "",
        "CRIT_DAMAGE": "",
        "CRIT_CONDITION": "",
    }
    if follow_roll is None:
        return found
    attack = Attack(0, 0, mods)
    try:
        check_roll(follow_roll, "FOLLOW ROLL")
    except RuleError as error:
        found["CRIT_CHART"] = str(error)
        return found
    total = follow_total(rules, attack, follow_roll)
    row = crit_row(rules, total)
    found["CRIT_CHART"] = guarded(crit_line, rules, total, condition_roll)
    found["CRIT_DAMAGE"] = variant(str(row["damage"]))
    if row["condition_roll"] and condition_roll is not None:
        found["CRIT_CONDITION"] = guarded(condition_text, rules, condition_roll)
    elif condition_roll is not None:
        found["CRIT_CONDITION"] = condition_unused(condition_roll)
    return found


CRIT_OUTPUTS = (
    "CRIT_REGULAR",
    "CRIT_MAXIMUM",
    "CRIT_CRITICAL",
    "CRIT_CHART",
    "CRIT_DAMAGE",
    "CRIT_CONDITION",
)


# --------------------------------------------------------------------------- condition and fumble


CONDITION_COLUMNS = {
    "CONDITION_HIT": ("attacker_conditions", "when_attacking", "hit"),
    "CONDITION_SAVES": ("attacker_conditions", "when_attacking", "saves"),
    "CONDITION_DC_CHECKS": ("attacker_conditions", "when_attacking", "dc_checks"),
    "CONDITION_INIT": ("attacker_conditions", "when_attacking", "init"),
    "CONDITION_AC_MELEE": ("target_conditions", "when_attacked", "ac_melee"),
    "CONDITION_AC_RANGED": ("target_conditions", "when_attacked", "ac_ranged"),
}
CONDITION_OUTPUTS = ("CONDITION_NAME", "CONDITION_EFFECT", "CONDITION_DISARMED", *CONDITION_COLUMNS)


def condition_modifier(rules: RuleSet, roll: int, output: str) -> int:
    table_id, link, column = CONDITION_COLUMNS[output]
    entry = condition_row(rules, roll)[link]
    return rules.table(table_id).value(entry, column) if entry else 0


def condition_outputs(rules: RuleSet, roll: int | None) -> dict[str, Any]:
    """The 1d4 condition chart: what the enemy suffers, as modifiers."""
    if roll is None:
        return dict.fromkeys(CONDITION_OUTPUTS, "")
    try:
        row = condition_row(rules, roll)
    except RuleError as error:
        return dict.fromkeys(CONDITION_OUTPUTS, str(error))
    found: dict[str, Any] = {
        "CONDITION_NAME": row["condition"],
        "CONDITION_EFFECT": row["effect"],
        "CONDITION_DISARMED": row["disarmed"],
    }
    found.update({name: condition_modifier(rules, roll, name) for name in CONDITION_COLUMNS})
    return found


FUMBLE_OUTPUTS = (
    "FUMBLE_CHART_EFFECT",
    "FUMBLE_DEX_DC",
    "FUMBLE_CHECK",
    "FUMBLE_NO_ATTACK_NEXT_ROUND",
    "FUMBLE_PENALTY",
    "FUMBLE_CONSEQUENCE",
)


def fumble_consequence_text(rules: RuleSet, row: Row, check: str, rounds_roll: int | None) -> tuple[str, int]:
    """What happens after the DEX check, and the attack-roll penalty that follows."""
    if row["dex_check_dc"] is None:
        return str(row["effect"]), 0
    if not check:
        return f"DEX check DC {row['dex_check_dc']} needed", 0
    if check == CHECK_PASSED:
        return "DEX check passed: just a miss", 0
    condition = row["failed_check_condition"]
    if condition:
        penalty = rules.table("attacker_conditions").entry(condition)
        rounds_dice = parse_dice(row["penalty_rounds"])
        if rounds_roll is None:
            rounds = str(row["penalty_rounds"])
        elif rounds_dice.minimum <= rounds_roll <= rounds_dice.maximum:
            rounds = str(rounds_roll)
        else:
            raise RuleError(f"#ROUNDS ROLL? {rounds_dice.minimum} to {rounds_dice.maximum}")
        return f"DEX check failed: {penalty['hit']} to hit for {rounds} rounds", penalty["hit"]
    if row["failed_check_free_attack"]:
        return "DEX check failed: the opponent gets a free attack", 0
    return "DEX check failed", 0


def fumble_outputs(
    rules: RuleSet,
    roll: int | None,
    dex_bonus: int = 0,
    dex_roll: int | None = None,
    rounds_roll: int | None = None,
) -> dict[str, Any]:
    """The critical miss chart, its DEX check and what follows."""
    if roll is None:
        return dict.fromkeys(FUMBLE_OUTPUTS, "")
    try:
        row = fumble_row(rules, roll)
        if dex_roll is not None:
            check_roll(dex_roll, "DEX ROLL")
    except RuleError as error:
        return dict.fromkeys(FUMBLE_OUTPUTS, str(error))
    dc = row["dex_check_dc"]
    check = ""
    if dc is not None and dex_roll is not None:
        check = CHECK_PASSED if dex_roll + dex_bonus >= dc else CHECK_FAILED
    try:
        consequence, penalty = fumble_consequence_text(rules, row, check, rounds_roll)
    except RuleError as error:
        consequence, penalty = str(error), 0
    return {
        "FUMBLE_CHART_EFFECT": row["effect"],
        "FUMBLE_DEX_DC": "" if dc is None else dc,
        "FUMBLE_CHECK": check,
        "FUMBLE_NO_ATTACK_NEXT_ROUND": row["no_attack_next_round"],
        "FUMBLE_PENALTY": penalty,
        "FUMBLE_CONSEQUENCE": consequence,
    }


# --------------------------------------------------------------------------- rate of fire


ROF_OUTPUTS = ("ROF_ROUNDS_PER_SHOT", "ROF_FIRST_SHOT_ROUND", "ROF_SHOTS", "ROF_LAST_SHOT_ROUND")


def rate_of_fire(rules: RuleSet, weapon: str, siege_rate: int | None = None) -> tuple[int, int]:
    """(fires once every N rounds, rounds spent reloading) for a weapon of the rate_of_fire table."""
    table = rules.table("rate_of_fire")
    try:
        row = table.by_label(weapon)
    except KeyError:
        raise not_in_list("weapon", (row.label for row in table.rows)) from None
    every = row["rounds_per_shot"]
    if every is None:
        if siege_rate is None or siege_rate < 1:
            raise RuleError("#RATE? fires once every how many rounds (1 or more)")
        return siege_rate, siege_rate - 1
    return every, row["reload_rounds"]


def shots_fired(rules: RuleSet, weapon: str, rounds: int, siege_rate: int | None = None) -> dict[str, Any]:
    """How many shots a weapon fires in ``rounds`` rounds, and in which rounds."""
    try:
        every, reload = rate_of_fire(rules, weapon, siege_rate)
        if rounds < 0:
            raise RuleError("#ROUNDS? 0 or more")
    except RuleError as error:
        return dict.fromkeys(ROF_OUTPUTS, str(error))
    first = 1 if rules.ruling("rate_of_fire_start") == "loaded" else reload + 1
    shots = 0 if rounds < first else (rounds - first) // every + 1
    return {
        "ROF_ROUNDS_PER_SHOT": every,
        "ROF_FIRST_SHOT_ROUND": first,
        "ROF_SHOTS": shots,
        "ROF_LAST_SHOT_ROUND": first + (shots - 1) * every if shots else "",
    }


# --------------------------------------------------------------------------- grenade scatter


GRENADE_OUTPUTS = ("GRENADE_LANDS", "GRENADE_TOWARD_FT", "GRENADE_RIGHT_FT", "GRENADE_DISTANCE_FT")


def scatter(rules: RuleSet, hit: bool, roll: int | None) -> dict[str, Any]:
    """Where a grenade-like missile lands: a direct hit, or the 1d10 diagram square."""
    if hit:
        return dict(zip(GRENADE_OUTPUTS, (DIRECT_HIT, 0, 0, 0), strict=True))
    if roll is None:
        return dict.fromkeys(GRENADE_OUTPUTS, "")
    table = rules.table("grenade_scatter")
    row = table.band(roll)
    if row is None:
        return dict.fromkeys(GRENADE_OUTPUTS, f"#SCATTER ROLL? {table.rows[0].low} to {table.rows[-1].high}")
    if row["reinterpreted"] and rules.ruling("grenade_missing_ten") == "reroll_ten":
        return dict(zip(GRENADE_OUTPUTS, (ROLL_AGAIN, "", "", ""), strict=True))
    square = rules.table("grenade_missiles").value("scatter_square_ft")
    toward, right = row["toward_thrower"], row["to_right"]
    return {
        "GRENADE_LANDS": row["direction"],
        "GRENADE_TOWARD_FT": toward * square,
        "GRENADE_RIGHT_FT": right * square,
        "GRENADE_DISTANCE_FT": max(abs(toward), abs(right)) * square,
    }


# --------------------------------------------------------------------------- brawling


BRAWL_OUTPUTS = (
    "BRAWL_HIT_MOD",
    "BRAWL_NEED",
    "BRAWL_DICE",
    "BRAWL_NON_LETHAL",
    "BRAWL_TAKES_DAMAGE",
    "BRAWL_DAMAGE",
)


def brawl_value(rules: RuleSet, row: Row, column: str) -> Any:
    """A brawling value; an empty one follows the ruling kick_damage."""
    value = row[column]
    if value is None:
        return rules.table("kick_damage_readings").value(rules.ruling("kick_damage"), column)
    return value


def brawl_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table("brawling").by_label(kind)
    except KeyError:
        raise not_in_list("brawl", (r.label for r in rules.table("brawling").rows)) from None


def brawl_outputs(
    rules: RuleSet,
    kind: str,
    bonus: int,
    target: int,
    mods: int = 0,
    strength: int = 0,
    damage_roll: int | None = None,
    armour: str | None = None,
) -> dict[str, Any]:
    """Punch or kick: the roll needed, and the damage and who takes it."""
    try:
        row = brawl_row(rules, kind)
        armour_table = rules.table("brawling_armour")
        armour_row = armour_table.by_label(armour) if armour else armour_table.rows[0]
    except KeyError:
        return dict.fromkeys(BRAWL_OUTPUTS, str(not_in_list("armour", (r.label for r in armour_table.rows))))
    except RuleError as error:
        return dict.fromkeys(BRAWL_OUTPUTS, str(error))
    dice = parse_dice(row["damage"])
    found: dict[str, Any] = {
        "BRAWL_HIT_MOD": row["hit"],
        "BRAWL_NEED": target - bonus - mods - row["hit"],
        "BRAWL_DICE": row["damage"],
        "BRAWL_NON_LETHAL": brawl_value(rules, row, "non_lethal"),
        "BRAWL_TAKES_DAMAGE": ATTACKER if armour_row["backfires"] else TARGET,
        "BRAWL_DAMAGE": "",
    }
    if damage_roll is not None:
        strength_added = strength if brawl_value(rules, row, "adds_strength") else 0
        found["BRAWL_DAMAGE"] = guarded(damage, rules, "regular_damage", dice, damage_roll, strength_added)
    return found


# --------------------------------------------------------------------------- subdual


SUBDUAL_OUTPUTS = (
    "SUBDUAL_HIT_MOD",
    "SUBDUAL_DAMAGE_DEALT",
    "SUBDUAL_HP_AFTER",
    "SUBDUAL_STATE",
    "SUBDUAL_WAKE",
)


def subdual_damage(rules: RuleSet, damage_value: int) -> int:
    """Half normal damage (flat of the blade), rounded per subdual_half_rounding."""
    factor = Fraction(str(rules.table("attack_situation").value("flat_of_blade", "damage_multiplier")))
    return rounded(rules, damage_value * factor)


def wake_text(rules: RuleSet) -> str:
    table = rules.table("zero_hit_points")
    wake_hp, wake, revive = table.entry("wake_hp"), table.entry("wake_after"), table.entry("revive_after")
    return (
        f"wakes with {wake_hp['value']} {wake_hp['unit']} after {wake['dice']} {wake['unit']}, "
        f"or can be revived after {revive['dice']} {revive['unit']}"
    )


def subdual_outputs(
    rules: RuleSet,
    hp: int,
    damage_value: int,
    flat: bool = True,
    earlier_non_lethal: bool = False,
    unconscious: bool = False,
) -> dict[str, Any]:
    """A hit on a character: damage dealt (half with the flat of the blade) and whether they drop."""
    dealt = subdual_damage(rules, damage_value) if flat else damage_value
    after = hp - dealt
    zero = rules.constant("zero_hit_points", "zero_hp_threshold")
    if unconscious:
        state = DEAD if dealt > 0 else UNCONSCIOUS
    elif after > zero:
        state = CONSCIOUS
    else:
        state = UNCONSCIOUS if flat or earlier_non_lethal else DEAD
    return {
        "SUBDUAL_HIT_MOD": rules.table("attack_situation").value("flat_of_blade", "hit") if flat else 0,
        "SUBDUAL_DAMAGE_DEALT": dealt,
        "SUBDUAL_HP_AFTER": after,
        "SUBDUAL_STATE": state,
        "SUBDUAL_WAKE": wake_text(rules) if state == UNCONSCIOUS else "",
    }


# --------------------------------------------------------------------------- the generic engine's inputs


def generic_attack(rules: RuleSet, inputs: AttackInputs) -> tuple[generic.Attack, generic.Damage]:
    """The Attack calculator's inputs as the generic engine's attack and damage (``pycalc.resolution``):
    the situation the pickers add up to is this ruleset's own."""
    where = situation(rules, inputs)
    attack = generic_roll(situated_attack(inputs, where), where.barred)
    return attack, generic_damage(parse_dice(inputs.dice), where.damage, where.multiplier)
