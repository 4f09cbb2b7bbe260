"""How the Encounter log's rows carry the calculator's formulas.

Each working name's formula is copied with the inputs the log leaves at their defaults written in and
folded (``pycalc.sheets.fold``). A working name then becomes a LITERAL (written into the formulas that
use it: no cell), ONCE (one cell in the log's header row that every row reads: it reads no row cell)
or ROW (a hidden column). What the rows share is then taken out of the ROW formulas of the native
file (the .xlsx):
- a part that reads no row cell, such as a look-up of a rule table by a fixed key and the IF, AND, OR
  and NOT over such look-ups and rulings, is worked out ONCE;
- a part that recurs on the row (the dice text after its "d" is read four times) gets a ROW column.
A part is taken out only when a cell holding it gives what it gives in place: not a reference to a
blank cell (``INDEX`` of a table cell left empty, or a bare input that may be empty) nor a range, and
nothing in it depends on where it stands.

The .xlsx and the .xlsm lay out the same columns (the .xlsm takes its cached values from the .xlsx
cell by cell): a name is a LITERAL only where it is one in both files, ONCE only where it reads no row
cell in either, and the shared parts are the native file's, written alike in both (native formulas;
the .xlsm's rows use them where its formulas have the same parts).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.calculator import BOOLEAN_FORMAT
from pycalc.sheets.common import destinations, put_formula, table_name
from pycalc.sheets.fold import Call, Group, Node, fold, is_literal, parse, text
from pycalc.table_files import Table
from pycalc.tables import RuleSet

TOKEN = re.compile(r"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'!|[A-Za-z_][A-Za-z0-9_.]*\s*\(?")
LITERAL, ONCE, ROW = "literal", "once", "row"
ONCE_PREFIX, ROW_PREFIX = "LOG_ONCE_", "LOG_SHARED_"  # the names of the parts taken out
LEAST_ONCE, LEAST_SHARED = 20, 40  # characters: a shorter part stays where it is
REFERENCE_PASSING = {
    "IF": 1,
    "IFERROR": 0,
    "CHOOSE": 1,
}  # calls whose result is one of their arguments (from)
RANGE_TAKING: dict[str, Collection[int] | None] = {
    "INDEX": (0,),
    "MATCH": (1,),
    **dict.fromkeys(("SUM", "MIN", "MAX", "SUMIF", "SUMIFS", "COUNTIF", "COUNTIFS", "SUMPRODUCT")),
}  # calls that read a whole range at these arguments (None: any)


def names_in(formula: str) -> list[str]:
    return [t for t in TOKEN.findall(formula) if t[0] not in "\"'" and not t.endswith("(")]


@functools.cache
def formula_template(formula: str) -> tuple[str, tuple[str, ...]]:
    """The formula as a str.format template with a ``{}`` for each name in it, and those names (the log
    fills the same formulas on every row, so each is cut once)."""
    pieces: list[str] = []
    names: list[str] = []
    start = 0
    for match in TOKEN.finditer(formula):
        token = match.group(0)
        if token[0] in "\"'" or token.endswith("("):
            continue
        pieces.append(formula[start : match.start()].replace("{", "{{").replace("}", "}}") + "{}")
        names.append(token)
        start = match.end()
    pieces.append(formula[start:].replace("{", "{{").replace("}", "}}"))
    return "".join(pieces), tuple(names)


def substitute(formula: str, replace: Mapping[str, str]) -> str:
    template, names = formula_template(formula)
    return template.format(*[replace.get(name, name) for name in names])


THREAD_GUARD = ("IF(ROW()>0,", ",MATCH(0,0,0))")  # ROW()>0: always true, yet no literal to fold away


def kept_off_threads(formula: str) -> str:
    """``formula`` with a MATCH in a branch never taken, so that LibreOffice calculates its column on
    one thread: it leaves a formula group holding MATCH off its threads (ScTokenArray's deny list).
    Threaded, a Recalculate Hard of a short fight read a false Err:522 (circular reference) on the
    log's rows, which read the rows above them through the roster, in three rulesets; typed, opened
    again or with threads off it was right (tests/test_encounter_hard_recalc.py). No office ever
    evaluates the MATCH. A literal reads no cell and stays as it is."""
    return formula if is_literal(formula) else f"{THREAD_GUARD[0]}{formula}{THREAD_GUARD[1]}"


def without_thread_guard(formula: str) -> str:
    """``formula`` as it was before ``kept_off_threads`` (a leading "=" kept)."""
    equals = "=" if formula.startswith("=") else ""
    body = formula.removeprefix("=")
    if body.startswith(THREAD_GUARD[0]) and body.endswith(THREAD_GUARD[1]):
        body = body[len(THREAD_GUARD[0]) : -len(THREAD_GUARD[1])]
    return equals + body


@dataclass(frozen=True)
class RowFormula:
    """A working name's (or a part's taken out) formula on the log rows, the names in it still to be
    replaced by the row's cells; ``kind`` is LITERAL, ONCE or ROW."""

    template: str
    kind: str


