"""The acting order above the log (who acts now and next). A part of
``pycalc.sheets.encounter.EncounterWriter``: its methods read the writer's state set up there."""

from __future__ import annotations

from typing import Any

from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from pycalc.sheets.common import (
    BOLD,
    SHRINK,
    absolute,
    define_name,
    fill,
    mark_output,
    put,
    put_formula,
    style_header,
)
from pycalc.sheets.encounter_cells import EMPTY_ROUND, PANEL_LINES, PANEL_TOP, WORKING_FROM
from pycalc.sheets.encounter_looks import ACTS_NOW_FILL
from pycalc.sheets.formulas import q


class PanelWriter:
    def write_panel(self) -> None:
        """The Log sheet's frozen rows: Round now, who acts now (the first in the acting order of the
        round who has not attacked in it and is not down) and the acting order from the one before,
        with hit points, state and conditions; the line of who acts now highlighted."""
        sheet, log = self.log_sheet, self.log
        shown = sorted(c for c in log.index.values() if c < WORKING_FROM)
        widths = {c: sheet.column_dimensions[get_column_letter(c)].width or 8.43 for c in shown}

        def lay(first: int, needs: list[float]) -> list[tuple[int, int]]:
            spans, at = [], first
            for k, need in enumerate(needs):
                end, room = at, widths[at]
                while end < shown[-1] and (room < need or k == len(needs) - 1):
                    end += 1
                    room += widths[end]
                spans.append((at, end))
                at = end + 1
            return spans

        def merged(row: int, span: tuple[int, int]) -> Any:
            if span[1] > span[0]:
                sheet.merge_cells(start_row=row, start_column=span[0], end_row=row, end_column=span[1])
            return sheet.cell(row, span[0])

        work = get_column_letter(WORKING_FROM + 1)  # hidden cells of the panel, above the log's rows
        position = get_column_letter(WORKING_FROM + 2)  # each line's place in the acting order
        now, count, start = f"${work}$2", f"${work}$3", f"${work}$4"
        put_formula(sheet[now.replace("$", "")], "MIN(ROSTER_WAITING)")
        put_formula(sheet[count.replace("$", "")], 'COUNTIF(ROSTER_RECORD_KEY,">0")')
        lines = f"${work}$6"  # how many lines the panel shows: a number in a cell, none typed in a formula
        put(sheet[lines.replace("$", "")], PANEL_LINES)
        put_formula(sheet[start.replace("$", "")], f"IF({now}=0,1,MAX(1,MIN({now}-1,{count}-{lines}+1)))")
        acts = put_formula(
            sheet[f"{work}5"], f'IF({now}=0,"",INDEX(ROSTER_NAME,MATCH({now},ROSTER_WAITING,0)))'
        )
        define_name(self.book, "ENC_ACTS_NOW", absolute(sheet, acts.coordinate))
        round_span, said_span = lay(3, [11, 0])
        merged(2, round_span)  # the round in use (ROUND_IN_USE_CELL)
        short = f'IF(INDEX(ROSTER_SHORT,MATCH({now},ROSTER_WAITING,0))="",""," ("&INDEX(ROSTER_SHORT,MATCH({now},ROSTER_WAITING,0))&")")'
        next_round = (
            '"Everyone has acted in round "&ENC_ROUND_NOW&": for round "&(ENC_ROUND_NOW+1)&'
            '", type "&(ENC_ROUND_NOW+1)&" in Round now and in Rnd on the next row"'
        )
        said = (
            f'IF({now}>0,"Acts now: "&ENC_ACTS_NOW&{short},IF({count}=0,"Type the combatants on the Encounter'
            f' sheet",{next_round}))&IF(ISNUMBER(ENC_ROUND),"",". "&{q(EMPTY_ROUND)})'
        )
        put_formula(merged(2, said_span), said).font = BOLD
        fields = [
            ("name", 18, "In order of action (short name)", "ROSTER_NAME"),
            ("hp", 5, "HP now", "ROSTER_HP_NOW"),
            ("state", 16, "State", "ROSTER_STATE"),
            ("conditions", 18, "Conditions now", "ROSTER_CONDITIONS"),
            ("turn", 0, "This round", ""),
        ]
        spans = lay(1, [need for _, need, _, _ in fields])
        for (_, _, label, _), span in zip(fields, spans, strict=True):
            put_formula(merged(PANEL_TOP, span), q(label))  # a formula: no AutoInput from it
            for column in range(span[0], span[1] + 1):
                style_header(sheet.cell(PANEL_TOP, column))
        for line in range(1, PANEL_LINES + 1):
            row = PANEL_TOP + line
            place = f"({start}+ROW()-ROW(${position}${PANEL_TOP}))"  # the line's place, by its row
            index = f"${get_column_letter(WORKING_FROM)}{row}"
            put_formula(
                sheet[index.replace("$", "")],
                f'IF({place}>{count},"",MATCH(SMALL(ROSTER_RECORD_KEY,{place}),ROSTER_RECORD_KEY,0))',
            )
            put_formula(sheet[f"{position}{row}"], f'IF({index}="","",{place})')
            for (key, _, _, name), span in zip(fields, spans, strict=True):
                value = f"INDEX({name},{index})"
                if key == "name":
                    value = f'{place}&". "&{value}&IF(INDEX(ROSTER_SHORT,{index})="",""," ("&INDEX(ROSTER_SHORT,{index})&")")'
                elif key == "turn":
                    value = (
                        f'IF({place}={now},"acts now",IF(INDEX(ROSTER_ACTED,{index})>0,"acted",'
                        f'IF(INDEX(ROSTER_DOWN,{index}),"down","to act")))'
                    )
                elif key != "hp":
                    value = f'IF({value}="","",{value})'
                for column in range(span[0], span[1] + 1):
                    mark_output(sheet.cell(row, column))
                cell = put_formula(merged(row, span), f'IF({index}="","",{value})')
                mark_output(cell)
                if key in ("state", "conditions", "name"):
                    cell.alignment = SHRINK
            if line == 1:
                define_name(
                    self.book,
                    "ENC_ORDER_NAMES",
                    absolute(sheet, f"{get_column_letter(spans[0][0])}{row}",
                             f"{get_column_letter(spans[0][0])}{row + PANEL_LINES - 1}"),
                )  # fmt: skip
        area = f"A{PANEL_TOP + 1}:{get_column_letter(spans[-1][1])}{PANEL_TOP + PANEL_LINES}"
        sheet.conditional_formatting.add(
            area,
            FormulaRule(
                formula=[f"AND(ISNUMBER(${position}{PANEL_TOP + 1}),${position}{PANEL_TOP + 1}={now})"],
                fill=fill(ACTS_NOW_FILL),
                font=Font(bold=True),
            ),
        )
