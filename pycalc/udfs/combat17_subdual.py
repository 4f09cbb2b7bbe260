"""17 Combat's subdual damage as worksheet functions (xlwings), over ``pycalc.rulesets.combat17_subdual``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import combat17_subdual
from pycalc.udfs.cells import as_bool, as_int, cell_safe
from pycalc.udfs.combat17 import rules

__all__ = ["combat17_subdual_damage", "combat17_subdual_state"]


@xw.func
@xw.arg("damage", doc="normal damage rolled")
@cell_safe
def combat17_subdual_damage(damage: Any) -> int:
    """Half damage for the flat of the blade, rounded per the subdual_half_rounding ruling."""
    return combat17_subdual.subdual_damage(rules(), as_int(damage, "DAMAGE"))


@xw.func
@xw.arg("hp", doc="target's hit points now")
@xw.arg("damage", doc="normal damage rolled")
@xw.arg("flat", doc="TRUE: flat of the blade (non-lethal, half damage)")
@xw.arg("earlier", doc="TRUE: the target has taken non-lethal damage before (optional)")
@xw.arg("unconscious", doc="TRUE: the target is already unconscious (optional)")
@cell_safe
def combat17_subdual_state(
    hp: Any, damage: Any, flat: Any = True, earlier: Any = False, unconscious: Any = False
) -> str:
    """Conscious, Unconscious or Dead after the hit."""
    return combat17_subdual.subdual_outputs(
        rules(),
        as_int(hp, "HP"),
        as_int(damage, "DAMAGE", 0),
        as_bool(flat, "FLAT"),
        as_bool(earlier, "EARLIER"),
        as_bool(unconscious, "UNCONSCIOUS"),
    )["SUBDUAL_STATE"]
