"""Benchmark: build time of one ruleset, and LibreOffice load+recalculate time against an empty workbook.

Prints figures; asserts nothing (these machines are shared and noisy). Run:
    .venv/bin/python bench/bench_build.py [--ruleset spelljammer] [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pycalc.libreoffice import CalcSession, convert, uno_available  # noqa: E402
from pycalc.sheets.common import define_name  # noqa: E402


def median_seconds(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def empty_workbook(path: Path) -> Path:
    book = openpyxl.Workbook()
    book.active["A1"] = 1
    book.active["B1"] = "=A1"
    define_name(book, "OUT", "Sheet!$B$1")
    book.save(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="spelljammer")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        command = [
            sys.executable,
            str(ROOT / "build.py"),
            "--ruleset",
            args.ruleset,
            "--out",
            str(out),
            "--quiet",
        ]
        build = median_seconds(lambda: subprocess.run(command, check=True), args.runs)
        print(
            f"build.py --ruleset {args.ruleset} (whole process, .xlsx + .xlsm): median {build:.3f} s over {args.runs} runs"
        )
        if not uno_available():
            print("LibreOffice with python3-uno not found: recalculation figures skipped")
            return
        workbook = out / f"{args.ruleset}.xlsx"
        empty = empty_workbook(out / "empty.xlsx")
        with CalcSession() as session:
            session.evaluate(empty, [{}], ["OUT"])  # warm-up
            load_empty = median_seconds(lambda: session.evaluate(empty, [{}], ["OUT"]), args.runs)
            load_ours = median_seconds(
                lambda: session.evaluate(
                    workbook, [{}], ["STRIKE_OUTCOME"] if args.ruleset == "spelljammer" else []
                ),
                args.runs,
            )
        print(
            f"LibreOffice load + recalculate + close over UNO: empty {load_empty * 1000:.0f} ms, "
            f"{workbook.name} {load_ours * 1000:.0f} ms, ratio {load_ours / load_empty:.2f}x"
        )
        converted = out / "converted"
        whole_empty = median_seconds(lambda: convert([empty], converted, "xlsx"), 3)
        whole_ours = median_seconds(lambda: convert([workbook], converted, "xlsx"), 3)
        print(
            f"soffice --convert-to xlsx (whole process incl. start-up): empty {whole_empty:.2f} s, "
            f"{workbook.name} {whole_ours:.2f} s, ratio {whole_ours / whole_empty:.2f}x"
        )


if __name__ == "__main__":
    main()
