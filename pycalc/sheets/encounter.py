"""The Encounter sheet: a roster, the acting order, an attack log resolved like the calculator, hit
points and conditions over rounds (the model is :mod:`pycalc.encounter`).

Each log row resolves its attack with the calculator's own formulas: the formulas the Attack (or
Strike) calculator uses for its result and damage are copied onto the row, every calculator name
replaced by the row's cell (a roster number of the attacker or target picked on the row, the row's
roll, or a working cell of the row). So a row says what the calculator says for the same numbers,
native formulas in the .xlsx and UDF calls in the .xlsm. Working columns sit right of the log,
hidden. An input the log does not set is its default on every row: what the calculator works out
from such inputs alone is folded (``pycalc.sheets.fold``) into a literal written into the formulas
that use it, or, when it still reads the rule tables, worked out once in the log's header row
(``pycalc.sheets.log_rows``). Order, hit points and conditions are COUNTIF/SUMIFS over the roster
and the logs (no SORT, no array formula).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from copy import copy
from dataclasses import dataclass, replace
from typing import Any

from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc.creatures import NO_CREATURE
from pycalc.damage_kinds import HEALED, bad_kind, heal_also_message, heal_needs_amount, labels
from pycalc.encounter import (
    ALSO_HITS,
    CHECK_SEPARATOR,
    CONDITION_SIZE,
    CONDITION_SLOTS,
    DAMAGE,
    LOG_SIZE,
    LOST_STUNNED,
    NO_MORALE_ROW,
    ORDER_HINT,
    ROSTER_SIZE,
    SPELL_CHECK,
    SPELL_LOST,
    initiative_dice,
)
from pycalc.encounter_block import HEAL, SUBDUAL, encounter
from pycalc.encounter_block import cell as block_value
from pycalc.encounter_rulesets import EACH_ROUND, Adapter, LogRoll, adapter
from pycalc.log_picks import IGNORED, SEPARATOR, Pick, named_picks, normalized, picks_list
from pycalc.log_picks import UNKNOWN as PICKS_UNKNOWN
from pycalc.resolution_block import Ref
from pycalc.sheets.calculator import BOOLEAN_FORMAT, add_list
from pycalc.sheets.common import (
    BOLD,
    NOTE,
    SHRINK,
    SUBTITLE,
    TITLE,
    absolute,
    define_name,
    destinations,
    fill,
    formula_value,
    mark_input,
    mark_output,
    name_part,
    protect,
    put,
    put_formula,
    style_header,
    table_name,
)
from pycalc.sheets.dual import BOTH, Udfs, both, macro_text
from pycalc.sheets.formulas import band, by_label, const, last, q
from pycalc.sheets.kind_formulas import subdual_picked, typed_kind
from pycalc.sheets.log_rows import (
    LITERAL,
    ONCE,
    ONCE_PREFIX,
    ROW,
    ROW_MARK,
    ROW_PREFIX,
    RowFormula,
    RowTemplate,
    gives_boolean,
    kept_off_threads,
    names_in,
    plan_rows,
    substitute,
    table_cells,
)
from pycalc.sheets.ooxml.cells import (
    cells_of,
    set_formula,
    set_stored_value,
    stored_value,
    style_array_of,
    use_styles_of,
)
from pycalc.sheets.ooxml.fast_cells import styled_like
from pycalc.sheets.ooxml.styles import share_styles
from pycalc.sheets.roll_entry import add_roll_check, dice_roll, die_roll, log_roll
from pycalc.table_files import Table
from pycalc.tables import RuleSet

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


# --------------------------------------------------------------------------- calculator formulas


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


# --------------------------------------------------------------------------- the sheet's columns


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


def write_encounter(
    book: Workbook,
    rules: RuleSet,
    write_calculators: Callable[[Workbook, RuleSet, Udfs], None],
    macro: Udfs,
    known: dict[bool, Calculator] | None = None,
) -> None:
    """The Encounter sheet, after the calculators (whose formulas its log copies).

    The .xlsx and the .xlsm lay out the same columns (the .xlsm takes its cached values from the
    .xlsx cell by cell): the working cells of both calculators' formulas, native and UDF, each file
    writing its own formula in each. ``known`` holds the calculators read so far by kind (UDF or
    not), so the second file of a ruleset does not write the other kind's calculators again. A book
    saved as both files (``macro`` is ``BOTH``) holds both calculators already, and gets both
    Encounters (``write_both_encounters``)."""
    if rules.encounter_block is None:
        return
    if macro == BOTH:
        write_both_encounters(book, rules)
        return
    known = {} if known is None else known
    calculator = read_calculator(book)
    earlier = known.get(macro)  # read by the other file's build, with this file's log plan
    if earlier is not None and (earlier.formulas, earlier.inputs) == (calculator.formulas, calculator.inputs):
        calculator = earlier
    known[macro] = calculator
    other = known.get(not macro)
    if other is None:
        scratch = share_styles(Workbook())
        write_calculators(scratch, rules, not macro)
        other = known[not macro] = read_calculator(scratch)
    calculator = replace(calculator, other=other, native=not macro)
    sheet, log_sheet = book.create_sheet(SHEET, 2), book.create_sheet(LOG_SHEET, 3)
    writer = EncounterWriter(sheet, log_sheet, book, rules, adapter(rules), calculator)
    writer.write()
    known[not macro] = replace(other, log_plan=writer.other_plan)


def write_both_encounters(book: Workbook, rules: RuleSet) -> None:
    """The .xlsx's Encounter, each cell holding the .xlsm's text too (``pycalc.sheets.dual``): the
    .xlsm's is written apart, in a scratch book with the same names and styles, then read into the
    .xlsx's cell by cell. Both lay out the same cells alike; only their text may differ."""
    native, udf = read_calculator(book), read_calculator(book, macro=True)
    scratch = Workbook()
    scratch.remove(scratch.active)
    use_styles_of(scratch, book)  # the same style ids in both
    scratch.defined_names = copy(book.defined_names)  # the names so far, as the writer finds them
    writer = EncounterWriter(
        book.create_sheet(SHEET, 2),
        book.create_sheet(LOG_SHEET, 3),
        book,
        rules,
        adapter(rules),
        replace(native, other=udf),
    )
    writer.write()
    macro = replace(udf, other=native, native=False, log_plan=writer.other_plan)
    macro_writer = EncounterWriter(
        scratch.create_sheet(SHEET), scratch.create_sheet(LOG_SHEET), scratch, rules, adapter(rules), macro
    )
    macro_writer.template_only = True
    macro_writer.write()
    take_macro_text(writer, macro_writer)


def take_macro_text(writer: EncounterWriter, macro: EncounterWriter) -> None:
    """Each cell of the .xlsx's Encounter and Log sheets holds the .xlsm's text of the cell too, where
    it differs: the .xlsm's cell's, or, on the log rows written from the row template, its template's."""
    templates, macro_templates = writer.row_template.templates, macro.row_template.templates
    if templates.keys() != macro_templates.keys():
        raise AssertionError("the .xlsx's and the .xlsm's log rows have different cells")
    for sheet, macro_sheet in ((writer.sheet, macro.sheet), (writer.log_sheet, macro.log_sheet)):
        cells, others = cells_of(sheet), cells_of(macro_sheet)
        templated = (
            {(row, column) for row in writer.templated_rows for column in templates}
            if sheet is writer.log_sheet
            else set()
        )
        if cells.keys() - templated != others.keys():
            raise AssertionError(f"the .xlsx's and the .xlsm's {sheet.title} sheets have different cells")
        for place, other in others.items():
            cell = cells[place]
            text, xlsm_text = stored_value(cell), stored_value(other)
            if style_array_of(cell) != style_array_of(other) or cell.data_type != other.data_type:
                raise AssertionError(f"{sheet.title}!{cell.coordinate} differs in the .xlsm beyond its text")
            if text != xlsm_text:
                if not (isinstance(text, str) and isinstance(xlsm_text, str)):
                    raise AssertionError(f"{sheet.title}!{cell.coordinate} holds another value in the .xlsm")
                set_stored_value(cell, both(text, xlsm_text))
    cells = cells_of(writer.log_sheet)
    for column, template in templates.items():
        if macro_templates[column] != template:
            for row in writer.templated_rows:
                cell = cells[(row, column)]
                set_stored_value(cell, both(stored_value(cell), macro.row_template.formula(column, row)))


