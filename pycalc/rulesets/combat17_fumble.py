"""17 Combat critical misses (seed 17.0.4): the critical miss chart of the follow-up d20 after a
natural 1, its DEX check and the attack-roll penalty or free attack that follows a failed check.

Reads ``critical_misses`` and ``attacker_conditions`` of ``tables/combat17`` (the chart row through
``pycalc.rulesets.combat17.fumble_row``, which the Attack calculator reads too);
``pycalc.sheets.combat17_fumble`` writes the same rules as native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.d20 import check_roll
from pycalc.errors import RuleError
from pycalc.rulesets.combat17 import fumble_row, parse_dice
from pycalc.tables import Row, RuleSet

# Text the calculator shows (the same strings are written into the workbook's formulas).
CHECK_PASSED, CHECK_FAILED = "Passed", "Failed"


FUMBLE_OUTPUTS = (
    "FUMBLE_CHART_EFFECT",
    "FUMBLE_DEX_DC",
    "FUMBLE_CHECK",
    "FUMBLE_NO_ATTACK_NEXT_ROUND",
    "FUMBLE_PENALTY",
    "FUMBLE_CONSEQUENCE",
)


def fumble_consequence_text(rules: RuleSet, row: Row, check: str, rounds_roll: int | None) -> tuple[str, int]:
    """What happens after the DEX check, and the attack-roll penalty that follows."""
    if row["dex_check_dc"] is None:
        return str(row["effect"]), 0
    if not check:
        return f"DEX check DC {row['dex_check_dc']} needed", 0
    if check == CHECK_PASSED:
        return "DEX check passed: just a miss", 0
    condition = row["failed_check_condition"]
    if condition:
        penalty = rules.table("attacker_conditions").entry(condition)
        rounds_dice = parse_dice(row["penalty_rounds"])
        if rounds_roll is None:
            rounds = str(row["penalty_rounds"])
        elif rounds_dice.minimum <= rounds_roll <= rounds_dice.maximum:
            rounds = str(rounds_roll)
        else:
            raise RuleError(f"#ROUNDS ROLL? {rounds_dice.minimum} to {rounds_dice.maximum}")
        return f"DEX check failed: {penalty['hit']} to hit for {rounds} rounds", penalty["hit"]
    if row["failed_check_free_attack"]:
        return "DEX check failed: the opponent gets a free attack", 0
    return "DEX check failed", 0


def fumble_outputs(
    rules: RuleSet,
    roll: int | None,
    dex_bonus: int = 0,
    dex_roll: int | None = None,
    rounds_roll: int | None = None,
) -> dict[str, Any]:
    """The critical miss chart, its DEX check and what follows."""
    if roll is None:
        return dict.fromkeys(FUMBLE_OUTPUTS, "")
    try:
        row = fumble_row(rules, roll)
        if dex_roll is not None:
            check_roll(dex_roll, "DEX ROLL")
    except RuleError as error:
        return dict.fromkeys(FUMBLE_OUTPUTS, str(error))
    dc = row["dex_check_dc"]
    check = ""
    if dc is not None and dex_roll is not None:
        check = CHECK_PASSED if dex_roll + dex_bonus >= dc else CHECK_FAILED
    try:
        consequence, penalty = fumble_consequence_text(rules, row, check, rounds_roll)
    except RuleError as error:
        consequence, penalty = str(error), 0
    return {
        "FUMBLE_CHART_EFFECT": row["effect"],
        "FUMBLE_DEX_DC": "" if dc is None else dc,
        "FUMBLE_CHECK": check,
        "FUMBLE_NO_ATTACK_NEXT_ROUND": row["no_attack_next_round"],
        "FUMBLE_PENALTY": penalty,
        "FUMBLE_CONSEQUENCE": consequence,
    }
