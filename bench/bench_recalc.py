"""Benchmark: LibreOffice load + recalculate of each workbook against a blank workbook.

Prints figures; asserts nothing (these machines are shared and noisy). Each measurement is one whole
``soffice --headless --convert-to`` process: to csv (start-up, load, recalculation of every formula,
and only the opening sheet written out: what opening the workbook costs) and to xlsx (the same and the
whole workbook saved, as the build's cached values are made); the rounds are paired (each round converts the blank workbook
and every workbook once, in turn) and the medians are compared: the ratio is what a workbook adds over
LibreOffice's own cost. The target is 1.5x. Each workbook is also compared with an empty workbook of as
many sheets: LibreOffice spends about 8 ms on each sheet whatever it holds (it sets up all 16,384
columns of each), so that ratio is what the workbook's content costs.

LibreOffice runs with a fresh profile that records its version, as a GM's LibreOffice does after its
first start (``pycalc.libreoffice.profile_settings``); without it, every start runs a graphics self-test
that takes longer than loading most workbooks.

    .venv/bin/python bench/bench_recalc.py [--runs 5] [--workbooks workbook] [--ruleset bfrpg ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pycalc.libreoffice import LibreOfficeError, convert, find_soffice  # noqa: E402
from pycalc.sheets.common import define_name  # noqa: E402

TARGET = 1.5
FORMATS = {  # what the conversion does besides start, load and recalculate every formula
    "csv": "load + recalculate: the opening sheet written as text, the workbook not saved",
    "xlsx": "load + recalculate + save the whole workbook, as the build's cached values are made",
}


def blank_workbook(path: Path) -> Path:
    """The least a workbook can be: one input, one formula, one defined name."""
    book = openpyxl.Workbook()
    book.active["A1"] = 1
    book.active["B1"] = "=A1"
    define_name(book, "OUT", "Sheet!$B$1")
    book.save(path)
    return path


def empty_workbook(path: Path, sheets: int) -> Path:
    """As many empty sheets as a workbook has, the first holding one number."""
    book = openpyxl.Workbook()
    book.active["A1"] = 1
    for number in range(2, sheets + 1):
        book.create_sheet(f"Sheet{number}")
    book.save(path)
    return path


def sheet_count(book: Path) -> int:
    with zipfile.ZipFile(book) as archive:
        return archive.read("xl/workbook.xml").count(b"<sheet ")


FAILED: list[str] = []


def converted_seconds(book: Path, out: Path, fmt: str) -> float:
    """One whole conversion; a run where soffice fails (it sometimes does on a busy machine) is
    reported and run again."""
    for _ in range(3):
        started = time.perf_counter()
        try:
            convert([book], out, fmt)
        except LibreOfficeError as error:
            FAILED.append(f"{book.name}: {str(error).splitlines()[0]}")
            continue
        return time.perf_counter() - started
    raise LibreOfficeError(f"{book.name}: soffice failed three times in a row")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workbooks", type=Path, default=ROOT / "workbook", help="folder of <id>.xlsx")
    parser.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    args = parser.parse_args()
    if find_soffice() is None:
        print("LibreOffice headless (soffice) not found: nothing measured")
        return
    books = [args.workbooks / f"{r}.xlsx" for r in args.ruleset] or sorted(
        p for p in args.workbooks.glob("*.xlsx") if ".bak" not in p.name
    )
    with tempfile.TemporaryDirectory(prefix="bench-recalc-") as folder:
        out = Path(folder) / "out"
        blank = blank_workbook(Path(folder) / "blank.xlsx")
        sheets = {book: sheet_count(book) for book in books}
        empties = {
            n: empty_workbook(Path(folder) / f"empty-{n}-sheets.xlsx", n) for n in set(sheets.values())
        }
        converted_seconds(blank, out, "xlsx")  # warm-up: the first start reads LibreOffice from disk
        times: dict[tuple[str, Path], list[float]] = {
            (fmt, book): [] for fmt in FORMATS for book in [blank, *empties.values(), *books]
        }
        for _ in range(args.runs):
            for fmt, book in times:
                times[(fmt, book)].append(converted_seconds(book, out, fmt))
    for fmt, what in FORMATS.items():
        floor = statistics.median(times[(fmt, blank)])
        print(f"soffice --convert-to {fmt} ({what}), whole process, median of {args.runs} paired rounds")
        print(f"  blank workbook: {floor:.2f} s")
        for book in books:
            median = statistics.median(times[(fmt, book)])
            empty = statistics.median(times[(fmt, empties[sheets[book]])])
            verdict = "" if median / floor <= TARGET else f"  > {TARGET}x"
            print(
                f"  {book.name}: {median:.2f} s = {median / floor:.2f}x the blank workbook{verdict}"
                f" ({sheets[book]} empty sheets: {empty:.2f} s = {empty / floor:.2f}x;"
                f" the workbook {median / empty:.2f}x its empty sheets)"
            )
    for failure in FAILED:
        print(f"  (run again after a soffice failure: {failure})")


if __name__ == "__main__":
    main()
