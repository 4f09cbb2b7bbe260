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

from collections.abc import Callable
from copy import copy
from dataclasses import replace

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.encounter import CONDITION_SIZE, LOG_SIZE, ROSTER_SIZE
from pycalc.encounter_block import encounter
from pycalc.encounter_rulesets import Adapter, adapter
from pycalc.sheets.common import (
    NOTE,
    TITLE,
    absolute,
    define_name,
    mark_input,
    protect,
    put,
    put_formula,
)
from pycalc.sheets.dual import BOTH, Udfs, both
from pycalc.sheets.encounter_cells import (
    CONDITIONS_GAP,
    LOG_SHEET,
    LOG_TOP,
    ROSTER_TOP,
    ROUND_CELL,
    SHEET,
    WORKING_FROM,
    Calculator,
    Columns,
    add_number_check,
    read_calculator,
)
from pycalc.sheets.encounter_frame import EncounterFrame
from pycalc.sheets.encounter_log import LogWriter
from pycalc.sheets.encounter_log_cells import LogCells
from pycalc.sheets.encounter_log_checks import LogChecks
from pycalc.sheets.encounter_looks import HELP
from pycalc.sheets.encounter_panel import PanelWriter
from pycalc.sheets.encounter_roster import RosterWriter
from pycalc.sheets.encounter_roster_cells import RosterCells
from pycalc.sheets.formulas import q
from pycalc.sheets.log_rows import (
    RowFormula,
    RowTemplate,
)
from pycalc.sheets.ooxml.cells import (
    cells_of,
    set_stored_value,
    stored_value,
    style_array_of,
    use_styles_of,
)
from pycalc.sheets.ooxml.styles import share_styles
from pycalc.tables import RuleSet


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


class EncounterWriter(EncounterFrame, PanelWriter, RosterWriter, RosterCells, LogWriter, LogCells, LogChecks):
    """The Encounter and Log sheets of one workbook file, written part by part (the parts are its bases)."""

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
