"""A ruleset of the GM's own, in YAML only: ``build.py --tables`` writes its full workbooks and printed
sheets, a key the generic sheet cannot write yet stops the build at its file:line with nothing written,
and the shared d20 functions take its id."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

import build
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.tables import load_folder, load_ruleset
from pycalc.udfs import shared
from tests.conftest import require_libreoffice

FIXTURES = Path(__file__).parent / "fixtures" / "tables"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_libreoffice()  # the printed sheets
    out = tmp_path_factory.mktemp("own")
    assert build.main(["--tables", str(FIXTURES), "--out", str(out), "--quiet", "--pdf"]) == 0
    return out


def test_build_writes_the_workbooks_and_the_printed_sheets(built: Path):
    names = {p.name for p in built.iterdir()}
    assert {"bx.xlsx", "bx.xlsm", "bx-cheatsheet.pdf", "bx-reference.pdf"} <= names
    book = openpyxl.load_workbook(built / "bx.xlsx")
    visible = [s.title for s in book.worksheets if s.sheet_state == "visible"]
    assert visible[:8] == [
        "Contents",
        "Attack calculator",
        "Other calculators",  # the encounter block's surprise
        "Encounter",
        "Log",
        "Creatures",
        "Fight record",
        "Odds",
    ]
    assert any(title.endswith("tables") for title in visible)
    for name in (
        "ATTACK_ROLL",
        "ATTACK_RESULT",
        "ATTACK_DAMAGE",
        "ATTACK_HP_AFTER",
        "ODDS_HIT_GRID",
        "PICK_COVER",
    ):
        assert name in book.defined_names
    assert build.main(["--tables", str(FIXTURES), "--out", str(built), "--check"]) == 0


def test_the_roll_cells_hold_numbers_only_and_check_them(built: Path):
    """No text entry shares a roll's column (AutoInput cannot complete a typed 1 into dice text)."""
    book = openpyxl.load_workbook(built / "bx.xlsx")
    sheet = book["Attack calculator"]
    roll_cells = [
        book.defined_names[n].attr_text.split("!")[1].replace("$", "")
        for n in ("ATTACK_ROLL", "ATTACK_DAMAGE_ROLL")
    ]
    column = {ref.rstrip("0123456789") for ref in roll_cells}
    assert len(column) == 1
    texts = [c.value for c in sheet[column.pop()] if isinstance(c.value, str) and not c.value.startswith("=")]
    assert all(c.protection.locked for c in sheet["B"] if isinstance(c.value, str))  # labels only, locked
    assert not [t for t in texts if t[:1].isdigit()]
    checked = {
        str(ref) for v in sheet.data_validations.dataValidation if v.type == "whole" for ref in v.sqref.ranges
    }
    assert set(roll_cells) <= checked


def test_a_key_the_sheet_cannot_write_stops_the_build_at_its_line(tmp_path: Path, capsys):
    folder = tmp_path / "tables" / "bx"
    shutil.copytree(FIXTURES / "bx", folder)
    header = folder / "ruleset.yaml"
    header.write_text(
        header.read_text().replace("  critical: none\n", "  critical: confirm\n  follow_die: 12\n")
    )
    out = tmp_path / "out"
    assert build.main(["--tables", str(folder.parent), "--out", str(out)]) == 1
    line = header.read_text().splitlines().index("resolution:") + 2  # the block starts on the next line
    assert (
        f"ruleset.yaml:{line}: the generic workbook cannot write these yet: follow_die with a confirmation or a chart"
        in capsys.readouterr().err
    )
    assert not out.exists() or not any(out.iterdir())


def test_the_shared_d20_functions_take_the_own_rulesets_id(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYCALC_TABLES", str(FIXTURES))
    assert shared.d20_result("bx", 20, 0, 40) == "Hit"
    assert shared.d20_result("BX", 1, 30, 2) == "Miss"
    assert shared.d20_need("bx", 3, 15, 1) == 11
    assert shared.d20_hit_chance("bx", 0, 10) == pytest.approx(0.55)
    assert shared.d20_result("bx", 21, 0, 10) == "#ROLL? 1 to 20"
    assert shared.d20_result("nosuch", 10, 0, 10).startswith("#RULESET?")
    assert shared.modifier("bx", "cover", "partial") == -2
    assert shared.modifier("bx", "missile_range", "Short range") == 1
    assert shared.crit_effect("bx", 20) == "#NONE? bx has no critical chart"
    assert shared.fumble_effect("bx", 1) == "#NONE? bx has no fumble chart"
    assert shared.modifier("nosuch", "cover", "partial").startswith("#RULESET?")


def test_the_shared_damage_and_odds_functions_take_the_own_rulesets_id(monkeypatch: pytest.MonkeyPatch):
    """d20_damage, d20_expected_damage and d20_kill_chance answer what the own ruleset's calculator says."""
    # a shipped ruleset first, while its tables are read from tables/ (not the fixtures' folder set below)
    bfrpg = attack_outputs(load_ruleset("bfrpg"), CalculatorInputs(bonus=3, target=14, dice="1d8", hp=5))
    assert shared.d20_kill_chance("bfrpg", 3, 14, "1d8", 5) == pytest.approx(bfrpg["ATTACK_KILL_CHANCE"])
    monkeypatch.setenv("PYCALC_TABLES", str(FIXTURES))
    rules = load_folder(FIXTURES / "bx")
    hit = attack_outputs(rules, CalculatorInputs(bonus=3, target=14, roll=15, dice="1d8+2", damage_roll=5))
    assert shared.d20_damage("bx", 15, 3, 14, "1d8+2", 5) == hit["ATTACK_DAMAGE"] == 7
    assert shared.d20_damage("bx", 2, 3, 14, "1d8+2", 5) == 0  # a miss
    assert shared.d20_damage("bx", 15, 3, 14, "1d8+2", None) == ""  # the damage roll not typed yet
    odds = attack_outputs(rules, CalculatorInputs(bonus=3, target=14, dice="1d8+2", attacks=2, hp=5))
    assert shared.d20_expected_damage("bx", 3, 14, "1d8+2", 2) == pytest.approx(
        odds["ATTACK_EXPECTED_DAMAGE_ROUND"]
    )
    assert shared.d20_kill_chance("bx", 3, 14, "1d8+2", 5) == pytest.approx(odds["ATTACK_KILL_CHANCE"])
    assert shared.d20_expected_damage("bx", 3, 14, "9d12").startswith("#DICE?")


def test_the_printed_sheets_read_as_the_rulesets(built: Path):
    text = subprocess.run(
        ["pdftotext", str(built / "bx-reference.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert "B/X-like test fixture" in text and "Missile range" in text and "Natural roll needed" in text
