"""The extension's package (pycalc.oxt): its IDL and type library match the UDF signatures, it is the
same bytes at every build, and it carries every function with its arguments and messages."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

import build
from bench import bench_oxt
from pycalc import lite, oxt, tables
from pycalc.table_files import RULESET_IDS
from tests.test_lite_bundle import HOUSE

ROOT = Path(__file__).resolve().parent.parent
LO25 = ROOT / ".venv" / "lo25"
WRITE = LO25 / "sdk" / "usr" / "lib" / "libreoffice" / "sdk" / "bin" / "unoidl-write.bin"
PROGRAM = LO25 / "root" / "usr" / "lib" / "libreoffice" / "program"


def test_the_committed_idl_is_generated_from_the_udf_signatures():
    assert oxt.IDL_PATH.read_text(encoding="utf-8") == oxt.project_idl(), (
        "the UDF signatures changed: run python -m pycalc.oxt, then bash scripts/oxt-rdb.sh"
    )


def test_the_type_library_declares_every_method_and_argument_of_the_idl():
    """unoidl-write stores each name as text (once): every method and argument name is there, and no
    method name the IDL lacks. (The next test, with the SDK, compares the bytes.)"""
    text = oxt.RDB_PATH.read_bytes().decode("latin-1")
    functions = oxt.add_in_functions(list(RULESET_IDS))
    assert (
        len(functions) >= 70
    )  # 73 since the duplicate calculators of bfrpg, combat17 and cnc went (88 before)
    for function in functions:
        assert function.method in text
        assert all(arg.idl_name in text for arg in function.args), function.name
    methods = set(re.findall(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]+(?![A-Za-z0-9_])", text))
    assert methods == {f.method for f in functions if "_" in f.method}
    assert text.count("[][]any") == sum(f.array for f in functions)


def test_the_type_library_is_what_unoidl_write_makes_of_the_idl(tmp_path):
    if not WRITE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("the SDK's unoidl-write missing under CI: scripts/ensure-env.sh fetches it")
        pytest.skip("the SDK's unoidl-write is fetched by scripts/ensure-env.sh")
    env = {**os.environ, "LD_LIBRARY_PATH": f"{PROGRAM}:{LO25 / 'root' / 'usr' / 'lib' / 'x86_64-linux-gnu'}"}
    out = tmp_path / "gmcombat.rdb"
    subprocess.run([str(WRITE), str(PROGRAM / "types.rdb"), str(oxt.IDL_PATH), str(out)], check=True, env=env)
    assert out.read_bytes() == oxt.RDB_PATH.read_bytes()


def test_idl_names_are_what_unoidl_write_takes():
    assert oxt.camel_case("damage_mods") == "damageMods"
    assert oxt.camel_case("double") == "doubleValue"
    for function in oxt.add_in_functions(list(RULESET_IDS)):
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", function.method)
        for arg in function.args:
            assert re.fullmatch(r"[a-z][a-zA-Z0-9]*", arg.idl_name) and arg.idl_name not in oxt.IDL_KEYWORDS


def everything() -> list:
    return [tables.load_ruleset(ruleset_id) for ruleset_id in RULESET_IDS]


def test_the_package_is_the_same_bytes_at_every_build_and_is_committed():
    first, second = oxt.oxt_bytes(everything()), oxt.oxt_bytes(everything())
    assert first == second
    assert (ROOT / "workbook" / oxt.OXT_NAME).read_bytes() == first, (
        "workbook/gmcombat.oxt is stale: build.py"
    )


def test_the_package_holds_the_component_every_function_and_the_tables(tmp_path):
    path = tmp_path / "x.oxt"
    path.write_bytes(oxt.oxt_bytes(everything()))
    with zipfile.ZipFile(path) as package:
        names = package.namelist()
        manifest = package.read("META-INF/manifest.xml").decode()
        component = package.read(oxt.COMPONENT_FILE).decode()
        components = package.read("gmcombat.components").decode()
        assert package.read("gmcombat.rdb") == oxt.RDB_PATH.read_bytes()
    assert names == [
        "META-INF/manifest.xml",
        "description.xml",
        "gmcombat.components",
        "gmcombat.rdb",
        "gmcombat.py",
    ]
    assert "gmcombat.rdb" in manifest and "gmcombat.components" in manifest
    assert 'loader="com.sun.star.loader.Python"' in components and oxt.IMPLEMENTATION in components
    tree = ast.parse(component)
    imports = {
        getattr(n, "module", None) or a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert {i.split(".")[0] for i in imports} <= {
        "threading",
        "unohelper",
        "com",
        "org",
        "importlib",
        "types",
    }
    functions = dict(
        (f[0], f) for f in ast.literal_eval(component.split("_FUNCTIONS = ", 1)[1].split("\n\n", 1)[0])
    )
    udfs = lite.declared_udfs(lite.bundle_udf_modules(list(RULESET_IDS)))
    assert list(functions) == [u.name for u in udfs]
    for udf in udfs:
        assert [a[0] for a in functions[udf.name][5]] == [p.name for p in udf.params]
        assert [a[2] for a in functions[udf.name][5]] == [p.default is not None for p in udf.params]
    for ruleset_id in RULESET_IDS:
        assert f"    {ruleset_id!r}: " in component  # its tables travel


def test_a_build_of_some_rulesets_answers_ruleset_for_the_others():
    component = oxt.component_source([tables.load_ruleset("cnc")], oxt.add_in_functions(list(RULESET_IDS)))
    modules = ast.literal_eval(component.split("_UDF_MODULES = ", 1)[1].split("\n", 1)[0])
    assert "cnc_falling" in modules and not any(m.startswith("spelljammer") for m in modules)
    assert "#RULESET? this extension was built without the " in component


def test_build_writes_the_extension_with_house_rules(tmp_path):
    """build.py --lite --house: the extension carries the changed tables, as the Lite bundles do."""
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE)
    out = tmp_path / "out"
    assert build.main(["--lite", "--house", str(house), "--out", str(out), "--quiet"]) == 0
    with zipfile.ZipFile(out / oxt.OXT_NAME) as package:
        component = package.read(oxt.COMPONENT_FILE).decode()
    assert "house rules applied: Our table" in component
    assert (out / oxt.OXT_NAME).read_bytes() != oxt.oxt_bytes(everything())


def test_the_benchmark_runs_with_its_smallest_settings(capsys):
    assert bench_oxt.main(["--runs", "1", "--ruleset", "cnc"]) == 0
    shown = capsys.readouterr().out
    assert "gmcombat.oxt:" in shown and "KiB" in shown
