"""The Encounter writer's frame: defined names, headers, the round in use, the next fight's names, the
columns' widths. A part of ``pycalc.sheets.encounter.EncounterWriter``: its methods read the writer's
state set up there."""

from __future__ import annotations

import re

from openpyxl.utils import get_column_letter

from pycalc.sheets.common import (
    NOTE,
    absolute,
    define_name,
    mark_output,
    put_formula,
    style_header,
)
from pycalc.sheets.encounter_cells import (
    EMPTY_ROUND,
    HEADER_HEIGHT,
    ROUND_IN_USE_CELL,
    ROUND_SHOWN_CELL,
    WORKING_FROM,
    Columns,
)
from pycalc.sheets.encounter_looks import (
    BOLD_CHARACTER,
    CONDITION_INPUTS,
    MOST_TEXT_WIDTH,
    ROUND_WHERE,
    column_width,
    input_areas,
    log_width,
    title_fits,
)
from pycalc.sheets.formulas import q
from pycalc.sheets.ooxml.cells import (
    cells_of,
)


class EncounterFrame:
    def name(self, block: Columns, key: str, defined: str) -> None:
        define_name(self.book, defined, absolute(block.sheet, *block.span(key).replace("$", "").split(":")))

    def head(self, block: Columns) -> None:
        # every text above a column the GM types in is a formula: AutoInput completes a typed entry
        # from a text of its column ("s" to "Short name for the log ..."), never from a formula
        for key, column in block.index.items():
            style_header(put_formula(block.sheet.cell(block.top, column), q(block.labels[key])))
        block.sheet.row_dimensions[block.top].height = HEADER_HEIGHT

    def write_round_in_use(self) -> None:
        """Round now left empty is never round 0 (every HP back to maximum, as if nothing happened):
        the sheets then show the fight as of the last round logged, and say so."""
        log_sheet = self.log_sheet
        in_use = put_formula(
            log_sheet[ROUND_IN_USE_CELL],
            'IF(ISNUMBER(ENC_ROUND),ENC_ROUND,MAX(1,SUMPRODUCT(MAX((LOG_ATTACKER&LOG_TARGET<>"")*LOG_ROUND_NOW))))',
        )
        in_use.number_format = '"in use: round "0'
        define_name(self.book, "ENC_ROUND_NOW", absolute(log_sheet, ROUND_IN_USE_CELL))
        shown = put_formula(self.sheet[ROUND_SHOWN_CELL], "ENC_ROUND_NOW")
        mark_output(shown, bold=True)
        said = put_formula(
            self.sheet["C3"],
            f'IF(ISNUMBER(ENC_ROUND),"",{q(EMPTY_ROUND + ". ")})&{q(ROUND_WHERE)}',
        )
        said.font = NOTE

    def write_next_fight_names(self) -> None:
        """The cells a GM clears for the next fight, each name typed into the Name Box then Delete (no
        macro): NEXT_FIGHT_LOG (and NEXT_FIGHT_LOG_2 ...), the attack log's inputs; NEXT_FIGHT_ROLLS,
        what the roster holds of one fight only (initiative rolls, declared actions, morale rolls,
        aid); NEXT_FIGHT_CONDITIONS. Names, numbers and dice stay. Each name is one rectangle of input
        cells: the Name Box selects only the first area of a name of several, and Delete does nothing
        on a selection holding a locked cell."""
        roster_keys = [
            k
            for k in self.roster.index
            if re.fullmatch(r"roll\d+|action|cast|morale_roll|aided|cast_round", k)
        ]
        log_keys = [k for k in self.log.index if self.log.index[k] < WORKING_FROM and self.log_input(k)]
        for defined, block, keys in (
            ("NEXT_FIGHT_LOG", self.log, log_keys),
            ("NEXT_FIGHT_ROLLS", self.roster, roster_keys),
            ("NEXT_FIGHT_CONDITIONS", self.conditions, CONDITION_INPUTS),
        ):
            for k, area in enumerate(input_areas(block, keys), start=1):  # a Name Box selects one rectangle
                define_name(self.book, defined if k == 1 else f"{defined}_{k}", area)

    def log_input(self, key: str) -> bool:
        cell = cells_of(self.log_sheet).get((self.log.top + 1, self.log.index[key]))
        return cell is not None and cell.protection.locked is False

    def set_widths(self) -> None:
        """Names and texts wide enough to read; numbers narrow (their headers wrap between words, and
        the longest word of a header fits on its line)."""
        widths: dict[str, float] = {}
        for block in (self.roster, self.conditions):
            for key, column in block.index.items():
                if column < WORKING_FROM:
                    letter = get_column_letter(column)
                    word = max(len(w) for w in block.labels[key].split())
                    fits = round(word * BOLD_CHARACTER + 1, 1)
                    widths[letter] = max(widths.get(letter, 0), column_width(key), fits)
        texts = {(self.roster, "state"): (self.block.hit_points.table, self.block.hit_points.state)}
        if self.block.conditions:
            texts[(self.conditions, "name")] = (self.block.conditions, "label")
        for (block, key), (table, column) in texts.items():  # the longest state or condition reads whole
            rows = self.rules.table(table).rows
            longest = max(len(str(row.label if column == "label" else row[column])) for row in rows)
            letter = block.letter(key)
            widths[letter] = max(widths[letter], min(longest + 1, MOST_TEXT_WIDTH))
        for letter, width in widths.items():
            self.sheet.column_dimensions[letter].width = width
        for key, column in self.log.index.items():  # the log: narrow, its titles wrapped
            if column < WORKING_FROM:
                word = max(len(w) for w in self.log.labels[key].split())
                fits = round(word * BOLD_CHARACTER + 1, 1) if title_fits(key) else 0
                self.log_sheet.column_dimensions[get_column_letter(column)].width = max(log_width(key), fits)
