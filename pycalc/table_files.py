"""Read and validate the table files ``tables/<ruleset>/*.yaml`` (``pycalc.tables`` loads a whole
ruleset folder from them).

YAML is read with PyYAML's SafeLoader (a subclass that only records line numbers and refuses
duplicate keys), over libyaml's parser when PyYAML has it. Every problem is reported as
``tables/<id>/<file>.yaml:LINE: what is wrong``. See ``tables/README.md`` for the format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from pycalc.encounter_block import EncounterRules
    from pycalc.resolution_block import Resolution

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RULESET_IDS = ("cnc", "osr", "combat17", "spelljammer", "bfrpg")
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
DICE_PATTERN = re.compile(r"^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
ROLL_DICE_PATTERN = re.compile(r"^(-?)(\d+)d(\d+)$")  # a modifier column's dice: 1d4, -1d4
COLUMN_TYPES = ("int", "number", "text", "bool", "dice", "outcome", "modifier")
TABLE_KINDS = ("bands", "entries")
PICKERS = ("choice", "toggle")
# The cheat sheet's blocks, in the order a round is played (a table's `cheatsheet:` names its block)
CHEATSHEET_BLOCKS = (
    "initiative",
    "attack",
    "situation",
    "results",
    "damage",
    "hit_points",
    "stun",
    "conditions",
    "morale",
)
CHEATSHEET_KEYS = {"block", "order", "rule", "rows", "columns"}
RULE_FIELD = re.compile(r"\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}")  # {entry} or {entry.column}
OUTCOME_TABLE = "outcomes"


def tables_dir() -> Path:
    """The folder holding one sub-folder of YAML per ruleset (``PYCALC_TABLES`` overrides)."""
    return Path(os.environ.get("PYCALC_TABLES", PROJECT_ROOT / "tables"))


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class TableProblem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class TableError(ValueError):
    """One or more problems in the YAML tables; ``str()`` lists them one per line."""

    def __init__(self, problems: list[TableProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple[type[TableError], tuple[list[TableProblem]]]:
        return (TableError, (self.problems,))  # raised in a build worker, read by build.py


# --------------------------------------------------------------------------- YAML with lines


class LocatedDict(dict):
    """A mapping that remembers the line of each key's value (1-based) and its own line."""

    line: int
    value_lines: dict[str, int]
    key_lines: dict[str, int]


class LocatedList(list):
    line: int
    item_lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that keeps line numbers and refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> LocatedDict:
        self.flatten_mapping(node)
        result = LocatedDict()
        result.line = node.start_mark.line + 1
        result.value_lines = {}
        result.key_lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in result:
                raise yaml.MarkedYAMLError(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
            result[key] = self.construct_object(value_node, deep=True)
            result.value_lines[key] = value_node.start_mark.line + 1
            result.key_lines[key] = key_node.start_mark.line + 1
        return result

    def construct_sequence(self, node: yaml.SequenceNode, deep: bool = False) -> LocatedList:
        result = LocatedList(self.construct_object(child, deep=True) for child in node.value)
        result.line = node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LineLoader.construct_sequence)


class _FastLineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same constructors over libyaml's parser (several times faster; its nodes carry the same
    line marks). Only for files without errors: libyaml words some syntax errors less helpfully, so a
    file it refuses is read again by ``_LineLoader`` for the message."""


_FastLineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)
_FastLineLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LineLoader.construct_sequence
)


def display_path(path: Path) -> str:
    """The path as a GM would type it: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; a syntax error becomes a TableError with the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError([TableProblem(display_path(path), 1, f"cannot read: {exc}")]) from exc
    try:
        return yaml.load(text, Loader=_FastLineLoader)
    except yaml.YAMLError:
        pass
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise TableError([TableProblem(display_path(path), line, what)]) from exc
    except yaml.YAMLError as exc:
        raise TableError([TableProblem(display_path(path), 1, str(exc))]) from exc


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Column:
    id: str
    label: str
    type: str
    optional: bool = False


@dataclass(frozen=True)
class Row:
    values: Mapping[str, Any]
    section: str
    line: int
    id: str | None = None
    label: str | None = None
    low: int | None = None  # bands: from (None = open below)
    high: int | None = None  # bands: to (None = open above)
    note: str = ""
    file: str = ""  # the YAML file the row comes from (a house-rule file may add rows)

    def __getitem__(self, column: str) -> Any:
        return self.values[column]

    def contains(self, key: int) -> bool:
        return (self.low is None or key >= self.low) and (self.high is None or key <= self.high)