class EncounterWriter:
    def __init__(
        self,
        sheet: Worksheet,
        log_sheet: Worksheet,
        book: Workbook,
        rules: RuleSet,
        ruleset: Adapter,
        calculator: Calculator,
    ):
        self.sheet, self.log_sheet, self.book, self.rules, self.ruleset, self.calculator = (
            sheet,
            log_sheet,
            book,
            rules,
            ruleset,
            calculator,
        )
        self.block = encounter(rules)
        self.roster = Columns(1, ROSTER_TOP, ROSTER_SIZE, sheet)
        conditions_top = ROSTER_TOP + ROSTER_SIZE + CONDITIONS_GAP
        self.conditions = Columns(1, conditions_top, CONDITION_SIZE, sheet)
        self.log = Columns(1, LOG_TOP, LOG_SIZE, log_sheet)
        self.outputs = [ruleset.result, ruleset.hp_lost, ruleset.summary, *(n for n, _ in ruleset.shown)]
        self.outputs += ["STRIKE_PROT", "STRIKE_PROT_AFTER"] if "STRIKE_PROT" in ruleset.wiring else []
        self.working, self.used = calculator.shared_closure(self.outputs)
        self.other_plan: dict[str, RowFormula] | None = None  # the other file's, once worked out
        self.template_only = False  # write the log's rows after the second as their template only
        self.row_template = RowTemplate({})  # the log rows' formulas after the second
        self.templated_rows = range(0)  # the log rows written from it

    # ---- names and cells

    def name(self, block: Columns, key: str, defined: str) -> None:
        define_name(self.book, defined, absolute(block.sheet, *block.span(key).replace("$", "").split(":")))

    def head(self, block: Columns) -> None:
        # every text above a column the GM types in is a formula: AutoInput completes a typed entry
        # from a text of its column ("s" to "Short name for the log ..."), never from a formula
        for key, column in block.index.items():
            style_header(put_formula(block.sheet.cell(block.top, column), q(block.labels[key])))
        block.sheet.row_dimensions[block.top].height = HEADER_HEIGHT

    def write_round_in_use(self) -> None:
        """Round now left empty is never round 0 (every HP back to maximum, as if nothing happened):
        the sheets then show the fight as of the last round logged, and say so."""
        log_sheet = self.log_sheet
        in_use = put_formula(
            log_sheet[ROUND_IN_USE_CELL],
            'IF(ISNUMBER(ENC_ROUND),ENC_ROUND,MAX(1,SUMPRODUCT(MAX((LOG_ATTACKER&LOG_TARGET<>"")*LOG_ROUND_NOW))))',
        )
        in_use.number_format = '"in use: round "0'
        define_name(self.book, "ENC_ROUND_NOW", absolute(log_sheet, ROUND_IN_USE_CELL))
        shown = put_formula(self.sheet[ROUND_SHOWN_CELL], "ENC_ROUND_NOW")
        mark_output(shown, bold=True)
        said = put_formula(
            self.sheet["C3"],
            f'IF(ISNUMBER(ENC_ROUND),"",{q(EMPTY_ROUND + ". ")})&{q(ROUND_WHERE)}',
        )
        said.font = NOTE

    def write(self) -> None:
        sheet, log_sheet = self.sheet, self.log_sheet
        # the texts above the roster and the attack log are formulas: AutoInput completes a typed
        # name ("o" for Orc) from a text of its column, never from a formula
        put_formula(sheet["A1"], q(f"Encounter: {self.rules.name}")).font = TITLE
        put_formula(sheet["A2"], q(HELP)).font = NOTE
        put_formula(sheet["A3"], q("Round now"))
        put_formula(log_sheet["A1"], q(f"Fight log: {self.rules.name}")).font = TITLE
        put_formula(log_sheet["A2"], q("Round now"))
        put(log_sheet[ROUND_CELL], 1)
        mark_input(log_sheet[ROUND_CELL])
        add_number_check(log_sheet, ROUND_CELL, 1)
        define_name(self.book, "ENC_ROUND", absolute(log_sheet, ROUND_CELL))
        self.write_round_in_use()
        self.write_roster()
        self.write_conditions()
        self.write_log()
        self.finish_roster()
        self.set_widths()
        self.write_panel()
        for block_sheet, blocks in ((sheet, (self.roster, self.conditions)), (log_sheet, (self.log,))):
            last = max(block.next for block in blocks)
            for column in range(WORKING_FROM, last):
                block_sheet.column_dimensions[get_column_letter(column)].hidden = True
        self.write_next_fight_names()
        sheet.freeze_panes = "B1"
        sheet.sheet_view.zoomScale = 85
        log_sheet.freeze_panes = f"C{LOG_TOP + 1}"  # the acting order, the titles, Attacker and Target
        protect(sheet)
        protect(log_sheet)

    def write_next_fight_names(self) -> None:
        """The cells a GM clears for the next fight, each name typed into the Name Box then Delete (no
        macro): NEXT_FIGHT_LOG (and NEXT_FIGHT_LOG_2 ...), the attack log's inputs; NEXT_FIGHT_ROLLS,
        what the roster holds of one fight only (initiative rolls, declared actions, morale rolls,
        aid); NEXT_FIGHT_CONDITIONS. Names, numbers and dice stay. Each name is one rectangle of input
        cells: the Name Box selects only the first area of a name of several, and Delete does nothing
        on a selection holding a locked cell."""
        roster_keys = [
            k
            for k in self.roster.index
            if re.fullmatch(r"roll\d+|action|cast|morale_roll|aided|cast_round", k)
        ]
        log_keys = [k for k in self.log.index if self.log.index[k] < WORKING_FROM and self.log_input(k)]
        for defined, block, keys in (
            ("NEXT_FIGHT_LOG", self.log, log_keys),
            ("NEXT_FIGHT_ROLLS", self.roster, roster_keys),
            ("NEXT_FIGHT_CONDITIONS", self.conditions, CONDITION_INPUTS),
        ):
            for k, area in enumerate(input_areas(block, keys), start=1):  # a Name Box selects one rectangle
                define_name(self.book, defined if k == 1 else f"{defined}_{k}", area)

    def log_input(self, key: str) -> bool:
        cell = cells_of(self.log_sheet).get((self.log.top + 1, self.log.index[key]))
        return cell is not None and cell.protection.locked is False

    def set_widths(self) -> None:
        """Names and texts wide enough to read; numbers narrow (their headers wrap between words, and
        the longest word of a header fits on its line)."""
        widths: dict[str, float] = {}
        for block in (self.roster, self.conditions):
            for key, column in block.index.items():
                if column < WORKING_FROM:
                    letter = get_column_letter(column)
                    word = max(len(w) for w in block.labels[key].split())
                    fits = round(word * BOLD_CHARACTER + 1, 1)
                    widths[letter] = max(widths.get(letter, 0), column_width(key), fits)
        texts = {(self.roster, "state"): (self.block.hit_points.table, self.block.hit_points.state)}
        if self.block.conditions:
            texts[(self.conditions, "name")] = (self.block.conditions, "label")
        for (block, key), (table, column) in texts.items():  # the longest state or condition reads whole
            rows = self.rules.table(table).rows
            longest = max(len(str(row.label if column == "label" else row[column])) for row in rows)
            letter = block.letter(key)
            widths[letter] = max(widths[letter], min(longest + 1, MOST_TEXT_WIDTH))
        for letter, width in widths.items():
            self.sheet.column_dimensions[letter].width = width
        for key, column in self.log.index.items():  # the log: narrow, its titles wrapped
            if column < WORKING_FROM:
                word = max(len(w) for w in self.log.labels[key].split())
                fits = round(word * BOLD_CHARACTER + 1, 1) if title_fits(key) else 0
                self.log_sheet.column_dimensions[get_column_letter(column)].width = max(log_width(key), fits)

    # ---- the acting order above the log

    def write_panel(self) -> None:
        """The Log sheet's frozen rows: Round now, who acts now (the first in the acting order of the
        round who has not attacked in it and is not down) and the acting order from the one before,
        with hit points, state and conditions; the line of who acts now highlighted."""
        sheet, log = self.log_sheet, self.log
        shown = sorted(c for c in log.index.values() if c < WORKING_FROM)
        widths = {c: sheet.column_dimensions[get_column_letter(c)].width or 8.43 for c in shown}

        def lay(first: int, needs: list[float]) -> list[tuple[int, int]]:
            spans, at = [], first
            for k, need in enumerate(needs):
                end, room = at, widths[at]
                while end < shown[-1] and (room < need or k == len(needs) - 1):
                    end += 1
                    room += widths[end]
                spans.append((at, end))
                at = end + 1
            return spans

        def merged(row: int, span: tuple[int, int]) -> Any:
            if span[1] > span[0]:
                sheet.merge_cells(start_row=row, start_column=span[0], end_row=row, end_column=span[1])
            return sheet.cell(row, span[0])

        work = get_column_letter(WORKING_FROM + 1)  # hidden cells of the panel, above the log's rows
        position = get_column_letter(WORKING_FROM + 2)  # each line's place in the acting order
        now, count, start = f"${work}$2", f"${work}$3", f"${work}$4"
        put_formula(sheet[now.replace("$", "")], "MIN(ROSTER_WAITING)")
        put_formula(sheet[count.replace("$", "")], 'COUNTIF(ROSTER_RECORD_KEY,">0")')
        lines = f"${work}$6"  # how many lines the panel shows: a number in a cell, none typed in a formula
        put(sheet[lines.replace("$", "")], PANEL_LINES)
        put_formula(sheet[start.replace("$", "")], f"IF({now}=0,1,MAX(1,MIN({now}-1,{count}-{lines}+1)))")
        acts = put_formula(
            sheet[f"{work}5"], f'IF({now}=0,"",INDEX(ROSTER_NAME,MATCH({now},ROSTER_WAITING,0)))'
        )
        define_name(self.book, "ENC_ACTS_NOW", absolute(sheet, acts.coordinate))
        round_span, said_span = lay(3, [11, 0])
        merged(2, round_span)  # the round in use (ROUND_IN_USE_CELL)
        short = f'IF(INDEX(ROSTER_SHORT,MATCH({now},ROSTER_WAITING,0))="",""," ("&INDEX(ROSTER_SHORT,MATCH({now},ROSTER_WAITING,0))&")")'
        next_round = (
            '"Everyone has acted in round "&ENC_ROUND_NOW&": for round "&(ENC_ROUND_NOW+1)&'
            '", type "&(ENC_ROUND_NOW+1)&" in Round now and in Rnd on the next row"'
        )
        said = (
            f'IF({now}>0,"Acts now: "&ENC_ACTS_NOW&{short},IF({count}=0,"Type the combatants on the Encounter'
            f' sheet",{next_round}))&IF(ISNUMBER(ENC_ROUND),"",". "&{q(EMPTY_ROUND)})'
        )
        put_formula(merged(2, said_span), said).font = BOLD
        fields = [
            ("name", 18, "In order of action (short name)", "ROSTER_NAME"),
            ("hp", 5, "HP now", "ROSTER_HP_NOW"),
            ("state", 16, "State", "ROSTER_STATE"),
            ("conditions", 18, "Conditions now", "ROSTER_CONDITIONS"),
            ("turn", 0, "This round", ""),
        ]
        spans = lay(1, [need for _, need, _, _ in fields])
        for (_, _, label, _), span in zip(fields, spans, strict=True):
            put_formula(merged(PANEL_TOP, span), q(label))  # a formula: no AutoInput from it
            for column in range(span[0], span[1] + 1):
                style_header(sheet.cell(PANEL_TOP, column))
        for line in range(1, PANEL_LINES + 1):
            row = PANEL_TOP + line
            place = f"({start}+ROW()-ROW(${position}${PANEL_TOP}))"  # the line's place, by its row
            index = f"${get_column_letter(WORKING_FROM)}{row}"
            put_formula(
                sheet[index.replace("$", "")],
                f'IF({place}>{count},"",MATCH(SMALL(ROSTER_RECORD_KEY,{place}),ROSTER_RECORD_KEY,0))',
            )
            put_formula(sheet[f"{position}{row}"], f'IF({index}="","",{place})')
            for (key, _, _, name), span in zip(fields, spans, strict=True):
                value = f"INDEX({name},{index})"
                if key == "name":
                    value = f'{place}&". "&{value}&IF(INDEX(ROSTER_SHORT,{index})="",""," ("&INDEX(ROSTER_SHORT,{index})&")")'
                elif key == "turn":
                    value = (
                        f'IF({place}={now},"acts now",IF(INDEX(ROSTER_ACTED,{index})>0,"acted",'
                        f'IF(INDEX(ROSTER_DOWN,{index}),"down","to act")))'
                    )
                elif key != "hp":
                    value = f'IF({value}="","",{value})'
                for column in range(span[0], span[1] + 1):
                    mark_output(sheet.cell(row, column))
                cell = put_formula(merged(row, span), f'IF({index}="","",{value})')
                mark_output(cell)
                if key in ("state", "conditions", "name"):
                    cell.alignment = SHRINK
            if line == 1:
                define_name(
                    self.book,
                    "ENC_ORDER_NAMES",
                    absolute(sheet, f"{get_column_letter(spans[0][0])}{row}",
                             f"{get_column_letter(spans[0][0])}{row + PANEL_LINES - 1}"),
                )  # fmt: skip
        area = f"A{PANEL_TOP + 1}:{get_column_letter(spans[-1][1])}{PANEL_TOP + PANEL_LINES}"
        sheet.conditional_formatting.add(
            area,
            FormulaRule(
                formula=[f"AND(ISNUMBER(${position}{PANEL_TOP + 1}),${position}{PANEL_TOP + 1}={now})"],
                fill=fill(ACTS_NOW_FILL),
                font=Font(bold=True),
            ),
        )

    # ---- roster

    def write_roster(self) -> None:
        r, rule = self.roster, self.block.initiative
        put_formula(self.sheet.cell(r.top - 1, 1), q("Roster and acting order")).font = SUBTITLE
        inputs = [
            ("name", "Name", "NAME"),
            ("short_typed", SHORT_LABEL, "SHORT_TYPED"),
            ("side", "Side", "SIDE"),
            ("group", "Group (shares one roll)", "GROUP"),
            ("kind", KIND_LABEL, "KIND"),
        ]
        # what one fight only holds, side by side: one Name Box name clears them for the next fight
        inputs.append(("roll0", "Initiative roll", "INIT_ROLL"))
        for k, _ in enumerate(rule.later_dice, start=1):
            inputs.append((f"roll{k}", f"Roll, attack {k + 1}", f"INIT_ROLL_{k + 1}"))
        if rule.modifiers:
            inputs.append(("action", "Action (initiative)", "ACTION"))
            inputs.append(("cast", "Casting time", "CASTING_TIME"))
        if self.block.morale:
            inputs.append(
                (
                    "morale_roll",
                    f"Morale roll ({block_value(self.rules, self.block.morale.roll)})",
                    "MORALE_ROLL",
                )
            )
        if self.block.hit_points.loss:
            inputs.append(("aided", "Aided in round (stops the bleeding)", "AIDED_ROUND"))
        if self.block.spell_when_attacked:
            inputs.append(("cast_round", "Casts a spell in round", "CAST_ROUND"))
        inputs.append(("dex", "DEX modifier", "DEX"))
        if rule.first_round:
            inputs.append(("first", "Acts first in round 1 (reach, size)", "FIRST_ROUND"))
        dice = [s for s in self.ruleset.stats if s.kind == "dice"]
        inputs += [(f"s_{s.id}", s.label, s.id.upper()) for s in self.ruleset.stats if s not in dice]
        inputs += [
            ("max_hp", "Maximum HP", "MAX_HP"),
            ("start_hp", "Start HP (empty = max)", "START_HP"),
        ]
        # dice as three numbers (count, sides, bonus): AutoInput never completes a number, so 1d6 typed
        # under 1d6+1 stays 1d6; the dice text the rows read is worked out in a hidden column
        inputs += [
            (f"s_{s.id}_{part}", f"{s.label}: {word}", f"{s.id.upper()}_{part.upper()}")
            for s in dice
            for part, word in DICE_PARTS
        ]
        for key, label, defined in inputs:
            r.add(key, label)
            self.name(r, key, f"ROSTER_{defined}")
            for row in r.rows_range():
                mark_input(put(self.sheet.cell(row, r.index[key]), None))
        for key in ("aided", "cast_round"):
            if key in r.index:
                add_number_check(self.sheet, r.span(key).replace("$", ""), 1)
        if f"s_{EACH_ROUND}" in r.index:  # none (a combatant that makes no attack) or more
            add_number_check(self.sheet, r.span(f"s_{EACH_ROUND}").replace("$", ""), 0)
        for s in dice:
            for part, (least, most) in DICE_PART_LIMITS.items():
                add_number_check(self.sheet, r.span(f"s_{s.id}_{part}").replace("$", ""), least, most)
        if self.block.morale:
            add_roll_check(
                self.sheet,
                r.span("morale_roll").replace("$", ""),
                dice_roll(self.rules, self.block.morale.roll),
            )
        faces = initiative_dice(self.rules)
        for k in range(1 + len(rule.later_dice)):
            add_roll_check(self.sheet, r.span(f"roll{k}").replace("$", ""), die_roll(faces[k]))
        if rule.modifiers:
            add_list(self.sheet, r.span("action").replace("$", ""), "=" + table_name(rule.modifiers, "label"))
        add_list(self.sheet, r.span("kind").replace("$", ""), "=CREATURE_NAME", strict=False)
        if rule.first_round:
            add_list(self.sheet, r.span("first").replace("$", ""), "TRUE,FALSE")
        for s in self.ruleset.stats:
            if s.kind == "size":
                add_list(
                    self.sheet, r.span(f"s_{s.id}").replace("$", ""), "=" + table_name("stun_size", "label")
                )
        outputs = [("creature", "From Creatures", "FROM_CREATURES")]
        outputs += [("init", "Initiative", "INITIATIVE"), ("order", "Order (1 acts first)", "ORDER")]
        outputs.append(("together", "Acts together with another", "SIMULTANEOUS"))
        outputs += [
            (f"later{k}", f"Initiative, attack {k + 1}", f"INITIATIVE_{k + 1}")
            for k in range(1, 1 + len(rule.later_dice))
        ]
        if rule.lost_at_or_below is not None:
            outputs.append(("lost", "Attacks lost (too late)", "LOST"))
        if rule.modifiers:
            outputs.append(("spell", "Spell goes off on", "SPELL_AT"))
        if rule.first_round:
            outputs.append(("note", "Round 1", "ROUND_ONE"))
        outputs += [("hp_now", "HP now", "HP_NOW")]
        if SUBDUAL in labels(self.rules):  # the subdual (temporary) damage inside the hit points lost
            outputs.append(("sub_taken", f"{labels(self.rules)[SUBDUAL]} damage taken", "SUBDUAL_TAKEN"))
        outputs.append(("state", "State", "STATE"))
        outputs += [(key, label, key.upper()) for key, label in ROSTER_EXTRA.get(self.rules.id, ())]
        outputs += [("conditions", "Conditions now", "CONDITIONS"), ("down", "0 HP or less", "DOWN")]
        if self.block.morale:
            outputs += [("morale", "Morale", "MORALE"), ("side_down", "Side down", "SIDE_DOWN")]
        for key, label, defined in outputs:
            r.add(key, label)
            self.name(r, key, f"ROSTER_{defined}")
        self.head(r)
        working(r)
        r.add("dexv", "DEX (as a number)")
        r.add("start", "HP at the start")
        r.add("log_hp", "HP after the log")
        r.add("lethal_hp", "HP after the log's normal damage")  # subdual damage does not wound
        r.add("state_hp", "HP whose band names the state")
        r.add("down_lethal", "normal damage taken while down")
        r.add("record_key", "Place on the fight record")
        self.name(r, "record_key", "ROSTER_RECORD_KEY")
        for key in ("last_word", "short_auto", "short", "named_no", "acted", "sorted", "waiting"):
            r.add(key, key)
        r.add("first_now_row", "its first log row of the round now (0: none)")
        r.add("passed_at", "the first log row of the round now that passes it in the acting order")
        if rule.later_dice:
            r.add("attacks", "attacks its initiative rolls give it")
        elif self.block.attacks_each_round:
            r.add("attacks", "attacks each round (typed, the creature's, else the default)")
        r.add("kind_used", "the creature's name the line looks up")
        r.add("crow", "its line on the Creatures sheet")
        for key, label, defined in library_columns(self.ruleset):  # typed, else the creature's
            r.add(f"use_{key}", f"{label} in use")
            self.name(r, f"use_{key}", f"ROSTER_{defined}_IN_USE")
        self.name(r, "short", "ROSTER_SHORT")  # the short name the log takes (typed, or initials)
        self.name(r, "named_no", "ROSTER_NAMED_NO")
        self.name(r, "acted", "ROSTER_ACTED")  # attacks logged this round
        self.name(r, "waiting", "ROSTER_WAITING")  # place in the acting order while yet to act
        for s in dice:
            r.add(f"s_{s.id}", s.label)
            self.name(r, f"s_{s.id}", f"ROSTER_{s.id.upper()}")
        if self.block.hit_points.loss:
            for key in ("bleed_loss", "bleed_top", "bleed_low", "bleed_since", "bleed_stop", "bleed_lost"):
                r.add(key, key)
            self.name(r, "bleed_loss", "ROSTER_BLEED_LOSS")  # the fight record says who bleeds
            self.name(r, "bleed_stop", "ROSTER_BLEED_STOP")  # and whose bleeding a heal stopped
        self.name(r, "start", "ROSTER_HP_AT_START")

    def roster_formulas(self, row: int) -> dict[str, str]:
        r, rule = self.roster, self.block.initiative
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        found = {
            **{
                f"s_{s.id}": dice_text(*(at(f"use_s_{s.id}_{part}") for part, _ in DICE_PARTS))
                for s in self.ruleset.stats
                if s.kind == "dice"
            },
            "dexv": f"SUM({at('use_dex')})",
            "start": f'IF({at("start_hp")}="",SUM({at("use_max_hp")}),{at("start_hp")})',
        }
        found |= self.from_creatures(row)
        adds = (
            f"{at('dexv')}"
            if rule.adds_dex is True
            else (f"IF({expression(rule.adds_dex)},{at('dexv')},0)" if rule.adds_dex else "0")
        )
        action = (
            f'IF({at("action")}="",0,{by_label(rule.modifiers, "init", at("action"))})'
            if rule.modifiers
            else "0"
        )
        previous = None
        for k in range(1 + len(rule.later_dice)):
            own, roll_span = at(f"roll{k}"), r.span(f"roll{k}")
            group = at("group")
            first = f"INDEX({roll_span},MATCH({group},{r.span('group')},0))"
            roll = f'IF(ISNUMBER({own}),{own},IF({group}="","",IF({first}="","",{first})))'
            raw = f'IF({named},"",IF({roll}="","",{roll}+{adds}+{action}))'
            key = "init" if k == 0 else f"later{k}"
            if previous is None:
                found[key] = raw
            else:
                delay = expression(rule.later_tie_delay)
                found[key] = f'IF(OR({raw}="",{previous}=""),{raw},IF({raw}={previous},{raw}-{delay},{raw}))'
            previous = at(key)
        init = at("init")
        ahead = f'COUNTIF({r.span("init")},">"&{init})'
        if rule.ties == "higher_dex":
            ahead += f'+COUNTIFS({r.span("init")},{init},{r.span("dexv")},">"&{at("dexv")})'
        found["order"] = f'IF({init}="","",1+{ahead})'
        order, group = at("order"), at("group")
        same = f"COUNTIF({r.span('order')},{order})"
        mine = f'IF({group}="",1,COUNTIFS({r.span("order")},{order},{r.span("group")},{group}))'
        found["together"] = f'IF({order}="","",{same}-{mine}>0)'
        if rule.lost_at_or_below is not None:
            limit = expression(rule.lost_at_or_below)
            counts = "+".join(f'IF({at(k)}="",0,{at(k)}<={limit})' for k in self.initiative_keys())
            found["lost"] = f'IF({named},"",{counts})'
        if rule.later_dice:  # the attacks its rolls give it this round (pycalc.encounter.attacks_allowed)
            rolled = "COUNT(" + ",".join(at(k) for k in self.initiative_keys()) + ")"
            lost = f"-{at('lost')}" if rule.lost_at_or_below is not None else ""
            found["attacks"] = f'IF({named},"",IF({rolled}=0,"",{rolled}{lost}))'
        elif self.block.attacks_each_round:  # pycalc.encounter.attacks_each_round
            used = at(f"use_s_{EACH_ROUND}")
            default = self.block.attacks_default
            fallback = '""' if default is None else expression(default)
            found["attacks"] = f'IF({named},"",IF({used}="",{fallback},{used}))'
        if rule.modifiers:
            found["spell"] = f'IF(OR({init}="",{at("cast")}=""),"",{init}-{at("cast")})'
            if self.block.spell_lost_on_hit:  # a row hit it while it cast: pycalc.encounter.SPELL_LOST
                place = f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
                lost = f"COUNTIF({self.log.ref('spell_hit')},{place})>0"
                found["spell"] = f"IF({lost},{q(SPELL_LOST)},{found['spell']})"
        if rule.first_round:
            title = self.rules.table(rule.first_round).title
            found["note"] = (
                f'IF(AND(NOT({named}),ENC_ROUND_NOW=1,{at("first")}=TRUE),{q("acts first: " + title)},"")'
            )
        log = self.log
        taken = self.over_targets(
            lambda key: (
                f'SUMIFS({log.ref("hp_lost")},{log.ref("who_" + key)},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
            )
        )
        found["log_hp"] = f"IF({named},0,{at('start')}-({taken}))"
        kinds = self.block.damage_kinds
        if "sub_taken" in r.index:
            pool = "+".join(
                f'SUMIFS({log.ref("sub_lost")},{log.ref("who_" + key)},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
                for key in self.target_keys
            )
            found["sub_taken"] = f'IF({named},"",{pool})'
            found["lethal_hp"] = f"IF({named},0,{at('log_hp')}+{at('sub_taken')})"
        else:
            found["lethal_hp"] = f"IF({named},0,{at('log_hp')})"
        if kinds is not None and kinds.further_damage_lethal:
            found["down_lethal"] = (
                f"IF({named},0,SUMIFS({log.ref('down_lethal')},{log.ref('who_target')},{at('name')},"
                f'{log.ref("round_now")},"<="&ENC_ROUND_NOW))'
            )
        else:
            found["down_lethal"] = "0"
        size, place = f"ROWS({r.span('name')})", f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
        found["record_key"] = (
            f'IF({named},"",IF(ISNUMBER({at("order")}),{at("order")},{size}+1)*{size}+{place})'
        )
        found |= self.short_name(row)
        found["named_no"] = f'IF({named},"",COUNTIF({r.span("name", row)},"?*"))'
        found["acted"] = (
            f"IF({named},0,COUNTIFS({log.ref('actor')},{place},{log.ref('round_now')},ENC_ROUND_NOW))"
        )
        found["sorted"] = f'IF({named},"",COUNTIF({r.span("record_key")},"<="&{at("record_key")}))'
        found["waiting"] = f'IF({named},"",IF(AND({at("acted")}=0,NOT({at("down")})),{at("sorted")},""))'
        if self.block.hit_points.loss:
            found |= self.bleeding(row)
            found["hp_now"] = f'IF({named},"",{at("log_hp")}-{at("bleed_lost")})'
        else:
            found["hp_now"] = f'IF({named},"",{at("log_hp")})'
        hit_points = self.block.hit_points
        sub = at("sub_taken") if "sub_taken" in r.index else "0"
        # the wound's band once the normal damage alone takes one to 0 or below (pycalc.encounter)
        found["state_hp"] = f"IF({named},0,IF({at('hp_now')}+{sub}<=0,{at('hp_now')}+{sub},{at('hp_now')}))"
        state = band(hit_points.table, hit_points.state, at("state_hp"))
        if hit_points.start_band_exempt:
            starts = table_name(hit_points.table, "from")
            same = f"MATCH({at('state_hp')},{starts},1)=MATCH({at('start')},{starts},1)"
            state = f"IF({same},{last(hit_points.table, hit_points.state)},{state})"
        if "sub_taken" in r.index and kinds is not None and kinds.knocked_out:
            out = f"AND({sub}>0,{at('hp_now')}<=0,{at('hp_now')}+{sub}>0,{at('down_lethal')}=0)"
            state = f"IF({out},{band(hit_points.table, kinds.knocked_out, at('hp_now'))},{state})"
        found["state"] = f'IF({named},"",IFERROR({state},""))'
        found["down"] = f'IF({named},"",{at("hp_now")}<=0)'
        found |= self.passed(row)
        found["conditions"] = self.conditions_now(row)
        if self.block.morale:
            found |= self.morale(row)
        found |= self.roster_extra(row)
        return found

    def passed(self, row: int) -> dict[str, str]:
        """The acting-order hint (``pycalc.encounter.order_hints``): the line's first log row of the
        round now, and the first row of the round now before it whose attacker acts later in the order
        (empty for a line unnamed, down or without initiative)."""
        r, log = self.roster, self.log
        at = lambda key: r.at(key, row)  # noqa: E731
        unnamed = f'{at("name")}=""'
        place = f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
        at_first = f"SUMIFS({log.ref('row_no')},{log.ref('actor')},{place},{log.ref('first_now')},TRUE)"
        past = f"(ROWS({log.ref('row_no')})+1)"
        first = f"IF({at('first_now_row')}=0,{past},{at('first_now_row')})"
        later = (
            f"SUMPRODUCT(MAX(({log.ref('aorder')}>{at('order')})*({log.ref('round_now')}=ENC_ROUND_NOW)"
            f"*({log.ref('row_no')}<{first})*({past}-{log.ref('row_no')})))"
        )
        skip = f"OR({unnamed},NOT(ISNUMBER({at('order')})),{at('down')}=TRUE"
        if "cast_round" in r.index:  # a caster this round: its spell is no log row
            skip += f",{at('cast_round')}=ENC_ROUND_NOW"
        if "spell" in r.index:
            skip += f',{at("spell")}<>""'
        skip += ")"
        return {
            "first_now_row": f"IF({unnamed},0,{at_first})",
            "passed_at": f'IF({skip},"",IF({later}=0,"",{past}-{later}))',
        }

    def from_creatures(self, row: int) -> dict[str, str]:
        """The creature the line names (its Kind, else its name without a last word of digits) and each
        library number in use: the one typed, else the creature's (the dice as a whole: the creature's
        when the line's three dice cells are empty). The model: pycalc.creatures."""
        r = self.roster
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        trimmed, last_word, kind = f"TRIM({at('name')})", at("last_word"), f"TRIM({at('kind')})"
        digits_gone = last_word
        for digit in "0123456789":
            digits_gone = f'SUBSTITUTE({digits_gone},"{digit}","")'
        by_name = f'IF({digits_gone}="",TRIM(LEFT({trimmed},LEN({trimmed})-LEN({last_word}))),{trimmed})'
        crow = at("crow")
        found = {
            "kind_used": f'IF({named},"",IF({kind}<>"",{kind},{by_name}))',
            "crow": f'IF({at("kind_used")}="","",IFERROR(MATCH({at("kind_used")},CREATURE_NAME,0),""))',
            "creature": f'IF({named},"",IF(ISNUMBER({crow}),INDEX(CREATURE_NAME,{crow}),'
            f'IF({kind}="","",{q(NO_CREATURE + ": ")}&{kind})))',
        }
        dice_typed = {
            s.id: "OR(" + ",".join(f'{at(f"s_{s.id}_{part}")}<>""' for part, _ in DICE_PARTS) + ")"
            for s in self.ruleset.stats
            if s.kind == "dice"
        }
        for key, _, defined in library_columns(self.ruleset):
            library = f"INDEX(CREATURE_{defined},{crow})"
            creature = f'IF(ISNUMBER({crow}),IF({library}="","",{library}),"")'
            typed = next((t for stat_id, t in dice_typed.items() if key.startswith(f"s_{stat_id}_")), None)
            if typed is None:
                typed = f'{at(key)}<>""'
            found[f"use_{key}"] = f'IF({typed},IF({at(key)}="","",{at(key)}),{creature})'
        return found

    def short_name(self, row: int) -> dict[str, str]:
        """The short name the log takes besides the name: the one typed, else the initials (g3 for
        Goblin 3, bk for Black Knight, a for Aria) unless a line above has it or a line typed it (the
        model: pycalc.encounter.short_names)."""
        r = self.roster
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        trimmed, last_word = f"TRIM({at('name')})", at("last_word")
        spaces = f'LEN({trimmed})-LEN(SUBSTITUTE({trimmed}," ",""))'
        last_space = f'FIND("|",SUBSTITUTE({trimmed}," ","|",{spaces}))'  # the last word after it
        digits_gone = last_word
        for digit in "0123456789":
            digits_gone = f'SUBSTITUTE({digits_gone},"{digit}","")'
        more = f'IF({digits_gone}="",{last_word},LOWER(LEFT({last_word},1)))'
        auto, typed = at("short_auto"), at("short_typed")
        taken = [f"COUNTIF({r.span('short', row - 1)},{auto})>0"] if row > r.top + 1 else []
        taken.append(f"COUNTIF({r.span('short_typed')},{auto})>0")
        return {
            "last_word": f'IF({named},"",IF(ISNUMBER(FIND(" ",{trimmed})),MID({trimmed},{last_space}+1,LEN({trimmed})),{trimmed}))',
            "short_auto": f'IF({named},"",LOWER(LEFT({trimmed},1))&IF(ISNUMBER(FIND(" ",{trimmed})),{more},""))',
            "short": f'IF({named},"",IF({typed}<>"",{typed},IF(OR({",".join(taken)}),"",{auto})))',
        }

    def bleeding(self, row: int) -> dict[str, str]:
        """Hit points lost to a band that loses them each round (C&C's -7 to -9), in every round after
        the round the log first brought the combatant there (0: it started there), until the round
        before it was aided, never below the band (the model: pycalc.encounter.bleeding)."""
        r, log, rule = self.roster, self.log, self.block.hit_points
        at = lambda key: r.at(key, row)  # noqa: E731
        hp, top = at("lethal_hp"), at("bleed_top")
        later = "ENC_ROUND_NOW+1"  # after every round that counts: no row reached the band

        def first_round(key: str) -> str:
            reached = f"({log.ref('who_' + key)}={at('name')})*({log.ref('hp_' + key)}<={top})"
            return f"SUMPRODUCT(MIN({reached}*{log.ref('round_now')}+(1-{reached})*({later})))"

        since = "MIN(" + ",".join(first_round(key) for key in self.target_keys) + ")"
        until = f"IF(ISNUMBER({at('aided')}),MIN(ENC_ROUND_NOW,{at('aided')}-1),ENC_ROUND_NOW)"
        if self.block.damage_kinds:  # a heal in a round after it reached the band stops it, as aid does
            until = f"MIN({until},{at('bleed_stop')}-1)"
            healed = (
                f"({log.ref('who_target')}={at('name')})*({log.ref('heal_ok')}=TRUE)"
                f"*({log.ref('round_now')}>{at('bleed_since')})"
            )
            stop = f"SUMPRODUCT(MIN({healed}*{log.ref('round_now')}+(1-{healed})*({later})))"
        bleeds = f'OR({at("name")}="",NOT(ISNUMBER({at("bleed_loss")})),{at("bleed_loss")}<=0)'
        return {
            "bleed_loss": f"IFERROR({band(rule.table, rule.loss, hp)},0)",
            "bleed_top": f"IFERROR({band(rule.table, 'to', hp)},0)",
            "bleed_low": f"IFERROR({band(rule.table, 'from', hp)},0)",
            "bleed_since": f"IF({bleeds},0,IF({at('start')}<={top},0,{since}))",
            **({"bleed_stop": f"IF({bleeds},0,{stop})"} if self.block.damage_kinds else {}),
            "bleed_lost": f"IF({bleeds},0,MIN({at('bleed_loss')}*MAX(0,{until}-{at('bleed_since')}),"
            f"{hp}-{at('bleed_low')}+1))",
        }

    def morale(self, row: int) -> dict[str, str]:
        """The GM's morale table read at the roll; how much of the combatant's side is down."""
        r, morale = self.roster, self.block.morale
        at = lambda key: r.at(key, row)  # noqa: E731
        low, high = table_name(morale.table, "roll_from"), table_name(morale.table, "roll_to")
        roll = at("morale_roll")
        index = (
            f"SUMPRODUCT(ISNUMBER({low})*({low}<={roll})*({high}>={roll})*(ROW({low})-ROW(INDEX({low},1))+1))"
        )
        result = f"IF({index}=0,{q(NO_MORALE_ROW)},INDEX({table_name(morale.table, 'result')},{index}))"
        side = at("side")
        down = f"COUNTIFS({r.span('side')},{side},{r.span('down')},TRUE)"
        size = f'COUNTIFS({r.span("side")},{side},{r.span("name")},"<>")'
        percent = expression(morale.check_at_percent)
        by_percent = f'": check morale ("&{percent}&"% down)"'
        first = (
            '""'
            if morale.check_at_down is None
            else f'IF({down}={expression(morale.check_at_down)},": check morale (the first down)","")'
        )
        check = f'IF({down}>=VALUE({percent}&"%")*{size},{by_percent},{first})'
        return {
            "morale": f'IF(OR({at("name")}="",NOT(ISNUMBER({roll}))),"",{result})',
            "side_down": f'IF(OR({at("name")}="",{side}=""),"",{down}&" of "&{size}&{check})',
        }

    def conditions_now(self, row: int) -> str:
        """The active conditions, CONDITION_SLOTS of them by name, then how many more."""
        c = self.conditions
        name = self.roster.at("name", row)
        slots = [
            f'IFERROR(INDEX({c.span("text")},MATCH({name}&"#{k}",{c.span("key")},0)),"")'
            for k in range(1, CONDITION_SLOTS + 1)
        ]
        joined = slots[0] + "".join(f'&IF({s}="","",", "&{s})' for s in slots[1:])
        count = f"COUNTIFS({c.span('target')},{name},{c.span('active')},TRUE)"
        shown = "+".join(f'({s}<>"")' for s in slots)  # no number typed into the formula
        more = f'IF({count}>{shown},", and "&({count}-({shown}))&" more","")'
        return f'IF({name}="","",{joined}&{more})'

    def roster_extra(self, row: int) -> dict[str, str]:
        if self.rules.id != "spelljammer":
            return {}
        r, log = self.roster, self.log
        at = lambda key: r.at(key, row)  # noqa: E731
        derived: dict[int, RowCell] = {}
        wound = self.derived_formula(
            "TARGET_WOUND_MOD",
            {"TARGET_HP": at("hp_now"), "TARGET_START_HP": at("start")},
            r,
            row,
            "rw_",
            derived,
        )
        self.write_row_cells(row, derived)
        stunned = f"COUNTIFS({log.ref('who_target')},{at('name')},{log.ref('round_now')},ENC_ROUND_NOW,{log.ref('shown_TARGET_STUNNED')},TRUE)>0"
        wear = f'SUMIFS({log.ref("wear")},{log.ref("who_target")},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
        prot = f'IF({at("use_s_prot")}="",0,{at("use_s_prot")})'
        return {
            "wound_mod": f'IF({at("name")}="","",{wound})',
            "stunned": f'IF({at("name")}="","",{stunned})',
            "prot_now": f'IF({at("name")}="","",MAX(0,{prot}-{wear}))',
        }

    def finish_roster(self) -> None:
        r = self.roster
        for row in r.rows_range():
            for key, formula in self.roster_formulas(row).items():
                cell = put_formula(self.sheet.cell(row, r.index[key]), formula)
                if key not in HIDDEN_ROSTER and not key.startswith(("bleed_", "use_")):
                    mark_output(cell)
                if key in ("together", "down", "stunned"):
                    cell.number_format = TRUE_ONLY
                if key in ("state", "conditions", "note"):  # a long text shrinks rather than being cut
                    cell.alignment = SHRINK

    # ---- derived calculator outputs on a row of any block

    def derived_formula(
        self,
        output: str,
        wiring: Mapping[str, str],
        block: Columns,
        row: int,
        prefix: str,
        cells: dict[int, RowCell],
    ) -> str:
        """``output`` of the calculator worked out on this row with these inputs (its working cells
        become hidden columns named prefix + name, added to ``cells``); the expression of its value."""
        order, used = self.calculator.shared_closure([output])
        replace = {
            name: f"({wiring[name]})" if name in wiring else literal(self.calculator.inputs[name])
            for name in used
        }
        for name in order:
            key = prefix + name
            if key not in block.index:
                block.add(key, name)
            replace[name] = block.at(key, row)
        for name in order:
            formula = substitute(self.calculator.formulas[name], replace)
            cells[block.index[prefix + name]] = RowCell(formula, self.calculator.formats[name])
        return replace[output]

    # ---- conditions

    def write_conditions(self) -> None:
        c = self.conditions
        put_formula(
            self.sheet.cell(c.top - 1, 1),
            q("Conditions (type the round it starts and how many rounds it lasts)"),
        ).font = SUBTITLE
        for key, label, defined in (
            ("target", "Combatant", "COND_TARGET"),
            ("name", "Condition", "COND_NAME"),
            ("start", "Starts in round", "COND_START"),
            ("rounds", "Lasts (rounds; empty: as the table says, else until cleared)", "COND_ROUNDS"),
        ):
            c.add(key, label)
            self.name(c, key, defined)
            for row in c.rows_range():
                mark_input(put(self.sheet.cell(row, c.index[key]), None))
        for key, label, defined in (
            ("ends", "Last round", "COND_LAST_ROUND"),
            ("active", "Active now", "COND_ACTIVE"),
            ("effect", "Effect", "COND_EFFECT"),
        ):
            c.add(key, label)
            self.name(c, key, defined)
        self.head(c)
        working(c)
        c.add("text", "Shown on the roster")
        c.add("key", "Slot on the roster")
        add_list(self.sheet, c.span("target").replace("$", ""), "=ROSTER_NAME")
        if self.block.conditions:
            add_list(  # a condition of the GM's own is kept (no effect, lasts until cleared)
                self.sheet,
                c.span("name").replace("$", ""),
                "=" + table_name(self.block.conditions, "label"),
                strict=False,
            )
        for key in ("start", "rounds"):
            add_number_check(self.sheet, c.span(key).replace("$", ""), 1)
        for row in c.rows_range():
            at = lambda key, row=row: c.at(key, row)  # noqa: E731
            blank = f'OR({at("target")}="",{at("name")}="",{at("start")}="")'
            rounds = at("rounds")
            if self.block.conditions:  # empty: the table's fixed rounds, if it gives them
                listed = by_label(self.block.conditions, "rounds", at("name"))
                rounds = f'IF(ISNUMBER({rounds}),{rounds},IFERROR(IF({listed}="","",{listed}),""))'
            formulas = {
                "ends": f'IF(OR({blank},{rounds}=""),"",{at("start")}+{rounds}-1)',
                "active": f'IF({blank},"",AND({at("start")}<=ENC_ROUND_NOW,OR({at("ends")}="",ENC_ROUND_NOW<={at("ends")})))',
                "effect": f'IFERROR({by_label(self.block.conditions, "effect", at("name"))},"")'
                if self.block.conditions
                else '""',
                "text": f'IF({at("ends")}="",{at("name")},{at("name")}&" (to round "&{at("ends")}&")")',
                "key": f'IF({at("active")}=TRUE,{at("target")}&"#"&COUNTIFS({c.span("target", row)},{at("target")},{c.span("active", row)},TRUE),"")',
            }
            for key, formula in formulas.items():
                cell = put_formula(self.sheet.cell(row, c.index[key]), formula)
                if key in ("ends", "active", "effect"):
                    mark_output(cell)
                if key == "active":
                    cell.number_format = BOOLEAN_FORMAT

    # ---- attack log

    @property
    def target_keys(self) -> list[str]:
        return ["target", *(f"also{k}" for k in range(1, ALSO_HITS + 1))]

    def line_key(self, key: str) -> str:
        """The log column of the roster line a row's attacker or target key names ("" when none): the
        sums over the rows above compare these numbers, not the names (far fewer comparisons of text
        per keystroke)."""
        return {"attacker": "arow", "target": "trow"}.get(key, f"line_{key}")

    def over_targets(self, term: Callable[[str], str]) -> str:
        """``term`` of each target key joined by "+"; an Also hits key's only where some log row names
        one (a damage roll typed then re-sums the Target column alone, not three empty ones)."""
        return "+".join(
            term(key) if key == "target" else f"IF({also_used(key)},{term(key)},0)"
            for key in self.target_keys
        )

    def write_log(self) -> None:
        log, ruleset, sheet = self.log, self.ruleset, self.log_sheet
        put_formula(sheet.cell(log.top - 1, 1), q(LOG_TITLE)).font = NOTE  # a formula: no AutoInput from it
        # an ordinary attack is typed from Attacker to the damage roll, Tab between: Enter then goes to
        # the next row's Attacker (the round is typed on a round's first row only, after the modifier)
        inputs = [("attacker", "Attacker", "LOG_ATTACKER"), ("target", "Target", "LOG_TARGET")]
        rolls = [roll for roll in ruleset.rolls if roll.calculator_name in self.used]
        inputs += [(roll.field, log_roll_label(roll), f"LOG_{roll.field.upper()}") for roll in rolls]
        inputs += [
            ("mods", "Mod", "LOG_MODS"),
            ("round", "New round", "LOG_ROUND"),
            ("void", "Void: x", "LOG_VOID"),
        ]
        # the outcome right after what an ordinary attack types; the inputs of fewer rows after it
        shown = [("result", "Result", "LOG_RESULT"), ("hp_lost", "HP lost", "LOG_HP_LOST")]
        shown += [(f"shown_{n}", label, f"LOG_{label.upper()}") for n, label in ruleset.shown]
        shown.append(("target_hp", "Target HP after", "LOG_TARGET_HP_AFTER"))
        shown.append(("check", "Check (empty: all is well)", "LOG_CHECK"))
        shown.append(("summary", "In one line", "LOG_SUMMARY"))
        picks = [(t, self.pick_input(t)) for t in self.block.log_picks]
        listed = [(f"pick_{t}", pick_label(self.rules.table(t).title), f"LOG_{t.upper()}") for t, _ in picks]
        flat = ("damage", "Dmg, no roll", "LOG_FLAT_DAMAGE")
        named = named_picks(self.rules)
        by_name = [("named_picks", "Picks by name", "LOG_PICKS")] if named else []
        more = [*listed, *by_name]
        more += [(f"also{k}", f"Also hits {k}", f"LOG_ALSO_HITS_{k}") for k in range(1, ALSO_HITS + 1)]
        more.append(flat)
        if self.block.damage_kinds:  # empty: normal damage; subdual (temporary) or heal by label or letter
            more.append(("kind", "Kind", "LOG_KIND"))
        for key, label, defined in [*inputs, *shown, *more]:
            log.add(key, label)
            self.name(log, key, defined)
        for key, _, _ in [*inputs, *more]:
            first = put(sheet.cell(log.top + 1, log.index[key]), None)
            mark_input(first)
            for row in log.rows_range()[1:]:
                styled_like(first, row, log.index[key])
        for key in ("attacker", *self.target_keys):
            add_list(sheet, log.span(key).replace("$", ""), "=LOG_WHO_LIST")
        for table_id, _ in picks:
            add_list(
                sheet, log.span(f"pick_{table_id}").replace("$", ""), "=" + table_name(table_id, "label")
            )
        for roll in rolls:
            add_roll_check(sheet, log.span(roll.field).replace("$", ""), log_roll(self.rules, roll))
        if named:
            add_picks_note(sheet, log, named)
        add_number_check(sheet, log.span("round").replace("$", ""), 1)
        add_number_check(sheet, log.span("mods").replace("$", ""), None)
        add_number_check(sheet, log.span("damage").replace("$", ""), 0)
        add_void_check(sheet, log.span("void").replace("$", ""))
        self.head(log)
        sheet.row_dimensions[log.top].height = LOG_HEADER_HEIGHT
        for table_id, _ in picks:  # a narrow list column: its title's first word, the whole in a comment
            table = self.rules.table(table_id)
            title = put_formula(
                sheet.cell(log.top, log.index[f"pick_{table_id}"]), q(log.labels[f"pick_{table_id}"])
            )
            listed = ", ".join(str(row.label) for row in table.rows)
            title.comment = Comment(f"{short_title(table.title)}: {listed}", "GM combat")
            title.comment.width, title.comment.height = 300, 120
        strike_out_void(sheet, log)
        working(log)
        for key in ("attacker", *self.target_keys):
            log.add(f"who_{key}", f"who_{key}")
        self.name(log, "who_attacker", "LOG_ATTACKER_NAME")  # the roster's name, typed or short
        self.name(log, "who_target", "LOG_TARGET_NAME")
        for k in range(1, ALSO_HITS + 1):
            self.name(log, f"who_also{k}", f"LOG_ALSO_NAME_{k}")
        log.add("actor", "actor")  # the attacker's roster line, on a row not voided
        log.add("who_list", "who_list")  # the names, then the short names: the attacker's and targets' list
        define_name(
            self.book,
            "LOG_WHO_LIST",
            absolute(
                sheet,
                f"{log.letter('who_list')}{log.top + 1}",
                f"{log.letter('who_list')}{log.top + 2 * ROSTER_SIZE}",
            ),
        )
        for key in (
            "round_now",
            *(("picks_read", "picks_bad") if named else ()),
            "arow",
            "trow",
            *(self.line_key(key) for key in self.target_keys[1:]),
            "attacker_hp",
            "target_hp_before",
            # before the calculator's inputs: the row's one line reads it (ATTACK_TARGET_SUBDUAL)
            *(("sub_before",) if self.block.damage_kinds else ()),
            "hp_round_start",
            *(("stunned_before",) if self.block.stun_loses_attacks else ()),
            *(("attack_no",) if self.counts_attacks else ()),
            "prot_wear",
            "wear",
            "filled",
            "row_no",  # the acting-order hint (pycalc.encounter.order_hints): the row's number in the log,
            "first_now",  # the attacker's first row of the round now,
            "aorder",  # and the attacker's place in the acting order (0: none)
        ):
            log.add(key, key)
        self.name(log, "filled", "LOG_FILLED_COUNT")
        for key in self.target_keys[1:]:  # one cell each (the log's title row): is the column used
            log.add(f"used_{key}", f"used_{key}")
            used = put_formula(
                sheet.cell(log.top, log.index[f"used_{key}"]), f'COUNTIF({log.span(key)},"?*")>0'
            )
            used.number_format = BOOLEAN_FORMAT
            define_name(self.book, also_used(key), absolute(sheet, used.coordinate))
        wired = {}
        for name in sorted(self.used):
            template = ruleset.wiring.get(name)
            if template is None:
                pick = next((t for t, n in picks if n == name), None)
                wired[name] = ("pick", pick) if pick else self.named_wiring(name, named)
            elif re.fullmatch(r"\{log\.(\w+)\}", template) and template[5:-1] in log.index:
                wired[name] = ("cell", template[5:-1])
            else:
                wired[name] = ("column", template)
            if wired[name][0] in ("column", "pick", "named"):
                # every row input before the workings that read it: LibreOffice's threaded calculation
                # could read a later column of the same row before working it out (an #N/A kept)
                log.add(f"in_{name}", name)
        # the kind's workings read the picks' inputs, the check reads the kind: each after what it reads
        # (LibreOffice's threaded calculation kept an error where a working read a later column)
        for key in self.kind_keys():
            log.add(key, key)
        if self.block.hit_points.loss:  # each target's HP after its round (bleeding counts from it)
            log.add("lethal", "lethal")  # the HP lost to normal damage (subdual damage does not bleed)
            for key in self.target_keys:
                log.add(f"hp_{key}", key)
        if self.block.spell_lost_on_hit:
            log.add("spell_hit", "spell_hit")  # the target's roster line when the row breaks its spell
        log.add("check_parts", "check_parts")
        self.check_named(wired, named)
        self.plan = self.row_formulas(wired)
        for name, planned in self.plan.items():
            if planned.kind != LITERAL:
                log.add(f"w_{name}", name)
        self.name(log, "round_now", "LOG_ROUND_NOW")
        parts = [f"w_{name}" for name in self.plan if name.startswith((ONCE_PREFIX, ROW_PREFIX))]
        if parts:  # the parts the rows share (hidden): some read as an error where no row uses them
            first, last = (log.letter(parts[0]), log.letter(parts[-1]))
            define_name(
                self.book,
                "LOG_SHARED_PARTS",
                absolute(self.log_sheet, f"{first}{log.top}", f"{last}{log.top + log.rows}"),
            )
        for name, planned in self.plan.items():
            if planned.kind == ONCE:
                cell = put_formula(
                    self.log_sheet.cell(log.top, log.index[f"w_{name}"]), self.once(planned.template)
                )
                cell.number_format = self.part_format(name)
        self.write_log_rows(wired)
        self.write_who_list()

    def write_who_list(self) -> None:
        """The attacker's and targets' list: the roster's names, then their short names, each list
        from its top (the roster's lines without a name left out)."""
        log, r = self.log, self.roster
        column, count = log.index["who_list"], f'COUNTIF({r.ref("name")},"?*")'
        letter = get_column_letter(column)
        for first in (log.top + 1, log.top + ROSTER_SIZE + 1):  # the names, then the short names
            for row in range(first, first + ROSTER_SIZE):
                k = f"(ROW()-ROW(${letter}${first - 1}))"  # the place in the list, by its row
                line = f"MATCH({k},{r.ref('named_no')},0)"
                name = f"INDEX({r.ref('name' if first == log.top + 1 else 'short')},{line})"
                put_formula(self.log_sheet.cell(row, column), f'IF({k}>{count},"",IF({name}="","",{name}))')

    def row_formulas(self, wired: Mapping[str, tuple[str, Any]]) -> dict[str, RowFormula]:
        """How the log rows carry each working name and the parts they share (``log_rows.plan_rows``),
        for this file, laid out alike in both."""
        blankable = {name for name, (how, _) in wired.items() if how == "cell"}
        cells = self.cells = table_cells(self.rules, self.book, blankable)
        if self.calculator.log_plan is not None:
            return self.calculator.log_plan
        both = [self.calculator, *([self.calculator.other] if self.calculator.other else [])]
        varying = {name for name, (how, _) in wired.items() if how != "default"}
        defaults = [
            {n: literal(c.inputs.get(n, self.calculator.inputs[n])) for n in self.used - varying}
            for c in both
        ]
        native = 0 if self.calculator.native else 1
        plans = plan_rows(self.working, [c.formulas for c in both], defaults, varying, native, cells)
        self.other_plan = plans[1] if len(plans) > 1 else None
        return plans[0]

    def part_format(self, name: str) -> str:
        """A working name's number format; a part taken out of the rows is TRUE/FALSE when it gives it."""
        if name in self.calculator.formats:
            return self.calculator.formats[name]
        return BOOLEAN_FORMAT if gives_boolean(self.plan[name].template, self.cells.booleans) else "General"

    def once(self, template: str) -> str:
        """A formula worked out once for every row: the names worked out once read their cells."""
        return substitute(
            template, {n: self.row_value(n, self.log.top) for n in names_in(template) if n in self.plan}
        )

    def row_value(self, name: str, row: int) -> str:
        """A working name's value on a log row: its literal, its one cell, or the row's cell."""
        planned = self.plan[name]
        if planned.kind == LITERAL:
            return planned.template
        if planned.kind == ONCE:
            return f"${self.log.letter(f'w_{name}')}${self.log.top}"
        return self.log.at(f"w_{name}", row)

    def pick_input(self, table_id: str) -> str:
        """The calculator input that picks from ``table_id`` (its formulas MATCH it in the labels)."""
        labels = table_name(table_id, "label")
        for name in self.used:
            if any(f"MATCH({name},{labels}" in self.calculator.formulas[w] for w in self.working):
                return name
        raise ValueError(f"{self.rules.id}: encounter.log_picks {table_id!r} is not picked in the calculator")

    def named_wiring(self, name: str, named: list[Pick]) -> tuple[str, Any]:
        """A calculator input the Picks cell sets: ("named", its picks) (a choice table's rows, or one
        toggle's), else ("default", None)."""
        for pick in named:
            if pick.toggle and name.endswith(f"_{name_part(pick.table_id)}_{name_part(pick.row_id)}"):
                return ("named", [pick])
        for table_id in dict.fromkeys(p.table_id for p in named if not p.toggle):
            if self.pick_input(table_id) == name:
                return ("named", [p for p in named if p.table_id == table_id])
        return ("default", None)

    def check_named(self, wired: Mapping[str, tuple[str, Any]], named: list[Pick]) -> None:
        """Every pick of the calculator that the log's outcome reads is a column or typed by name;
        every table typed by name feeds the calculator, and no table is both a column and typed."""
        pickers = [t for t in self.rules.tables.values() if t.picker]
        for name, (how, _) in wired.items():
            table = next((t for t in pickers if self.picks_from(name, t)), None)
            if how == "default" and table is not None:
                raise ValueError(
                    f"{self.rules.id}: the calculator's pick {table.id!r} is not reachable from a log row:"
                    " add it to encounter.log_picks or encounter.log_picks_by_name"
                )
        fed = {p.table_id for how, picks in wired.values() if how == "named" for p in picks}
        for table_id in dict.fromkeys(p.table_id for p in named):
            if table_id not in fed or table_id in self.block.log_picks:
                raise ValueError(
                    f"{self.rules.id}: encounter.log_picks_by_name {table_id!r} is not a calculator pick"
                    " of the log's outcome, or is in log_picks too"
                )

    def picks_from(self, name: str, table: Table) -> bool:
        """The calculator input ``name`` is the dropdown of ``table`` (a choice table) or one of its
        boxes (a toggle table)."""
        if table.picker == "toggle":
            return any(name.endswith(f"_{name_part(table.id)}_{name_part(str(r.id))}") for r in table.rows)
        labels = table_name(table.id, "label")
        return any(f"MATCH({name},{labels}" in self.calculator.formulas[w] for w in self.working)

    def stat(self, who: str, stat_id: str, row: int) -> str:
        r, log = self.roster, self.log
        index = log.at("arow" if who == "attacker" else "trow", row)
        if stat_id == "start_hp":
            return f"IF(ISNUMBER({index}),INDEX({r.ref('start')},{index}),0)"
        dice = any(s.id == stat_id and s.kind == "dice" for s in self.ruleset.stats)
        key = {"dex": "dexv", "max_hp": "use_max_hp"}.get(
            stat_id, f"s_{stat_id}" if dice else f"use_s_{stat_id}"
        )
        default = literal(next((s.default for s in self.ruleset.stats if s.id == stat_id), 0))
        value = f"INDEX({r.ref(key)},{index})"
        if key != "dexv":
            value = f'IF({value}="",{default},{value})'
        return f"IF(ISNUMBER({index}),{value},{default})"  # an empty row: the defaults

    def fill(self, template: str, row: int, derived: dict[int, RowCell]) -> str:
        """A wiring template on a log row; the working cells of a derived output go to ``derived``."""
        log = self.log

        def one(match: re.Match[str]) -> str:
            what = match.group(1)
            if what.startswith(("attacker.", "target.")):
                who, stat_id = what.split(".")
                return self.stat(who, stat_id, row)
            if what.startswith("log."):
                return log.at(what[4:], row)
            if what.startswith("derived."):
                output, wiring = self.ruleset.derived[what[8:]]
                filled = {name: self.fill(t, row, derived) for name, t in wiring.items()}
                return self.derived_formula(output, filled, log, row, what[8:] + "_", derived)
            return log.at(what, row)

        return re.sub(r"\{([\w.]+)\}", one, template)

    def log_row_cells(self, row: int, wired: Mapping[str, tuple[str, Any]]) -> dict[int, RowCell]:
        """The formula cells of a log row by column, in the order they are written (a derived
        output's working cells first)."""
        log, r = self.log, self.roster
        at = lambda key: log.at(key, row)  # noqa: E731
        first = row == log.top + 1
        above = lambda key: f"{log.span(key, row - 1)}"  # noqa: E731
        roster_names = r.ref("name")
        cells: dict[str, str] = {
            f"who_{key}": (
                f'IF({at(key)}="","",IFERROR(INDEX({roster_names},MATCH({at(key)},{roster_names},0)),'
                f"IFERROR(INDEX({roster_names},MATCH({at(key)},{r.ref('short')},0)),{at(key)})))"
            )
            for key in ("attacker", *self.target_keys)
        }
        cells |= {
            "round_now": f"IF(ISNUMBER({at('round')}),{at('round')},{1 if first else log.at('round_now', row - 1)})",
            "arow": f'IF({at("who_attacker")}="","",MATCH({at("who_attacker")},{roster_names},0))',
            "trow": f'IF({at("who_target")}="","",MATCH({at("who_target")},{roster_names},0))',
        }
        cells["actor"] = f'IF(AND({at("void")}="",ISNUMBER({at("arow")})),{at("arow")},"")'
        for key in self.target_keys[1:]:
            who = at(f"who_{key}")
            cells[self.line_key(key)] = f'IF({who}="","",MATCH({who},{roster_names},0))'

        if self.block.hit_points.loss:
            for key in self.target_keys:
                line = at(self.line_key(key))  # its roster line (the sums compare line numbers, not names)
                taken = self.over_targets(
                    lambda other, line=line: (
                        f'SUMIFS({log.span("lethal")},{log.span(self.line_key(other))},{line},{log.span("round_now")},"<="&{at("round_now")})'
                    )
                )
                start = f"INDEX({r.ref('start')},{line})"
                # only the roster's line of a combatant bleeding now reads it (its bleed_since): the
                # sums over the whole log are skipped for every other target, as a keystroke waits on them
                loss = f"INDEX({r.ref('bleed_loss')},{line})"
                bleeds = f"IFERROR(AND(ISNUMBER({loss}),{loss}>0),FALSE)"
                cells[f"hp_{key}"] = (
                    f"IF(NOT(ISNUMBER({line})),0,IF({bleeds},IFERROR({start}-({taken}),0),0))"
                )
        filled = f'IF({at("attacker")}&{at("target")}="",0,1)'
        cells["filled"] = filled if first else f"{log.at('filled', row - 1)}+{filled}"
        cells["row_no"] = f"ROW()-ROW(${log.letter('attacker')}${log.top})"
        now_row = f"AND(ISNUMBER({at('actor')}),{at('round_now')}=ENC_ROUND_NOW)"
        if first:
            cells["first_now"] = now_row
        else:
            earlier = f"COUNTIFS({above('actor')},{at('actor')},{above('round_now')},ENC_ROUND_NOW)"
            cells["first_now"] = f"IF({now_row},{earlier}=0,FALSE)"
        cells["aorder"] = f"IF(ISNUMBER({at('actor')}),N(INDEX({r.ref('order')},{at('actor')})),0)"
        cells["attacker_hp"] = (
            f"IF(ISNUMBER({at('arow')}),{self.stat('attacker', 'start_hp', row)}-({self.taken_above(row, at('arow'))}),0)"
        )
        cells["target_hp_before"] = (
            f"IF(ISNUMBER({at('trow')}),{self.stat('target', 'start_hp', row)}-({self.taken_above(row, at('trow'))}),0)"
        )
        worn = "STRIKE_PROT" in self.ruleset.wiring  # no PROT to wear: no sum over the rows above
        cells["prot_wear"] = (
            "0" if first or not worn else f"SUMIFS({above('wear')},{above('trow')},{at('trow')})"
        )
        replace: dict[str, str] = {}
        derived: dict[int, RowCell] = {}
        found: list[str] = []  # one term per input the Picks cell sets: 1 where it picks
        if "picks_read" in log.index:
            cells["picks_read"] = read_picks_formula(at("named_picks"))
        for name, (how, what) in wired.items():
            if how == "cell":
                replace[name] = at(what)
            elif how == "column":  # a row without both names takes the calculator's default
                both = f"AND(ISNUMBER({at('arow')}),ISNUMBER({at('trow')}))"
                default = self.calculator.inputs[name]
                default = literal(
                    0 if isinstance(default, (int, float)) and not isinstance(default, bool) else default
                )
                cells[f"in_{name}"] = f"IF({both},{self.fill(what, row, derived)},{default})"
                replace[name] = at(f"in_{name}")
            elif how == "pick":
                label = at(f"pick_{what}")
                default = q(str(self.rules.table(what).rows[0].label))
                cells[f"in_{name}"] = f'IF({label}="",{default},{label})'
                replace[name] = at(f"in_{name}")
            elif how == "named":
                cells[f"in_{name}"] = named_formula(at("picks_read"), what, self.calculator.inputs[name])
                replace[name] = at(f"in_{name}")
                default = literal(self.calculator.inputs[name])
                found.append(
                    f"N({at(f'in_{name}')})" if what[0].toggle else f"({at(f'in_{name}')}<>{default})"
                )
            else:
                replace[name] = literal(self.calculator.inputs[name])
        if "picks_bad" in log.index:
            read = at("picks_read")
            typed = f'LEN({read})-LEN(SUBSTITUTE({read},{q(SEPARATOR)},""))-1'
            cells["picks_bad"] = f"{typed}<>{'+'.join(found) or '0'}"
        for name in self.plan:
            replace[name] = self.row_value(name, row)
        for name, planned in self.plan.items():
            if planned.kind == ROW:
                cells[f"w_{name}"] = substitute(planned.template, replace)
        ruleset = self.ruleset
        result, lost = replace[ruleset.result], replace[ruleset.hp_lost]
        names = f'{at("attacker")}&{at("target")}=""'
        flat = f"ISNUMBER({at('damage')})"  # damage with no attack roll: the row is not resolved
        # a hit whose damage cannot be worked out (dice "1d8+") says why, not "Hit" and 0 HP lost
        said = f'IF(AND(IFERROR(LEFT({lost},1)="#",FALSE),LEFT({result},1)<>"#"),{lost},{result})'
        bad = "FALSE"  # a row not resolved: a Picks cell it cannot read, or a stun took the attack
        if "picks_bad" in log.index:
            said, bad = f"IF({at('picks_bad')},{q(PICKS_UNKNOWN)},{said})", at("picks_bad")
        if "stunned_before" in log.index:
            stunned = at("stunned_before")
            said, bad = f"IF({stunned},{q(LOST_STUNNED)},{said})", f"OR({stunned},{bad})"
        attacker_ok = f'OR(ISNUMBER({at("arow")}),AND({flat},{at("attacker")}=""))'
        void = f'{at("void")}<>""'
        flat_said, flat_lost = q(DAMAGE), at("damage")
        if self.block.damage_kinds:  # a Kind no row names; a heal row (Dmg, no roll: the HP given back)
            also_typed = "OR(" + ",".join(f'{at(f"also{k}")}<>""' for k in range(1, ALSO_HITS + 1)) + ")"
            heal_said = f"IF(NOT({flat}),{q(heal_needs_amount())},IF({also_typed},{q(heal_also_message())},{q(HEALED)}))"
            said = f"IF({at('kind_bad')},{q(bad_kind(self.rules))},IF({at('is_heal')},{heal_said},{said}))"
            flat_said = (
                f"IF({at('kind_bad')},{q(bad_kind(self.rules))},IF({at('is_heal')},{heal_said},{flat_said}))"
            )
            flat_lost = f"IF(OR({at('kind_bad')},{at('is_heal')}),0,{flat_lost})"  # a heal: hp_lost below
            bad = f"OR({at('kind_bad')},{at('is_heal')},{bad})"
        cells["result"] = (
            f'IF({names},"",IF({void},{q(VOID)},IF(NOT({attacker_ok}),"#ATTACKER? a name on the roster",'
            f'IF(NOT(ISNUMBER({at("trow")})),"#TARGET? a name on the roster",IF({flat},{flat_said},{said})))))'
        )
        both = f'AND(ISNUMBER({at("arow")}),ISNUMBER({at("trow")}),{at("void")}="")'
        damage_key = "dmg" if self.block.damage_kinds else "hp_lost"
        cells[damage_key] = (
            f'IF({names},"",IF({void},0,IF(AND({flat},{attacker_ok},ISNUMBER({at("trow")})),{flat_lost},'
            f"IF(AND({both},NOT({flat}),NOT({bad})),IF(ISNUMBER({lost}),{lost},0),0))))"
        )
        if self.block.damage_kinds:
            # the damage (dmg) and a heal's hit points (heal_given) never read hp_lost nor the HP worked
            # out from it: LibreOffice's threaded calculation left a row's target HP before it as an
            # error when hp_lost read it (a loop between the two columns' formula groups)
            heal_row = f"AND({flat},{attacker_ok},ISNUMBER({at('trow')}),NOT({also_typed}))"
            cells |= self.kind_cells(row, derived, heal_row)
            cells["hp_lost"] = f'IF({names},"",IF({at("heal_ok")},-{at("heal_given")},{at("dmg")}))'
        for name, _ in ruleset.shown:
            cells[f"shown_{name}"] = f'IF(AND({both},NOT({flat}),NOT({bad})),{replace[name]},"")'
        cells["summary"] = f'IF(AND({both},NOT({flat}),NOT({bad})),{replace[ruleset.summary]},"")'
        if "STRIKE_PROT" in ruleset.wiring:
            before, after = at("in_STRIKE_PROT"), replace["STRIKE_PROT_AFTER"]
            cells["wear"] = f"IF(AND({both},NOT({flat}),NOT({bad}),ISNUMBER({after})),{before}-{after},0)"
        else:
            cells["wear"] = "0"
        # the target's HP before the row less what the row took from it (as Target, and as Also hits
        # when named there too): no sum over the rows above again
        named = "+".join(f"({at('who_' + key)}={at('who_target')})" for key in self.target_keys)
        cells["target_hp"] = (
            f'IF(ISNUMBER({at("trow")}),{at("target_hp_before")}-N({at("hp_lost")})*({named}),"")'
        )
        cells |= self.check_cells(row, first)
        return {**derived, **{log.index[key]: self.log_cell(key, formula) for key, formula in cells.items()}}

    def taken_above(self, row: int, line: str, criteria: str = "", column: str = "hp_lost") -> str:
        """The hit points the log rows above ``row`` took from the roster line ``line`` as target or Also hits
        (SUMIFS with further ``criteria``, e.g. a round; ``column``: sub_lost for the subdual part);
        "0" on the first row."""
        if row == self.log.top + 1:
            return "0"
        above = lambda key: self.log.span(key, row - 1)  # noqa: E731
        more = f",{criteria}" if criteria else ""
        if column == "hp_lost" and self.block.damage_kinds:
            # hp_lost is dmg, or minus heal_given on a heal row (its Target only): summed from those two
            # columns, not from hp_lost. LibreOffice's threaded calculation left a target's HP before at
            # Err:522 (a circular reference that is none) where it summed hp_lost, in a file opened again
            dealt = self.taken_above(row, line, criteria, column="dmg")
            return f"{dealt}-SUMIFS({above('heal_given')},{above('trow')},{line}{more})"
        return self.over_targets(
            lambda key: f"SUMIFS({above(column)},{above(self.line_key(key))},{line}{more})"
        )

    # ---- damage kinds (pycalc.damage_kinds): the row's Kind, its subdual part, a heal's hit points

    def kind_keys(self) -> tuple[str, ...]:
        kinds = self.block.damage_kinds
        if kinds is None:
            return ()
        lethal = ("down_lethal",) if kinds.further_damage_lethal else ()
        return (
            "dmg", "is_sub", "is_heal", "kind_bad", "heal_ok", "heal_given",
            "sub_lost", *lethal,
        )  # fmt: skip

    def kind_cells(self, row: int, derived: dict[int, RowCell], heal_row: str) -> dict[str, str]:
        """The row's kind (by label or first letter, any case), the subdual part of its HP lost (the
        ruleset's split, none on a target already down where further damage kills), the hit points a
        heal row gives back (the caps read at the band of the target's HP without subdual damage)
        and the subdual damage it takes off first."""
        log, r, kinds = self.log, self.roster, self.block.damage_kinds
        assert kinds is not None
        at = lambda key: log.at(key, row)  # noqa: E731
        kind = at("kind")

        def typed(kind_id: str) -> str:
            return typed_kind(self.rules, kind, kind_id)

        trow = at("trow")
        picked = self.subdual_picked(row)
        cells = {
            "is_sub": typed(SUBDUAL)
            if picked == "FALSE"
            else f'OR({typed(SUBDUAL)},AND({kind}="",{picked}))',
            "is_heal": typed(HEAL),
            "kind_bad": f'AND({kind}<>"",NOT({at("is_sub")}),NOT({at("is_heal")}))',
            "sub_before": f"IF(ISNUMBER({trow}),{self.taken_above(row, trow, column='sub_lost')},0)",
            "heal_ok": f'AND({at("void")}="",{at("is_heal")},{heal_row})',
        }
        before = at("target_hp_before")  # normal and subdual damage less heals
        lethal_before = f"({before}+{at('sub_before')})"
        most = f"MAX(INDEX({r.ref('use_max_hp')},{trow}),INDEX({r.ref('start')},{trow}))"
        states = self.block.hit_points.table
        if kinds.heal_cap:
            cap = band(states, kinds.heal_cap, lethal_before)
            most = f"IF(ISNUMBER({cap}),MIN({most},{cap}),{most})"
        given = f"MAX(0,MIN({at('damage')},{most}-{before}))"
        if kinds.beyond_healing:
            given = f"IF(IFERROR({band(states, kinds.beyond_healing, lethal_before)}=TRUE,FALSE),0,{given})"
        cells["heal_given"] = f"IF({at('heal_ok')},{given},0)"
        hp = f"IF(ISNUMBER({at('dmg')}),{at('dmg')},0)"
        normal = "0"
        split = adapter(self.rules).subdual_normal_cells
        if split is not None:
            output, damage = split
            normal = self.derived_formula(output, {damage: f"MAX(0,{hp})"}, log, row, "sn_", derived)
        no_part = f"OR({hp}<=0,{before}<=0)" if kinds.further_damage_lethal else f"{hp}<=0"
        part = f"IF({no_part},0,{hp})" if normal == "0" else f"IF({no_part},0,{hp}-{normal})"
        cells["sub_lost"] = (
            f"IF({at('heal_ok')},-MIN({at('sub_before')},{at('heal_given')}),IF({at('is_sub')},{part},0))"
        )
        if kinds.further_damage_lethal:
            lethal = f"{hp}-{at('sub_lost')}"
            cells["down_lethal"] = f"IF(AND(NOT({at('heal_ok')}),{before}<=0,{lethal}>0),{lethal},0)"
        if self.block.hit_points.loss:
            cells["lethal"] = f"IF(ISNUMBER({at('hp_lost')}),{at('hp_lost')},0)-{at('sub_lost')}"
        return cells

    def subdual_picked(self, row: int) -> str:
        """TRUE where a pick of the row deals subdual damage, as the row's calculator inputs hold the
        picks (and its Picks cell reads)."""
        log = self.log
        if SUBDUAL not in labels(self.rules):
            return "FALSE"

        def logged(name: str | None) -> str | None:
            return log.at(f"in_{name}", row) if name is not None and f"in_{name}" in log.index else None

        def toggle_cell(table_id: str, row_id: str) -> str | None:
            end = f"_{name_part(table_id)}_{name_part(row_id)}"
            return logged(next((n for n in self.used if n.endswith(end)), None))

        found = subdual_picked(self.rules, toggle_cell, lambda table_id: logged(self.pick_input(table_id)))
        if found == "FALSE":
            return found
        readable = f"NOT({log.at('picks_bad', row)})" if "picks_bad" in log.index else "TRUE"
        return f"AND({readable},{found})"

    def check_cells(self, row: int, first: bool) -> dict[str, str]:
        """The row's check (``pycalc.encounter.row_checks``): the round ahead of Round now, an attacker
        down (or stunned) before it acts, a target already down; the parts joined by CHECK_SEPARATOR."""
        log, r = self.log, self.roster
        at = lambda key: log.at(key, row)  # noqa: E731
        above = lambda key: f"{log.span(key, row - 1)}"  # noqa: E731
        cells: dict[str, str] = {}
        this_round = at("round_now")
        start = self.stat("attacker", "start_hp", row)
        earlier = self.taken_above(row, at("arow"), f'{above("round_now")},"<"&{this_round}')
        # read only where the attacker is down (the check's "went down this round"): the sums over the
        # rows above are skipped on every other row, as a keystroke waits on them
        down_now = f"AND(ISNUMBER({at('arow')}),{at('attacker_hp')}<=0)"
        cells["hp_round_start"] = f"IF({down_now},{start}-({earlier}),0)"
        if self.block.stun_loses_attacks:
            cells["stunned_before"] = (
                "FALSE"
                if first
                else f"IF(ISNUMBER({at('arow')}),COUNTIFS({above('trow')},{at('arow')},{above('round_now')},"
                f"{this_round},{above('shown_TARGET_STUNNED')},TRUE)>0,FALSE)"
            )
        sep = q(CHECK_SEPARATOR)
        attacker = f"INDEX({r.ref('name')},{at('arow')})"
        target = f"INDEX({r.ref('name')},{at('trow')})"
        hp = at("attacker_hp")
        down = (
            f'IF({at("hp_round_start")}>0,{attacker}&" went down this round: the attack stands only if "&'
            f'{attacker}&" acts together with whoever downed it",{attacker}&" is at "&{hp}&" HP: it cannot act")'
        )
        attacker_part = f'IF({hp}<=0,{down}&{sep},"")'
        if self.block.stun_loses_attacks:
            lost = f'{attacker}&" was stunned earlier this round: its remaining attacks are lost"&{sep}'
            attacker_part = f"IF({at('stunned_before')},{lost},{attacker_part})"
        rule = self.block.initiative
        # the attacker's rows this round, this one too
        counted = f"COUNTIFS({log.span('actor', row)},{at('arow')},{log.span('round_now', row)},{this_round})"
        if rule.later_dice or self.block.spell_lost_on_hit:
            cells["attack_no"] = counted
        elif self.block.attacks_each_round:  # counted only for an attacker with a number to check
            number = f"INDEX({r.ref('attacks')},{at('actor')})"
            cells["attack_no"] = f'IF(ISNUMBER({at("actor")}),IF(ISNUMBER({number}),{counted},""),"")'
        if rule.later_dice:  # pycalc.encounter.attacks_check
            allowed, made = f"INDEX({r.ref('attacks')},{at('arow')})", at("attack_no")
            attacker_part += (
                f'&IF(AND(ISNUMBER({allowed}),{made}>{allowed}),{attacker}&" makes attack "&{made}&'
                f'" this round: its initiative rolls give it "&{allowed}&{sep},"")'
            )
        if self.block.attacks_each_round:  # pycalc.encounter.each_round_check
            allowed, made = f"INDEX({r.ref('attacks')},{at('arow')})", at("attack_no")
            attacker_part += (
                f'&IF(AND(ISNUMBER({made}),ISNUMBER({allowed}),{made}>{allowed}),{attacker}&" makes attack "&'
                f'{made}&" this round: it has "&{allowed}&IF({allowed}=1," attack"," attacks")&" each round"&{sep},"")'
            )
        target_part = f'IF({at("target_hp_before")}<=0,{target}&" is already at "&{at("target_hp_before")}&" HP"&{sep},"")'
        resolved = f"AND(ISNUMBER({at('arow')}),ISNUMBER({at('trow')}),NOT(ISNUMBER({at('damage')})))"
        if self.block.damage_kinds:  # a row with a Kind no row names, or a heal, is not resolved
            resolved = f"AND({resolved},NOT({at('kind_bad')}),NOT({at('is_heal')}))"
        filled = f'{at("attacker")}&{at("target")}<>""'
        ahead = f'IF(AND({filled},{this_round}>ENC_ROUND_NOW),"round "&{this_round}&" is after Round now ("&ENC_ROUND_NOW&")"&{sep},"")'
        spell = self.block.spell_when_attacked
        if spell is not None:  # pycalc.encounter.spell_attacked
            first = lambda index: f"INDEX({r.ref('init')},{index})"  # noqa: E731
            mine, theirs = first(at("arow")), first(at("trow"))
            casting = (
                f"AND({this_round}=ENC_ROUND_NOW,INDEX({r.ref('cast_round')},{at('trow')})={this_round})"
            )
            hit = f",N({at('hp_lost')})>0" if spell.hit_needed else ""
            said = (
                f"INDEX({table_name(spell.table, spell.says)},"
                f"MATCH(({mine}>{theirs})-({mine}<{theirs}),{table_name(spell.table, spell.order)},0))"
            )
            numbers = f"ISNUMBER({mine}),ISNUMBER({theirs})"
            target_part += f'&IF(AND({casting}{hit},{numbers}),IFERROR({target}&" "&{said}&{sep},""),"")'
        if self.block.spell_lost_on_hit:  # pycalc.encounter.spell_lost, spell_check
            cells["spell_hit"] = self.spell_hit(row)
            target_part += f'&IF(ISNUMBER({at("spell_hit")}),{target}&{q(SPELL_CHECK)}&{sep},"")'
        passed = f"MATCH({at('row_no')},{r.ref('passed_at')},0)"  # pycalc.encounter.order_hints
        hint = (
            f"IF(AND({at('round_now')}=ENC_ROUND_NOW,ISNUMBER({passed})),"
            f'INDEX({r.ref("name")},{passed})&{q(ORDER_HINT)}&{sep},"")'
        )
        cells["check_parts"] = (
            f'IF({at("void")}<>"","",{ahead}&IF({resolved},{attacker_part}&{target_part}&{hint},""))'
        )
        parts = at("check_parts")
        cells["check"] = f'IF({parts}="","",LEFT({parts},LEN({parts})-LEN({sep})))'
        return cells

    @property
    def counts_attacks(self) -> bool:
        """Whether a log row counts its attacker's rows this round (``attack_no``)."""
        block = self.block
        return bool(block.initiative.later_dice or block.spell_lost_on_hit or block.attacks_each_round)

    def initiative_keys(self) -> list[str]:
        """The roster's initiative columns: the first attack's, then each later attack's."""
        return ["init", *(f"later{k}" for k in range(1, 1 + len(self.block.initiative.later_dice)))]

    def spell_hit(self, row: int) -> str:
        """The target's roster line where the row hits it while it casts this round (its number at or
        below the target's initiative, above the number the spell goes off on), else empty."""
        log, r = self.log, self.roster
        assert self.block.spell_lost_on_hit is not None
        at = lambda key: log.at(key, row)  # noqa: E731
        table, column = self.block.spell_lost_on_hit
        keys = self.initiative_keys()
        numbers = ",".join(f"INDEX({r.ref(k)},{at('arow')})" for k in keys)
        number = f'IF({at("attack_no")}>{len(keys)},"",CHOOSE({at("attack_no")},{numbers}))'
        theirs, cast = f"INDEX({r.ref('init')},{at('trow')})", f"INDEX({r.ref('cast')},{at('trow')})"
        rank = f"INDEX({table_name(table, column)},MATCH({at('result')},{table_name(table, 'label')},0))"
        hit = f"IFERROR({rank}>0,FALSE)"
        return (
            f"IF(AND({at('round_now')}=ENC_ROUND_NOW,{hit},ISNUMBER({at('trow')}),ISNUMBER({number}),"
            f"ISNUMBER({theirs}),ISNUMBER({cast})),IF(AND({number}>{theirs}-{cast},{number}<={theirs}),"
            f'{at("trow")},""),"")'
        )

    def log_cell(self, key: str, formula: str) -> RowCell:
        shown = key.startswith("shown_")
        number_format = self.part_format(key[2:]) if key.startswith("w_") else TRUE_ONLY if shown else None
        if (number_format is None and gives_boolean(formula, self.cells.booleans)) or isinstance(
            self.calculator.inputs.get(key.removeprefix("in_")), bool
        ):
            number_format = BOOLEAN_FORMAT  # a TRUE/FALSE reads so in every office, not 1/0
        return RowCell(
            formula, number_format, shown or key in ("result", "hp_lost", "target_hp", "check", "summary")
        )

    def write_row_cells(self, row: int, cells: Mapping[int, RowCell], sheet: Worksheet | None = None) -> None:
        for column, made in cells.items():
            cell = put_formula((sheet or self.sheet).cell(row, column), made.formula)
            if made.output:
                mark_output(cell)
            if made.number_format is not None:
                cell.number_format = made.number_format

    def write_log_rows(self, wired: Mapping[str, tuple[str, Any]]) -> None:
        """The log's rows: the first (which reads no row above) and the second worked out, the rest
        copied from the second's formulas with the row numbers changed and its cells' styles."""
        top, last = self.log.top + 1, self.log.top + self.log.rows
        cells = lambda row: {  # noqa: E731
            column: replace(made, formula=kept_off_threads(made.formula))
            for column, made in self.log_row_cells(row, wired).items()
        }
        self.write_row_cells(top, cells(top), self.log_sheet)
        second = cells(top + 1)
        self.write_row_cells(top + 1, second, self.log_sheet)
        marked = cells(ROW_MARK)
        template = RowTemplate.of({column: formula_value(made.formula) for column, made in marked.items()})
        if template.formulas(top + 1) != {c: formula_value(made.formula) for c, made in second.items()}:
            raise AssertionError("the log's row template does not give its second row")
        self.row_template, self.templated_rows = template, range(top + 2, last + 1)
        if self.template_only:
            return
        styled = {column: cells_of(self.log_sheet)[(top + 1, column)] for column in second}
        for row in self.templated_rows:
            for column, value in template.formulas(row).items():
                cell = styled_like(styled[column], row, column)
                set_formula(cell, value)


