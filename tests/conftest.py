"""Shared fixtures: the rulesets, workbooks built once per run, one LibreOffice session."""

from __future__ import annotations

import fcntl
import os
import shutil
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests given a longer time-out than the default (the suite's longest: every formula cell in two
    engines, the Encounter fights) run first, in their order, the others after in theirs: under ``-n``
    the processes then end together, instead of one left finishing a long test alone."""
    items.sort(key=lambda item: item.get_closest_marker("timeout") is None)


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


def built_once(shared: Path, ruleset_id: str, options: tuple[str, ...]) -> Path:
    """The folder in ``shared`` holding one ruleset's build (``build.py`` with ``options``), made by
    whichever test process asks first (the others wait on its lock and take what it built). An id that
    is not a shipped ruleset is read from tests/fixtures/tables (a ruleset in YAML alone)."""
    name = "-".join(["workbook", ruleset_id, *(option.strip("-") for option in options)])
    out, done = shared / name, shared / f"{name}.built"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            own = [] if ruleset_id in RULESET_IDS else ["--tables", str(OWN_TABLES)]  # e.g. the bx fixture
            assert build.main([*own, "--ruleset", ruleset_id, *options, "--out", str(out), "--quiet"]) == 0
            done.touch()
    return out


def builds(tmp_path_factory: pytest.TempPathFactory, *options: str) -> Callable[[str], Path]:
    """A ruleset id -> its build with ``options``, made once per run (the test processes of ``-n``
    share it), in a folder of this process's own (LibreOffice locks a workbook it opens)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's, above each worker's
    folders: dict[str, Path] = {}

    def build_one(ruleset_id: str) -> Path:
        if ruleset_id not in folders:
            out = tmp_path_factory.mktemp(f"workbook-{ruleset_id}")
            shutil.copytree(built_once(shared, ruleset_id, options), out, dirs_exist_ok=True)
            folders[ruleset_id] = out
        return folders[ruleset_id]

    return build_one


@pytest.fixture(scope="session")
def build_ruleset(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Build one ruleset's workbooks (once per run) into a temporary folder; returns the folder."""
    return builds(tmp_path_factory)


@pytest.fixture(scope="session")
def build_printed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Build one ruleset's workbooks and PDFs (``--pdf``, once per run); returns the folder."""
    return builds(tmp_path_factory, "--pdf")


@pytest.fixture(scope="session")
def built(build_ruleset: Callable[[str], Path]) -> Path:
    """The folder holding freshly built spelljammer workbooks."""
    return build_ruleset("spelljammer")


@pytest.fixture(scope="session")
def calc() -> Iterator[CalcSession]:
    require_libreoffice()
    with CalcSession() as session:
        yield session
