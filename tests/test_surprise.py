"""Surprise with a die for each side, from the encounter block's ``surprise:`` (pycalc.surprise): the
seeds' examples, the shared functions, the block's errors at their line, and the Surprise calculator
recalculated in LibreOffice equal to the engine for osr (typed ranges, a ruling), bfrpg (a row picked,
rows ticked) and the B/X-like fixture (an own ruleset: typed, no words of its own)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import surprise
from pycalc.errors import RuleError
from pycalc.surprise import Side
from pycalc.tables import load_folder, load_ruleset
from pycalc.udfs import surprise as udfs
from tests.parity import same
from tests.test_osr_parity import flipped, ruling_cells
from tests.test_resolution_block import assert_reported_at, broken_copy

OSR, BFRPG = load_ruleset("osr"), load_ruleset("bfrpg")
BX = load_folder(Path(__file__).parent / "fixtures" / "tables" / "bx")
NAMES = ["SURPRISE_A_ON_B", "SURPRISE_B_ON_A", "SURPRISE_A_CHANCE", "SURPRISE_B_CHANCE", "SURPRISE_RESULT"]


def label(rules, table_id: str, row_id: str) -> str:
    return str(rules.table(table_id).entry(row_id).label)


AMBUSH = label(BFRPG, "surprise_range", "ambush")
NORMAL = label(BFRPG, "surprise_range", "normal")
ELVES = "less_likely_surprised"


def test_the_four_osr_examples_of_the_seed():
    for row in OSR.table("surprise_examples").rows:
        found = surprise.surprise_range(OSR, row["a_surprises_on_max"], row["b_normally_surprised_max"])
        assert found == row["a_surprises_b_max"], row.id
        if row["b_surprises_on_max"] is not None:
            found = surprise.surprise_range(OSR, row["b_surprises_on_max"], row["a_normally_surprised_max"])
            assert found == row["b_surprises_a_max"], row.id


def test_osr_normal_is_1_2_and_its_ruling_stops_an_easily_surprised_side_raising_the_range():
    assert surprise.surprise_range(OSR, 2, 2) == 2
    assert surprise.surprise_range(OSR, 2, 4) == 4
    assert surprise.surprise_range(flipped(OSR, "surprise_range_adjustment"), 2, 4) == 2
    assert surprise.surprise_range(OSR, 6, 6) == 6 and surprise.surprise_range(OSR, 1, 0) == 0
    with pytest.raises(RuleError, match="#SURPRISES ON"):
        surprise.surprise_range(OSR, 7, 2)
    with pytest.raises(RuleError, match="#SURPRISED ON"):
        surprise.surprise_range(OSR, 2, -1)


def test_bfrpg_normal_1_2_an_ambush_1_4_and_elves_one_less():
    """ "most normal characters are surprised on a roll of 1-2", "well hidden and prepared to perform an
    ambush surprise on a roll of 1-4", Elves: "reduce the range by 1"."""
    normal, ambush = Side(NORMAL, ()), Side(AMBUSH, ())
    assert surprise.pair_range(BFRPG, normal, normal) == 2
    assert surprise.pair_range(BFRPG, ambush, normal) == 4
    assert surprise.pair_range(BFRPG, normal, Side(NORMAL, (ELVES,))) == 1
    assert surprise.pair_range(BFRPG, ambush, Side(NORMAL, (ELVES,))) == 3  # 1-4 becomes 1-3
    found = surprise.surprise_outputs(BFRPG, ambush, Side(NORMAL, (ELVES,)), 6, 3)
    assert found["SURPRISE_A_CHANCE"] == Fraction(1, 2)
    assert found["SURPRISE_RESULT"] == BFRPG.table("surprise_outcomes").value("a_surprises_b", "result")


