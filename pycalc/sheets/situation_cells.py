"""The situation's cells of an Attack calculator, written from data: a dropdown per choice table and a
box per toggle row (yellow pick cells with their list and help), what the picked rows add up to in a
column, and whether a picked row has a flag ticked.

A ruleset says which tables it picks, its cells' prefix, which tables count for melee or ranged attacks
only, and its words (``Pickers``); the generic own-ruleset calculator (``d20``) and the shipped
rulesets' writers read the same functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pycalc.pickers import ruled_variants
from pycalc.resolution_block import Adding
from pycalc.sheets import ruling_text
from pycalc.sheets.calculator import PICK, Field, Section
from pycalc.sheets.common import name_part, ruling_name, table_name
from pycalc.sheets.effect_words import listed
from pycalc.sheets.formulas import by_label, const, plus
from pycalc.table_files import Row, Table
from pycalc.tables import RuleSet

PREFIX = "PICK"

Words = tuple[str, str]  # (label in the calculator, help in the pick's comment)
Ticked = Callable[[str, str], str]  # (a toggle's box, the row's value) -> a term


def pick_name(table_id: str, row_id: str | None = None, prefix: str = PREFIX) -> str:
    """The calculator's cell for a picker table's dropdown (or, with ``row_id``, a toggle's box)."""
    return f"{prefix}_{name_part(table_id)}" + (f"_{name_part(row_id)}" if row_id else "")


def by_id(table: str, column: str, id_expr: str) -> str:
    """The value in ``column`` of the entry whose id is ``id_expr`` (a formula)."""
    return f"INDEX({table_name(table, column)},MATCH({id_expr},{table_name(table, 'id')},0))"


def ruled_value(
    rules: RuleSet, adding: Adding | None, table_id: str, column: str, value_of: Callable[[str], str]
) -> str:
    """``value_of(column)``, or ``value_of`` its variant column while that choice of the table's ruling
    is in force (``situation.ruled``, ``pycalc.pickers.ruled_values``)."""
    found = value_of(column)
    if adding is None:
        return found
    for choice, variant in ruled_variants(rules, adding, table_id, column).items():
        found = f'IF({ruling_name(adding.ruled[table_id])}="{choice}",{value_of(variant)},{found})'
    return found


def ruling_is(ruling_id: str, choice: str) -> str:
    """TRUE while ``choice`` of the ruling is in force."""
    return f'{ruling_name(ruling_id)}="{choice}"'


def in_words(parts_of: Callable[[RuleSet, str, Row], list[str]]) -> Callable[[RuleSet, str, Row], str]:
    """What picking a row changes, in the note's words, from the parts the ruleset works out (a
    toggle's note says the same of its box)."""
    return lambda rules, table_id, row: listed(parts_of(rules, table_id, row))


def title_and_note(table: Table) -> Words:
    return table.title, table.note[:100]


def label_and_note(rules: RuleSet, table: Table, row: Row) -> Words:
    return str(row.label), row.note[:100]


def no_effect(rules: RuleSet, table_id: str, row: Row) -> str:
    return ""


@dataclass(frozen=True)
class Pickers:
    """What a ruleset's calculator picks and how its pick cells read and are explained."""

    choices: tuple[str, ...]
    toggles: tuple[str, ...] = ()
    default: Callable[[Table], str] = lambda table: str(table.rows[0].label)
    prefix: str = PREFIX
    ranged_only: frozenset[str] = frozenset()
    melee_only: frozenset[str] = frozenset()
    ranged: str = "ATTACK_RANGED"  # the cell that is TRUE for a ranged attack
    effect: Callable[[RuleSet, str, Row], str] = no_effect  # what picking a row does, in the note's words
    choice_words: Callable[[Table], Words] = title_and_note
    toggle_words: Callable[[RuleSet, Table, Row], Words] = label_and_note
    beyond_numbers: Callable[[Table], bool] = lambda table: False  # rows do more than their numbers say
    unnoted: frozenset[str] = frozenset()  # choice tables whose note reads the table's cells (``pick_notes``)
    toggle_note: Callable[[RuleSet, Callable[[RuleSet], str]], str | None] = ruling_text.toggle_note
    order: tuple[str, ...] = ()  # the tables' order in a sum (default: the choices, then the toggles)

    @property
    def tables(self) -> tuple[str, ...]:
        return self.order or self.choices + self.toggles

    def name(self, table_id: str, row_id: str | None = None) -> str:
        return pick_name(table_id, row_id, self.prefix)

    def gate(self, table_id: str, term: str) -> str:
        """``term`` where the table counts for the attack's kind (melee or ranged), else 0."""
        if table_id in self.ranged_only:
            return f"IF({self.ranged},{term},0)"
        if table_id in self.melee_only:
            return f"IF({self.ranged},0,{term})"
        return term


def picked(pickers: Pickers, table_id: str, column: str) -> str:
    """The picked row's ``column`` of a choice table."""
    return by_label(table_id, column, pickers.name(table_id))


def column_terms(
    rules: RuleSet,
    pickers: Pickers,
    column: str,
    chosen: Callable[[str], str],
    ticked: Ticked,
    tables: tuple[str, ...] | None = None,
) -> list[str]:
    """One term per pick cell of the ``tables`` (all picked ones by default) that have ``column``,
    gated by the attack's kind: ``chosen(table_id)`` of a choice table, ``ticked(box, value)`` for each
    row of a toggle table."""
    terms = []
    for table_id in pickers.tables if tables is None else tables:
        table = rules.table(table_id)
        if column not in table.column_ids:
            continue
        if table_id in pickers.choices:
            terms.append(pickers.gate(table_id, chosen(table_id)))
            continue
        for row in table.rows:
            value = const(table_id, str(row.id), column)
            terms.append(pickers.gate(table_id, ticked(pickers.name(table_id, str(row.id)), value)))
    return terms


def sum_of(
    rules: RuleSet,
    pickers: Pickers,
    column: str,
    tables: tuple[str, ...] | None = None,
    chosen: Callable[[str], str] | None = None,
) -> str:
    """What the picked rows add up to in ``column`` (``chosen`` reads a choice table's picked row)."""
    read = chosen or (lambda table_id: picked(pickers, table_id, column))
    return plus(*column_terms(rules, pickers, column, read, lambda box, v: f"IF({box},{v},0)", tables))


def any_of(
    rules: RuleSet,
    pickers: Pickers,
    column: str,
    tables: tuple[str, ...] | None = None,
    before: tuple[str, ...] = (),
) -> str:
    """TRUE when a picked row has ``column`` ticked, or one of the conditions ``before`` holds."""
    terms = column_terms(
        rules,
        pickers,
        column,
        lambda table_id: picked(pickers, table_id, column),
        lambda box, v: f"AND({box},{v})",
        tables,
    )
    return f"OR({','.join([*before, *terms])})" if before or terms else "FALSE"


def ruled_choice_note(rules: RuleSet, pickers: Pickers, table_id: str) -> str | None:
    """The note beside a choice pick where a ruling changes it or its rows do more than their numbers."""
    if table_id in pickers.unnoted:
        return None
    return ruling_text.ruled_choice_note(
        rules,
        table_id,
        pickers.name(table_id),
        lambda r, row: pickers.effect(r, table_id, row),
        pickers.beyond_numbers(rules.table(table_id)),
    )


def choice_field(rules: RuleSet, pickers: Pickers, table: Table) -> Field:
    """A choice table's dropdown, at its default row, with its help and its ruled note."""
    label, help_text = pickers.choice_words(table)
    return Field(
        label,
        pickers.name(table.id),
        PICK,
        pickers.default(table),
        options=f"={table_name(table.id, 'label')}",
        help=help_text,
        help_formula=ruled_choice_note(rules, pickers, table.id),
    )


def toggle_field(rules: RuleSet, pickers: Pickers, table: Table, row: Row) -> Field:
    """A toggle row's box, unticked, with its help and the note of what ticking it does."""
    label, help_text = pickers.toggle_words(rules, table, row)
    return Field(
        label,
        pickers.name(table.id, str(row.id)),
        PICK,
        False,
        options="TRUE,FALSE",
        help=help_text,
        help_formula=pickers.toggle_note(rules, lambda r: pickers.effect(r, table.id, row)),
    )


def situation_section(rules: RuleSet, pickers: Pickers) -> Section:
    """The situation's pick cells: the choice tables' dropdowns, then each toggle table's boxes."""
    choices = [choice_field(rules, pickers, rules.table(table_id)) for table_id in pickers.choices]
    toggles = [
        toggle_field(rules, pickers, table, row)
        for table in map(rules.table, pickers.toggles)
        for row in table.rows
    ]
    return Section("Situation (all at their defaults = no modifier)", (*choices, *toggles))
