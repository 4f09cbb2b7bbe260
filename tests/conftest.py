"""Shared fixtures: the rulesets, workbooks built once per run, one LibreOffice session."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import build
from pycalc import libreoffice
from pycalc.libreoffice import CalcSession, uno_available
from pycalc.table_files import RULESET_IDS
from pycalc.tables import RuleSet, load_ruleset

# Hypothesis runs are reproducible by default (the same examples on every run, as CI needs);
# HYPOTHESIS_PROFILE=explore draws new examples each run to hunt for bugs on a developer machine.
# Every @given test also carries explicit @settings (tests/test_suite_bounds.py checks it).
settings.register_profile("reproducible", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))


OWN_TABLES = Path(__file__).parent / "fixtures" / "tables"


def require_libreoffice() -> None:
    """Skip without LibreOffice on a developer machine; fail under CI, where it must be there."""
    if uno_available():
        return
    message = (
        "LibreOffice with python3-uno is needed: soffice on PATH and "
        f"`{libreoffice.SYSTEM_PYTHON} -c 'import uno'` working "
        "(apt-get install libreoffice-calc-nogui python3-uno poppler-utils)"
    )
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def spelljammer() -> RuleSet:
    return load_ruleset("spelljammer")


@pytest.fixture(scope="session")
def build_ruleset(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Build one ruleset's workbooks (once per run) into a temporary folder; returns the folder. An id
    that is not a shipped ruleset is read from tests/fixtures/tables (a ruleset in YAML alone)."""
    folders: dict[str, Path] = {}

    def build_one(ruleset_id: str) -> Path:
        if ruleset_id not in folders:
            out = tmp_path_factory.mktemp(f"workbook-{ruleset_id}")
            own = [] if ruleset_id in RULESET_IDS else ["--tables", str(OWN_TABLES)]  # e.g. the bx fixture
            assert build.main([*own, "--ruleset", ruleset_id, "--out", str(out), "--quiet"]) == 0
            folders[ruleset_id] = out
        return folders[ruleset_id]

    return build_one


@pytest.fixture(scope="session")
def built(build_ruleset: Callable[[str], Path]) -> Path:
    """The folder holding freshly built spelljammer workbooks."""
    return build_ruleset("spelljammer")


@pytest.fixture(scope="session")
def calc() -> Iterator[CalcSession]:
    require_libreoffice()
    with CalcSession() as session:
        yield session
