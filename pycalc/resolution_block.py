"""The ``resolution:`` block of a d20 ruleset's ``ruleset.yaml``: how one attack roll is resolved.

Parsed and checked here, every problem reported as ``tables/<id>/ruleset.yaml:LINE: what is wrong``
like the rest of the tables. The parsed block keeps references, not numbers: a number is a literal
or a ``table.entry[.column]`` cell, and any value may be chosen by a ruling
(``{ruling: id, choices: {choice: value}}``). :func:`value` resolves them when the engine reads them,
so a house rule that edits a table or flips a ruling changes the resolution with it.

Every key is documented in ``tables/README.md`` ("The resolution block"); the engine that reads the
block is ``pycalc.resolution`` (and ``pycalc.resolution_odds``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pycalc.table_files import LocatedDict, LocatedList, Ruling, Table, TableProblem, _Checker, _kind

if TYPE_CHECKING:
    from pycalc.table_files import RuleSet

PICKED = "picked"  # the entry of a reference that reads the picked row
TARGETS = ("armor_class", "number_needed", "descending_ac")  # descending_ac: the bonus typed is THAC0
NEED_BASES = ("need", "target")
NEEDS_MAGIC = ("cannot_hit", "no_auto_hit")
ROLL_MODES = ("normal", "advantage", "disadvantage")
FUMBLE_MODES = ("none", "always", "level_check", "chart")
CRITICAL_MODES = ("none", "automatic", "confirm", "chart")
SCOPES = ("whole", "dice", "not_max_die")
ROUNDINGS = ("down", "up", "picked")
PENALTY_FROM = ("total", "die")
FORMULA_KEYS = ("dice_rolled", "rerolled", "dice_max", "die_max", "modifier")
OWN = "own"
NONE = "none"
REFERENCE = re.compile(r"^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?$")

TOP_KEYS = {
    "die",
    "target",
    "ac_change",
    "least_target",
    "hit_margin",
    "need_basis",
    "advantage",
    "follow_die",
    "always_miss",
    "always_hit",
    "needs_magic",
    "fumble",
    "critical",
    "damage",
    "modifiers",
    "situation",
    "note",
}
FUMBLE_KEYS = {"mode", "chart", "special", "plain_unless_special", "text"}
CRITICAL_KEYS = FUMBLE_KEYS | {"rolls", "no_critical_when_needed", "confirm_natural_miss_fails", "formula"}
CRITICAL_KEYS |= {"follow_adds_mods"}
DAMAGE_KEYS = {"least", "formulas", "hit", "critical", "auto_hit", "auto_hit_multiplied", "natural_penalty"}
DAMAGE_KEYS |= {"multipliers"}
NEED_RANGE_KEYS = ("at_least", "above", "at_most", "below")
SITUATION_KEYS = {"kind_table", "sums", "products", "flags", "only", "gate", "ruled"}
MELEE, RANGED, ANY = "melee", "ranged", "any"  # the attack kinds a table or a row may count for


# --------------------------------------------------------------------------- the parsed block


@dataclass(frozen=True)
class Ref:
    """A table cell: ``table.entry`` (column ``value``) or ``table.entry.column``; the entry
    ``picked`` is the row picked in the table's dropdown (a choice picker of ``modifiers``)."""

    table: str
    entry: str
    column: str
    line: int


@dataclass(frozen=True)
class ByRuling:
    """A value chosen by the ruling in force: ``choices[rules.ruling(ruling)]``."""

    ruling: str
    choices: Mapping[str, Any]
    line: int


@dataclass(frozen=True)
class RollRange:
    """Natural rolls ``low``..``high`` (None: the die's lowest / highest face) when ``when`` holds."""

    low: Any = None
    high: Any = None
    when: Any = True


@dataclass(frozen=True)
class RollColumn:
    """The natural rolls whose band of ``table`` (keyed by the natural roll) has ``column`` true."""

    table: str
    column: str


Rolls = tuple[RollRange | RollColumn, ...]


@dataclass(frozen=True)
class NeedRange:
    """No critical when the number needed is in this range (every bound given must hold)."""

    at_least: Any = None
    above: Any = None
    at_most: Any = None
    below: Any = None


