"""A damage kind as the GM gives it, in two ways the Attack calculator and each log row both read: typed
(the kind's label or its first letter, any case) or set by a pick that deals subdual damage
(``subdual_picks``: a choice table's picked row, or a ticked toggle row, TRUE in the column). Each
writes these over its own cells, which it names through the functions it passes in.
"""

from __future__ import annotations

from collections.abc import Callable

from pycalc.damage_kinds import labels
from pycalc.encounter_block import encounter
from pycalc.sheets.block_formulas import by_choice, expr
from pycalc.sheets.formulas import by_label, const, round_up
from pycalc.tables import RuleSet

ToggleCell = Callable[[str, str], str | None]  # (table id, row id) -> the cell of that row's box, if any
ChoiceCell = Callable[[str], str | None]  # table id -> the cell that picks a row of it, if any


def typed_kind(rules: RuleSet, kind_cell: str, kind_id: str) -> str:
    """TRUE where ``kind_cell`` names the kind ``kind_id`` by its label or first letter."""
    kinds = encounter(rules).damage_kinds
    if kinds is None or kind_id not in labels(rules):
        return "FALSE"
    label = const(kinds.table, kind_id, "label")
    return f'IF({kind_cell}="",FALSE,OR({kind_cell}={label},{kind_cell}=LEFT({label},1)))'


def normal_part(rules: RuleSet, damage: str) -> str:
    """The part of a subdual hit of ``damage`` (a number) that is normal damage
    (``damage_kinds.normal_part``): "0" without the block's ``normal_part``."""
    kinds = encounter(rules).damage_kinds
    split = None if kinds is None else kinds.normal_part
    if split is None:
        return "0"
    total, per = f"MAX({expr(split.damage_at_least)},{damage})", expr(split.per)
    rounded = by_choice(
        split.rounding,
        lambda rounding: round_up(f"{total}/{per}") if rounding == "up" else f"INT({total}/{per})",
    )
    return f"MAX({expr(split.at_least)},{rounded})"


def subdual_picked(rules: RuleSet, toggle_cell: ToggleCell, choice_cell: ChoiceCell) -> str:
    """TRUE where a pick deals subdual damage; FALSE (the literal) where no pick can."""
    kinds = encounter(rules).damage_kinds
    assert kinds is not None
    found = []
    for table_id, column in kinds.subdual_picks:
        table = rules.table(table_id)
        if table.picker == "toggle":
            for row in table.rows:
                box = toggle_cell(table_id, str(row.id))
                if box is not None:
                    found.append(f"AND({box}=TRUE,{const(table_id, str(row.id), column)}=TRUE)")
        else:
            pick = choice_cell(table_id)
            if pick is not None:
                found.append(f"IFERROR({by_label(table_id, column, pick)}=TRUE,FALSE)")
    return f"OR({','.join(found)})" if found else "FALSE"
