"""The built bfrpg workbooks as files: names, pickers, protection, no typed-in rule numbers, known
functions, Excel's formula length."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc import udfs
from pycalc.resolution_situation import picker_tables
from pycalc.sheets.bfrpg import MANEUVER_SHEET
from pycalc.sheets.calculator import ATTACK_SHEET
from pycalc.sheets.d20_cells import EXACT_DIGITS
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import load_ruleset
from tests.test_cnc_workbook import NOT_RULE_NUMBERS as CNC_NUMBERS
from tests.test_cnc_workbook import SPREADSHEET_FUNCTIONS as CNC_FUNCTIONS
from tests.workbook_files import cell_of, formulas, functions_called, numbers_typed

RULES = load_ruleset("bfrpg")
CHOICE_PICKERS, TOGGLE_PICKERS = picker_tables(RULES, "choice"), picker_tables(RULES, "toggle")
ATTACK_INPUTS = [
    "ATTACK_BONUS",
    "ATTACK_TARGET",
    "ATTACK_MODS",
    "ATTACK_ROLL",
    "ATTACK_FOLLOW_ROLL",
    "ATTACK_DICE",
    "ATTACK_DAMAGE_ROLL",
    "ATTACK_EXTRA_ROLL",
    "ATTACK_NUMBER_ATTACKER_STR",
    "ATTACK_NUMBER_ATTACKER_DEX",
]
ATTACK_OUTPUTS = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE"]
# and the digits a multiplied damage is rounded to (a halving's x.5 exactly, d20_cells.EXACT_DIGITS)
NOT_RULE_NUMBERS = CNC_NUMBERS | {EXACT_DIGITS}
# the multipliers; the maneuvers' dice checks; a surprise pick not in its list
SPREADSHEET_FUNCTIONS = CNC_FUNCTIONS | {"ROUND", "ISERROR", "ISNA"}
MANEUVER_OUTPUTS = ["JOUST_RESULT", "PARRY_SUCCESS", "SURPRISE_RESULT"]


@pytest.fixture(scope="module")
def folder(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset("bfrpg")


@pytest.fixture(scope="module")
def xlsx(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "bfrpg.xlsx")


@pytest.fixture(scope="module")
def xlsm(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "bfrpg.xlsm", keep_vba=True)


def test_attack_names_exist_with_inputs_unlocked_and_outputs_locked(xlsx):
    for name in ATTACK_INPUTS:
        assert cell_of(xlsx, name).protection.locked is False, name
    for name in ATTACK_OUTPUTS + MANEUVER_OUTPUTS:
        cell = cell_of(xlsx, name)
        assert cell.protection.locked is not False and str(cell.value).startswith("="), name
    assert xlsx[ATTACK_SHEET].protection.sheet and xlsx[MANEUVER_SHEET].protection.sheet
    assert xlsx.sheetnames.index(MANEUVER_SHEET) == xlsx.sheetnames.index(ATTACK_SHEET) + 1


def test_every_picker_table_of_the_block_is_offered(xlsx):
    for table_id in CHOICE_PICKERS:
        assert cell_of(xlsx, pick_name(table_id)).value == RULES.table(table_id).rows[0].label
    for table_id in TOGGLE_PICKERS:
        for row in RULES.table(table_id).rows:
            assert cell_of(xlsx, pick_name(table_id, row.id)).value is False


@pytest.mark.parametrize("which", ["xlsx", "xlsm"])
def test_no_number_is_typed_into_a_formula(which, request):
    assert not numbers_typed(request.getfixturevalue(which), NOT_RULE_NUMBERS)


def test_native_formulas_use_only_excel_2007_functions(xlsx):
    used = functions_called(xlsx)
    assert used <= SPREADSHEET_FUNCTIONS, used - SPREADSHEET_FUNCTIONS


def test_xlsm_formulas_call_existing_udfs(xlsm):
    known = {n.upper() for n in dir(udfs) if not n.startswith("_")}
    custom = functions_called(xlsm) - SPREADSHEET_FUNCTIONS
    assert custom and custom <= known, custom - known
    assert "bfrpg_joust_result" in cell_of(xlsm, "JOUST_RESULT").value  # the Combat maneuvers' functions


@pytest.mark.parametrize("which", ["xlsx", "xlsm"])
def test_formulas_fit_excels_length_limit(which, request):
    longest = max(len(f) for f in formulas(request.getfixturevalue(which)))
    assert longest < 8192  # Excel's limit on a formula's length
