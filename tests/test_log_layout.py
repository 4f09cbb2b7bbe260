"""The Log sheet laid out for a 1366x768 laptop screen at 100% zoom: the attack log's row, from its
first input to its last output, within 1,250 px (Excel's rule: 7 px per character of width + 5), on
a sheet of its own under the frozen acting order of the round; and the model's short names, voided
rows and who acts now."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import column_index_from_string, get_column_letter

from pycalc.encounter import VOID, Attack, Combatant, Fight, auto_short, short_names
from pycalc.encounter_record import acts_now
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.sheets.encounter_cells import LOG_SHEET, LOG_TOP, SHEET
from pycalc.sheets.encounter_looks import LOG_SPARE_PX
from pycalc.tables import RULESET_IDS, load_ruleset

MOST_PX = 1250
OUTPUTS = ("LOG_RESULT", "LOG_HP_LOST", "LOG_TARGET_HP_AFTER", "LOG_CHECK", "LOG_SUMMARY")
ORDINARY = (
    "LOG_ATTACKER",
    "LOG_TARGET",
    "LOG_ROLL",
    "LOG_FOLLOW_ROLL",
    "LOG_DAMAGE_ROLL",
    "LOG_MODS",
    "LOG_ROUND",
)


def first_cell(book: openpyxl.Workbook, name: str) -> tuple[str, int, int]:
    title, ref = next(iter(book.defined_names[name].destinations))
    low = ref.replace("$", "").split(":")[0]
    row, column = openpyxl.utils.cell.coordinate_to_tuple(low)
    return title, row, column


def excel_px(sheet, column: int) -> int:
    dimension = sheet.column_dimensions[get_column_letter(column)]
    if dimension.hidden:
        return 0
    return int((dimension.width or 8.43) * 7 + 5)


def log_columns(book: openpyxl.Workbook) -> tuple[list[int], list[int]]:
    """The log's input columns (unlocked) and its shown output columns."""
    sheet = book[LOG_SHEET]
    inputs, outputs = [], []
    for name in book.defined_names:
        if not name.startswith("LOG_"):
            continue
        title, row, column = first_cell(book, name)
        if title != LOG_SHEET or row != LOG_TOP + 1:
            continue
        cell = sheet.cell(row, column)
        if cell.protection.locked is False:
            inputs.append(column)
        elif not sheet.column_dimensions[cell.column_letter].hidden:
            outputs.append(column)
    return inputs, outputs


def span_px(book: openpyxl.Workbook, first: int, last: int) -> int:
    """The px from column ``first`` to ``last`` (Excel's rule), the frozen columns left of it included."""
    sheet = book[LOG_SHEET]
    frozen = sheet.freeze_panes or "A1"
    frozen_columns = column_index_from_string("".join(c for c in frozen if c.isalpha())) - 1
    px = sum(excel_px(sheet, c) for c in range(first, last + 1))
    return px + sum(excel_px(sheet, c) for c in range(1, min(frozen_columns + 1, first)))