@dataclass(frozen=True)
class Cells:
    """What the names a formula reads are, for deciding which of its parts a cell may hold."""

    ranges: frozenset[str]  # workbook names of more than one cell (the rule tables' columns)
    blankable: frozenset[str]  # inputs the row reads from a cell the GM may leave empty
    fixed: Callable[[Call], bool]  # an INDEX that looks up a table cell known to be filled
    booleans: frozenset[str] = frozenset()  # the rule tables' columns of TRUE/FALSE only


def plan_rows(
    order: list[str],
    formulas: list[Mapping[str, str]],
    defaults: list[Mapping[str, str]],
    varying_inputs: set[str],
    native: int,
    cells: Cells,
    shared_columns: bool = True,
) -> list[dict[str, RowFormula]]:
    """Each file's plan, by working name and part taken out: ``formulas[i]`` and ``defaults[i]`` (the
    literal of each input the log does not set) are file i's; ``native`` is the index of the .xlsx.
    Without ``shared_columns``, a part recurring on the row stays where it is."""
    known = [dict(d) for d in defaults]
    plans: list[dict[str, RowFormula]] = [{} for _ in formulas]
    varying = set(varying_inputs)
    for name in order:
        folded = [
            fold(substitute(f[name], literals)) if name in f else None
            for f, literals in zip(formulas, known, strict=True)
        ]
        if all(f is not None and is_literal(f) for f in folded):
            kind = LITERAL
        elif all(f is not None and not varying.intersection(names_in(f)) for f in folded):
            kind = ONCE
        else:
            kind = ROW
            varying.add(name)
        for formula, literals, plan in zip(folded, known, plans, strict=True):
            if formula is not None and is_literal(formula):
                literals[name] = formula
            plan[name] = RowFormula('""' if formula is None else formula, kind)

    known_movable: dict[str, bool] = {}

    def movable(found: Found) -> bool:  # one answer per part's text
        if found.text not in known_movable:
            known_movable[found.text] = found.position_free and value_of_call(found.call, cells)
        return known_movable[found.text]

    take_out_once(plans, native, cells.ranges, lambda c: movable(c) and not varying.intersection(c.names))
    if shared_columns:
        take_out_shared(plans, native, cells.ranges, movable)
    return plans


@dataclass(frozen=True)
class Found:
    """A call of a formula, as ``calls_in`` finds it."""

    call: Call
    text: str
    after: int  # the index in the list just past the calls inside it
    position_free: bool  # nothing in it depends on the cell it stands in (see ``calls_in``)
    names: frozenset[str]  # the names it reads


Wanted = Callable[[Found], bool]  # whether to take a call out


def take_out_once(
    plans: list[dict[str, RowFormula]], native: int, ranges: frozenset[str], wanted: Wanted
) -> None:
    """Every part of the native rows' formulas that ``wanted`` takes (the largest) becomes ONCE."""
    parts: dict[str, str] = {}
    for planned in list(plans[native].values()):
        if planned.kind != ROW:
            continue
        calls = calls_in(planned.template, ranges)
        at = 0
        while at < len(calls):
            found = calls[at]
            if wanted(found):
                if len(found.text) >= LEAST_ONCE and found.names:
                    parts.setdefault(found.text, f"{ONCE_PREFIX}{len(parts) + 1}")
                at = found.after  # not inside a part taken
            else:
                at += 1
    take_out(plans, parts, ONCE)


