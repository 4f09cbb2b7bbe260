"""Comparing the engine's answers with what LibreOffice shows in a cell (shared by the parity tests)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.workbook.defined_name import DefinedName

from pycalc.sheets.common import ruling_name
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet


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


NOTE_COLUMN = "F"  # the Attack calculator's column of the notes beside the picks


def with_note_names(xlsx: Path, names: list[str], tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the workbook with a defined name on the note beside each pick."""
    book = openpyxl.load_workbook(xlsx)
    sheet = book["Attack calculator"]
    note_of = {}
    for name in dict.fromkeys(names):
        _, ref = next(iter(book.defined_names[name].destinations))
        note_of[name] = f"TEST_NOTE_{len(note_of)}"
        row = sheet[ref.replace("$", "")].row
        book.defined_names[note_of[name]] = DefinedName(
            note_of[name], attr_text=f"'{sheet.title}'!${NOTE_COLUMN}${row}"
        )
    copy = tmp_path / xlsx.name
    book.save(copy)
    return copy, note_of


NOTE_SUM = re.compile(r"([+-]\d+) (to hit|to AC|damage)")
NOTE_ONLY = re.compile(r"(melee|ranged) only")
NOTE_PARTS = {"to hit": "hit", "to AC": "ac", "damage": "damage"}


def every_pick(rules: RuleSet, kind_table: str) -> list[tuple[str, str, object]]:
    """Every pick of a generic Attack calculator but a choice's first row and the attack kind: (its
    table, its defined name, its value picked)."""
    found: list[tuple[str, str, object]] = []
    for table_id in rules.resolution_block.modifiers or ():
        table = rules.table(table_id)
        if table_id == kind_table:
            continue
        if table.picker == "choice":
            found += [(table_id, pick_name(table_id), str(row.label)) for row in table.rows[1:]]
        else:
            found += [(table_id, pick_name(table_id, str(row.id)), True) for row in table.rows]
    return found


def note_claims(rules: RuleSet, table_id: str, note: str, kind: str) -> dict[str, int]:
    """What a generic note says picking its row changes for an attack of ``kind`` (melee, ranged): its
    table counts only for one kind (``situation.only``, said in the table's title), or the row does."""
    said = {"hit": 0, "ac": 0, "damage": 0}
    situation = rules.resolution_block.situation
    only = situation.only.get(table_id) if situation else None
    row_only = NOTE_ONLY.search(note)
    if only not in (None, kind) or (row_only and row_only.group(1) != kind):
        return said  # the row does not count for this attack
    for value, part in NOTE_SUM.findall(note):
        said[NOTE_PARTS[part]] += int(value)
    return said


def wrong_notes(
    calc: Any,
    rules: RuleSet,
    xlsx: Path,
    tmp_path: Path,
    kinds: Mapping[str, str],
    fixed: Mapping[str, object],
    rulings: list[Mapping[str, str]],
) -> tuple[list[str], int]:
    """Every pick's note against what picking it changes in a generic Attack calculator's situation
    sums (to hit, AC, damage), for an attack of each of ``kinds`` (melee, ranged: the kind pick's value)
    under each set of ``rulings`` (every ruling named): the notes that say otherwise, and how many
    were compared."""
    kind_table = str(rules.resolution_block.situation.kind_table)
    picks = every_pick(rules, kind_table)
    copy, note_of = with_note_names(xlsx, [name for _, name, _ in picks], tmp_path)
    sums = {part: f"ATTACK_SITUATION_{part.upper()}" for part in ("hit", "ac", "damage")}
    outputs = [*sums.values(), *note_of.values()]
    wrong, compared = [], 0
    for chosen in rulings:
        for kind, kind_pick in kinds.items():
            setting = {
                **fixed,
                **{ruling_name(r): c for r, c in chosen.items()},
                pick_name(kind_table): kind_pick,
            }
            base, *picked = calc.evaluate(copy, [setting, *({**setting, n: v} for _, n, v in picks)], outputs)
            for (table_id, name, _), found in zip(picks, picked, strict=True):
                note = str(found[note_of[name]] or "")
                did = {part: found[cell] - base[cell] for part, cell in sums.items()}
                compared += 1
                if note_claims(rules, table_id, note, kind) != did:
                    wrong.append(
                        f"{kind} {name}: note {note!r} says {note_claims(rules, table_id, note, kind)}, did {did}"
                    )
    return wrong, compared
