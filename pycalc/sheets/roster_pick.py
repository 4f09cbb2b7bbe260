"""Pick the attacker and the target from the Encounter roster on the Attack (or Strike) calculator.

Two yellow cells above the calculator's inputs take a roster name each. Every input the roster knows
(the attacker's bonus, level and dice, the target's AC or DEF, its hit points now, ...) is then used
from the picked combatant's roster line: each such input ``X`` gets a hidden working cell
``X_IN_USE`` (the roster's number when a combatant is picked, its stat's default where the roster
cell is empty, as a log row counts it; else the typed one) and every formula of the workbook that read ``X`` reads ``X_IN_USE``. The typed cell stays
yellow and typeable; while the roster overrides it, it shows struck through, and a line beside the
picks says which numbers come from the roster. Nothing picked: the calculator is as it was.
"""

from __future__ import annotations

import re

from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.encounter_rulesets import NUMBER_STAT, Adapter, Stat, adapter
from pycalc.sheets.calculator import BOOLEAN_FORMAT, add_list
from pycalc.sheets.common import (
    MUTED,
    NOTE,
    WRAP,
    absolute,
    define_name,
    destinations,
    mark_input,
    put,
    put_formula,
)
from pycalc.sheets.dual import Both, changed, same, set_text
from pycalc.sheets.encounter_cells import LOG_SHEET
from pycalc.sheets.encounter_cells import SHEET as ENCOUNTER_SHEET
from pycalc.sheets.formulas import q
from pycalc.sheets.log_rows import substitute
from pycalc.sheets.ooxml.cells import cells_and_values, has_rows
from pycalc.tables import RuleSet

PICKS = {"attacker": ("A3", "B3", "FROM_ROSTER_ATTACKER"), "target": ("D3", "E3", "FROM_ROSTER_TARGET")}
PICK_LABELS = {"attacker": "Attacker from the Encounter roster", "target": "Target from the Encounter roster"}
SUMMARY_CELL = "F3"
SUMMARY_HEIGHT = 36  # points: three lines of the note beside the picks
SHORT = {
    "attack_bonus": "bonus",
    "needed": "needs",
    "dice": "dice",
    "level": "level",
    "hp_now": "HP now",
    "hp_at_start": "start HP",
    "prot_now": "PROT now",
    "max_hp": "max HP",
    "magic_def": "magic DEF",
    "size": "size",
    "range_increment": "range increment",
    "subdual_taken": "subdual taken",
}
NOTHING_PICKED = "Pick combatants here to use their roster numbers; typed numbers are used otherwise"


def roster_column(book: Workbook, stat_id: str) -> str:
    """The roster's column of a stat: the number in use (typed, else the creature's) where it has one."""
    in_use = f"ROSTER_{stat_id.upper()}_IN_USE"
    return in_use if in_use in book.defined_names else f"ROSTER_{stat_id.upper()}"


def calculator_sheet(book: Workbook) -> Worksheet:
    return next(s for s in book.worksheets if s.sheet_state == "visible" and s.title.endswith(" calculator"))


def named_cell(book: Workbook, name: str) -> tuple[str, str] | None:
    places = destinations(book.defined_names[name]) if name in book.defined_names else []
    if len(places) != 1 or ":" in places[0][1]:
        return None
    return places[0][0], places[0][1].replace("$", "")


def fill_from_roster(book: Workbook, rules: RuleSet) -> None:
    """The calculator's roster picks (after the Encounter sheet, whose log copies the calculator's
    own formulas, is written)."""
    if rules.encounter_block is None or ENCOUNTER_SHEET not in book.sheetnames:
        return
    sheet = calculator_sheet(book)
    ruleset = adapter(rules)
    filled = {
        name: source
        for name, source in ruleset.filled_from_roster().items()
        if (named_cell(book, name) or ("",))[0] == sheet.title
    }
    for who, (label_cell, pick_cell, defined) in PICKS.items():
        put(sheet[label_cell], PICK_LABELS[who])
        mark_input(put(sheet[pick_cell], None))
        add_list(sheet, pick_cell, "=ROSTER_NAME")
        define_name(book, defined, absolute(sheet, pick_cell))
    used = {name: f"{name}_IN_USE" for name in filled}
    redirect_formulas(book, used)
    columns = (sheet.max_column + 1, sheet.max_column + 2)  # hidden working cells, right of everything
    for name, (who, stat_id) in filled.items():
        stat = next((s for s in ruleset.stats if s.id == stat_id), None)
        write_used(book, sheet, columns, name, (who, stat_id), stat)
    summary = put_formula(sheet[SUMMARY_CELL], summary_formula(filled, ruleset))
    summary.font, summary.alignment = NOTE, WRAP
    sheet.row_dimensions[summary.row].height = SUMMARY_HEIGHT
    for column in columns:
        sheet.column_dimensions[get_column_letter(column)].hidden = True


