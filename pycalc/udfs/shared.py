"""Worksheet functions (xlwings) shared by the rulesets: the d20 attack of any d20 ruleset by its id
(d20_need, d20_result, d20_hit_chance, crit_effect, fumble_effect), a modifier looked up by its YAML
ids, and dice.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import d20, d20_engines, resolution_calculator, resolution_chances, resolution_results
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.errors import RuleError, not_in_list
from pycalc.resolution_calculator import CalculatorInputs
from pycalc.table_files import ID_PATTERN
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset, tables_dir
from pycalc.udfs import d20_odds
from pycalc.udfs.cells import (
    arg_docs,
    as_attacks,
    as_hit_points,
    as_int,
    as_text,
    cell_safe,
    optional_int,
)
from pycalc.udfs.d20_attack import d20_attack

__all__ = [
    "crit_effect",
    "d20_damage",
    "d20_expected_damage",
    "d20_hit_chance",
    "d20_kill_chance",
    "d20_need",
    "d20_result",
    "dice_max",
    "dice_mean",
    "fumble_effect",
    "modifier",
]

# --------------------------------------------------------------------------- d20 rulesets (shared)


def own_d20_ruleset(ruleset_id: str) -> RuleSet | None:
    """A d20 ruleset of the GM's own: a folder under tables/ (or PYCALC_TABLES) with a resolution block."""
    if ruleset_id in RULESET_IDS or not ID_PATTERN.match(ruleset_id):
        return None
    if not (tables_dir() / ruleset_id / "ruleset.yaml").exists():
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


D20_RULESET = ("ruleset", "cnc, osr, combat17, bfrpg or your own d20 ruleset's id")
BONUS = ("bonus", "attack bonus")
TARGET = ("target", "defender's AC (osr: the number needed)")
MODS = ("mods", "situational modifiers (optional, 0)")
CHART_DOCS = arg_docs(
    ("ruleset", "combat17 (d20 chart) or another d20 ruleset"), ("roll", "the follow-up d20")
)


@xw.func
@arg_docs(
    D20_RULESET,
    ("bonus", "attack bonus (BtH/AB with STR/DEX)"),
    ("target", "defender's AC (osr: the number needed from the attack matrix)"),
    ("mods", "situational modifiers to the roll (optional, 0)"),
)
@cell_safe
def d20_need(ruleset: Any, bonus: Any, target: Any, mods: Any = 0) -> int:
    """The natural d20 roll needed to hit, before the ruleset's natural-roll rules."""
    attack = d20_attack(bonus, target, mods)
    own = own_d20_ruleset(ruleset_id(ruleset))
    return attack.need if own is None else generic.need(own, generic.from_d20(attack))


@xw.func
@arg_docs(
    D20_RULESET,
    ("roll", "the natural d20 roll"),
    BONUS,
    TARGET,
    MODS,
    ("level", "attacker's level (osr fumble check; optional)"),
    ("follow_roll", "the second d20: bfrpg confirmation, osr fumble check, combat17 chart (optional)"),
)
@cell_safe
def d20_result(
    ruleset: Any, roll: Any, bonus: Any, target: Any, mods: Any = 0, level: Any = 0, follow_roll: Any = None
) -> str:
    """Miss, Hit, Critical or Fumble, with the ruleset's natural 1 and natural 20 rules."""
    follow = optional_int(follow_roll, "FOLLOW ROLL")
    name, attack, natural = ruleset_id(ruleset), d20_attack(bonus, target, mods, level), as_int(roll, "ROLL")
    own = own_d20_ruleset(name)
    if own is not None:
        return resolution_results.result(own, generic.from_d20(attack), natural, follow)
    return d20_engines.result(name, attack, natural, follow)


@xw.func
@arg_docs(D20_RULESET, BONUS, TARGET, MODS, ("level", "attacker's level (optional)"))
@cell_safe
def d20_hit_chance(ruleset: Any, bonus: Any, target: Any, mods: Any = 0, level: Any = 0) -> float:
    """Probability (0 to 1) of any hit, critical hits included, natural-roll rules applied."""
    name, attack = ruleset_id(ruleset), d20_attack(bonus, target, mods, level)
    own = own_d20_ruleset(name)
    if own is not None:
        return float(resolution_chances.hit_chance(own, generic.from_d20(attack)))
    return float(d20_engines.hit_chance(name, attack))


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


@xw.func
@xw.arg("ruleset", doc="any ruleset id")
@xw.arg("table", doc="the YAML table id, e.g. cover")
@xw.arg("entry", doc="the entry id or label, e.g. half")
@xw.arg("column", doc="the value column (optional when the table has one number column)")
@cell_safe
def modifier(ruleset: Any, table: Any, entry: Any, column: Any = None) -> float:
    """A modifier looked up by its YAML ids: modifier("cnc", "cover", "half")."""
    name = as_text(ruleset, "RULESET").lower()
    if name not in RULESET_IDS and not (
        ID_PATTERN.match(name) and (tables_dir() / name / "ruleset.yaml").exists()
    ):
        raise RuleError(f"#RULESET? use {', '.join(RULESET_IDS)} or your own ruleset's id")
    rules = load_ruleset(name)
    table_id = as_text(table, "TABLE")
    if table_id not in rules.tables:
        raise RuleError(f"#TABLE? no table {table_id!r} in {name}")
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


