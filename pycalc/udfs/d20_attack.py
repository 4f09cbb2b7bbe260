"""A d20 attack as the d20 rulesets' UDFs read it from the cells: its numbers, its result, and the
situation flags the generic engine (``pycalc.resolution``) takes, read the same way for every ruleset.

The contract: a UDF module reads its attack here (``d20_attack``) and hands it to its engine; what the
cells say about the situation (a target that cannot be attacked) becomes the generic engine's flag
(``generic.Attack``) through ``as_blocked``. Every message names the argument as the
ruleset's UDF names it. It declares no UDF of its own.
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


def as_blocked(value: Any) -> bool:
    """Whether no attack is possible, from a cell holding TRUE or the reason why ('' or FALSE when the
    attack may be made), as a calculator's ATTACK_BLOCKED cell shows it."""
    if isinstance(value, str):
        return bool(value.strip()) and value.strip().upper() != "FALSE"
    return bool(value)
