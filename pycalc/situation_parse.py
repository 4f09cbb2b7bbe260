"""Parsing the ``situation:`` declaration of a ``resolution:`` block: how the rows picked in the
calculator's picker tables add up (``pycalc.pickers.added_up``; tables/README.md, "The resolution
block", ``situation``).

Its tables, columns, kinds, gate and rulings are recorded in ``uses`` and checked once the tables are
loaded (``pycalc.resolution_refs``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pycalc.block_parser import BlockParser
from pycalc.resolution_block import (
    NONE,
    NUMBER_KEYS,
    NUMBER_OF,
    NUMBER_PARTS,
    OWN,
    ROSTER_NUMBERS,
    SITUATION_KEYS,
    Adding,
    TypedNumber,
)
from pycalc.table_files import LocatedDict, LocatedList


class SituationParser(BlockParser):
    """The situation beside a list of ``modifiers``: its attack kinds (``kind_table``, ``only``,
    ``gate``), rulings (``ruled``), row rules (``not_with``, ``also_counts``, ``worse_of``) and typed
    numbers."""

    def situation_table(self, raw: Any, line: int, what: str, column: str | None = None) -> str:
        table = self.check.ident(raw, line, what)
        self.uses.situation.append((table, column, line, what))
        return table

    def situation(self, raw: Any, line: int, what: str, modifiers: Any = OWN) -> Adding | None:
        """Beside a list of ``modifiers`` tables (which add up by column name): the gates, the rulings
        and the row rules over tables of that list, and the numbers typed beside them."""
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        if modifiers == OWN:
            self.check.fail(line, f"{what} is read only beside a list of modifiers tables")
            return None
        self.listed_only(data, modifiers, what)
        kind_table = None
        if "kind_table" in data:
            kind_table = self.situation_table(
                data["kind_table"], data.value_lines["kind_table"], f"{what}.kind_table"
            )
        only = self.check.mapping(
            data.get("only", LocatedDict()), data.value_lines.get("only", line), f"{what}.only"
        )
        ruled = self.check.mapping(
            data.get("ruled", LocatedDict()), data.value_lines.get("ruled", line), f"{what}.ruled"
        )
        for table, kind in (only or {}).items():
            self.situation_table(table, only.key_lines[table], f"{what}.only table")
            self.uses.situation_kinds.append(
                (kind_table, str(kind), only.value_lines[table], f"{what}.only.{table}")
            )
        for table, ruling in (ruled or {}).items():
            self.situation_table(table, ruled.key_lines[table], f"{what}.ruled table")
            ruling_line = ruled.value_lines[table]
            self.uses.situation_rulings.append(
                (
                    self.check.ident(ruling, ruling_line, f"{what}.ruled.{table}"),
                    ruling_line,
                    f"{what}.ruled.{table}",
                )
            )
        numbers: tuple[TypedNumber, ...] = ()
        if "numbers" in data:
            numbers = self.typed_numbers(data["numbers"], data.value_lines["numbers"], f"{what}.numbers")
        not_with = self.get(data, "not_with", self.row_column, what)
        also_counts = self.get(data, "also_counts", self.row_column, what)
        worse_of = self.get(data, "worse_of", self.worse_tables, what)
        gate = self.column_id(data, "gate", what)
        if gate is not None:
            named = tuple(dict.fromkeys(table for table, _, _, _ in self.uses.situation))
            named += tuple(table for table, _ in self.uses.pickers)
            self.uses.situation_gate.append(
                (gate, named, kind_table, data.value_lines["gate"], f"{what}.gate")
            )
        return Adding(
            kind_table=kind_table,
            only={str(table): str(kind) for table, kind in (only or {}).items()},
            gate=gate,
            ruled={str(table): str(ruling) for table, ruling in (ruled or {}).items()},
            numbers=numbers,
            not_with=not_with,
            also_counts=also_counts,
            worse_of=worse_of,
        )

    def row_column(self, raw: Any, line: int, what: str) -> str | None:
        """A picker column whose cells name rows of their own table (``not_with``, ``also_counts``), or
        ``none``."""
        if raw == NONE:
            return None
        column = self.check.ident(raw, line, what)
        self.uses.row_columns.append((column, line, what))
        return column

    def worse_tables(self, raw: Any, line: int, what: str) -> tuple[str, ...] | None:
        """Two or more picker tables whose picked rows do not add up, the lowest counting (``worse_of``),
        or ``none``."""
        if raw == NONE:
            return None
        if not isinstance(raw, LocatedList) or len(raw) < 2:
            self.check.fail(line, f"{what} must be a list of two or more picker table ids, or none")
            return None
        return tuple(
            self.situation_table(t, item_line, f"{what} table")
            for t, item_line in zip(raw, raw.item_lines, strict=True)
        )

    def typed_numbers(self, raw: Any, line: int, what: str) -> tuple[TypedNumber, ...]:
        """``id: {label, adds_to, times, when, help}`` for each number the GM types beside the pickers."""
        data = self.check.mapping(raw, line, what) or LocatedDict()
        found = []
        for key, given in data.items():
            number_id = self.check.ident(key, data.key_lines[key], f"{what} id")
            about = f"{what}.{number_id}"
            spec = self.check.mapping(given, data.value_lines[key], about)
            if spec is None:
                continue
            same_as = (
                self.check.ident(spec["same_as"], spec.value_lines["same_as"], f"{about}.same_as")
                if "same_as" in spec
                else None
            )
            if same_as is not None:
                for key in ("label", "of", "roster", "help"):
                    if key in spec:
                        self.check.fail(
                            spec.value_lines[key], f"{about}.{key}: a number same_as another has that one's"
                        )
            self.check.keys(spec, NUMBER_KEYS, {"adds_to"} if same_as else {"label", "adds_to"}, about)
            best_of = (
                self.check.ident(spec["best_of"], spec.value_lines["best_of"], f"{about}.best_of")
                if "best_of" in spec
                else None
            )
            adds_to = self.choice(NUMBER_PARTS)(
                spec.get("adds_to"), spec.value_lines.get("adds_to", spec.line), f"{about}.adds_to"
            )
            times = spec.get("times", 1)
            if isinstance(times, bool) or not isinstance(times, int) or times == 0:
                self.check.fail(
                    spec.value_lines.get("times", spec.line), f"{about}.times must be a whole number, not 0"
                )
                times = 1
            when = self.column_id(spec, "when", about)
            if when is not None:
                self.uses.number_flags.append((when, spec.value_lines["when"], f"{about}.when"))
            label = self.check.text(spec, "label", about) if "label" in spec else ""  # missing: said above
            of = None
            if "of" in spec:
                of = self.choice(NUMBER_OF)(spec["of"], spec.value_lines["of"], f"{about}.of")
            at_most = self.get(spec, "at_most", self.limit, about)
            if at_most is not None and when is None:
                self.check.fail(
                    spec.value_lines["at_most"], f"{about}.at_most limits the rows ticking 'when': name it"
                )
            help_text = self.check.text(spec, "help", about, "")
            roster = None
            if "roster" in spec:
                line = spec.value_lines["roster"]
                roster = self.choice(ROSTER_NUMBERS)(spec["roster"], line, f"{about}.roster")
                if of is None:
                    self.check.fail(line, f"{about}.roster is the attacker's or the defender's: give 'of'")
            found.append(
                TypedNumber(
                    number_id, label, adds_to, times, when, help_text, of, at_most, roster, same_as, best_of
                )
            )
        return self.same_as_checked(tuple(found), data)

    def same_as_checked(self, numbers: tuple[TypedNumber, ...], data: LocatedDict) -> tuple[TypedNumber, ...]:
        """Each ``same_as`` names a number of the block with a cell of its own (it takes that one's
        label); the numbers of a ``best_of`` group add to one sum."""
        own = {number.id: number for number in numbers if number.same_as is None}
        found = []
        for number in numbers:
            source = own.get(number.same_as or "")
            if number.same_as is not None and source is None:
                line = data[number.id].value_lines["same_as"]
                self.check.fail(
                    line, f"same_as: {number.same_as!r} is not a typed number with a cell of its own"
                )
            found.append(number if source is None else replace(number, label=source.label))
        groups: dict[str, str] = {}
        for number in found:
            part = groups.setdefault(number.best_of or "", number.adds_to)
            if number.best_of is not None and part != number.adds_to:
                line = data[number.id].value_lines["best_of"]
                self.check.fail(
                    line,
                    f"best_of: the numbers of {number.best_of!r} add to one sum, not {part} and {number.adds_to}",
                )
        return tuple(found)

    def limit(self, raw: Any, line: int, what: str) -> Any:
        """A whole number or table cell, or ``none`` (no limit: None)."""
        return None if raw == NONE else self.number(raw, line, what)

    def listed_only(self, data: LocatedDict, modifiers: Any, what: str) -> None:
        """Beside a list of ``modifiers`` tables the situation only gates them by the attack's kind
        (``kind_table``, one of them, with ``only`` or ``gate``) and reads columns by ruling (``ruled``),
        each over tables of that list."""
        gates = {"only", "gate"} & set(data)
        self.check.keys(data, SITUATION_KEYS, {"kind_table"} if gates else set(), what)
        listed = set(modifiers) if isinstance(modifiers, LocatedList) else set()
        named = [("kind_table", data.get("kind_table"), data.value_lines.get("kind_table", data.line))]
        for key in ("only", "ruled"):
            tables = data.get(key)
            if isinstance(tables, LocatedDict):
                named += [(f"{key}.{table}", table, tables.key_lines[table]) for table in tables]
        for key, table, table_line in named:
            if table is not None and table not in listed:
                self.check.fail(table_line, f"{what}.{key}: {table!r} is not one of resolution.modifiers")
