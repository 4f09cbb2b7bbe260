"""Every script in bench/ runs with its smallest settings and prints its figures (a benchmark that no
longer runs cannot back a claim in the README). Nothing here times anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_libreoffice

ROOT = Path(__file__).resolve().parent.parent
SMALLEST = {
    "bench_build.py": ["--runs", "1", "--ruleset", "cnc"],
    "bench_encounter.py": ["--runs", "1", "--ruleset", "cnc"],
    "bench_odds.py": [],
    "bench_odds_all.py": ["--runs", "1", "--dice", "1d6"],
    "bench_recalc.py": ["--runs", "1", "--ruleset", "cnc"],
    "bench_udfs.py": ["--only", "dice_mean"],
}
NEEDS_LIBREOFFICE = {"bench_encounter.py", "bench_recalc.py"}


def test_every_bench_script_has_its_smallest_settings():
    scripts = {p.name for p in (ROOT / "bench").glob("bench_*.py")}
    assert scripts == set(SMALLEST)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_a_bench_script_runs_with_its_smallest_settings(script: str):
    if script in NEEDS_LIBREOFFICE:
        require_libreoffice()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *SMALLEST[script]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), "a benchmark prints its figures"
    assert "Traceback" not in done.stderr
