"""OSR mass combat as worksheet functions (xlwings), over ``pycalc.rulesets.osr_mass_combat``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import osr_mass_combat
from pycalc.rulesets.osr import osr_rules
from pycalc.tables import RuleSet
from pycalc.udfs.cells import as_int, cell_safe

__all__ = ["mass_survivors", "osr_mass_damage"]


def unit_men(rules: RuleSet, men: Any) -> int:
    """Men in a unit: the cell, or the mass-combat unit's when empty."""
    return as_int(men, "MEN", rules.constant("mass_combat", "unit_men"))


@xw.func
@xw.arg("damage_roll", doc="the d6 thrown for a unit's hit")
@xw.arg("men", doc="men in the attacking unit (optional, 10)")
@cell_safe
def osr_mass_damage(damage_roll: Any, men: Any = None) -> int:
    """Hit points the target unit loses: the d6 x 10 (x the men, by ruling)."""
    rules = osr_rules()
    return osr_mass_combat.mass_damage(rules, as_int(damage_roll, "DAMAGE ROLL"), unit_men(rules, men))


@xw.func
@xw.arg("original_hp", doc="the unit's total hit points before the melee")
@xw.arg("remaining_hp", doc="its hit points left")
@xw.arg("men", doc="men in the unit (optional, 10)")
@cell_safe
def mass_survivors(original_hp: Any, remaining_hp: Any, men: Any = None) -> int:
    """Men left alive: one per tenth of the original hit points left, fractions rounded up."""
    rules = osr_rules()
    return osr_mass_combat.mass_survivors(
        rules, as_int(original_hp, "ORIGINAL HP"), as_int(remaining_hp, "REMAINING HP"), unit_men(rules, men)
    )
