"""Castles & Crusades falling damage as worksheet functions (xlwings), over ``pycalc.rulesets.cnc_falling``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc import limits
from pycalc.rulesets import cnc_falling
from pycalc.rulesets.cnc import cnc_rules
from pycalc.udfs.cells import arg_docs, as_int, cell_safe

__all__ = ["cnc_falling_dex_check", "falling_damage"]


FEET = ("feet", "height fallen in feet")


def as_feet(value: Any) -> int:
    return as_int(value, "FEET", None, 0, limits.FALLING_FEET)


@xw.func
@arg_docs(FEET)
@cell_safe
def falling_damage(feet: Any) -> str:
    """Falling damage dice (18 ft -> 3d6, 45 ft -> 10d6; 6-10 ft: 1d6 on a failed Dex check; '0': none)."""
    return cnc_falling.falling_damage(cnc_rules(), as_feet(feet))


@xw.func
@arg_docs(FEET)
@cell_safe
def cnc_falling_dex_check(feet: Any) -> bool:
    """TRUE when a successful Dex check avoids all damage of the fall (6 to 10 ft)."""
    return cnc_falling.falling(cnc_rules(), as_feet(feet)).dex_check
