"""The situation pickers of the generic Attack calculator written under its roll block: a row per
picker table or toggle with a note of what the picked row changes, then a row per number the GM types
(``situation.numbers``) with a note of what it does now. The formulas they add up to are
``pycalc.sheets.d20_pickers``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import pickers, resolution_situation
from pycalc.resolution_block import (
    ANY,
    MELEE,
    RANGED,
    ByRuling,
    Resolution,
    TypedNumber,
    cell_of,
    target_kind,
    typed_cells,
    typed_numbers,
)
from pycalc.resolution_block import value as block_value
from pycalc.resolution_situation import flag_label
from pycalc.sheets.block_formulas import by_choice, expr, literal
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
from pycalc.sheets.d20_cells import number_name
from pycalc.sheets.d20_layout import (
    NOTE_COLUMN,
    OUT_COLUMN,
    OUT_LABEL,
    ROLL_COLUMN,
    put_input,
    whole_number_check,
)
from pycalc.sheets.d20_pickers import (
    also_terms,
    best_of_group,
    kind_columns,
    picker_tables,
    situation_flag,
    typed_counted,
)
from pycalc.sheets.d20_range import write_range_inputs
from pycalc.sheets.formulas import by_label, const, q
from pycalc.sheets.situation_cells import by_id, pick_name, ruled_value
from pycalc.tables import RuleSet, Table

# each part of a note starts with it: "+2 to hit, damage x2, melee only" once the first one's is cut
SEPARATOR = ", "
EFFECT_WORDS = (("hit", "to hit"), ("ac", "to AC"), ("damage", "damage"))
PART_WORDS = dict(EFFECT_WORDS)  # a typed number's adds_to -> what the notes call it


FLAG_WORDS = (
    ("advantage", "Advantage"),
    ("disadvantage", "Disadvantage"),
    ("cannot_hit", "cannot be hit"),
    ("needs_magic", "magic weapons only"),
    ("auto_hit", "hits automatically"),
    ("no_attack", "no attack possible"),
    ("critical_as_hit", "a critical deals a hit's damage"),
)


def kind_words(rules: RuleSet, block: Resolution, table: Table, value_of: Callable[[str], str]) -> list[str]:
    """The note's words on attack kinds (``situation``): a kind's melee or ranged, or "ranged only" (the
    kind's label for one kind) for a row that counts for one kind only (its gate cell); a gate of the
    word melee or ranged that several kinds share says the word, even where a kind's id is that word
    (cnc's Melee (armed), id melee: "melee only" counts for every melee kind)."""
    gating = block.situation
    if gating is None or gating.kind_table is None:
        return []
    if table.id == gating.kind_table and "ranged" in table.column_ids:
        return [f'IF({value_of("ranged")}=TRUE,", {RANGED} attack",", {MELEE} attack")']
    if gating.gate not in table.column_ids:
        return []
    gate = value_of(str(gating.gate))
    kind = f"IFERROR({by_id(gating.kind_table, 'label', gate)},{gate})"
    kinds = rules.table(gating.kind_table).rows
    shared = [w for w in (MELEE, RANGED) if sum(pickers.attack_kinds(k) >= {w} for k in kinds) > 1]
    if shared:
        kind = f"IF(OR({','.join(f'{gate}={q(w)}' for w in shared)}),{gate},{kind})"
    return [f'IF(OR({gate}="",{gate}="{ANY}"),"",", "&{kind}&" only")']


def notes_words(rules: RuleSet, block: Resolution, table: Table, value_of: Callable[[str], str]) -> list[str]:
    """The note's words after the numbers: the factor of a stage the row ticks (its ``when``: "damage
    x2"), the flags a typed number counts while (its ``when``: "loses Dex to AC"), then the attack
    kinds (``kind_words``)."""
    stages = [stage for stage in block.damage.multipliers if stage.when in table.column_ids]
    said = [
        f'IF({value_of(str(stage.when))}=TRUE,", damage x"&{by_choice(stage.factor, literal)},"")'
        for stage in stages
    ]
    flags = dict.fromkeys(number.when for number in typed_numbers(block) if number.when in table.column_ids)
    labels = {c.id: str(c.label) for c in table.columns}
    said += [f'IF({value_of(str(flag))}=TRUE,", {labels[str(flag)]}","")' for flag in flags]
    return said + kind_words(rules, block, table, value_of)


def only_words(rules: RuleSet, block: Resolution, table: Table) -> str:
    """What a table's title adds when it counts for one attack kind only: " (ranged attacks only)"."""
    only = block.situation.only.get(table.id) if block.situation else None
    if only in (None, ANY):
        return ""
    if only in (MELEE, RANGED):
        return f" ({only} attacks only)"
    assert block.situation is not None and block.situation.kind_table is not None
    return f" ({rules.table(block.situation.kind_table).entry(only).label} only)"


def ac_words(block: Resolution, value: str, kind: str = "") -> str:
    """A row's AC change in a note: "+2 to AC" (``kind``: "+4 to AC (ranged)"); where the GM types the
    number needed, the change of that number it makes ("+2 to the number needed", the block's
    ``ac_change`` per point); an AC change a ruling leaves uncounted (``ac_change`` 0) says so ("AC -2
    (not counted by the ruling)")."""
    factor = expr(block.ac_change)
    signed = f'TEXT({value},"+0;-0")'
    uncounted = f'", AC "&{signed}&" (not counted by the ruling){kind}"'
    if target_kind(block) == "number_needed":
        counted = f'", "&TEXT(({value})*({factor}),"+0;-0")&" to the number needed{kind}"'
    else:
        counted = f'", "&{signed}&" to AC{kind}"'
    said = counted if factor == "1" else f"IF(({factor})=0,{uncounted},{counted})"
    return f'IF(SUM({value})=0,"",{said})'


def effect_text(
    block: Resolution,
    table: Table,
    value_of: Callable[[str], str],
    gated: Sequence[str] = (),
    sum_of: Callable[[str], str] | None = None,
) -> str:
    """A short text of what a row changes, read from its cells (``value_of(column)``; the sums to hit,
    AC and damage from ``sum_of``, which may add what the row also counts), then ``gated``
    (``kind_words``): the numbers stay in the table sheet. SUM, not N, reads a number that may be an
    empty cell (Gnumeric's N of an empty cell is #NUM!)."""
    sum_of = sum_of or value_of
    dice_columns = {c.id for c in table.columns if c.type == "modifier"}  # a number or dice (1d4)
    parts = [
        signed_dice(sum_of(column), f"{word}{kind}")
        if column in dice_columns
        else ac_words(block, sum_of(column), kind)
        if part == "ac"
        else f'IF(SUM({sum_of(column)})=0,"",", "&TEXT({sum_of(column)},"+0;-0")&" {word}{kind}")'
        for part, word in EFFECT_WORDS
        for column, kind in kind_columns(table, part)
    ]
    if resolution_situation.DICE_COLUMN in table.column_ids:  # a weapon's dice, in place of those typed
        dice = value_of(resolution_situation.DICE_COLUMN)
        parts.append(f'IF({dice}&""="","",", damage "&{dice})')
    for column in table.column_ids:
        if column == "damage_multiplier" or column.startswith(resolution_situation.stage_factor_column("")):
            factor = value_of(column)
            parts.append(f'IF(OR({factor}&""="",SUM({factor})=1),"",", damage x"&{factor})')
        elif column.startswith(resolution_situation.stage_round_up_column("")):
            parts.append(f'IF({value_of(column)}=TRUE,", rounded up","")')
    parts += [
        f'IF({value_of(column)}=TRUE,", {word}{kind}","")'
        for flag, word in FLAG_WORDS
        for column, kind in kind_columns(table, flag)
    ]
    parts += gated
    # each part starts with its ", ": the first one's is cut (one copy of the parts: a formula's length is bounded)
    return f'REPLACE({"&".join(parts)},1,LEN("{SEPARATOR}"),"")' if parts else '""'


def row_note(rules: RuleSet, block: Resolution, table: Table, value_of: Callable[[str], str]) -> str:
    """The note beside a pick: what the row changes as the calculator reads it, each column by the
    ruling in force (``situation.ruled``), its sums with the row it also counts (``also_counts``), and
    whether it makes the damage subdual (the encounter block's ``subdual_picks``, in its column's label)."""

    def ruled(column: str) -> str:
        return ruled_value(rules, block.situation, table.id, column, value_of)

    def summed(column: str) -> str:
        also = also_terms(
            rules,
            block,
            table,
            "TRUE",
            value_of,
            lambda counts, named: (
                f"IF({counts},SUM({ruled_value(rules, block.situation, table.id, column, named)}),0)"
            ),
        )
        return ruled(column) if not also else f"({'+'.join([f'SUM({ruled(column)})', *also])})"

    labels = {c.id: str(c.label) for c in table.columns}
    subdual = [  # in the column's words: "non-lethal damage"
        f'IF({ruled(column)}=TRUE,", {labels[column][:1].lower()}{labels[column][1:]}","")'
        for table_id, column in subdual_columns(rules)
        if table_id == table.id
    ]
    return effect_text(block, table, ruled, [*subdual, *notes_words(rules, block, table, value_of)], summed)


def subdual_columns(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The (table, column) picks that make the damage subdual (the encounter block's ``subdual_picks``)."""
    encounter = rules.encounter_block
    kinds = None if encounter is None else encounter.damage_kinds
    return () if kinds is None else tuple(kinds.subdual_picks)


def signed_dice(value: str, word: str) -> str:
    """', +2 to hit', ', +1d4 to hit', ', -1d4 to hit' or nothing, for a cell holding a number or dice."""
    number = f'IF({value}=0,"",", "&TEXT({value},"+0;-0")&" {word}")'
    dice = f'IF({value}="","",", "&IF(LEFT({value},1)="-","","+")&{value}&" {word}")'
    return f"IF(ISNUMBER({value}),{number},{dice})"


def write_pickers(book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, top: int) -> int:
    put(sheet.cell(top, OUT_LABEL), "The situation").font = SUBTITLE
    put(sheet.cell(top, NOTE_COLUMN), "what it changes").font = NOTE
    row = top + 1
    for table in picker_tables(rules, block):
        if table.picker == "choice":
            put(sheet.cell(row, OUT_LABEL), table.title + only_words(rules, block, table))
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
            value_of = partial(by_label, table.id, label_expr=name)
            chosen = row_note(rules, block, table, value_of)
            put_formula(sheet.cell(row, NOTE_COLUMN), chosen).font = NOTE
            row += 1
            continue
        put(
            sheet.cell(row, OUT_LABEL), f"{table.title}{only_words(rules, block, table)} (tick what applies)"
        ).font = BOLD
        row += 1
        for entry in table.rows:
            put(sheet.cell(row, OUT_LABEL), str(entry.label)).alignment = WRAP
            name = pick_name(table.id, str(entry.id))
            put_input(book, sheet, row, OUT_COLUMN, name, False, "TRUE when it applies, FALSE when not")
            add_list(sheet, sheet.cell(row, OUT_COLUMN).coordinate, "TRUE,FALSE")
            value_of = partial(const, table.id, str(entry.id))
            ticked = row_note(rules, block, table, value_of)
            put_formula(sheet.cell(row, NOTE_COLUMN), ticked).font = NOTE
            row += 1
    return write_typed_numbers(book, sheet, rules, block, row)


TYPED_RANGE = (-99, 99)  # what a typed number's cell takes
BELOW_CHART = 26  # the first row under the calculator's damage chart (common.CALCULATOR_CHART_ANCHOR, _SIZE)


def typed_note(rules: RuleSet, block: Resolution, number: TypedNumber) -> str:
    """What the typed number does now, in each of its uses (its own and those ``same_as`` it)."""
    uses = [use_note(rules, block, use) for use in typed_numbers(block) if cell_of(use) == number.id]
    return '&"; "&'.join(uses)


def use_note(rules: RuleSet, block: Resolution, number: TypedNumber) -> str:
    """What one use of a typed number does now: '-2 to AC (Loses Dex to AC)', or why it does not
    count (its flag not picked, or a higher number of its ``best_of`` group counts instead)."""
    word = PART_WORDS[number.adds_to]
    value = typed_counted(rules, block, number)
    counted = f'TEXT({value},"+0;-0")&" {word}"'
    if number.when is None:
        return counted
    label = flag_label(rules, number.when)
    if number.best_of is not None:
        best = best_of_group(rules, block, number.best_of)
        counted = f'IF({value}>={best},{counted}&" ({label})","{label}: a higher number counts")'
    else:
        counted = f'{counted}&" ({label})"'
    flag = situation_flag(rules, block, number.when)
    return f'IF({flag},{counted},"counts with: {label}")'


def typed_help(rules: RuleSet, block: Resolution, number: TypedNumber) -> str:
    word = PART_WORDS[number.adds_to]
    counts = f"counts {'' if number.times == 1 else f'{number.times} times '}{word}"
    if number.when is not None:
        counts += f" while a pick says {flag_label(rules, number.when)}"
    if isinstance(number.at_most, ByRuling):
        counts += f", no further than the ruling '{rules.rulings[number.at_most.ruling].label}' allows"
    elif number.at_most is not None:
        counts += f", no further than bringing those rows to {int(block_value(rules, number.at_most)):+d}"
    return f"{number.help}; {counts}" if number.help else counts


def write_typed_numbers(book: Workbook, sheet: Worksheet, rules: RuleSet, block: Resolution, row: int) -> int:
    """A row per typed number (``situation.numbers``) under the pickers, under a heading of their own:
    its label and its cell in the columns of the rolls, what it does now beside them. Never in the
    pickers' column: AutoInput would complete a typed 1 into the damage dice text there ("1d8")."""
    numbers = typed_cells(block)
    if numbers or block.range is not None:
        row = max(row, BELOW_CHART)
        put(sheet.cell(row, 1), "Numbers for the situation (0: none)").font = BOLD
        row += 1
    for number in numbers:
        put(sheet.cell(row, 1), number.label).alignment = WRAP
        put_input(book, sheet, row, ROLL_COLUMN, number_name(number.id), 0, typed_help(rules, block, number))
        whole_number_check(sheet, sheet.cell(row, ROLL_COLUMN).coordinate, *TYPED_RANGE, number.label)
        put_formula(sheet.cell(row, OUT_LABEL), typed_note(rules, block, number)).font = NOTE
        row += 1
    return write_range_inputs(book, sheet, block, row)
