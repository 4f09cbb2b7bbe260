"""A d20 attack as the d20 rulesets' UDFs read it from the cells: its numbers, its result, and the
situation flags the generic engine (``pycalc.resolution``) takes, read the same way for every ruleset.

The contract: a ruleset's UDF module reads its attack here (``d20_attack``, or ``ac_attack`` where the
ruleset names the target AC in its messages) and hands it to its engine; what the cells say about the
situation (which d20 is kept, a target that cannot be attacked) becomes the generic engine's flags
(``generic.Attack``) through ``as_mode`` and ``as_blocked``. Every message names the argument as the
ruleset's UDF names it. It declares no UDF of its own.
"""

from __future__ import annotations

from typing import Any

from pycalc import d20
from pycalc.errors import RuleError
from pycalc.udfs.cells import as_int, as_text

ROLL = ("roll", "the natural d20")  # its doc where a ruleset says no more (``cells.arg_docs``)


def d20_attack(
    bonus: Any, target: Any, mods: Any = 0, level: Any = 0, target_name: str = "TARGET"
) -> d20.Attack:
    """The d20 attack of the cells; ``target_name`` names the target in its message (cnc says AC)."""
    return d20.Attack(
        as_int(bonus, "BONUS", 0),
        as_int(target, target_name),
        as_int(mods, "MODS", 0),
        as_int(level, "LEVEL", 0),
    )


def ac_attack(bonus: Any, ac: Any, mods: Any = 0) -> d20.Attack:
    """The d20 attack of a ruleset whose target is the defender's AC, named so in its message."""
    return d20_attack(bonus, ac, mods, target_name="AC")


def as_outcome(value: Any, outcomes: tuple[str, ...] = d20.OUTCOMES, listed: str = "") -> str:
    """An attack's result, one of ``outcomes`` in any case; the message lists them (or ``listed``)."""
    text = as_text(value, "RESULT").casefold()
    for outcome in outcomes:
        if outcome.casefold() == text:
            return outcome
    raise RuleError(f"#RESULT? use {listed or ', '.join(outcomes)}")


MODES = {  # (Advantage, Disadvantage) of the kept d20
    "": (False, False),
    "normal": (False, False),
    "advantage": (True, False),
    "disadvantage": (False, True),
}


def as_mode(value: Any) -> tuple[bool, bool]:
    """Which d20 is kept, as the engine's (advantage, disadvantage): Normal (or empty), Advantage or
    Disadvantage, in any case."""
    text = "" if value is None else str(value).strip().casefold()
    if text not in MODES:
        raise RuleError("#MODE? Normal, Advantage or Disadvantage")
    return MODES[text]


def as_blocked(value: Any) -> bool:
    """Whether no attack is possible, from a cell holding TRUE or the reason why ('' or FALSE when the
    attack may be made), as a calculator's ATTACK_BLOCKED cell shows it."""
    if isinstance(value, str):
        return bool(value.strip()) and value.strip().upper() != "FALSE"
    return bool(value)