def also_used(key: str) -> str:
    """The defined name of the cell saying whether any log row names an Also hits ``key``."""
    return f"LOG_{key.upper()}_USED"


def input_areas(block: Columns, keys: list[str]) -> list[str]:
    """The block's rows of ``keys``' columns as absolute ranges, one per run of adjacent columns."""
    columns = sorted(block.index[k] for k in keys)
    runs: list[list[int]] = []
    for column in columns:
        if runs and column == runs[-1][-1] + 1:
            runs[-1].append(column)
        else:
            runs.append([column])
    first, last = block.top + 1, block.top + block.rows
    return [
        absolute(block.sheet, f"{get_column_letter(run[0])}{first}", f"{get_column_letter(run[-1])}{last}")
        for run in runs
    ]


CONDITION_INPUTS = ["target", "name", "start", "rounds"]


def short_title(title: str) -> str:
    """A table's title on a log column: what comes before its parenthesis."""
    return title.split(" (")[0].strip()


def pick_label(title: str) -> str:
    """A pick's title on its narrow log column: the first word of its short title ("Cover" for
    "Cover and concealment"); its header's comment gives the whole."""
    return short_title(title).split()[0].rstrip(",:;-")


def log_roll_label(roll: LogRoll) -> str:
    """A log roll's short title: its own, or the d20 or d100, its second d20, the damage dice's roll."""
    return roll.short or {
        "roll": "d100" if roll.d100 else "d20",
        "follow_roll": "d20 #2",
        "damage_roll": "Dmg",
        "extra_roll": "Dmg #2",
    }.get(roll.field, roll.label)


