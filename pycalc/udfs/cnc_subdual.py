"""Castles & Crusades subdual damage as a worksheet function (xlwings), over ``pycalc.rulesets.cnc_subdual``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import cnc_subdual
from pycalc.rulesets.cnc import cnc_rules
from pycalc.udfs.cells import as_int, cell_safe

__all__ = ["cnc_subdual_normal"]


@xw.func
@xw.arg("damage", doc="subdual damage dealt by the hit")
@cell_safe
def cnc_subdual_normal(damage: Any) -> int:
    """Points of the subdual damage that count as normal damage (1 in 5, ruling subdual_normal_split)."""
    return cnc_subdual.subdual_normal(cnc_rules(), as_int(damage, "DAMAGE"))