@dataclass(frozen=True, eq=False)
class Table:
    id: str
    title: str
    kind: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    section: str
    file: str
    line: int
    note: str = ""
    key_id: str = ""
    key_label: str = ""
    picker: str | None = None
    gm_fillable: bool = False
    cheatsheet: bool | str | None = None  # false, or one of CHEATSHEET_BLOCKS; None: the default
    cheatsheet_order: int = 0  # its place in its block (then the YAML order)
    cheatsheet_rule: str = ""  # the rule in one line, {entry} / {entry.column} naming this table's cells
    cheatsheet_rows: bool = True  # the rows are printed too (false: the rule says it all)
    cheatsheet_columns: tuple[str, ...] = ()  # the columns printed, in order (none: the first with values)

    def entry(self, entry_id: str) -> Row:
        for row in self.rows:
            if row.id == entry_id:
                return row
        raise KeyError(f"{self.id} has no entry {entry_id!r}")

    def by_label(self, text: str) -> Row:
        """The entry whose label or id is ``text`` (case-insensitive)."""
        wanted = text.strip().casefold()
        for row in self.rows:
            if wanted in ((row.label or "").casefold(), (row.id or "").casefold()):
                return row
        raise KeyError(text)

    def value(self, entry_id: str, column: str = "value") -> Any:
        return self.entry(entry_id)[column]

    def band(self, key: int) -> Row | None:
        """The band containing ``key``, or None when no band does."""
        for row in self.rows:
            if row.contains(key):
                return row
        return None

    @property
    def sheet_title(self) -> str:
        """The workbook sheet the table is written on, named after its YAML file (criticals_fumbles.yaml:
        Criticals fumbles tables)."""
        stem = Path(self.file).stem.replace("_", " ")
        return f"{stem[:1].upper()}{stem[1:]} tables"[:31]

    @property
    def column_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.columns)


@dataclass(frozen=True)
class Ruling:
    id: str
    label: str
    default: str
    choices: Mapping[str, str]
    section: str
    why: str
    file: str
    line: int


@dataclass(frozen=True, eq=False)
class RuleSet:
    id: str
    name: str
    seed: str  # the seed file (shown nowhere a GM reads)
    source: str  # the book and chapter the seed is, as a GM reads it
    resolution: str
    tables: Mapping[str, Table]
    rulings: Mapping[str, Ruling]
    chosen: Mapping[str, str] = field(default_factory=dict)
    house_rules: tuple[str, ...] = ()  # what the GM's house-rule files changed, one line each
    resolution_block: Resolution | None = None  # ruleset.yaml `resolution:` (d20 rulesets; pycalc.resolution)
    encounter_block: EncounterRules | None = None  # ruleset.yaml `encounter:` (pycalc.encounter)
    # picker table -> the entry id picked, for a block's ``table.picked.column`` (none: the table's first row)
    picked: Mapping[str, str] = field(default_factory=dict)

    def table(self, table_id: str) -> Table:
        return self.tables[table_id]

    def ruling(self, ruling_id: str) -> str:
        """The choice in force for a ruling: the GM's, else the default."""
        return self.chosen.get(ruling_id, self.rulings[ruling_id].default)

    def constant(self, table_id: str, entry_id: str) -> Any:
        return self.tables[table_id].value(entry_id)


# --------------------------------------------------------------------------- validation


