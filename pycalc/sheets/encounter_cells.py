"""The Encounter sheets' cells: sheet names and anchors, the calculator's named cells as the log reads them
(Calculator), a block of columns (Columns), a row's cell, and the checks and dice text of typed numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc.encounter_rulesets import Adapter
from pycalc.resolution_block import Ref
from pycalc.sheets.common import (
    destinations,
)
from pycalc.sheets.dual import macro_text
from pycalc.sheets.formulas import const, q
from pycalc.sheets.log_rows import (
    RowFormula,
    names_in,
)

SHEET = "Encounter"


LOG_SHEET = "Log"  # the attack log, under the acting order of the round (frozen rows)


ROUND_CELL = "B2"  # on the Log sheet: Round now, typed where the attacks are logged


ROUND_SHOWN_CELL = "B3"  # on the Encounter sheet: the round in use, shown


ROUND_IN_USE_CELL = "C2"  # the round the sheets show (Round now, or the last logged when it is empty)


EMPTY_ROUND = "Round now is empty: the fight as of the last round logged"


ROSTER_TOP = 6  # header row; combatants below


CONDITIONS_GAP = 3


PANEL_TOP = 3  # the Log sheet's acting order: its header row, its lines below


PANEL_LINES = 6  # combatants the acting order shows: the one before who acts now, then the next ones


LOG_TOP = PANEL_TOP + PANEL_LINES + 2  # the log's header row (rows down to it are frozen), a help line above


VOID = "Void"  # the result of a row voided (x in its Void cell): it counts for nothing


@dataclass(frozen=True)
class Calculator:
    """The calculator's named cells: formula text of each working cell, default of each input."""

    formulas: dict[str, str]
    inputs: dict[str, Any]
    formats: dict[str, str]  # number format of each working cell (TRUE/FALSE on booleans)
    other: Calculator | None = None  # the other file's calculator (UDF or native), for the layout
    native: bool = True  # this one writes native formulas (the .xlsx)
    log_plan: dict[str, RowFormula] | None = None  # this file's, when the other file's build made it

    def shared_closure(self, outputs: list[str]) -> tuple[list[str], set[str]]:
        """The working names and inputs of ``outputs`` in this calculator or the other, in an order
        both files compute alike (the native calculator's first)."""
        if self.other is None:
            return self.closure(outputs)
        names = set(outputs)
        while True:
            mine, mine_used = self.closure(sorted(names))
            theirs, their_used = self.other.closure(sorted(names))
            found = names | set(mine) | set(theirs)
            if found == names:
                break
            names = found
        native, udf = (mine, theirs) if self.native else (theirs, mine)
        order = native + [n for n in udf if n not in native]
        return [n for n in order if n in self.formulas], mine_used | their_used

    def closure(self, outputs: list[str]) -> tuple[list[str], set[str]]:
        """The working names the outputs depend on through inputs (in dependency order) and those inputs."""
        order: list[str] = []
        used: set[str] = set()
        varying: dict[str, bool] = {}

        def visit(name: str) -> bool:
            if name in self.inputs:
                used.add(name)
                return True
            if name not in self.formulas:
                return False
            if name not in varying:
                varying[name] = False
                depends = [
                    visit(n) for n in names_in(self.formulas[name]) if n in self.formulas or n in self.inputs
                ]
                varying[name] = any(depends)
                if varying[name]:
                    order.append(name)
            return varying[name]

        for name in outputs:
            visit(name)
        return order, used


def read_calculator(book: Workbook, macro: bool = False) -> Calculator:
    """The calculator as the book's named cells hold it: in the .xlsm, when ``macro`` (the book holds
    both files, ``pycalc.sheets.dual``)."""
    formulas: dict[str, str] = {}
    inputs: dict[str, Any] = {}
    formats: dict[str, str] = {}
    for name, defined in book.defined_names.items():
        places = destinations(defined)
        if len(places) != 1 or ":" in places[0][1] or places[0][0] not in book.sheetnames:
            continue
        sheet_title, ref = places[0]
        cell = book[sheet_title][ref.replace("$", "")]
        value = macro_text(cell.value) if macro else cell.value
        if isinstance(value, str) and value.startswith("="):
            formulas[name] = value[1:]
            formats[name] = cell.number_format
        elif cell.protection.locked is False:
            inputs[name] = value
    return Calculator(formulas, inputs, formats)


def literal(value: Any) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return q(value)
    return str(value)


def expression(item: Any) -> str:
    """A block value as a formula: a literal, or the table cell a Ref names."""
    if isinstance(item, Ref):
        return const(item.table, item.entry, item.column)
    return literal(item)


