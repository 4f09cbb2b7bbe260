"""What a GM picked in a calculator's picker tables (``picker: choice`` / ``toggle``, tables/README.md).

One function per job, shared by every ruleset's calculator and by the generic engine's situation
(``pycalc.resolution``): a choice table's default, the row picked in it, the rows ticked in a toggle
table, every picked row with its table, and whether a flag column is ticked in any of them.
``choices`` maps a choice table's id to the picked row's label; ``toggles`` holds the
(table id, row id) pairs ticked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycalc.errors import not_in_list
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
