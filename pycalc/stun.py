"""Stun (spelljammer): a single hit that does more than the stun threshold stuns for the round."""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def size_names(rules: RuleSet) -> list[str]:
    return [str(r.label) for r in rules.table("stun_size").rows]


def size_bonus(rules: RuleSet, size: str) -> int:
    try:
        return rules.table("stun_size").by_label(size)["con_bonus"]
    except KeyError:
        names = size_names(rules)
        raise RuleError(f"#SIZE? use {', '.join(names[:-1])} or {names[-1]}") from None


def hit_point_bonus(rules: RuleSet, max_hp: int) -> int:
    """+1 CON per 10 HP (or fraction) of maximum hit points above 100."""
    above = max_hp - rules.constant("stun_rules", "hp_bonus_above")
    if above <= 0:
        return 0
    step = rules.constant("stun_rules", "hp_bonus_step")
    return -(-above // step) * rules.constant("stun_rules", "hp_bonus_per_step")


def adjusted_con(rules: RuleSet, con: int, size: str = "Medium", max_hp: int = 0) -> int:
    if con < 0:
        raise RuleError("#CON? 0 or more")
    if max_hp < 0:
        raise RuleError("#MAX HP? 0 or more")
    return con + size_bonus(rules, size) + hit_point_bonus(rules, max_hp)


def threshold_for_con(rules: RuleSet, con: int) -> int:
    """Damage a single hit must exceed to stun, for an already adjusted CON."""
    if con <= rules.constant("stun_rules", "human_max_con"):
        return con
    table = rules.table("stun_table")
    band = table.band(con)
    if band is not None:
        return band["threshold"]
    last = table.rows[-1]
    if con < (last.low or 0) or rules.ruling("stun_above_table") == "cap":
        return last["threshold"]
    return last["threshold"] + rules.constant("stun_rules", "progression_step") * (con - last.high)


def stun_threshold(rules: RuleSet, con: int, size: str = "Medium", max_hp: int = 0) -> int:
    return threshold_for_con(rules, adjusted_con(rules, con, size, max_hp))


def is_stunned(rules: RuleSet, damage: int, con: int, size: str = "Medium", max_hp: int = 0) -> bool:
    """Whether one hit doing ``damage`` (as the stun_damage_basis ruling defines it) stuns."""
    return damage > stun_threshold(rules, con, size, max_hp)
