"""How the Encounter and Log sheets read: labels, widths, notes and the void rows' look."""

from __future__ import annotations

from typing import Any

from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.encounter_rulesets import LogRoll
from pycalc.log_picks import IGNORED, SEPARATOR, Pick, normalized, picks_list
from pycalc.sheets.common import (
    absolute,
)
from pycalc.sheets.encounter_cells import WORKING_FROM, Columns, literal
from pycalc.sheets.formulas import q


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
