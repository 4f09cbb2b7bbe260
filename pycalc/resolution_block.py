"""The ``resolution:`` block of a d20 ruleset's ``ruleset.yaml``: how one attack roll is resolved.

What the block is: its keys and words, and the parsed block's types (read by
``pycalc.resolution_parse``, its references checked by ``pycalc.resolution_refs``, every problem reported
as ``tables/<id>/ruleset.yaml:LINE: what is wrong`` like the rest of the tables). The parsed block keeps references, not numbers: a number is a literal
or a ``table.entry[.column]`` cell, and any value may be chosen by a ruling
(``{ruling: id, choices: {choice: value}}``). :func:`value` resolves them when the engine reads them,
so a house rule that edits a table or flips a ruling changes the resolution with it.

Every key is documented in ``tables/README.md`` ("The resolution block"); the engine that reads the
block is ``pycalc.resolution`` (and ``pycalc.resolution_odds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pycalc.d20 import CRITICAL, FUMBLE

if TYPE_CHECKING:
    from pycalc.table_files import RuleSet, Table

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
    "effect",
    "range",
    "note",
}
EFFECT_KEYS = {"hit", "miss", "near_miss_by"}
NEAR_MISS_COLUMN = "near_miss"  # a picker's text: what a Miss short by at most effect.near_miss_by does
RANGE_KEYS = {"table", "band", "within"}
CHART_ROW_KEYS = ("chart_from", "chart_to", "chart_die")  # a chart over an entries table (Chart.from_column)
FUMBLE_KEYS = {"mode", "chart", "special", "plain_unless_special", "text", "then", "check", *CHART_ROW_KEYS}
THEN_KEYS = {"chart", "when", "text", *CHART_ROW_KEYS}
CHECK_KEYS = {"dc", "label", "passed", "failed"}  # a check a chart's row calls for (Chart.check)
CRITICAL_KEYS = FUMBLE_KEYS | {"rolls", "no_critical_when_needed", "confirm_natural_miss_fails", "formula"}
CRITICAL_KEYS |= {"follow_adds_mods"}
DAMAGE_KEYS = {
    "least",
    "deals",
    "formulas",
    "hit",
    "critical",
    "auto_hit",
    "auto_hit_multiplied",
    "natural_penalty",
}
DAMAGE_KEYS |= {"multipliers"}
NEED_RANGE_KEYS = ("at_least", "above", "at_most", "below")
ROW_RULES = ("not_with", "also_counts", "worse_of")  # what a ruling's choice does to the picked rows
SITUATION_KEYS = {"kind_table", "only", "gate", "ruled", "numbers", *ROW_RULES}
NUMBER_KEYS = {"label", "adds_to", "times", "when", "at_most", "of", "help", "roster", "same_as", "best_of"}
ROSTER_NUMBERS = ("dex",)  # a typed number's ``roster``: the roster's own columns it may be
NUMBER_PARTS = ("hit", "ac", "damage")  # the situation's sums a typed number may add to
NUMBER_OF = ("attacker", "defender")  # whose number it is: the Encounter roster's column of it
MELEE, RANGED, ANY = "melee", "ranged", "any"  # the attack kinds a table or a row may count for
ROLL_COLUMN = "hit"  # the picker column added to the attack roll: the one that may add dice (type modifier)


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


TEXT_JOIN = ": "  # between the texts of a chart row's ``text`` columns


@dataclass(frozen=True)
class Check:
    """A check a chart's row calls for (``check:``): a d20 plus what the GM adds to it against the
    row's ``dc`` column (an empty DC: the row calls for none), said as ``label`` ("DEX check") with
    the row's ``passed`` or ``failed`` text columns (joined by TEXT_JOIN)."""

    dc: str
    label: str
    passed: tuple[str, ...]
    failed: tuple[str, ...]


