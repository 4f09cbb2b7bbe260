"""OSR attacks against Normal Men as worksheet functions (xlwings), over ``pycalc.rulesets.osr_normal_men``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import osr_normal_men
from pycalc.rulesets.osr import osr_rules
from pycalc.udfs.cells import as_int, as_text, cell_safe

__all__ = ["osr_attacks_vs_normal_men", "osr_expected_kills"]


@xw.func
@xw.arg("kind", doc="PC or important NPC fighter type / PC who is not a fighter type / Monster (whole HD)")
@xw.arg("level_or_hd", doc="XP level, or whole Hit Dice for a monster")
@cell_safe
def osr_attacks_vs_normal_men(kind: Any, level_or_hd: Any) -> int:
    """Melee attacks per round against Normal Men."""
    return osr_normal_men.attacks_vs_normal_men(
        osr_rules(), as_text(kind, "KIND"), as_int(level_or_hd, "LEVEL")
    )


@xw.func
@xw.arg("attacks", doc="attacks per round against the Normal Men")
@xw.arg("need", doc="natural d20 needed to hit them")
@xw.arg("damage_dice", doc="damage per hit, e.g. 1d6+1")
@xw.arg("hp_dice", doc="their hit points (optional, 1d6)")
@cell_safe
def osr_expected_kills(attacks: Any, need: Any, damage_dice: Any, hp_dice: Any = None) -> float:
    """Normal Men killed per round by the seed's shortcut (8 attacks, 7+, d6+1 vs d6 -> 5.6)."""
    rules = osr_rules()
    default_hp = rules.table("normal_men").value("normal_man_hit_points", "dice")
    found = osr_normal_men.expected_kills(
        rules,
        as_int(attacks, "ATTACKS"),
        as_int(need, "NEED"),
        as_text(damage_dice, "DICE"),
        as_text(hp_dice, "HP DICE", default_hp),
    )
    return float(found.kills)