def test_the_result_says_who_is_surprised_and_rolls_off_the_die_are_refused():
    texts = {row.id: row["result"] for row in OSR.table("surprise_outcomes").rows}
    typed = Side(2, 2)
    assert surprise.surprise_outputs(OSR, typed, typed)["SURPRISE_RESULT"] == ""
    assert surprise.surprise_outputs(OSR, typed, typed, 1, 1)["SURPRISE_RESULT"] == texts["both_surprised"]
    assert surprise.surprise_outputs(OSR, typed, typed, 3, 2)["SURPRISE_RESULT"] == texts["a_surprises_b"]
    assert surprise.surprise_outputs(OSR, typed, typed, 2, 3)["SURPRISE_RESULT"] == texts["b_surprises_a"]
    assert surprise.surprise_outputs(OSR, typed, typed, 3, 3)["SURPRISE_RESULT"] == texts["no_surprise"]
    assert surprise.surprise_outputs(OSR, typed, typed, 7, 1)["SURPRISE_RESULT"] == "#ROLL FOR A? 1 to 6"
    assert surprise.surprise_outputs(BX, typed, typed, 3, 3)["SURPRISE_RESULT"] == "No surprise"


def test_the_shared_functions():
    assert udfs.surprise_range("osr", 5.0, 1.0) == 4
    assert udfs.surprise_chance("osr", 5.0, 1.0) == pytest.approx(4 / 6)
    assert udfs.surprise_outcome("osr", 4.0, 2.0, 3.0, 6.0) == surprise.outcome(OSR, 4, 2, 3, 6)
    assert udfs.surprise_range("bfrpg", AMBUSH, 1.0) == 3
    assert udfs.surprise_range("BFRPG", NORMAL, 2.0) == 2
    assert udfs.surprise_range("bfrpg", "sometimes", 2.0).startswith("#SURPRISE RANGE? one of Normal")
    assert udfs.surprise_range("osr", 9.0, 2.0) == "#SURPRISES ON? 0 to 6"
    assert udfs.surprise_range("cnc", 2.0, 2.0) == "#RULESET? cnc has no surprise block"
    assert udfs.surprise_outcome("osr", 2.0, 2.0, 0.0, 1.0) == "#ROLL FOR A? 1 to 6"


SURPRISE_LINE = "    die: surprise_rules.surprise_die_sides\n"


@pytest.mark.parametrize(
    "ruleset, find, replace, line_text, message",
    [
        (
            "osr",
            SURPRISE_LINE,
            "    die: surprise_rules.die_sides\n",
            "die: surprise_rules.die_sides",
            "has no entry 'die_sides'",
        ),
        ("osr", SURPRISE_LINE, "", "normally: surprise_rules", "encounter.surprise is missing 'die'"),
        (
            "osr",
            "      no_surprise: surprise_outcomes.no_surprise.result\n",
            "",
            "a_surprises_b: surprise_outcomes",
            "encounter.surprise.outcomes is missing 'no_surprise'",
        ),
        (
            "bfrpg",
            "    surprises_on: surprise_range.surprised_max\n",
            "    surprises_on: surprise_range\n",
            "surprises_on: surprise_range",
            "must be table.column",
        ),
        (
            "bfrpg",
            "    adjustments: surprise_adjustments.surprised_max\n",
            "    adjustments: surprise_adjustments.surprised_mx\n",
            "adjustments: surprise_adjustments.surprised_mx",
            "has no column 'surprised_mx'",
        ),
    ],
)
def test_a_bad_surprise_block_stops_the_load_at_its_line(
    tmp_path: Path, ruleset, find, replace, line_text, message
):
    assert_reported_at(broken_copy(tmp_path, ruleset, find, replace), line_text, message)


# --------------------------------------------------------------------------- the workbooks


def typed_cells(a_on: int, a_by: int, b_on: int, b_by: int, rolls: tuple) -> dict[str, object]:
    """The cells of two sides whose ranges are typed (osr, bx), and their rolls."""
    return {
        "SURPRISE_A_SURPRISES_ON": a_on,
        "SURPRISE_A_SURPRISED_ON": a_by,
        "SURPRISE_B_SURPRISES_ON": b_on,
        "SURPRISE_B_SURPRISED_ON": b_by,
        "SURPRISE_ROLL_FOR_A": rolls[0],
        "SURPRISE_ROLL_FOR_B": rolls[1],
    }