def add_void_check(sheet: Worksheet, cells: str) -> None:
    """The Void cell takes one key (x)."""
    check = DataValidation(
        type="textLength", operator="equal", formula1="1", allow_blank=True, showErrorMessage=True,
        showInputMessage=True,
    )  # fmt: skip
    check.errorTitle, check.error = "Void: x", "Type x to void the row; Delete brings it back."
    check.promptTitle, check.prompt = "Void this attack", "x: the row counts for nothing (struck out)."
    sheet.add_data_validation(check)
    check.add(cells)


def strike_out_void(sheet: Worksheet, log: Columns) -> None:
    """A voided row is struck out, inputs and outcome."""
    first, last = log.top + 1, log.top + log.rows
    right = max(column for column in log.index.values() if column < WORKING_FROM)
    rule = FormulaRule(formula=[f'${log.letter("void")}{first}<>""'], font=Font(strike=True, color=VOID_INK))
    sheet.conditional_formatting.add(f"A{first}:{get_column_letter(right)}{last}", rule)


def read_picks_formula(cell: str) -> str:
    """The Picks cell as names are compared (``log_picks.normalized``), between commas, with empty
    pieces dropped (runs of up to 8 commas): ",charge,targetprone," ("," when empty)."""
    text = f"LOWER({cell})"
    for ignored in IGNORED:
        text = f'SUBSTITUTE({text},{q(ignored)},"")'
    text = f"{q(SEPARATOR)}&{text}&{q(SEPARATOR)}"
    for _ in range(3):
        text = f"SUBSTITUTE({text},{q(SEPARATOR * 2)},{q(SEPARATOR)})"
    return text


