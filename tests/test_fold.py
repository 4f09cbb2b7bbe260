"""Folding what literals decide in a formula (pycalc.sheets.fold), and the Encounter log that uses it."""

from __future__ import annotations

import html
import re

import pytest

from pycalc.sheets.fold import fold, is_literal, parse, text
from pycalc.sheets.workbook import parts_of, sheets_in
from pycalc.tables import PROJECT_ROOT

FOLDED = {
    "IF(FALSE,1,2)": "2",
    "IF(TRUE,a+b,0)*2": "(a+b)*2",  # an argument that is not one operand keeps its parentheses
    "IF(FALSE,1)": "FALSE",
    "IF(TRUE,,1)": "IF(TRUE,,1)",  # an empty argument is not folded
    "AND(NOT(FALSE),X)": "AND(X)",  # AND keeps turning its argument into TRUE or FALSE
    "AND(X,FALSE)": "FALSE",
    "OR(FALSE,AND(FALSE,TRUE))": "FALSE",
    "OR(X,TRUE)": "TRUE",
    "OR(FALSE,FALSE)": "FALSE",
    "AND(TRUE,TRUE)": "TRUE",
    "NOT(TRUE)": "FALSE",
    'IF(FALSE,INDEX(T,MATCH("a",U,0)),0)+IF(FALSE,1,0)': "0",
    "0+0-2+0.5": "-1.5",
    "(IF(FALSE,1,0))*$A1": "0*$A1",
    "SUM($A1)+(0)": "SUM($A1)+(0)",  # parentheses written around one operand stay
    '"IF(FALSE,1,2)"&A1': '"IF(FALSE,1,2)"&A1',  # text is never read as a formula
    "'My (sheet)'!A1+IF(FALSE,2)": "'My (sheet)'!A1+FALSE",
    'IF($A1,"x",IF(TRUE,"y",1))': 'IF($A1,"x","y")',
    "IF(TRUE,-1,1)*INT(2.5)": "(-1)*INT(2.5)",
    "IF(X=TRUE,1,2)": "IF(X=TRUE,1,2)",  # a comparison is not a literal
    "AND(1<>0,X)": "AND(X)",
    'IF("none"<>"Primary_hand",1,2)': "1",
    'IF("A"="a",1,2)': "1",  # text compares without case
    'IF(1="1",1,2)': 'IF(1="1",1,2)',  # a number against a text is left to the spreadsheet
    "IF(2.5>=3,1,2)": "2",
    "MAX({1,2},IF(TRUE,3,4))": "MAX({1,2},3)",
}


@pytest.mark.parametrize(("formula", "folded"), FOLDED.items())
def test_fold(formula: str, folded: str):
    assert fold(formula) == folded


@pytest.mark.parametrize("formula", ["IF(1,2", "SUM(1))", 'IF("a,1)'])
def test_unreadable_formulas_are_refused(formula: str):
    with pytest.raises(ValueError):
        fold(formula)


def test_is_literal():
    assert all(is_literal(f) for f in ["TRUE", "FALSE", "0", "-2.5", '"No charge"', '"say ""hi"""'])
    assert not any(is_literal(f) for f in ["A1", "1+1", '"a"&"b"', "TRUE()", ""])


def workbook_formulas(ruleset_id: str) -> dict[str, list[str]]:
    parts = parts_of((PROJECT_ROOT / "workbook" / f"{ruleset_id}.xlsx").read_bytes())
    return {
        title: [
            html.unescape(f.decode())
            for f in re.findall(rb"<f(?: t=\"shared\"[^>/]*)?>([^<]*)</f>", parts[part])
        ]
        for title, part in sheets_in(parts.__getitem__).items()
    }


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "combat17", "spelljammer", "bfrpg"])
def test_every_formula_reads_back_as_written_and_the_log_carries_nothing_decided(ruleset_id: str):
    """The parser reads every formula of the shipped workbook back character for character; the
    Encounter log's formulas have nothing left that their literals decide."""
    for title, formulas in workbook_formulas(ruleset_id).items():
        for formula in formulas:
            assert text(parse(formula)) == formula, (title, formula[:80])
            if title in ("Encounter", "Log"):
                assert fold(formula) == formula, formula[:200]
