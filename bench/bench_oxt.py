"""Benchmark: a recalculation with the LibreOffice extension against the native formulas.

Each ruleset's .xlsm (its cells call the extension's Python functions) and .xlsx (the same workbook
with native formulas) are loaded, recalculated and saved by one ``soffice --headless --convert-to xlsx``
process each, in LibreOffice 25.2 with workbook/gmcombat.oxt installed in a fresh profile; the rounds
are paired and the medians compared. Also prints the extension's size. Prints figures; asserts nothing
(these machines are shared and noisy).

    .venv/bin/python bench/bench_oxt.py [--runs 3] [--ruleset spelljammer ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pycalc import oxt  # noqa: E402
from pycalc.extension_office import ExtensionProfile, find_office  # noqa: E402
from pycalc.table_files import RULESET_IDS  # noqa: E402

CALL = oxt.add_in_functions(list(RULESET_IDS))


def function_cells(path: Path) -> int:
    names = tuple(f"{f.name}(" for f in CALL)
    book = openpyxl.load_workbook(path, keep_vba=True)
    return sum(
        1
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and cell.value.startswith("=") and any(n in cell.value for n in names)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ruleset", nargs="*", default=list(RULESET_IDS))
    parser.add_argument("--workbooks", type=Path, default=ROOT / "workbook")
    args = parser.parse_args(argv)
    package = args.workbooks / oxt.OXT_NAME
    with zipfile.ZipFile(package) as opened:
        unpacked = sum(info.file_size for info in opened.infolist())
    print(f"{oxt.OXT_NAME}: {package.stat().st_size / 1024:.0f} KiB ({unpacked / 1024:.0f} KiB unpacked)")
    office = find_office("25.2")
    if office is None:
        print("LibreOffice 25.2 is not unpacked under .venv/lo25 (bash scripts/test.sh fetches it)")
        return 0
    with ExtensionProfile(office, package) as profile, tempfile.TemporaryDirectory() as tmp:
        profile.convert([args.workbooks / f"{args.ruleset[0]}.xlsx"], Path(tmp) / "warm")  # first start
        print(
            f"LibreOffice {office.version}, {args.runs} paired run(s), median s per load + recalculate + save:"
        )
        for ruleset_id in args.ruleset:
            native, python = [], []
            for run in range(args.runs):
                for suffix, times in (("xlsx", native), ("xlsm", python)):
                    _out, seconds = profile.convert(
                        [args.workbooks / f"{ruleset_id}.{suffix}"], Path(tmp) / f"{suffix}{run}"
                    )
                    times.append(seconds)
            cells = function_cells(args.workbooks / f"{ruleset_id}.xlsm")
            a, b = statistics.median(native), statistics.median(python)
            print(
                f"  {ruleset_id:12} native formulas {a:6.2f} s   extension ({cells} function cells) {b:6.2f} s"
                f"   ratio {b / a:4.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
