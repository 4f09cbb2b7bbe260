"""Benchmark: LibreOffice load + recalculate of each workbook with a full fight on its Encounter sheet
(30 combatants, 200 attack log rows, conditions) against the same workbook with empty roster and logs.

Prints figures; asserts nothing (these machines are shared and noisy). Both files are written by
openpyxl from the built workbook (so neither carries cached values and both are recalculated in
full); each measurement is one whole ``soffice --convert-to xlsx`` process; rounds are paired and the
medians compared. The target is 1.5x.

    .venv/bin/python bench/bench_encounter.py [--runs 5] [--ruleset cnc ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_recalc import converted_seconds  # noqa: E402
from pycalc.libreoffice import find_soffice  # noqa: E402
from pycalc.sheets.common import destinations  # noqa: E402
from pycalc.sheets.keep import coordinates  # noqa: E402
from pycalc.tables import RULESET_IDS, load_ruleset  # noqa: E402
from tests.test_encounter_parity import random_fight, sheet_inputs  # noqa: E402

TARGET = 1.5


def cell_value(text: str) -> object:
    if text in ("TRUE", "FALSE"):
        return text == "TRUE"
    try:
        return int(text)
    except ValueError:
        return text or None


def with_fight(source: Path, out: Path, ruleset_id: str) -> Path:
    """The workbook with a full fight typed into its Encounter inputs."""
    rules = load_ruleset(ruleset_id)
    book = openpyxl.load_workbook(source)
    for name, column in sheet_inputs(
        rules, random_fight(rules, random.Random(ruleset_id), full=True)
    ).items():
        if name not in book.defined_names:
            continue
        places = coordinates(destinations(book.defined_names[name]), book.sheetnames)
        for (title, row, col), text in zip(places, column, strict=False):
            book[title].cell(row, col).value = cell_value(text)
    book.save(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    args = parser.parse_args()
    if find_soffice() is None:
        print("LibreOffice headless (soffice) not found: nothing measured")
        return
    with tempfile.TemporaryDirectory(prefix="bench-encounter-") as folder:
        pairs = {}
        for ruleset_id in args.ruleset or RULESET_IDS:
            source = ROOT / "workbook" / f"{ruleset_id}.xlsx"
            empty = Path(folder) / f"{ruleset_id}-empty.xlsx"
            openpyxl.load_workbook(source).save(empty)
            pairs[ruleset_id] = (
                empty,
                with_fight(source, Path(folder) / f"{ruleset_id}-fight.xlsx", ruleset_id),
            )
        out = Path(folder) / "out"
        converted_seconds(next(iter(pairs.values()))[0], out, "xlsx")  # warm-up
        times = {path: [] for pair in pairs.values() for path in pair}
        for _ in range(args.runs):
            for path in times:
                times[path].append(converted_seconds(path, out, "xlsx"))
    print(f"soffice --convert-to xlsx, whole process, median of {args.runs} paired rounds")
    for ruleset_id, (empty, fight) in pairs.items():
        low, high = statistics.median(times[empty]), statistics.median(times[fight])
        verdict = "" if high / low <= TARGET else f"  > {TARGET}x"
        print(
            f"  {ruleset_id}: empty logs {low:.2f} s, 30 combatants + 200 log rows {high:.2f} s = {high / low:.2f}x{verdict}"
        )


if __name__ == "__main__":
    main()
