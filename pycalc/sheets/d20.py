"""The generic workbook sheets of a d20 ruleset described by its YAML alone: the Attack calculator,
its workings, the damage chart and the printable Odds sheet, all written from the ruleset's
``resolution:`` block and its ``modifiers:`` pickers (``pycalc.sheets.d20_formulas``). The
reference for every cell is ``pycalc.resolution_calculator``.

The calculator opens with the roll block: the numbers that change every attack (bonus, target,
modifier, the natural roll, any follow-up roll, the damage roll, the target's hit points) in column
B, holding numbers only, beside the number needed, the chances and the result in column E. The
dice text and the situation pickers sit in column E too, never in a roll's column, so that typing
``1`` in a roll cell cannot be completed into dice text by AutoInput / AutoComplete.
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.resolution_block import Resolution, target_kind
from pycalc.resolution_calculator import (
    adds_dice,
)
from pycalc.resolution_summary import ruled_out_words
from pycalc.sheets import d20_formulas as f
from pycalc.sheets import d20_heat as heat
from pycalc.sheets import d20_supported
from pycalc.sheets.calculator import ATTACK_SHEET, Section, write_calculator
from pycalc.sheets.common import (
    BOLD,
    NOTE,
    TITLE,
    WRAP,
    absolute,
    define_name,
    mark_output,
    protect,
    put,
    put_formula,
    show_chart,
)
from pycalc.sheets.d20_cells import ODDS_SHEET
from pycalc.sheets.d20_damage import write_damage_chart
from pycalc.sheets.d20_layout import SUMMARY_ROW
from pycalc.sheets.d20_picker_rows import write_pickers
from pycalc.sheets.d20_roll_block import chart_anchor, write_roll_block
from pycalc.sheets.d20_workings import calculator_cells, damage_cells, write_workings
from pycalc.sheets.dual import Udfs
from pycalc.sheets.heat_map import finish_odds_sheet, odds_sheet, write_heat_maps
from pycalc.sheets.surprise import surprise_section
from pycalc.sheets.target_state import said
from pycalc.surprise import has_surprise
from pycalc.tables import RuleSet

HEAT_BONUS = {  # rows of the printed odds sheet (layout): the bonus, or THAC0 from the best down
    "armor_class": range(-2, 16),
    "number_needed": range(-2, 16),
    "descending_ac": range(1, 21),
}


HEAT_TARGET = {
    "armor_class": range(8, 29),
    "number_needed": range(2, 22),
    "descending_ac": range(10, -11, -1),
}


def summary_row_of(rules: RuleSet) -> int:
    """The one-line summary's row: one lower where the roster picks take row 3 (an encounter block)."""
    return SUMMARY_ROW + (rules.encounter_block is not None)


def write_attack_calculator(book: Workbook, rules: RuleSet, block: Resolution) -> Worksheet:
    sheet = book.create_sheet(ATTACK_SHEET, 0)
    sheet.sheet_properties.tabColor = "F0B429"
    for col, width in zip("ABCDEF", (30, 9, 2, 30, 22, 18), strict=True):
        sheet.column_dimensions[col].width = width
    title = put(sheet["A1"], f"{rules.name}: one attack")
    title.font, title.alignment = TITLE, WRAP
    sheet.merge_cells("A1:E1")
    sheet.row_dimensions[1].height = 24
    intro = put(
        sheet["A2"],
        "Type the numbers in the yellow cells of column B as the dice fall; the result, the damage and the "
        "odds follow on the right. Pick the situation below. Resolved as the ruleset's YAML says.",
    )
    intro.font, intro.alignment = NOTE, WRAP
    sheet.merge_cells("A2:F2")
    sheet.row_dimensions[2].height = 26
    summary_row = summary_row_of(rules)
    put(sheet.cell(summary_row, 1), "In one line").font = BOLD
    formulas = f.Formulas(block, calculator_cells(rules))
    state = said(rules) if rules.encounter_block is not None else ""  # ': Dying' after the hit points
    ruled_out = formulas.ruled_out(
        ruled_out_words(rules, "cannot_hit"), ruled_out_words(rules, "needs_magic")
    )
    penalty = formulas.penalty_said() if block.damage.natural_penalty is not None else ""
    line = put_formula(sheet.cell(summary_row, 2), formulas.summary(state, ruled_out, penalty))
    mark_output(line, bold=True)
    sheet.merge_cells(start_row=summary_row, start_column=2, end_row=summary_row, end_column=6)
    define_name(book, "ATTACK_SUMMARY", absolute(sheet, line.coordinate))
    next_row = write_roll_block(book, sheet, rules, block, summary_row + 1)
    write_pickers(book, sheet, rules, block, next_row)
    sheet.freeze_panes = f"A{summary_row + 1}"
    protect(sheet)
    return sheet


