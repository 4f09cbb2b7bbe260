"""Reading a block of ``ruleset.yaml`` (``resolution:``, ``encounter:``): values that are literals,
``table.entry[.column]`` cells or ``{ruling: id, choices: {...}}``, and what they refer to.

Problems go to the loader's checker as ``file:line: what is wrong``; the references are recorded in
:class:`Uses` and checked once every table and ruling is loaded (``pycalc.resolution_refs``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pycalc.resolution_block import ByRuling, Ref
from pycalc.table_files import LocatedDict, _Checker, _kind

REFERENCE = re.compile(r"^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?$")


@dataclass
class Uses:
    """What the block refers to, checked once every table and ruling is loaded."""

    refs: list[tuple[Ref, str, str]] = field(default_factory=list)  # (ref, int|bool, what)
    rulings: list[tuple[ByRuling, str]] = field(default_factory=list)  # (use, what)
    tables: list[tuple[str, int, str, dict[str, tuple[str, ...]], str]] = field(default_factory=list)
    pickers: list[tuple[str, int]] = field(default_factory=list)
    formula_names: list[tuple[str, int, str]] = field(default_factory=list)
    situation: list[tuple[str, str | None, int, str]] = field(default_factory=list)  # (table, column, ...)
    situation_kinds: list[tuple[str | None, str, int, str]] = field(default_factory=list)  # (kind table, ...)
    # (gate, tables, kind table, line, what)
    situation_gate: list[tuple[str, tuple[str, ...], str | None, int, str]] = field(default_factory=list)
    situation_rulings: list[tuple[str, int, str]] = field(default_factory=list)
    number_flags: list[tuple[str, int, str]] = field(default_factory=list)  # (a typed number's when, ...)
    row_columns: list[tuple[str, int, str]] = field(
        default_factory=list
    )  # (not_with's or also_counts' column, ...)
    chart_formulas: list[tuple[str, str, int]] = field(default_factory=list)  # (table, column, line)
    own_roll_charts: list[tuple[str, int, str]] = field(default_factory=list)  # (table, line, what)


Parse = Callable[[Any, int, str], Any]


class BlockParser:
    """Reads the values of a ``ruleset.yaml`` block (problems go to ``check``; what the values refer to
    goes to ``uses``, checked once the tables are loaded)."""

    def __init__(self, check: _Checker) -> None:
        self.check = check
        self.uses = Uses()

    # ---- values

    def by_ruling(self, parse: Parse) -> Parse:
        """``parse``, or a ``{ruling: id, choices: {...}}`` whose every choice ``parse`` reads."""

        def read(raw: Any, line: int, what: str) -> Any:
            if not (isinstance(raw, LocatedDict) and "ruling" in raw):
                return parse(raw, line, what)
            self.check.keys(raw, {"ruling", "choices"}, {"ruling", "choices"}, f"{what} (by ruling)")
            ruling_line = raw.value_lines.get("ruling", raw.line)
            ruling = self.check.ident(raw.get("ruling"), ruling_line, f"{what} ruling")
            choices_line = raw.value_lines.get("choices", raw.line)
            choices = self.check.mapping(raw.get("choices"), choices_line, f"{what} choices") or LocatedDict()
            parsed = {
                str(choice): parse(item, choices.value_lines[choice], f"{what} (ruling {ruling}: {choice})")
                for choice, item in choices.items()
            }
            use = ByRuling(ruling, parsed, choices_line)
            self.uses.rulings.append((use, what))
            return use

        return read

    def reference(self, raw: str, line: int, what: str, kind: str) -> Ref | None:
        match = REFERENCE.match(raw)
        if not match:
            self.check.fail(
                line, f"{what} {raw!r} is not a table reference (write table.entry or table.entry.column)"
            )
            return None
        ref = Ref(match.group(1), match.group(2), match.group(3) or "value", line)
        self.uses.refs.append((ref, kind, what))
        return ref

    def number(self, raw: Any, line: int, what: str) -> Any:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if isinstance(raw, str):
            return self.reference(raw, line, what, "int")
        self.check.fail(line, f"{what} must be a whole number or a table.entry reference, got {_kind(raw)}")
        return 0

    def flag(self, raw: Any, line: int, what: str) -> Any:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str):
            return self.reference(raw, line, what, "bool")
        self.check.fail(
            line, f"{what} must be true, false or a table.entry.column reference, got {_kind(raw)}"
        )
        return False

    def text(self, raw: Any, line: int, what: str) -> Any:
        """A text column of a table: a ``table.entry.column`` reference (a text written out would be a
        number in the sheet's formulas, not the table's)."""
        if isinstance(raw, str):
            return self.reference(raw, line, what, "text")
        self.check.fail(
            line, f"{what} must be a table.entry.column reference to a text column, got {_kind(raw)}"
        )
        return None

    def choice(self, options: tuple[str, ...]) -> Parse:
        def read(raw: Any, line: int, what: str) -> Any:
            if raw not in options:
                self.check.fail(line, f"{what} {raw!r} must be one of {', '.join(options)}")
                return options[0]
            return raw

        return read

    def get(self, data: LocatedDict, key: str, parse: Parse, what: str, default: Any = None) -> Any:
        if key not in data:
            return default
        return self.by_ruling(parse)(data[key], data.value_lines[key], f"{what}.{key}")

    def table_id(self, raw: Any, line: int, what: str, kind: str, columns: dict[str, tuple[str, ...]]) -> str:
        table = self.check.ident(raw, line, what)
        self.uses.tables.append((table, line, kind, columns, what))
        return table

    def column_id(self, data: LocatedDict, key: str, what: str) -> str | None:
        if key not in data:
            return None
        return self.check.ident(data[key], data.value_lines[key], f"{what}.{key}")
