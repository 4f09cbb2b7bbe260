"""Checking what a ``resolution:`` block refers to, once every table and ruling is loaded: each table
cell, table, column and ruling it names must exist with the right type (``file:line: what is wrong``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pycalc.block_parser import Uses
from pycalc.resolution_block import ANY, MELEE, PICKED, RANGED, ROLL_COLUMN, tables_holding
from pycalc.table_files import Ruling, Table, TableProblem


def check_references(
    file: str, uses: Uses, tables: Mapping[str, Table], rulings: Mapping[str, Ruling]
) -> list[TableProblem]:
    """Every table cell, table, column and ruling the block names must exist with the right type."""
    problems: list[TableProblem] = []

    def fail(line: int, message: str) -> None:
        problems.append(TableProblem(file, line, message))

    pickers = {table_id for table_id, _ in uses.pickers}
    for ref, kind, what in uses.refs:
        table = tables.get(ref.table)
        if table is None or table.kind != "entries":
            fail(ref.line, f"{what}: {ref.table!r} is not an entries table of this ruleset")
            continue
        if ref.entry == PICKED:
            if table.picker != "choice" or ref.table not in pickers:
                fail(
                    ref.line,
                    f"{what}: {ref.table}.picked needs {ref.table!r} as a choice picker in modifiers",
                )
                continue
        elif ref.entry not in {row.id for row in table.rows}:
            fail(ref.line, f"{what}: table {ref.table!r} has no entry {ref.entry!r}")
            continue
        column = next((c for c in table.columns if c.id == ref.column), None)
        if column is None:
            fail(ref.line, f"{what}: table {ref.table!r} has no column {ref.column!r}")
        elif column.type != kind:
            fail(ref.line, f"{what}: column {ref.table}.{ref.column} is {column.type}, not {kind}")
    for use, what in uses.rulings:
        ruling = rulings.get(use.ruling)
        if ruling is None:
            fail(use.line, f"{what}: no ruling {use.ruling!r} in this ruleset")
            continue
        missing = [c for c in ruling.choices if c not in use.choices]
        unknown = [c for c in use.choices if c not in ruling.choices]
        if missing:
            fail(use.line, f"{what}: ruling {use.ruling!r} choice(s) {', '.join(missing)} not given")
        if unknown:
            fail(use.line, f"{what}: {', '.join(unknown)} not a choice of ruling {use.ruling!r}")
    for table_id, line, kind, columns, what in uses.tables:
        table = tables.get(table_id)
        if table is None or table.kind != kind:
            fail(line, f"{what}: {table_id!r} is not a {kind} table of this ruleset")
            continue
        for column_id, types in columns.items():
            column = next((c for c in table.columns if c.id == column_id), None)
            if column is None:
                fail(line, f"{what}: table {table_id!r} has no column {column_id!r}")
            elif column.type not in types:
                fail(
                    line, f"{what}: column {table_id}.{column_id} is {column.type}, not {' or '.join(types)}"
                )
    for table_id, line in uses.pickers:
        table = tables.get(table_id)
        if table is None or table.picker is None:
            fail(line, f"{table_id!r} is not a picker table of this ruleset")
            continue
        for column in table.columns:
            if column.type == "modifier" and column.id != ROLL_COLUMN:
                fail(line, f"{table_id}: only the {ROLL_COLUMN!r} column may hold dice, not {column.id!r}")
    problems += _situation_problems(file, uses, tables, rulings)
    formula_rows = _formula_rows(uses, tables)
    for name, line, what in uses.formula_names:
        if formula_rows is None:
            fail(line, f"{what}: {name!r} names a formula row, but damage.formulas names no table")
        elif name not in formula_rows:
            fail(line, f"{what}: {name!r} is not a row of the damage.formulas table")
    for table_id, column, line in uses.chart_formulas:
        table = tables.get(table_id)
        if table is None or column not in table.column_ids:
            continue  # reported above
        for row in table.rows:
            name = row.values.get(column)
            if formula_rows is None or name not in formula_rows:
                fail(
                    line,
                    f"chart {table_id!r} row at line {row.line}: {column} {name!r} is not a damage.formulas row",
                )
    for table_id, line, what in uses.own_roll_charts:
        table = tables.get(table_id)
        if table is not None and table.kind == "bands" and not closed_bands(table):
            fail(line, f"{what}: {table_id!r} is rolled on: its first row needs 'from' and its last row 'to'")
    return problems


def closed_bands(table: Table) -> bool:
    """A bands table a die is rolled on: its rows say the lowest and the highest roll."""
    return bool(table.rows) and table.rows[0].low is not None and table.rows[-1].high is not None


def _kind_problem(kind_table: Table | None, kind: str) -> str | None:
    """What is wrong with naming ``kind`` as the attack kind a table or row counts for, if anything: it
    must be any, a row of the kind table, or melee or ranged where that table has a ``ranged`` column."""
    rows = [str(row.id) for row in (kind_table.rows if kind_table else ())]
    if kind == ANY or kind in rows:
        return None
    if kind in (MELEE, RANGED):
        if kind_table is None or "ranged" in kind_table.column_ids:
            return None
        return f"{kind!r} needs a 'ranged' column in the kind table {kind_table.id!r}"
    return f"{kind!r} must be one of {', '.join((MELEE, RANGED, ANY, *rows))}"


def _formula_rows(uses: Uses, tables: Mapping[str, Table]) -> set[str] | None:
    found = [
        t for t, _, kind, _, what in uses.tables if what.endswith("damage.formulas") and kind == "entries"
    ]
    if not found:
        return None
    table = tables.get(found[0])
    return {str(row.id) for row in table.rows} if table else set()


def gated_table(uses: Uses, table: Table) -> bool:
    """Whether the situation counts a table's rows for some attack kinds only (``only``, a gate column)."""
    only = any(what.endswith(".only table") and t == table.id for t, _, _, what in uses.situation)
    return only or any(gate in table.column_ids for gate, _, _, _, _ in uses.situation_gate)


