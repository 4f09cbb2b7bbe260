"""The xlwings Lite bundles (workbook/lite/<id>/main.py, all/main.py) in the real runtime: Pyodide.

For each bundle one Node process (tests/lite/run_bundle.js) loads Pyodide (the npm package that
scripts/ensure-env.sh installs into .venv/node), a stand-in ``xlwings`` whose decorators only
register, and the bundle's main.py; it calls every function on the argument sets of
tests/lite/lite_harness.py and returns the results, which must equal ``pycalc.udfs`` in CPython
(floats to 1e-12). A bundle with one table number changed must be caught. Not tested here: Excel
itself (xlwings Lite's add-in), which cannot run on this machine.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import build
from pycalc import lite
from pycalc.tables import RuleSet, available_rulesets, load_ruleset
from tests.lite.lite_harness import Case, Harness, not_carried

PROJECT = Path(__file__).resolve().parent.parent
RUNNER = PROJECT / "tests" / "lite" / "run_bundle.js"
PYODIDE = PROJECT / ".venv" / "node" / "node_modules" / "pyodide"
BUNDLES = [*available_rulesets(), lite.ALL]
GOOD_SETS = {lite.ALL: 25}  # argument sets per function drawn from the pools (bad inputs come on top)
GOOD_SETS_PER_RULESET = 60
# Functions that answer every set of a bundle with a '#...' message, as CPython does: the bundle's one
# ruleset has no such chart ("#NONE? cnc has no critical chart") or is no d20 ruleset (spelljammer).
# The shared attack functions worked out by the generic Attack calculator answer the rulesets that
# have it (cnc, osr, combat17), not bfrpg (its own functions) or spelljammer (no d20 ruleset).
CHARTS = {"crit_effect", "fumble_effect"}
ATTACK = {"d20_need", "d20_result", "d20_hit_chance", "d20_chance"}
CALCULATOR = {
    "d20_effect",
    "d20_damage",
    "d20_expected_damage",
    "d20_damage_chance_at_least",
    "d20_kill_chance",
    "d20_check",
}
SURPRISE = {"surprise_range", "surprise_chance", "surprise_outcome"}  # a ruleset with a surprise block
NO_ANSWER_IN = {
    "cnc": CHARTS | SURPRISE,
    "osr": CHARTS,
    "combat17": SURPRISE,
    "bfrpg": CHARTS | CALCULATOR,
    "spelljammer": CHARTS | ATTACK | CALCULATOR | SURPRISE,
    "all": set(),
}


def require_pyodide() -> None:
    """Skip without Node or the pyodide package on a developer machine; fail under CI."""
    missing = [what for what, ok in (("node", shutil.which("node")), ("pyodide", PYODIDE.exists())) if not ok]
    if not missing:
        return
    message = f"{' and '.join(missing)} missing: `bash scripts/test.sh` installs pyodide into .venv/node"
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {message}", pytrace=False)
    pytest.skip(message)


def carried(bundle: str) -> list[str]:
    return list(available_rulesets()) if bundle == lite.ALL else [bundle]


@cache
def udfs_of(bundle: str) -> tuple[lite.Udf, ...]:
    return tuple(lite.declared_udfs(lite.bundle_udf_modules(carried(bundle))))


def cpython(udf: lite.Udf, args: list[Any]) -> Any:
    """What pycalc.udfs gives in CPython, as JSON gives it back (the form the Pyodide results take)."""
    function = getattr(importlib.import_module(f"pycalc.udfs.{udf.module}"), udf.name)
    return json.loads(json.dumps(function(*args)))


def cases_of(bundle: str) -> list[Case]:
    by_name = {u.name: u for u in udfs_of(bundle)}
    harness = Harness(bundle, carried(bundle), list(by_name.values()), cpython)
    return harness.cases(GOOD_SETS.get(bundle, GOOD_SETS_PER_RULESET))


def run_in_pyodide(main_py: Path, cases: list[Case], folder: Path) -> dict[str, Any]:
    (folder / "cases.json").write_text(json.dumps([c.as_json() for c in cases]))
    out = folder / "results.json"
    command = ["node", str(RUNNER), str(PYODIDE), str(main_py), str(folder / "cases.json"), str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert finished.returncode == 0, finished.stderr[-3000:]
    return json.loads(out.read_text())


def same(expected: Any, got: Any) -> bool:
    """Equal, of the same kind (TRUE is not 1); floats within 1e-12."""
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(same(e, g) for e, g in zip(expected, got, strict=True))
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return math.isclose(expected, got, rel_tol=1e-12, abs_tol=1e-12)
    return type(expected) is type(got) and expected == got


def mismatches(bundle: str, cases: list[Case], results: list[dict[str, Any]]) -> list[str]:
    by_name = {u.name: u for u in udfs_of(bundle)}
    found = []
    for case, result in zip(cases, results, strict=True):
        expected = cpython(by_name[case.function], case.args)
        if "value" not in result:
            found.append(f"{case.function}{tuple(case.args)}: {result}")
        elif case.foreign and result["value"] == not_carried(carried(bundle), case.foreign):
            continue
        elif not same(expected, result["value"]):
            found.append(
                f"{case.function}{tuple(case.args)}: Pyodide {result['value']!r}, CPython {expected!r}"
            )
    return found


@pytest.mark.parametrize("bundle", BUNDLES)
def test_every_function_of_the_bundle_gives_in_pyodide_what_pycalc_udfs_give(
    bundle: str, tmp_path: Path
) -> None:
    require_pyodide()
    main_py = PROJECT / "workbook" / "lite" / bundle / lite.MAIN
    cases = cases_of(bundle)
    started = time.perf_counter()
    report = run_in_pyodide(main_py, cases, tmp_path)
    seconds = time.perf_counter() - started
    udfs = udfs_of(bundle)
    assert sorted(report["registered"]) == sorted(u.name for u in udfs)
    for udf in udfs:
        declared = [args[0] for args, _ in report["registered"][udf.name]["args"]]
        assert sorted(declared) == sorted(p.name for p in udf.params), udf.name
    assert report["yaml_available"] is False, "PyYAML must not be needed: the stand-in is what is tested"
    per_function = Counter(c.function for c in cases)
    assert len(cases) >= 300
    assert min(per_function.values()) >= 5, per_function.most_common()[-3:]
    wrong = mismatches(bundle, cases, report["results"])
    assert not wrong, f"{len(wrong)} of {len(cases)} differ:\n" + "\n".join(wrong[:15])
    answers = Counter(
        c.function
        for c, r in zip(cases, report["results"], strict=True)
        if not c.foreign and not str(r["value"]).startswith("#")
    )
    silent = [u.name for u in udfs if not answers[u.name]]
    assert set(silent) <= NO_ANSWER_IN.get(bundle, set()), silent
    print(
        f"\n{bundle}: Pyodide {report['pyodide']} (Python {report['python']}), {len(udfs)} functions,"
        f" {len(cases)} calls ({sum(answers.values())} answers, the rest '#...' messages),"
        f" main.py {main_py.stat().st_size:,} bytes, {seconds:.1f} s (Pyodide start"
        f" {report['startup_seconds']:.1f} s, main.py import {report['load_seconds']:.2f} s,"
        f" calls {report['call_seconds']:.1f} s)"
    )


def changed_number(rules: RuleSet, table_id: str) -> tuple[RuleSet, str, str, str]:
    """The ruleset with the first number of one table raised by 7, and the entry and column changed."""
    table = rules.table(table_id)
    column = next(c.id for c in table.columns if c.type in ("int", "number"))
    row = next(r for r in table.rows if isinstance(r.values.get(column), int))
    new_row = dataclasses.replace(row, values={**row.values, column: row.values[column] + 7})
    rows = tuple(new_row if r is row else r for r in table.rows)
    tables = {**rules.tables, table_id: dataclasses.replace(table, rows=rows)}
    return dataclasses.replace(rules, tables=tables), table_id, row.label or row.id or "", column


def test_a_bundle_with_one_table_number_changed_is_caught(tmp_path: Path) -> None:
    require_pyodide()
    mutated, table_id, entry, column = changed_number(load_ruleset("cnc"), "cover")
    main_py = tmp_path / "main.py"
    main_py.write_text(lite.main_source([mutated]), encoding="utf-8")
    cases = [c for c in cases_of("cnc") if c.function in ("modifier", "d20_need", "d20_hit_chance")]
    cases.append(Case("modifier", ["cnc", table_id, entry, column]))
    report = run_in_pyodide(main_py, cases, tmp_path)
    wrong = mismatches("cnc", cases, report["results"])
    assert any(w.startswith(f"modifier{('cnc', table_id, entry, column)}") for w in wrong), wrong[:5]


def test_the_committed_bundles_are_what_the_build_writes(tmp_path: Path) -> None:
    rulesets = [load_ruleset(r) for r in available_rulesets()]
    first = lite.bundle_files(rulesets, tmp_path, all_rulesets=True)
    assert first == lite.bundle_files(rulesets, tmp_path, all_rulesets=True), "not byte-identical"
    for path, data in first.items():
        committed = PROJECT / "workbook" / path.relative_to(tmp_path)
        assert committed.read_bytes() == data, f"{committed} is stale: run build.py --lite"


HOUSE = """\
house_rules:
  ruleset: spelljammer
  name: Our table
  tables:
    cover:
      set: {hard: {sc: -30}}
