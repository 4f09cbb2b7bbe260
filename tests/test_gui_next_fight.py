"""The next fight, as the README says, in a real LibreOffice window (no macro): the party's HP now typed
as their Start HP, then each NEXT_FIGHT_ name typed into the Name Box and Delete, Round now 1. The
party's lines stay with their wounds, the log, the conditions and the initiative rolls are empty, and
the sheet equals the model of a fight that starts there."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Fight
from pycalc.tables import load_ruleset
from tests.test_encounter_parity import expected_outputs, mismatches, sheet_inputs
from tests.test_gui_window import (  # noqa: F401 (window_tools: the fixture)
    cells_to_type,
    places,
    read_back,
    three_round_fight,
    type_cells,
    window,
    window_tools,
)

CLEARED = ("LOG_ATTACKER", "LOG_TARGET", "LOG_ROLL", "LOG_DAMAGE_ROLL", "LOG_PICKS", "LOG_FLAT_DAMAGE")


def next_fight_names(book: openpyxl.Workbook) -> list[str]:
    """The names the README has the GM clear, in the book's order (NEXT_FIGHT_LOG, NEXT_FIGHT_LOG_2 ...)."""
    return sorted(name for name in book.defined_names if name.startswith("NEXT_FIGHT_"))


@pytest.mark.timeout(600)
def test_the_next_fight_keeps_the_partys_lines_and_wounds_and_clears_the_rest(
    window_tools: None,  # noqa: F811 (the fixture, imported)
    build_ruleset: Callable[[str], Path],
    tmp_path: Path,
):
    rules = load_ruleset("cnc")
    xlsx = build_ruleset("cnc") / "cnc.xlsx"
    book = openpyxl.load_workbook(xlsx)
    fight = three_round_fight("cnc")[-1]  # three rounds of attacks (Bram hit), a condition from round 2
    assert {"NEXT_FIGHT_LOG", "NEXT_FIGHT_ROLLS", "NEXT_FIGHT_CONDITIONS"} <= set(next_fight_names(book))
    party = [k for k, c in enumerate(fight.roster) if c.side == "PCs"]
    with window(xlsx, tmp_path) as calc:
        type_cells(calc, cells_to_type(book, sheet_inputs(rules, fight)))
        calc.save()
        hp = [int(v) for v in read_back(calc, ["ROSTER_HP_NOW"])["ROSTER_HP_NOW"][: len(fight.roster)]]
        start = places(book, "ROSTER_START_HP")
        type_cells(calc, {("Encounter", *start[k]): str(hp[k]) for k in party})
        for name in next_fight_names(book):
            calc.goto(name)
            calc.key("Delete")
        calc.enter("Log.B2", "1")
        calc.save()
        lines = [
            replace(
                c,
                start_hp=hp[k] if k in party else c.start_hp,
                init_rolls=(None,) * len(c.init_rolls),
                aided_round=None,
                casting_time=None,
                morale_roll=None,
            )
            for k, c in enumerate(fight.roster)
        ]
        expected = expected_outputs(rules, Fight(lines, [], [], round=1))
        got = read_back(
            calc, [*expected, *CLEARED, "COND_TARGET", "COND_NAME", "ROSTER_INIT_ROLL", "ROSTER_NAME"]
        )
        if mismatches(expected, got, 1):
            calc.screenshot("next-fight")
    assert any(hp[k] < fight.lines[k].max_hp for k in party)  # the party was wounded: the test can tell
    found = mismatches(expected, got, 1)
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    assert got["ROSTER_HP_NOW"][: len(party)] == [hp[k] for k in party]
    assert got["ROSTER_NAME"][: len(fight.roster)] == [c.name for c in fight.roster]
    for name in (*CLEARED, "COND_TARGET", "COND_NAME", "ROSTER_INIT_ROLL"):
        assert all(v is None for v in got[name]), name