def named_formula(read: str, picks: list[Pick], default: Any) -> str:
    """A calculator input from the Picks cell read (``read_picks_formula``): a toggle's TRUE when its
    name is there; a choice table's row label, the first of its rows named, else the default."""

    def there(pick: Pick) -> str:
        return f"ISNUMBER(FIND({q(SEPARATOR + normalized(pick.name) + SEPARATOR)},{read}))"

    if picks[0].toggle:
        return there(picks[0])
    formula = literal(default)
    for pick in reversed(picks):
        formula = f"IF({there(pick)},{q(pick.label)},{formula})"
    return formula


def add_picks_note(sheet: Worksheet, log: Columns, named: list[Pick]) -> None:
    """The names the Picks cells take: in a note on the column's title, and as much of it as an input
    message holds (255 characters)."""
    listed = picks_list(named)
    title = sheet.cell(log.top, log.index["named_picks"])
    title.comment = Comment(f"Type several picks, separated by commas:\n{listed}", "GM combat")
    title.comment.width, title.comment.height = 360, 300
    check = DataValidation(type="textLength", operator="lessThanOrEqual", formula1="255", allow_blank=True)
    check.promptTitle = "Picks by name, with commas"
    prompt = f"e.g. {listed}"
    check.prompt = (
        prompt if len(prompt) <= 250 else prompt[: prompt.rfind(",", 0, 230)] + " ... (see the title's note)"
    )
    check.showInputMessage = True
    sheet.add_data_validation(check)
    check.add(log.span("named_picks").replace("$", ""))


