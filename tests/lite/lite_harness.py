"""Argument sets for the xlwings Lite bundle test, made in CPython (tests/test_lite_bundle.py).

For every UDF of a bundle (``pycalc.lite.declared_udfs``): sets drawn from value pools chosen by the
argument's name (rolls, bonuses, targets, dice, hit points ...), the words a text argument accepts
(read from the message the CPython UDF gives for a word it does not know), TRUE/FALSE for the
arguments that take it, and bad inputs (text for a number, TRUE for a roll, 2.5, 1e12, a missing
required argument) that must give the same '#...' message. Values are what xlwings hands a UDF: floats
for numbers, str, bool, None for an empty cell, lists for ranges. Draws are seeded by the bundle and
function name, so every run checks the same sets.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pycalc.errors import RuleError
from pycalc.lite import Udf
from pycalc.tables import RULESET_IDS, load_ruleset

ROLLS = [1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 15, 17, 18, 19, 20, 30, 50, 75, 95, 96, 99, 100]
BONUSES = [-3, -1, 0, 0, 1, 2, 3, 5, 8]
TARGETS = [1, 2, 4, 6, 8, 10, 12, 14, 15, 17, 20, 22]
LEVELS = [0, 1, 2, 3, 5, 9, 12]
AMOUNTS = [0, 1, 2, 3, 6, 10, 15, 25, 40]
COUNTS = [1, 1, 2, 3, 4]
DISTANCES = [0, 5, 10, 30, 60, 120, 250]
DICE = ["1d6", "1d8+2", "2d4+1", "1d4", "2d6", "1d12-1", "1d10", "3d6", "1d20"]
STRIKE_CHANCES = [5, 30, 50, 75, 100, 112, 150]
DEFENSES = [0, 10, 25, 40, 60]
BAD = ["zzz", True, 2.5, 1e12, -1e12, "", [[1.0, 2.0], [3.0, 4.0]], "1d", -5.0]
FALSE_TRUE = [False, True, None, "TRUE", "no", 1.0, 0.0]
OUTCOME_WORDS = ["Miss", "Hit", "Critical", "Grievous", "Fumble"]

SURPRISE_RANGES = [0, 1, 2, 2, 3, 4, 5, 6, 7]  # "surprised on 1 to": a d6's faces, and one past

POOLS: list[tuple[Callable[[str], bool], list[Any]]] = [
    (lambda n: n in ("surprises_on", "surprised_on"), SURPRISE_RANGES),
    (lambda n: n in ("dice", "damage_dice", "hp_dice"), DICE),
    (lambda n: "roll" in n or n in ("initiative", "casting_time"), ROLLS),
    (lambda n: n in ("sc", "modified_sc", "sc_sacrificed"), STRIKE_CHANCES),
    (lambda n: n == "defense", DEFENSES),
    (
        lambda n: (
            n in ("target", "ac", "normal_ac", "need", "save_target", "parry_number", "a_on_b", "b_on_a")
        ),
        TARGETS,
    ),
    (lambda n: "level" in n or "rank" in n or n in ("hit_dice", "level_or_hd"), LEVELS),
    (lambda n: n in ("attacks", "men", "rounds", "multiplier", "friends", "opponents", "training"), COUNTS),
    (lambda n: n in ("distance", "feet", "rate", "increment", "siege_rate"), DISTANCES),
    (
        lambda n: "hp" in n or n in ("amount", "damage", "block_total", "con", "strength", "original_hp"),
        AMOUNTS,
    ),
]


def number_pool(name: str) -> list[Any]:
    for matches, pool in POOLS:
        if matches(name):
            return pool
    return BONUSES


def as_cell(value: Any) -> Any:
    """A number as xlwings hands it to a UDF (a float); other values unchanged."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


WORDS = re.compile(r"^#[^?]+\? (?:(?:one of |use )(.+)|([^:]+ or [^:]+))$")


def listed_words(message: Any) -> list[str]:
    """The words a '#NAME? one of A, B or C' (or 'use A or B', 'A or B') message lists; the last one
    is dropped when the message was cut short."""
    if not isinstance(message, str):
        return []
    found = WORDS.search(message)
    if not found:
        return []
    text = found.group(1) or found.group(2)
    cut = text.endswith("...")
    items = text.removesuffix("...").split(", ")
    items = items[:-1] + items[-1].rsplit(" or ", 1)
    words = [w.strip() for w in items if w.strip()]
    return words[:-1] if cut else words


@dataclass
class Case:
    function: str
    args: list[Any]
    foreign: str | None = None  # a ruleset the bundle does not carry, named in the arguments

    def as_json(self) -> dict[str, Any]:
        return {"function": self.function, "args": self.args}


