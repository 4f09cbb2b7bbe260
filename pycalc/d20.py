"""d20 attack resolution shared by the four d20 rulesets (cnc, osr, combat17, bfrpg).

The roll needed is the same everywhere: ``target - bonus - mods`` on a d20 (for osr the target is
the number needed from the GM's attack matrix, for the others the defender's AC). What the
natural rolls do is each ruleset's own, in ``pycalc.rulesets.<id>``, a module that provides:

- ``USES_FOLLOW_ROLL: bool``: whether a second d20 can matter (osr fumble check, bfrpg confirmation,
  combat17 crit/fumble charts);
- ``result(rules, attack, roll, follow_roll) -> str``: one of OUTCOMES;
- optionally ``crit_effect(rules, roll) -> str`` and ``fumble_effect(rules, roll) -> str``.

Exact chances enumerate every (roll, follow roll) pair with fractions.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType

from pycalc.errors import RuleError
from pycalc.tables import RuleSet, load_ruleset

D20_FACES = 20  # the die itself, not a rule number
D20_RULESETS = ("cnc", "osr", "combat17", "bfrpg")
MISS, HIT, CRITICAL, FUMBLE = "Miss", "Hit", "Critical", "Fumble"
OUTCOMES = (MISS, HIT, CRITICAL, FUMBLE)
HITS = (HIT, CRITICAL)


@dataclass(frozen=True)
class Attack:
    bonus: int
    target: int
    mods: int = 0
    level: int = 0  # the attacker's level (osr's fumble check)

    @property
    def need(self) -> int:
        """The natural roll needed, before any natural-roll rule."""
        return self.target - self.bonus - self.mods


def ruleset_module(ruleset_id: str) -> ModuleType:
    if ruleset_id not in D20_RULESETS:
        raise RuleError(f"#RULESET? use {', '.join(D20_RULESETS)}")
    return importlib.import_module(f"pycalc.rulesets.{ruleset_id}")


def rules_for(ruleset_id: str) -> tuple[RuleSet, ModuleType]:
    module = ruleset_module(ruleset_id)
    return load_ruleset(ruleset_id), module


def check_roll(roll: int, what: str = "ROLL") -> int:
    if not 1 <= roll <= D20_FACES:
        raise RuleError(f"#{what}? 1 to {D20_FACES}")
    return roll


def result(ruleset_id: str, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    rules, module = rules_for(ruleset_id)
    check_roll(roll)
    if follow_roll is not None:
        check_roll(follow_roll, "FOLLOW ROLL")
    return module.result(rules, attack, roll, follow_roll)


def chances(ruleset_id: str, attack: Attack) -> dict[str, Fraction]:
    """Exact probability of each outcome over every roll (and follow roll, where one matters)."""
    rules, module = rules_for(ruleset_id)
    follow_rolls = range(1, D20_FACES + 1) if module.USES_FOLLOW_ROLL else (None,)
    weight = Fraction(1, D20_FACES * len(follow_rolls))
    found = dict.fromkeys(OUTCOMES, Fraction(0))
    for roll in range(1, D20_FACES + 1):
        for follow in follow_rolls:
            found[module.result(rules, attack, roll, follow)] += weight
    return found


def hit_chance(ruleset_id: str, attack: Attack) -> Fraction:
    odds = chances(ruleset_id, attack)
    return sum((odds[o] for o in HITS), Fraction(0))


def chart_effect(ruleset_id: str, roll: int, kind: str) -> str:
    """The critical (kind 'crit') or fumble chart line for that d20."""
    rules, module = rules_for(ruleset_id)
    function = getattr(module, f"{kind}_effect", None)
    if function is None:
        what = "critical" if kind == "crit" else "fumble"
        raise RuleError(f"#NONE? {ruleset_id} has no {what} chart")
    return function(rules, check_roll(roll))