@dataclass(frozen=True)
class RowCell:
    """A formula cell of a row, as written: its number format (None: General) and whether it shows a
    result (``mark_output``)."""

    formula: str
    number_format: str | None = None
    output: bool = False


class Columns:
    """Columns of one block of rows, added left to right; each may have a defined name."""

    def __init__(self, first: int, top: int, rows: int, sheet: Worksheet) -> None:
        self.next, self.top, self.rows = first, top, rows
        self.sheet = sheet
        self.prefix = "'" + sheet.title.replace("'", "''") + "'!"  # read from the other sheet
        self.index: dict[str, int] = {}
        self.labels: dict[str, str] = {}

    def add(self, key: str, label: str) -> str:
        self.index[key], self.labels[key] = self.next, label
        self.next += 1
        return key

    def letter(self, key: str) -> str:
        return get_column_letter(self.index[key])

    def at(self, key: str, row: int) -> str:
        return f"${self.letter(key)}{row}"

    def span(self, key: str, last: int | None = None) -> str:
        """The column's rows, or those down to ``last`` (a relative row: the span grows row by row)."""
        letter = self.letter(key)
        return f"${letter}${self.top + 1}:${letter}" + (
            f"${self.top + self.rows}" if last is None else f"{last}"
        )

    def ref(self, key: str) -> str:
        """The column's rows, read from another sheet."""
        return self.prefix + self.span(key)

    def rows_range(self) -> range:
        return range(self.top + 1, self.top + 1 + self.rows)


HEADER_HEIGHT = 54  # points: four lines of a wrapped header


WORKING_FROM = 41  # column AO: the hidden working columns of every block start here


def add_number_check(sheet: Worksheet, cells: str, least: int | None, most: int | None = None) -> None:
    """A whole number (from ``least``, up to ``most``): a round, a count of rounds, a modifier (a roll:
    ``roll_entry.add_roll_check``)."""
    check = DataValidation(
        type="whole", operator="between", formula1=str(-1_000_000_000 if least is None else least),
        formula2=str(1_000_000_000 if most is None else most), allow_blank=True, showErrorMessage=True,
    )  # fmt: skip
    check.errorTitle = "A whole number"
    check.error = "Type a whole number" + ("" if least is None else f", {least} or more") + "."
    if most is not None:
        check.error = f"Type a whole number from {least} to {most}."
    sheet.add_data_validation(check)
    check.add(cells)


DICE_PARTS = (("count", "dice"), ("sides", "sides"), ("bonus", "+ bonus"))


DICE_PART_LIMITS = {
    "count": (1, limits.DICE_COUNT),
    "sides": (1, limits.DICE_SIDES),
    "bonus": (-limits.DICE_MODIFIER, limits.DICE_MODIFIER),
}


def dice_text(count: str, sides: str, bonus: str) -> str:
    """The dice text (1d6+1) of three number cells: nothing when all are empty, the bonus alone as a
    number (flat damage), and count without sides as "2d", which the rows report as unreadable dice."""
    plus = f'IF(OR({bonus}="",{bonus}=0),"",IF({bonus}>0,"+","")&{bonus})'
    dice = f'IF({count}="",1,{count})&"d"&{sides}&{plus}'
    return f'IF(AND({count}="",{sides}="",{bonus}=""),"",IF({sides}="",IF({count}="",{bonus},{count}&"d"),{dice}))'


def library_columns(ruleset: Adapter) -> list[tuple[str, str, str]]:
    """The roster's combat numbers a creature of the Creatures sheet gives: (roster key, label, the
    name after ROSTER_ and CREATURE_): DEX modifier, the ruleset's numbers, maximum HP, the dice."""
    dice = [s for s in ruleset.stats if s.kind == "dice"]
    return [
        ("dex", "DEX modifier", "DEX"),
        *((f"s_{s.id}", s.label, s.id.upper()) for s in ruleset.stats if s not in dice),
        ("max_hp", "Maximum HP", "MAX_HP"),
        *(
            (f"s_{s.id}_{part}", f"{s.label}: {word}", f"{s.id.upper()}_{part.upper()}")
            for s in dice
            for part, word in DICE_PARTS
        ),
    ]


def working(block: Columns) -> None:
    """Further columns of ``block`` are hidden working cells, right of every block's visible ones."""
    if block.next > WORKING_FROM:
        raise ValueError(
            f"the Encounter sheet shows {block.next - 1} columns; working cells start at {WORKING_FROM}"
        )
    block.next = WORKING_FROM