def log_span(book: openpyxl.Workbook) -> tuple[int, list[int], list[int]]:
    """The px from the log's first input to its last output, frozen columns included; the input and
    output columns."""
    inputs, outputs = log_columns(book)
    return span_px(book, min(inputs), max(outputs)), inputs, outputs


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_log_row_and_its_outcome_fit_a_laptop_screen(build_ruleset: Callable[[str], Path], ruleset_id: str):
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    px, _, outputs = log_span(book)
    assert px <= MOST_PX, f"{ruleset_id}: {px} px from the log's first input to its last output"
    ordinary = [first_cell(book, n)[2] for n in ORDINARY if n in book.defined_names]
    assert max(ordinary) < min(outputs), "the outcome right of what an ordinary attack types"
    assert {first_cell(book, n)[2] for n in OUTPUTS} <= set(outputs)
    assert {"LOG_ROUND", "LOG_ATTACKER", "LOG_TARGET", "LOG_ROLL", "LOG_RESULT", "LOG_SUMMARY"} <= set(
        book.defined_names
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_optional_inputs_fit_the_screen_too(build_ruleset: Callable[[str], Path], ruleset_id: str):
    """The inputs right of the outcome (picks, Picks by name, Also hits, damage with no roll) end on the
    same screen, with room left for one narrow column more."""
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    inputs, outputs = log_columns(book)
    assert max(inputs) > max(outputs), "the optional inputs come after the outcome"
    px = span_px(book, min(inputs), max(inputs))
    assert px + LOG_SPARE_PX <= MOST_PX, f"{ruleset_id}: {px} px from the log's first input to its last"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_column_holds_two_tables_and_the_acting_order_stays_in_view(
    build_ruleset: Callable[[str], Path], ruleset_id: str
):
    """The roster and the conditions on the Encounter sheet, the log alone on the Log sheet whose rows
    down to the log's titles (Round now, who acts now, the acting order) are frozen."""
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    for name in book.defined_names:
        if name.startswith(("ROSTER_", "COND_")):
            assert first_cell(book, name)[0] == SHEET, name
        if name.startswith("LOG_") or name in ("ENC_ROUND", "ENC_ACTS_NOW", "ENC_ORDER_NAMES"):
            assert first_cell(book, name)[0] == LOG_SHEET, name
    log = book[LOG_SHEET]
    assert log.freeze_panes == f"C{LOG_TOP + 1}"  # Attacker and Target stay in view
    for name in ("ENC_ROUND", "ENC_ROUND_NOW", "ENC_ACTS_NOW", "ENC_ORDER_NAMES"):
        assert first_cell(book, name)[1] < LOG_TOP, name
    assert book.sheetnames.index(LOG_SHEET) == book.sheetnames.index(SHEET) + 1


def test_short_names_are_initials_unless_typed_or_taken():
    assert [auto_short(n) for n in ("Goblin 3", "Goblin 12", "Black Knight", "Aria", "  Big  Bad Wolf ")] == [
        "g3",
        "g12",
        "bk",
        "a",
        "bw",
    ]
    roster = [
        Combatant("Aria"),
        Combatant("Alric"),  # "a" taken by the line above: none
        Combatant("Goblin 1"),
        Combatant("Goblin 2", short="boss"),
        Combatant(""),
        Combatant("Grim 1"),  # g1 taken
    ]
    assert short_names(roster) == ["a", "", "g1", "boss", "", ""]


def test_a_log_row_takes_short_names_and_a_voided_row_counts_for_nothing():
    rules = load_ruleset("cnc")
    stats = {"attack_bonus": 2, "ac": 12, "dice": "1d6"}
    roster = [Combatant("Aria", max_hp=10, init_rolls=(9,), stats=stats)]
    roster += [Combatant(f"Goblin {k}", max_hp=5, init_rolls=(10 - k,), stats=stats) for k in range(1, 4)]
    attacks = [
        Attack("g1", "A", round=1, roll=18, damage_roll=4),  # Goblin 1 hits Aria: 4
        Attack("a", "G2", roll=19, damage_roll=5, void=True),  # voided
        Attack("a", "Goblin 2", roll=19, damage_roll=3),
    ]
    fight = Fight(roster, attacks, round=1)
    log = resolve_log(rules, fight)
    assert [r.result for r in log] == ["Hit", VOID, "Hit"]
    assert [r.hp_lost for r in log] == [4, 0, 3]
    states = roster_state(rules, fight, log)
    assert [s.hp_now for s in states] == [6, 5, 2, 5]
    # order: Goblin 1 (9+... rolls 9), Aria 9, Goblin 2 8, Goblin 3 7 -- Goblin 1 and Aria have attacked
    assert acts_now(rules, fight, states) == "Goblin 2"
    assert acts_now(rules, Fight(roster, attacks[:2], round=1)) in ("Aria", "Goblin 2")
