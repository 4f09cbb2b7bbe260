"""The strike-chance ruleset's worksheet functions (xlwings) over ``pycalc.rulesets.spelljammer``:
strike_*, stun, wounds, defending, casting, shooting into melee, and the odds before the roll.

Their names have no ruleset prefix: they were the first, and GMs type them as they are.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import dice as dice_module
from pycalc.rulesets import spelljammer as engine
from pycalc.rulesets import spelljammer_odds
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs.cells import as_attacks, as_hit_points, as_int, as_rows, as_text, cell_safe

__all__ = [
    "cast_time",
    "damage_chance_at_least",
    "defending_bonus",
    "desperate_defense",
    "expected_damage",
    "full_defense",
    "is_stunned",
    "kill_chance",
    "shooting_target",
    "spell_goes_off",
    "strike_chance",
    "strike_crit_max",
    "strike_effect",
    "strike_grievous_max",
    "strike_hit_chance",
    "strike_hp_loss",
    "strike_result",
    "strike_results",
    "strike_target",
    "stun_chance",
    "stun_threshold",
    "wound_modifier",
]

SPELLJAMMER = "spelljammer"


def spelljammer_rules() -> RuleSet:
    return load_ruleset(SPELLJAMMER)


# --------------------------------------------------------------------------- strike chance


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's defense (DEF)")
@xw.arg("mods", doc="sum of situational modifiers to SC (optional, 0)")
@cell_safe
def strike_target(sc: Any, defense: Any, mods: Any = 0) -> int:
    """Modified strike chance SC - DEF + mods: roll this or less on d100 to hit."""
    return engine.modified_sc(as_int(sc, "SC"), as_int(defense, "DEF"), as_int(mods, "MODS", 0))


@xw.func
@xw.arg("modified_sc", doc="modified strike chance (SC - DEF + mods)")
@cell_safe
def strike_crit_max(modified_sc: Any) -> int:
    """Highest d100 roll that is a critical hit by the table (0 when none)."""
    return engine.critical_max(spelljammer_rules(), as_int(modified_sc, "MODIFIED SC"))


@xw.func
@xw.arg("modified_sc", doc="modified strike chance (SC - DEF + mods)")
@cell_safe
def strike_grievous_max(modified_sc: Any) -> int:
    """Highest d100 roll that is a grievous hit by the table (0 when none)."""
    return engine.grievous_max(spelljammer_rules(), as_int(modified_sc, "MODIFIED SC"))


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's defense (DEF)")
@xw.arg("roll", doc="the d100 roll, 1 to 100 (00 is 100)")
@xw.arg("mods", doc="sum of situational modifiers to SC (optional, 0)")
@cell_safe
def strike_result(sc: Any, defense: Any, roll: Any, mods: Any = 0) -> str:
    """Miss, Hit, Critical or Grievous, with the automatic results applied."""
    rules = spelljammer_rules()
    modified = engine.modified_sc(as_int(sc, "SC"), as_int(defense, "DEF"), as_int(mods, "MODS", 0))
    return engine.resolve(rules, modified, as_int(roll, "ROLL")).label


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's defense (DEF)")
@xw.arg("mods", doc="sum of situational modifiers to SC (optional, 0)")
@cell_safe
def strike_hit_chance(sc: Any, defense: Any, mods: Any = 0) -> float:
    """Probability (0 to 1) that the attack hits at all, automatic results included."""
    modified = engine.modified_sc(as_int(sc, "SC"), as_int(defense, "DEF"), as_int(mods, "MODS", 0))
    return float(engine.hit_chance(spelljammer_rules(), modified))


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's defense (DEF)")
@xw.arg("outcome", doc="Miss, Hit, Critical or Grievous")
@xw.arg("mods", doc="sum of situational modifiers to SC (optional, 0)")
@cell_safe
def strike_chance(sc: Any, defense: Any, outcome: Any, mods: Any = 0) -> float:
    """Probability (0 to 1) of exactly that outcome."""
    rules = spelljammer_rules()
    wanted = engine.outcome_named(rules, as_text(outcome, "RESULT"))
    modified = engine.modified_sc(as_int(sc, "SC"), as_int(defense, "DEF"), as_int(mods, "MODS", 0))
    return float(engine.distribution(rules, modified)[wanted.id])


@xw.func
@xw.arg("damage", doc="damage rolled, with damage modifiers")
@xw.arg("prot", doc="target's protection (PROT)")
@xw.arg("result", doc="Miss, Hit, Critical or Grievous")
@cell_safe
def strike_hp_loss(damage: Any, prot: Any, result: Any) -> int:
    """Hit points lost: criticals and grievous hits double damage and ignore PROT."""
    rules = spelljammer_rules()
    outcome = engine.outcome_named(rules, as_text(result, "RESULT"))
    return engine.damage_taken(rules, as_int(damage, "DAMAGE", 0), as_int(prot, "PROT", 0), outcome)


@xw.func
@xw.arg("result", doc="Miss, Hit, Critical or Grievous")
@cell_safe
def strike_effect(result: Any) -> str:
    """What the outcome does, as the table says (e.g. 'Double damage, no PROT')."""
    return engine.outcome_named(spelljammer_rules(), as_text(result, "RESULT")).effect


@xw.func
@xw.arg("rows", ndim=2, doc="a range with one attack per row: SC, DEF, roll[, mods]")
@cell_safe
def strike_results(rows: Any) -> list[list[str]]:
    """Array function: Miss/Hit/Critical/Grievous for each row of SC, DEF, roll[, mods]."""
    return [[strike_result(*[*row, None, None, None][:4])] for row in as_rows(rows, "ROWS")]


# --------------------------------------------------------------------------- stun and wounds


@xw.func
@xw.arg("con", doc="target's CON")
@xw.arg("size", doc="Tiny, Small, Medium, Large or Giant (optional, Medium)")
@xw.arg("max_hp", doc="target's maximum hit points (optional; counts above 100)")
@cell_safe
def stun_threshold(con: Any, size: Any = "Medium", max_hp: Any = 0) -> int:
    """A single hit must do more damage than this to stun the target."""
    return engine.stun_threshold(
        spelljammer_rules(), as_int(con, "CON"), as_text(size, "SIZE", "Medium"), as_int(max_hp, "MAX HP", 0)
    )


@xw.func
@xw.arg("damage", doc="damage of the single hit (taken, after PROT and doubling)")
@xw.arg("con", doc="target's CON")
@xw.arg("size", doc="Tiny, Small, Medium, Large or Giant (optional, Medium)")
@xw.arg("max_hp", doc="target's maximum hit points (optional; counts above 100)")
@cell_safe
def is_stunned(damage: Any, con: Any, size: Any = "Medium", max_hp: Any = 0) -> bool:
    """TRUE when this single hit stuns the target for the rest of the round."""
    return engine.is_stunned(
        spelljammer_rules(),
        as_int(damage, "DAMAGE", 0),
        as_int(con, "CON"),
        as_text(size, "SIZE", "Medium"),
        as_int(max_hp, "MAX HP", 0),
    )


@xw.func
@xw.arg("hp", doc="current hit points")
@xw.arg("starting_hp", doc="hit points at full health")
@cell_safe
def wound_modifier(hp: Any, starting_hp: Any) -> int:
    """0, -10, -20 or -30 to all actions; no modifier in the tier the starting HP is already in."""
    return engine.wound_modifier(spelljammer_rules(), as_int(hp, "HP"), as_int(starting_hp, "START HP"))


# --------------------------------------------------------------------------- defense and casting


@xw.func
@xw.arg("defense", doc="normal DEF")
@xw.arg("rank", doc="weapon rank")
@cell_safe
def full_defense(defense: Any, rank: Any) -> int:
    """DEF in Full Defense: DEF + 5 + (rank x 2.5, rounded up); no attack."""
    return engine.full_defense(spelljammer_rules(), as_int(defense, "DEF"), as_int(rank, "RANK"))


@xw.func
@xw.arg("defense", doc="normal DEF")
@xw.arg("rank", doc="weapon rank")
@cell_safe
def desperate_defense(defense: Any, rank: Any) -> int:
    """DEF in Desperate Defense: DEF + 20 + (rank x 2.5, rounded up); no other action."""
    return engine.desperate_defense(spelljammer_rules(), as_int(defense, "DEF"), as_int(rank, "RANK"))


@xw.func
@xw.arg("sc_sacrificed", doc="SC given up this round")
@xw.arg("rank", doc="weapon rank (at most rank x 5 SC)")
@cell_safe
def defending_bonus(sc_sacrificed: Any, rank: Any) -> int:
    """DEF gained by Defending: half the SC given up, rounded down."""
    return engine.defending_bonus(spelljammer_rules(), as_int(sc_sacrificed, "SC"), as_int(rank, "RANK"))


@xw.func
@xw.arg("rank", doc="spell rank, 1 to 22")
@xw.arg("kind", doc="GK or SK")
@cell_safe
def cast_time(rank: Any, kind: Any) -> int:
    """Casting time of a mage spell (segments)."""
    return engine.cast_time(spelljammer_rules(), as_int(rank, "RANK"), as_text(kind, "KIND"))


@xw.func
@xw.arg("initiative", doc="the caster's initiative roll with modifiers")
@xw.arg("casting_time", doc="the spell's casting time")
@cell_safe
def spell_goes_off(initiative: Any, casting_time: Any) -> int | str:
    """Initiative the spell goes off on, or what happens when that is -6 or later."""
    return engine.spell_goes_off(
        spelljammer_rules(), as_int(initiative, "INITIATIVE"), as_int(casting_time, "CASTING TIME")
    )


@xw.func
@xw.arg("roll", doc="the d100 roll, 1 to 100 (00 is 100)")
@xw.arg("weapon_rank", doc="shooter's weapon rank")
@xw.arg("master_rank", doc="Master Bowman rank (0 if none)")
@xw.arg("training", doc="Normal, Specialist or Double specialist")
@xw.arg("friends", doc="friends in the melee")
@xw.arg("opponents", doc="opponents in the melee")
@cell_safe
def shooting_target(
    roll: Any, weapon_rank: Any, master_rank: Any, training: Any, friends: Any, opponents: Any
) -> str:
    """Friend or Foe: who a shot into melee is aimed at before the attack roll."""
    friend = engine.targets_friend(
        spelljammer_rules(),
        as_int(roll, "ROLL"),
        as_int(weapon_rank, "RANK", 0),
        as_int(master_rank, "MASTER RANK", 0),
        as_text(training, "TRAINING", "Normal"),
        as_int(friends, "FRIENDS"),
        as_int(opponents, "OPPONENTS"),
    )
    return "Friend" if friend else "Foe"


# --------------------------------------------------------------------------- odds before the roll (strike chance)


def strike_attack(
    sc: Any, defense: Any, dice_text: Any, prot: Any, mods: Any, damage_mods: Any
) -> spelljammer_odds.StrikeAttack:
    modified = engine.modified_sc(as_int(sc, "SC"), as_int(defense, "DEF"), as_int(mods, "MODS", 0))
    return spelljammer_odds.StrikeAttack(
        modified, dice_module.parse(dice_text), as_int(prot, "PROT", 0), as_int(damage_mods, "DAMAGE MODS", 0)
    )


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's DEF")
@xw.arg("dice", doc="damage dice, e.g. 1d8+4")
@xw.arg("prot", doc="target's PROT (optional, 0)")
@xw.arg("mods", doc="modifiers to SC (optional, 0)")
@xw.arg("damage_mods", doc="modifiers to damage (optional, 0)")
@xw.arg("attacks", doc="attacks in the round (optional, 1)")
@cell_safe
def expected_damage(
    sc: Any, defense: Any, dice: Any, prot: Any = 0, mods: Any = 0, damage_mods: Any = 0, attacks: Any = 1
) -> float:
    """Expected hit points lost to the attacks (criticals, grievous hits, PROT and automatic results applied)."""
    attack = strike_attack(sc, defense, dice, prot, mods, damage_mods)
    return float(spelljammer_odds.expected_hp_loss(spelljammer_rules(), attack, as_attacks(attacks)))


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's DEF")
@xw.arg("dice", doc="damage dice, e.g. 1d8+4")
@xw.arg("amount", doc="hit points")
@xw.arg("prot", doc="target's PROT (optional, 0)")
@xw.arg("mods", doc="modifiers to SC (optional, 0)")
@xw.arg("damage_mods", doc="modifiers to damage (optional, 0)")
@xw.arg("attacks", doc="attacks in the round (optional, 1)")
@cell_safe
def damage_chance_at_least(
    sc: Any,
    defense: Any,
    dice: Any,
    amount: Any,
    prot: Any = 0,
    mods: Any = 0,
    damage_mods: Any = 0,
    attacks: Any = 1,
) -> float:
    """Probability that the attacks take at least this many hit points."""
    attack = strike_attack(sc, defense, dice, prot, mods, damage_mods)
    chance = spelljammer_odds.chance_at_least(
        spelljammer_rules(), attack, as_hit_points(amount, "AMOUNT"), as_attacks(attacks)
    )
    return float(chance)


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's DEF")
@xw.arg("dice", doc="damage dice, e.g. 1d8+4")
@xw.arg("hp", doc="target's hit points now")
@xw.arg("attacks", doc="attacks in the round (optional, 1)")
@xw.arg("prot", doc="target's PROT (optional, 0)")
@xw.arg("mods", doc="modifiers to SC (optional, 0)")
@xw.arg("damage_mods", doc="modifiers to damage (optional, 0)")
@cell_safe
def kill_chance(
    sc: Any,
    defense: Any,
    dice: Any,
    hp: Any,
    attacks: Any = 1,
    prot: Any = 0,
    mods: Any = 0,
    damage_mods: Any = 0,
) -> float:
    """Probability that the target drops to 0 hit points or below within the attacks."""
    attack = strike_attack(sc, defense, dice, prot, mods, damage_mods)
    return float(
        spelljammer_odds.kill_chance(
            spelljammer_rules(), attack, as_hit_points(hp, "HP"), as_attacks(attacks)
        )
    )


@xw.func
@xw.arg("sc", doc="attacker's strike chance (SC)")
@xw.arg("defense", doc="target's DEF")
@xw.arg("dice", doc="damage dice, e.g. 1d8+4")
@xw.arg("con", doc="target's CON")
@xw.arg("size", doc="Tiny, Small, Medium, Large or Giant (optional)")
@xw.arg("max_hp", doc="target's maximum hit points (optional)")
@xw.arg("prot", doc="target's PROT (optional, 0)")
@xw.arg("mods", doc="modifiers to SC (optional, 0)")
@xw.arg("damage_mods", doc="modifiers to damage (optional, 0)")
@cell_safe
def stun_chance(
    sc: Any,
    defense: Any,
    dice: Any,
    con: Any,
    size: Any = "Medium",
    max_hp: Any = 0,
    prot: Any = 0,
    mods: Any = 0,
    damage_mods: Any = 0,
) -> float:
    """Probability that one attack stuns the target."""
    rules = spelljammer_rules()
    attack = strike_attack(sc, defense, dice, prot, mods, damage_mods)
    threshold = engine.stun_threshold(
        rules, as_int(con, "CON"), as_text(size, "SIZE", "Medium"), as_int(max_hp, "MAX HP", 0)
    )
    return float(spelljammer_odds.stun_chance(rules, attack, threshold))
