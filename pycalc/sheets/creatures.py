"""The Creatures sheet: the GM's library of creatures, filled once, kept across rebuilds (its cells are
inputs under defined names, ``pycalc.sheets.keep``). A roster line naming a creature takes its numbers
where the line leaves them empty (the Encounter sheet; the model: :mod:`pycalc.creatures`).

The columns are the roster's own combat numbers (``library_columns``); the examples shipped are those
whose numbers the ruleset's seed gives (``encounter.creatures`` in ``ruleset.yaml``), none invented."""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.dice import parse
from pycalc.encounter_block import Creature, encounter
from pycalc.encounter_rulesets import EACH_ROUND, adapter
from pycalc.sheets.calculator import add_list
from pycalc.sheets.common import (
    BOLD,
    NOTE,
    SUBTITLE,
    TITLE,
    WRAP,
    absolute,
    define_name,
    mark_input,
    protect,
    put,
    style_header,
    table_name,
)
from pycalc.sheets.encounter_cells import (
    DICE_PART_LIMITS,
    HEADER_HEIGHT,
    LOG_SHEET,
    add_number_check,
    library_columns,
)
from pycalc.sheets.fit import width_points, wrapped_line_count
from pycalc.table_files import TableProblem
from pycalc.tables import RuleSet

SHEET = "Creatures"
TOP = 4  # header row; creatures below
SIZE = 40  # creature lines
NUMBER_WIDTH = 9  # characters: a number column at least
HEADER_LINES = 3  # of the header's four (HEADER_HEIGHT)
HELP_HEIGHT = 27  # points: two lines of the help note
HELP = (
    "Type each creature once: a roster line takes these numbers where its own cells are empty, when its"
    " Kind is this name, or its name is this name and a number (Goblin 3 is a Goblin). Kept when the"
    " workbook is rebuilt."
)


def creature_problems(rules: RuleSet) -> list[TableProblem]:
    """An example creature naming a number the roster does not have, at its file:line."""
    if rules.encounter_block is None:
        return []
    columns = {key for key, _, _ in library_columns(adapter(rules))}
    known = {key.removeprefix("s_") for key in columns if not key.endswith(("_count", "_sides", "_bonus"))}
    known |= {s.id for s in adapter(rules).stats}
    block = encounter(rules)
    return [
        TableProblem(
            block.file,
            creature.line,
            f"creature {creature.name!r}: {stat_id!r} is no roster number (known: {', '.join(sorted(known))})",
        )
        for creature in block.creatures
        for stat_id in creature.values
        if stat_id not in known
    ]


def example_cells(rules: RuleSet, creature: Creature) -> dict[str, object]:
    """A seed example as the sheet's cells: roster key -> value (dice as three numbers)."""
    columns = {key for key, _, _ in library_columns(adapter(rules))}
    cells: dict[str, object] = {}
    for stat_id, value in creature.values.items():
        key = stat_id if stat_id in ("dex", "max_hp") else f"s_{stat_id}"
        if f"{key}_count" in columns:
            dice = parse(str(value))
            cells |= {f"{key}_count": dice.count or None, f"{key}_sides": dice.sides or None}
            cells[f"{key}_bonus"] = dice.modifier or None
        elif key in columns:
            cells[key] = value
        else:
            file = encounter(rules).file
            raise ValueError(
                f"{file}:{creature.line}: creature {creature.name!r}: no roster column {stat_id!r}"
            )
    return cells


def write_creatures(book: Workbook, rules: RuleSet) -> None:
    """The Creatures sheet after the Log sheet (none for a ruleset without an Encounter sheet)."""
    if rules.encounter_block is None:
        return
    at = book.sheetnames.index(LOG_SHEET) + 1 if LOG_SHEET in book.sheetnames else len(book.sheetnames)
    sheet = book.create_sheet(SHEET, at)
    put(sheet["A1"], f"Creatures: {rules.name}").font = TITLE
    put(sheet["A2"], HELP).font = NOTE
    put(sheet.cell(TOP - 1, 1), "Creature library (yellow cells are yours)").font = SUBTITLE
    ruleset = adapter(rules)
    columns = [
        ("name", "Name", "NAME"),
        *library_columns(ruleset),
        ("note", "Notes (where the numbers come from)", "NOTE"),
    ]
    for column, (key, label, defined) in enumerate(columns, start=1):
        style_header(sheet.cell(TOP, column, label))
        letter = sheet.cell(TOP, column).column_letter
        span = f"{letter}{TOP + 1}:{letter}{TOP + SIZE}"
        define_name(
            book, f"CREATURE_{defined}", absolute(sheet, f"{letter}{TOP + 1}", f"{letter}{TOP + SIZE}")
        )
        for row in range(TOP + 1, TOP + SIZE + 1):
            mark_input(put(sheet.cell(row, column), None))
        write_checks(sheet, key, span, ruleset)
        sheet.column_dimensions[letter].width = {"name": 18, "note": 48}.get(key) or number_width(label)
    sheet.row_dimensions[TOP].height = HEADER_HEIGHT
    help_cell = sheet["A2"]  # across the sheet, two lines (not a tall column A)
    sheet.merge_cells(f"A2:{sheet.cell(TOP, len(columns)).column_letter}2")
    help_cell.alignment = WRAP
    sheet.row_dimensions[2].height = HELP_HEIGHT
    for row, creature in enumerate(encounter(rules).creatures, start=TOP + 1):
        cells = {"name": creature.name, **example_cells(rules, creature)}
        cells["note"] = f"Seed: {creature.section}" + (f". {creature.note}" if creature.note else "")
        for column, (key, _, _) in enumerate(columns, start=1):
            if cells.get(key) is not None:
                put(sheet.cell(row, column), cells[key])
    sheet.freeze_panes = f"B{TOP + 1}"
    protect(sheet)


def number_width(label: str) -> int:
    """A number column's width: its header in at most HEADER_LINES lines by Excel's measure, so that the
    header row's height leaves a line for a wider font (LibreOffice without Calibri or Carlito)."""
    return next(
        w
        for w in range(NUMBER_WIDTH, 4 * NUMBER_WIDTH)
        if wrapped_line_count(label, width_points(w), float(BOLD.sz), bold=True) <= HEADER_LINES
    )


def write_checks(sheet: Worksheet, key: str, span: str, ruleset: object) -> None:
    """The roster's own checks on the library's cells: dice parts as whole numbers, a size from the list."""
    for part, (least, most) in DICE_PART_LIMITS.items():
        if key.endswith(f"_{part}"):
            add_number_check(sheet, span, least, most)
    if any(key == f"s_{s.id}" and s.kind == "size" for s in ruleset.stats):  # type: ignore[attr-defined]
        add_list(sheet, span, "=" + table_name("stun_size", "label"))
    if key == f"s_{EACH_ROUND}":
        add_number_check(sheet, span, 0)
