"""17 Combat critical misses (seed 17.0.4): the DEX check some rows of the critical miss chart call
for, and what follows a failed check (an attack-roll penalty for some rounds, or a free attack).

The chart itself (the follow-up d20 after a natural 1) is the generic Attack calculator's
(``pycalc.resolution_calculator``: its chart effect prints the row, its DC and what a failure does;
the penalty is the Attacker's condition pick the row names); what is combat17's own is resolving the
check, d20 + DEX bonus against the row's DC. Reads ``critical_misses`` and ``attacker_conditions`` of
``tables/combat17``; ``pycalc.sheets.combat17_fumble`` writes the same rules as native formulas.
"""

from __future__ import annotations

from typing import Any

from pycalc.d20 import check_roll
from pycalc.errors import RuleError
from pycalc.rulesets.combat17 import fumble_row, parse_dice
from pycalc.tables import Row, RuleSet

# Text the calculator shows (the same strings are written into the workbook's formulas).
CHECK_PASSED, CHECK_FAILED = "Passed", "Failed"

FUMBLE_OUTPUTS = ("FUMBLE_DEX_DC", "FUMBLE_CHECK", "FUMBLE_CONSEQUENCE")


def fumble_consequence_text(rules: RuleSet, row: Row, check: str, rounds_roll: int | None) -> str:
    """What happens after the DEX check (the attack-roll penalty and its rounds on a failed one)."""
    if row["dex_check_dc"] is None:
        return str(row["effect"])
    if not check:
        return f"DEX check DC {row['dex_check_dc']} needed"
    if check == CHECK_PASSED:
        return "DEX check passed: just a miss"
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
        return f"DEX check failed: {penalty['hit']} to hit for {rounds} rounds"
    if row["failed_check_free_attack"]:
        return "DEX check failed: the opponent gets a free attack"
    return "DEX check failed"


def fumble_outputs(
    rules: RuleSet,
    roll: int | None,
    dex_bonus: int = 0,
    dex_roll: int | None = None,
    rounds_roll: int | None = None,
) -> dict[str, Any]:
    """The critical miss chart row's DEX check and what follows."""
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
        consequence = fumble_consequence_text(rules, row, check, rounds_roll)
    except RuleError as error:
        consequence = str(error)
    return {
        "FUMBLE_DEX_DC": "" if dc is None else dc,
        "FUMBLE_CHECK": check,
        "FUMBLE_CONSEQUENCE": consequence,
    }
