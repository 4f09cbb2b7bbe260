"""Comparing the engine's answers with what LibreOffice shows in a cell (shared by the parity tests)."""

from __future__ import annotations

from fractions import Fraction


def spreadsheet_value(value: object) -> object:
    """What the engine's answer looks like in a cell read over UNO: booleans 1/0, numbers as floats."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, Fraction)):
        return float(value)
    return value


def same(expected: object, got: object) -> bool:
    """The engine's value equals the cell's (an empty cell reads as '')."""
    expected = spreadsheet_value(expected)
    got = "" if got is None else got
    if isinstance(expected, float) and isinstance(got, float):
        return abs(expected - got) < 1e-9
    return expected == got
