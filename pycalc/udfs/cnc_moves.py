"""Castles & Crusades movement (feet a round, grid squares, the charge window) as worksheet functions
(xlwings), over ``pycalc.rulesets.cnc_movement`` (this module is not named after it: its UDF ``cnc_movement`` is).

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import xlwings as xw

from pycalc.rulesets import cnc_movement as movement  # the UDF cnc_movement has its name
from pycalc.rulesets.cnc import cnc_rules
from pycalc.udfs.cells import as_fraction, as_int, as_text, cell_safe

__all__ = ["cnc_charge_window", "cnc_grid_squares", "cnc_movement"]


@xw.func
@xw.arg("rate", doc="movement rate in feet")
@xw.arg("action", doc="an action of combat_actions, e.g. Attack, Move (jog) (optional, Move (walk))")
@xw.arg("reduction", doc="Castle Keeper's reduction as a fraction, 0.5 = half (optional, 0)")
@cell_safe
def cnc_movement(rate: Any, action: Any = None, reduction: Any = None) -> int:
    """Feet moved in a round with that action, after the reduction, fractions dropped."""
    ruleset = cnc_rules()
    now = movement.reduced_rate(
        ruleset, as_int(rate, "RATE"), as_fraction(reduction, "REDUCTION", Fraction(0))
    )
    return movement.action_move(ruleset, now, as_text(action, "ACTION", "walk"))


@xw.func
@xw.arg("rate", doc="movement rate in feet")
@cell_safe
def cnc_grid_squares(rate: Any) -> int:
    """Inches, hexes or squares for a movement rate (rate / 5, fractions dropped)."""
    return movement.grid_squares(cnc_rules(), as_int(rate, "RATE"))


@xw.func
@xw.arg("rate", doc="the charger's movement rate in feet")
@xw.arg("distance", doc="distance to the target in feet")
@cell_safe
def cnc_charge_window(rate: Any, distance: Any) -> str:
    """Yes when the target is between the movement rate and the jogging rate away, else why not."""
    return movement.charge_verdict(cnc_rules(), as_int(rate, "RATE"), as_int(distance, "DISTANCE"))
