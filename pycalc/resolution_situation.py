"""The situation of a d20 attack in a ruleset whose block lists its pickers (``modifiers:``): the
picked rows added up (``pycalc.pickers.added_up``) and the attack and damage they make."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import pickers
from pycalc.errors import RuleError
from pycalc.resolution import Attack, Damage, block
from pycalc.table_files import roll_dice
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class Situation:
    """What the picked rows of a block's ``modifiers`` tables add up to, by column name."""

    hit: int = 0  # column hit: to the roll (its whole numbers)
    hit_dice: tuple[tuple[int, int], ...] = ()  # column hit: the dice it adds (Attack.added)
    ac: int = 0  # column ac: to the defender's AC
    damage: int = 0  # column damage: to the damage
    multiplier: Fraction = Fraction(1)  # column damage_multiplier: the first multiplier stage
    multipliers: Mapping[str, Fraction] = field(default_factory=dict)  # stage name -> its own column's factor
    round_up: Mapping[str, bool] = field(
        default_factory=dict
    )  # stage name -> its own column ticks rounding up
    cannot_hit: bool = False
    needs_magic: bool = False
    auto_hit: bool = False
    advantage: bool = False
    disadvantage: bool = False


def stage_factor_column(stage: str) -> str:
    """The picker column whose product over the picked rows is the factor of the multiplier ``stage``."""
    return f"damage_multiplier_{stage}"


def stage_round_up_column(stage: str) -> str:
    """The picker column that, ticked in a picked row, rounds the multiplier ``stage`` up (rounding picked)."""
    return f"round_up_{stage}"


SITUATION_FLAGS = ("cannot_hit", "needs_magic", "auto_hit", "advantage", "disadvantage")


def modifier_tables(rules: RuleSet) -> tuple[str, ...]:
    tables = block(rules).modifiers
    if tables is None:
        raise RuleError(f"#RULESET? {rules.id} works its situation out in its own module")
    return tables


def modifiers_adding(rules: RuleSet) -> pickers.Adding:
    """How the block's ``modifiers`` tables add up: every part is the column of its own name in each
    (or its variant by ruling), gated by the attack's kind, as its ``situation`` says."""
    tables = modifier_tables(rules)
    stages = [stage.name for stage in block(rules).damage.multipliers]
    products = ["damage_multiplier", *(stage_factor_column(name) for name in stages)]
    flags = [*SITUATION_FLAGS, *(stage_round_up_column(name) for name in stages)]
    declared = block(rules).situation or pickers.Adding()
    return pickers.Adding(
        kind_table=declared.kind_table,
        only=declared.only,
        gate=declared.gate,
        ruled=declared.ruled,
        sums={column: dict.fromkeys(tables, column) for column in ("hit", "ac", "damage")},
        products={column: dict.fromkeys(tables, column) for column in products},
        flags={column: dict.fromkeys(tables, column) for column in flags},
    )


def picked_situation(
    rules: RuleSet, choices: Mapping[str, str], toggles: Iterable[tuple[str, str]] = ()
) -> Situation:
    """What the rows a GM picked in the block's ``modifiers`` tables add up to (a choice table's first
    row by default), those that count for the picked attack kind; dice in a ``hit`` column (Bless's
    1d4) are the situation's ``hit_dice``."""
    adding = modifiers_adding(rules)
    picks = pickers.picked(rules, choices, toggles, modifier_tables(rules))
    totals = pickers.added_up(rules, adding, picks)
    stages = [stage.name for stage in block(rules).damage.multipliers]
    return Situation(
        hit=totals.sums["hit"],
        hit_dice=tuple(
            dice for _, row in totals.counted if (dice := roll_dice(row.values.get("hit"))) is not None
        ),
        ac=totals.sums["ac"],
        damage=totals.sums["damage"],
        multiplier=totals.products["damage_multiplier"],
        multipliers={name: totals.products[stage_factor_column(name)] for name in stages},
        round_up={name: totals.flags[stage_round_up_column(name)] for name in stages},
        **{flag: totals.flags[flag] for flag in SITUATION_FLAGS},
    )


def situated(rules: RuleSet, attack: Attack, damage: Damage, where: Situation) -> tuple[Attack, Damage]:
    """The attack and damage with the situation added."""
    stages = block(rules).damage.multipliers
    multipliers = dict(damage.multipliers)
    for index, stage in enumerate(stages):
        factor = Fraction(where.multipliers.get(stage.name, 1)) * (where.multiplier if not index else 1)
        if factor != 1:
            multipliers[stage.name] = Fraction(multipliers.get(stage.name, 1)) * factor
    round_up = {**damage.round_up, **{name: True for name, up in where.round_up.items() if up}}
    return (
        Attack(
            bonus=attack.bonus,
            target=attack.target,
            mods=attack.mods + where.hit,
            level=attack.level,
            ac_change=attack.ac_change + where.ac,
            advantage=attack.advantage or where.advantage,
            disadvantage=attack.disadvantage or where.disadvantage,
            needs_magic=attack.needs_magic or where.needs_magic,
            cannot_hit=attack.cannot_hit or where.cannot_hit,
            blocked=attack.blocked,
            auto_hit=attack.auto_hit or where.auto_hit,
            target_as_given=attack.target_as_given,
            added=attack.added + where.hit_dice,
        ),
        Damage(
            dice=damage.dice,
            bonus=damage.bonus + where.damage,
            least=damage.least,
            deals_damage=damage.deals_damage,
            critical_extra=damage.critical_extra,
            multipliers=multipliers,
            round_up=round_up,
        ),
    )