@dataclass(frozen=True)
class Chart:
    """A bands table read with the follow-up roll."""

    table: str
    special: str | None = None  # bool column: the row is "a special"
    plain_unless_special: Any = False  # a non-special row makes the natural roll a plain Hit / Miss
    formula: str | None = None  # column naming the damage formula (critical chart)
    follow_adds_mods: Any = False  # the chart is read with follow roll + the roll's modifiers
    # text columns: what the row does (their texts joined by TEXT_JOIN), shown by the calculator
    text: tuple[str, ...] | None = None
    # read by a roll of its own (its die: the bands' ends), not the follow-up roll: a chart of a mode
    # other than ``chart``, which only says what the Fumble or the Critical does
    own_roll: bool = False
    # an entries table whose rows say their rolls in two columns (a table the GM fills, osr's fumble
    # table): its from and to columns and the die rolled on it; None: a bands table
    from_column: str | None = None
    to_column: str | None = None
    die: Any = None
    # a chart rolled on by a roll of its own after a row of this chart (mode ``chart``) that ticks the
    # bool column ``when`` of this chart (combat17's condition chart after the critical chart's 20)
    then: Chart | None = None
    when: str | None = None
    # a check the row read by the follow-up roll calls for (mode ``chart``): resolution_check
    check: Check | None = None


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
    factor: Any = None  # with ``when``: the factor a picked row ticking that column applies (a table cell)
    when: str | None = None  # a true/false column of the listed pickers


@dataclass(frozen=True)
class Effect:
    """What the result does, in words: a text column of a table's entry or picked row (``table.picked.on_hit``)."""

    hit: Any = None  # a Hit or Critical
    miss: Any = None  # a Miss or Fumble
    near_miss_by: Any = None  # a number: a Miss this close says the counted pick's near_miss text


@dataclass(frozen=True)
class RangeBands:
    """The range band of a ranged attack at the distance the GM types (``range:``): the bands ``table``
    keyed by the range increments to the target (the distance over the weapon's increment, rounded up);
    its ``band`` column names the band, its ``within`` column false stops the attack, its ``hit`` column
    (empty: 0) adds to the roll."""

    table: str
    band: str
    within: str


@dataclass(frozen=True)
class DamageRules:
    least: Any = 0
    deals: Any = True  # a flag: FALSE, a hit deals no damage (the picked kind's column: a grapple)
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
class TypedNumber:
    """A number the GM types beside the pickers (``situation.numbers``), added ``times`` over to the
    situation's ``adds_to`` sum (hit, ac or damage) while a counted pick ticks the flag column ``when``
    (None: always): the defender's Dex taken off the AC while it loses Dex to AC. With ``at_most`` (a
    number, by ruling or not; None: no limit) it counts only so far that the flagged rows' ``adds_to``
    plus it stays at most that: the attacker's Dex offsetting a two-weapon penalty down to 0. A number
    ``of`` the attacker or the defender is a column of the Encounter roster, which the log's rows read;
    with ``roster: dex`` it is the roster's DEX modifier, which every roster has. ``same_as``: it is
    another typed number's value put to a further use (one cell, two rules); ``best_of``: of the
    numbers of that group that count, only the highest is added (STR or DEX, the better for a light
    weapon)."""

    id: str
    label: str
    adds_to: str
    times: int = 1
    when: str | None = None
    help: str = ""
    of: str | None = None
    at_most: Any = None
    roster: str | None = None  # the roster's own column it is (dex), None: a column of its own
    same_as: str | None = None  # another typed number whose cell it reads (no cell of its own), None: its own
    best_of: str | None = None  # a group: of the group's numbers that count, only the highest is added


@dataclass(frozen=True)
class Adding:
    """How a calculator's picked rows add up to its situation (read by ``pycalc.pickers.added_up``):
    each part names the column each picker table gives it (every listed table's column of the part's
    name, ``resolution_situation.modifiers_adding``; spelljammer's own in Python); the rest is the
    block's ``situation:``: ``only`` and a row's ``gate`` column name the attack kind it counts for
    (``melee``, ``ranged`` or a kind's id; ``any`` or empty: every attack)."""

    kind_table: str | None = None  # the choice table of attack kinds (None: one kind of attack)
    sums: Mapping[str, Columns] = field(default_factory=dict)  # part -> the picked values added
    products: Mapping[str, Columns] = field(default_factory=dict)  # part -> multiplied (1: none)
    flags: Mapping[str, Columns] = field(default_factory=dict)  # part -> ticked in any picked row
    only: Mapping[str, str] = field(default_factory=dict)  # table id -> the kind it counts for
    gate: str | None = None  # a row's column naming the kind it counts for
    ruled: Mapping[str, str] = field(default_factory=dict)  # table id -> ruling: <column>_<choice>
    numbers: tuple[TypedNumber, ...] = ()  # typed beside the pickers (listed modifiers only)
    # each a value or ByRuling (None: not in force): a column, a picked row that names another picked row
    # of its table in it does not count (not_with); a column, a counted row counts the row of its table
    # it names too (also_counts); tables, of whose picked rows each sum takes only the lowest (worse_of)
    not_with: Any = None
    also_counts: Any = None
    worse_of: Any = None


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
    effect: Effect | None = None  # what a hit or a miss does, in words
    range: RangeBands | None = None  # the range band of a typed distance (None: none asked)


