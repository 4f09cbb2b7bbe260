"""Worksheet functions (xlwings) shared by the rulesets: the d20 attack of any d20 ruleset by its id
(d20_need, d20_result, d20_hit_chance, d20_chance, crit_effect, fumble_effect), and of every d20
ruleset whose Attack calculator is the generic one (cnc, osr, combat17, the GM's own) its effect,
the check a chart row calls for (d20_check), damage and odds (d20_effect, d20_damage, d20_expected_damage, d20_damage_chance_at_least,
d20_kill_chance), each computed by that calculator (``pycalc.resolution_calculator``) with the
situation picked by name (``picks``, as the Encounter log's Picks cell); a modifier looked up by its
YAML ids, and dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import xlwings as xw

from pycalc import d20, d20_engines, log_picks, resolution_calculator, resolution_odds, resolution_results
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.errors import RuleError, not_in_list
from pycalc.hit_point_states import hit_point_state
from pycalc.resolution import Attack, Damage
from pycalc.resolution_calculator import CalculatorInputs
from pycalc.resolution_summary import EFFECT
from pycalc.table_files import ID_PATTERN
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset, tables_dir
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import arg_docs, as_attacks, as_hit_points, as_int, as_text, cell_safe, optional_int
from pycalc.udfs.d20_attack import as_outcome, d20_attack

__all__ = [
    "crit_effect",
    "d20_chance",
    "d20_check",
    "d20_damage",
    "d20_damage_chance_at_least",
    "d20_effect",
    "d20_expected_damage",
    "d20_hit_chance",
    "d20_kill_chance",
    "d20_need",
    "d20_result",
    "dice_max",
    "dice_mean",
    "fumble_effect",
    "hp_state",
    "modifier",
]

# --------------------------------------------------------------------------- d20 rulesets (shared)


def is_own_ruleset(ruleset_id: str) -> bool:
    """A ruleset of the GM's own: a folder under tables/ (or PYCALC_TABLES) with a ruleset.yaml."""
    return (
        ruleset_id not in RULESET_IDS
        and bool(ID_PATTERN.match(ruleset_id))
        and (tables_dir() / ruleset_id / "ruleset.yaml").exists()
    )


def own_d20_ruleset(ruleset_id: str) -> RuleSet | None:
    """A d20 ruleset of the GM's own: one with a resolution block."""
    if not is_own_ruleset(ruleset_id):
        return None
    rules = load_ruleset(ruleset_id)
    return rules if rules.resolution_block is not None else None


def own_chart_effect(rules: RuleSet, roll: int, kind: str) -> str:
    """An own ruleset's critical (kind 'crit') or fumble chart line for that roll (the follow-up roll,
    or the chart roll on a chart of its own): its text column, or the row's label when it has none."""
    chart = (
        resolution_results.critical_chart(rules) if kind == "crit" else resolution_results.fumble_chart(rules)
    )
    if resolution_results.unfilled(rules, chart):  # a table the GM fills, shipped empty
        return resolution_results.fill_in_words(rules, chart)
    if chart.own_roll:
        resolution_results.check_chart_roll(rules, chart, roll)
    else:
        generic.check_roll(rules, roll, "ROLL", generic.follow_faces(rules))
    row = resolution_results.chart_row(rules, chart, roll)
    return resolution_results.row_text(chart, row) if chart.text else str(row.label or "")


def chart_effect(value: Any, roll: Any, kind: str) -> str:
    name, natural = ruleset_id(value), as_int(roll, "ROLL")
    own = own_d20_ruleset(name)
    return (
        d20_engines.chart_effect(name, natural, kind) if own is None else own_chart_effect(own, natural, kind)
    )


def ruleset_id(value: Any) -> str:
    text = as_text(value, "RULESET").lower()
    if text not in d20.D20_RULESETS and own_d20_ruleset(text) is None:
        raise RuleError(f"#RULESET? use {', '.join(d20.D20_RULESETS)} or your own d20 ruleset's id")
    return text