def write_odds_sheet(book: Workbook, rules: RuleSet, block: Resolution) -> None:
    kind = target_kind(block)
    columns = HEAT_TARGET[kind]
    corner = {"number_needed": "Bonus \\ need", "descending_ac": "THAC0 \\ AC"}.get(kind, "Bonus \\ AC")
    added = adds_dice(rules)
    sheet = odds_sheet(
        book,
        ODDS_SHEET,
        f"{rules.name}: chance to hit by attack bonus and target",
        "Exact chances on one die, with the ruleset's natural-roll rules. Rows: the attacker's "
        + ("THAC0 less every modifier" if kind == "descending_ac" else "bonus with every modifier")
        + "; columns: the defender's "
        + {"number_needed": "number needed.", "descending_ac": "descending AC."}.get(kind, "AC.")
        + (
            " With the dice the Attack calculator's picks add to the roll, over every total." if added else ""
        ),
        len(columns),
    )
    row = write_heat_maps(
        book, sheet, 4, heat.heat_maps(block, corner, HEAT_BONUS[kind], columns, added=added)
    )
    if heat.fumble_by_level(block):
        heat.write_fumble_row(book, sheet, block, row)
    finish_odds_sheet(sheet, 12, len(columns), 5.5)


def write_generic_sheets(book: Workbook, rules: RuleSet) -> None:
    """The generic sheets; the .xlsm gets the same native formulas (the UDFs take no pickers)."""
    block = d20_supported.check_supported(rules)
    sheet = write_attack_calculator(book, rules, block)
    write_odds_sheet(book, rules, block)
    write_workings(book, rules, block)
    anchor = chart_anchor(rules, block, summary_row_of(rules) + 1)
    show_chart(sheet, write_damage_chart(book, rules, block, damage_cells(rules)), anchor)


OWN_INTRO = (
    "Yellow cells are yours; green cells are worked out from the rule tables. "
    "Rulings in force: Rulings sheet."
)


OTHER_SHEET = "Other calculators"


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    """The generic sheets, and those of the encounter block's calculators (surprise) beside them."""
    write_with_own_sheet(book, rules, with_udfs, OTHER_SHEET, "surprise", [])


def write_with_own_sheet(
    book: Workbook, rules: RuleSet, with_udfs: Udfs, title: str, subtitle: str, sections: list[Section]
) -> Worksheet | None:
    """The generic sheets, then the sheet of the ruleset's own calculators beside the Attack
    calculator: the encounter block's (surprise), then its subsystems' ``sections`` (none: no sheet)."""
    write_generic_sheets(book, rules)
    sections = ([surprise_section(rules)] if has_surprise(rules) else []) + sections
    if not sections:
        return None
    sheet = write_calculator(book, title, f"{rules.name}: {subtitle}", OWN_INTRO, sections, with_udfs)
    book.move_sheet(sheet, book.sheetnames.index(ATTACK_SHEET) + 1 - book.sheetnames.index(title))
    return sheet
