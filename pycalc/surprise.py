"""Surprise with a die for each side (the OD&D family): the ``surprise:`` part of a ruleset's
``encounter:`` block (tables/README.md) and what it decides. ``pycalc.sheets.surprise`` writes the
same rules as native formulas.

Each side rolls the die and is surprised on a roll of at most the range the other side surprises it
on: the other side's "surprises others on 1 to" (``normally`` when nothing helps it), moved by how much
more or less easily this side is surprised than normal (its own "surprised on 1 to", ``normally`` for
most), kept within the die. ``surprises_on`` lets each side pick the first from a table's rows (an
ambush) and ``adjustments`` tick rows moving the second (Elves) instead of typing them; ``raises``
false: a side surprised more easily than normal does not make it easier to surprise (by ruling).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycalc.block_parser import BlockParser
from pycalc.errors import RuleError, not_in_list, said
from pycalc.resolution_block import value
from pycalc.table_files import RuleSet

KEYS = {"die", "normally", "surprises_on", "adjustments", "raises", "outcomes"}
# Who is surprised -> the outcome's key (a_surprised, b_surprised)
OUTCOMES = {
    (False, True): "a_surprises_b",
    (True, False): "b_surprises_a",
    (True, True): "both_surprised",
    (False, False): "no_surprise",
}
# What the result says when the block names no text for it
OUTCOME_WORDS = {
    "a_surprises_b": "A surprises B",
    "b_surprises_a": "B surprises A",
    "both_surprised": "Both surprised",
    "no_surprise": "No surprise",
}


@dataclass(frozen=True)
class SurpriseRules:
    die: Any  # faces of the die each side rolls (a number or a table cell)
    normally: Any  # most are surprised on 1 to this
    surprises_on: tuple[str, str] | None = None  # (table, int column): each side picks its row
    adjustments: tuple[str, str] | None = None  # (table, int column): each side ticks its rows
    raises: Any = True  # a side surprised more easily than normal is easier to surprise
    outcomes: dict[str, Any] | None = None  # outcome key -> a text cell


def parse_surprise(parser: BlockParser, raw: Any, line: int) -> SurpriseRules | None:
    check, what = parser.check, "encounter.surprise"
    data = check.mapping(raw, line, what)
    if data is None:
        return None
    check.keys(data, KEYS, {"die", "normally"}, what)
    columns = {}
    for key, kind in (("surprises_on", "int"), ("adjustments", "int")):
        if key in data:
            columns[key] = table_column(parser, data[key], data.value_lines[key], f"{what}.{key}", kind)
    outcomes = None
    if "outcomes" in data:
        found = check.mapping(data["outcomes"], data.value_lines["outcomes"], f"{what}.outcomes")
        if found is not None:
            check.keys(found, set(OUTCOME_WORDS), set(OUTCOME_WORDS), f"{what}.outcomes")
            outcomes = {key: parser.get(found, key, parser.text, f"{what}.outcomes") for key in found}
    return SurpriseRules(
        parser.get(data, "die", parser.number, what, 0),
        parser.get(data, "normally", parser.number, what, 0),
        columns.get("surprises_on"),
        columns.get("adjustments"),
        parser.get(data, "raises", parser.flag, what, True),
        outcomes,
    )


def table_column(parser: BlockParser, raw: Any, line: int, what: str, kind: str) -> tuple[str, str] | None:
    """A ``table.column`` of an entries table (the rows a side picks or ticks)."""
    table, _, column = str(raw).partition(".")
    if not column:
        parser.check.fail(line, f"{what} must be table.column, got {raw!r}")
        return None
    parser.table_id(table, line, what, "entries", {column: (kind,)})
    return table, column


def block(rules: RuleSet) -> SurpriseRules:
    found = rules.encounter_block.surprise if rules.encounter_block is not None else None
    if found is None:
        raise KeyError(f"{rules.id} has no surprise block")
    return found


def has_surprise(rules: RuleSet) -> bool:
    return rules.encounter_block is not None and rules.encounter_block.surprise is not None


def die(rules: RuleSet) -> int:
    return int(value(rules, block(rules).die))


def normally(rules: RuleSet) -> int:
    return int(value(rules, block(rules).normally))


def picked_range(rules: RuleSet, label: str) -> int:
    """ "Surprises others on 1 to" of the row a side picked (``surprises_on``)."""
    table_id, column = block(rules).surprises_on or ("", "")
    table = rules.table(table_id)
    rows = [row for row in table.rows if str(row.label) == label]
    if not rows:
        raise not_in_list(table.title, (row.label for row in table.rows))
    return int(rows[0][column])


def ticked_range(rules: RuleSet, ticked: Iterable[str]) -> int:
    """ "Surprised on 1 to" of a side with the ``adjustments`` rows ``ticked`` (ids)."""
    table_id, column = block(rules).adjustments or ("", "")
    wanted = set(ticked)
    return normally(rules) + sum(int(row[column]) for row in rules.table(table_id).rows if row.id in wanted)


def surprise_range(rules: RuleSet, surprises_on: int, surprised_on: int) -> int:
    """The highest roll on which a side that surprises others on 1 to ``surprises_on`` surprises a
    side surprised on 1 to ``surprised_on``."""
    sides = die(rules)
    for number, what in ((surprises_on, "SURPRISES ON"), (surprised_on, "SURPRISED ON")):
        if not 0 <= number <= sides:
            raise RuleError(f"#{what}? 0 to {sides}")
    easier = surprised_on - normally(rules)
    if not value(rules, block(rules).raises):
        easier = min(0, easier)
    return min(sides, max(0, surprises_on + easier))


def outcome(rules: RuleSet, a_on_b: int, b_on_a: int, roll_for_a: int, roll_for_b: int) -> str:
    """Who is surprised (A when its roll is at most ``b_on_a``), in the block's words."""
    sides = die(rules)
    for roll, what in ((roll_for_b, "ROLL FOR B"), (roll_for_a, "ROLL FOR A")):
        if not 1 <= roll <= sides:
            raise RuleError(f"#{what}? 1 to {sides}")
    key = OUTCOMES[(roll_for_a <= b_on_a, roll_for_b <= a_on_b)]
    texts = block(rules).outcomes
    return OUTCOME_WORDS[key] if texts is None else str(value(rules, texts[key]))


