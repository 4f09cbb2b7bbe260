"""The round's chance to drop the target in native formulas: one attack's damage distribution (the
Damage workings' chance of each amount 0 .. the odds' most hit points - 1) convolved with itself once
per attack, the target's hit points an absorbing cap.

After k attacks, SO_FAR[t, k] is the chance that the attacks so far did exactly t damage, t below the
target's hit points (the rest of the chance has dropped it): SO_FAR[t, 1] = one[t] and
SO_FAR[t, k] = sum over d of one[d] * SO_FAR[t - d, k - 1]. The round's chance is then
1 - sum over t < hp of SO_FAR[t, attacks] (STANDING, under each column): exactly
``pycalc.odds.chance_at_least``'s sum, in doubles.

Cost: a SUMPRODUCT of L[t] + 1 products per cell, where L[t] is the largest amount up to t one attack
can do (so the work grows as attacks x hp x the span of one attack's damage, not hp squared for small
dice); cells at or past the target's hit points, or past the attacks typed, are a cheap 0. The sum
needs one attack's chances in reverse order beside SO_FAR (REVERSED): SUMPRODUCT pairs ranges in
the same order, and OFFSET (volatile) is not used; INDEX(range, n):cell is a plain reference.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import limits
from pycalc.sheets import d20_cells
from pycalc.sheets.common import absolute, define_name, put, put_formula

ROUND_ATTACKS = "D20_ODDS_ROUND_ATTACKS"  # the attacks typed, 0 when not a whole number within limits
ROUND_HP = "D20_ODDS_ROUND_HP"  # the target's hit points, read once for every cell
REVERSED = "D20_ODDS_ROUND_REVERSED"  # one attack's chances, the highest amount first
SO_FAR = "D20_ODDS_ROUND_SO_FAR"  # rows: damage so far 0..; columns: after 1.. attacks
STANDING = "D20_ODDS_ROUND_STANDING"  # under each column of SO_FAR: the chance the target still stands
ROWS = limits.HIT_POINTS  # amounts 0 .. most hit points - 1: any more drops any target the odds take
COLUMNS = limits.ATTACKS


def attacks_valid(attacks: str) -> str:
    """The attacks typed are a whole number from 0 to the odds' most (as the expected damage per round)."""
    return f"AND({attacks}>=0,{attacks}<={d20_cells.MOST_ATTACKS},{attacks}=INT({attacks}))"


def round_kill_formula(cells: d20_cells.Cells) -> str:
    """The round's chance to drop the target, or the limits' message (the hit points first, as one
    attack's chance checks them, then the attacks); no attack drops nothing. The caller guards the
    dice and a target down already."""
    hp, attacks = f"N({cells.hp})", f"N({cells.attacks})"
    left = f"INDEX({STANDING},1,{attacks})"  # two indices: Gnumeric refuses one on a one-row range
    return (
        f'IF({hp}>{d20_cells.MOST_HP},"#HP? up to {limits.HIT_POINTS}",'
        f'IF(NOT({attacks_valid(attacks)}),"#ATTACKS? 0 to {limits.ATTACKS}",'
        f"IF({attacks}=0,0,1-{left})))"
    )


def write_round_workings(
    book: Workbook,
    sheet: Worksheet,
    amounts: int,
    chances: int,
    first: int,
    column: int,
    cells: d20_cells.Cells,
) -> int:
    """The round's workings from ``column`` on, rows ``first``.. (those of the amounts 0.. in column
    ``amounts`` and one attack's chance of each in column ``chances``); returns the first column left."""
    last = first + ROWS - 1
    put(sheet.cell(1, column), "Attacks counted (0: not a valid number)")
    attacks = f"N({cells.attacks})"
    put_formula(sheet.cell(1, column + 1), f"IF({attacks_valid(attacks)},{attacks},0)")
    define_name(book, ROUND_ATTACKS, absolute(sheet, sheet.cell(1, column + 1).coordinate))
    put(sheet.cell(2, column), "Target's hit points")
    put_formula(sheet.cell(2, column + 1), f"N({cells.hp})")
    define_name(book, ROUND_HP, absolute(sheet, sheet.cell(2, column + 1).coordinate))
    amount, chance = get_column_letter(amounts), get_column_letter(chances)
    largest, reversed_ = get_column_letter(column), get_column_letter(column + 1)
    header = first - 1
    put(sheet.cell(header, column), "Largest amount up to here")
    put(sheet.cell(header, column + 1), "One attack, reversed")
    for row in range(first, last + 1):
        below = f"{largest}{row - 1}" if row > first else "0"
        put_formula(sheet.cell(row, column), f"IF({chance}{row}>0,{amount}{row},{below})")
        put_formula(sheet.cell(row, column + 1), f"{chance}{first + last - row}")
    define_name(book, REVERSED, absolute(sheet, f"{reversed_}{first}", f"{reversed_}{last}"))
    put(sheet.cell(header - 1, column + 2), "After this many attacks: the chance of this much damage so far")
    reversed_last = f"${reversed_}${last}"
    for k in range(1, COLUMNS + 1):
        col = column + 1 + k
        put(sheet.cell(header, col), k)
        letter, before = get_column_letter(col), get_column_letter(col - 1)
        for row in range(first, last + 1):
            skip = f"OR({letter}${header}>{ROUND_ATTACKS},${amount}{row}>={ROUND_HP})"
            earlier = Earlier(f"${before}${first}:${before}${last}", f"{before}{row}")
            value = (
                f"${chance}{row}"
                if k == 1
                else convolved(f"${amount}{row}", f"${largest}{row}", earlier, reversed_last)
            )
            put_formula(sheet.cell(row, col), f"IF({skip},0,{value})")
        # its cells at or past the hit points are 0: the column's sum is the chance the target stands
        put_formula(sheet.cell(last + 1, col), f"SUM({letter}{first}:{letter}{last})")
    put(sheet.cell(last + 1, column + 1), "Still standing")
    so_far_first, so_far_last = get_column_letter(column + 2), get_column_letter(column + 1 + COLUMNS)
    define_name(book, SO_FAR, absolute(sheet, f"{so_far_first}{first}", f"{so_far_last}{last}"))
    define_name(book, STANDING, absolute(sheet, f"{so_far_first}{last + 1}", f"{so_far_last}{last + 1}"))
    return column + 2 + COLUMNS


@dataclass(frozen=True)
class Earlier:
    """The column of the attacks before: all its rows, and its cell in this row."""

    rows: str
    here: str


def convolved(amount: str, largest: str, earlier: Earlier, reversed_last: str) -> str:
    """Sum over d = 0 .. ``largest`` (one attack's largest amount up to ``amount``) of one[d] x the
    attacks before's chance of ``amount`` - d: their cells from amount - largest to this row's, against
    one attack's chances from ``largest`` down to 0 (the last rows of REVERSED, ending at ``reversed_last``)."""
    return (
        f"SUMPRODUCT(INDEX({earlier.rows},{amount}-{largest}+1):{earlier.here},"
        f"INDEX({REVERSED},ROWS({REVERSED})-{largest}):{reversed_last})"
    )
