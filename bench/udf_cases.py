"""Arguments for calling every public UDF: one valid call each, and the nasty values Excel can pass.

Shared by ``bench/bench_udfs.py`` (worst-case timing) and ``tests/test_udf_bounds.py`` (no exception,
usable messages). Values are what xlwings delivers: floats for numbers, None for an empty cell, str,
bool, and 2-D lists for ranges.
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable, Iterator
from typing import Any

LONG_TEXT = "x" * 10_000
LONGEST_TEXT = "9" * 32_767  # the most a cell holds

# Every argument of every UDF is also called with each of these (one argument at a time).
NASTY: tuple[Any, ...] = (
    None,
    "",
    "   ",
    True,
    False,
    0.0,
    -1.0,
    0.5,
    1e15,
    2.0**53 + 2,
    1e308,
    -1e308,
    math.nan,
    math.inf,
    -math.inf,
    "Yes",
    LONG_TEXT,
    LONGEST_TEXT,
    [[1.0, 2.0], [3.0, 4.0]],
    [[None]],
)

# A valid call of each UDF (the arguments a GM would type).
BASE: dict[str, tuple[Any, ...]] = {
    "osr_attacks_vs_normal_men": ("monster", 6.0),
    "bfrpg_block_result": (8.0, 8.0),
    "bfrpg_is_surprised": (3.0, "normal", False, False),
    "bfrpg_joust_result": (10.0, 12.0, 0.0, 4.0),
    "bfrpg_joust_save_penalty": (14.0,),
    "bfrpg_parry_bonus": ("partial_defense", "weapon", 5.0, 0.0, 1.0, "Fighter", 3.0, False),
    "bfrpg_surprise_max": ("Normal", False, False),
    "combat17_brawl_damage": ("Punch", 3.0, 2.0),
    "combat17_brawl_need": ("Kick", 2.0, 12.0, 0.0),
    "combat17_fumble_outcome": (4.0, 1.0, 18.0, 2.0),
    "combat17_scatter": (5.0,),
    "combat17_scatter_feet": (1.0, "toward"),
    "combat17_shots": ("Light crossbow", 6.0, None),
    "combat17_subdual_damage": (7.0,),
    "combat17_subdual_state": (3.0, 7.0, True, False, False),
    "cast_time": (8.0, "SK"),
    "cnc_charge_window": (30.0, 45.0),
    "cnc_disarm_ac": (5.0, 2.0),
    "cnc_grapple_ac": ("Grapple", True, 1.0, 2.0, 4.0, 1.0, 0.0),
    "cnc_grapple_allowed": ("Overbear", -2.0),
    "cnc_grid_squares": (30.0,),
    "cnc_movement": (30.0, "Attack", 0.5),
    "cnc_subdual_normal": (7.0,),
    "cnc_touch_ac": (2.0, False, 1.0, 5.0, 0.0),
    "crit_effect": ("combat17", 20.0),
    "d20_chance": ("combat17", "Critical", 3.0, 15.0, 0.0, 0.0, "charge"),
    "d20_damage": ("combat17", 20.0, 3.0, 15.0, "1d8+1", 4.0, 0.0, 12.0, None, 0.0, 0.0, "charge"),
    "d20_damage_chance_at_least": ("combat17", 3.0, 15.0, "1d6+2", 5.0, 1.0, 0.0, 0.0, 0.0, "charge"),
    "d20_effect": ("combat17", 20.0, 3.0, 15.0, 0.0, 0.0, 20.0, 2.0, "from behind"),
    "d20_expected_damage": ("combat17", 3.0, 15.0, "1d6+2", 1.0, 0.0, 0.0, 0.0, "charge"),
    "d20_hit_chance": ("bfrpg", 5.0, 15.0, 0.0, 0.0),
    "d20_kill_chance": ("combat17", 3.0, 15.0, "1d6+2", 10.0, 1.0, 0.0, 0.0, 0.0, "charge"),
    "d20_need": ("cnc", 5.0, 15.0, 0.0),
    "d20_result": ("bfrpg", 20.0, 5.0, 15.0, 0.0, 0.0, 12.0),
    "damage_chance_at_least": (112.0, 40.0, "1d8+4", 10.0, 0.0, 0.0, 0.0, 1.0),
    "defending_bonus": (25.0, 5.0),
    "desperate_defense": (30.0, 5.0),
    "dice_max": ("2d4+2",),
    "dice_mean": ("2d4+2",),
    "expected_damage": (112.0, 40.0, "1d8+4", 0.0, 0.0, 0.0, 1.0),
    "osr_expected_kills": (8.0, 7.0, "1d6+1", "1d6"),
    "falling_damage": (45.0,),
    "cnc_falling_dex_check": (8.0,),
    "full_defense": (30.0, 5.0),
    "fumble_effect": ("combat17", 4.0),
    "osr_grapple_result": (11.0, 7.0),
    "osr_grapple_stun_rounds": (11.0, 7.0),
    "hp_state": ("cnc", -8.0),
    "is_stunned": (25.0, 24.0, "Medium", 0.0),
    "kill_chance": (112.0, 40.0, "1d8+4", 10.0, 1.0, 0.0, 0.0, 0.0),
    "osr_level_gap_save_bonus": (7.0, 1.0),
    "osr_maneuver_save_modifier": ("polearm_dismount", 10.0, 1.0, 0.0),
    "osr_mass_damage": (3.0, 10.0),
    "mass_survivors": (40.0, 8.0, 10.0),
    "modifier": ("cnc", "cover", "half", None),
    "shooting_target": (20.0, 5.0, 0.0, "Normal", 1.0, 1.0),
    "spell_goes_off": (9.0, 6.0),
    "osr_spell_interruption": ("simultaneous_initiative", "Failed", 6.0),
    "strike_chance": (112.0, 40.0, "critical", 0.0),
    "strike_crit_max": (72.0,),
    "strike_effect": ("Critical",),
    "strike_grievous_max": (72.0,),
    "strike_hit_chance": (112.0, 40.0, 0.0),
    "strike_hp_loss": (12.0, 3.0, "Hit"),
    "strike_result": (112.0, 40.0, 9.0, 0.0),
    "strike_results": ([[112.0, 40.0, 9.0], [1.0, 2.0, 50.0]],),
    "strike_target": (112.0, 40.0, 0.0),
    "stun_chance": (112.0, 40.0, "1d8+4", 24.0, "Medium", 0.0, 0.0, 0.0, 0.0),
    "stun_threshold": (24.0, "Medium", 0.0),
    "osr_surprise_chance": (5.0, 1.0),
    "osr_surprise_outcome": (5.0, 2.0, 3.0, 6.0),
    "surprise_range": (5.0, 1.0),
    "wound_modifier": (10.0, 18.0),
}

# Values at and past the limits, by argument name (the costly arguments).
BIG_DICE = ("20d20+30", "4d100", "8d12+3", "20d100", "12d6")
COMBO_DICE = BIG_DICE[:3]  # with every number of attacks and hit points (odds_combinations)
PAST_DICE = ("21d6", "1d101", "1d1000000", "200d200", "1d1000000000", "4257", "99999999999d6+1")
BY_ARGUMENT: dict[str, tuple[Any, ...]] = {
    "dice": BIG_DICE + PAST_DICE,
    "damage_dice": BIG_DICE + PAST_DICE,
    "hp_dice": BIG_DICE + PAST_DICE,
    "attacks": (10.0, 20.0, 100.0, 1000.0, 6.8e16),
    "hp": (100.0, 1000.0, 10_000.0, 1e6, 6.9e16),
    "amount": (100.0, 1000.0, 10_000.0, 1e6, 6.9e16),
    "feet": (200.0, 10_000.0, 1e8, 1e15),
    "rows": ([[112.0, 40.0, 9.0]] * 1000, [[112.0, 40.0]], [[1.0] * 20] * 20, [[LONG_TEXT] * 4]),
    "men": (1000.0, 1e6, 1e15),
    "rounds": (1000.0, 1e6, 1e15),
    "siege_rate": (1e15,),
    "rate": (1e6, 1e15),
    "distance": (1e6, 1e15),
    "increment": (1.0, 1e-3),
    "damage": (1e6, 1e15),
}

ODDS_UDFS = (
    "expected_damage",
    "damage_chance_at_least",
    "kill_chance",
    "stun_chance",
    "d20_expected_damage",
    "d20_damage_chance_at_least",
    "d20_kill_chance",
)
# Situations that make one attack costlier (criticals doubled, Advantage...), by UDF and argument.
HEAVY: dict[str, dict[str, Any]] = {
    "d20_kill_chance": {"ruleset": "osr", "picks": "attacker disadvantage, charging"},
    "d20_damage_chance_at_least": {"ruleset": "osr", "picks": "attacker disadvantage, charging"},
    "kill_chance": {"sc": 140.0},
    "damage_chance_at_least": {"sc": 140.0},
}


def public_udfs() -> dict[str, Callable[..., Any]]:
    """Every UDF that ``pycalc.udfs`` exposes at top level (what xlwings registers), by name."""
    module = importlib.import_module("pycalc.udfs")
    names = getattr(module, "__all__", None) or dir(module)
    found = {}
    for name in names:
        function = getattr(module, name, None)
        if inspect.isfunction(function) and hasattr(function, "__wrapped__"):
            found[name] = function
    return dict(sorted(found.items()))


def parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    return list(inspect.signature(function).parameters.values())


def base_args(name: str, function: Callable[..., Any]) -> list[Any]:
    """The valid call of ``name``, padded with empty cells for the optional arguments."""
    given = list(BASE.get(name, ()))
    fixed = [p for p in parameters(function) if p.kind is not p.VAR_POSITIONAL]
    if not given:
        given = [1.0 if p.default is p.empty else p.default for p in fixed]
    return given + [None] * (len(fixed) - len(given))


def limit_values() -> dict[str, tuple[Any, ...]]:
    """BY_ARGUMENT plus the limits themselves when the UDFs declare them (``pycalc.udfs.coerce``)."""
    values = dict(BY_ARGUMENT)
    try:
        limits = importlib.import_module("pycalc.udfs.coerce")
    except ImportError:  # before the limits existed
        return values
    top = f"{limits.MAX_DICE}d{limits.MAX_FACES // limits.MAX_DICE}+{limits.MAX_DICE_MODIFIER}"
    widest = f"{limits.MAX_FACES // limits.MAX_SIDES}d{limits.MAX_SIDES}-{limits.MAX_DICE_MODIFIER}"
    for name in ("dice", "damage_dice", "hp_dice"):
        values[name] = (top, widest, *values[name])
    for name in ("hp", "amount"):
        values[name] = (float(limits.MAX_HP), float(limits.MAX_HP + 1), *values[name])
    values["attacks"] = (float(limits.MAX_ATTACKS), float(limits.MAX_ATTACKS + 1), *values["attacks"])
    return values


def cases(functions: dict[str, Callable[..., Any]]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """(name, args): the valid call; each argument replaced by each nasty and limit value; and for the
    odds UDFs every combination of large dice, attacks and hit points (plus a costlier situation).
    Each call once (a value that is both a limit and a listed value is not called twice)."""
    seen: set[str] = set()
    for name, args in all_cases(functions):
        key = f"{name}{args!r}"
        if key not in seen:
            seen.add(key)
            yield name, args


def all_cases(functions: dict[str, Callable[..., Any]]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    by_argument = limit_values()
    for name, function in functions.items():
        base = base_args(name, function)
        yield name, tuple(base)
        names = [p.name for p in parameters(function) if p.kind is not p.VAR_POSITIONAL]
        for index, argument in enumerate(names):
            for value in NASTY + by_argument.get(argument, ()):
                args = list(base)
                args[index] = value
                yield name, tuple(args)
        if name in ODDS_UDFS:
            yield from odds_combinations(name, names, base, by_argument)


def odds_combinations(
    name: str, names: list[str], base: list[Any], by_argument: dict[str, tuple[Any, ...]]
) -> Iterator[tuple[str, tuple[Any, ...]]]:
    dice_values = [d for d in by_argument["dice"] if d in COMBO_DICE or d not in BY_ARGUMENT["dice"]]
    size = "hp" if "hp" in names else "amount" if "amount" in names else None
    sizes = [v for v in by_argument.get(size, (None,)) if v is None or v <= 10_000] if size else [None]
    attack_counts = [v for v in by_argument["attacks"] if v <= 21] if "attacks" in names else [None]
    for heavy in ({}, HEAVY.get(name, {})):
        for dice_text in dice_values:
            for attacks in attack_counts:
                for hp in sizes:
                    args = list(base)
                    args[names.index("dice")] = dice_text
                    if attacks is not None:
                        args[names.index("attacks")] = attacks
                    if size is not None:
                        args[names.index(size)] = hp
                    for argument, value in heavy.items():
                        args[names.index(argument)] = value
                    yield name, tuple(args)
