"""The shipped d20 rulesets' own engines by id, behind one protocol (``D20Engine``), imported
statically: the shared d20 functions (``d20_result``, ``d20_hit_chance``, the chart functions)
reach a ruleset's engine here.

Exact chances enumerate every (roll, follow roll) pair with fractions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Protocol

from pycalc.d20 import D20_FACES, D20_RULESETS, HITS, OUTCOMES, Attack, check_roll
from pycalc.errors import RuleError
from pycalc.rulesets import bfrpg, cnc, combat17, osr
from pycalc.tables import RuleSet, load_ruleset


class D20Engine(Protocol):
    """What a d20 ruleset's engine module provides."""

    USES_FOLLOW_ROLL: bool  # whether a second d20 can matter (osr fumble check, bfrpg confirmation, charts)

    def result(self, rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
        """One of OUTCOMES."""
        ...


ENGINES: dict[str, D20Engine] = {"cnc": cnc, "osr": osr, "combat17": combat17, "bfrpg": bfrpg}
CHARTS: dict[tuple[str, str], Callable[[RuleSet, int], str]] = {  # (ruleset, crit or fumble) -> its chart
    ("combat17", "crit"): combat17.crit_effect,
    ("combat17", "fumble"): combat17.fumble_effect,
    ("osr", "fumble"): osr.fumble_effect,
}


def ruleset_engine(ruleset_id: str) -> D20Engine:
    if ruleset_id not in ENGINES:
        raise RuleError(f"#RULESET? use {', '.join(D20_RULESETS)}")
    return ENGINES[ruleset_id]


def rules_for(ruleset_id: str) -> tuple[RuleSet, D20Engine]:
    engine = ruleset_engine(ruleset_id)
    return load_ruleset(ruleset_id), engine


def result(ruleset_id: str, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    rules, engine = rules_for(ruleset_id)
    check_roll(roll)
    if follow_roll is not None:
        check_roll(follow_roll, "FOLLOW ROLL")
    return engine.result(rules, attack, roll, follow_roll)


def chances(ruleset_id: str, attack: Attack) -> dict[str, Fraction]:
    """Exact probability of each outcome over every roll (and follow roll, where one matters)."""
    rules, engine = rules_for(ruleset_id)
    follow_rolls = range(1, D20_FACES + 1) if engine.USES_FOLLOW_ROLL else (None,)
    weight = Fraction(1, D20_FACES * len(follow_rolls))
    found = dict.fromkeys(OUTCOMES, Fraction(0))
    for roll in range(1, D20_FACES + 1):
        for follow in follow_rolls:
            found[engine.result(rules, attack, roll, follow)] += weight
    return found


def hit_chance(ruleset_id: str, attack: Attack) -> Fraction:
    odds = chances(ruleset_id, attack)
    return sum((odds[o] for o in HITS), Fraction(0))


def chart_effect(ruleset_id: str, roll: int, kind: str) -> str:
    """The critical (kind 'crit') or fumble chart line for that d20."""
    rules, _ = rules_for(ruleset_id)
    function = CHARTS.get((ruleset_id, kind))
    if function is None:
        what = "critical" if kind == "crit" else "fumble"
        raise RuleError(f"#NONE? {ruleset_id} has no {what} chart")
    return function(rules, check_roll(roll))
