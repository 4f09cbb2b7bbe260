"""The Fight record sheet: the Encounter sheet's fight on one printed page.

The roster in acting order (hit points, state and conditions now) and the attack log's filled rows
(the last ``RECORD_LOG_SIZE`` of them), read from the Encounter sheet's defined names with INDEX,
MATCH and SMALL (no SORT, no array formula). The model: :func:`pycalc.encounter_record.record_order` and
:func:`pycalc.encounter_record.record_log_rows`.
"""

from __future__ import annotations

from openpyxl.cell.cell import Cell
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.encounter import RECORD_LOG_SIZE, ROSTER_SIZE
from pycalc.encounter_block import encounter
from pycalc.sheets.common import (
    GRID,
    NOTE,
    OUTPUT_FILL,
    SHRINK,
    SUBTITLE,
    TITLE,
    absolute,
    define_name,
    fill,
    font,
    protect,
    put,
    put_formula,
    style_header,
)
from pycalc.sheets.encounter_cells import LOG_SHEET
from pycalc.sheets.encounter_cells import SHEET as ENCOUNTER_SHEET
from pycalc.sheets.result_colours import highlight_results
from pycalc.tables import RuleSet

SHEET = "Fight record"
RECORD_PREFIX = "RECORD_"  # its defined names (its Result columns take their colours here, ruled)
ROSTER_HEAD = 5  # header row of the acting order; combatants below
LOG_HEAD = ROSTER_HEAD + ROSTER_SIZE + 3
LOG_ROWS = RECORD_LOG_SIZE // 2  # two blocks of log entries side by side
RIGHT = 8  # column H: the second block of log entries
# a block's columns, A to F and H to M: narrow enough that the page, fitted to one sheet of paper, prints
# its 9 pt text at 7 pt or more (97 characters wide it printed at about 77 %, 6.9 pt)
WIDTHS = (5, 11, 11, 4, 8, 5)
GAP = 1  # column G between the log's two blocks
WORKING = ("O", "P", "Q")  # hidden: the roster line, then the log row each record line shows
RECORD_TEXT = font(9)
CENTRED = Alignment(horizontal="center", vertical="center")
ROW_HEIGHT = 12

ROSTER_COLUMNS = (  # header, what the line shows of the roster line it names
    ("Order", "ROSTER_ORDER"),
    ("Name", "ROSTER_NAME"),
    ("Side", "ROSTER_SIDE"),
    ("Init.", "ROSTER_INITIATIVE"),
    ("HP now", "ROSTER_HP_NOW"),
    ("Max HP", "ROSTER_MAX_HP_IN_USE"),
)
LOG_COLUMNS = (  # header, defined name of the record column
    ("Round", "ROUND"),
    ("Attacker", "ATTACKER"),
    ("Target (+ also hit)", "TARGETS"),
    ("Roll", "ROLL"),
    ("Result", "RESULT"),
    ("HP lost", "HP_LOST"),
)


def write_fight_record(book: Workbook, rules: RuleSet) -> None:
    """After the Encounter sheet, whose defined names it reads (none for a ruleset without one)."""
    if ENCOUNTER_SHEET not in book.sheetnames:
        return
    after = LOG_SHEET if LOG_SHEET in book.sheetnames else ENCOUNTER_SHEET
    sheet = book.create_sheet(SHEET, book.sheetnames.index(after) + 1)
    title = put(sheet["A1"], f"Fight record: {rules.name}")
    title.font, title.alignment = TITLE, SHRINK  # a long ruleset name shrinks inside the printed width
    sheet.merge_cells(f"A1:{get_column_letter(RIGHT + len(LOG_COLUMNS) - 2)}1")
    for offset, width in enumerate(WIDTHS):
        for left in (1, RIGHT):
            sheet.column_dimensions[get_column_letter(left + offset)].width = width
    sheet.column_dimensions[get_column_letter(RIGHT - 1)].width = GAP
    write_order(
        book, sheet, bool(encounter(rules).hit_points.loss), encounter(rules).damage_kinds is not None
    )
    slots, total = write_log(book, sheet)
    put_formula(
        sheet["A2"],
        f'"Round "&ENC_ROUND_NOW&": "&COUNTIF(ROSTER_NAME,"?*")&" combatants, "&{total}&" attacks logged"'
        f'&IF({total}>{slots},", the last "&{slots}&" below (every one on the Encounter sheet)","")',
    ).font = NOTE
    for letter in WORKING:
        sheet.column_dimensions[letter].hidden = True
    protect(sheet)


