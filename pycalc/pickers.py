"""What a GM picked in a calculator's picker tables (``picker: choice`` / ``toggle``, tables/README.md).

One function per job, shared by every ruleset's calculator and by the generic engine's situation
(``pycalc.resolution``): a choice table's default, the row picked in it, the rows ticked in a toggle
table, every picked row with its table, and whether a flag column is ticked in any of them.
``choices`` maps a choice table's id to the picked row's label; ``toggles`` holds the
(table id, row id) pairs ticked.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycalc.errors import not_in_list
from pycalc.resolution_block import ANY, MELEE, RANGED, Adding, Columns, named_pick, value
from pycalc.table_files import roll_dice
from pycalc.tables import Row, RuleSet, Table

Choices = Mapping[str, str]
Toggles = Iterable[tuple[str, str]]
Pick = tuple[str, Row]  # a picked row with its table's id


def default_choice(table: Table) -> str:
    """A choice table's row until the GM picks one: its first (tables/README.md)."""
    return str(table.rows[0].label)


def chosen_row(rules: RuleSet, choices: Choices, table_id: str) -> Row:
    """The row picked in a choice table (its default until one is picked); a label not in the
    table is the list's message."""
    table = rules.table(table_id)
    label = choices.get(table_id, default_choice(table))
    try:
        return table.by_label(label)
    except KeyError:
        raise not_in_list(table.title, (row.label for row in table.rows)) from None


def ticked_rows(rules: RuleSet, toggles: Toggles, table_id: str) -> list[Row]:
    """The rows ticked in a toggle table, in the table's order."""
    ticked = set(toggles)
    return [row for row in rules.table(table_id).rows if (table_id, row.id) in ticked]


def picked(rules: RuleSet, choices: Choices, toggles: Toggles, table_ids: Iterable[str]) -> list[Pick]:
    """Every picked row with its table, in the order of ``table_ids``: a choice table's picked row, a
    toggle table's ticked rows (each table read as its ``picker:`` says)."""
    ticked = set(toggles)
    found: list[Pick] = []
    for table_id in table_ids:
        if rules.table(table_id).picker == "choice":
            found.append((table_id, chosen_row(rules, choices, table_id)))
        else:
            found += [(table_id, row) for row in ticked_rows(rules, ticked, table_id)]
    return found


def flagged(rows: Iterable[Row], column: str) -> bool:
    """Whether any of the rows ticks the flag ``column`` (a row without it does not)."""
    return any(row.values.get(column) is True for row in rows)


# --------------------------------------------------------------------------- adding the picked rows up


@dataclass(frozen=True)
class Totals:
    """What the picked rows add up to, by the parts of an :class:`Adding`."""

    kinds: frozenset[str]  # the picked attack kind's words (its id, melee or ranged)
    sums: Mapping[str, int]
    products: Mapping[str, Fraction]
    flags: Mapping[str, bool]
    counted: tuple[Pick, ...] = ()  # the picked rows that count for the picked kind


def attack_kinds(kind: Row) -> frozenset[str]:
    """The words a table or row names the picked attack kind by: its id, and melee or ranged where
    the kind table has a ``ranged`` column."""
    ranged = kind.values.get("ranged")
    return frozenset({str(kind.id)} | ({RANGED if ranged else MELEE} if ranged is not None else set()))


def counts(adding: Adding, kinds: frozenset[str], table_id: str, row: Row) -> bool:
    """Whether a picked row counts for an attack of these kinds (its table's ``only``, its gate)."""
    only = adding.only.get(table_id)
    gate = row.values.get(adding.gate) if adding.gate else None
    return only in (None, ANY, *kinds) and gate in (None, "", ANY, *kinds)


def ruled_variants(rules: RuleSet, adding: Adding, table_id: str, column: str) -> dict[str, str]:
    """The choices of the table's ruling (``ruled``) that read another column, ``<column>_<choice>``,
    where the table has it, and that column."""
    ruling_id = adding.ruled.get(table_id)
    if ruling_id is None:
        return {}
    columns = rules.table(table_id).column_ids
    return {c: f"{column}_{c}" for c in rules.rulings[ruling_id].choices if f"{column}_{c}" in columns}


def ruled_values(rules: RuleSet, adding: Adding, table_id: str, row: Row) -> Mapping[str, Any]:
    """A picked row's cells as the choice in force of its table's ruling (``ruled``) reads them: each
    column that has a variant for that choice (``<column>_<choice>``) reads the variant."""
    ruling_id = adding.ruled.get(table_id)
    if ruling_id is None:
        return row.values
    suffix = f"_{rules.ruling(ruling_id)}"
    variants = [c for c in rules.table(table_id).column_ids if c.endswith(suffix)]
    return {**row.values, **{c[: -len(suffix)]: row.values.get(c) for c in variants}}