def tables_holding(situated: Sequence[Table], named: str) -> list[str]:
    """The ids of the situation's tables (``situated``) that have a row ``named``, each once."""
    return list(dict.fromkeys(t.id for t in situated if any(row.id == named for row in t.rows)))


def named_pick(situated: Sequence[Table], table_id: str, named: str) -> tuple[str, str]:
    """The (table, row) a ``not_with`` cell of ``table_id`` names: a row of its own table by its id, else
    the row of that id in another of the situation's tables (``situated``)."""
    holding = tables_holding(situated, named)
    return (table_id if table_id in holding or not holding else holding[0]), named


def target_kind(block: Resolution) -> str:
    """armor_class, number_needed or descending_ac: what the GM types as the target (the inputs are
    laid out for one kind; a target chosen by a ruling between kinds is laid out as an AC)."""
    kinds = possible(block.target)
    return kinds[0] if len(kinds) == 1 else "armor_class"


def outcome_chart(block: Resolution, outcome: str) -> Chart | None:
    """The chart the follow-up roll reads (or the chart of its own) after a Critical or a Fumble: the
    one whose row a chart's ``then`` follows."""
    return block.critical.chart if outcome == CRITICAL else block.fumble.chart


def own_roll_charts(block: Resolution) -> dict[str, Chart]:
    """The charts rolled on by a roll of their own (``Chart.own_roll``), by the result they follow:
    Critical, Fumble; a chart that follows a chart's row (``Chart.then``) among them."""
    charts = {outcome: outcome_chart(block, outcome) for outcome in (CRITICAL, FUMBLE)}
    rolled = {outcome: chart if chart.own_roll else chart.then for outcome, chart in charts.items() if chart}
    return {outcome: chart for outcome, chart in rolled.items() if chart is not None}


def checked_charts(block: Resolution) -> dict[str, Chart]:
    """The charts whose rows call for a check (``Chart.check``), by the result they follow."""
    charts = {outcome: outcome_chart(block, outcome) for outcome in (CRITICAL, FUMBLE)}
    return {outcome: chart for outcome, chart in charts.items() if chart is not None and chart.check}


def check_label(block: Resolution) -> str:
    """What the calculator calls the check ("DEX check"), or "check" when two charts name it apart."""
    labels = {chart.check.label for chart in checked_charts(block).values() if chart.check}
    return labels.pop() if len(labels) == 1 else "check"


def shows_chart_text(block: Resolution) -> bool:
    """The calculator says what the chart row does (a critical or fumble chart with a ``text``, or
    a chart rolled on by a roll of its own)."""
    charts = (block.critical.chart, block.fumble.chart)
    return any(chart is not None and chart.text for chart in charts) or bool(own_roll_charts(block))


def typed_numbers(block: Resolution) -> tuple[TypedNumber, ...]:
    """The numbers the GM types beside the pickers (``situation.numbers``), each use of one."""
    return block.situation.numbers if block.situation else ()


def typed_cells(block: Resolution) -> tuple[TypedNumber, ...]:
    """The typed numbers that have a cell of their own (not ``same_as`` another)."""
    return tuple(number for number in typed_numbers(block) if number.same_as is None)


def cell_of(number: TypedNumber) -> str:
    """The id of the typed number whose cell holds this one's value."""
    return number.same_as or number.id


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