def write_order(book: Workbook, sheet: Worksheet, bleeds: bool, healed: bool = False) -> None:
    """The roster in acting order; ``bleeds``: the ruleset has a band that loses hit points each
    round until aided, and a line in it says so."""
    put(
        sheet.cell(ROSTER_HEAD - 1, 1), "Acting order (1 acts first; equal numbers act together)"
    ).font = SUBTITLE
    for column, (label, _) in enumerate(ROSTER_COLUMNS, start=1):
        style_header(sheet.cell(ROSTER_HEAD, column, label))
    style_header(sheet.cell(ROSTER_HEAD, RIGHT, "State and conditions now"))
    last = get_column_letter(RIGHT + len(LOG_COLUMNS) - 1)
    for column in range(RIGHT + 1, RIGHT + len(LOG_COLUMNS)):
        style_header(sheet.cell(ROSTER_HEAD, column))
    sheet.merge_cells(f"{get_column_letter(RIGHT)}{ROSTER_HEAD}:{last}{ROSTER_HEAD}")
    sheet.row_dimensions[ROSTER_HEAD].height = 2 * ROW_HEIGHT
    first = ROSTER_HEAD + 1
    for row in range(first, first + ROSTER_SIZE):
        line = f"${WORKING[0]}{row}"
        place = f"ROWS(${WORKING[0]}${first}:{line})"
        put_formula(sheet[line], f'IFERROR(MATCH(SMALL(ROSTER_RECORD_KEY,{place}),ROSTER_RECORD_KEY,0),"")')
        for column, (_, name) in enumerate(ROSTER_COLUMNS, start=1):
            shown(sheet.cell(row, column), value_at(name, line), column == 2)
        state = f'INDEX(ROSTER_STATE,{line})&IF(INDEX(ROSTER_CONDITIONS,{line})="","","; "&INDEX(ROSTER_CONDITIONS,{line}))'
        if bleeds:
            state += bleeding_note(line, healed)
        shown(sheet.cell(row, RIGHT), f'IF({line}="","",{state})', True)
        sheet.merge_cells(f"{get_column_letter(RIGHT)}{row}:{last}{row}")
        sheet.row_dimensions[row].height = ROW_HEIGHT
    end = first + ROSTER_SIZE - 1
    for left, right in ((1, len(ROSTER_COLUMNS)), (RIGHT, RIGHT + len(LOG_COLUMNS) - 1)):
        lines = f"{get_column_letter(left)}{first}:{get_column_letter(right)}{end}"
        ruled_when_filled(sheet, lines, f"${WORKING[0]}{first}")
    state_column = get_column_letter(RIGHT)
    define_name(
        book,
        "RECORD_STATE",
        absolute(sheet, f"{state_column}{first}", f"{state_column}{first + ROSTER_SIZE - 1}"),
    )
    for column, (_, name) in enumerate(ROSTER_COLUMNS, start=1):
        define_name(
            book,
            name.replace("ROSTER_", "RECORD_").removesuffix("_IN_USE"),
            absolute(
                sheet,
                f"{get_column_letter(column)}{first}",
                f"{get_column_letter(column)}{first + ROSTER_SIZE - 1}",
            ),
        )