def _situation_problems(
    file: str, uses: Uses, tables: Mapping[str, Table], rulings: Mapping[str, Ruling]
) -> list[TableProblem]:
    """The ``situation:`` declaration's tables must be pickers with the columns it names, its kinds
    the kind table's rows (or melee, ranged, any), its gate a column of a table it names."""
    problems: list[TableProblem] = []
    for table_id, column, line, what in uses.situation:
        table = tables.get(table_id)
        if table is None or table.picker is None:
            problems.append(
                TableProblem(file, line, f"{what}: {table_id!r} is not a picker table of this ruleset")
            )
        elif column is not None and column not in table.column_ids:
            problems.append(TableProblem(file, line, f"{what}: table {table_id!r} has no column {column!r}"))
        elif what.endswith(".kind_table") and table.picker != "choice":
            problems.append(
                TableProblem(file, line, f"{what}: {table_id!r} must be a choice picker (one kind)")
            )
        elif ".worse_of" in what and (table.picker != "choice" or gated_table(uses, table)):
            problems.append(
                TableProblem(
                    file, line, f"{what}: {table_id!r} must be a choice picker that counts for every attack"
                )
            )
    for kind_table, kind, line, what in uses.situation_kinds:
        problem = _kind_problem(tables.get(kind_table or ""), kind)
        if problem:
            problems.append(TableProblem(file, line, f"{what}: {problem}"))
    for gate, named, kind_table, line, what in uses.situation_gate:
        gated = [tables[t] for t in dict.fromkeys(named) if t in tables and gate in tables[t].column_ids]
        if not gated:
            problems.append(
                TableProblem(file, line, f"{what}: no table of the situation has a column {gate!r}")
            )
        for table in gated:
            for row in table.rows:
                value = row.values.get(gate)
                problem = (
                    None if value in (None, "") else _kind_problem(tables.get(kind_table or ""), str(value))
                )
                if problem:
                    problems.append(
                        TableProblem(
                            file, line, f"{what}: {table.id} row {row.id!r} at line {row.line}: {problem}"
                        )
                    )
    listed = [tables[t] for t, _ in uses.pickers if t in tables]
    for column, line, what in uses.number_flags:
        if not any(c.id == column and c.type == "bool" for table in listed for c in table.columns):
            problems.append(
                TableProblem(
                    file, line, f"{what}: no table of resolution.modifiers has a true/false column {column!r}"
                )
            )
    situated = listed + [tables[t] for t, _, _, _ in uses.situation if t in tables]
    for column, line, what in uses.row_columns:
        if not any(column in table.column_ids for table in situated):
            problems.append(
                TableProblem(file, line, f"{what}: no table of the situation has a column {column!r}")
            )
        for table in dict.fromkeys(t for t in situated if column in t.column_ids):
            for row in table.rows:
                named = row.values.get(column)
                holding = tables_holding(situated, str(named))
                if named in (None, "") or table.id in holding or len(holding) == 1:
                    continue
                said = "no row" if not holding else f"a row of several tables ({', '.join(holding)}):"
                problems.append(
                    TableProblem(
                        file,
                        line,
                        f"{what}: {table.id} row {row.id!r} at line {row.line} names {said} {named!r}",
                    )
                )
    for ruling, line, what in uses.situation_rulings:
        if ruling not in rulings:
            problems.append(TableProblem(file, line, f"{what}: no ruling {ruling!r} in this ruleset"))
    return problems