# --------------------------------------------------------------------------- the attack, by the Attack calculator
#
# Every d20 ruleset's Attack calculator is the generic one (the shipped ones' and the GM's own): the
# functions answer from it (``resolution_calculator.attack_outputs``), the situation picked by name
# as in the Encounter log's Picks cell.


def calculator_rules(value: Any) -> RuleSet:
    """The tables of the d20 ruleset named (a shipped one's, or the GM's own)."""
    name = ruleset_id(value)
    own = own_d20_ruleset(name)
    return load_ruleset(name) if own is None else own


def picked(rules: RuleSet, picks: Any) -> log_picks.ReadPicks:
    """The rows a Picks text names, read as the Encounter log reads its Picks cell."""
    read = log_picks.row_picks(rules, as_text(picks, "PICKS", ""))
    if read.unknown:
        raise RuleError(log_picks.UNKNOWN)
    return read


def calculator_inputs(
    rules: RuleSet, bonus: Any, target: Any, mods: Any, level: Any, picks: Any, **more: Any
) -> CalculatorInputs:
    """The generic calculator's inputs from cell values (``more``: its other fields, already read)."""
    attack, read = d20_attack(bonus, target, mods, level), picked(rules, picks)
    if attack.level < 0:  # a level below 0 would make every natural 1 a fumble check it fails
        raise RuleError("#LEVEL? 0 or more")
    return CalculatorInputs(
        bonus=attack.bonus,
        target=attack.target,
        mods=attack.mods,
        level=attack.level,
        choices=read.choices,
        toggles=read.toggles,
        **more,
    )


def calculator_outputs(rules: RuleSet, inputs: CalculatorInputs) -> dict[str, object]:
    """The generic calculator's outputs; a message in its result is the function's message."""
    found = resolution_calculator.attack_outputs(rules, inputs)
    result = found["ATTACK_RESULT"]
    if isinstance(result, str) and result.startswith("#"):
        raise RuleError(result)
    return found


def outcome_chances(found: Mapping[str, object]) -> dict[str, Fraction]:
    """The chance of exactly each outcome, from the calculator's chances of any hit, of a Critical and
    of a Fumble (the four outcomes are exclusive)."""
    hit, critical, fumble = (
        Fraction(str(found[name]))
        for name in ("ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE", "ATTACK_FUMBLE_CHANCE")
    )
    return {d20.MISS: 1 - hit - fumble, d20.HIT: hit - critical, d20.CRITICAL: critical, d20.FUMBLE: fumble}


def effect_words(found: Mapping[str, object]) -> str:
    """What the result does, in the calculator's words: the block's effect text and the chart's line,
    those it has ('' when neither); a chart roll off its die says so, alone (the calculator shows the
    message after the chart's line)."""
    parts = [str(found[name]) for name in (EFFECT, "ATTACK_CHART_EFFECT") if found.get(name)]
    for part in parts:
        if "#" in part:
            raise RuleError(part[part.index("#") :])
    return "; ".join(parts)


D20_RULESET = ("ruleset", "cnc, osr, combat17, bfrpg or your own d20 ruleset's id")
ROLL_DOC = ("roll", "the natural d20 roll")
BONUS = ("bonus", "attack bonus (BtH/AB with STR/DEX; THAC0 with a descending AC)")
TARGET = ("target", "defender's AC (osr: the number needed from the attack matrix)")
MODS = ("mods", "other modifiers to the roll (optional, 0)")
LEVEL = ("level", "attacker's level (a fumble checked against it; optional)")
FOLLOW = ("follow_roll", "the second d20: a confirmation, fumble check or chart roll (optional)")
DICE = ("dice", "damage dice, e.g. 1d8+2")
DAMAGE_BONUS = ("damage_bonus", "damage added by the situation (optional, 0)")
PICKS = ("picks", 'the situation, named as in the Encounter log\'s Picks cell: "charge, grapple" (optional)')
CHART_DOCS = arg_docs(
    ("ruleset", "combat17 (d20 chart) or another d20 ruleset"), ("roll", "the follow-up d20")
)


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, MODS, PICKS)
@cell_safe
def d20_need(ruleset: Any, bonus: Any, target: Any, mods: Any = 0, picks: Any = None) -> int:
    """The natural d20 roll needed to hit, the situation picked counted, before the natural-roll rules."""
    rules = calculator_rules(ruleset)
    inputs = calculator_inputs(rules, bonus, target, mods, 0, picks)
    return int(calculator_outputs(rules, inputs)["ATTACK_NEED"])


