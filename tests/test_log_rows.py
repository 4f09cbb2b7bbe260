"""How the Encounter log's rows carry the calculator's formulas (pycalc.sheets.log_rows)."""

from __future__ import annotations

import pytest
from openpyxl import Workbook

from pycalc.sheets.fold import Call, text
from pycalc.sheets.log_rows import (
    LITERAL,
    ONCE,
    ROW,
    ROW_MARK,
    Cells,
    PartsArea,
    RowFormula,
    RowTemplate,
    gives_boolean,
    plan_rows,
)

LOOKUP = 'INDEX(T_ROLL_VALUE,MATCH("threat",T_ROLL_ID,0))'
BLANK_LOOKUP = 'INDEX(T_ROLL_VALUE,MATCH("unset",T_ROLL_ID,0))'
DICE_AFTER_D = 'MID(DICE,FIND("d",LOWER(DICE))+1,LEN(DICE))'


def filled(call: Call) -> bool:
    return text([call]) == LOOKUP  # the "unset" entry's cell is blank


CELLS = Cells(
    ranges=frozenset({"T_ROLL_VALUE", "T_ROLL_ID", "T_BONUSES"}),
    blankable=frozenset({"ROLL"}),
    fixed=filled,
)


def plan(formulas: dict[str, str], other: dict[str, str] | None = None) -> list[dict[str, RowFormula]]:
    files = [formulas, other or formulas]
    defaults = [{"CHARGING": "FALSE", "SITUATION": '"None"'}] * 2
    return plan_rows(list(formulas), files, defaults, {"ROLL", "DICE"}, 0, CELLS)


def test_defaults_fold_to_literals_and_what_reads_no_row_cell_is_worked_out_once():
    native = plan(
        {
            "BONUS": "IF(CHARGING,2,0)",
            "THREAT": f"IF(CHARGING,0,{LOOKUP})",
            "HIT": "IF(ROLL>=THREAT,BONUS+1,0)",
        }
    )[0]
    assert native["BONUS"] == RowFormula("0", LITERAL)
    assert native["THREAT"] == RowFormula(LOOKUP, ONCE)
    assert native["HIT"] == RowFormula("IF(ROLL>=THREAT,1,0)", ROW)


def test_a_fixed_lookup_inside_a_row_formula_is_worked_out_once_a_blank_one_stays():
    native = plan({"NEED": f"ROLL+{LOOKUP}+{BLANK_LOOKUP}"})[0]
    assert native["NEED"] == RowFormula("ROLL+LOG_ONCE_1+INDEX(T_ROLL_VALUE,LOG_ONCE_2)", ROW)
    assert native["LOG_ONCE_1"] == RowFormula(LOOKUP, ONCE)
    assert native["LOG_ONCE_2"] == RowFormula('MATCH("unset",T_ROLL_ID,0)', ONCE)


def test_a_part_recurring_on_the_row_gets_its_own_column_in_both_files():
    formulas = {
        "SIDES": f"VALUE(LEFT({DICE_AFTER_D},2))",
        "BONUS": f"VALUE(RIGHT({DICE_AFTER_D},1))",
    }
    native, macro = plan(
        formulas, {"SIDES": "PYCALC_SIDES(DICE)", "BONUS": f"VALUE(RIGHT({DICE_AFTER_D},1))"}
    )
    assert native["LOG_SHARED_1"] == macro["LOG_SHARED_1"] == RowFormula(DICE_AFTER_D, ROW)
    assert native["SIDES"].template == "VALUE(LEFT(LOG_SHARED_1,2))"
    assert macro["SIDES"].template == "PYCALC_SIDES(DICE)"  # the .xlsm keeps its own formula
    assert macro["BONUS"].template == "VALUE(RIGHT(LOG_SHARED_1,1))"


def test_parts_a_cell_would_change_stay_in_place():
    """A bare input the GM may leave blank, a range read by implicit intersection, and a blank
    table cell would each read differently through a cell of their own."""
    blank_roll = "IF(AND(ISNUMBER(DICE),LEN(DICE)>2),ROLL,0)+" * 2 + "0"
    intersected = "IF(AND(T_BONUSES>0,LEN(DICE)<9,DICE<>5),1,0)"
    native = plan(
        {
            "A": blank_roll,
            "B": f"{intersected}+{intersected}+LEN(DICE)",
            "C": f'IF({BLANK_LOOKUP}="",1,2)',
        }
    )[0]
    assert not any(name.startswith("LOG_SHARED_") for name in native)
    assert native["A"].template == blank_roll
    assert native["B"].template == f"{intersected}+{intersected}+LEN(DICE)"
    assert native["C"] == RowFormula(f'IF({BLANK_LOOKUP}="",1,2)', ONCE)  # reads no row cell: one cell


def test_a_workings_column_reads_its_fixed_parts_from_cells_written_once():
    book = Workbook()
    sheet = book.active
    area = PartsArea(sheet, 10, 1, CELLS)
    hits = area.column_formula(lambda face: f"IF({face}>={LOOKUP},1,0)")
    crits = area.column_formula(lambda face: f"IF(AND({face}>={LOOKUP},{face}=20),1,0)")
    assert [hits("$A7"), crits("$A8")] == ["IF($A7>=$J$1,1,0)", "IF(AND($A8>=$J$1,$A8=20),1,0)"]
    assert sheet["J1"].value == f"={LOOKUP}" and sheet["J2"].value is None  # one cell for both
    blank = area.column_formula(lambda face: f"{face}+{BLANK_LOOKUP}")
    assert blank("$A9") == "$A9+INDEX(T_ROLL_VALUE,$J$2)"  # a blank cell's look-up stays in place


def test_a_part_giving_true_or_false_is_known_by_its_shape():
    flags = frozenset({"T_ROLL_FLAG"})
    booleans = [
        "AND(A,B)",
        "$A1>=3",
        "(A=1)",
        "ISNUMBER(A)",
        "IF(A,TRUE,B>2)",
        "INDEX(T_ROLL_FLAG,MATCH(1,T,0))",
    ]
    others = ['IF(A,"x=y",1)', "INDEX(T_ROLL_VALUE,3)", "IF(A,1,0)", '"a"&"="', "IF($C5=0,0,VALUE(1))"]
    assert all(gives_boolean(f, flags) for f in booleans)
    assert not any(gives_boolean(f, flags) for f in others)


def test_a_row_template_fills_in_each_rows_number_and_the_row_above():
    above = f"$B$5:$B${ROW_MARK - 1}"
    template = RowTemplate.of(
        {
            2: f"=SUMIFS({above},$C$5:$C${ROW_MARK - 1},$C{ROW_MARK})+$D$4",
            3: f'=IF($A{ROW_MARK}="{{x}}",1,0)',  # braces in a text stay
        }
    )
    assert template.formulas(8) == {
        2: "=SUMIFS($B$5:$B$7,$C$5:$C$7,$C8)+$D$4",
        3: '=IF($A8="{x}",1,0)',
    }


def test_a_row_template_refuses_the_mark_anywhere_but_in_a_reference():
    with pytest.raises(ValueError, match="other than as a row"):
        RowTemplate.of({1: f"=$A{ROW_MARK}+{ROW_MARK}"})