def write_log(book: Workbook, sheet: Worksheet) -> tuple[str, str]:
    """The last filled log rows, in two blocks side by side; the formulas of how many fit and how
    many rows are filled."""
    put(sheet.cell(LOG_HEAD - 1, 1), "Attack log").font = SUBTITLE
    first, last = LOG_HEAD + 1, LOG_HEAD + LOG_ROWS
    slots = "(" + "+".join(f"ROWS(${w}${first}:${w}${last})" for w in WORKING[1:]) + ")"
    total = "INDEX(LOG_FILLED_COUNT,ROWS(LOG_FILLED_COUNT))"
    for block, (left, working) in enumerate(zip((1, RIGHT), WORKING[1:], strict=True)):
        for offset, (label, _) in enumerate(LOG_COLUMNS):
            style_header(sheet.cell(LOG_HEAD, left + offset, label))
        for row in range(first, last + 1):
            line = f"${working}{row}"
            entry = f"MAX(0,{total}-{slots})+ROWS(${working}${first}:{line})"
            if block:
                entry += f"+ROWS(${WORKING[1]}${first}:${WORKING[1]}${last})"
            put_formula(sheet[line], f'IF({entry}>{total},"",MATCH({entry},LOG_FILLED_COUNT,0))')
            more = "+".join(f'(INDEX({n},{line})<>"")' for n in ALSO_NAMES)
            also = f'&IF({more}=0,""," +"&({more}))'  # "Goblin 1 +3": a list of names shrank to 4 pt
            for offset, (_, key) in enumerate(LOG_COLUMNS):
                result = f"INDEX(LOG_RESULT,{line})"
                formula = (
                    f'IF({line}="","",INDEX(LOG_TARGET_NAME,{line}){also})'
                    if key == "TARGETS"
                    # "#ROLL? 1 to 20" shrank below 7 pt: its first word, the sheet says the rest
                    else f'IF({line}="","",IF(LEFT({result},1)="#",LEFT({result},FIND(" ",{result}&" ")-1),{result}))'
                    if key == "RESULT"
                    else value_at(LOG_NAMES[key], line)
                )
                shown(sheet.cell(row, left + offset), formula, key in ("ATTACKER", "TARGETS", "RESULT"))
            sheet.row_dimensions[row].height = ROW_HEIGHT
        result = get_column_letter(left + [key for _, key in LOG_COLUMNS].index("RESULT"))
        highlight_results(sheet, f"{result}{first}:{result}{last}", GRID)  # before the plain rule: it wins
        right = get_column_letter(left + len(LOG_COLUMNS) - 1)
        ruled_when_filled(sheet, f"{get_column_letter(left)}{first}:{right}{last}", f"${working}{first}")
        for offset, (_, key) in enumerate(LOG_COLUMNS):
            letter = get_column_letter(left + offset)
            define_name(
                book,
                f"{RECORD_PREFIX}LOG_{key}" + ("_MORE" if block else ""),
                absolute(sheet, f"{letter}{first}", f"{letter}{last}"),
            )
    return slots, total


def bleeding_note(line: str, healed: bool = False) -> str:
    """ "; bleeding 1 HP a round", or "; aided in round 3, bleeding stopped" once aided in a round up
    to the current one (the model: pycalc.encounter_record.bleeding_note)."""
    loss, aided = f"INDEX(ROSTER_BLEED_LOSS,{line})", f"INDEX(ROSTER_AIDED_ROUND,{line})"
    stopped = f'"; aided in round "&{aided}&", bleeding stopped"'
    bleeds = f'"; bleeding "&{loss}&" HP a round"'
    if healed:  # a heal row in a round after the combatant reached the band stops it too
        stop = f"INDEX(ROSTER_BLEED_STOP,{line})"
        bleeds = f'IF(N({stop})<=ENC_ROUND_NOW,"; healed in round "&{stop}&", bleeding stopped",{bleeds})'
    return (
        f"&IF(AND(ISNUMBER({loss}),N({loss})>0),IF(AND(ISNUMBER({aided}),N({aided})<=ENC_ROUND_NOW),{stopped},"
        f'{bleeds}),"")'
    )


def value_at(name: str, line: str) -> str:
    """The value on line ``line`` of the Encounter column ``name``; "" for an empty cell or line."""
    value = f"INDEX({name},{line})"
    return f'IF({line}="","",IF({value}="","",{value}))'


LOG_NAMES = {
    "ROUND": "LOG_ROUND_NOW",
    "ATTACKER": "LOG_ATTACKER_NAME",
    "ROLL": "LOG_ROLL",
    "RESULT": "LOG_RESULT",
    "HP_LOST": "LOG_HP_LOST",
}
ALSO_NAMES = ("LOG_ALSO_NAME_1", "LOG_ALSO_NAME_2", "LOG_ALSO_NAME_3")  # as the roster names them


def shown(cell: Cell, formula: str, shrink: bool = False) -> None:
    """A texts shrinks to its cell; a number is centred (never run into the name beside it). Its fill
    and rules come with a line that shows something (``ruled_when_filled``)."""
    put_formula(cell, formula)
    cell.font = RECORD_TEXT
    cell.alignment = SHRINK if shrink else CENTRED


def ruled_when_filled(sheet: Worksheet, cells: str, line: str) -> None:
    """The output fill and the grid on the lines of ``cells`` whose record line (``line``, the first
    row's working cell, relative by row) names something: an empty line prints as blank paper."""
    rule = FormulaRule(formula=[f'{line}<>""'], fill=fill(OUTPUT_FILL), border=GRID)
    sheet.conditional_formatting.add(cells, rule)
