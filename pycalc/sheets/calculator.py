"""A calculator sheet: labelled input cells, pickers and formula cells, each under a defined name.

A field carries two formulas: the native one (the .xlsx, computes anywhere) and optionally one
calling the xlwings UDFs (the .xlsm). Everything else about the sheet is the same in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.comments import Comment
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import (
    BOLD,
    NOTE,
    PERCENT_FORMAT,
    SUBTITLE,
    TITLE,
    WORKING_FILL,
    WRAP,
    absolute,
    define_name,
    fill,
    font,
    formula_value,
    mark_input,
    mark_output,
    protect,
    put,
    put_formula,
    table_name,
)
from pycalc.sheets.dual import BOTH, Udfs, both
from pycalc.sheets.roll_entry import DICE_SHOWN, RollRange, add_roll_check

INPUT, PICK, OUTPUT, WORKING = "input", "pick", "output", "working"
ATTACK_SHEET = "Attack calculator"
BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"'  # LibreOffice otherwise may show a FALSE box as 0


@dataclass(frozen=True)
class Field:
    label: str
    name: str | None = None  # workbook-level defined name of the cell
    kind: str = OUTPUT
    value: object = None  # default of an input or picker
    native: str | None = None  # formula for the .xlsx
    udf: str | None = None  # formula for the .xlsm (None: the native one)
    options: str | None = None  # list validation: a defined name ("=T_X_LABEL") or "A,B,C"
    number_format: str | None = None
    help: str = ""
    key: bool = False  # a headline output (bold)
    roll: RollRange | None = None  # a roll's die (is_roll fields without one: DICE_SHOWN)
    help_formula: str | None = None  # help that follows the rulings in force (``ruling_text.by_ruling``)


def working_field(label: str, name: str, native: str, flag: bool = False) -> Field:
    """A working cell of the calculator (grey, small): ``native`` worked out, shown TRUE or FALSE
    when it is a ``flag``."""
    return Field(label, name, WORKING, native=native, number_format=BOOLEAN_FORMAT if flag else None)


def empty_input(label: str, name: str, help_text: str = "", roll: RollRange | None = None) -> Field:
    """An input left empty until the GM types it: a roll (on the die ``roll`` when given), a total."""
    return Field(label, name, INPUT, None, help=help_text, roll=roll)


def flag_input(label: str, name: str, value: bool = False, help_text: str = "", kind: str = INPUT) -> Field:
    """A TRUE or FALSE box the GM sets (``kind`` PICK: a pick of the situation)."""
    return Field(label, name, kind, value, options="TRUE,FALSE", help=help_text)


def list_input(
    label: str, name: str, table_id: str, value: str, help_text: str = "", kind: str = INPUT
) -> Field:
    """A dropdown of a table's labels, at ``value`` (``kind`` PICK: a pick of the situation)."""
    return Field(label, name, kind, value, options=f"={table_name(table_id, 'label')}", help=help_text)


def chance_field(label: str, name: str, native: str, udf: str | None = None, key: bool = False) -> Field:
    """A chance, shown as a percentage."""
    return Field(label, name, key=key, number_format=PERCENT_FORMAT, native=native, udf=udf)


@dataclass(frozen=True)
class Section:
    title: str
    fields: tuple[Field, ...]


def write_calculator(
    book: Workbook, title: str, heading: str, intro: str, sections: list[Section], with_udfs: Udfs
) -> Worksheet:
    """The calculator's sections one under the other: labels in column A, the numbers typed and every
    result in column B, what is typed or picked as words (dice, a row of a table) in column C, help in
    column D. A column the GM types numbers in holds no text, so AutoInput / AutoComplete cannot turn a
    typed 1 into the dice text 1d6 below it."""
    sheet = book.create_sheet(title)
    sheet.sheet_properties.tabColor = "F0B429"
    for column, width in zip("ABCD", (40, 16, 30, 44), strict=True):
        sheet.column_dimensions[column].width = width
    title = put(sheet["A1"], heading)
    title.font, title.alignment = TITLE, WRAP
    sheet.merge_cells("A1:C1")  # long ruleset names wrap here; D1 keeps the link back to Contents
    sheet.row_dimensions[1].height = 38
    intro_cell = put(sheet["A2"], intro)
    intro_cell.font, intro_cell.alignment = NOTE, WRAP
    sheet.merge_cells("A2:D2")
    sheet.row_dimensions[2].height = 30
    row = 4
    for section in sections:
        put(sheet.cell(row, 1), section.title).font = SUBTITLE
        row += 1
        for field in section.fields:
            value_col = 3 if is_words_input(field) else 2
            write_field(book, sheet, row, field, with_udfs, value_col=value_col, help_col=4)
            row += 1
        row += 1
    sheet.freeze_panes = "A4"
    protect(sheet)
    return sheet


def is_number_input(field: Field) -> bool:
    """An input the GM types a number into (a roll, a bonus, hit points), not text or a pick."""
    value = field.value
    return (
        field.kind == INPUT
        and not isinstance(value, bool)
        and (value is None or isinstance(value, (int, float)))
    )


def is_words_input(field: Field) -> bool:
    """An input the GM types or picks words into (dice, a table's row, Made or Failed), not a number
    nor TRUE or FALSE."""
    value = field.value
    return (
        field.kind in (INPUT, PICK)
        and not isinstance(value, bool)
        and (isinstance(value, str) or bool(field.options))
    )


def is_roll(field: Field) -> bool:
    return bool(field.name) and is_number_input(field) and "ROLL" in (field.name or "")


