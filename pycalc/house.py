"""House rules: a GM's own YAML that changes a ruleset's tables without editing the shipped ones.

```yaml
house_rules:
  ruleset: spelljammer          # which ruleset the file is for
  name: Our table               # shown in the workbook
  tables:
    cover:                      # an existing table: change, add or remove rows
      set: {hard: {sc: -30}}    # entries by id; bands by their 'from' value
      add: [{id: force_wall, label: Wall of force, sc: -40}]
      remove: [soft]
    my_fumbles: {title: ..., kind: entries, ...}   # a whole new table, in the tables format
  rulings:
    stun_above_table: cap       # flip a ruling to another of its choices
```

Every problem is reported against the house-rule file and line, like the shipped tables.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pycalc.table_files import (
    LocatedDict,
    LocatedList,
    Row,
    RuleSet,
    Table,
    TableError,
    _check_bands,
    _Checker,
    _cross_checks,
    _row,
    _table,
    _type_ok,
    display_path,
    read_yaml,
)

PATCH_KEYS = {"set", "add", "remove"}


def house_files(paths: list[Path]) -> list[Path]:
    """The YAML files named: a folder stands for the *.yaml files in it."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    return found


def ruleset_of(path: Path) -> str:
    """The ruleset a house-rule file declares (TableError when it declares none)."""
    check = _Checker(display_path(path))
    top = check.mapping(read_yaml(path), 1, "the house-rule file")
    body = (
        check.mapping(top.get("house_rules") if top else None, top.line if top else 1, "house_rules")
        if top
        else None
    )
    if body is None or not isinstance(body.get("ruleset"), str):
        check.fail(
            body.line if body else 1,
            "house_rules must name its 'ruleset' (cnc, osr, combat17, spelljammer, bfrpg)",
        )
        raise TableError(check.problems)
    return body["ruleset"]


def row_key(table: Table, row: Row) -> object:
    return row.id if table.kind == "entries" else row.low


def table_words(table: Table) -> str:
    return f"“{table.title}”"


def row_words(table: Table, row: Row) -> str:
    """A row as the GM finds it on the tables sheet: its label, or its band of the table's key."""
    if table.kind == "entries":
        return str(row.label or row.id)
    if row.low is None:
        return f"{row.high} or less"
    return f"{row.low} or more" if row.high is None else f"{row.low} to {row.high}"


