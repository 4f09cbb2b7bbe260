"""The exact distribution of a dice expression (NdS+M) computed natively in a sheet.

P_j(t), the chance that j dice total t, is built one die at a time from cumulative sums:
P_j(t) = (C_{j-1}(t-1) - C_{j-1}(t-1-S)) / S, where C_j(t) is the chance of t or less. Only sums of
probabilities, so the result is exact to floating-point rounding (LibreOffice's COMBIN is not exact
for large arguments). Rows beyond the dice's maximum are skipped with IF (lazy in Excel and Calc).

Names defined, for a prefix such as DMG: <P>_COUNT, <P>_SIDES, <P>_DICE_MOD (the expression's +M),
<P>_OK (the expression fits the grid), <P>_MAX_DICE, <P>_MAX_SIDES, <P>_TOTALS (t for each row: the
dice total, without +M) and <P>_P (its chance). Callers add their own per-row columns from
``DiceGrid.free_column`` on, over rows ``first``..``last``.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.grid_limits import MAX_DICE, MAX_SIDES
from pycalc.sheets.common import absolute, define_name, put, put_formula
from pycalc.sheets.formulas import dice_count, dice_modifier, dice_sides

HEADER_ROW = 6


@dataclass(frozen=True)
class DiceGrid:
    prefix: str
    sheet: Worksheet
    first: int  # first row of the per-total rows
    last: int
    free_column: int  # first column the caller may use for its own per-total columns

    def name(self, part: str) -> str:
        return f"{self.prefix}_{part}"

    def column(self, col: int) -> str:
        """A sheet-qualified reference to rows first..last of one column."""
        letter = get_column_letter(col)
        return absolute(self.sheet, f"{letter}{self.first}", f"{letter}{self.last}")


def cumulative_column(j: int) -> int:
    return 3 + MAX_DICE + j


def reads_as_dice(expr: str) -> str:
    """TRUE when every part of the expression reads as a number: ``2d6+1``, ``d8``; not ``1d8+x``."""
    count = f'LEFT({expr},FIND("d",LOWER({expr}))-1)'
    return (
        f'IFERROR(AND(OR(TRIM({count})="",ISNUMBER(VALUE({count}))),'
        f"ISNUMBER({dice_sides(expr)}),ISNUMBER({dice_modifier(expr)})),FALSE)"
    )


def write_dice_grid(
    book: Workbook, sheet: Worksheet, dice_ref: str, prefix: str, most_dice: str | None = None
) -> DiceGrid:
    """Write the grid for the dice expression in the cell named ``dice_ref`` on ``sheet``. The chances
    of j dice are worked out up to the expression's count, or up to ``most_dice`` when that is more
    (the totals of further rolls of the same dice: columns B.. hold j = 0..MAX_DICE)."""

    def name(part: str) -> str:
        return f"{prefix}_{part}"

    cells = (
        ("COUNT", "Dice count", f"IFERROR({dice_count(dice_ref)},0)"),
        ("SIDES", "Sides", f"IFERROR({dice_sides(dice_ref)},0)"),
        ("DICE_MOD", "Modifier of the expression", f"IFERROR({dice_modifier(dice_ref)},0)"),
    )
    for row, (part, label, formula) in enumerate(cells, start=1):
        put(sheet.cell(row, 1), label)
        put_formula(sheet.cell(row, 2), formula)
        define_name(book, name(part), absolute(sheet, f"B{row}"))
    put(sheet["A4"], "Largest grid (dice, sides)")
    put(sheet["B4"], MAX_DICE)
    put(sheet["C4"], MAX_SIDES)
    define_name(book, name("MAX_DICE"), absolute(sheet, "B4"))
    define_name(book, name("MAX_SIDES"), absolute(sheet, "C4"))
    put(sheet["A5"], "Expression fits the grid")
    count, sides = name("COUNT"), name("SIDES")
    up_to = count
    if most_dice is not None:  # worked out once, read by every cell of the grid
        put(sheet["D5"], "Dice worked out")
        put_formula(sheet["E5"], f"MAX({count},{most_dice})")
        up_to = name("MOST_DICE")
        define_name(book, up_to, absolute(sheet, "E5"))
    put_formula(
        sheet["B5"],
        f'AND(ISNUMBER(SEARCH("d",{dice_ref})),{reads_as_dice(dice_ref)},{count}>=1,{count}<={name("MAX_DICE")},'
        f"{sides}>=1,{sides}<={name('MAX_SIDES')})",
    )
    define_name(book, name("OK"), absolute(sheet, "B5"))
    header = HEADER_ROW
    put(sheet.cell(header, 1), "Dice total")
    for j in range(MAX_DICE + 1):
        put(sheet.cell(header, 2 + j), j)
        put(sheet.cell(header, cumulative_column(j)), j)
    p_col = cumulative_column(MAX_DICE) + 1
    put(sheet.cell(header, p_col), "P(total)")
    first, last = header + 1, header + 1 + MAX_DICE * MAX_SIDES
    for t in range(MAX_DICE * MAX_SIDES + 1):
        row = first + t
        put(sheet.cell(row, 1), t)
        put_formula(sheet.cell(row, 2), f"IF($A{row}=0,1,0)")
        for j in range(MAX_DICE + 1):
            if j:
                letter = get_column_letter(cumulative_column(j - 1))
                previous = f"${letter}${first}:${letter}${last}"
                below = f"IF($A{row}>=1,INDEX({previous},$A{row}),0)"
                window = f"IF($A{row}-{sides}>=1,INDEX({previous},$A{row}-{sides}),0)"
                dice_here = f"${get_column_letter(2 + j)}${header}"
                put_formula(
                    sheet.cell(row, 2 + j),
                    f"IF(OR({sides}<1,{dice_here}>{up_to},$A{row}>{up_to}*{sides}),0,({below}-{window})/{sides})",
                )
            above = f"+{get_column_letter(cumulative_column(j))}{row - 1}" if t else ""
            put_formula(sheet.cell(row, cumulative_column(j)), f"{get_column_letter(2 + j)}{row}{above}")
        chances = f"$B{row}:${get_column_letter(2 + MAX_DICE)}{row}"
        # INDEX on one row takes the row and the column: Gnumeric refuses a single index there.
        put_formula(sheet.cell(row, p_col), f"IF({count}>=1,INDEX({chances},1,{count}+1),0)")
    grid = DiceGrid(prefix, sheet, first, last, p_col + 1)
    define_name(book, name("TOTALS"), grid.column(1))
    define_name(book, name("P"), grid.column(p_col))
    return grid
