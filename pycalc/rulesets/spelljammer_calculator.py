"""The Strike calculator as a pure function: the reference the workbook's formulas must equal.

Inputs are what a GM types or picks in the calculator sheet; outputs carry the workbook's defined
names. Picker tables add their ``sc``, ``def`` and ``damage`` columns; the surprise picker scales
DEF (``def_factor``) and may keep only the target's always-on magical DEF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pycalc import dice, pickers
from pycalc import odds as shared_odds
from pycalc.pickers import chosen_row
from pycalc.rulesets import spelljammer as engine
from pycalc.rulesets import spelljammer_odds
from pycalc.tables import RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

CHOICE_PICKERS = (
    "attack_kinds",
    "surprise",
    "ambush",
    "invisible_foe",
    "lighting",
    "ranged_weapon_in_melee",
    "target_movement",
    "cover",
)
TOGGLE_PICKERS = ("melee_conditions", "ranged_conditions")
MODIFIER_COLUMNS = ("sc", "def", "damage")
SIZE_TABLE = "target_size"  # picked by the target's size, not a picker of its own
# How the picked rows add up (pycalc.pickers.added_up): each table gives its sc, def and damage;
# the ranged ones count only for a ranged attack.
SITUATION = pickers.Adding(
    kind_table="attack_kinds",
    sums={
        column: dict.fromkeys((*CHOICE_PICKERS, *TOGGLE_PICKERS, SIZE_TABLE), column)
        for column in MODIFIER_COLUMNS
    },
    only=dict.fromkeys(("target_movement", "cover", "ranged_conditions", SIZE_TABLE), pickers.RANGED),
)
RANGED_ONLY = frozenset(SITUATION.only)


@dataclass(frozen=True)
class StrikeInputs:
    sc: int
    defense: int
    con: int
    hp: int
    start_hp: int
    mods: int = 0
    roll: int | None = None
    damage: int = 0
    prot: int = 0
    size: str = "Medium"
    max_hp: int = 0
    magic_def: int = 0
    attackers: int = 1
    dice: str = "1d8+4"  # damage dice, for the odds before the roll
    attacks: int = 1
    choices: dict[str, str] = field(default_factory=dict)  # picker table id -> row label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (table id, row id) ticked


@dataclass(frozen=True)
class Situation:
    sc: int
    defense: int
    damage: int
    def_factor: float
    keeps_magic_def: bool


def situation(rules: RuleSet, inputs: StrikeInputs) -> Situation:
    """Sum of every picked modifier, with ranged-only ones counted only for ranged attacks."""
    rows = pickers.picked(rules, inputs.choices, inputs.toggles, CHOICE_PICKERS + TOGGLE_PICKERS)
    rows.append((SIZE_TABLE, rules.table(SIZE_TABLE).by_label(inputs.size)))
    totals = dict(pickers.added_up(rules, SITUATION, rows).sums)
    per_extra = rules.constant("multiple_attackers", "sc_per_extra_attacker")
    alone = rules.constant("multiple_attackers", "attackers_alone")
    totals["sc"] += max(0, inputs.attackers - alone) * per_extra
    surprise = chosen_row(rules, inputs.choices, "surprise")
    return Situation(
        totals["sc"], totals["def"], totals["damage"], surprise["def_factor"], surprise["keeps_magic_def"]
    )


def effective_def(rules: RuleSet, inputs: StrikeInputs, where: Situation) -> int:
    scaled = inputs.defense * where.def_factor
    rounded = math.floor(scaled) if rules.ruling("half_def_rounding") == "down" else math.ceil(scaled)
    return rounded + (inputs.magic_def if where.keeps_magic_def else 0) + where.defense


def outputs(rules: RuleSet, inputs: StrikeInputs) -> dict[str, object]:
    """Every output cell of the Strike calculator, by defined name ('' where no roll yet)."""
    where = situation(rules, inputs)
    target_def = effective_def(rules, inputs, where)
    modified = engine.modified_sc(inputs.sc + where.sc, target_def, inputs.mods)
    odds = engine.distribution(rules, modified)
    threshold = engine.stun_threshold(rules, inputs.con, inputs.size, inputs.max_hp)
    damage_total = max(0, inputs.damage + where.damage)
    result: dict[str, object] = {
        "STRIKE_SITUATION_SC": where.sc,
        "STRIKE_DEF_EFFECTIVE": target_def,
        "STRIKE_DAMAGE_TOTAL": damage_total,
        "STRIKE_MODIFIED_SC": modified,
        "STRIKE_CRITICAL_UP_TO": engine.critical_max(rules, modified),
        "STRIKE_GRIEVOUS_UP_TO": engine.grievous_max(rules, modified),
        "STRIKE_CHANCE_TO_HIT": 1 - odds["miss"],
        "STRIKE_MISS_CHANCE": odds["miss"],
        "STRIKE_PLAIN_HIT_CHANCE": odds["hit"],
        "STRIKE_CRIT_CHANCE": odds["critical"],
        "STRIKE_GRIEVOUS_CHANCE": odds["grievous"],
        "TARGET_STUN_THRESHOLD": threshold,
        "TARGET_WOUND_MOD": engine.wound_modifier(rules, inputs.hp, inputs.start_hp),
        **odds_outputs(rules, inputs, modified, where, threshold),
        "STRIKE_OUTCOME": "",
        "STRIKE_OUTCOME_EFFECT": "",
        "STRIKE_HP_LOST": "",
        "STRIKE_PROT_AFTER": "",
        "TARGET_STUNNED": "",
        "TARGET_HP_AFTER": "",
        "TARGET_WOUND_MOD_AFTER": "",
    }
    if inputs.roll is None:
        return result
    outcome = engine.resolve(rules, modified, inputs.roll)
    lost = engine.damage_taken(rules, damage_total, inputs.prot, outcome)
    stun_damage = lost if rules.ruling("stun_damage_basis") == "taken" else damage_total * (outcome.rank > 0)
    result.update(
        STRIKE_OUTCOME=outcome.label,
        STRIKE_OUTCOME_EFFECT=outcome.effect,
        STRIKE_HP_LOST=lost,
        STRIKE_PROT_AFTER=inputs.prot - outcome.prot_wear,
        TARGET_STUNNED=stun_damage > threshold,
        TARGET_HP_AFTER=inputs.hp - lost,
        TARGET_WOUND_MOD_AFTER=engine.wound_modifier(rules, inputs.hp - lost, inputs.start_hp),
    )
    return result


def odds_outputs(
    rules: RuleSet, inputs: StrikeInputs, modified: int, where: Situation, threshold: int
) -> dict[str, object]:
    """Expected hit points lost, stun and kill chances before the roll (see strike_odds)."""
    attack = spelljammer_odds.StrikeAttack(modified, dice.parse(inputs.dice), inputs.prot, where.damage)
    one_attack_kill = spelljammer_odds.kill_chance(rules, attack, inputs.hp)
    found = {
        "STRIKE_EXPECTED_DAMAGE": spelljammer_odds.expected_hp_loss(rules, attack),
        "STRIKE_EXPECTED_DAMAGE_ROUND": spelljammer_odds.expected_hp_loss(rules, attack, inputs.attacks),
        "STRIKE_STUN_CHANCE": spelljammer_odds.stun_chance(rules, attack, threshold),
        "STRIKE_KILL_CHANCE": one_attack_kill,
        "STRIKE_KILL_CHANCE_ROUND": shared_odds.round_kill(
            one_attack_kill, inputs.attacks, shared_odds.SEVERAL_ATTACKS
        ),
    }
    return shared_odds.down_already(found, inputs.hp)
