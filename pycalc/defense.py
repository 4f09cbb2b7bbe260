"""Defending, Full Defense and Desperate Defense (spelljammer)."""

from __future__ import annotations

import math

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def _option(rules: RuleSet, entry: str) -> float:
    return rules.constant("defense_options", entry)


def _check_rank(rank: int) -> None:
    if rank < 0:
        raise RuleError("#RANK? 0 or more")


def max_sacrifice(rules: RuleSet, rank: int) -> int:
    _check_rank(rank)
    return math.floor(rank * _option(rules, "max_sacrifice_per_rank"))


def defending_bonus(rules: RuleSet, sc_sacrificed: int, rank: int) -> int:
    """DEF gained by sacrificing SC, 2 for 1, fractions down; at most rank x 5 SC."""
    if sc_sacrificed < 0:
        raise RuleError("#SC? 0 or more")
    most = max_sacrifice(rules, rank)
    if sc_sacrificed > most:
        raise RuleError(f"#MAX? rank {rank} sacrifices at most {most} SC")
    return math.floor(sc_sacrificed / _option(rules, "sc_per_def"))


def _max_bonus_rounded_up(rules: RuleSet, rank: int) -> int:
    _check_rank(rank)
    return math.ceil(rank * _option(rules, "max_def_per_rank"))


def full_defense(rules: RuleSet, defense: int, rank: int) -> int:
    """DEF = normal DEF + 5 + (weapon rank x 2.5, rounded up)."""
    return defense + int(_option(rules, "full_defense_bonus")) + _max_bonus_rounded_up(rules, rank)


def desperate_defense(rules: RuleSet, defense: int, rank: int) -> int:
    """DEF = normal DEF + 20 + (weapon rank x 2.5, rounded up)."""
    return defense + int(_option(rules, "desperate_defense_bonus")) + _max_bonus_rounded_up(rules, rank)
