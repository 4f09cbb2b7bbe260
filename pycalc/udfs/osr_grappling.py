"""OSR grappling as worksheet functions (xlwings), over ``pycalc.rulesets.osr_grappling``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import osr_grappling
from pycalc.rulesets.osr import osr_rules
from pycalc.udfs.cells import as_int, cell_safe

__all__ = ["osr_grapple_result", "osr_grapple_stun_rounds"]


def grapple_rolls(hero_roll: Any, grapplers_roll: Any) -> tuple[int, int]:
    return as_int(hero_roll, "HERO ROLL"), as_int(grapplers_roll, "GRAPPLERS ROLL")


@xw.func
@xw.arg("hero_roll", doc="the grappled hero's total (d6 per HD)")
@xw.arg("grapplers_roll", doc="the grapplers' combined total (d6 per HD each)")
@cell_safe
def osr_grapple_result(hero_roll: Any, grapplers_roll: Any) -> str:
    """Pinned, struggling, or grapplers thrown off and stunned."""
    return osr_grappling.grapple_result(osr_rules(), *grapple_rolls(hero_roll, grapplers_roll))


@xw.func
@xw.arg("hero_roll", doc="the grappled hero's total")
@xw.arg("grapplers_roll", doc="the grapplers' combined total")
@cell_safe
def osr_grapple_stun_rounds(hero_roll: Any, grapplers_roll: Any) -> int:
    """Rounds the thrown-off grapplers are stunned (hero's roll minus theirs; 0 if not thrown off)."""
    return osr_grappling.grapple_stun_rounds(osr_rules(), *grapple_rolls(hero_roll, grapplers_roll))
