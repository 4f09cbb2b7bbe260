"""One entry check for every roll cell: the calculators' and the attack log's roll cells refuse at entry
what their die cannot show, with the same input message where they feed the same calculator input."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from pycalc.encounter_rulesets import adapter
from pycalc.sheets.roll_entry import log_roll
from pycalc.tables import RULESET_IDS, load_ruleset

WORKBOOKS = Path(__file__).resolve().parent.parent / "workbook"


def check_of(book: openpyxl.Workbook, name: str) -> DataValidation | None:
    """The whole-number check on the first cell of a defined name."""
    sheet, ref = next(iter(book.defined_names[name].destinations))
    cell = ref.replace("$", "").split(":")[0]
    for check in book[sheet].data_validations.dataValidation:
        if check.type == "whole" and cell in check.sqref:
            return check
    return None


def entry(check: DataValidation | None) -> tuple[object, ...] | None:
    if check is None:
        return None
    return (check.operator, check.formula1, check.formula2, check.promptTitle, check.prompt, check.error)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_roll_cell_has_its_die_range_and_message(ruleset_id: str) -> None:
    book = openpyxl.load_workbook(WORKBOOKS / f"{ruleset_id}.xlsx")
    names = [
        n for n in book.defined_names if "ROLL" in n and n.isupper() and not n.startswith("T_")
    ]  # T_: tables
    rolls = []
    for name in names:
        sheet, ref = next(iter(book.defined_names[name].destinations))
        cell = book[sheet][ref.replace("$", "").split(":")[0]]
        if cell.protection.locked or cell.data_type == "f":
            continue  # an output or a working cell, not one the GM types
        rolls.append(name)
        check = check_of(book, name)
        assert check is not None and check.showInputMessage and check.showErrorMessage, name
        assert check.prompt and check.promptTitle and int(check.formula1) >= 0, name
    assert len(rolls) >= 3


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_log_roll_takes_what_the_calculator_roll_it_feeds_takes(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    book = openpyxl.load_workbook(WORKBOOKS / f"{ruleset_id}.xlsx")
    for roll in adapter(rules).rolls:
        column = f"LOG_{roll.field.upper()}"
        if column not in book.defined_names:
            continue
        log_check = check_of(book, column)
        assert entry(log_check) is not None, column
        expected = log_roll(rules, roll)
        assert log_check.prompt == expected.message()[1], column
        if roll.calculator_name in book.defined_names and "ROLL" in roll.calculator_name:
            assert entry(check_of(book, roll.calculator_name)) == entry(log_check), (
                column,
                roll.calculator_name,
            )
        if expected.high is not None:  # the dice shown and a distance: from 0, no top
            assert log_check.operator == "between"
            assert (int(log_check.formula1), int(log_check.formula2)) == (expected.low, expected.high)
