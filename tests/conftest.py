"""Shared fixtures: the rulesets, workbooks built once per run, one LibreOffice session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import build
from pycalc import libreoffice
from pycalc.libreoffice import CalcSession, uno_available
from pycalc.tables import RuleSet, load_ruleset


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
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build of every ruleset into a temporary folder; returns the folder."""
    out = tmp_path_factory.mktemp("workbook")
    assert build.main(["--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="session")
def calc() -> Iterator[CalcSession]:
    require_libreoffice()
    with CalcSession() as session:
        yield session
