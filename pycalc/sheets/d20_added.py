"""Dice on the roll (a picker row's ``hit: 1d4``): the rows that can add dice, the hidden workings
that lay out every total the picks can show with its chance, and the cells that say them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.resolution_block import ROLL_COLUMN as HIT_COLUMN
from pycalc.resolution_block import Resolution
from pycalc.resolution_calculator import (
    NOT_ADDED,
    added_dice_bounds,
)
from pycalc.sheets import block_formulas, d20_cells
from pycalc.sheets.common import (
    BOLD,
    absolute,
    define_name,
    put,
    put_formula,
)
from pycalc.sheets.d20_pickers import counts_when, picker_tables
from pycalc.sheets.formulas import const, q
from pycalc.sheets.situation_cells import pick_name
from pycalc.table_files import roll_dice
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class DiceRow:
    """A picker row whose ``hit`` adds dice to the roll (``1d4``, ``-1d4``)."""

    picked: str  # TRUE when the row is picked
    text: str  # its dice cell
    count: int  # how many dice, negative when taken away (the layout of their chances' rows)
    sides: int

    def part(self, name: str) -> str:
        """The count, the sides or the sign (-1 for dice taken away) read from the dice cell."""
        t = self.text
        return {
            "count": f'VALUE(SUBSTITUTE(LEFT({t},FIND("d",{t})-1),"-",""))',
            "sides": f'VALUE(MID({t},FIND("d",{t})+1,9))',
            "sign": f'IF(LEFT({t},1)="-",-1,1)',
        }[name]


def dice_rows(rules: RuleSet, block: Resolution) -> list[DiceRow]:
    found = []
    for table in picker_tables(rules, block):
        for row in table.rows:
            dice = roll_dice(row.values.get(HIT_COLUMN))
            if dice is None:
                continue
            if table.picker == "choice":
                picked = f"{pick_name(table.id)}={const(table.id, str(row.id), 'label')}"
            else:
                picked = f"{pick_name(table.id, str(row.id))}=TRUE"
            counts = counts_when(rules, block, table, partial(const, table.id, str(row.id)))
            if counts is not None:  # a row for some attack kinds only
                picked = f"AND({picked},{counts})"
            found.append(DiceRow(picked, const(table.id, str(row.id), HIT_COLUMN), *dice))
    return found


ADDED_SAID = "ATTACK_ADDED_SAID"


def added_cells(rows: list[DiceRow]) -> list[tuple[str, str, str]]:
    """(name, label, formula) of the working cells of the dice on the roll: each over the picks
    alone, so that a log row works them out from its own picks."""

    def picked_sum(term: Callable[[DiceRow], str]) -> str:
        return "+".join(f"IF({row.picked},{term(row)},0)" for row in rows)

    def low(row: DiceRow) -> str:
        count, sides = row.part("count"), row.part("sides")
        return f"IF({row.part('sign')}<0,-{count}*{sides},{count})"

    def high(row: DiceRow) -> str:
        count, sides = row.part("count"), row.part("sides")
        return f"IF({row.part('sign')}<0,-{count},{count}*{sides})"

    said = "&".join(
        f'IF({row.picked},IF({row.part("sign")}<0," - "," + ")&SUBSTITUTE({row.text},"-",""),"")'
        for row in rows
    )
    return [
        (d20_cells.ADDED_ANY, "Dice on the roll: any picked", f"OR({','.join(row.picked for row in rows)})"),
        (d20_cells.ADDED_LOW, "Dice on the roll: lowest total", picked_sum(low)),
        (d20_cells.ADDED_HIGH, "Dice on the roll: highest total", picked_sum(high)),
        (
            d20_cells.ADDED_VALUE,
            "Dice on the roll: their total (0 when none is picked)",
            f"IF({d20_cells.ADDED_ANY},{block_formulas.typed_number(d20_cells.ADDED_ROLL)},0)",
        ),
        (ADDED_SAID, "Dice on the roll: the picked rows' dice", said),
        (
            d20_cells.ADDED_DICE,
            "Dice on the roll: what they are",
            f'IF({d20_cells.ADDED_ANY},IF(LEFT({ADDED_SAID},3)=" + ","","-")&MID({ADDED_SAID},4,99)'
            f'&": type their total, "&{d20_cells.ADDED_LOW}&" to "&{d20_cells.ADDED_HIGH},{q(NOT_ADDED)})',
        ),
    ]


def write_added_dice(book: Workbook, sheet: Worksheet, rules: RuleSet, rows: list[DiceRow], top: int) -> int:
    """From row ``top`` of the hidden workings: the totals the picked dice can show across, then one
    row per die a picker row may add (picked, sign, sides) holding the chance of each total of the
    picked dice so far; the last row's are the chances the odds weigh. The next free row."""
    low, high = added_dice_bounds(rules)  # every total any picks can show
    totals = range(low, high + 1)
    titles = ("Dice on the roll", "Picked", "Sign", "Sides")
    for col, title in enumerate(titles, start=1):
        put(sheet.cell(top, col), title).font = BOLD
    first = len(titles) + 1
    start, end = get_column_letter(first), get_column_letter(first + len(totals) - 1)
    values = f"${start}${top}:${end}${top}"
    for col, total in enumerate(totals, start=first):
        put(sheet.cell(top, col), total)
        put_formula(sheet.cell(top + 1, col), f"IF({get_column_letter(col)}${top}=0,1,0)")
    put(sheet.cell(top + 1, 1), "No dice")
    dice = [row for row in rows for _ in range(abs(row.count))]
    for at, row in enumerate(dice, start=top + 2):
        put(sheet.cell(at, 1), f"Die {at - top - 1}")
        put_formula(sheet.cell(at, 2), f"IF({row.picked},1,0)")
        put_formula(sheet.cell(at, 3), row.part("sign"))
        put_formula(sheet.cell(at, 4), row.part("sides"))
        sign, sides, previous = f"$C{at}", f"$D{at}", f"${start}{at - 1}:${end}{at - 1}"
        for col in range(first, first + len(totals)):
            here = f"{get_column_letter(col)}${top}"
            near, far = f"{here}-{sign}", f"{here}-{sign}*{sides}"
            spread = (
                f"SUMPRODUCT(({values}>=MIN({near},{far}))*({values}<=MAX({near},{far}))*{previous})/{sides}"
            )
            put_formula(sheet.cell(at, col), f"IF($B{at}=1,{spread},{get_column_letter(col)}{at - 1})")
    last = top + 1 + len(dice)
    define_name(book, d20_cells.ADDED_VALUES, absolute(sheet, f"{start}{top}", f"{end}{top}"))
    define_name(book, d20_cells.ADDED_CHANCES, absolute(sheet, f"{start}{last}", f"{end}{last}"))
    return last + 1
