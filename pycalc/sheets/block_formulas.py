"""A ``resolution:`` block's values as formula text: a literal, the table cell it names, or an
``IF(RULING_X="choice", ...)`` over the Rulings sheet when a ruling chooses it; the natural rolls a
block names; and the parts of a typed dice text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pycalc.resolution_block import (
    PICKED,
    ByRuling,
    Ref,
    RollColumn,
    RollRange,
    Rolls,
    possible,
)
from pycalc.sheets.common import name_part, ruling_name, table_name
from pycalc.sheets.d20_cells import CONFIRM_NEEDS
from pycalc.sheets.formulas import band, const, q


def need_weights(need: str, values: str, chances: str) -> str:
    """Each total of the dice on the roll (``values`` across) by its chance, at the number it leaves
    needed (CONFIRM_NEEDS down; one below the lowest counts as the lowest, above the highest as the
    highest: every face then confirms, or none does by its total)."""
    left = f"({need}-{values})"
    low, high = f"MIN({CONFIRM_NEEDS})", f"MAX({CONFIRM_NEEDS})"
    return (
        f"{chances}*(({CONFIRM_NEEDS}={left})+({CONFIRM_NEEDS}={low})*({left}<{low})"
        f"+({CONFIRM_NEEDS}={high})*({left}>{high}))"
    )


# --------------------------------------------------------------------------- values


def literal(item: Any) -> str:
    if isinstance(item, bool):
        return "TRUE" if item else "FALSE"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return q(item)
    if isinstance(item, Ref) and item.entry == PICKED:  # the row picked in the calculator's dropdown
        pick = f"PICK_{name_part(item.table)}"
        return (
            f"INDEX({table_name(item.table, item.column)},MATCH({pick},{table_name(item.table, 'label')},0))"
        )
    if isinstance(item, Ref):
        return const(item.table, item.entry, item.column)
    raise TypeError(f"not a block value: {item!r}")


def by_choice(item: Any, render: Callable[[Any], str]) -> str:
    """``render`` of the value; a value chosen by a ruling becomes IF(RULING_X="a",...,IF(...))."""
    if not isinstance(item, ByRuling):
        return render(item)
    choices = list(item.choices.items())
    text = by_choice(choices[-1][1], render)
    for choice, chosen in reversed(choices[:-1]):
        chosen_text, picked = by_choice(chosen, render), f"{ruling_name(item.ruling)}={q(choice)}"
        text = {("TRUE", "FALSE"): picked, ("FALSE", "TRUE"): f"NOT({picked})"}.get(
            (chosen_text, text), choose(picked, chosen_text, text)
        )
    return text


def expr(item: Any) -> str:
    """A scalar value of the block as a formula."""
    return by_choice(item, literal)


def choose(condition: str, yes: str, no: str) -> str:
    """IF(condition,yes,no), or the one branch when the condition is TRUE or FALSE or both are alike
    (a formula over a ruleset's own cells stays short)."""
    if condition == "TRUE" or yes == no:
        return yes
    if condition == "FALSE":
        return no
    return f"IF({condition},{yes},{no})"


def rounded(up: str, exact: str) -> str:
    """``exact`` rounded up when ``up`` is TRUE, else down: -INT(-x) rounds up, INT(x) down."""
    if up == "FALSE":
        return f"INT({exact})"
    if up == "TRUE":
        return f"-INT(-{exact})"
    return f"IF({up},-1,1)*INT(IF({up},-1,1)*{exact})"


def is_mode(item: Any, mode: str) -> str:
    """TRUE when the block value ``item`` (a word, maybe by ruling) is ``mode``."""
    words = possible(item)
    if all(word == mode for word in words):
        return "TRUE"
    if mode not in words:
        return "FALSE"
    return f"{expr(item)}={q(mode)}"


# --------------------------------------------------------------------------- natural rolls


def in_rolls(rolls: Rolls, face: str) -> str:
    """TRUE when the natural roll ``face`` is one of ``rolls`` (``resolution.roll_set``)."""
    parts = []
    for part in rolls:
        if isinstance(part, RollColumn):
            parts.append(f"IFERROR({band(part.table, part.column, face)}=TRUE,FALSE)")
        elif isinstance(part, RollRange):
            conditions = [] if part.when is True else [expr(part.when)]
            if part.low is not None:
                conditions.append(f"{face}>={expr(part.low)}")
            if part.high is not None:
                conditions.append(f"{face}<={expr(part.high)}")
            parts.append(f"AND({','.join(conditions)})" if conditions else "TRUE")
    if not parts:
        return "FALSE"
    return parts[0] if len(parts) == 1 else f"OR({','.join(parts)})"


# --------------------------------------------------------------------------- the dice text


def typed_number(cell: str) -> str:
    """The number typed in ``cell``, 0 when it is empty or not a number: N() of an empty cell is
    #NUM! in Gnumeric (0 in Excel and LibreOffice), and a damage roll is empty until it is rolled."""
    return f"IF(ISNUMBER({cell}),{cell},0)"


def off_dice(cell: str, low: str, high: str) -> str:
    """TRUE when the roll typed in ``cell`` is not a whole number from ``low`` to ``high`` (or is empty)."""
    return f"IF(ISNUMBER({cell}),OR({cell}<{low},{cell}>{high},{cell}<>INT({cell})),TRUE)"


def digits_only(text: str) -> str:
    stripped = text
    for digit in "0123456789":
        stripped = f'SUBSTITUTE({stripped},"{digit}","")'
    return f'AND(LEN({text})>0,{stripped}="")'


def dice_parts(text: str) -> dict[str, str]:
    """Formula pieces reading a lower-case, space-free dice text as ``pycalc.dice.parse`` does."""
    at = f'FIND("d",{text})'
    prefix = f"LEFT({text},{at}-1)"
    rest = f"MID({text},{at}+1,99)"
    sign = f'IFERROR(FIND("+",{rest}),IFERROR(FIND("-",{rest}),0))'
    sides = f"IF({sign}=0,{rest},LEFT({rest},{sign}-1))"
    modifier = f'IF({sign}=0,"",MID({rest},{sign}+1,99))'
    unsigned = f'IF(OR(LEFT({text},1)="+",LEFT({text},1)="-"),MID({text},2,99),{text})'
    return {
        "constant": f"AND(LEN({text})<=8,{digits_only(unsigned)})",
        "dice": (
            f'IFERROR(AND(LEN({text})<=24,OR({prefix}="",{digits_only(prefix)}),{digits_only(sides)},'
            f"OR({sign}=0,{digits_only(modifier)})),FALSE)"
        ),
        "count": f'IF({prefix}="",1,VALUE({prefix}))',
        "sides": f"VALUE({sides})",
        "modifier": f'IF({sign}=0,0,IF(MID({rest},{sign},1)="-",-1,1)*VALUE({modifier}))',
    }