"""


def test_house_rules_travel_in_the_bundle(tmp_path: Path) -> None:
    """build.py --lite --house: the embedded tables carry the change (checked in CPython, in a fresh
    interpreter with the stand-in xlwings; the Pyodide tests above show CPython and Pyodide agree)."""
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE)
    out = tmp_path / "out"
    argv = ["--lite", "--ruleset", "spelljammer", "--house", str(house), "--out", str(out), "--quiet"]
    assert build.main(argv) == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "lite/spelljammer/main.py",
        "lite/spelljammer/requirements.txt",
    ]
    main_py = out / "lite" / "spelljammer" / lite.MAIN
    assert "House rules applied: Our table" in main_py.read_text()
    calls = [
        ("modifier", ["spelljammer", "cover", "hard", "sc"]),
        ("modifier", ["spelljammer", "cover", "soft", "sc"]),
    ]
    found = run_in_cpython(main_py, calls, tmp_path)
    shipped = load_ruleset("spelljammer").table("cover")
    assert found == [-30, shipped.by_label("soft")["sc"]] != [shipped.by_label("hard")["sc"]] * 2


def run_in_cpython(main_py: Path, calls: list[tuple[str, list[Any]]], folder: Path) -> list[Any]:
    """The bundle's answers in a fresh CPython (stand-in xlwings, no pycalc imported before it)."""
    (folder / "xlwings").mkdir(exist_ok=True)
    shutil.copy(PROJECT / "tests" / "lite" / "xlwings_standin.py", folder / "xlwings" / "__init__.py")
    script = (
        "import json, runpy, sys; sys.path.insert(0, sys.argv[1]); main = runpy.run_path(sys.argv[2]);"
        "print(json.dumps([main[name](*args) for name, args in json.loads(sys.argv[3])]))"
    )
    command = [sys.executable, "-I", "-c", script, str(folder), str(main_py), json.dumps(calls)]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def test_a_gm_s_own_d20_ruleset_gets_a_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """build.py --lite --tables DIR: an own ruleset (the bx fixture) answers the shared d20 functions
    from its embedded tables, as pycalc.udfs does reading the folder."""
    fixtures = PROJECT / "tests" / "fixtures" / "tables"
    out = tmp_path / "out"
    assert (
        build.main(["--lite", "--tables", str(fixtures), "--ruleset", "bx", "--out", str(out), "--quiet"])
        == 0
    )
    calls = [
        ("d20_result", ["bx", 20.0, 0.0, 40.0]),
        ("d20_need", ["bx", 3.0, 15.0, 1.0]),
        ("d20_hit_chance", ["bx", 0.0, 10.0]),
        ("d20_result", ["bx", 21.0, 0.0, 10.0]),
        ("d20_result", ["bx", 1.0, 5.0, 10.0, 0.0, 3.0, 20.0]),
        ("d20_need", ["nope", 3.0, 15.0]),
        ("modifier", ["bx", "cover", "partial"]),
        ("crit_effect", ["bx", 20.0]),
        ("d20_damage", ["bx", 15.0, 3.0, 14.0, "1d8+2", 5.0]),
        ("d20_expected_damage", ["bx", 3.0, 14.0, "1d8+2", 2.0]),
        ("d20_kill_chance", ["bx", 3.0, 14.0, "1d8+2", 5.0]),
    ]
    found = run_in_cpython(out / "lite" / "bx" / lite.MAIN, calls, tmp_path)
    shared = importlib.import_module("pycalc.udfs.shared")
    monkeypatch.setenv("PYCALC_TABLES", str(fixtures))
    load_ruleset.cache_clear()
    try:
        expected = [json.loads(json.dumps(getattr(shared, name)(*args))) for name, args in calls]
    finally:
        monkeypatch.delenv("PYCALC_TABLES")
        load_ruleset.cache_clear()
    assert found == expected
    assert expected[:4] == ["Hit", 11, 0.55, "#ROLL? 1 to 20"]
    assert expected[-5:-2] == [-2, "#NONE? bx has no critical chart", 7]


def test_build_check_finds_a_missing_or_changed_bundle(tmp_path: Path) -> None:
    argv = ["--lite", "--ruleset", "cnc", "--out", str(tmp_path), "--quiet"]
    assert build.main([*argv, "--check"]) == 1
    assert build.main(argv) == 0
    assert build.main([*argv, "--check"]) == 0
    assert not (tmp_path / "lite" / lite.ALL).exists(), "all/ only when every ruleset is built"
    main_py = tmp_path / "lite" / "cnc" / lite.MAIN
    main_py.write_text(main_py.read_text().replace("'cnc'", "'cnx'", 1))
    assert build.main([*argv, "--check"]) == 1
