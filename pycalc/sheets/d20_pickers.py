"""The situation pickers of the generic Attack calculator (the ``modifiers:`` tables): their
formulas added up by column, and the pickers written under the roll block with a note of what each
row changes."""

from __future__ import annotations

from collections.abc import Callable

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution_situation
from pycalc.resolution_block import Resolution
from pycalc.sheets.calculator import add_list
from pycalc.sheets.common import (
    BOLD,
    NOTE,
    SUBTITLE,
    WRAP,
    put,
    put_formula,
    table_name,
)
from pycalc.sheets.d20_layout import NOTE_COLUMN, OUT_COLUMN, OUT_LABEL, put_input
from pycalc.sheets.formulas import by_label, const
from pycalc.sheets.situation_cells import Pickers, column_terms, pick_name, picked
from pycalc.tables import RuleSet, Table


def picker_tables(rules: RuleSet, block: Resolution) -> list[Table]:
    return [rules.table(table_id) for table_id in block.modifiers or ()]


def pickers(rules: RuleSet, block: Resolution) -> Pickers:
    tables = picker_tables(rules, block)
    return Pickers(
        tuple(t.id for t in tables if t.picker == "choice"),
        tuple(t.id for t in tables if t.picker != "choice"),
        order=tuple(t.id for t in tables),
    )


def picked_terms(
    rules: RuleSet,
    block: Resolution,
    column: str,
    chosen: Callable[[str], str],
    ticked: Callable[[str, str], str],
) -> list[str]:
    """One term per picker row that has ``column``: ``chosen(value)`` of a choice table's picked row,
    ``ticked(is_ticked, value)`` for each row of a toggle table."""
    situation = pickers(rules, block)
    return column_terms(
        rules,
        situation,
        column,
        lambda table_id: chosen(picked(situation, table_id, column)),
        lambda box, value: ticked(f"{box}=TRUE", value),
    )


def situation_sum(rules: RuleSet, block: Resolution, column: str) -> str:
    """What the picked rows add up to in ``column`` (``resolution.picked_situation``)."""
    terms = picked_terms(rules, block, column, lambda v: f"N({v})", lambda tick, v: f"IF({tick},N({v}),0)")
    return "+".join(terms) or "0"


def situation_product(rules: RuleSet, block: Resolution, *columns: str) -> str:
    """The product of ``columns`` over the picked rows (1 where nothing is picked)."""
    terms = [
        term
        for column in columns
        for term in picked_terms(
            rules, block, column, lambda v: f"N({v})", lambda tick, v: f"IF({tick},N({v}),1)"
        )
    ]
    return "*".join(terms) or "1"


def situation_flag(rules: RuleSet, block: Resolution, column: str) -> str:
    """TRUE when a picked row has ``column`` ticked."""
    terms = picked_terms(rules, block, column, lambda v: f"{v}=TRUE", lambda tick, v: f"AND({tick},{v}=TRUE)")
    return f"OR({','.join(terms)})" if terms else "FALSE"


EFFECT_WORDS = (("hit", "to hit"), ("ac", "to AC"), ("damage", "damage"))


FLAG_WORDS = (
    ("advantage", "Advantage"),
    ("disadvantage", "Disadvantage"),
    ("cannot_hit", "cannot be hit"),
    ("needs_magic", "magic weapons only"),
    ("auto_hit", "hits automatically"),
)


def effect_text(table: Table, value_of: Callable[[str], str]) -> str:
    """A short text of what a row changes, read from its cells (``value_of(column)``): the numbers
    stay in the table sheet."""
    dice_columns = {c.id for c in table.columns if c.type == "modifier"}  # a number or dice (1d4)
    parts = [
        signed_dice(value_of(column), word)
        if column in dice_columns
        else f'IF(N({value_of(column)})=0,"",TEXT({value_of(column)},"+0;-0")&" {word} ")'
        for column, word in EFFECT_WORDS
        if column in table.column_ids
    ]
    for column in table.column_ids:
        if column == "damage_multiplier" or column.startswith(resolution_situation.stage_factor_column("")):
            factor = value_of(column)
            parts.append(f'IF(N({factor})=1,"","damage x"&{factor}&" ")')
        elif column.startswith(resolution_situation.stage_round_up_column("")):
            parts.append(f'IF({value_of(column)}=TRUE,"rounded up ","")')
    parts += [
        f'IF({value_of(column)}=TRUE,"{word} ","")'
        for column, word in FLAG_WORDS
        if column in table.column_ids
    ]
    return f"TRIM({'&'.join(parts)})" if parts else '""'


def signed_dice(value: str, word: str) -> str:
    """'+2 to hit ', '+1d4 to hit ', '-1d4 to hit ' or nothing, for a cell holding a number or dice."""
    number = f'IF({value}=0,"",TEXT({value},"+0;-0")&" {word} ")'
    dice = f'IF({value}="","",IF(LEFT({value},1)="-","","+")&{value}&" {word} ")'
    return f"IF(ISNUMBER({value}),{number},{dice})"


def write_pickers(book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, top: int) -> int:
    put(sheet.cell(top, OUT_LABEL), "The situation").font = SUBTITLE
    put(sheet.cell(top, NOTE_COLUMN), "what it changes").font = NOTE
    row = top + 1
    for table in picker_tables(rules, block):
        if table.picker == "choice":
            put(sheet.cell(row, OUT_LABEL), table.title)
            name = pick_name(table.id)
            put_input(
                book,
                sheet,
                row,
                OUT_COLUMN,
                name,
                str(table.rows[0].label),
                f"pick from the list ({table.title})",
            )
            add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, f"={table_name(table.id, 'label')}")
            chosen = effect_text(
                table, lambda column, name=name, table_id=table.id: by_label(table_id, column, name)
            )
            put_formula(sheet.cell(row, NOTE_COLUMN), chosen).font = NOTE
            row += 1
            continue
        put(sheet.cell(row, OUT_LABEL), f"{table.title} (tick what applies)").font = BOLD
        row += 1
        for entry in table.rows:
            put(sheet.cell(row, OUT_LABEL), str(entry.label)).alignment = WRAP
            name = pick_name(table.id, str(entry.id))
            put_input(book, sheet, row, OUT_COLUMN, name, False, "TRUE when it applies, FALSE when not")
            add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, "TRUE,FALSE")
            ticked = effect_text(
                table, lambda column, entry=entry, table_id=table.id: const(table_id, str(entry.id), column)
            )
            put_formula(sheet.cell(row, NOTE_COLUMN), ticked).font = NOTE
            row += 1
    return row