def take_out_shared(
    plans: list[dict[str, RowFormula]], native: int, ranges: frozenset[str], wanted: Wanted
) -> None:
    """Parts that recur in the native rows' formulas get a ROW column each, the one saving the most
    characters first, until no part of LEAST_SHARED characters or more recurs."""
    wanted_in: dict[str, list[str]] = {}  # a formula's parts that may be shared (found once)
    while True:
        uses: Counter[str] = Counter()
        for planned in plans[native].values():
            if planned.kind == ROW:
                if planned.template not in wanted_in:
                    calls = calls_in(planned.template, ranges)
                    wanted_in[planned.template] = [
                        c.text for c in calls if len(c.text) >= LEAST_SHARED and wanted(c)
                    ]
                uses.update(wanted_in[planned.template])
        name = f"{ROW_PREFIX}{sum(n.startswith(ROW_PREFIX) for n in plans[native]) + 1}"
        saving = {part: (len(part) - len(name)) * (count - 1) for part, count in uses.items() if count > 1}
        best = max(saving, key=saving.__getitem__, default=None)
        if best is None:
            return
        take_out(plans, {best: name}, ROW)


def take_out(plans: list[dict[str, RowFormula]], parts: Mapping[str, str], kind: str) -> None:
    """Each part (by its text) becomes a name of this kind in every file, read where it stood."""
    for plan in plans:
        for name, planned in plan.items():
            if planned.kind == ROW:
                plan[name] = RowFormula(with_calls_named(planned.template, parts), ROW)
        plan.update({name: RowFormula(part, kind) for part, name in parts.items()})


def calls_in(formula: str, ranges: frozenset[str]) -> list[Found]:
    """Every call of the formula, outermost first, each with its text, the names it reads and whether
    it is position-free: no ROW() or COLUMN() in it, and no range read as one value (implicit
    intersection) rather than whole by a call that takes ranges (``RANGE_TAKING``)."""
    found: list[Found | None] = []

    def walk(nodes: list[Node]) -> tuple[str, bool, set[str]]:  # text, position-free, names
        pieces, free, names = [], True, set()
        for node in nodes:
            if isinstance(node, Call):
                at = len(found)
                found.append(None)
                whole = RANGE_TAKING.get(node.name, ())
                call_free, call_names, args = node.name not in ("ROW", "COLUMN"), set(), []
                for index, arg in enumerate(node.args):
                    arg_text, arg_free, arg_names = walk(arg)
                    args.append(arg_text)
                    call_names |= arg_names
                    read_whole = node.name in RANGE_TAKING and (whole is None or index in whole)
                    call_free = call_free and (arg_free or (read_whole and arg_text.strip() in ranges))
                part = f"{node.name}({','.join(args)})"
                found[at] = Found(node, part, len(found), call_free, frozenset(call_names))
                pieces.append(part)
                free, names = free and call_free, names | call_names
            elif isinstance(node, Group):
                inner_text, inner_free, inner_names = walk(node.inner)
                pieces.append(f"({inner_text})")
                free, names = free and inner_free, names | inner_names
            else:
                read = names_in(node)
                pieces.append(node)
                free, names = free and not ranges.intersection(read), names.union(read)
        return "".join(pieces), free, names

    walk(parse(formula))
    return [f for f in found if f is not None]


def with_calls_named(formula: str, parts: Mapping[str, str]) -> str:
    """The formula with each call whose text is one of ``parts`` replaced by its name (the outermost
    such call: one inside it goes with it)."""
    if not any(part in formula for part in parts):
        return formula

    def walk(nodes: list[Node]) -> tuple[str, str]:  # (as written, with the parts named)
        written, named = [], []
        for node in nodes:
            if isinstance(node, Call):
                args = [walk(arg) for arg in node.args]
                part = f"{node.name}({','.join(a for a, _ in args)})"
                written.append(part)
                named.append(parts.get(part) or f"{node.name}({','.join(n for _, n in args)})")
            elif isinstance(node, Group):
                inner = walk(node.inner)
                written.append(f"({inner[0]})")
                named.append(f"({inner[1]})")
            else:
                written.append(node)
                named.append(node)
        return "".join(written), "".join(named)

    return walk(parse(formula))[1]