@xw.func
@arg_docs(D20_RULESET, ROLL_DOC, BONUS, TARGET, MODS, LEVEL, FOLLOW, PICKS)
@cell_safe
def d20_result(
    ruleset: Any,
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    level: Any = 0,
    follow_roll: Any = None,
    picks: Any = None,
) -> str:
    """Miss, Hit, Critical or Fumble, with the ruleset's natural 1 and natural 20 rules."""
    follow = optional_int(follow_roll, "FOLLOW ROLL")
    rules, natural = calculator_rules(ruleset), as_int(roll, "ROLL")
    inputs = calculator_inputs(rules, bonus, target, mods, level, picks, roll=natural, follow_roll=follow)
    return str(calculator_outputs(rules, inputs)["ATTACK_RESULT"])


def chances_of(
    ruleset: Any, bonus: Any, target: Any, mods: Any, level: Any, picks: Any
) -> dict[str, Fraction]:
    """The chance of exactly each outcome of one attack, before the roll: an attack a pick rules out
    has none but a Miss, as the calculator and the odds functions say (its result says why)."""
    rules = calculator_rules(ruleset)
    inputs = calculator_inputs(rules, bonus, target, mods, level, picks)
    return outcome_chances(resolution_calculator.attack_outputs(rules, inputs))


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, MODS, LEVEL, PICKS)
@cell_safe
def d20_hit_chance(
    ruleset: Any, bonus: Any, target: Any, mods: Any = 0, level: Any = 0, picks: Any = None
) -> float:
    """Probability (0 to 1) of any hit, critical hits included, natural-roll rules applied."""
    found = chances_of(ruleset, bonus, target, mods, level, picks)
    return float(found[d20.HIT] + found[d20.CRITICAL])


@xw.func
@arg_docs(D20_RULESET, ("outcome", "Miss, Hit, Critical or Fumble"), BONUS, TARGET, MODS, LEVEL, PICKS)
@cell_safe
def d20_chance(
    ruleset: Any,
    outcome: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    level: Any = 0,
    picks: Any = None,
) -> float:
    """Probability (0 to 1) of exactly that result (Hit without the Criticals: d20_hit_chance counts both)."""
    wanted = as_outcome(outcome)
    return float(chances_of(ruleset, bonus, target, mods, level, picks)[wanted])


@xw.func
@arg_docs(
    D20_RULESET,
    ROLL_DOC,
    BONUS,
    TARGET,
    MODS,
    LEVEL,
    FOLLOW,
    ("chart_roll", "the roll on a chart of its own, e.g. 17 Combat's condition d4 (optional)"),
    PICKS,
)
@cell_safe
def d20_effect(
    ruleset: Any,
    roll: Any,
    bonus: Any,
    target: Any,
    mods: Any = 0,
    level: Any = 0,
    follow_roll: Any = None,
    chart_roll: Any = None,
    picks: Any = None,
) -> str:
    """What the result does: the attack kind's words (cnc), the critical or fumble chart's line."""
    rules = calculator_rules(ruleset)
    inputs = calculator_inputs(
        rules,
        bonus,
        target,
        mods,
        level,
        picks,
        roll=as_int(roll, "ROLL"),
        follow_roll=optional_int(follow_roll, "FOLLOW ROLL"),
        chart_roll=optional_int(chart_roll, "CHART ROLL"),
    )
    return effect_words(calculator_outputs(rules, inputs))


