"""Benchmark: build time against its floor, and LibreOffice load+recalculate time against an empty workbook.

Prints figures; asserts nothing (these machines are shared and noisy). Every figure is a whole process,
timed in paired rounds (each round runs every command once, in turn) and reported as the median:

- the floor: a bare interpreter importing openpyxl, PyYAML and xlwings;
- ``build.py`` for every ruleset (.xlsx + .xlsm, no PDFs) over a copy of the committed workbooks (so the
  cached values are known, as in a GM's rebuild), as a ratio to the floor: with ``--force`` (every
  workbook generated again) and without (nothing changed since the warm-up build: every ruleset is
  up to date and nothing is generated);
- with ``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/base main``), the same build
  from that checkout in the same rounds, for a before/after ratio;
- ``--watch ID``: ``build.py --watch`` on a copy of the tables; each round saves a changed table file of
  that ruleset and reads how long the rebuild took to write both workbooks (printed by build.py, from
  the change being seen), and how long until their cached values were written too.

    .venv/bin/python bench/bench_build.py [--runs 7] [--baseline /tmp/base] [--watch spelljammer]
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""Every command runs as on a GM's machine: Python keeps the bytecode it compiles (the warm-up
build writes it), where a shell that sets PYTHONDONTWRITEBYTECODE would compile every changed
module again in each run."""
FLOOR = [sys.executable, "-c", "import openpyxl, yaml, xlwings"]


def seconds(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - started


def build_command(checkout: Path, out: Path, extra: list[str]) -> list[str]:
    return [sys.executable, str(checkout / "build.py"), "--out", str(out), "--quiet", *extra]


def watch_rounds(checkout: Path, ruleset_id: str, runs: int) -> tuple[list[float], list[float]]:
    """(seconds to write the workbooks, seconds until their cached values were written), per save
    (the same for a build.py that writes the values with the workbooks)."""
    built = re.compile(r"built 1 ruleset\(s\) in ([0-9.]+) s(; cached values)?")
    valued = re.compile(r"cached values written in ([0-9.]+) s")
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as folder:
        tables, out = Path(folder) / "tables", Path(folder) / "out"
        shutil.copytree(checkout / "tables" / ruleset_id, tables / ruleset_id)
        shutil.copytree(checkout / "workbook", out)
        command = [sys.executable, str(checkout / "build.py"), "--watch", "--ruleset", ruleset_id]
        process = subprocess.Popen(
            [*command, "--out", str(out)],
            stdout=subprocess.PIPE,
            text=True,
            env={**ENV, "PYCALC_TABLES": str(tables)},
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(
            target=lambda: [lines.put(line) for line in process.stdout or []], daemon=True
        ).start()

        def wait_for(pattern: re.Pattern[str]) -> re.Match[str]:
            while True:
                found = pattern.search(lines.get(timeout=300))
                if found:
                    return found

        try:
            wait_for(re.compile("watching"))
            first: list[float] = []
            complete: list[float] = []
            edited = sorted((tables / ruleset_id).glob("*.yaml"))[-1]
            for run in range(runs):
                edited.write_text(edited.read_text() + f"\n# bench save {run}\n")
                written = wait_for(built)
                first.append(float(written.group(1)))
                complete.append(float(wait_for(valued).group(1)) if written.group(2) else first[-1])
            return first, complete
        finally:
            process.terminate()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="another checkout to time in the same rounds")
    parser.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    parser.add_argument("--watch", metavar="ID", help="also time watch-mode rebuilds of this ruleset")
    args = parser.parse_args()
    extra = [f"--ruleset={r}" for r in args.ruleset]
    checkouts = {"this checkout": ROOT}
    if args.baseline:
        checkouts = {"baseline": args.baseline.resolve(), **checkouts}
    commands: dict[str, tuple[Path, list[str]]] = {}
    for name, checkout in checkouts.items():
        if "--force" in (checkout / "build.py").read_text():  # skips up-to-date rulesets
            commands[f"build.py --force, {name} (every workbook generated)"] = (checkout, [*extra, "--force"])
            commands[f"build.py, {name} (nothing changed: up to date)"] = (checkout, extra)
        else:
            commands[f"build.py, {name} (every workbook generated)"] = (checkout, extra)
    times: dict[str, list[float]] = {"floor": [], **{name: [] for name in commands}}
    with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
        outs = {}
        for name, (checkout, _) in commands.items():
            outs[name] = Path(folder) / str(len(outs))
            shutil.copytree(checkout / "workbook", outs[name])
            warm_up = build_command(checkout, outs[name], extra)
            subprocess.run(warm_up, cwd=checkout, check=True, env=ENV)
        for _ in range(args.runs):
            times["floor"].append(seconds(FLOOR, ROOT))
            for name, (checkout, options) in commands.items():
                times[name].append(seconds(build_command(checkout, outs[name], options), checkout))
    floor = statistics.median(times["floor"])
    which = ", ".join(args.ruleset) or "every ruleset"
    print(f"median of {args.runs} paired rounds, whole process; build.py for {which}, .xlsx + .xlsm, no PDFs")
    print(f"  floor (python -c 'import openpyxl, yaml, xlwings'): {floor:.3f} s")
    for name in commands:
        build = statistics.median(times[name])
        print(f"  {name}: {build:.3f} s = {build / floor:.1f}x the floor")
    if args.baseline:
        generated = [name for name in commands if name.endswith("(every workbook generated)")]
        before, after = (statistics.median(times[name]) for name in generated)  # baseline first
        print(f"  every workbook generated, this checkout / baseline: {after / before:.2f}")
    if args.watch:
        print(
            f"build.py --watch --ruleset {args.watch}, {args.runs} saves of a table file (as build.py times it):"
        )
        for name, checkout in checkouts.items():
            first, complete = watch_rounds(checkout, args.watch, args.runs)
            print(
                f"  {name}: both workbooks written in median {statistics.median(first):.3f} s, "
                f"with their cached values in {statistics.median(complete):.3f} s"
            )


if __name__ == "__main__":
    main()