def redirect_formulas(book: Workbook, used: dict[str, str]) -> None:
    """Every formula outside the Encounter sheet reads the used value instead of the typed one."""
    if not used:
        return
    naming = re.compile("|".join(re.escape(name) for name in used))
    for sheet in book.worksheets:
        if sheet.title in (ENCOUNTER_SHEET, LOG_SHEET):
            continue
        keep_rows_from_the_top(sheet)
        for _, cell, value in cells_and_values(sheet):
            if (
                isinstance(value, str)
                and value.startswith("=")
                and cell.data_type == "f"
                and (naming.search(value) or (type(value) is Both and naming.search(value.macro)))
            ):
                redirected = changed(value, lambda formula: substitute(formula, used))
                if not same(redirected, value):
                    set_text(cell, redirected)


def keep_rows_from_the_top(sheet: Worksheet) -> None:
    """Give every row from the first to the sheet's last a cell in column A, as walking the sheet with
    ``iter_rows`` (as ``redirect_formulas`` once did: it made a cell of every empty place) does: the
    saved rows and the sheet's dimension stay what they were; the other empty cells it made are never
    written."""
    if has_rows(sheet):
        for row in range(1, sheet.max_row + 1):
            sheet.cell(row, 1)


def roster_value(book: Workbook, who: str, stat_id: str) -> str:
    pick = PICKS[who][2]
    return f"INDEX({roster_column(book, stat_id)},MATCH({pick},ROSTER_NAME,0))"


def write_used(
    book: Workbook,
    sheet: Worksheet,
    columns: tuple[int, int],
    name: str,
    source: tuple[str, str],
    stat: Stat | None,
) -> None:
    """``name``_IN_USE and ``name``_FROM_ROSTER beside the typed cell's row, hidden; the typed cell
    struck through while the roster overrides it."""
    _, typed = named_cell(book, name) or ("", "")
    row = sheet[typed].row
    used, from_roster = (sheet.cell(row, column) for column in columns)
    pick, value = PICKS[source[0]][2], roster_value(book, *source)
    if stat is None:  # a number the roster always works out (HP now, ...): used where it has one
        picked = f'IF({pick}="",FALSE,IFERROR({value}<>"",FALSE))'
        from_line = value
    else:  # a typed stat: an empty roster cell counts as the stat's default, as on a log row
        picked = f'IF({pick}="",FALSE,ISNUMBER(MATCH({pick},ROSTER_NAME,0)))'
        from_line = empty_as_default(value, stat)
    put_formula(from_roster, picked).number_format = BOOLEAN_FORMAT
    # an empty typed cell reads as empty where the stat may be left so (a text, or an int with no default):
    # a bare reference to it reads 0 in Excel and Gnumeric
    may_be_empty = stat is not None and (stat.kind != "int" or stat.default in ("", None))
    kept = f'IF({name}="","",{name})' if may_be_empty else name
    put_formula(used, f"IF({from_roster.coordinate},{from_line},{kept})")
    define_name(book, f"{name}_IN_USE", absolute(sheet, used.coordinate))
    define_name(book, f"{name}_FROM_ROSTER", absolute(sheet, from_roster.coordinate))
    struck = Font(italic=True, strike=True, color=MUTED)
    sheet.conditional_formatting.add(typed, FormulaRule(formula=[f"{name}_FROM_ROSTER"], font=struck))


def empty_as_default(value: str, stat: Stat) -> str:
    """The roster's ``value`` of a stat, its default where the roster cell is empty."""
    if stat.kind == "int" and stat.default == 0:
        return f"N({value})"
    if stat.default in ("", None):
        return f'IF({value}="","",{value})'
    return f'IF({value}="",{q(str(stat.default))},{value})'


def short(stat_id: str, ruleset: Adapter) -> str:
    """A roster number's words in the summary: its short words, else its label without the brackets
    (a typed number of a resolution block: "Target's shield (AC points)" says "target's shield")."""
    if stat_id in SHORT:
        return SHORT[stat_id]
    stat = next((s for s in ruleset.stats if s.id == stat_id), None)
    if stat is None or not stat_id.startswith(NUMBER_STAT):
        return stat_id.upper()
    words = re.sub(r"\s*\([^)]*\)", "", stat.label).strip()
    return words if words.split()[0].isupper() else words[:1].lower() + words[1:]


def summary_formula(filled: dict[str, tuple[str, str]], ruleset: Adapter) -> str:
    """What the picks put in: "Attacker Ogre: bonus 5, level 4, dice 2d6. Target Bob: AC 15, HP now 7." """
    parts = []
    for who, (_, _, pick) in PICKS.items():
        shown = [
            f"{q(short(stat_id, ruleset) + ' ')}&{name}_IN_USE"
            for name, (side, stat_id) in filled.items()
            if side == who
        ]
        if not shown:
            continue
        listed = '&", "&'.join(shown)
        unknown = q(f"#{who.upper()}? not a name on the roster. ")
        parts.append(
            f'IF({pick}="","",IF(NOT(ISNUMBER(MATCH({pick},ROSTER_NAME,0))),{unknown},'
            f'{q(who.capitalize() + " ")}&{pick}&": "&{listed}&". "))'
        )
    picked = " ".join(f'{PICKS[who][2]}=""' for who in PICKS).replace(" ", ",")
    return f"IF(AND({picked}),{q(NOTHING_PICKED)},TRIM({'&'.join(parts)}))"