def write_roll_block_calculator(
    book: Workbook, title: str, heading: str, intro: str, sections: list[Section], with_udfs: Udfs
) -> Worksheet:
    """The calculator as a roll block: every number the GM types (rolls, bonus, target, hit points)
    down column B, in the sections' order, beside the outputs down column E; then the picks and
    the text entries (dice) in column E, the workings below them. Column B holds numbers only, so
    AutoInput / AutoComplete cannot turn a typed 1 into text; help goes into column F or a comment."""
    sheet = book.create_sheet(title)
    sheet.sheet_properties.tabColor = "F0B429"
    for col, width in zip("ABCDEF", (34, 10, 2, 46, 24, 60), strict=True):  # F: help, on two lines at most
        sheet.column_dimensions[col].width = width
    title_cell = put(sheet["A1"], heading)
    title_cell.font, title_cell.alignment = TITLE, WRAP
    sheet.merge_cells("A1:E1")
    sheet.row_dimensions[1].height = 24
    intro_cell = put(sheet["A2"], intro)
    intro_cell.font, intro_cell.alignment = NOTE, WRAP
    sheet.merge_cells("A2:F2")
    sheet.row_dimensions[2].height = 30
    fields = [f for section in sections for f in section.fields]
    numbers = [f for f in fields if is_number_input(f)]
    outputs = [f for f in fields if f.kind == OUTPUT]
    picks = [f for f in fields if f.kind in (INPUT, PICK) and not is_number_input(f)]
    workings = [f for f in fields if f.kind == WORKING]
    put(sheet.cell(4, 1), "Your numbers and rolls").font = SUBTITLE
    put(sheet.cell(4, 4), "What they give").font = SUBTITLE
    for row, field in enumerate(numbers, start=5):
        write_field(book, sheet, row, field, with_udfs, label_col=1, help_col=None)
    for row, field in enumerate(outputs, start=5):
        write_field(book, sheet, row, field, with_udfs, label_col=4, help_col=6)
    row = 5 + max(len(numbers), len(outputs)) + 1
    for heading_text, group in (("The situation and the dice", picks), ("Workings", workings)):
        if not group:
            continue
        put(sheet.cell(row, 4), heading_text).font = SUBTITLE
        row += 1
        for field in group:
            write_field(book, sheet, row, field, with_udfs, label_col=4, help_col=6)
            row += 1
        row += 1
    sheet.freeze_panes = "A4"
    protect(sheet)
    return sheet


def write_field(
    book: Workbook,
    sheet: Worksheet,
    row: int,
    field: Field,
    with_udfs: Udfs,
    label_col: int = 1,
    help_col: int | None = 3,
    value_col: int | None = None,
) -> None:
    """A field's label, its cell (beside the label unless ``value_col``), its help and defined name."""
    label = put(sheet.cell(row, label_col), field.label)
    value = sheet.cell(row, value_col or label_col + 1)
    if field.kind in (INPUT, PICK):
        put(value, field.value)
        mark_input(value)
        if isinstance(field.value, bool):
            value.number_format = BOOLEAN_FORMAT
        if field.options:
            add_list(sheet, value.coordinate, field.options)
    else:
        put_formula(value, field_formula(field, with_udfs))
        if field.kind == WORKING:
            label.font = font(9, colour="616E7C")
            value.font = font(9, colour="616E7C")
            value.fill = fill(WORKING_FILL)
        else:
            mark_output(value, bold=field.key)
            if field.key:
                label.font = BOLD
    if field.number_format:
        value.number_format = field.number_format
    if (field.help or field.help_formula) and help_col is not None:
        if field.help_formula:
            help_cell = put_formula(sheet.cell(row, help_col), field.help_formula)
        else:
            help_cell = put(sheet.cell(row, help_col), field.help)
        help_cell.font = NOTE
        if help_col == 4:  # the sections' layout wraps its help; the roll block's runs on to the right
            help_cell.alignment = WRAP
    if is_roll(field):
        add_roll_check(sheet, value.coordinate, field.roll or DICE_SHOWN)
    if field.name:
        define_name(book, field.name, absolute(sheet, value.coordinate))
        if field.kind in (INPUT, PICK):
            value.comment = Comment(what_to_type(field), "pycalc", width=240, height=60)


def field_formula(field: Field, with_udfs: Udfs) -> str:
    """The formula of a calculated field: its UDF call in the .xlsm where it has one, else native."""
    native = formula_value(field.native or "")
    if not field.udf or with_udfs is False:
        return native
    return both(native, formula_value(field.udf)) if with_udfs == BOTH else formula_value(field.udf)


def what_to_type(field: Field) -> str:
    """An input's comment: what to type (or pick) there, then its help."""
    label = field.label[:1].lower() + field.label[1:]
    if is_roll(field) and "DAMAGE" in (field.name or ""):
        first = f"Type what the dice show: {label}."
    elif is_roll(field):
        first = f"Type the {label} as the die reads (01 is 1)."
    elif field.kind == PICK or field.options:
        first = f"Pick from the list: {label}."
    elif isinstance(field.value, bool):
        first = f"TRUE or FALSE: {label}."
    elif is_number_input(field):
        first = f"Type a number: {label}."
    else:
        first = f"Type {label}."
    help_text = field.help[:1].upper() + field.help[1:] if field.help else ""
    return f"{first} {help_text}".strip()


def add_list(sheet: Worksheet, coordinate: str, options: str, strict: bool = True) -> None:
    """A dropdown; not ``strict``: other texts are taken too (with a note that they are not listed)."""
    # Stored without a leading '=', as Excel, LibreOffice and XlsxWriter write list sources.
    formula = options.removeprefix("=") if options.startswith("=") else f'"{options}"'
    check = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True)
    check.error = "Pick a value from the list" if strict else "Not in the list: kept as typed."
    check.errorTitle = "Not in the list"
    if not strict:
        check.errorStyle = "information"
    sheet.add_data_validation(check)
    check.add(coordinate)
