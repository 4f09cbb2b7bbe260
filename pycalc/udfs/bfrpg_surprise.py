"""Basic Fantasy surprise as worksheet functions (xlwings), over ``pycalc.rulesets.bfrpg_surprise``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.errors import RuleError
from pycalc.rulesets import (
    bfrpg_surprise,
)
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import (
    arg_docs,
    as_bool,
    as_choice,
    as_int,
    cell_safe,
)

__all__ = ["bfrpg_is_surprised", "bfrpg_surprise_max"]


SURPRISE = (
    ("situation", "Normal or Facing a well-hidden ambush"),
    ("adjustments", "TRUE/FALSE per Surprise range adjustments row (Elves...)"),
)


@xw.func
@arg_docs(*SURPRISE)
@cell_safe
def bfrpg_surprise_max(situation: Any, *adjustments: Any) -> int:
    """Highest d6 roll that surprises: 2 normally, 4 against an ambush, 1 less for Elves."""
    rules = bfrpg_rules()
    rows = rules.table("surprise_adjustments").rows
    ticked = [row.id for row, value in zip(rows, adjustments, strict=False) if as_bool(value, "ADJUSTMENTS")]
    return bfrpg_surprise.surprise_max(rules, as_choice(rules, "surprise_range", situation), ticked)


@xw.func
@arg_docs(("roll", "the surprise d6"), *SURPRISE)
@cell_safe
def bfrpg_is_surprised(roll: Any, situation: Any, *adjustments: Any) -> bool | str:
    """TRUE when this d6 roll means the side is surprised."""
    top = bfrpg_surprise_max(situation, *adjustments)
    if isinstance(top, str):
        return top
    die = int(bfrpg_rules().constant("surprise_roll", "surprise_die_faces"))
    value = as_int(roll, "ROLL")
    if not 1 <= value <= die:
        raise RuleError(f"#ROLL? 1 to {die}")
    return value <= top