# --------------------------------------------------------------------------- an own ruleset's damage and odds


def calculator_inputs(
    bonus: Any, target: Any, mods: Any, level: Any, dice: Any, **more: Any
) -> CalculatorInputs:
    """The generic calculator's inputs from cell values (``more``: its other fields, already read)."""
    attack = d20_attack(bonus, target, mods, level)
    return CalculatorInputs(
        bonus=attack.bonus,
        target=attack.target,
        mods=attack.mods,
        level=attack.level,
        dice=as_text(dice, "DICE"),
        **more,
    )


OWN_RULESET = ("ruleset", "your own d20 ruleset's id")
OWN_ATTACK = (
    ("bonus", "attack bonus (THAC0 with a descending AC)"),
    ("target", "defender's AC (or the number needed)"),
    ("dice", "damage dice, e.g. 1d8+2"),
)
OWN_SITUATION = (
    ("mods", "modifiers to the roll (optional, 0)"),
    ("damage_bonus", "damage bonus (optional, 0)"),
    ("level", "attacker's level (optional)"),
)


def own_ruleset_outputs(ruleset: Any, inputs: CalculatorInputs, name: str) -> Any:
    """One output of an own d20 ruleset's Attack calculator (``pycalc.resolution_calculator``) at
    the situation's defaults; a shipped ruleset names its own function."""
    ruleset_name = as_text(ruleset, "RULESET").lower()
    own = own_d20_ruleset(ruleset_name)
    if own is None:
        if ruleset_name in d20.D20_RULESETS:
            raise RuleError(f"#RULESET? for {ruleset_name} use {ruleset_name}_{name.lower()}")
        raise RuleError("#RULESET? your own d20 ruleset's id")
    found = resolution_calculator.attack_outputs(own, inputs)[f"ATTACK_{name}"]
    if isinstance(found, str) and found.startswith("#"):
        raise RuleError(found)
    return found


@xw.func
@arg_docs(
    OWN_RULESET,
    ("roll", "the natural roll"),
    *OWN_ATTACK,
    ("damage_roll", "what the damage dice show"),
    OWN_SITUATION[0],
    ("follow_roll", "the follow-up roll, where a result asks for it (optional)"),
    ("extra_roll", "what further dice show, where a critical rolls again (optional)"),
    ("level", "attacker's level (a fumble checked against it; optional)"),
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
) -> Any:
    """Hit points the attack takes off (an own d20 ruleset), its natural-roll rules and damage rules applied."""
    inputs = calculator_inputs(
        bonus,
        target,
        mods,
        level,
        dice,
        roll=as_int(roll, "ROLL"),
        follow_roll=optional_int(follow_roll, "FOLLOW ROLL"),
        damage_roll=optional_int(damage_roll, "DAMAGE ROLL"),
        extra_roll=optional_int(extra_roll, "EXTRA ROLL"),
    )
    found = own_ruleset_outputs(ruleset, inputs, "DAMAGE")
    return "" if found == resolution_calculator.NO_ROLL_YET else found


@xw.func
@arg_docs(OWN_RULESET, *OWN_ATTACK, d20_odds.ATTACKS, *OWN_SITUATION)
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
) -> float:
    """Expected damage of the round's attacks before the dice are rolled (an own d20 ruleset; a miss counts 0)."""
    damage = as_int(damage_bonus, "DAMAGE BONUS", 0)
    inputs = calculator_inputs(
        bonus, target, mods, level, dice, damage_bonus=damage, attacks=as_attacks(attacks)
    )
    return float(own_ruleset_outputs(ruleset, inputs, "EXPECTED_DAMAGE_ROUND"))


@xw.func
@arg_docs(OWN_RULESET, *OWN_ATTACK, ("hp", "the target's hit points now"), *OWN_SITUATION)
@cell_safe
def d20_kill_chance(
    ruleset: Any,
    bonus: Any,
    target: Any,
    dice: Any,
    hp: Any,
    mods: Any = 0,
    damage_bonus: Any = 0,
    level: Any = 0,
) -> float:
    """Probability (0 to 1) that one attack takes the target to 0 hit points or below (an own d20 ruleset)."""
    damage = as_int(damage_bonus, "DAMAGE BONUS", 0)
    inputs = calculator_inputs(bonus, target, mods, level, dice, damage_bonus=damage, hp=as_hit_points(hp))
    return float(own_ruleset_outputs(ruleset, inputs, "KILL_CHANCE"))


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