class _Checker:
    """Collects problems for one file while building its tables."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[TableProblem] = []

    def fail(self, line: int, message: str) -> None:
        self.problems.append(TableProblem(self.file, line, message))

    def mapping(self, value: Any, line: int, what: str) -> LocatedDict | None:
        if not isinstance(value, LocatedDict):
            self.fail(line, f"{what} must be a mapping, got {_kind(value)}")
            return None
        return value

    def keys(self, data: LocatedDict, allowed: set[str], required: set[str], what: str) -> None:
        for key in data:
            if key not in allowed:
                self.fail(
                    data.key_lines[key],
                    f"unknown key {key!r} in {what} (allowed: {', '.join(sorted(allowed))})",
                )
        for key in sorted(required - data.keys()):
            self.fail(data.line, f"{what} is missing {key!r}")

    def text(self, data: LocatedDict, key: str, what: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or (default is None and not value.strip()):
            self.fail(
                data.value_lines.get(key, data.line), f"{what} {key!r} must be text, got {_kind(value)}"
            )
            return ""
        return value

    def ident(self, value: Any, line: int, what: str) -> str:
        if not isinstance(value, str) or not ID_PATTERN.match(value):
            self.fail(line, f"{what} {value!r} must be lower_snake_case (a-z, 0-9, _)")
            return str(value)
        return value

    def section(self, data: LocatedDict, default: str | None, what: str) -> str:
        if "source" not in data:
            if default is None:
                self.fail(data.line, f"{what} is missing 'source' (the seed section it comes from)")
            return default or ""
        source = self.mapping(data["source"], data.value_lines["source"], f"{what} source")
        if source is None:
            return default or ""
        self.keys(source, {"section"}, {"section"}, f"{what} source")
        return self.text(source, "section", f"{what} source") if "section" in source else ""


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    return {bool: "true/false", int: "a whole number", float: "a decimal number", str: "text"}.get(
        type(value),
        "a mapping"
        if isinstance(value, dict)
        else "a list"
        if isinstance(value, list)
        else type(value).__name__,
    )


def roll_dice(value: Any) -> tuple[int, int] | None:
    """A modifier column's dice as (count, sides), the count negative for dice taken from the roll
    (``-1d4``: (-1, 4)); None for a whole number or anything else."""
    match = ROLL_DICE_PATTERN.match(value) if isinstance(value, str) else None
    if match is None or int(match.group(2)) < 1 or int(match.group(3)) < 1:
        return None
    return int(match.group(2)) * (-1 if match.group(1) == "-" else 1), int(match.group(3))


TYPE_HINTS = {"modifier": " (a whole number, or dice such as 1d4 or -1d4)"}


def _type_ok(column_type: str, value: Any) -> bool:
    if column_type == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if column_type == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if column_type == "bool":
        return isinstance(value, bool)
    if column_type == "dice":
        return isinstance(value, str) and bool(DICE_PATTERN.match(value))
    if column_type == "modifier":
        return _type_ok("int", value) or roll_dice(value) is not None
    return isinstance(value, str)  # text, outcome


TABLE_KEYS = {
    "title",
    "kind",
    "source",
    "note",
    "key",
    "columns",
    "rows",
    "picker",
    "ruling",
    "gm_fillable",
    "cheatsheet",
}
RULING_KEYS = {"label", "default", "choices", "source", "why"}


def _columns(check: _Checker, data: LocatedDict, what: str) -> tuple[Column, ...]:
    raw = check.mapping(data.get("columns"), data.value_lines.get("columns", data.line), f"{what} columns")
    if raw is None:
        return ()
    columns = []
    for column_id, spec_raw in raw.items():
        line = raw.key_lines[column_id]
        check.ident(column_id, line, "column id")
        if column_id in {"id", "label", "from", "to", "source", "note"}:
            check.fail(line, f"column id {column_id!r} is reserved")
        spec = check.mapping(spec_raw, line, f"column {column_id!r}")
        if spec is None:
            continue
        check.keys(spec, {"label", "type", "optional"}, {"label", "type"}, f"column {column_id!r}")
        column_type = spec.get("type")
        if column_type not in COLUMN_TYPES:
            check.fail(
                spec.value_lines.get("type", line),
                f"column {column_id!r} type {column_type!r} is not one of {', '.join(COLUMN_TYPES)}",
            )
        optional = spec.get("optional", False)
        if not isinstance(optional, bool):
            check.fail(spec.value_lines["optional"], f"column {column_id!r} optional must be true or false")
        columns.append(
            Column(
                column_id,
                check.text(spec, "label", f"column {column_id!r}"),
                str(column_type),
                optional is True,
            )
        )
    return tuple(columns)


def _row(
    check: _Checker,
    raw: Any,
    line: int,
    table: LocatedDict,
    kind: str,
    columns: tuple[Column, ...],
    section: str,
    what: str,
) -> Row | None:
    data = check.mapping(raw, line, f"{what} row")
    if data is None:
        return None
    frame = {"id", "label"} if kind == "entries" else {"from", "to"}
    check.keys(
        data,
        frame | {c.id for c in columns} | {"source", "note"},
        {"id", "label"} if kind == "entries" else set(),
        f"{what} row",
    )
    values: dict[str, Any] = {}
    for column in columns:
        if column.id not in data:
            check.fail(data.line, f"{what} row is missing column {column.id!r}")
            continue
        value = data[column.id]
        value_line = data.value_lines[column.id]
        if value is None:
            if not column.optional:
                check.fail(value_line, f"{what} column {column.id!r} is empty but not optional")
        elif not _type_ok(column.type, value):
            check.fail(
                value_line,
                f"{what} column {column.id!r} must be {column.type}{TYPE_HINTS.get(column.type, '')}, "
                f"got {_kind(value)} {value!r}",
            )
        values[column.id] = value
    note = data.get("note", "")
    if not isinstance(note, str):
        check.fail(data.value_lines["note"], f"{what} row note must be text")
        note = str(note)
    row_section = check.section(data, section, f"{what} row")
    if kind == "entries":
        return Row(
            values,
            row_section,
            data.line,
            id=check.ident(data.get("id"), data.value_lines.get("id", data.line), "entry id"),
            label=check.text(data, "label", f"{what} row") if "label" in data else "",
            note=note,
            file=check.file,
        )
    bounds = []
    for key in ("from", "to"):
        bound = data.get(key)
        if bound is not None and not (isinstance(bound, int) and not isinstance(bound, bool)):
            check.fail(
                data.value_lines[key],
                f"{what} band '{key}' must be a whole number, got {_kind(bound)} {bound!r}",
            )
            bound = None
        bounds.append(bound)
    return Row(values, row_section, data.line, low=bounds[0], high=bounds[1], note=note, file=check.file)


def _check_bands(check: _Checker, rows: list[Row], what: str) -> None:
    def fail(row: Row, message: str) -> None:
        check.problems.append(TableProblem(row.file or check.file, row.line, message))

    for index, row in enumerate(rows):
        first, last = index == 0, index == len(rows) - 1
        if row.low is None and not first:
            fail(row, f"{what}: only the first band may leave out 'from'")
        if row.high is None and not last:
            fail(row, f"{what}: only the last band may leave out 'to'")
        if row.low is not None and row.high is not None and row.low > row.high:
            fail(row, f"{what}: band from {row.low} to {row.high} runs backwards")
        if index and rows[index - 1].high is not None and row.low is not None:
            previous = rows[index - 1].high
            if row.low <= previous:
                fail(
                    row,
                    f"{what}: band starting at {row.low} overlaps the previous band (which ends at {previous})",
                )
            elif row.low > previous + 1:
                fail(
                    row,
                    f"{what}: gap between {previous} and {row.low} (next band must start at {previous + 1})",
                )


def _table(check: _Checker, table_id: str, data: LocatedDict, line: int) -> Table | None:
    what = f"table {table_id!r}"
    check.keys(data, TABLE_KEYS, {"title", "kind", "columns", "rows", "source"}, what)
    kind = data.get("kind")
    if kind not in TABLE_KINDS:
        check.fail(
            data.value_lines.get("kind", line),
            f"{what} kind {kind!r} must be one of {', '.join(TABLE_KINDS)}",
        )
        return None
    picker = data.get("picker")
    if picker is not None and (picker not in PICKERS or kind != "entries"):
        check.fail(
            data.value_lines["picker"],
            f"{what} picker {picker!r} must be one of {', '.join(PICKERS)} on an entries table",
        )
    gm_fillable = data.get("gm_fillable", False)
    if not isinstance(gm_fillable, bool):
        check.fail(data.value_lines["gm_fillable"], f"{what} gm_fillable must be true or false")
    sheet = _cheatsheet(check, data, what)
    section = check.section(data, None, what)
    columns = _columns(check, data, what)
    key_id = key_label = ""
    if kind == "bands":
        key = check.mapping(data.get("key"), data.value_lines.get("key", line), f"{what} key")
        if key is not None:
            check.keys(key, {"id", "label"}, {"id", "label"}, f"{what} key")
            key_id = check.ident(key.get("id"), key.value_lines.get("id", key.line), "band key id")
            key_label = check.text(key, "label", f"{what} key")
    elif "key" in data:
        check.fail(data.value_lines["key"], f"{what}: 'key' is for bands tables only")
    raw_rows = data.get("rows")
    if not isinstance(raw_rows, LocatedList):
        check.fail(data.value_lines.get("rows", line), f"{what} rows must be a list")
        raw_rows = LocatedList()
        raw_rows.item_lines = []
    if not raw_rows and not gm_fillable:
        check.fail(
            data.value_lines.get("rows", line),
            f"{what} has no rows (say gm_fillable: true for a table the GM fills)",
        )
    rows = [
        r
        for r in (
            _row(check, raw, ln, data, kind, columns, section, what)
            for raw, ln in zip(raw_rows, raw_rows.item_lines, strict=True)
        )
        if r
    ]
    if kind == "bands":
        _check_bands(check, rows, what)
    else:
        seen: dict[str, int] = {}
        for row in rows:
            if row.id in seen:
                check.fail(row.line, f"{what}: duplicate entry id {row.id!r} (first on line {seen[row.id]})")
            seen.setdefault(str(row.id), row.line)
    _check_rule_fields(check, sheet.rule, rows, columns, sheet.rule_line, what)
    for column_id in sheet.columns:
        if column_id not in {c.id for c in columns}:
            check.fail(sheet.columns_line, f"{what} cheatsheet columns: no column {column_id!r}")
    note = data.get("note", "")
    return Table(
        id=table_id,
        title=check.text(data, "title", what),
        kind=kind,
        columns=columns,
        rows=tuple(rows),
        section=section,
        file=check.file,
        line=line,
        note=note if isinstance(note, str) else str(note),
        key_id=key_id,
        key_label=key_label,
        picker=picker,
        gm_fillable=gm_fillable is True,
        cheatsheet=sheet.block,
        cheatsheet_order=sheet.order,
        cheatsheet_rule=sheet.rule,
        cheatsheet_rows=sheet.rows,
        cheatsheet_columns=sheet.columns,
    )


def _check_rule_fields(
    check: _Checker, rule: str, rows: list[Row], columns: tuple[Column, ...], line: int, what: str
) -> None:
    """Every {entry} or {entry.column} of a cheat-sheet rule names a cell of the table."""
    ids = {str(row.id) for row in rows}
    names = {c.id for c in columns}
    for match in RULE_FIELD.finditer(rule):
        entry, column = match.group(1), match.group(2) or "value"
        if entry not in ids or column not in names:
            check.fail(line, f"{what} cheatsheet rule: {match.group(0)} names no cell of this table")


@dataclass(frozen=True)
class _Cheatsheet:
    block: bool | str | None = None
    order: int = 0
    rule: str = ""
    rows: bool = True
    columns: tuple[str, ...] = ()
    rule_line: int = 0  # where the rule and the columns are written, for file:line messages
    columns_line: int = 0


def _cheatsheet(check: _Checker, data: LocatedDict, what: str) -> _Cheatsheet:
    """A table's ``cheatsheet:``: false, a block name, or {block, order, rule, rows}."""
    raw = data.get("cheatsheet")
    line = data.value_lines.get("cheatsheet", data.line)
    blocks = ", ".join(CHEATSHEET_BLOCKS)
    if raw is None or raw is False:
        return _Cheatsheet(raw)
    if isinstance(raw, str) and raw in CHEATSHEET_BLOCKS:
        return _Cheatsheet(raw)
    if not isinstance(raw, LocatedDict):
        check.fail(line, f"{what} cheatsheet must be false, one of {blocks}, or a mapping with 'block'")
        return _Cheatsheet()
    check.keys(raw, CHEATSHEET_KEYS, {"block"}, f"{what} cheatsheet")
    block, order, rule, rows = (
        raw.get("block"),
        raw.get("order", 0),
        raw.get("rule", ""),
        raw.get("rows", True),
    )
    if block not in CHEATSHEET_BLOCKS:
        check.fail(raw.value_lines.get("block", line), f"{what} cheatsheet block must be one of {blocks}")
        block = None
    if not isinstance(order, int) or isinstance(order, bool):
        check.fail(raw.value_lines["order"], f"{what} cheatsheet order must be a whole number")
        order = 0
    if not isinstance(rule, str):
        check.fail(raw.value_lines["rule"], f"{what} cheatsheet rule must be text")
        rule = ""
    if not isinstance(rows, bool):
        check.fail(raw.value_lines["rows"], f"{what} cheatsheet rows must be true or false")
        rows = True
    columns = raw.get("columns", [])
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        check.fail(raw.value_lines["columns"], f"{what} cheatsheet columns must be a list of column ids")
        columns = []
    lines = (raw.value_lines.get("rule", line), raw.value_lines.get("columns", line))
    return _Cheatsheet(block, order, " ".join(rule.split()), rows, tuple(columns), *lines)