def whole_sum(values: Iterable[Any]) -> int:
    """Picked values added up as a sum part: an empty one counts 0, dice (rolled apart) nothing."""
    return sum(int(value or 0) for value in values if roll_dice(value) is None)


def flagged_sum(rules: RuleSet, adding: Adding, counted: Iterable[Pick], flag: str, column: str) -> int:
    """``column`` added up over the counted picks that tick the flag column ``flag``."""
    cells = [ruled_values(rules, adding, table_id, row) for table_id, row in counted]
    return whole_sum(values.get(column) for values in cells if values.get(flag) is True)


def declared(rules: RuleSet) -> Adding:
    """The ruleset's ``situation:`` declaration (its resolution block, tables/README.md)."""
    block = rules.resolution_block
    if block is None or block.situation is None:
        raise KeyError(f"{rules.id}: the resolution block declares no situation")
    return block.situation


def not_with(rules: RuleSet, adding: Adding, picks: list[Pick], kinds: frozenset[str]) -> list[Pick]:
    """The picks less each row that names in the column ``not_with`` another picked row that counts for
    the attack's ``kinds`` (while the rulings put one in force)."""
    column = value(rules, adding.not_with)
    if column is None:
        return picks
    ids = {(table_id, row.id) for table_id, row in picks if counts(adding, kinds, table_id, row)}
    block = rules.resolution_block
    situated = [rules.table(table_id) for table_id in (block.modifiers if block else None) or ()]
    return [
        (t, row)
        for t, row in picks
        if not (named := row.values.get(column)) or named_pick(situated, t, str(named)) not in ids
    ]


def also_counted(rules: RuleSet, adding: Adding, counted: list[Pick]) -> list[Pick]:
    """The counted picks, each followed by the row of its table it names in the column ``also_counts``
    (while the rulings put one in force)."""
    column = value(rules, adding.also_counts)
    if column is None:
        return counted
    found = []
    for table_id, row in counted:
        named = row.values.get(column)
        found += [(table_id, row)] + ([(table_id, rules.table(table_id).entry(str(named)))] if named else [])
    return found


def counted_picks(rules: RuleSet, adding: Adding, picks: Iterable[Pick]) -> tuple[frozenset[str], list[Pick]]:
    """The picked attack kind's words and the picked rows (the kind table's among them) that count
    for it, with the rows they also count (``not_with``, ``also_counts``)."""
    picks = list(picks)
    kind = next((row for table_id, row in picks if table_id == adding.kind_table), None)
    kinds = frozenset() if kind is None else attack_kinds(kind)
    found = not_with(rules, adding, picks, kinds)
    counted = [(table_id, row) for table_id, row in found if counts(adding, kinds, table_id, row)]
    return kinds, also_counted(rules, adding, counted)


def worse_sum(cells: list[tuple[str, Mapping[str, Any]]], columns: Columns, worse: Iterable[str]) -> int:
    """A sum part over the counted rows: their ``columns`` added up, but of the rows of the tables
    ``worse`` that have the column only the lowest value."""
    apart = set(worse)
    added = [values.get(columns[t]) for t, values in cells if t in columns and t not in apart]
    lowest = [
        whole_sum([values[columns[t]]]) for t, values in cells if t in apart and columns.get(t) in values
    ]
    return whole_sum(added) + min(lowest, default=0)


def added_up(rules: RuleSet, adding: Adding, picks: Iterable[Pick]) -> Totals:
    """The picked rows (``picked``, the kind table's among them) added up as ``adding`` declares."""
    kinds, counted = counted_picks(rules, adding, picks)
    cells = [(table_id, ruled_values(rules, adding, table_id, row)) for table_id, row in counted]
    worse = value(rules, adding.worse_of) or ()

    def given(columns: Columns) -> list[Any]:
        return [values.get(columns[table_id]) for table_id, values in cells if table_id in columns]

    return Totals(
        kinds,
        {part: worse_sum(cells, columns, worse) for part, columns in adding.sums.items()},
        {
            part: math.prod((Fraction(str(v)) for v in given(columns) if v is not None), start=Fraction(1))
            for part, columns in adding.products.items()
        },
        {part: any(value is True for value in given(columns)) for part, columns in adding.flags.items()},
        tuple(counted),
    )
