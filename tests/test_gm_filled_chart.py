"""A chart the GM fills in: an own ruleset's fumble table shipped empty (``gm_fillable``, rows []),
rolled on by a roll of its own after a Fumble (``chart_from``, ``chart_to``, ``chart_die``). Empty,
the calculator says where to fill it in and asks for no roll; with the GM's rows typed into the
workbook it reads them, a roll no row covers and rows that overlap are called out. The engine
(``pycalc.resolution_calculator``) reads the same rows from the YAML; the workbook is recalculated
in LibreOffice with the rows typed into its table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.sheets.common import table_name
from pycalc.sheets.reference import FILLABLE_ROWS
from pycalc.table_files import Row
from pycalc.tables import PROJECT_ROOT, RuleSet, load_ruleset
from pycalc.udfs import shared
from tests.parity import same
from tests.test_dual_build import cell
from tests.test_generic_parity import cells, edited_bx, scenarios
from tests.test_osr_engine import with_fumble_rows

GM_CHART_BLOCK = """
  critical: automatic
  fumble:
    mode: level_check
    chart: gm_fumbles
    chart_from: roll_from
    chart_to: roll_to
    chart_die: 6
    text: effect
  damage:
    least: attack_rules.least_damage
"""
GM_CHART_TABLES = """
  gm_fumbles:
    title: Fumble table (GM-fillable)
    kind: entries
    gm_fillable: true
    source: {section: Fumbles}
    columns:
      roll_from: {label: d6 from, type: int}
      roll_to: {label: d6 to, type: int}
      effect: {label: Effect, type: text}
    rows: []
"""
# the GM's rows: 4 in two of them, 6 in none; a row with its first roll only is no row yet
GM_ROWS = ((1, 2, "Weapon dropped"), (3, 4, "Off balance"), (4, 5, "Trips"), (6, None, "Half typed"))
COLUMNS = ("roll_from", "roll_to", "effect")


@pytest.fixture(scope="module")
def gm_chart_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    return edited_bx(tmp_path_factory, GM_CHART_BLOCK, "bx-gm-chart", tables=GM_CHART_TABLES)


def filled(rules: RuleSet) -> RuleSet:
    """The rules with the GM's rows in the fumble table, as though typed into the YAML."""
    table = rules.table("gm_fumbles")
    rows = tuple(
        Row(dict(zip(COLUMNS, values, strict=True)), table.section, 1, id=f"row{n}", label=f"Row {n}")
        for n, values in enumerate(GM_ROWS)
    )
    return replace(rules, tables={**rules.tables, "gm_fumbles": replace(table, rows=rows)})


def typed_rows(
    rows: tuple[tuple[object, ...], ...], table_id: str = "gm_fumbles", columns: tuple[str, ...] = COLUMNS
) -> dict[str, list[str]]:
    """A table's columns in the workbook with ``rows`` typed at the top, the rest emptied."""
    return {
        table_name(table_id, column): [
            "" if k >= len(rows) or rows[k][i] is None else str(rows[k][i]) for k in range(FILLABLE_ROWS)
        ]
        for i, column in enumerate(columns)
    }


def as_typed(found: dict[str, object]) -> dict[str, list[str]]:
    """Calculator cells as one-cell columns, typed as at the keyboard ("" empties)."""
    words = {True: "TRUE", False: "FALSE", None: ""}
    return {
        name: [words[value] if value is None or isinstance(value, bool) else str(value)]
        for name, value in found.items()
    }


def sheet_and_engine(calc, rules: RuleSet, xlsx: Path, rows, cases: list[CalculatorInputs]) -> list[dict]:
    """Each case's outputs in the workbook with ``rows`` typed into its table, beside the engine's."""
    outputs = list(attack_outputs(rules, CalculatorInputs(roll=10)))
    got = calc.evaluate_columns(
        xlsx, [{**typed_rows(rows), **as_typed(cells(rules, one))} for one in cases], outputs
    )
    return [
        {name: (attack_outputs(rules, one)[name], row[name][0]) for name in outputs}
        for one, row in zip(cases, got, strict=True)
    ]


def differences(pairs: list[dict], cases: list[CalculatorInputs]) -> list[str]:
    return [
        f"{name}: engine {engine!r} != sheet {sheet!r} for {one}"
        for one, pair in zip(cases, pairs, strict=True)
        for name, (engine, sheet) in pair.items()
        if not same(engine, sheet)
    ]


FILL_IN = "fill in its table on the Attack tables sheet"
FUMBLE = CalculatorInputs(bonus=0, target=12, roll=1, follow_roll=15, level=1)


