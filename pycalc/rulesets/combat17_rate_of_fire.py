"""17 Combat missile rate of fire (seed 17.0.9): how many shots a weapon fires over N rounds, and in
which rounds (a siege weapon at the rate the GM types).

Reads ``rate_of_fire`` of ``tables/combat17`` and the ruling rate_of_fire_start;
``pycalc.sheets.combat17_rate_of_fire`` writes the same rule as native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.errors import RuleError, not_in_list
from pycalc.tables import RuleSet

ROF_OUTPUTS = ("ROF_ROUNDS_PER_SHOT", "ROF_FIRST_SHOT_ROUND", "ROF_SHOTS", "ROF_LAST_SHOT_ROUND")


def rate_of_fire(rules: RuleSet, weapon: str, siege_rate: int | None = None) -> tuple[int, int]:
    """(fires once every N rounds, rounds spent reloading) for a weapon of the rate_of_fire table."""
    table = rules.table("rate_of_fire")
    try:
        row = table.by_label(weapon)
    except KeyError:
        raise not_in_list("weapon", (row.label for row in table.rows)) from None
    every = row["rounds_per_shot"]
    if every is None:
        if siege_rate is None or siege_rate < 1:
            raise RuleError("#RATE? fires once every how many rounds (1 or more)")
        return siege_rate, siege_rate - 1
    return every, row["reload_rounds"]


def shots_fired(rules: RuleSet, weapon: str, rounds: int, siege_rate: int | None = None) -> dict[str, Any]:
    """How many shots a weapon fires in ``rounds`` rounds, and in which rounds."""
    try:
        every, reload = rate_of_fire(rules, weapon, siege_rate)
        if rounds < 0:
            raise RuleError("#ROUNDS? 0 or more")
    except RuleError as error:
        return dict.fromkeys(ROF_OUTPUTS, str(error))
    first = 1 if rules.ruling("rate_of_fire_start") == "loaded" else reload + 1
    shots = 0 if rounds < first else (rounds - first) // every + 1
    return {
        "ROF_ROUNDS_PER_SHOT": every,
        "ROF_FIRST_SHOT_ROUND": first,
        "ROF_SHOTS": shots,
        "ROF_LAST_SHOT_ROUND": first + (shots - 1) * every if shots else "",
    }