@dataclass(frozen=True)
class Formula:
    """Damage = dice_rolled x (the dice as rolled) + each further independent roll of the dice
    (``rerolled`` of them) + dice_max x (the dice's maximum) + die_max x (one die's maximum) +
    modifier x (the dice's +modifier and the situation's damage bonus)."""

    dice_rolled: Any = 0
    rerolled: Any = 0
    dice_max: Any = 0
    die_max: Any = 0
    modifier: Any = 0


HIT_FORMULA = Formula(dice_rolled=1, modifier=1)


@dataclass(frozen=True)
class FormulaTable:
    """Formulas as rows of an entries table: formula key -> column id."""

    table: str
    columns: Mapping[str, str]


@dataclass(frozen=True)
class Chart:
    """A bands table read with the follow-up roll."""

    table: str
    special: str | None = None  # bool column: the row is "a special"
    plain_unless_special: Any = False  # a non-special row makes the natural roll a plain Hit / Miss
    formula: str | None = None  # column naming the damage formula (critical chart)
    follow_adds_mods: Any = False  # the chart is read with follow roll + the roll's modifiers
    text: str | None = None  # text column: what the row does, shown by the calculator


@dataclass(frozen=True)
class Fumble:
    mode: Any = NONE
    chart: Chart | None = None


@dataclass(frozen=True)
class Critical:
    mode: Any = NONE
    rolls: Rolls | None = None  # None: the always-hit rolls
    no_critical_when_needed: Any = None  # NeedRange, by ruling or not
    confirm_natural_miss_fails: Any = False
    chart: Chart | None = None


@dataclass(frozen=True)
class Penalty:
    """Damage lost by a hit on an always-hit roll when the number needed is above ``above``."""

    above: Any
    per_point: Any
    applies_to: Any = "total"


@dataclass(frozen=True)
class Stage:
    """One damage multiplier, applied in order; its factor is an input (the situation's)."""

    name: str
    scope: Any = "whole"
    rounding: Any = "down"


@dataclass(frozen=True)
class DamageRules:
    least: Any = 0
    formulas: FormulaTable | None = None
    hit: Any = HIT_FORMULA
    critical: Any = None  # None: a critical deals what a hit deals
    auto_hit: Any = None  # None: an automatic hit deals what a hit deals
    auto_hit_multiplied: Any = True
    natural_penalty: Penalty | None = None
    multipliers: tuple[Stage, ...] = ()


@dataclass(frozen=True)
class Advantage:
    highest_of: Any = None
    lowest_of: Any = None
    both: Any = "normal"


Columns = Mapping[str, str]  # picker table id -> the column it gives


@dataclass(frozen=True)
class Adding:
    """How a calculator's picked rows add up to its situation (``situation:``, read by
    ``pycalc.pickers.added_up``): each part names the column each picker table gives it; ``only`` and a
    row's ``gate`` column name the attack kind it counts for (``melee``, ``ranged`` or a kind's id;
    ``any`` or empty: every attack)."""

    kind_table: str | None = None  # the choice table of attack kinds (None: one kind of attack)
    sums: Mapping[str, Columns] = field(default_factory=dict)  # part -> the picked values added
    products: Mapping[str, Columns] = field(default_factory=dict)  # part -> multiplied (1: none)
    flags: Mapping[str, Columns] = field(default_factory=dict)  # part -> ticked in any picked row
    only: Mapping[str, str] = field(default_factory=dict)  # table id -> the kind it counts for
    gate: str | None = None  # a row's column naming the kind it counts for
    ruled: Mapping[str, str] = field(default_factory=dict)  # table id -> ruling: <column>_<choice>


@dataclass(frozen=True)
class Resolution:
    die: Any
    target: Any
    file: str
    line: int
    ac_change: Any = 1
    least_target: Any = None
    hit_margin: Any = 0
    need_basis: Any = "need"
    advantage: Advantage | None = None
    follow_die: Any = None  # None: the attack die
    always_miss: Rolls = ()
    always_hit: Rolls = ()
    needs_magic: Any = "cannot_hit"
    fumble: Fumble = field(default_factory=Fumble)
    critical: Critical = field(default_factory=Critical)
    damage: DamageRules = field(default_factory=DamageRules)
    modifiers: tuple[str, ...] | None = None  # None: "own" (the ruleset's module works the situation out)
    situation: Adding | None = None  # how an own ruleset's picked rows add up (pycalc.pickers.added_up)
    picked_tables: tuple[str, ...] = ()  # the pickers a ``table.picked.column`` reference reads


