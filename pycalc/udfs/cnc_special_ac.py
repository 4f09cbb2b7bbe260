"""Castles & Crusades special armor classes (disarm, grapple and overbear, touch) as worksheet functions
(xlwings), over ``pycalc.rulesets.cnc_special_ac``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import cnc_special_ac
from pycalc.rulesets.cnc import cnc_rules
from pycalc.udfs.cells import as_bool, as_int, as_text, cell_safe

__all__ = ["cnc_disarm_ac", "cnc_grapple_ac", "cnc_grapple_allowed", "cnc_touch_ac"]


@xw.func
@xw.arg("hit_dice", doc="defender's hit dice or level")
@xw.arg("dex", doc="defender's Dex modifier (optional, 0)")
@cell_safe
def cnc_disarm_ac(hit_dice: Any, dex: Any = 0) -> int:
    """AC to hit to disarm: 18 + hit dice or level (+ Dex bonus)."""
    return cnc_special_ac.disarm_ac(cnc_rules(), as_int(hit_dice, "LEVEL"), as_int(dex, "DEX", 0))


@xw.func
@xw.arg("kind", doc="Grapple or Overbear")
@xw.arg("str_prime", doc="TRUE when Strength is a prime of the defender")
@xw.arg("str_mod", doc="defender's Str modifier")
@xw.arg("dex_mod", doc="defender's Dex modifier")
@xw.arg("bth", doc="defender's BtH or hit dice")
@xw.arg("size_difference", doc="attacker's size minus defender's, in categories (optional, 0)")
@xw.arg("normal_ac", doc="defender's normal AC (only for ruling grapple_ac_reading = normal_ac)")
@cell_safe
def cnc_grapple_ac(
    kind: Any,
    str_prime: Any,
    str_mod: Any = 0,
    dex_mod: Any = 0,
    bth: Any = 0,
    size_difference: Any = 0,
    normal_ac: Any = 0,
) -> int:
    """Target AC of a grappling or overbearing attack: 12 or 18 plus the defender's modifiers."""
    defender = cnc_special_ac.Defender(
        as_bool(str_prime, "STR PRIME"),
        as_int(str_mod, "STR", 0),
        as_int(dex_mod, "DEX", 0),
        as_int(bth, "BTH", 0),
        as_int(normal_ac, "AC", 0),
    )
    return cnc_special_ac.grapple_ac(
        cnc_rules(), as_text(kind, "KIND"), defender, as_int(size_difference, "SIZE", 0)
    )


@xw.func
@xw.arg("kind", doc="Grapple or Overbear")
@xw.arg("size_difference", doc="attacker's size minus defender's, in categories")
@cell_safe
def cnc_grapple_allowed(kind: Any, size_difference: Any = 0) -> bool:
    """FALSE when an overbearing attacker faces a defender two or more sizes larger."""
    return cnc_special_ac.grapple_allowed(
        cnc_rules(), as_text(kind, "KIND"), as_int(size_difference, "SIZE", 0)
    )


@xw.func
@xw.arg("dex", doc="defender's Dex modifier")
@xw.arg("monster", doc="TRUE for a monster (base 10, no modifiers)")
@xw.arg("magic", doc="magic rings, robes, protective devices and spells (optional, 0)")
@xw.arg("armor", doc="armor bonus, magical armor included (optional, 0; does not count)")
@xw.arg("shield", doc="shield bonus (optional, 0; does not count)")
@cell_safe
def cnc_touch_ac(dex: Any = 0, monster: Any = False, magic: Any = 0, armor: Any = 0, shield: Any = 0) -> int:
    """AC against a touch attack: 10 + Dex + magic protection for characters; 10 for monsters."""
    return cnc_special_ac.touch_ac(
        cnc_rules(),
        as_int(dex, "DEX", 0),
        as_bool(monster, "MONSTER"),
        as_int(magic, "MAGIC", 0),
        as_int(armor, "ARMOR", 0),
        as_int(shield, "SHIELD", 0),
    )