@xw.func
@arg_docs(
    D20_RULESET,
    ROLL_DOC,
    BONUS,
    TARGET,
    ("check_roll", "the d20 of the check the chart row calls for, e.g. 17 Combat's DEX check (optional)"),
    ("check_bonus", "added to the check's d20, e.g. the DEX bonus (optional, 0)"),
    FOLLOW,
    MODS,
    PICKS,
)
@cell_safe
def d20_check(
    ruleset: Any,
    roll: Any,
    bonus: Any,
    target: Any,
    check_roll: Any = None,
    check_bonus: Any = 0,
    follow_roll: Any = None,
    mods: Any = 0,
    picks: Any = None,
) -> str:
    """The check the chart row of a Critical or a Fumble calls for: its DC, then passed or failed and
    what follows ('' when the row calls for none)."""
    rules = calculator_rules(ruleset)
    inputs = calculator_inputs(
        rules,
        bonus,
        target,
        mods,
        0,
        picks,
        roll=as_int(roll, "ROLL"),
        follow_roll=optional_int(follow_roll, "FOLLOW ROLL"),
        check_roll=optional_int(check_roll, "CHECK ROLL"),
        check_bonus=as_int(check_bonus, "CHECK BONUS", 0),
    )
    said = str(calculator_outputs(rules, inputs).get(resolution_calculator.CHECK, ""))
    if said.startswith("#"):
        raise RuleError(said)
    return said


@xw.func
@CHART_DOCS
@cell_safe
def crit_effect(ruleset: Any, roll: Any) -> str:
    """The critical-hit chart line for that d20."""
    return chart_effect(ruleset, roll, "crit")


@xw.func
@CHART_DOCS
@cell_safe
def fumble_effect(ruleset: Any, roll: Any) -> str:
    """The fumble chart line for that d20."""
    return chart_effect(ruleset, roll, "fumble")


def any_ruleset(value: Any) -> RuleSet:
    """The tables of the ruleset named: a shipped one's or the GM's own."""
    name = as_text(value, "RULESET").lower()
    if name not in RULESET_IDS and not is_own_ruleset(name):
        raise RuleError(f"#RULESET? use {', '.join(RULESET_IDS)} or your own ruleset's id")
    return load_ruleset(name)


@xw.func
@xw.arg("ruleset", doc="any ruleset id with an Encounter sheet")
@xw.arg("hp", doc="current hit points")
@cell_safe
def hp_state(ruleset: Any, hp: Any) -> str:
    """The state at that many hit points, as the Encounter names it: able to act ... dead."""
    rules = any_ruleset(ruleset)
    if rules.encounter_block is None:
        raise RuleError(f"#RULESET? {rules.id} has no hit point states")
    return hit_point_state(rules, as_int(hp, "HP"))


@xw.func
@xw.arg("ruleset", doc="any ruleset id")
@xw.arg("table", doc="the YAML table id, e.g. cover")
@xw.arg("entry", doc="the entry id or label, e.g. half")
@xw.arg("column", doc="the value column (optional when the table has one number column)")
@cell_safe
def modifier(ruleset: Any, table: Any, entry: Any, column: Any = None) -> float:
    """A modifier looked up by its YAML ids: modifier("cnc", "cover", "half")."""
    rules = any_ruleset(ruleset)
    table_id = as_text(table, "TABLE")
    if table_id not in rules.tables:
        raise RuleError(f"#TABLE? no table {table_id!r} in {rules.id}")
    found = rules.table(table_id)
    try:
        row = found.by_label(as_text(entry, "ENTRY"))
    except KeyError:
        raise not_in_list("entry", (row.label for row in found.rows)) from None
    numbers = [c.id for c in found.columns if c.type in ("int", "number")]
    wanted = as_text(column, "COLUMN", numbers[0] if len(numbers) == 1 else "")
    if wanted not in numbers:
        raise RuleError(f"#COLUMN? use {', '.join(numbers) or 'a number column'}")
    value = row[wanted]
    return 0 if value is None else value


# --------------------------------------------------------------------------- damage and odds, by the Attack calculator