def target_kind(block: Resolution) -> str:
    """armor_class, number_needed or descending_ac: what the GM types as the target (the inputs are
    laid out for one kind; a target chosen by a ruling between kinds is laid out as an AC)."""
    kinds = possible(block.target)
    return kinds[0] if len(kinds) == 1 else "armor_class"


def value(rules: RuleSet, item: Any) -> Any:
    """A block value as the rules in force make it: the ruling's choice, the table cell's value."""
    while isinstance(item, ByRuling):
        item = item.choices[rules.ruling(item.ruling)]
    if isinstance(item, Ref):
        table = rules.table(item.table)
        entry = item.entry
        if entry == PICKED:  # the row picked in the calculator's dropdown, else the first (its default)
            entry = rules.picked.get(item.table) or str(table.rows[0].id)
        return table.value(entry, item.column)
    return item


def possible(item: Any) -> list[Any]:
    """Every value an item can take, whatever the rulings (for checks that do not know them)."""
    if isinstance(item, ByRuling):
        return [v for choice in item.choices.values() for v in possible(choice)]
    return [item]


# --------------------------------------------------------------------------- parsing


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
    situation_gate: list[tuple[str, tuple[str, ...], int, str]] = field(default_factory=list)
    situation_rulings: list[tuple[str, int, str]] = field(default_factory=list)
    chart_formulas: list[tuple[str, str, int]] = field(default_factory=list)  # (table, column, line)


Parse = Callable[[Any, int, str], Any]