MOST_TEXT_WIDTH = 32
LOG_WIDTHS = {  # the log's columns (Excel's character widths): narrow, their titles wrapped
    "attacker": 8.5,  # "Goblin 3" or a short name; the list shows the whole name
    "target": 8,
    "mods": 4.5,
    "round": 5.5,
    "void": 5,
    "result": 11,
    "hp_lost": 5,
    "target_hp": 6.5,
    "check": 16,
    "summary": 16,
    "named_picks": 7,
    "damage": 5,
}
LOG_ROLL_WIDTH = 4.5  # two digits under a wrapped title ("d20 #2"); "d100" widens it to its word
LOG_ALSO_WIDTH = 4.5  # a short name (g3); the list shows whole names
LOG_PICK_WIDTH = 6.5  # a list: its title's first word, the whole title in a comment
LOG_SPARE_PX = 40  # screen kept for one narrow log column more (Excel's rule: 7 px x 5 + 5)


def log_width(key: str) -> float:
    if key in LOG_WIDTHS:
        return LOG_WIDTHS[key]
    if key.startswith("also"):
        return LOG_ALSO_WIDTH
    if key.startswith("pick_"):
        return LOG_PICK_WIDTH
    if key.startswith("shown_"):
        return 8
    return LOG_ROLL_WIDTH


