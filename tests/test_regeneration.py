"""Safe regeneration: kept inputs and GM sheets, backups, watch mode, fuzzed loader."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import build
from pycalc.sheets.workbook import GENERATED_SHEETS, workbook_bytes
from pycalc.tables import PROJECT_ROOT, TableError, parse_tables_file

SOURCE = PROJECT_ROOT / "tables" / "spelljammer"


def cell(book: openpyxl.Workbook, name: str):
    sheet, ref = next(iter(book.defined_names[name].destinations))
    return book[sheet][ref.replace("$", "")]


def test_rebuild_keeps_inputs_and_gm_sheets_and_backs_up(tmp_path: Path):
    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    path = out / "spelljammer.xlsx"
    book = openpyxl.load_workbook(path)
    cell(book, "STRIKE_SC").value = 131
    cell(book, "TARGET_SIZE").value = "Giant"
    cell(book, "PICK_LIGHTING").value = "Cloudy night"
    notes = book.create_sheet("My notes")
    notes["A1"] = "Ogre chief: SC 95, DEF 30"
    notes["B2"] = "=STRIKE_MODIFIED_SC"
    book.save(path)
    edited = path.read_bytes()
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    rebuilt = openpyxl.load_workbook(path)
    assert (cell(rebuilt, "STRIKE_SC").value, cell(rebuilt, "TARGET_SIZE").value) == (131, "Giant")
    assert cell(rebuilt, "PICK_LIGHTING").value == "Cloudy night"
    assert (
        rebuilt["My notes"]["A1"].value == "Ogre chief: SC 95, DEF 30"
        and rebuilt["My notes"]["B2"].value == "=STRIKE_MODIFIED_SC"
    )
    assert cell(rebuilt, "STRIKE_MODIFIED_SC").data_type == "f"  # formulas are regenerated, not carried
    assert (out / "spelljammer.bak.xlsx").read_bytes() == edited
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet", "--fresh"]) == 0
    assert cell(openpyxl.load_workbook(path), "STRIKE_SC").value == 112


def test_rebuild_drops_a_sheet_an_older_build_made_and_keeps_the_gms(tmp_path: Path, capsys):
    """A sheet the old build recorded making (its custom document property) that this build no longer
    makes is not taken for one the GM added."""
    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    path = out / "spelljammer.xlsx"
    book = openpyxl.load_workbook(path)
    made = json.loads(book.custom_doc_props[GENERATED_SHEETS].value)
    assert made == book.sheetnames
    book.create_sheet("Old workings")["A1"] = "=1+1"
    book.create_sheet("My notes")["A1"] = "Ogre chief"
    book.custom_doc_props[GENERATED_SHEETS].value = json.dumps([*made, "Old workings"])
    book.save(path)
    assert build.main(["--ruleset", "spelljammer", "--out", str(out)]) == 0
    assert "kept in spelljammer.xlsx: sheet 'My notes'" in capsys.readouterr().out
    rebuilt = openpyxl.load_workbook(path)
    assert rebuilt.sheetnames == [*made, "My notes"]
    assert json.loads(rebuilt.custom_doc_props[GENERATED_SHEETS].value) == made


def test_unreadable_old_workbook_is_rebuilt_fresh(tmp_path: Path, capsys):
    (tmp_path / "spelljammer.xlsx").write_bytes(b"not a workbook")
    assert build.main(["--ruleset", "spelljammer", "--out", str(tmp_path)]) == 0
    assert "could not read spelljammer.xlsx" in capsys.readouterr().out
    assert cell(openpyxl.load_workbook(tmp_path / "spelljammer.xlsx"), "STRIKE_SC").value == 112


def test_watch_rebuilds_on_save_and_survives_a_bad_save(tmp_path: Path, monkeypatch, capsys):
    tables = tmp_path / "tables"
    shutil.copytree(SOURCE, tables / "spelljammer")
    monkeypatch.setenv("PYCALC_TABLES", str(tables))
    out = tmp_path / "out"
    args = build.parse_args(["--ruleset", "spelljammer", "--out", str(out)])
    strike = tables / "spelljammer" / "strike.yaml"
    stop, watching = threading.Event(), threading.Event()

    def keep_going() -> bool:  # called once the first build is done and the files are watched
        watching.set()
        return not stop.is_set()

    def edit() -> None:
        assert watching.wait(120)
        time.sleep(0.5)
        strike.write_text(
            strike.read_text().replace("{from: 130, grievous_max: 7", "{from: 131, grievous_max: 7")
        )
        time.sleep(2.5)
        strike.write_text(
            strike.read_text().replace("{from: 131, grievous_max: 7", "{from: 130, grievous_max: 8")
        )
        time.sleep(2.5)
        stop.set()

    editor = threading.Thread(target=edit)
    editor.start()
    assert build.watch(args, ["spelljammer"], interval=0.2, keep_going=keep_going) == 0
    editor.join()
    printed = capsys.readouterr()
    assert printed.out.count("changed: ") == 2 and "strike.yaml" in printed.out
    assert "gap between 129 and 131" in printed.err and "not rebuilt" in printed.out
    assert "rebuilt in" in printed.out
    grievous = openpyxl.load_workbook(out / "spelljammer.xlsx")["Strike tables"]
    assert any(c.value == 8 for row in grievous.iter_rows() for c in row)
    assert "cached values written" in printed.out  # written first, their values after: as a plain build
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--check"]) == 0


def test_watch_rebuilds_only_the_rulesets_a_change_touches(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PYCALC_TABLES", str(tmp_path))
    everyone = ["cnc", "osr", "spelljammer"]
    touched = build.affected_rulesets([tmp_path / "osr" / "weapons.yaml"], everyone, [])
    assert touched == ["osr"]
    both = [tmp_path / "spelljammer" / "ruleset.yaml", tmp_path / "cnc" / "x.yaml"]
    assert build.affected_rulesets(both, everyone, []) == ["cnc", "spelljammer"]
    house = tmp_path.parent / "house.yaml"
    assert build.affected_rulesets([house], everyone, [house]) == everyone


YAML_LINES = st.lists(
    st.sampled_from(
        [
            "tables:",
            "  cover:",
            "    kind: entries",
            "    kind: bands",
            "    rows:",
            "      - {from: 1, to: 2}",
            "      - {id: a, label: A}",
            "    columns: {sc: {label: SC, type: int}}",
            "    title: T",
            "  - x",
            "rulings:",
            "  r: {label: L, default: a, choices: {a: b}}",
            ": :",
            "'",
            "{",
            "&a x",
            "*a",
            "!!str 1",
            "    source: {section: S}",
            "\t",
            "key: [1, 2",
            "- - -",
            "    picker: choice",
        ]
    ),
    max_size=14,
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "spelljammer"
    shutil.copytree(SOURCE, folder)
    return folder


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=YAML_LINES)
def test_fuzzed_table_files_load_or_fail_with_file_and_line(scratch: Path, lines: list[str]):
    path = scratch / "zz_fuzz.yaml"
    path.write_text("\n".join(lines) + "\n")
    try:
        problems = parse_tables_file(path)[2]
    except TableError as error:
        problems = error.problems
    if problems:
        assert all(p.line >= 1 and p.file.endswith("zz_fuzz.yaml") for p in problems)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 3000), st.binary(min_size=1, max_size=8))
def test_mutated_shipped_yaml_never_crashes_the_loader(scratch: Path, offset: int, junk: bytes):
    target = scratch / "strike.yaml"
    data = (SOURCE / "strike.yaml").read_bytes()
    target.write_bytes(data[: offset % len(data)] + junk + data[offset % len(data) :])
    try:
        problems = parse_tables_file(target)[2]
    except TableError as error:
        problems = error.problems
    assert all(p.file.endswith("strike.yaml") and p.line >= 1 for p in problems)


def test_workbook_bytes_do_not_depend_on_the_clock(monkeypatch):
    from pycalc.sheets.workbook import build_workbook
    from pycalc.tables import load_ruleset

    first = workbook_bytes(build_workbook(load_ruleset("spelljammer")))
    time.sleep(1.1)
    assert workbook_bytes(build_workbook(load_ruleset("spelljammer"))) == first


def test_a_workbook_built_again_unchanged_is_left_as_it_is(tmp_path: Path):
    """A file that holds exactly the parts a build makes is not written again (no backup, the same
    bytes), even where its zip was compressed otherwise."""
    import zipfile

    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet"]) == 0
    path = out / "spelljammer.xlsx"
    with zipfile.ZipFile(path) as source:
        parts = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
        for info, data in parts:
            target.writestr(info, data, compresslevel=1)
    recompressed = path.read_bytes()
    assert build.main(["--ruleset", "spelljammer", "--out", str(out), "--quiet", "--force"]) == 0
    assert path.read_bytes() == recompressed and not (out / "spelljammer.bak.xlsx").exists()