def osr_scenarios() -> list[tuple[dict[str, object], dict[str, object]]]:
    chance = random.Random(17)
    rulings = [OSR, flipped(OSR, "surprise_range_adjustment")]
    found = []
    ranges = [
        (5, 2, 2, 2),
        (5, 2, 2, 1),
        (5, 2, 4, 2),
        (5, 2, 4, 1),
        (2, 2, 2, 2),
        (6, 0, 0, 6),
        (1, 4, 6, 3),
    ]
    ranges += [(7, 2, 2, 2), (2, -1, 2, 2)] + [
        tuple(chance.randint(0, 6) for _ in range(4)) for _ in range(20)
    ]
    for index, (a_on, a_by, b_on, b_by) in enumerate(ranges):
        rules = rulings[index % 2]
        rolls = [(None, None), (1, 6), (chance.randint(1, 6), chance.randint(1, 6)), (3, 7)][index % 4]
        cells = {**typed_cells(a_on, a_by, b_on, b_by, rolls), **ruling_cells(rules)}
        found.append((cells, surprise.surprise_outputs(rules, Side(a_on, a_by), Side(b_on, b_by), *rolls)))
    return found


def bfrpg_scenarios() -> list[tuple[dict[str, object], dict[str, object]]]:
    chance = random.Random(2062)
    picks = [NORMAL, AMBUSH]
    found = []
    for index in range(30):
        a_pick, b_pick = picks[index % 2], picks[index // 2 % 2]
        if index == 29:
            a_pick = "Sometimes"  # not a row: its range says so
        a_elf, b_elf = chance.random() < 0.5, chance.random() < 0.5
        rolls = (chance.choice([None, 1, 2, 3, 4, 5, 6]), chance.choice([None, 1, 3, 6, 7]))
        cells = {
            "SURPRISE_A_PICK": a_pick,
            "SURPRISE_B_PICK": b_pick,
            "SURPRISE_A_LESS_LIKELY_SURPRISED": a_elf,
            "SURPRISE_B_LESS_LIKELY_SURPRISED": b_elf,
            "SURPRISE_ROLL_FOR_A": rolls[0],
            "SURPRISE_ROLL_FOR_B": rolls[1],
        }
        a = Side(a_pick, (ELVES,) if a_elf else ())
        b = Side(b_pick, (ELVES,) if b_elf else ())
        found.append((cells, surprise.surprise_outputs(BFRPG, a, b, *rolls)))
    return found


def bx_scenarios() -> list[tuple[dict[str, object], dict[str, object]]]:
    found = []
    for a_on, a_by, b_on, b_by, rolls in [
        (2, 2, 2, 2, (1, 3)),
        (4, 1, 2, 3, (2, 2)),
        (2, 2, 5, 2, (None, 4)),
    ]:
        cells = typed_cells(a_on, a_by, b_on, b_by, rolls)
        found.append((cells, surprise.surprise_outputs(BX, Side(a_on, a_by), Side(b_on, b_by), *rolls)))
    return found


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "ruleset_id, scenarios", [("osr", osr_scenarios), ("bfrpg", bfrpg_scenarios), ("bx", bx_scenarios)]
)
def test_the_surprise_calculator_equals_the_engine(
    calc, build_ruleset: Callable[[str], Path], ruleset_id: str, scenarios
) -> None:
    cases = scenarios()
    results = calc.evaluate(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx", [c for c, _ in cases], NAMES)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells}"
        for (cells, expected), got in zip(cases, results, strict=True)
        for name in NAMES
        if not same(expected[name], got[name])
    ]
    assert not mismatches, f"{len(mismatches)} mismatches, first:\n" + "\n".join(mismatches[:6])
    shown = {str(expected["SURPRISE_RESULT"]) for _, expected in cases}
    assert len(shown) >= 3  # several outcomes, not one


def test_an_own_ruleset_with_a_surprise_block_gets_the_other_calculators_sheet(build_ruleset) -> None:
    book = openpyxl.load_workbook(build_ruleset("bx") / "bx.xlsx")
    sheet = book["Other calculators"]
    assert book.sheetnames.index("Other calculators") == book.sheetnames.index("Attack calculator") + 1
    texts = [c.value for row in sheet.iter_rows() for c in row if isinstance(c.value, str)]
    assert "Surprise (d6 for each side)" in texts and "Party A surprises others on 1 to" in texts
