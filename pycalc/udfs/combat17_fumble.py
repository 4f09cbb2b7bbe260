"""17 Combat's critical miss DEX check as a worksheet function (xlwings), over
``pycalc.rulesets.combat17_fumble`` (the chart's row itself: the shared ``fumble_effect`` and ``d20_effect``).

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import (
    combat17_fumble,
)
from pycalc.udfs.cells import as_int, cell_safe, optional_int
from pycalc.udfs.combat17 import rules

__all__ = ["combat17_fumble_outcome"]


@xw.func
@xw.arg("roll", doc="the follow-up d20 after a natural 1")
@xw.arg("dex_bonus", doc="the attacker's DEX bonus (optional, 0)")
@xw.arg("dex_roll", doc="the d20 of the DEX check (optional)")
@xw.arg("rounds_roll", doc="the 1d2 rounds of the stumble penalty (optional)")
@cell_safe
def combat17_fumble_outcome(
    roll: Any, dex_bonus: Any = 0, dex_roll: Any = None, rounds_roll: Any = None
) -> str:
    """What the critical miss does once its DEX check is rolled."""
    return combat17_fumble.fumble_outputs(
        rules(),
        as_int(roll, "FOLLOW ROLL"),
        as_int(dex_bonus, "DEX BONUS", 0),
        optional_int(dex_roll, "DEX ROLL"),
        optional_int(rounds_roll, "ROUNDS ROLL"),
    )["FUMBLE_CONSEQUENCE"]
