"""Reading cell values for the UDFs: one coercion of numbers, fractions, text, TRUE/FALSE and a
picker's row, the limits, a wrapper that turns every failure into a short '#...' message for the cell,
and the arguments' docs.

Its own module, imported by ``pycalc.udfs`` and by each ruleset's UDF module (no import cycle).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import xlwings as xw

from pycalc import dice as dice_module
from pycalc import limits, pickers
from pycalc.errors import RuleError
from pycalc.tables import RuleSet, TableError

F = TypeVar("F", bound=Callable[..., Any])


def cell_value(result: Any) -> Any:
    """A result as a cell can hold it: numbers a double cannot hold exactly are refused."""
    if isinstance(result, bool) or result is None or isinstance(result, str):
        return result
    if isinstance(result, int) and abs(result) > limits.EXACT_IN_A_CELL:
        return "#RESULT? too large for a cell: use smaller numbers"
    if isinstance(result, float) and not math.isfinite(result):
        return "#RESULT? not a finite number: use smaller numbers"
    if isinstance(result, list):
        return [cell_value(item) for item in result]
    return result


def cell_safe(function: F) -> F:
    """Turn every failure into a short '#...' text for the cell, never a traceback or exception text."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return cell_value(function(*args, **kwargs))
        except RuleError as error:
            return str(error)
        except TableError as error:
            return str(RuleError(f"#TABLES? {error.problems[0]}"))
        except Exception:
            return "#ERROR? could not compute this: check the inputs"

    return wrapper  # type: ignore[return-value]


def as_int(
    value: Any,
    name: str,
    default: int | None = None,
    low: int = -limits.WHOLE_NUMBER,
    high: int = limits.WHOLE_NUMBER,
) -> int:
    """A whole number from ``low`` to ``high`` from a cell value (float, int, numeric text); empty
    uses the default. The message names the argument and the numbers it accepts."""
    accepts = f"#{name}? {name.lower()}: a whole number from {low:,} to {high:,}"
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is None:
            raise RuleError(accepts)
        return default
    if isinstance(value, bool):
        raise RuleError(f"{accepts}, not TRUE/FALSE")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise RuleError(f"{accepts}, not {value.strip()[:12]!r}") from None
    if not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        raise RuleError(accepts)
    if not low <= value <= high or value != int(value):
        raise RuleError(accepts)
    return int(value)


def as_text(value: Any, name: str, default: str | None = None) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is None:
            raise RuleError(f"#{name}? {name.lower()}: text is needed")
        return default
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return str(value).strip()


def optional_int(
    value: Any, name: str, low: int = -limits.WHOLE_NUMBER, high: int = limits.WHOLE_NUMBER
) -> int | None:
    """A whole number, or None for an empty cell (a roll not made yet)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return as_int(value, name, low=low, high=high)


TRUE_WORDS = ("TRUE", "YES", "1")
FALSE_WORDS = ("FALSE", "NO", "0")


def as_bool(value: Any, name: str, default: bool = False) -> bool:
    """TRUE/FALSE, the one reading of every UDF: a boolean; the number 1 or 0; the text TRUE, FALSE,
    YES, NO, 1 or 0 (any case); empty is the default. Anything else is a message."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().upper()
    if text in TRUE_WORDS or text in FALSE_WORDS:
        return text in TRUE_WORDS
    raise RuleError(f"#{name}? {name.lower()}: TRUE or FALSE (or YES/NO, 1/0)")


def as_fraction(value: Any, name: str, default: Fraction) -> Fraction:
    """A number as the decimal a GM typed (0.3 is 3/10); empty uses the default."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    if isinstance(value, bool):
        raise RuleError(f"#{name}? a number, not TRUE/FALSE")
    try:
        number = float(str(value).strip())
    except ValueError:
        raise RuleError(f"#{name}? {name.lower()}: a number") from None
    if not abs(number) <= limits.WHOLE_NUMBER:
        raise RuleError(f"#{name}? {name.lower()}: a number from -1,000,000,000 to 1,000,000,000")
    return Fraction(str(number))


def optional_text(value: Any) -> str | None:
    """Text, or None for an empty cell (a roll or a save not made yet)."""
    return None if value is None or str(value).strip() == "" else str(value).strip()


def as_choice(rules: RuleSet, table_id: str, value: Any) -> str:
    """A picker's row label (or id) from a cell, checked against its choice table, as the calculator's
    picker reads it (``pickers.chosen_row``); empty is the table's default row."""
    table = rules.table(table_id)
    text = as_text(value, table_id.upper(), pickers.default_choice(table))
    return str(pickers.chosen_row(rules, {table_id: text}, table_id).label)


def as_rows(value: Any, name: str, high: int = limits.RANGE_ROWS) -> list[list[Any]]:
    """The rows of a range argument (one cell or one row counts as one row), at most ``high``."""
    if not isinstance(value, list):
        return [[value]]
    rows = value if value and all(isinstance(row, list) for row in value) else [value]
    if len(rows) > high:
        raise RuleError(f"#{name}? {name.lower()}: a range of up to {high:,} rows")
    return rows


def as_attacks(value: Any, default: int = 1) -> int:
    return as_int(value, "ATTACKS", default, 0, limits.ATTACKS)


def as_hit_points(value: Any, name: str = "HP") -> int:
    return as_int(value, name, None, -limits.HIT_POINTS, limits.HIT_POINTS)


def as_dice(value: Any, parse: Callable[[str], dice_module.Dice] = dice_module.parse) -> dice_module.Dice:
    """Damage dice read by the ruleset's own reader (``parse``: which dice it takes, its message)."""
    return parse(as_text(value, "DICE"))


def arg_docs(*docs: tuple[str, str]) -> Callable[[F], F]:
    """The ``@xw.arg(name, doc=...)`` decorators of a UDF, top first, as one decorator (so UDFs
    sharing arguments share their docs)."""

    def decorate(function: F) -> F:
        for name, doc in reversed(docs):
            function = xw.arg(name, doc=doc)(function)
        return function

    return decorate
