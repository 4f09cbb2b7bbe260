"""The generated workbooks as files: names, protection, formulas a 2010 Excel understands, the .xlsm."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from pycalc import udfs
from pycalc.sheets.workbook import UDF_MODULE

REQUIRED_NAMES = {
    "inputs": [
        "STRIKE_SC",
        "STRIKE_DEF",
        "STRIKE_MODS",
        "STRIKE_ROLL",
        "STRIKE_DAMAGE",
        "STRIKE_PROT",
        "TARGET_CON",
        "TARGET_SIZE",
        "TARGET_MAX_HP",
        "TARGET_HP",
        "TARGET_START_HP",
    ],
    "outputs": [
        "STRIKE_MODIFIED_SC",
        "STRIKE_CRITICAL_UP_TO",
        "STRIKE_GRIEVOUS_UP_TO",
        "STRIKE_OUTCOME",
        "STRIKE_HP_LOST",
        "TARGET_STUNNED",
        "TARGET_WOUND_MOD",
        "STRIKE_CHANCE_TO_HIT",
    ],
}
FORBIDDEN = re.compile(
    r"\b(XLOOKUP|LET|FILTER|SORT|UNIQUE|SEQUENCE|LAMBDA|IFS|SWITCH|MAXIFS|MINIFS|TEXTJOIN|CONCAT)\(", re.I
)
FUNCTION_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.]*)\(")
EXCEL_FUNCTIONS = {
    "INDEX",
    "MATCH",
    "IF",
    "IFERROR",
    "COUNTA",
    "COUNTIF",
    "COUNTIFS",
    "SMALL",
    "SUMIFS",
    "INT",
    "MAX",
    "MIN",
    "N",
    "ROWS",
    "ROW",
    "OR",
    "AND",
    "NOT",
    "ISNUMBER",
    "LEFT",
    "UPPER",
    "SUMPRODUCT",
    "SUBSTITUTE",
    "SUM",
    "FIND",
    "LEN",
    "LOWER",
    "MID",
    "SEARCH",
    "VALUE",
    "TRIM",
    "NA",
    "TEXT",
    "REPLACE",
    "COUNT",  # the attacks a Spelljammer combatant's initiative rolls give
    "CHOOSE",  # the number of a Spelljammer attacker's first, second or third attack
}


def cell_of(book: openpyxl.Workbook, name: str):
    sheet_name, coordinate = next(iter(book.defined_names[name].destinations))
    return book[sheet_name][coordinate.replace("$", "")]


@pytest.fixture(scope="module")
def xlsx(built: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(built / "spelljammer.xlsx")


@pytest.fixture(scope="module")
def xlsm(built: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(built / "spelljammer.xlsm", keep_vba=True)


def formulas(book: openpyxl.Workbook) -> list[str]:
    return [c.value for s in book.worksheets for row in s.iter_rows() for c in row if c.data_type == "f"]


def test_required_defined_names_point_at_one_cell(xlsx):
    for name in REQUIRED_NAMES["inputs"] + REQUIRED_NAMES["outputs"]:
        assert name in xlsx.defined_names, name
        assert len(list(xlsx.defined_names[name].destinations)) == 1


def test_inputs_are_unlocked_and_formulas_locked_on_protected_sheets(xlsx):
    for name in REQUIRED_NAMES["inputs"]:
        assert cell_of(xlsx, name).protection.locked is False, name
    for name in REQUIRED_NAMES["outputs"]:
        cell = cell_of(xlsx, name)
        assert cell.protection.locked is not False and cell.data_type == "f", name
        assert cell.parent.protection.sheet is True


def test_formulas_use_only_functions_excel_2010_and_libreoffice_share(xlsx):
    used = {m.upper() for f in formulas(xlsx) for m in FUNCTION_CALL.findall(f)}
    assert used <= EXCEL_FUNCTIONS, used - EXCEL_FUNCTIONS
    assert not any(FORBIDDEN.search(f) for f in formulas(xlsx))


def test_no_rule_number_is_typed_into_a_calculator_formula(xlsx):
    """Numbers come from the table sheets: a formula may hold 0 and 1 (logic), nothing else."""
    for sheet_name in ("Strike calculator", "Defense & casting"):
        for row in xlsx[sheet_name].iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    text = re.sub(r'"[^"]*"', "", cell.value)  # messages may quote
                    text = re.sub(r"\b[A-Z_]+[0-9]+\b", "", text)  # cell references
                    numbers = {int(n) for n in re.findall(r"(?<![A-Za-z_])\d+", text)}
                    assert numbers <= {0, 1}, (cell.coordinate, cell.value)


def test_every_table_column_is_named(xlsx):
    from pycalc.sheets.common import table_name
    from pycalc.tables import load_ruleset

    for table in load_ruleset("spelljammer").tables.values():
        for column in table.columns:
            assert table_name(table.id, column.id) in xlsx.defined_names


def test_dropdowns_list_the_yaml_rows(xlsx):
    sheet = xlsx["Strike calculator"]
    lists = {dv.formula1 for dv in sheet.data_validations.dataValidation}
    assert "T_LIGHTING_LABEL" in lists and "T_STUN_SIZE_LABEL" in lists and '"TRUE,FALSE"' in lists


def test_xlsm_is_macro_enabled_with_the_xlwings_vba_project(built: Path):
    with zipfile.ZipFile(built / "spelljammer.xlsm") as archive:
        content_types = archive.read("[Content_Types].xml").decode()
        assert "application/vnd.ms-excel.sheet.macroEnabled.main+xml" in content_types
        vba = archive.read("xl/vbaProject.bin")
        assert b"xlwings" in vba
        assert "vbaProject" in archive.read("xl/_rels/workbook.xml.rels").decode()


def test_xlsm_conf_sheet_holds_only_the_udf_module(xlsm):
    rows = [tuple(c.value for c in r) for r in xlsm["xlwings.conf"].iter_rows()]
    assert rows == [("UDF Modules", UDF_MODULE)]
    assert "_xlwings.conf" not in xlsm.sheetnames


def test_every_function_an_xlsm_formula_calls_exists_in_the_udf_module(xlsm):
    called = {m for f in formulas(xlsm) for m in FUNCTION_CALL.findall(f)}
    ours = {name for name in called if name.upper() not in EXCEL_FUNCTIONS}
    assert ours, "the .xlsm calls no UDF"
    for name in ours:
        assert callable(getattr(udfs, name, None)), f"{name} is not in pycalc.udfs"
    assert {"strike_result", "strike_hp_loss", "is_stunned", "stun_threshold", "wound_modifier"} <= ours


def test_yaml_text_starting_with_equals_is_written_as_text(tmp_path: Path, monkeypatch):
    from pycalc.sheets.common import put

    sheet = openpyxl.Workbook().active
    cell = put(sheet["A1"], '=HYPERLINK("http://x")')
    assert cell.data_type == "s"


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "combat17", "spelljammer", "bfrpg"])
def test_every_workbook_opens_on_its_calculator_with_one_tab_selected(ruleset_id: str, build_ruleset):
    for suffix in ("xlsx", "xlsm"):
        book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}")
        expected = "Strike calculator" if ruleset_id == "spelljammer" else "Attack calculator"
        assert book.active.title == expected
        assert [s.title for s in book.worksheets if s.sheet_view.tabSelected] == [expected]
        # the cursor on the first yellow cell: the attacker picked from the roster
        first = next(c for row in book.active.iter_rows() for c in row if c.protection.locked is False)
        assert first.coordinate == "B3" and "Attacker" in str(book.active["A3"].value)
        assert [(s.activeCell, s.sqref) for s in book.active.sheet_view.selection] == [("B3", "B3")]