def value_of_call(call: Call, cells: Cells) -> bool:
    """The call gives a value a cell holds alike: not a reference that may be blank or a range."""
    if call.name == "INDEX":
        return cells.fixed(call)
    if call.name in ("OFFSET", "INDIRECT"):
        return False
    if call.name in REFERENCE_PASSING:
        return all(value_of(arg, cells) for arg in call.args[REFERENCE_PASSING[call.name] :])
    return True


def value_of(nodes: list[Node], cells: Cells) -> bool:
    if len(nodes) == 1 and isinstance(nodes[0], Call):
        return value_of_call(nodes[0], cells)
    if len(nodes) == 1 and isinstance(nodes[0], Group):
        return value_of(nodes[0].inner, cells)
    pieces = "".join(n for n in nodes if isinstance(n, str))
    if ":" in pieces:
        return False  # a range between references
    alone = names_in(pieces) if len(nodes) == 1 else []
    bare = len(alone) == 1 and alone[0] == pieces.strip()  # a name alone: the value of its cell
    return not bare or alone[0] not in cells.blankable | cells.ranges


def table_cells(rules: RuleSet, book: Workbook, blankable: Collection[str] = ()) -> Cells:
    """The ranges of the workbook (its rule tables' columns, and its names of more than one cell so
    far) and the look-ups of its filled table cells, with these inputs that may be left blank."""
    columns = {
        table_name(table.id, column): (table, column)
        for table in rules.tables.values()
        for column in ("id", "label", *table.column_ids)
    }
    named = [n for n, d in book.defined_names.items() if any(":" in ref for _, ref in destinations(d))]
    booleans = [
        name
        for name, (table, column) in columns.items()
        if column not in ("id", "label")
        and all(isinstance(row.values.get(column), bool) for row in table.rows)
    ]
    return Cells(
        frozenset(columns) | frozenset(named),
        frozenset(blankable),
        lambda call: filled_lookup(call, columns),
        frozenset(booleans),
    )


TESTS = ("AND", "OR", "NOT", "ISNUMBER", "ISBLANK", "ISERROR", "ISTEXT", "ISNA", "ISLOGICAL")
COMPARED = re.compile(r"<>|<=|>=|[=<>]")


def gives_boolean(formula: str, booleans: frozenset[str]) -> bool:
    """Whether the formula gives TRUE or FALSE (so its cell takes the TRUE/FALSE format): a test, a
    comparison, a look-up into a TRUE/FALSE column, or an IF or IFERROR whose results all are."""
    return boolean_nodes(parse(formula), booleans)


def boolean_nodes(nodes: list[Node], booleans: frozenset[str]) -> bool:
    pieces = "".join(n for n in nodes if isinstance(n, str))
    if COMPARED.search(re.sub(r'"(?:[^"]|"")*"', "", pieces)):
        return True  # a comparison outside every call and parenthesis: the last operation
    if len(nodes) == 1 and isinstance(nodes[0], Group):
        return boolean_nodes(nodes[0].inner, booleans)
    if len(nodes) == 1 and isinstance(nodes[0], str):
        return nodes[0].strip() in ("TRUE", "FALSE")
    if len(nodes) != 1 or not isinstance(nodes[0], Call):
        return False
    call = nodes[0]
    if call.name in TESTS:
        return True
    if call.name == "INDEX":
        return text(call.args[0]).strip() in booleans
    results = {"IF": call.args[1:], "IFERROR": call.args}.get(call.name)
    if call.name == "IF" and len(call.args) == 2:
        results = [call.args[1], ["FALSE"]]
    return bool(results) and all(boolean_nodes(arg, booleans) for arg in results)


