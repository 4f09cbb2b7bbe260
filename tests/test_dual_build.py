"""One book saved as both files (``pycalc.sheets.dual``) gives the very files each built on its own."""

from __future__ import annotations

import argparse
from pathlib import Path

import openpyxl
import pytest

import build
from pycalc.sheets.dual import Both, both, changed, macro_text, same
from pycalc.sheets.workbook import SavedSheet, build_both, build_workbook, to_macro, workbook_parts
from pycalc.table_files import RULESET_IDS
from pycalc.tables import load_folder, tables_dir


def different_parts(one: dict[str, bytes], other: dict[str, bytes]) -> list[str]:
    return sorted(name for name in one.keys() | other.keys() if one.get(name) != other.get(name))


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_one_book_saves_the_files_each_build_makes(ruleset_id: str):
    """Byte for byte: a pass that dropped the .xlsm's text of a cell (a UDF call) would show here."""
    rules = load_folder(tables_dir() / ruleset_id)
    book = build_both(rules)
    sheets: dict[str, SavedSheet] = {}
    xlsx = workbook_parts(book, kept=sheets)
    held = sum(type(c._value) is Both for s in book.worksheets for c in s._cells.values())
    to_macro(book)
    xlsm = workbook_parts(book, given=sheets)
    assert (
        held >= 4
    )  # the subsystems' calculators, the Encounter and the Contents line hold both texts (bfrpg: 5)
    assert set(sheets) == set(book.sheetnames) - {"xlwings.conf"}  # every sheet written once
    assert different_parts(xlsx, workbook_parts(build_workbook(rules, macro=False))) == []
    assert different_parts(xlsm, workbook_parts(build_workbook(rules, macro=True))) == []
    assert "xl/vbaProject.bin" in xlsm and "xl/vbaProject.bin" not in xlsx
    assert xlsm["xl/theme/theme1.xml"] == xlsx["xl/theme/theme1.xml"]  # the .xlsm looks as the .xlsx


def cell(book: openpyxl.Workbook, name: str):
    sheet, ref = next(iter(book.defined_names[name].destinations))
    return book[sheet][ref.replace("$", "")]


def args_for(out: Path) -> argparse.Namespace:
    return build.parse_args(["--out", str(out), "--quiet"])


def test_each_file_keeps_its_own_inputs_as_if_built_alone(tmp_path: Path):
    """The .xlsx's kept inputs are taken back out of the book before the .xlsm takes its own: both
    files are what building each on its own over the same old files gives, byte for byte."""
    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    xlsx, xlsm = out / "spelljammer.xlsx", out / "spelljammer.xlsm"
    for path, (sc, size) in ((xlsx, (131, "Giant")), (xlsm, (95, None))):
        book = openpyxl.load_workbook(path, keep_vba=path.suffix == ".xlsm")
        cell(book, "STRIKE_SC").value = sc
        if size:
            cell(book, "TARGET_SIZE").value = size
        book.save(path)
    rules = load_folder(tables_dir() / "spelljammer")
    made = build.both_parts_kept(rules, [xlsx, xlsm], args_for(out))
    alone = {path: build.workbook_parts_kept(rules, path, args_for(out)) for path in (xlsx, xlsm)}
    assert made[xlsx][1] == alone[xlsx][1] and "STRIKE_SC = 131" in made[xlsx][1]
    assert made[xlsm][1] == alone[xlsm][1] and "STRIKE_SC = 95" in made[xlsm][1]
    assert "TARGET_SIZE" not in made[xlsm][1]
    assert different_parts(made[xlsx][0], alone[xlsx][0]) == []
    assert different_parts(made[xlsm][0], alone[xlsm][0]) == []


def test_a_gm_sheet_of_the_xlsx_stays_out_of_the_xlsm(tmp_path: Path):
    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    xlsx, xlsm = out / "spelljammer.xlsx", out / "spelljammer.xlsm"
    book = openpyxl.load_workbook(xlsx)
    book.create_sheet("My notes")["A1"] = "Ogre chief"
    book.save(xlsx)
    book = openpyxl.load_workbook(xlsm, keep_vba=True)
    book.create_sheet("Macro notes")["A1"] = "Beholder"
    book.save(xlsm)
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    assert openpyxl.load_workbook(xlsx)["My notes"]["A1"].value == "Ogre chief"
    rebuilt = openpyxl.load_workbook(xlsm)
    assert "My notes" not in rebuilt.sheetnames and rebuilt["Macro notes"]["A1"].value == "Beholder"


def test_both_texts_follow_every_change():
    formula = both("=A1+T_X", "=udf(T_X)")
    assert isinstance(formula, Both) and str(formula) == "=A1+T_X" and macro_text(formula) == "=udf(T_X)"
    assert both("=A1", "=A1") == "=A1" and type(both("=A1", "=A1")) is str
    renamed = changed(formula, lambda text: text.replace("T_X", "T_Y"))
    assert (str(renamed), macro_text(renamed)) == ("=A1+T_Y", "=udf(T_Y)")
    assert not same(formula, both("=A1+T_X", "=udf(T_Z)")) and same(formula, both("=A1+T_X", "=udf(T_X)"))
    assert changed("=A1", str.lower) == "=a1" and macro_text(3) == 3


def test_a_column_whose_macro_formulas_share_otherwise_is_written_again():
    """Where the .xlsm's formulas do not make the .xlsx's runs, its rows are not kept: the .xlsm's
    save writes the sheet as a book holding the .xlsm's text alone does."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row in range(1, 5):
        sheet.cell(row, 1).value = row
        sheet.cell(row, 2).value = f"=A{row}+1"
        sheet.cell(row, 2)._value = both(f"=A{row}+1", f"=udf_{row}(A{row})")  # no run in the .xlsm
        sheet.cell(row, 3).value = f"=B{row}*2"
    sheets: dict[str, SavedSheet] = {}
    workbook_parts(book, kept=sheets)
    assert sheets == {}
    for row in range(1, 5):
        sheet.cell(row, 2)._value = macro_text(sheet.cell(row, 2)._value)
    macro = workbook_parts(book, given=sheets)["xl/worksheets/sheet1.xml"]
    assert b"udf_3(A3)" in macro and b'ref="C1:C4"' in macro and b'ref="B1:B4"' not in macro
