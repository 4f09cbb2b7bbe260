"""Every dropdown shows its modifier: beside each pick from a YAML table, the cell to its right says what
the row picked changes ("Attack roll -2, AC +1", "Damage × 2", "No modifier"), read from the table's
numeric columns by formula, so it follows the pick and the YAML. The help that stood there stays in the
pick's comment."""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.sheets.common import NOTE, put_formula, table_name
from pycalc.sheets.encounter_cells import LOG_SHEET
from pycalc.sheets.encounter_cells import SHEET as ENCOUNTER_SHEET
from pycalc.sheets.formulas import q
from pycalc.sheets.gm_text import readable
from pycalc.tables import RuleSet, Table

NUMERIC = ("int", "number")
SEPARATOR = '", "'


def shown_number(value: str, signed: bool) -> str:
    """A modifier with its sign (+2, -1, +0.5), or a factor as it is (2, 0.5)."""
    plain = f'IF(INT({value})={value},TEXT({value},"0"),TEXT({value},"0.0#"))'
    return f'IF({value}>0,"+","")&{plain}' if signed else plain


def modifier_formula(table: Table, pick: str, rules: RuleSet) -> str | None:
    """What the picked row changes against the table's first row (a choice's "no modifier" default):
    each numeric column that differs, as "<column> <value>"; None when the table has no such column."""
    columns = [c for c in table.columns if c.type in NUMERIC]
    if not columns or not table.rows:
        return None
    row = f"MATCH({pick},{table_name(table.id, 'label')},0)"
    parts = []
    for column in columns:
        values = table_name(table.id, column.id)
        value, neutral = (
            f"SUM(INDEX({values},{row}))",
            f"SUM(INDEX({values},1))",
        )  # row 1: the default (SUM: an empty cell is 0 in every office)
        label = q(readable(column.label, rules))
        signed = (table.rows[0][column.id] or 0) == 0
        parts.append(f'IF({value}={neutral},"",{SEPARATOR}&{label}&" "&{shown_number(value, signed)})')
    listed = "&".join(parts)
    return f'IFERROR(IF({listed}="","No modifier",REPLACE({listed},1,LEN({SEPARATOR}),"")),"")'


def picked_tables(rules: RuleSet) -> dict[str, Table]:
    """Dropdown source (T_<TABLE>_LABEL) -> its table, for the situational modifier (choice) tables."""
    return {table_name(t.id, "label"): t for t in rules.tables.values() if t.picker == "choice"}


def note_picks(sheet: Worksheet, sources: dict[str, Table], rules: RuleSet) -> None:
    for check in sheet.data_validations.dataValidation:
        table = sources.get(str(check.formula1 or "").removeprefix("="))
        if check.type != "list" or table is None:
            continue
        for cells in check.sqref.ranges:
            for row in range(cells.min_row, cells.max_row + 1):
                pick, beside = sheet.cell(row, cells.min_col), sheet.cell(row, cells.min_col + 1)
                formula = modifier_formula(table, pick.coordinate, rules)
                if formula is not None and not str(beside.value or "").startswith("="):
                    note = put_formula(beside, formula)
                    note.font = NOTE


def show_pick_modifiers(book: Workbook, rules: RuleSet) -> None:
    """Beside every dropdown of a visible sheet, the modifiers of the row picked (not on the
    Encounter sheet: its columns beside a pick are inputs; the calculators show the notes)."""
    sources = picked_tables(rules)
    for sheet in book.worksheets:
        if sheet.sheet_state == "visible" and sheet.title not in (ENCOUNTER_SHEET, LOG_SHEET):
            note_picks(sheet, sources, rules)