def test_an_empty_gm_table_says_where_to_fill_it_in(calc, gm_chart_bx):
    rules, xlsx = gm_chart_bx
    cases = [replace(FUMBLE, chart_roll=roll) for roll in (None, 3)]
    cases += list(scenarios(rules, 60, 31))
    pairs = sheet_and_engine(calc, rules, xlsx, (), cases)
    assert not differences(pairs, cases), differences(pairs, cases)[:5]
    said = f"Fumble (follow-up roll 15), {FILL_IN}"
    assert [pair["ATTACK_SUMMARY"][0] for pair in pairs[:2]] == [said, said]


def test_the_rows_the_gm_types_are_read(calc, gm_chart_bx):
    rules, xlsx = gm_chart_bx
    rules = filled(rules)
    hit = CalculatorInputs(bonus=0, target=12, roll=14, dice="1d8", damage_roll=5, chart_roll=4)
    cases = [replace(FUMBLE, chart_roll=roll) for roll in (None, 0, 1, 3, 4, 5, 6, 7)] + [hit]
    cases += list(scenarios(rules, 120, 37))
    pairs = sheet_and_engine(calc, rules, xlsx, GM_ROWS, cases)
    assert not differences(pairs, cases), differences(pairs, cases)[:5]
    effects = [pair["ATTACK_CHART_EFFECT"][0] for pair in pairs[:8]]
    assert effects == [
        "",
        "#CHART ROLL? 1 to 6",
        "Weapon dropped",
        "Off balance",
        "#CHART? two rows cover 4",
        "Trips",
        "#CHART ROLL? no row covers 6",
        "#CHART ROLL? 1 to 6",
    ]
    assert pairs[0]["ATTACK_SUMMARY"][0] == "Fumble (follow-up roll 15) - type the chart roll"
    assert pairs[8]["ATTACK_SUMMARY"][0].endswith("the chart roll 4 is not used by this roll: clear it")


def test_the_chart_function_says_where_to_fill_it_in(gm_chart_bx, monkeypatch: pytest.MonkeyPatch):
    """fumble_effect (xlwings, Lite) reads the YAML's rows: none yet, it says where to fill them in."""
    rules, _ = gm_chart_bx
    monkeypatch.setenv("PYCALC_TABLES", str(Path(rules.table("gm_fumbles").file).parent.parent))
    load_ruleset.cache_clear()
    try:
        assert shared.fumble_effect("bx", 3) == FILL_IN
    finally:
        monkeypatch.delenv("PYCALC_TABLES")
        load_ruleset.cache_clear()


OSR_ROWS = ((1, 10, "Drops weapon"), (11, 18, "Falls down"), (18, 19, "Trips"))


def test_osr_s_workbooks_read_the_fumble_rows_the_gm_types(calc):
    """The shipped osr.xlsx reads the rows typed into its Critical Fumble table; so does osr.xlsm, whose
    calculator is the same native formulas."""
    cases = [
        CalculatorInputs(target=12, level=1, roll=1, follow_roll=15, chart_roll=roll)
        for roll in (None, 0, 7, 11, 18, 20, 21)
    ]
    typed = typed_rows(OSR_ROWS, "fumble_table", ("d20_from", "d20_to", "effect"))
    scenarios = [
        {
            **typed,
            **as_typed(
                {
                    "ATTACK_TARGET": one.target,
                    "ATTACK_LEVEL": one.level,
                    "ATTACK_ROLL": one.roll,
                    "ATTACK_FOLLOW_ROLL": one.follow_roll,
                    "ATTACK_CHART_ROLL": one.chart_roll,
                }
            ),
        }
        for one in cases
    ]
    names = ["ATTACK_SUMMARY", "ATTACK_CHART_EFFECT"]
    got = calc.evaluate_columns(PROJECT_ROOT / "workbook" / "osr.xlsx", scenarios, names)
    expected = [attack_outputs(with_fumble_rows(*OSR_ROWS), one) for one in cases]
    assert [[g[n][0] for n in names] for g in got] == [[e[n] for n in names] for e in expected]
    said = [e["ATTACK_CHART_EFFECT"] for e in expected]
    assert said[2] == "Drops weapon" and said[4] == "#CHART? two rows cover 18"
    assert said[5] == "#CHART ROLL? no row covers 20" and said[6] == "#CHART ROLL? 1 to 20"
    assert expected[2]["ATTACK_SUMMARY"] == "Fumble (follow-up roll 15), Drops weapon"
    books = [
        openpyxl.load_workbook(PROJECT_ROOT / "workbook" / f"osr{suffix}") for suffix in (".xlsx", ".xlsm")
    ]
    formulas = [str(cell(book, "ATTACK_SUMMARY").value) for book in books]
    assert formulas[0] == formulas[1] and "ATTACK_CHART_EFFECT" in formulas[0]