@xw.func
@arg_docs(
    D20_RULESET,
    ROLL_DOC,
    BONUS,
    TARGET,
    DICE,
    ("damage_roll", "what the damage dice show, without the +modifier"),
    MODS,
    ("follow_roll", "the follow-up roll, where a result asks for it (optional)"),
    ("extra_roll", "what further dice show, where a critical rolls again (optional)"),
    LEVEL,
    DAMAGE_BONUS,
    PICKS,
)
@cell_safe
def d20_damage(
    ruleset: Any,
    roll: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    damage_roll: Any,
    mods: Any = 0,
    follow_roll: Any = None,
    extra_roll: Any = None,
    level: Any = 0,
    damage_bonus: Any = 0,
    picks: Any = None,
) -> Any:
    """Hit points the attack takes off, its natural-roll rules and damage rules applied ('' until rolled)."""
    rules = calculator_rules(ruleset)
    inputs = calculator_inputs(
        rules,
        bonus,
        target,
        mods,
        level,
        picks,
        dice=as_text(dice, "DICE"),
        damage_bonus=as_int(damage_bonus, "DAMAGE BONUS", 0),
        roll=as_int(roll, "ROLL"),
        follow_roll=optional_int(follow_roll, "FOLLOW ROLL"),
        damage_roll=optional_int(damage_roll, "DAMAGE ROLL"),
        extra_roll=optional_int(extra_roll, "EXTRA ROLL"),
    )
    found = calculator_outputs(rules, inputs)["ATTACK_DAMAGE"]
    if isinstance(found, str) and found.startswith("#"):
        raise RuleError(found)
    return found


def weighed(
    ruleset: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    mods: Any,
    damage_bonus: Any,
    level: Any,
    picks: Any,
) -> tuple[RuleSet, Attack, Damage]:
    """The attack and its damage as the calculator's odds weigh them (``resolution_calculator.weighed``)."""
    rules = calculator_rules(ruleset)
    damage = as_int(damage_bonus, "DAMAGE BONUS", 0)
    inputs = calculator_inputs(
        rules, bonus, target, mods, level, picks, dice=as_text(dice, "DICE"), damage_bonus=damage
    )
    return resolution_calculator.weighed(rules, inputs)


ODDS_SITUATION = (MODS, DAMAGE_BONUS, LEVEL, PICKS)


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, DICE, d20_odds.ATTACKS, *ODDS_SITUATION)
@cell_safe
def d20_expected_damage(
    ruleset: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    level: Any = 0,
    picks: Any = None,
) -> float:
    """Expected damage of the round's attacks before the dice are rolled (a miss counts 0)."""
    count = as_attacks(attacks)
    found = weighed(ruleset, bonus, target, dice, mods, damage_bonus, level, picks)
    return float(resolution_odds.expected_damage(*found, count))


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, DICE, d20_odds.AMOUNT, d20_odds.ATTACKS, *ODDS_SITUATION)
@cell_safe
def d20_damage_chance_at_least(
    ruleset: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    amount: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    level: Any = 0,
    picks: Any = None,
) -> float:
    """Probability (0 to 1) that the attacks together do at least this much damage."""
    wanted, count = as_hit_points(amount, "AMOUNT"), as_attacks(attacks)
    found = weighed(ruleset, bonus, target, dice, mods, damage_bonus, level, picks)
    return float(resolution_odds.chance_at_least(*found, wanted, count))


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, DICE, d20_odds.TARGET_HP, d20_odds.ATTACKS, *ODDS_SITUATION)
@cell_safe
def d20_kill_chance(
    ruleset: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    mods: Any = 0,
    damage_bonus: Any = 0,
    level: Any = 0,
    picks: Any = None,
) -> float:
    """Probability (0 to 1) that the target drops to 0 hit points or below within the attacks."""
    left, count = as_hit_points(hp, "HP"), as_attacks(attacks)
    found = weighed(ruleset, bonus, target, dice, mods, damage_bonus, level, picks)
    return float(resolution_odds.kill_chance(*found, left, count))


@xw.func
@xw.arg("dice", doc="e.g. 2d4+2")
@cell_safe
def dice_max(dice: Any) -> int:
    """Highest total of a dice expression (2d4+2 -> 10)."""
    return dice_module.parse(dice).maximum


@xw.func
@xw.arg("dice", doc="e.g. 2d4+2")
@cell_safe
def dice_mean(dice: Any) -> float:
    """Average total of a dice expression (2d4+2 -> 7)."""
    return float(dice_module.parse(dice).mean)