def title_fits(key: str) -> bool:
    """Whether a log column widens to the longest word of its title (a pick's or a roll's: short
    words on a narrow column); the others' widths hold their titles."""
    return key.startswith("pick_") or log_width(key) == LOG_ROLL_WIDTH


ACTS_NOW_FILL = "FFE699"
LOG_HEADER_HEIGHT = 40  # points: three lines of a wrapped title
VOID_INK = "FF808080"
HIDDEN_ROSTER = (
    "dexv", "start", "log_hp", "lethal_hp", "state_hp", "down_lethal", "record_key", "last_word", "short_auto", "short", "named_no", "acted",
    "sorted", "waiting", "kind_used", "crow", "attacks",
)  # fmt: skip
KIND_LABEL = "Kind (from Creatures; empty: the name without its number)"
SHORT_LABEL = "Short name for the log (empty: initials, g3 for Goblin 3)"
LOG_TITLE = (
    "One attack a row: Attacker and Target by name or short name, then the dice; Enter goes to the next"
    " row's Attacker. Undo a row: x in its Void cell (a Delete on the row's number does nothing here)."
)
ROUND_WHERE = "Round now is typed on the Log sheet, above the attack log."
TRUE_ONLY = '"TRUE";"TRUE";""'  # a roster of flags: only the TRUE ones show
BOLD_CHARACTER = 1.1  # column width units a bold header character takes
WIDE = {
    "state": 22,
    "conditions": 24,
    "result": 16,
    "effect": 24,
    "note": 24,
    "summary": 40,
    "check": 30,
    "morale": 34,
    "side_down": 30,
}
NAMED = ("name", "target", "attacker", "also", "side", "group", "note", "action", "pick_", "s_size")


def column_width(key: str) -> float:
    if key in WIDE:
        return WIDE[key]
    return 11 if key.startswith(NAMED) else 7


ROSTER_EXTRA = {
    "spelljammer": (
        ("wound_mod", "Wound modifier"),
        ("stunned", "Stunned this round"),
        ("prot_now", "PROT now"),
    ),
}
HELP = (
    "Type the roster once (yellow cells) and the initiative rolls each round; log the attacks on the Log "
    "sheet, one a row: the row resolves it like the calculator and takes the damage off the target."
)
