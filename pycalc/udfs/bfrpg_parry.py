"""Basic Fantasy parrying and shield blocks as worksheet functions (xlwings), over ``pycalc.rulesets.bfrpg_parry``.

Same conventions as ``pycalc.udfs``: a bad argument returns a short '#...' text; nothing raises into a cell.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.rulesets import bfrpg_parry
from pycalc.udfs.bfrpg import bfrpg_rules
from pycalc.udfs.cells import as_bool, as_choice, as_int, as_text, cell_safe

__all__ = ["bfrpg_block_result", "bfrpg_parry_bonus"]


@xw.func
@xw.arg("stance", doc="Partial defense or Total (full) defense")
@xw.arg("parry_with", doc="Parry with a weapon / with a shield")
@xw.arg("attack_bonus", doc="attack bonus, specialization included")
@xw.arg("str_bonus", doc="Strength bonus (only with ruling parry_includes_str = with_str)")
@xw.arg("parry_number", doc="1 for the first parry this round, 2 for the second...")
@xw.arg("character_class", doc="Fighter, Cleric or Other")
@xw.arg("level", doc="the parrying character's level")
@xw.arg("ranged", doc="TRUE when parrying a ranged attack")
@cell_safe
def bfrpg_parry_bonus(
    stance: Any,
    parry_with: Any,
    attack_bonus: Any,
    str_bonus: Any = 0,
    parry_number: Any = 1,
    character_class: Any = "Other",
    level: Any = 1,
    ranged: Any = False,
) -> int:
    """What is added to the parry d20; the parry must surpass the attack roll."""
    rules = bfrpg_rules()
    inputs = bfrpg_parry.ParryInputs(
        stance=as_choice(rules, "defense_stance", stance),
        parry_with=as_choice(rules, "parry_with", parry_with),
        attack_bonus=as_int(attack_bonus, "AB", 0),
        str_bonus=as_int(str_bonus, "STR", 0),
        parry_number=as_int(parry_number, "PARRY NUMBER", 1),
        character_class=as_text(character_class, "CLASS", bfrpg_parry.OTHER_CLASS),
        level=as_int(level, "LEVEL", 1),
        ranged=as_bool(ranged, "RANGED"),
    )
    return bfrpg_parry.parry_bonus(rules, inputs)


@xw.func
@xw.arg("block_total", doc="the block roll with its bonuses")
@xw.arg("damage", doc="the attacker's damage")
@cell_safe
def bfrpg_block_result(block_total: Any, damage: Any) -> str:
    """Absorbed or Full damage (ruling block_tie decides a tie)."""
    block, hit = as_int(block_total, "BLOCK"), as_int(damage, "DAMAGE")
    tie = bfrpg_rules().ruling("block_tie") == "absorbed"
    return bfrpg_parry.BLOCK_ABSORBED if block > hit or (block == hit and tie) else bfrpg_parry.BLOCK_FULL
