"""build.py: bad tables write nothing and keep the old workbook; builds are reproducible; --check."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from openpyxl import load_workbook

import build
from pycalc.tables import PROJECT_ROOT
from tests.conftest import require_libreoffice


def run_build(*args: str, tables: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin"} | ({"PYCALC_TABLES": str(tables)} if tables else {})
    return subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "build.py"), *args],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        env=env,
        check=False,
    )


def test_help_lists_the_options():
    result = run_build("--help")
    assert result.returncode == 0
    for option in ("--ruleset", "--out", "--check"):
        assert option in result.stdout


def test_a_bad_table_stops_the_build_and_keeps_the_previous_workbook(tmp_path: Path):
    tables = tmp_path / "tables"
    shutil.copytree(PROJECT_ROOT / "tables" / "spelljammer", tables / "spelljammer")
    out = tmp_path / "out"
    assert run_build("--out", str(out), tables=tables).returncode == 0
    before = (out / "spelljammer.xlsx").read_bytes()
    strike = tables / "spelljammer" / "strike.yaml"
    strike.write_text(strike.read_text().replace("{from: 10, to: 16,", "{from: 12, to: 16,"))
    result = run_build("--out", str(out), tables=tables)
    assert result.returncode == 1
    line = next(
        i for i, text in enumerate(strike.read_text().splitlines(), 1) if "{from: 12, to: 16," in text
    )
    assert f"strike.yaml:{line}: table 'critical_grievous': gap between 9 and 12" in result.stderr
    assert "nothing was written" in result.stderr and "Traceback" not in result.stderr
    assert (out / "spelljammer.xlsx").read_bytes() == before
    assert not list(out.glob(".*.tmp"))


def test_a_bad_table_read_after_another_ruleset_started_building_writes_nothing(tmp_path: Path):
    """The rulesets are handed to the builders as they are read, largest first: a problem in a table of
    one read later stops the builds already started, and no file is written."""
    tables, out = tmp_path / "tables", tmp_path / "out"
    for ruleset_id in ("bfrpg", "spelljammer"):
        shutil.copytree(PROJECT_ROOT / "tables" / ruleset_id, tables / ruleset_id)
        out.mkdir(exist_ok=True)
        for suffix in (".xlsx", ".xlsm"):
            shutil.copy(PROJECT_ROOT / "workbook" / f"{ruleset_id}{suffix}", out)
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    strike = tables / "spelljammer" / "strike.yaml"  # spelljammer's workbooks are the smaller: read last
    strike.write_text(strike.read_text().replace("{from: 10, to: 16,", "{from: 12, to: 16,"))
    result = run_build("--out", str(out), "--force", tables=tables)
    assert result.returncode == 1
    assert "nothing was written" in result.stderr and "Traceback" not in result.stderr
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


def test_two_builds_are_byte_identical_and_check_sees_staleness(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert build.main(["--ruleset", "spelljammer", "--out", str(first), "--quiet"]) == 0
    assert build.main(["--ruleset", "spelljammer", "--out", str(second), "--quiet"]) == 0
    for name in ("spelljammer.xlsx", "spelljammer.xlsm"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    assert build.main(["--ruleset", "spelljammer", "--out", str(first), "--check"]) == 0
    (first / "spelljammer.xlsx").write_bytes(b"old")
    assert build.main(["--ruleset", "spelljammer", "--out", str(first), "--check"]) == 1


def test_unknown_ruleset_is_a_clear_error():
    result = run_build("--ruleset", "gurps")
    assert result.returncode == 2 and "no tables for gurps" in result.stderr


def test_a_tables_folder_without_rulesets_is_a_clear_error(tmp_path: Path, capsys):
    own = PROJECT_ROOT / "tests" / "fixtures" / "tables"
    out = tmp_path / "out"
    assert build.main(["--tables", str(own / "bx"), "--out", str(out)]) == 2  # the ruleset, not its parent
    assert f"--tables {own}" in capsys.readouterr().err
    assert build.main(["--tables", str(tmp_path), "--out", str(out)]) == 2  # no ruleset.yaml below
    assert "no ruleset under" in capsys.readouterr().err
    assert not out.exists()


def test_an_up_to_date_ruleset_is_not_built_again_and_any_change_builds_it(tmp_path: Path, capsys):
    """Built from the same tables and code, the files are what a build writes again (inputs are carried
    from them), so nothing is built; a table saved, a workbook the GM typed into or --force builds."""
    tables, out = tmp_path / "tables", tmp_path / "out"
    shutil.copytree(PROJECT_ROOT / "tables" / "cnc", tables / "cnc")
    shutil.copytree(PROJECT_ROOT / "workbook", out, ignore=shutil.ignore_patterns("built-from.json"))
    common = ["--tables", str(tables), "--out", str(out)]
    assert build.main(common) == 0
    assert "built 1 ruleset(s)" in capsys.readouterr().out
    first = {name: (out / name).read_bytes() for name in ("cnc.xlsx", "cnc.xlsm")}
    assert build.main(common) == 0
    assert "nothing to build: 1 ruleset(s) up to date" in capsys.readouterr().out
    assert {name: (out / name).read_bytes() for name in first} == first
    assert build.main([*common, "--force"]) == 0
    assert "built 1 ruleset(s)" in capsys.readouterr().out
    assert {name: (out / name).read_bytes() for name in first} == first  # what the skip relied on
    edited = tmp_path / "edited.xlsx"  # the GM typed into the workbook: it is built, the input kept
    book = load_workbook(out / "cnc.xlsx")
    sheet_title, cell = next(iter(book.defined_names["ATTACK_ROLL"].destinations))
    book[sheet_title][cell.replace("$", "")] = 17
    book.save(edited)
    shutil.copy(edited, out / "cnc.xlsx")
    assert build.main(common) == 0
    assert "kept in cnc.xlsx: ATTACK_ROLL = 17" in capsys.readouterr().out
    saved = tables / "cnc" / "ruleset.yaml"
    saved.write_text(saved.read_text() + "\n# a comment\n")
    assert build.main(common) == 0
    assert "built 1 ruleset(s)" in capsys.readouterr().out


def test_a_table_saved_while_a_build_runs_leaves_its_ruleset_to_build_again(tmp_path: Path, monkeypatch):
    """The files are recorded as built from the tables the build read: a table saved while it runs
    (watch mode: while LibreOffice works out the values) is not taken as built."""
    tables, out = tmp_path / "tables", tmp_path / "out"
    shutil.copytree(PROJECT_ROOT / "tables" / "cnc", tables / "cnc")
    shutil.copytree(PROJECT_ROOT / "workbook", out, ignore=shutil.ignore_patterns("built-from.json"))
    saved = tables / "cnc" / "ruleset.yaml"
    built_files = build.built_files

    def saving_meanwhile(*args):
        saved.write_text(saved.read_text() + "\n# saved while the workbooks are built\n")
        return built_files(*args)

    monkeypatch.setattr(build, "built_files", saving_meanwhile)
    assert build.main(["--tables", str(tables), "--out", str(out), "--quiet"]) == 0
    monkeypatch.setenv("PYCALC_TABLES", str(tables))
    args = build.parse_args(["--out", str(out)])
    record = build.read_built_from(out)
    assert record["cnc"]["files"]  # recorded, but not as built from the tables now saved
    assert not build.up_to_date("cnc", args, record, build.source_digests(args, ["cnc"]))


def test_a_build_whose_values_came_from_libreoffice_is_up_to_date_afterwards(tmp_path: Path, capsys):
    require_libreoffice()
    out = tmp_path / "out"
    assert build.main(["--ruleset", "cnc", "--out", str(out)]) == 0
    assert "built 1 ruleset(s)" in capsys.readouterr().out
    assert build.main(["--ruleset", "cnc", "--out", str(out)]) == 0
    assert "built 0 ruleset(s)" in capsys.readouterr().out  # (its Lite bundle alone is made again)


def test_a_log_pick_the_calculator_cannot_take_is_a_file_line_error_and_writes_nothing(tmp_path: Path):
    """A table in encounter.log_picks whose columns the resolution block never reads (cover's to-hit
    column renamed) is found only while the Log is written: its line, no traceback, nothing written."""
    tables, out = tmp_path / "tables", tmp_path / "out"
    shutil.copytree(PROJECT_ROOT / "tests" / "fixtures" / "tables" / "bx", tables / "bx")
    out.mkdir()
    (out / "bx.xlsx").write_bytes(b"the previous workbook")
    attack = tables / "bx" / "attack.yaml"
    text = attack.read_text()
    cover = text.index("  cover:")
    renamed = text[cover:].replace("hit:", "cover_hit:", 4)
    attack.write_text(text[:cover] + renamed)
    result = run_build("--out", str(out), "--ruleset", "bx", "--force", tables=tables)
    assert result.returncode == 1
    line = next(
        i
        for i, text in enumerate((tables / "bx" / "ruleset.yaml").read_text().splitlines(), 1)
        if "log_picks:" in text
    )
    assert f"ruleset.yaml:{line}: encounter log picks: 'cover' changes nothing" in result.stderr
    assert "nothing was written" in result.stderr and "Traceback" not in result.stderr
    assert [path.name for path in out.iterdir()] == ["bx.xlsx"]
    assert (out / "bx.xlsx").read_bytes() == b"the previous workbook"
