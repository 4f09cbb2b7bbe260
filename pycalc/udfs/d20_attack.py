"""A d20 attack as the d20 rulesets' UDFs read it from the cells: its numbers and its result, read the
same way for every ruleset.

The contract: a UDF module reads its attack here (``d20_attack``) and hands it to its engine. Every
message names the argument as the ruleset's UDF names it. It declares no UDF of its own.
"""

from __future__ import annotations

from typing import Any

from pycalc import d20
from pycalc.errors import RuleError
from pycalc.udfs.cells import as_int, as_text

ROLL = ("roll", "the natural d20")  # its doc where a ruleset says no more (``cells.arg_docs``)


def d20_attack(bonus: Any, target: Any, mods: Any = 0, level: Any = 0) -> d20.Attack:
    """The d20 attack of the cells."""
    return d20.Attack(
        as_int(bonus, "BONUS", 0),
        as_int(target, "TARGET"),
        as_int(mods, "MODS", 0),
        as_int(level, "LEVEL", 0),
    )


def as_outcome(value: Any, outcomes: tuple[str, ...] = d20.OUTCOMES, listed: str = "") -> str:
    """An attack's result, one of ``outcomes`` in any case; the message lists them (or ``listed``)."""
    text = as_text(value, "RESULT").casefold()
    for outcome in outcomes:
        if outcome.casefold() == text:
            return outcome
    raise RuleError(f"#RESULT? use {listed or ', '.join(outcomes)}")