def filled_lookup(call: Call, columns: Mapping[str, tuple[Table, str]]) -> bool:
    """``INDEX(T_<TABLE>_<COLUMN>,MATCH(key,T_<TABLE>_<ID or LABEL>,0))`` with a literal key, of a
    table the GM does not fill, whose cell is filled in the tables (so never a blank cell)."""
    if len(call.args) != 2 or len(call.args[1]) != 1 or not isinstance(call.args[1][0], Call):
        return False
    match = call.args[1][0]
    shown = [text(arg).strip() for arg in [call.args[0], *match.args]]  # looked in, key, by, 0
    if match.name != "MATCH" or len(shown) != 4 or shown[3] != "0" or not shown[1].startswith('"'):
        return False
    looked, by = columns.get(shown[0]), columns.get(shown[2])
    if looked is None or by is None or looked[0] is not by[0] or by[1] not in ("id", "label"):
        return False
    table, column = looked
    key = shown[1][1:-1].replace('""', '"')
    rows = [row for row in table.rows if getattr(row, by[1]) == key]
    if table.gm_fillable or len(rows) != 1:
        return False
    value = getattr(rows[0], column) if column in ("id", "label") else rows[0].values.get(column)
    return value not in (None, "")


HERE = "PARTS_HERE"  # in a column's formula, the cell of its row that it reads


class PartsArea:
    """Hidden cells down one column of a sheet, from a row: the parts that the sheet's columns of
    formulas share and that read nothing of the row, each worked out once (``column_formula``)."""

    def __init__(self, sheet: Worksheet, column: int, row: int, cells: Cells) -> None:
        self.sheet, self.column, self.row, self.cells = sheet, column, row, cells
        self.refs: dict[str, str] = {}  # a part's formula -> the absolute reference of its cell

    def column_formula(self, formula_of: Callable[[str], str]) -> Callable[[str], str]:
        """``formula_of(cell)`` for the cell each row reads, folded, its fixed parts read here."""
        plan = plan_rows(["COLUMN"], [{"COLUMN": formula_of(HERE)}], [{}], {HERE}, 0, self.cells, False)[0]
        refs = {name: self.ref(planned.template) for name, planned in plan.items() if name != "COLUMN"}
        template = substitute(plan["COLUMN"].template, refs)
        return lambda cell: substitute(template, {HERE: cell})

    def ref(self, part: str) -> str:
        if part not in self.refs:
            cell = put_formula(self.sheet.cell(self.row + len(self.refs), self.column), part)
            if gives_boolean(part, self.cells.booleans):
                cell.number_format = BOOLEAN_FORMAT
            self.refs[part] = f"${cell.column_letter}${cell.row}"
        return self.refs[part]


ROW_MARK = 1_048_575  # a row no log reaches: where a row's number goes (ROW_MARK - 1: the row above's)
MARKED_ROW = re.compile(rf"(?<=[A-Z$])(?:{ROW_MARK}|{ROW_MARK - 1})(?![0-9])")


@dataclass(frozen=True)
class RowTemplate:
    """A row's formula cells by column, written once for row ROW_MARK and filled in for each row: a log
    of 200 rows works out its formulas once, not 200 times."""

    templates: dict[int, str]  # str.format templates: {0} the row's number, {1} the row above's

    @classmethod
    def of(cls, formulas: Mapping[int, str]) -> RowTemplate:
        """The template of ``formulas``, written for ROW_MARK (which may appear only as the row of a
        reference, after its column's letters)."""
        templates = {}
        for column, formula in formulas.items():
            escaped = formula.replace("{", "{{").replace("}", "}}")
            template = MARKED_ROW.sub(lambda m: "{0}" if m.group(0) == str(ROW_MARK) else "{1}", escaped)
            if str(ROW_MARK)[:-1] in template:
                raise ValueError(f"{ROW_MARK} stands in a formula other than as a row: {formula}")
            templates[column] = template
        return cls(templates)

    def formula(self, column: int, row: int) -> str:
        return self.templates[column].format(row, row - 1)

    def formulas(self, row: int) -> dict[int, str]:
        return {column: self.formula(column, row) for column in self.templates}
