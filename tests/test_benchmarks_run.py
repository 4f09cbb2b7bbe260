"""Every benchmark runs: each script in bench/ with its smallest settings exits cleanly and prints its
figures (what they measure is printed, never asserted: these machines are shared and noisy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_libreoffice

BENCH = Path(__file__).resolve().parent.parent / "bench"
SMALLEST = {  # script -> its smallest settings, and a word its figures always print
    "bench_build.py": (["--runs", "1", "--ruleset", "cnc"], "build.py"),
    "bench_encounter.py": (["--runs", "1", "--ruleset", "cnc"], "log rows"),
    "bench_keystroke.py": (["--edits", "2", "--ruleset", "cnc"], "damage roll"),
    "bench_odds.py": ([], "engine"),
    "bench_oxt.py": (["--runs", "1", "--ruleset", "cnc"], "cnc"),
    "bench_odds_all.py": (["--runs", "1", "--dice", "1d6"], "ms"),
    "bench_recalc.py": (["--runs", "1", "--ruleset", "cnc"], "cnc"),
    "bench_round_kill.py": (["--edits", "2", "--runs", "1", "--ruleset", "cnc"], "per keystroke"),
    "bench_udfs.py": (["--only", "d20_need,strike_result,d20_kill_chance"], "ms"),
}
NEEDS_LIBREOFFICE = {
    "bench_build.py",
    "bench_encounter.py",
    "bench_keystroke.py",
    "bench_oxt.py",
    "bench_recalc.py",
    "bench_round_kill.py",
}


def test_every_benchmark_has_its_smallest_settings():
    scripts = {path.name for path in BENCH.glob("bench_*.py")}
    assert scripts == set(SMALLEST), (
        f"give each benchmark its smallest settings here: {scripts ^ set(SMALLEST)}"
    )


@pytest.mark.timeout(600)
@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_the_benchmark_runs_with_its_smallest_settings(script: str):
    if script in NEEDS_LIBREOFFICE:
        require_libreoffice()
    arguments, word = SMALLEST[script]
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *arguments],
        capture_output=True,
        text=True,
        timeout=540,
        cwd=BENCH.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert word in done.stdout, done.stdout[-2000:]
    assert "not found: nothing measured" not in done.stdout
