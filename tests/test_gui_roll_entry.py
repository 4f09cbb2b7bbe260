"""A roll the die cannot show is refused as it is typed, on the calculator and in the attack log alike,
in the real LibreOffice window (AutoInput on, as shipped): the GM types it, LibreOffice shows the roll's
message (its title names the die), the GM presses Enter and the cell is left empty; a roll the die can
show is taken (on a d100, 0 for 00)."""

from __future__ import annotations

import time
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter_rulesets import adapter
from pycalc.sheets.roll_entry import RollRange, log_roll
from pycalc.tables import RULESET_IDS, load_ruleset
from tests.calc_window import CalcWindow
from tests.test_gui_window import window, window_tools  # noqa: F401 (a fixture)

CALCULATOR_ROLL = {"spelljammer": "STRIKE_ROLL"}  # else ATTACK_ROLL


def first_cell(book: openpyxl.Workbook, name: str) -> tuple[str, str]:
    """(sheet, cell) of the first cell of a defined name."""
    sheet, ref = next(iter(book.defined_names[name].destinations))
    return sheet, ref.replace("$", "").split(":")[0]


def name_box(sheet: str, cell: str) -> str:
    return f"$'{sheet}'.{cell}" if " " in sheet else f"{sheet}.{cell}"


def refused(calc: CalcWindow, where: str, typed: str, roll: RollRange) -> bool:
    """Type ``typed`` into ``where`` and press Enter; whether the roll's error message came up (it is
    then closed with Enter, as a GM does)."""
    calc.enter(where, typed)
    title, _ = roll.message()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        found = calc.xdotool("search", "--onlyvisible", "--name", f"^{title}$", check=False).split()
        if found:
            calc.xdotool("windowfocus", "--sync", found[-1], check=False)
            calc.xdotool("key", "--window", found[-1], "Return")
            time.sleep(0.3)
            calc.focus()
            return True
        time.sleep(0.2)
    return False


@pytest.mark.timeout(240)
@pytest.mark.usefixtures("window_tools")
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_roll_the_die_cannot_show_is_refused_as_typed(ruleset_id: str, tmp_path: Path) -> None:
    rules = load_ruleset(ruleset_id)
    xlsx = Path(__file__).resolve().parent.parent / "workbook" / f"{ruleset_id}.xlsx"
    book = openpyxl.load_workbook(xlsx)
    roll = log_roll(rules, adapter(rules).rolls[0])
    assert roll.high is not None
    log_sheet, log_cell = first_cell(book, "LOG_ROLL")
    calc_sheet, calc_cell = first_cell(book, CALCULATOR_ROLL.get(ruleset_id, "ATTACK_ROLL"))
    taken = "0" if roll.zero_reads else str(roll.high)
    with window(xlsx, tmp_path) as calc:
        for sheet, cell in ((log_sheet, log_cell), (calc_sheet, calc_cell)):
            where = name_box(sheet, cell)
            assert refused(calc, where, str(roll.high + 1), roll), f"{where}: {roll.high + 1} was taken"
            assert refused(calc, where, "-1", roll), f"{where}: -1 was taken"
            assert not refused(calc, where, taken, roll), f"{where}: {taken} was refused"
        calc.save()
        saved = openpyxl.load_workbook(calc.path)
    for sheet, cell in ((log_sheet, log_cell), (calc_sheet, calc_cell)):
        assert saved[sheet][cell].value == int(taken), f"{sheet}!{cell}"