class _Parser:
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

    # ---- parts

    def rolls(self, raw: Any, line: int, what: str) -> Rolls:
        if raw == NONE:
            return ()
        items, lines = (raw, raw.item_lines) if isinstance(raw, LocatedList) else ([raw], [line])
        found: list[RollRange | RollColumn] = []
        for item, item_line in zip(items, lines, strict=True):
            data = self.check.mapping(item, item_line, f"{what} (natural rolls)")
            if data is None:
                continue
            if "table" in data:
                self.check.keys(data, {"table", "column"}, {"table", "column"}, what)
                column = self.column_id(data, "column", what) or ""
                table = self.table_id(
                    data.get("table"),
                    data.value_lines["table"],
                    f"{what}.table",
                    "bands",
                    {column: ("bool",)},
                )
                found.append(RollColumn(table, column))
                continue
            self.check.keys(data, {"from", "to", "when"}, set(), what)
            if "from" not in data and "to" not in data:
                self.check.fail(data.line, f"{what} needs 'from', 'to' or both (or table and column)")
            found.append(
                RollRange(
                    self.get(data, "from", self.number, what),
                    self.get(data, "to", self.number, what),
                    self.get(data, "when", self.flag, what, True),
                )
            )
        return tuple(found)

    def need_range(self, raw: Any, line: int, what: str) -> NeedRange | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, set(NEED_RANGE_KEYS), set(), what)
        if not any(key in data for key in NEED_RANGE_KEYS):
            self.check.fail(data.line, f"{what} needs at least one of {', '.join(NEED_RANGE_KEYS)}")
        return NeedRange(*(self.get(data, key, self.number, what) for key in NEED_RANGE_KEYS))

    def formula(self, raw: Any, line: int, what: str) -> Any:
        if isinstance(raw, str):
            name = self.check.ident(raw, line, what)
            self.uses.formula_names.append((name, line, what))
            return name
        data = self.check.mapping(raw, line, f"{what} (a formula or a damage.formulas row id)")
        if data is None:
            return HIT_FORMULA
        self.check.keys(data, set(FORMULA_KEYS), set(), what)
        if not data:
            self.check.fail(data.line, f"{what} needs at least one of {', '.join(FORMULA_KEYS)}")
        return Formula(*(self.get(data, key, self.number, what, 0) for key in FORMULA_KEYS))

    def chart(self, data: LocatedDict, what: str, mode: Any, with_formula: bool) -> Chart | None:
        if "chart" not in data:
            if "chart" in possible(mode):
                self.check.fail(data.line, f"{what} mode chart needs 'chart' (the bands table it reads)")
            return None
        special = self.column_id(data, "special", what)
        formula = self.column_id(data, "formula", what) if with_formula else None
        text = self.column_id(data, "text", what)
        columns: dict[str, tuple[str, ...]] = {}
        if special:
            columns[special] = ("bool",)
        if text:
            columns[text] = ("text",)
        if formula:
            columns[formula] = ("text", "outcome")
            self.uses.chart_formulas.append((str(data["chart"]), formula, data.value_lines["formula"]))
        elif with_formula:
            self.check.fail(data.line, f"{what} chart needs 'formula' (the column naming each row's damage)")
        plain = self.get(data, "plain_unless_special", self.flag, what, False)
        if "plain_unless_special" in data and not special:
            self.check.fail(
                data.value_lines["plain_unless_special"], f"{what}.plain_unless_special needs 'special'"
            )
        table = self.table_id(data["chart"], data.value_lines["chart"], f"{what}.chart", "bands", columns)
        adds = self.get(data, "follow_adds_mods", self.flag, what, False) if with_formula else False
        return Chart(table, special, plain, formula, adds, text)

    def mode_block(self, raw: Any, line: int, what: str, keys: set[str]) -> LocatedDict | None:
        if isinstance(raw, str):
            block = LocatedDict(mode=raw)
            block.line, block.value_lines, block.key_lines = line, {"mode": line}, {"mode": line}
            return block
        data = self.check.mapping(raw, line, what)
        if data is not None:
            self.check.keys(data, keys, {"mode"}, what)
        return data

    def fumble(self, raw: Any, line: int, what: str) -> Fumble:
        data = self.mode_block(raw, line, what, FUMBLE_KEYS)
        if data is None:
            return Fumble()
        mode = self.get(data, "mode", self.choice(FUMBLE_MODES), what, NONE)
        return Fumble(mode, self.chart(data, what, mode, False))

    def critical(self, raw: Any, line: int, what: str) -> Critical:
        data = self.mode_block(raw, line, what, CRITICAL_KEYS)
        if data is None:
            return Critical()
        if "follow_adds_mods" in data and "chart" not in data:
            self.check.fail(data.value_lines["follow_adds_mods"], f"{what}.follow_adds_mods needs 'chart'")
        mode = self.get(data, "mode", self.choice(CRITICAL_MODES), what, NONE)
        return Critical(
            mode=mode,
            rolls=self.get(data, "rolls", self.rolls, what),
            no_critical_when_needed=self.get(data, "no_critical_when_needed", self.need_range, what),
            confirm_natural_miss_fails=self.get(data, "confirm_natural_miss_fails", self.flag, what, False),
            chart=self.chart(data, what, mode, True),
        )

    def formulas(self, raw: Any, line: int, what: str) -> FormulaTable | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"table", *FORMULA_KEYS}, {"table"}, what)
        columns = {key: self.column_id(data, key, what) or "" for key in FORMULA_KEYS if key in data}
        if not columns:
            self.check.fail(
                data.line, f"{what} needs the column of at least one of {', '.join(FORMULA_KEYS)}"
            )
        wanted = {column: ("int",) for column in columns.values()}
        return FormulaTable(
            self.table_id(data.get("table"), data.value_lines.get("table", line), what, "entries", wanted),
            columns,
        )

    def penalty(self, raw: Any, line: int, what: str) -> Penalty | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"above", "per_point", "from"}, {"above", "per_point"}, what)
        return Penalty(
            self.get(data, "above", self.number, what, 0),
            self.get(data, "per_point", self.number, what, 0),
            self.get(data, "from", self.choice(PENALTY_FROM), what, "total"),
        )

    def stages(self, raw: Any, line: int, what: str) -> tuple[Stage, ...]:
        if not isinstance(raw, LocatedList):
            self.check.fail(line, f"{what} must be a list of {{name, scope, rounding}}")
            return ()
        found: list[Stage] = []
        for index, (item, item_line) in enumerate(zip(raw, raw.item_lines, strict=True)):
            data = self.check.mapping(item, item_line, f"{what} item")
            if data is None:
                continue
            self.check.keys(data, {"name", "scope", "rounding"}, {"name"}, f"{what} item")
            name = self.check.ident(data.get("name"), data.value_lines.get("name", item_line), f"{what} name")
            if name in {stage.name for stage in found}:
                self.check.fail(data.value_lines.get("name", item_line), f"{what}: duplicate name {name!r}")
            scope = self.get(data, "scope", self.choice(SCOPES), f"{what}.{name}", "whole")
            if index and any(s != "whole" for s in possible(scope)):
                self.check.fail(
                    data.value_lines["scope"],
                    f"{what}.{name}: only the first multiplier may have a scope other than whole",
                )
            found.append(
                Stage(
                    name, scope, self.get(data, "rounding", self.choice(ROUNDINGS), f"{what}.{name}", "down")
                )
            )
        return tuple(found)

    def damage(self, raw: Any, line: int, what: str) -> DamageRules:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return DamageRules()
        self.check.keys(data, DAMAGE_KEYS, set(), what)
        formula = self.formula
        return DamageRules(
            least=self.get(data, "least", self.number, what, 0),
            formulas=self.get(data, "formulas", self.formulas, what),
            hit=self.get(data, "hit", formula, what, HIT_FORMULA),
            critical=self.get(data, "critical", formula, what),
            auto_hit=self.get(data, "auto_hit", formula, what),
            auto_hit_multiplied=self.get(data, "auto_hit_multiplied", self.flag, what, True),
            natural_penalty=self.get(data, "natural_penalty", self.penalty, what),
            multipliers=self.get(data, "multipliers", self.stages, what, ()),
        )

    def advantage(self, raw: Any, line: int, what: str) -> Advantage | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"highest_of", "lowest_of", "both"}, set(), what)
        return Advantage(
            self.get(data, "highest_of", self.number, what),
            self.get(data, "lowest_of", self.number, what),
            self.get(data, "both", self.choice(ROLL_MODES), what, "normal"),
        )

    def modifiers(self, raw: Any, line: int, what: str) -> tuple[str, ...] | None:
        if raw == OWN:
            return None
        if not isinstance(raw, LocatedList):
            self.check.fail(line, f"{what} must be 'own' or a list of picker table ids")
            return None
        found = []
        for item, item_line in zip(raw, raw.item_lines, strict=True):
            table = self.check.ident(item, item_line, f"{what} table id")
            self.uses.pickers.append((table, item_line))
            found.append(table)
        return tuple(found)

    def situation_table(self, raw: Any, line: int, what: str, column: str | None = None) -> str:
        table = self.check.ident(raw, line, what)
        self.uses.situation.append((table, column, line, what))
        return table

    def situation_parts(self, raw: Any, line: int, what: str) -> dict[str, dict[str, str]]:
        """``part: {table: column}``, or ``part: [table, ...]`` for each table's column of the part's name."""
        data = self.check.mapping(raw, line, what) or LocatedDict()
        parts: dict[str, dict[str, str]] = {}
        for part, given in data.items():
            part_line, about = data.value_lines[part], f"{what}.{part}"
            name = self.check.ident(part, data.key_lines[part], f"{what} part")
            if isinstance(given, LocatedList):
                items = [(t, name, item_line) for t, item_line in zip(given, given.item_lines, strict=True)]
            elif isinstance(given, LocatedDict):
                items = [(t, given[t], given.value_lines[t]) for t in given]
                items = [
                    (t, self.check.ident(c, item_line, f"{about}.{t} column"), item_line)
                    for t, c, item_line in items
                ]
            else:
                self.check.fail(
                    part_line, f"{about} must be a list of picker table ids or a mapping table: column"
                )
                continue
            parts[name] = {
                self.situation_table(table, item_line, f"{about} table", column): column
                for table, column, item_line in items
            }
        return parts

    def situation(self, raw: Any, line: int, what: str) -> Adding | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, SITUATION_KEYS, set(), what)
        kind_table = None
        if "kind_table" in data:
            kind_table = self.situation_table(
                data["kind_table"], data.value_lines["kind_table"], f"{what}.kind_table"
            )
        parts = {
            key: self.situation_parts(data[key], data.value_lines[key], f"{what}.{key}")
            for key in ("sums", "products", "flags")
            if key in data
        }
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
        gate = self.column_id(data, "gate", what)
        if gate is not None:
            named = tuple(dict.fromkeys(table for table, _, _, _ in self.uses.situation))
            self.uses.situation_gate.append((gate, named, data.value_lines["gate"], f"{what}.gate"))
        return Adding(
            kind_table=kind_table,
            sums=parts.get("sums", {}),
            products=parts.get("products", {}),
            flags=parts.get("flags", {}),
            only={str(table): str(kind) for table, kind in (only or {}).items()},
            gate=gate,
            ruled={str(table): str(ruling) for table, ruling in (ruled or {}).items()},
        )

    def block(self, data: LocatedDict) -> Resolution:
        what = "resolution"
        self.check.keys(data, TOP_KEYS, {"die", "target"}, what)
        if "note" in data and not isinstance(data["note"], str):
            self.check.fail(data.value_lines["note"], f"{what}.note must be text")
        number = self.number
        if "situation" in data and data.get("modifiers", OWN) != OWN:
            self.check.fail(data.key_lines["situation"], f"{what}.situation is read only with modifiers: own")
        if data.get("target") == "descending_ac" and "least_target" in data:
            self.check.fail(
                data.key_lines["least_target"], f"{what}.least_target is not read with target: descending_ac"
            )
        return Resolution(
            die=self.get(data, "die", number, what, 0),
            target=self.get(data, "target", self.choice(TARGETS), what, TARGETS[0]),
            file=self.check.file,
            line=data.line,
            ac_change=self.get(data, "ac_change", number, what, 1),
            least_target=self.get(data, "least_target", number, what),
            hit_margin=self.get(data, "hit_margin", number, what, 0),
            need_basis=self.get(data, "need_basis", self.choice(NEED_BASES), what, "need"),
            advantage=self.get(data, "advantage", self.advantage, what),
            follow_die=self.get(data, "follow_die", number, what),
            always_miss=self.get(data, "always_miss", self.rolls, what, ()),
            always_hit=self.get(data, "always_hit", self.rolls, what, ()),
            needs_magic=self.get(data, "needs_magic", self.choice(NEEDS_MAGIC), what, "cannot_hit"),
            fumble=self.get(data, "fumble", self.fumble, what, Fumble()),
            critical=self.get(data, "critical", self.critical, what, Critical()),
            damage=self.get(data, "damage", self.damage, what, DamageRules()),
            modifiers=self.get(data, "modifiers", self.modifiers, what),
            situation=self.situation(data["situation"], data.value_lines["situation"], f"{what}.situation")
            if "situation" in data
            else None,
            picked_tables=tuple(
                dict.fromkeys(ref.table for ref, _, _ in self.uses.refs if ref.entry == PICKED)
            ),
        )