def _ruling(check: _Checker, ruling_id: str, data: LocatedDict, line: int) -> Ruling:
    what = f"ruling {ruling_id!r}"
    check.keys(data, RULING_KEYS, RULING_KEYS, what)
    choices = (
        check.mapping(data.get("choices"), data.value_lines.get("choices", line), f"{what} choices")
        or LocatedDict()
    )
    for choice_id, text in choices.items():
        check.ident(choice_id, choices.key_lines[choice_id], "choice id")
        if not isinstance(text, str):
            check.fail(
                choices.value_lines[choice_id], f"{what} choice {choice_id!r} must be described in text"
            )
    default = data.get("default")
    if default not in choices:
        check.fail(
            data.value_lines.get("default", line),
            f"{what} default {default!r} is not one of its choices ({', '.join(choices)})",
        )
    return Ruling(
        id=ruling_id,
        label=check.text(data, "label", what),
        default=str(default),
        choices={k: str(v) for k, v in choices.items()},
        section=check.section(data, None, what),
        why=check.text(data, "why", what),
        file=check.file,
        line=line,
    )


def parse_tables_file(path: Path) -> tuple[dict[str, Table], dict[str, Ruling], list[TableProblem]]:
    """Tables and rulings of one YAML file, with the problems found (never raises for content)."""
    check = _Checker(display_path(path))
    data = read_yaml(path)
    tables: dict[str, Table] = {}
    rulings: dict[str, Ruling] = {}
    top = check.mapping(data, 1, "the file")
    if top is None:
        return tables, rulings, check.problems
    check.keys(top, {"tables", "rulings"}, set(), "the file")
    for section_key, parse, into in (("tables", _table, tables), ("rulings", _ruling, rulings)):
        if section_key not in top:
            continue
        items = check.mapping(top[section_key], top.value_lines[section_key], section_key)
        for item_id, raw in (items or {}).items():
            line = items.key_lines[item_id]
            check.ident(item_id, line, f"{section_key[:-1]} id")
            body = check.mapping(raw, line, f"{section_key[:-1]} {item_id!r}")
            if body is not None:
                item = parse(check, item_id, body, line)
                if item is not None:
                    into[item_id] = item
    return tables, rulings, check.problems


