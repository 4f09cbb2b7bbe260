"""Dice expressions: parsing, exact distributions against brute force, and the sheet's dice formulas."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import dice
from pycalc.errors import RuleError


@pytest.mark.parametrize(
    "text, count, sides, modifier",
    [
        ("2d4+2", 2, 4, 2),
        ("d8", 1, 8, 0),
        ("10d6", 10, 6, 0),
        ("1d6-1", 1, 6, -1),
        (" 3 d 6 + 1 ", 3, 6, 1),
        ("3", 0, 0, 3),
        (4.0, 0, 0, 4),
    ],
)
def test_parse(text, count, sides, modifier):
    assert dice.parse(text) == dice.Dice(count, sides, modifier)


@pytest.mark.parametrize("text", ["", None, "2x", "d", "1d0", "2d4+", "0d6", "1d6*2"])
def test_unreadable_dice_say_how_to_write_them(text):
    with pytest.raises(RuleError, match=r"^#DICE\?"):
        dice.parse(text)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 3), st.integers(1, 8), st.integers(-5, 5))
def test_distribution_equals_brute_force(count: int, sides: int, modifier: int):
    expression = dice.Dice(count, sides, modifier)
    brute: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(faces) + modifier
        brute[total] = brute.get(total, 0) + Fraction(1, sides**count)
    assert dice.distribution(expression) == brute
    assert sum(p * t for t, p in brute.items()) == expression.mean
    assert (min(brute), max(brute)) == (expression.minimum, expression.maximum)


def test_sheet_dice_formulas_read_expressions_as_the_engine_does(calc, tmp_path):
    import openpyxl

    from pycalc.sheets.common import define_name
    from pycalc.sheets.formulas import dice_count, dice_modifier, dice_sides

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "1d6"
    define_name(book, "IN_DICE", "Sheet!$A$1")
    for cell, formula in (
        ("B1", dice_count("IN_DICE")),
        ("C1", dice_sides("IN_DICE")),
        ("D1", dice_modifier("IN_DICE")),
    ):
        sheet[cell] = f"={formula}"
        define_name(book, f"OUT_{cell}", f"Sheet!${cell[0]}$1")
    path = tmp_path / "dice.xlsx"
    book.save(path)
    texts = ["2d4+2", "d8", "10d6", "1d6-1", "3D12+10", "1d20"]
    results = calc.evaluate(path, [{"IN_DICE": t} for t in texts], ["OUT_B1", "OUT_C1", "OUT_D1"])
    for text, got in zip(texts, results, strict=True):
        expected = dice.parse(text)
        assert (got["OUT_B1"], got["OUT_C1"], got["OUT_D1"]) == (
            expected.count,
            expected.sides,
            expected.modifier,
        )
