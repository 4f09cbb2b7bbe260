"""Every d20 ruleset's Odds sheet heat maps come from one writer (``pycalc.sheets.d20_heat``), read from
the ruleset's ``resolution:`` block, and equal the generic engine's chances
(``pycalc.resolution_chances.chances``) in real LibreOffice: the shipped four and the YAML-only fixture, with
every ruling drawn at random in a few scenarios (the critical exception, the confirmation's natural 1,
the chart's plain rows...)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from pycalc import resolution, resolution_chances
from pycalc.d20 import CRITICAL, FUMBLE, HIT
from pycalc.sheets import d20_heat
from pycalc.sheets.common import ruling_name
from pycalc.tables import RuleSet, load_folder, load_ruleset
from tests.conftest import OWN_TABLES
from tests.parity import same

GRIDS = ("ODDS_HIT_GRID", "ODDS_CRIT_GRID", "ODDS_FUMBLE_ROW")
RULING_DRAWS = 3


def rules_of(ruleset_id: str) -> RuleSet:
    own = OWN_TABLES / ruleset_id
    return load_folder(own) if own.is_dir() else load_ruleset(ruleset_id)


def grid_cells(book: openpyxl.Workbook, name: str) -> tuple[str, list[tuple[str, str, int, int]]]:
    """(sheet, [(sheet, cell, row header, column header)]) of a heat map (the headers: its row's
    column A and its column's row above the map)."""
    sheet_name, ref = next(iter(book.defined_names[name].destinations))
    sheet = book[sheet_name]
    rows = sheet[ref.replace("$", "")]
    top = rows[0][0].row - 1
    found = [
        (sheet_name, c.coordinate, sheet.cell(c.row, 1).value, sheet.cell(top, c.column).value)
        for row in rows
        for c in row
    ]
    return sheet_name, found


def expected(rules: RuleSet, name: str, row_value: object, column_value: object) -> Fraction:
    if name == "ODDS_FUMBLE_ROW":  # one row: the levels are the column headers
        return resolution_chances.chances(rules, resolution.Attack(0, 10, level=int(column_value)))[FUMBLE]
    odds = resolution_chances.chances(rules, resolution.Attack(int(row_value), int(column_value)))
    return odds[HIT] + odds[CRITICAL] if name == "ODDS_HIT_GRID" else odds[CRITICAL]


def ruling_draws(rules: RuleSet, count: int, seed: int) -> list[dict[str, str]]:
    chance = random.Random(seed)
    return [{}] + [
        {ruling_id: chance.choice(list(ruling.choices)) for ruling_id, ruling in rules.rulings.items()}
        for _ in range(count)
    ]


def heat_mismatches(calc, rules: RuleSet, xlsx: Path) -> tuple[list[str], int]:
    book = openpyxl.load_workbook(xlsx)
    grids = {name: grid_cells(book, name)[1] for name in GRIDS if name in book.defined_names}
    cells = [(sheet, cell) for found in grids.values() for sheet, cell, _, _ in found]
    draws = ruling_draws(rules, RULING_DRAWS, seed=len(rules.id))
    scenarios = [{ruling_name(r): choice for r, choice in chosen.items()} for chosen in draws]
    results = calc.evaluate_cells_per_scenario(xlsx, scenarios, cells)
    problems, compared = [], 0
    for chosen, values in zip(draws, results, strict=True):
        flipped = dataclasses.replace(rules, chosen={**rules.chosen, **chosen})
        got = iter(values)
        for name, found in grids.items():
            for _, cell, row_value, column_value in found:
                want, value = expected(flipped, name, row_value, column_value), next(got)
                compared += 1
                if not same(want, value):
                    problems.append(
                        f"{name} {cell} ({row_value}, {column_value}) {chosen}: {want} != {value}"
                    )
    return problems, compared


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "combat17", "bfrpg", "bx"])
def test_heat_maps_equal_the_generic_engine(calc, build_ruleset: Callable[[str], Path], ruleset_id: str):
    rules = rules_of(ruleset_id)
    problems, compared = heat_mismatches(calc, rules, build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    assert not problems, f"{len(problems)} mismatches, first: " + "\n".join(problems[:5])
    assert compared >= 200 * (RULING_DRAWS + 1)


def test_which_maps_a_block_gets():
    """A critical grid when the chance can change with the number needed; a fumble row by level."""
    blocks = {r: rules_of(r).resolution_block for r in ("cnc", "osr", "combat17", "bfrpg", "bx")}
    assert {r for r, b in blocks.items() if b and d20_heat.critical_varies(b)} == {"osr", "bfrpg"}
    assert {r for r, b in blocks.items() if b and d20_heat.fumble_by_level(b)} == {"osr"}