def value_words(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "empty" if value is None else str(value)


def patch_table(check: _Checker, table: Table, patch: LocatedDict, name: str) -> tuple[Table, list[str]]:
    what = f"house rule for table {table.id!r}"
    check.keys(patch, PATCH_KEYS, set(), what)
    rows = list(table.rows)
    changes: list[str] = []
    keys = [row_key(table, r) for r in rows]
    rows_by_key = dict(zip(keys, rows, strict=True))
    for key in patch.get("remove") or []:
        if key not in keys:
            check.fail(patch.value_lines["remove"], f"{what}: no row {key!r} to remove")
            continue
        rows.pop(keys.index(key))
        keys.remove(key)
        changes.append(f"{table_words(table)}: removed {row_words(table, rows_by_key[key])}")
    columns = {c.id: c for c in table.columns}
    updates = check.mapping(
        patch.get("set", LocatedDict()), patch.value_lines.get("set", patch.line), f"{what} set"
    )
    for key, values_raw in (updates or {}).items():
        line = updates.key_lines[key]
        if key not in keys:
            check.fail(line, f"{what}: no row {key!r} to set (use add for a new row)")
            continue
        values = check.mapping(values_raw, line, f"{what} set {key!r}") or {}
        row = rows[keys.index(key)]
        new_values = dict(row.values)
        for column_id, value in values.items():
            value_line = values.value_lines[column_id]
            column = columns.get(column_id)
            if column is None:
                check.fail(value_line, f"{what}: no column {column_id!r} (columns: {', '.join(columns)})")
            elif (value is None and not column.optional) or (
                value is not None and not _type_ok(column.type, value)
            ):
                check.fail(value_line, f"{what}: column {column_id!r} must be {column.type}, got {value!r}")
            else:
                changes.append(
                    f"{table_words(table)}, {row_words(table, row)}: {column.label} "
                    f"{value_words(row.values.get(column_id))} -> {value_words(value)}"
                )
                new_values[column_id] = value
        rows[keys.index(key)] = dataclasses.replace(
            row, values=new_values, file=check.file, line=line, section=f"house rule: {name}"
        )
    added = patch.get("add") or LocatedList()
    for raw, line in zip(added, getattr(added, "item_lines", []), strict=False):
        row = _row(
            check,
            raw,
            line,
            patch,
            table.kind,
            table.columns,
            f"house rule: {name}",
            f"house rule for {table.id!r}",
        )
        if row is None:
            continue
        if row_key(table, row) in keys:
            check.fail(line, f"{what}: row {row_key(table, row)!r} exists already (use set to change it)")
            continue
        rows.append(row)
        keys.append(row_key(table, row))
        changes.append(f"{table_words(table)}: added {row_words(table, row)}")
    if table.kind == "bands":
        rows.sort(key=lambda r: -(10**12) if r.low is None else r.low)
        _check_bands(check, rows, f"table {table.id!r} with house rules")
    return dataclasses.replace(table, rows=tuple(rows)), changes


def apply_file(rules: RuleSet, path: Path) -> RuleSet:
    check = _Checker(display_path(path))
    top = check.mapping(read_yaml(path), 1, "the house-rule file")
    if top is None:
        raise TableError(check.problems)
    check.keys(top, {"house_rules"}, {"house_rules"}, "the house-rule file")
    body = (
        check.mapping(top.get("house_rules"), top.value_lines.get("house_rules", 1), "house_rules")
        or LocatedDict()
    )
    check.keys(body, {"ruleset", "name", "tables", "rulings"}, {"ruleset"}, "house_rules")
    if body.get("ruleset") != rules.id:
        check.fail(
            body.value_lines.get("ruleset", body.line),
            f"this file is for {body.get('ruleset')!r}, not {rules.id!r}",
        )
        raise TableError(check.problems)
    name = body.get("name") if isinstance(body.get("name"), str) else Path(check.file).stem
    tables = dict(rules.tables)
    changes: list[str] = []
    raw_tables = check.mapping(
        body.get("tables", LocatedDict()), body.value_lines.get("tables", body.line), "tables"
    )
    for table_id, raw in (raw_tables or {}).items():
        line = raw_tables.key_lines[table_id]
        data = check.mapping(raw, line, f"house rule {table_id!r}")
        if data is None:
            continue
        if "kind" in data:  # a whole table, new or replacing the shipped one
            table = _table(check, table_id, data, line)
            if table is not None:
                tables[table_id] = table
                changes.append(
                    f"{table_words(table)}: {'replaced' if table_id in rules.tables else 'new table'}"
                )
        elif table_id in tables:
            tables[table_id], table_changes = patch_table(check, tables[table_id], data, name)
            changes += table_changes
        else:
            check.fail(
                line,
                f"no table {table_id!r} in {rules.id} (a new table needs title, kind, columns, rows, source)",
            )
    chosen = dict(rules.chosen)
    raw_rulings = check.mapping(
        body.get("rulings", LocatedDict()), body.value_lines.get("rulings", body.line), "rulings"
    )
    for ruling_id, choice in (raw_rulings or {}).items():
        line = raw_rulings.value_lines[ruling_id]
        ruling = rules.rulings.get(ruling_id)
        if ruling is None:
            check.fail(
                raw_rulings.key_lines[ruling_id],
                f"no ruling {ruling_id!r} in {rules.id} ({', '.join(rules.rulings)})",
            )
        elif choice not in ruling.choices:
            check.fail(line, f"ruling {ruling_id!r} has no choice {choice!r} ({', '.join(ruling.choices)})")
        else:
            chosen[ruling_id] = choice
            changes.append(f"ruling “{ruling.label}”: {ruling.choices[choice]}")
    problems = check.problems + _cross_checks(tables)
    if problems:
        raise TableError(problems)
    described = tuple(f"{name}: {change}" for change in changes)  # no file name: the GM reads these
    return dataclasses.replace(rules, tables=tables, chosen=chosen, house_rules=rules.house_rules + described)


def apply_house_rules(rules: RuleSet, paths: list[Path]) -> RuleSet:
    """The ruleset with every house-rule file for it applied in order (files for others are skipped)."""
    problems = []
    for path in house_files(paths):
        try:
            if ruleset_of(path) == rules.id:
                rules = apply_file(rules, path)
        except TableError as error:
            problems += error.problems
    if problems:
        raise TableError(problems)
    return rules
