"""The bfrpg workbooks as files: names, protection, Excel 2007 functions, no typed rule numbers."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest
import yaml

from pycalc import udfs
from pycalc.sheets.bfrpg import ATTACK_SHEET, MANEUVER_SHEET, WORKINGS_SHEET
from pycalc.sheets.d20_cells import EXACT_DIGITS
from pycalc.tables import load_ruleset
from pycalc.udfs import bfrpg as udfs_bfrpg

ATTACK_INPUTS = [
    "ATTACK_BONUS",
    "ATTACK_TARGET",
    "ATTACK_MODS",
    "ATTACK_ROLL",
    "ATTACK_FOLLOW_ROLL",
    "ATTACK_LEVEL",
    "ATTACK_DICE",
    "ATTACK_DAMAGE_ROLL",
]
ATTACK_OUTPUTS = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_EFFECT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE"]
EXCEL_2007 = {
    *[
        "NA",
        "ROUND",
        "ISBLANK",
        "TRIM",
        "TEXT",
        "REPLACE",
        "IF",
        "IFERROR",
        "INDEX",
        "MATCH",
        "N",
        "SUM",
        "MAX",
        "MIN",
        "INT",
        "AND",
        "OR",
        "NOT",
        "ISNUMBER",
        "ISERROR",
        "COUNTA",
        "COUNTIF",
        "COUNTIFS",
        "SMALL",
        "ROWS",
        "ROW",
        "SUMIFS",
        "SUMPRODUCT",
        "SUBSTITUTE",
        "CHOOSE",  # the notes beside the picks: the text of the row picked (ruling_text.choice_note)
    ],
    *["LEFT", "MID", "FIND", "SEARCH", "LOWER", "VALUE", "LEN"],  # SEARCH: the shared dice grid
}
FUNCTION_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.]*)\(")


@pytest.fixture(scope="module")
def folder(build_ruleset) -> Path:
    return build_ruleset("bfrpg")


@pytest.fixture(scope="module")
def xlsx(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "bfrpg.xlsx")


@pytest.fixture(scope="module")
def xlsm(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "bfrpg.xlsm", keep_vba=True)


def cell_of(book: openpyxl.Workbook, name: str):
    sheet_name, coordinate = next(iter(book.defined_names[name].destinations))
    return book[sheet_name][coordinate.replace("$", "")]


def formulas(book: openpyxl.Workbook, sheets=None) -> list[str]:
    return [
        c.value
        for s in book.worksheets
        if sheets is None or s.title in sheets
        for row in s.iter_rows()
        for c in row
        if c.data_type == "f"
    ]


def test_attack_names_exist_inputs_unlocked_outputs_locked(xlsx):
    for name in ATTACK_INPUTS:
        assert cell_of(xlsx, name).protection.locked is False, name
    for name in ATTACK_OUTPUTS:
        cell = cell_of(xlsx, name)
        assert cell.data_type == "f" and cell.protection.locked is not False, name
        assert cell.parent.protection.sheet is True


def test_workings_grid_covers_every_roll_and_confirmation_roll(xlsx):
    faces = load_ruleset("bfrpg").constant("attack_roll", "attack_die_faces")
    sheet = xlsx[WORKINGS_SHEET]
    assert sheet.sheet_state == "hidden"
    grid = [
        c
        for row in sheet.iter_rows(min_row=2, max_row=faces + 1, min_col=2, max_col=faces + 1)
        for c in row
        if c.data_type == "f"
    ]
    assert len(grid) == faces * faces
    assert xlsx.defined_names["ATTACK_GRID"].attr_text.endswith(f"$B$2:${grid[-1].column_letter}${faces + 1}")


def test_formulas_use_only_excel_2007_functions(xlsx):
    used = {m.upper() for f in formulas(xlsx) for m in FUNCTION_CALL.findall(f)}
    assert used <= EXCEL_2007, used - EXCEL_2007


def block_numbers(item: object) -> set[int]:
    """The numbers bfrpg's resolution block writes itself (in its YAML, not in Python)."""
    if isinstance(item, dict):
        return {n for value in item.values() for n in block_numbers(value)}
    if isinstance(item, list):
        return {n for value in item for n in block_numbers(value)}
    return {item} if isinstance(item, int) and not isinstance(item, bool) else set()


def allowed_numbers() -> set[int]:
    """The numbers a formula may type: 0, 1, the generic damage's rounding digits and the numbers of
    bfrpg's own YAML block."""
    header = yaml.safe_load((Path(__file__).parents[1] / "tables" / "bfrpg" / "ruleset.yaml").read_text())
    return {0, 1, EXACT_DIGITS} | block_numbers(header["resolution"])


def test_no_rule_number_is_typed_into_a_formula(xlsx):
    allowed = allowed_numbers()
    for formula in formulas(xlsx, {ATTACK_SHEET, MANEUVER_SHEET, WORKINGS_SHEET}):
        text = re.sub(r'"[^"]*"', "", formula)
        text = re.sub(r"\$?\b[A-Z_]+\$?[0-9]+\b", "", text)  # cell references
        numbers = {int(n) for n in re.findall(r"(?<![A-Za-z_$])\d+", text)}
        assert numbers <= allowed, formula


def test_every_xlsm_udf_exists(xlsm):
    called = {m for f in formulas(xlsm) for m in FUNCTION_CALL.findall(f) if m.upper() not in EXCEL_2007}
    assert {"d20_result", "d20_need", "bfrpg_attack_damage", "bfrpg_crit_chance"} <= called
    for name in called:
        assert callable(getattr(udfs, name, None) or getattr(udfs_bfrpg, name, None)), name
    assert set(udfs_bfrpg.__all__) <= {n for n in dir(udfs_bfrpg) if n.startswith("bfrpg_")}


def test_pickers_offer_the_yaml_rows(xlsx):
    lists = {dv.formula1 for dv in xlsx[ATTACK_SHEET].data_validations.dataValidation}
    assert {"T_CHARGE_OPTIONS_LABEL", "T_COVER_CONCEALMENT_LABEL", '"TRUE,FALSE"'} <= lists