class Harness:
    """The argument sets of one bundle."""

    def __init__(self, bundle: str, carried: list[str], udfs: list[Udf], call: Callable[[Udf, list], Any]):
        self.bundle = bundle
        self.carried = carried
        self.udfs = udfs
        self.call = call

    # ------------------------------------------------------------------ pools

    def ruleset_pool(self) -> list[Any]:
        return [*self.carried, *self.carried, "zzz", self.carried[0].upper(), 3.0]

    def word_pools(self, udf: Udf) -> dict[str, list[Any]]:
        """For each argument that names a word or TRUE/FALSE, the values it accepts (read from the
        CPython UDF's message for an unknown word); two passes, as one argument's message can hide
        another's."""
        pools: dict[str, list[Any]] = {}
        for _ in range(2):
            for index, param in enumerate(udf.params):
                if param.repeating or param.name in ("ruleset", "rows", "table", "entry", "column"):
                    continue
                args = self.base_args(udf, pools)
                args[index] = "zzz"
                message = self.call(udf, args)
                words = listed_words(message)
                if isinstance(message, str) and message.endswith("..."):
                    words = self.whole_list(words)
                if words:
                    # the list is this argument's when one of its words changes the answer
                    args[index] = words[0]
                    if self.call(udf, args) != message:
                        pools[param.name] = words
                        continue
                if isinstance(message, str) and "TRUE or FALSE" in message:
                    args[index] = True
                    if self.call(udf, args) != message:
                        pools[param.name] = FALSE_TRUE
                        continue
                if param.name in ("result", "outcome"):
                    pools[param.name] = OUTCOME_WORDS
        return pools

    def whole_list(self, words: list[str]) -> list[str]:
        """The listed words, completed from the table they come from (a long message is cut short)."""
        for ruleset_id in self.carried if words else []:
            for table in load_ruleset(ruleset_id).tables.values():
                labels = [row.label for row in table.rows if row.label]
                if set(words) <= set(labels) and len(labels) > len(words):
                    return labels
        return words

    def base_args(self, udf: Udf, pools: dict[str, list[Any]]) -> list[Any]:
        args = []
        for param in udf.params:
            if param.repeating:
                continue
            if param.name in pools:
                args.append(pools[param.name][0])
            elif param.name == "ruleset":
                args.append(self.carried[0])
            elif param.name in ("dice", "damage_dice", "hp_dice"):
                args.append("1d8+2")
            else:
                args.append(as_cell(number_pool(param.name)[len(number_pool(param.name)) // 2]))
        return args

    def value(self, name: str, pools: dict[str, list[Any]], rng: random.Random) -> Any:
        if name in pools:
            pool = pools[name]
            return (
                rng.choice(pool)
                if rng.random() < 0.9
                else rng.choice([p.lower() for p in pool if isinstance(p, str)] or pool)
            )
        if name == "ruleset":
            return rng.choice(self.ruleset_pool())
        if name == "rows":
            return [
                [
                    as_cell(rng.choice(STRIKE_CHANCES)),
                    as_cell(rng.choice(DEFENSES)),
                    as_cell(rng.choice(ROLLS)),
                ]
                + ([as_cell(rng.choice(BONUSES))] if rng.random() < 0.5 else [])
                for _ in range(rng.randint(1, 4))
            ]
        return as_cell(rng.choice(number_pool(name)))

    # ------------------------------------------------------------------ sets

    def modifier_cases(self, udf: Udf, rng: random.Random, count: int) -> list[Case]:
        """modifier(ruleset, table, entry, column): entries of the carried tables, by label or id."""
        choices = []
        for ruleset_id in self.carried:
            rules = load_ruleset(ruleset_id)
            for table in rules.tables.values():
                numbers = [c.id for c in table.columns if c.type in ("int", "number")]
                for row in table.rows:
                    for column in [None, *numbers]:
                        choices.append([ruleset_id, table.id, row.label or row.id or "", column])
        cases = [Case(udf.name, rng.choice(choices)) for _ in range(count)]
        cases += [
            Case(udf.name, [self.carried[0], "no_such_table", "x", None]),
            Case(udf.name, [self.carried[0], choices[0][1], "no such entry", None]),
            Case(udf.name, [self.carried[0], choices[0][1], choices[0][2], "no_column"]),
        ]
        return cases

    def cases_for(self, udf: Udf, good: int) -> list[Case]:
        rng = random.Random(f"{self.bundle}:{udf.name}")
        if udf.name == "modifier":
            return self.modifier_cases(udf, rng, good)
        pools = self.word_pools(udf)
        fixed = [p for p in udf.params if not p.repeating]
        required = [p for p in fixed if p.default is None]
        repeating = any(p.repeating for p in udf.params)
        cases = []
        for draw in range(good):
            # every other set leaves out some optional arguments (the defaults then apply)
            given = len(fixed) if draw % 2 == 0 else rng.randint(len(required), len(fixed))
            args = [self.value(p.name, pools, rng) for p in fixed[:given]]
            if repeating and given == len(fixed):
                args += [rng.choice(FALSE_TRUE) for _ in range(rng.randint(0, 3))]
            cases.append(Case(udf.name, args))
        base = self.base_args(udf, pools)
        for index in range(len(fixed)):
            for bad in rng.sample(BAD, 2):
                args = list(base)
                args[index] = bad
                cases.append(Case(udf.name, args))
        if required:
            cases.append(Case(udf.name, [*base[: len(required) - 1], None]))
        if any(p.name == "ruleset" for p in fixed):
            index = next(i for i, p in enumerate(fixed) if p.name == "ruleset")
            for other in [r for r in RULESET_IDS if r not in self.carried]:
                args = list(base)
                args[index] = other
                cases.append(Case(udf.name, args, foreign=other))
        return cases

    def cases(self, good: int) -> list[Case]:
        found = []
        for udf in self.udfs:
            found += self.cases_for(udf, good)
        return [Case(c.function, json.loads(json.dumps(c.args)), c.foreign) for c in found]


def not_carried(carried: list[str], ruleset_id: str) -> str:
    """The message a bundle gives for a ruleset it does not carry (pycalc.lite_runtime)."""
    return str(
        RuleError(
            f"#RULESET? this main.py carries {', '.join(carried)}; use the all-rulesets main.py"
            f" for {ruleset_id}"
        )
    )
