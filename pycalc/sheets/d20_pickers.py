"""The situation pickers of the generic Attack calculator (the ``modifiers:`` tables) as formulas: what
the picked rows and the typed numbers (``situation.numbers``) add up to, counted for the picked attack
kind (``pycalc.resolution_situation``); written under the roll block by ``pycalc.sheets.d20_picker_rows``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pycalc.resolution_block import (
    ANY,
    MELEE,
    RANGED,
    Adding,
    Resolution,
    Stage,
    TypedNumber,
    cell_of,
    named_pick,
    possible,
    typed_numbers,
)
from pycalc.resolution_situation import (
    ATTACK_WORDS,
    NO_ATTACK,
    NO_ATTACK_SAID,
    kind_limited,
    stage_factor_column,
)
from pycalc.sheets.block_formulas import by_choice, literal
from pycalc.sheets.common import name_part, table_name
from pycalc.sheets.d20_cells import number_name
from pycalc.sheets.formulas import by_label, const, q
from pycalc.sheets.situation_cells import pick_name, ruled_value
from pycalc.tables import Row, RuleSet, Table


def picker_tables(rules: RuleSet, block: Resolution) -> list[Table]:
    return [rules.table(table_id) for table_id in block.modifiers or ()]


def picked_kind(rules: RuleSet, gating: Adding) -> tuple[str, str | None]:
    """The picked attack kind's id and, where its table has a ``ranged`` column, its word (melee or
    ranged), as formulas (``pycalc.pickers.attack_kinds``)."""
    assert gating.kind_table is not None  # the parser requires it beside a list of tables
    pick = pick_name(gating.kind_table)
    kind_id = by_label(gating.kind_table, "id", pick)
    if "ranged" not in rules.table(gating.kind_table).column_ids:
        return kind_id, None
    return kind_id, f'IF({by_label(gating.kind_table, "ranged", pick)}=TRUE,"{RANGED}","{MELEE}")'


def only_counts(rules: RuleSet, gating: Adding, only: str) -> str | None:
    """TRUE while the picked kind is ``only`` (any, melee, ranged or a kind's id); None for any."""
    if only == ANY:
        return None
    kind_id, word = picked_kind(rules, gating)
    return f"{word if only in (MELEE, RANGED) and word else kind_id}={q(only)}"


def gate_counts(rules: RuleSet, gating: Adding, gate_value: str) -> str:
    """TRUE while a row whose gate cell is ``gate_value`` (a formula) counts: empty, any, the picked
    kind's id or its word."""
    kind_id, word = picked_kind(rules, gating)
    kinds = [kind_id] + ([word] if word else [])
    return f"OR({','.join(f'{gate_value}={kind}' for kind in [q(''), q(ANY), *kinds])})"


def counts_when(
    rules: RuleSet, block: Resolution, table: Table, value_of: Callable[[str], str]
) -> str | None:
    """TRUE while a picked row of ``table`` (its cells read by ``value_of(column)``) counts for the
    picked attack kind, by its table's ``only`` and its gate (``pycalc.pickers.counts``); None: always."""
    gating = block.situation
    if gating is None:
        return None
    only = gating.only.get(table.id)
    gate = gating.gate
    conditions = [
        only_counts(rules, gating, only) if only else None,
        gate_counts(rules, gating, value_of(gate)) if gate and gate in table.column_ids else None,
    ]
    found = [condition for condition in conditions if condition is not None]
    return None if not found else found[0] if len(found) == 1 else f"AND({','.join(found)})"


def in_force(item: object, wanted: object) -> str:
    """TRUE while the rulings make a block value (``not_with``...) ``wanted``."""
    return by_choice(item, lambda chosen: "TRUE" if chosen == wanted else "FALSE")


def named_counts(rules: RuleSet, block: Resolution, table_id: str, named: str) -> str:
    """TRUE while the row a ``not_with`` cell of ``table_id`` names (``named_pick``) is picked and counts
    for the picked attack kind."""
    named_table, row_id = named_pick(picker_tables(rules, block), table_id, named)
    table = rules.table(named_table)
    picked = (
        f"{pick_name(table.id, row_id)}=TRUE"
        if table.picker == "toggle"
        else f"{pick_name(table.id)}={q(str(table.entry(row_id).label))}"
    )
    counts = counts_when(rules, block, table, partial(const, table.id, row_id))
    return picked if counts is None else f"AND({picked},{counts})"


def dropped_when(rules: RuleSet, block: Resolution, table: Table, rows: list[Row]) -> str | None:
    """TRUE while the picked row of ``rows`` (a toggle row; a choice table's rows) is dropped by a
    picked row it names in the ``not_with`` column (``pycalc.pickers.not_with``); None: it never is."""
    said = block.situation
    conditions = []
    for column in dict.fromkeys(possible(said.not_with) if said else ()):
        by_named: dict[str, list[Row]] = {}
        for row in rows:
            if column is not None and (named := row.values.get(column)):
                by_named.setdefault(str(named), []).append(row)
        dropping = []
        for named, naming in by_named.items():
            counts = named_counts(rules, block, table.id, named)
            if table.picker == "choice":
                picked = any_of([f"{pick_name(table.id)}={q(str(row.label))}" for row in naming])
                counts = f"AND({picked},{counts})"
            dropping.append(counts)
        if dropping:
            either = dropping[0] if len(dropping) == 1 else f"OR({','.join(dropping)})"
            conditions.append(f"AND({in_force(said.not_with, column)},{either})")
    return (
        None if not conditions else conditions[0] if len(conditions) == 1 else f"OR({','.join(conditions)})"
    )


def kept_name(table: Table, row: Row | None = None) -> str:
    """The working cell that is TRUE while a pick of ``table`` (its ``row``, a toggle table's) counts
    as far as ``not_with`` goes."""
    return f"ATTACK_KEPT_{name_part(table.id)}" + ("" if row is None else f"_{name_part(str(row.id))}")


def kept_cells(rules: RuleSet, block: Resolution) -> list[tuple[str, str, str]]:
    """(name, label, formula) of a working cell for each pick a ``not_with`` row may drop: the sums
    and flags read it rather than write the condition again in each."""
    found = []
    for table in picker_tables(rules, block):
        picks = (
            [(None, list(table.rows))] if table.picker == "choice" else [(row, [row]) for row in table.rows]
        )
        for row, rows in picks:
            dropped = dropped_when(rules, block, table, rows)
            if dropped is not None:
                what = table.title if row is None else f"{table.title}: {row.label}"
                found.append((kept_name(table, row), f"Situation: {what} counts", f"NOT({dropped})"))
    return found


def not_dropped(rules: RuleSet, block: Resolution, table: Table, row: Row | None) -> str | None:
    """The working cell that is TRUE while the pick (a toggle ``row``; a choice table's) is not dropped
    (``kept_cells``); None: it never is."""
    rows = list(table.rows) if row is None else [row]
    return None if dropped_when(rules, block, table, rows) is None else kept_name(table, row)


def any_of(conditions: list[str]) -> str:
    """One of the conditions true (at least one is given)."""
    return conditions[0] if len(conditions) == 1 else f"OR({','.join(conditions)})"


def all_of(conditions: list[str | None]) -> str | None:
    """The conditions that are not None, all true (None: there are none)."""
    found = [c for c in conditions if c is not None]
    return None if not found else found[0] if len(found) == 1 else f"AND({','.join(found)})"


def also_terms(
    rules: RuleSet,
    block: Resolution,
    table: Table,
    counts: str,
    named_of: Callable[[str], str],
    term: Callable,
) -> list[str]:
    """The terms of the row a counted row also counts (``also_counts``), for each column the rulings may
    name: ``named_of(column)`` is the named row's id (a formula); ``term(condition, value_of)``."""
    said = block.situation
    found = []
    for column in dict.fromkeys(possible(said.also_counts) if said else ()):
        if column is None or column not in table.column_ids:
            continue
        named = named_of(column)
        if named == q(""):  # a toggle row that names none
            continue
        condition = f"AND({counts},{in_force(said.also_counts, column)},LEN({named})>0)"
        found.append(term(condition, partial(named_value, table.id, named)))
    return found


def named_value(table_id: str, named: str, column: str) -> str:
    """``column`` of the row whose id ``named`` is (a formula); no MATCH error where it names none
    (an AND works out every argument): the table's first row's, never read then."""
    return f"INDEX({table_name(table_id, column)},IFERROR(MATCH({named},{table_name(table_id, 'id')},0),1))"


def picked_terms(
    rules: RuleSet,
    block: Resolution,
    column: str,
    leaf: Callable[[str], str],
    ticked: Callable[[str, str], str],
    flag: str | None = None,
    tables: Callable[[str], bool] = lambda table_id: True,
) -> list[str]:
    """One term per picker row that has ``column``: the value of a choice table's picked row, and
    ``ticked(is_ticked, value)`` for each row of a toggle table and for a row that counts only for some
    attack kinds (``situation``); each cell read is ``leaf(cell)`` (N(...), ...=TRUE), inside the IF
    of a column the situation reads by ruling (``ruled``: its variant while that choice is in force;
    Gnumeric has N(IF(...)) of an empty cell #NUM!); with ``flag``, only rows that tick that column
    give their value (0 otherwise). A toggle row a ticked row drops does not count (``not_with``), a
    counted row adds the row it names (``also_counts``). Only ``tables`` that pass."""
    said = block.situation
    terms = []

    def flagged(table_id: str, value: str, value_of: Callable[[str], str]) -> str:
        return (
            value
            if flag is None
            else f"IF({ruled_value(rules, said, table_id, flag, value_of)}=TRUE,{value},0)"
        )

    def read(table_id: str, value_of: Callable[[str], str]) -> str:
        return flagged(
            table_id, ruled_value(rules, said, table_id, column, lambda c: leaf(value_of(c))), value_of
        )

    def also(counts: str, named_of: Callable[[str], str]) -> list[str]:
        return also_terms(
            rules, block, table, counts, named_of, lambda c, value_of: ticked(c, read(table.id, value_of))
        )

    for table in picker_tables(rules, block):
        if not tables(table.id):
            continue
        if column not in table.column_ids or (flag is not None and flag not in table.column_ids):
            continue
        if table.picker == "choice":
            value_of = partial(by_label, table.id, label_expr=pick_name(table.id))
            value = read(table.id, value_of)
            conditions = [
                counts_when(rules, block, table, value_of),
                not_dropped(rules, block, table, None),
            ]
            counts = all_of(conditions)
            terms.append(value if counts is None else ticked(counts, value))
            terms += also(counts or "TRUE", value_of)
            continue
        for row in table.rows:
            value_of = partial(const, table.id, str(row.id))
            conditions = [
                f"{pick_name(table.id, str(row.id))}=TRUE",
                counts_when(rules, block, table, value_of),
                not_dropped(rules, block, table, row),
            ]
            counts = all_of(conditions) or "TRUE"
            terms.append(ticked(counts, read(table.id, value_of)))
            terms += also(counts, lambda c, row=row: q(str(row.values.get(c) or "")))
    return terms


def typed_value(number: TypedNumber) -> str:
    """The typed number as it counts, ``times`` over (an empty cell counts 0)."""
    typed = f"N({number_name(cell_of(number))})"
    return typed if number.times == 1 else f"{number.times}*{typed}"


def typed_counted(rules: RuleSet, block: Resolution, number: TypedNumber) -> str:
    """What the typed number adds while it counts: no more than takes the rows that tick its ``when``
    up to its ``at_most`` (by ruling or not)."""
    typed = typed_value(number)
    if number.at_most is None:
        return typed

    def limited(cap: object) -> str:
        if cap is None:
            return typed
        flagged = "+".join(rows_sum(rules, block, number.adds_to, number.when)) or "0"
        return f"MIN({typed},{literal(cap)}-({flagged}))"

    return by_choice(number.at_most, limited)


def typed_counts(rules: RuleSet, block: Resolution, number: TypedNumber) -> str:
    """TRUE while the typed number counts: a counted pick ticks its ``when`` (none: always)."""
    return "TRUE" if number.when is None else situation_flag(rules, block, number.when)


def typed_terms(rules: RuleSet, block: Resolution, part: str) -> list[str]:
    """What the typed numbers add to the sum ``part`` (``resolution_situation.typed_sums``): each
    while it counts, a ``best_of`` group's highest counted one."""
    numbers = [number for number in typed_numbers(block) if number.adds_to == part]
    terms = [
        typed_counted(rules, block, number)
        if number.when is None
        else f"IF({typed_counts(rules, block, number)},{typed_counted(rules, block, number)},0)"
        for number in numbers
        if number.best_of is None
    ]
    groups = dict.fromkeys(number.best_of for number in numbers if number.best_of is not None)
    return terms + [best_of_group(rules, block, str(group)) for group in groups]


NOT_COUNTED = -(10**6)  # below any typed number's use: a number of a group that does not count


def best_of_group(rules: RuleSet, block: Resolution, group: str) -> str:
    """The highest of the counted numbers of a ``best_of`` group, 0 when none counts."""
    members = [number for number in typed_numbers(block) if number.best_of == group]
    counts = [typed_counts(rules, block, number) for number in members]
    values = [
        f"IF({flag},{typed_counted(rules, block, number)},{NOT_COUNTED})"
        for flag, number in zip(counts, members, strict=True)
    ]
    return f"IF(OR({','.join(counts)}),MAX({','.join(values)}),0)"


def rows_sum(
    rules: RuleSet,
    block: Resolution,
    column: str,
    flag: str | None = None,
    tables: Callable[[str], bool] = lambda table_id: True,
) -> list[str]:
    """A term per picked row's ``column`` (with ``flag``: of the rows that tick it; of ``tables`` only):
    SUM, not N, of each cell: Gnumeric's N of an empty cell (a GM-fillable cover row) is #NUM!."""
    return picked_terms(
        rules, block, column, lambda v: f"SUM({v})", lambda tick, v: f"IF({tick},{v},0)", flag, tables
    )


def worse_tables(block: Resolution) -> tuple[str, ...]:
    """Every table whose picked rows the rulings may add up as only the lowest (``worse_of``)."""
    said = block.situation
    choices = possible(said.worse_of) if said else []
    return tuple(dict.fromkeys(t for tables in choices for t in tables or ()))


def worse_sum(rules: RuleSet, block: Resolution, column: str) -> list[str]:
    """The terms of the ``worse_of`` tables in ``column``: added up, or the lowest of them while the
    rulings say so (choice tables: one term each)."""
    apart = worse_tables(block)
    if not apart:
        return []
    terms = {t: rows_sum(rules, block, column, tables=lambda table_id, t=t: table_id == t) for t in apart}

    def added(tables: tuple[str, ...] | None) -> str:
        worse = [term for t in tables or () for term in terms[t]]
        lowest = [f"MIN({','.join(worse)})"] if worse else []
        rest = [term for t in apart if t not in (tables or ()) for term in terms[t]]
        return "+".join(lowest + rest) or "0"

    return [by_choice(block.situation.worse_of, added)]


def plain_sum(rules: RuleSet, block: Resolution, column: str) -> str:
    """What the picked rows and the typed numbers add up to in ``column``."""
    apart = worse_tables(block)
    rows = rows_sum(rules, block, column, tables=lambda table_id: table_id not in apart)
    return "+".join(rows + worse_sum(rules, block, column) + typed_terms(rules, block, column)) or "0"


def situation_sum(rules: RuleSet, block: Resolution, column: str) -> str:
    """What the picked rows and the typed numbers add up to in ``column``, with its columns for the
    picked attack kind's word (``ac_ranged``; ``resolution_situation.picked_situation``)."""
    terms = [plain_sum(rules, block, column)]
    word = picked_kind(rules, block.situation)[1] if block.situation and block.situation.kind_table else None
    for kind in ATTACK_WORDS if word else ():
        limited = plain_sum(rules, block, kind_limited(column, kind))
        terms += [] if limited == "0" else [f"IF({word}={q(kind)},{limited},0)"]
    return "+".join(t for t in terms if t != "0") or "0"


def situation_product(rules: RuleSet, block: Resolution, *columns: str) -> str:
    """The product of ``columns`` over the picked rows (1 where nothing is picked)."""
    terms = [
        term
        for column in columns
        for term in picked_terms(
            rules, block, column, lambda v: f"N({v})", lambda tick, v: f"IF({tick},{v},1)"
        )
    ]
    return "*".join(terms) or "1"


def situation_flag(
    rules: RuleSet, block: Resolution, column: str, tables: Callable[[str], bool] = lambda table_id: True
) -> str:
    """TRUE when a picked row (of ``tables``) has ``column`` ticked."""
    terms = picked_terms(
        rules, block, column, lambda v: f"{v}=TRUE", lambda tick, v: f"AND({tick},{v})", tables=tables
    )
    return f"OR({','.join(terms)})" if terms else "FALSE"


def kind_flag(
    rules: RuleSet, block: Resolution, flag: str, tables: Callable[[str], bool] = lambda table_id: True
) -> str:
    """TRUE when a picked row (of ``tables``) ticks the situation ``flag``, or its column for the picked
    attack kind's word (``auto_hit_melee``; ``resolution_situation.situation_flag``)."""
    terms = [situation_flag(rules, block, flag, tables)]
    word = picked_kind(rules, block.situation)[1] if block.situation and block.situation.kind_table else None
    for kind in ATTACK_WORDS if word else ():
        limited = situation_flag(rules, block, kind_limited(flag, kind), tables)
        terms += [] if limited == "FALSE" else [f"AND({word}={q(kind)},{limited})"]
    return terms[0] if len(terms) == 1 else f"OR({','.join(terms)})"


def first_filled(rules: RuleSet, block: Resolution, column: str) -> str | None:
    """``column`` of the first counted pick whose cell is filled (a weapon's ``dice``), or ""
    (``resolution_situation.first_text``); None where no picker has the column."""
    terms = picked_terms(rules, block, column, lambda v: f'({v}&"")', lambda tick, v: f'IF({tick},{v},"")')
    first = q("")
    for term in reversed(terms):
        first = f'IF({term}<>"",{term},{first})'
    return first if terms else None


def kind_columns(table: Table, column: str) -> list[tuple[str, str]]:
    """A sum's or flag's columns in a table: its own, and its columns for one attack kind (``ac_melee``),
    each with the words the note adds after it ("", " (melee)")."""
    found = [(column, "")] if column in table.column_ids else []
    limited = ((kind_limited(column, w), w) for w in ATTACK_WORDS)
    return found + [(name, f" ({word})") for name, word in limited if name in table.column_ids]


def no_attack_tables(rules: RuleSet, block: Resolution) -> list[Table]:
    """The picker tables with a ``no_attack`` column (its own or an attack kind's)."""
    return [table for table in picker_tables(rules, block) if kind_columns(table, NO_ATTACK)]


def no_attack_said(rules: RuleSet, block: Resolution) -> str | None:
    """What a picked row that ticks ``no_attack`` says (``resolution_situation.no_attack_by``): the
    first such table's picked label (a choice table) or title (a toggle table), or ""; None where no
    picker has the column."""
    said = q("")
    for table in reversed(no_attack_tables(rules, block)):
        ticks = kind_flag(rules, block, NO_ATTACK, lambda table_id, t=table.id: table_id == t)
        label = pick_name(table.id) if table.picker == "choice" else q(str(table.title))
        said = f"IF({ticks},{q(NO_ATTACK_SAID.format(label=''))}&{label},{said})"
    return None if said == q("") else said


def stage_product(rules: RuleSet, block: Resolution, stage: Stage, *columns: str) -> str:
    """The factor of a multiplier stage (``resolution_situation.stage_factor``): the product of its
    own column and ``columns`` over the picked rows, times its ``factor`` while a picked row ticks
    its ``when``."""
    product = situation_product(rules, block, *columns, stage_factor_column(stage.name))
    if stage.when is None:
        return product
    factor = by_choice(stage.factor, literal)
    return f"{product}*IF({situation_flag(rules, block, stage.when)},{factor},1)"