@dataclass(frozen=True)
class Side:
    """What one side brings: "surprises others on 1 to" (typed, or the row label picked) and
    "surprised on 1 to" (typed, or the adjustments rows ticked)."""

    surprises_on: int | str
    surprised_on: int | tuple[str, ...]


def pair_range(rules: RuleSet, surprising: Side, surprised: Side) -> int:
    """The highest roll on which ``surprising`` surprises ``surprised``."""
    on = surprising.surprises_on
    by = surprised.surprised_on
    return surprise_range(
        rules,
        picked_range(rules, on) if isinstance(on, str) else on,
        ticked_range(rules, by) if isinstance(by, tuple) else by,
    )


def surprise_outputs(
    rules: RuleSet, a: Side, b: Side, roll_for_a: int | None = None, roll_for_b: int | None = None
) -> dict[str, object]:
    """Every output of the Surprise calculator by defined name ('' before both rolls)."""
    a_on_b, b_on_a = said(pair_range, rules, a, b), said(pair_range, rules, b, a)
    result: object = ""
    if roll_for_a is not None and roll_for_b is not None:
        wrong = [text for text in (a_on_b, b_on_a) if isinstance(text, str)]
        result = wrong[0] if wrong else said(outcome, rules, a_on_b, b_on_a, roll_for_a, roll_for_b)
    return {
        "SURPRISE_A_ON_B": a_on_b,
        "SURPRISE_B_ON_A": b_on_a,
        "SURPRISE_A_CHANCE": a_on_b if isinstance(a_on_b, str) else Fraction(a_on_b, die(rules)),
        "SURPRISE_B_CHANCE": b_on_a if isinstance(b_on_a, str) else Fraction(b_on_a, die(rules)),
        "SURPRISE_RESULT": result,
    }
