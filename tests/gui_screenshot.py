"""The README's picture: round 3 of a fight on the Log sheet, in a LibreOffice Calc window at 1366x768
and 100% zoom (``tests.calc_window``), the attacks typed with short names, two of round 3 still to come.

    python -m tests.gui_screenshot workbook/cnc.xlsx workbook/encounter-midfight.png
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import openpyxl

from pycalc.encounter import short_names
from pycalc.tables import load_ruleset
from tests.calc_window import CalcWindow
from tests.test_encounter_parity import sheet_inputs
from tests.test_gui_window import NAMES, cells_to_type, places, three_round_fight


def midfight(xlsx: Path, folder: Path) -> Path:
    """The workbook with round 3 of the window tests' fight typed in (two attacks of it to come)."""
    ruleset_id = xlsx.stem
    rules = load_ruleset(ruleset_id)
    fight = three_round_fight(ruleset_id)[-1]
    short = dict(zip(NAMES, short_names(fight.roster), strict=True))
    attacks = [replace(a, attacker=short[a.attacker], target=short[a.target]) for a in fight.attacks[:-2]]
    fight = replace(fight, attacks=attacks)
    book = openpyxl.load_workbook(xlsx)
    for (sheet, row, column), text in cells_to_type(book, sheet_inputs(rules, fight)).items():
        book[sheet].cell(row, column).value = int(text) if text.lstrip("-").isdigit() else text
    for sheet in book.worksheets:
        sheet.sheet_view.tabSelected = sheet.title == "Log"
    book.active = book.sheetnames.index("Log")
    path = folder / xlsx.name
    book.save(path)
    return path


def screenshot(xlsx: Path, picture: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "source"
        source.mkdir()
        book = midfight(xlsx, source)
        with CalcWindow(book, folder, folder / "shots") as calc:
            time.sleep(2.0)
            attacker = places(openpyxl.load_workbook(book), "LOG_ATTACKER")
            calc.goto(f"Log.A{attacker[10][0]}")  # the next attack's line
            time.sleep(1.0)
            shot = calc.screenshot("midfight")
            assert shot is not None
            picture.write_bytes(shot.read_bytes())


if __name__ == "__main__":
    screenshot(Path(sys.argv[1]), Path(sys.argv[2]))
