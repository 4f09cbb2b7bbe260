"""The attack log's Picks cell: the calculator's other picks typed by name, several to a cell
("charge, target prone"), so every pick the calculator offers is reachable from a log row within a
narrow column (``encounter.log_picks_by_name``; ``encounter.log_picks`` get a dropdown column each).

A pick's name is its row's id in words ("from behind"); where two of the tables share a row id, the
first word of the table's id goes before it ("attacker prone", "target prone"), or the whole id if that
is not enough. Names are read without case, spaces, underscores or hyphens, between commas: the
workbook's formulas compare the cell the same way (``normalized``), so the sheet and the model agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pycalc.encounter_block import encounter
from pycalc.tables import RuleSet

SEPARATOR = ","
IGNORED = (" ", "_", "-")  # left out of a name before comparing (the sheet's SUBSTITUTEs)
UNKNOWN = "#PICKS? a name not in the list, or two of one kind"


@dataclass(frozen=True)
class Pick:
    name: str  # as shown to the GM: "target prone"
    table_id: str
    row_id: str
    label: str  # the row's label (what a choice table's dropdown holds)
    toggle: bool  # a toggle table's box (else a choice table's row)


def normalized(text: str) -> str:
    """The text as names are compared: lower case, without the IGNORED characters."""
    text = text.lower()
    for ignored in IGNORED:
        text = text.replace(ignored, "")
    return text


def words(identifier: str) -> str:
    return identifier.replace("_", " ")


def by_name_tables(rules: RuleSet) -> tuple[str, ...]:
    """The picker tables typed by name: ``encounter.log_picks_by_name``, else (a ruleset worked out by
    its ``resolution:`` block alone) every picker of its modifiers without a column of its own."""
    block = encounter(rules)
    if block.log_picks_by_name is not None:
        return block.log_picks_by_name
    modifiers = rules.resolution_block.modifiers if rules.resolution_block else None
    return tuple(t for t in modifiers or () if rules.table(t).picker and t not in block.log_picks)


def named_picks(rules: RuleSet) -> list[Pick]:
    """Every pick of the ``by_name_tables``, in table and row order, each with its name (a choice
    table's first row left out: an empty cell picks it)."""
    tables = [rules.table(t) for t in by_name_tables(rules)]
    # a choice table's first row is what an empty cell picks: not named
    rows = [(t, row) for t in tables for row in (t.rows[1:] if t.picker == "choice" else t.rows)]
    shared = Counter(str(row.id) for _, row in rows)
    first_words = Counter((table.id.split("_")[0], str(row.id)) for table, row in rows)

    def name(table_id: str, row_id: str) -> str:
        if shared[row_id] == 1:
            return words(row_id)
        first = table_id.split("_")[0]
        if first_words[(first, row_id)] == 1:
            return f"{first} {words(row_id)}"
        return f"{words(table_id)} {words(row_id)}"

    return [
        Pick(name(table.id, str(row.id)), table.id, str(row.id), str(row.label), table.picker == "toggle")
        for table, row in rows
    ]


def typed_names(text: str) -> list[str]:
    """The names typed in a Picks cell, normalized; empty pieces (",,", a trailing comma) left out."""
    return [piece for piece in (normalized(p) for p in text.split(SEPARATOR)) if piece]


def row_picks(rules: RuleSet, text: str) -> ReadPicks:
    return read_picks(named_picks(rules), text)


@dataclass(frozen=True)
class ReadPicks:
    choices: dict[str, str]  # choice table id -> row label
    toggles: frozenset[tuple[str, str]]  # (toggle table id, row id) ticked
    unknown: tuple[str, ...]  # pieces naming no pick, one twice, or a second row of a choice table


def read_picks(picks: Iterable[Pick], text: str) -> ReadPicks:
    """What a Picks cell picks. A name not in the list, a name twice or two rows of one choice table
    make the whole cell unknown (as the sheet counts: names typed against picks found)."""
    by_name = {normalized(p.name): p for p in picks}
    typed = typed_names(text)
    counted = Counter(typed)
    unknown = [n for n in dict.fromkeys(typed) if n not in by_name or counted[n] > 1]
    choices: dict[str, str] = {}
    toggles = set()
    for name in dict.fromkeys(typed):
        pick = by_name.get(name)
        if pick is None:
            continue
        if pick.toggle:
            toggles.add((pick.table_id, pick.row_id))
        elif pick.table_id in choices:
            unknown.append(name)  # a second row of the same choice table
        else:
            choices[pick.table_id] = pick.label
    return ReadPicks(choices, frozenset(toggles), tuple(unknown))


def picks_list(picks: Iterable[Pick]) -> str:
    """The names a Picks cell takes, for the GM: "charge, from behind, ..." by table."""
    return ", ".join(p.name for p in picks)


def with_picks(choices: Mapping[str, str], read: ReadPicks) -> dict[str, str]:
    """The dropdown columns' choices with the Picks cell's (their tables are not the same)."""
    return {**read.choices, **choices}
