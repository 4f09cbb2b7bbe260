"""The test run cannot hang: every property test is bounded, and a time-out names any test that stalls."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).parent
PROJECT = TESTS.parent


def decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def property_tests() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef) and any(
                decorator_name(d) == "given" for d in node.decorator_list
            ):
                found.append((f"{path.name}::{node.name}", node))
    return found


def explicit_settings(node: ast.FunctionDef) -> dict[str, ast.expr]:
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and decorator_name(decorator) == "settings":
            return {keyword.arg: keyword.value for keyword in decorator.keywords if keyword.arg}
    return {}


def test_the_suite_has_property_tests_to_check():
    assert len(property_tests()) >= 20


def test_every_property_test_states_how_many_examples_and_no_deadline():
    loose = [
        name
        for name, node in property_tests()
        if not {"max_examples", "deadline"} <= explicit_settings(node).keys()
    ]
    assert not loose, f"@given without @settings(max_examples=..., deadline=None): {loose}"


def test_property_tests_draw_the_same_examples_on_every_run():
    assert settings.default.derandomize, "load the 'reproducible' hypothesis profile (tests/conftest.py)"


def test_a_per_test_time_out_turns_a_hang_into_a_named_failure():
    options = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert 0 < int(options["timeout"]) <= 600