def parse_block(check: _Checker, raw: Any, line: int) -> tuple[Resolution | None, Uses]:
    """The block of ``ruleset.yaml`` (problems go to ``check``); its references are checked later
    by :func:`check_references`, once the tables are loaded."""
    parser = _Parser(check)
    data = check.mapping(raw, line, "resolution")
    if data is None:
        return None, parser.uses
    return parser.block(data), parser.uses


# --------------------------------------------------------------------------- references


ROLL_COLUMN = "hit"  # the picker column added to the attack roll: the one that may add dice (type modifier)


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
    return problems


def _formula_rows(uses: Uses, tables: Mapping[str, Table]) -> set[str] | None:
    found = [
        t for t, _, kind, _, what in uses.tables if what.endswith("damage.formulas") and kind == "entries"
    ]
    if not found:
        return None
    table = tables.get(found[0])
    return {str(row.id) for row in table.rows} if table else set()


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
    for kind_table, kind, line, what in uses.situation_kinds:
        table = tables.get(kind_table or "")
        known = (MELEE, RANGED, ANY, *(str(row.id) for row in (table.rows if table else ())))
        if kind not in known:
            problems.append(TableProblem(file, line, f"{what}: {kind!r} must be one of {', '.join(known)}"))
    for gate, named, line, what in uses.situation_gate:
        if not any(gate in tables[t].column_ids for t in named if t in tables):
            problems.append(
                TableProblem(file, line, f"{what}: no table of the situation has a column {gate!r}")
            )
    for ruling, line, what in uses.situation_rulings:
        if ruling not in rulings:
            problems.append(TableProblem(file, line, f"{what}: no ruling {ruling!r} in this ruleset"))
    return problems
