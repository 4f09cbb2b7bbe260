"""Where the row ids the formulas match on are written: right of what the first hidden sheet holds
(one sheet fewer for LibreOffice to load), or on a hidden sheet of their own when there is none."""

from __future__ import annotations

from openpyxl import Workbook

from pycalc.sheets.reference import ROW_IDS_SHEET, write_hidden_column


def test_ids_go_right_of_what_the_first_hidden_sheet_holds():
    book = Workbook()
    workings = book.create_sheet("Workings")
    workings.sheet_state = "hidden"
    workings["C3"] = 1
    write_hidden_column(book, "T_X_ID", "x", ["a", "b"])
    write_hidden_column(book, "T_Y_ID", "y", ["c"])
    assert book.sheetnames == ["Sheet", "Workings"]
    assert [[workings.cell(row, col).value for row in (1, 2, 3)] for col in (4, 5)] == [
        ["x", "a", "b"],
        ["y", "c", None],
    ]
    assert book.defined_names["T_X_ID"].attr_text == "'Workings'!$D$2:$D$3"
    assert book.defined_names["T_Y_ID"].attr_text == "'Workings'!$E$2"


def test_without_a_hidden_sheet_the_ids_get_one_of_their_own():
    book = Workbook()
    write_hidden_column(book, "T_X_ID", "x", ["a"])
    sheet = book[ROW_IDS_SHEET]
    assert sheet.sheet_state == "hidden"
    assert [sheet["A1"].value, sheet["A2"].value] == ["x", "a"]
    assert book.defined_names["T_X_ID"].attr_text == f"'{ROW_IDS_SHEET}'!$A$2"