# what LibreOffice's AutoCorrect (as shipped: on) rewrites as it is typed: a dash, an ellipsis
AUTOCORRECTED = {" - ": "a dash", "--": "a dash", "...": "an ellipsis"}


def typed_label_problems(tables: Mapping[str, Table]) -> list[TableProblem]:
    """A picker row's label a GM can type: what AutoCorrect rewrites as it is typed (' - ' becomes
    ' – ', '...' becomes '…') is not the label the calculator looks up (typed into cnc's attack kind,
    every output read #N/A)."""
    return [
        TableProblem(
            table.file,
            row.line,
            f"table {table.id!r} row {row.id!r}: the label has {part!r}, which LibreOffice's AutoCorrect turns "
            f"into {what} as it is typed, so the pick would not match it; write ':' or ',' instead",
        )
        for table in tables.values()
        if table.picker is not None
        for row in table.rows
        for part, what in AUTOCORRECTED.items()
        if part in str(row.label)
    ]


def _cross_checks(tables: Mapping[str, Table]) -> list[TableProblem]:
    """References between tables: outcome columns must name rows of the outcomes table; picker labels
    survive being typed."""
    problems = typed_label_problems(tables)
    outcome_ids = {row.id for row in tables[OUTCOME_TABLE].rows} if OUTCOME_TABLE in tables else set()
    for table in tables.values():
        for column in table.columns:
            if column.type != "outcome":
                continue
            for row in table.rows:
                value = row.values.get(column.id)
                if value is not None and value not in outcome_ids:
                    problems.append(
                        TableProblem(
                            table.file,
                            row.line,
                            f"table {table.id!r} column {column.id!r}: {value!r} is not an entry of the {OUTCOME_TABLE!r} table",
                        )
                    )
    return problems


def yaml_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.name != "ruleset.yaml")
