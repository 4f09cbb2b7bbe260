#!/usr/bin/env python3
"""Build the GM workbooks: tables/<ruleset>/*.yaml -> workbook/<ruleset>.xlsx and .xlsm.

With no arguments every ruleset under tables/ is built. A problem in the YAML stops the build with
``file:line: what is wrong`` and nothing is written: the previous workbooks stay untouched.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pycalc.libreoffice import convert, find_soffice
from pycalc.sheets.cheatsheet import build_cheatsheet
from pycalc.sheets.printing import PAPER_SIZES
from pycalc.sheets.workbook import build_workbook, tables_version, workbook_bytes, write_atomically
from pycalc.tables import PROJECT_ROOT, RuleSet, TableError, available_rulesets, load_folder, tables_dir


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="build.py",
        description="Compile the YAML rule tables into spreadsheet workbooks (.xlsx native, .xlsm xlwings).",
    )
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="ID",
        help="build only this ruleset (repeatable); default: every folder under tables/",
    )
    parser.add_argument(
        "--out", type=Path, default=PROJECT_ROOT / "workbook", help="output folder (default: workbook/)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when a workbook in the output folder is stale",
    )
    parser.add_argument(
        "--pdf",
        action="store_true",
        help="also write <id>-cheatsheet.pdf and <id>-reference.pdf (needs LibreOffice headless)",
    )
    parser.add_argument(
        "--paper", choices=sorted(PAPER_SIZES), default="a4", help="paper size for printing (default a4)"
    )
    parser.add_argument("--quiet", action="store_true", help="print only problems")
    return parser.parse_args(argv)


def load_all(ruleset_ids: list[str]) -> list[RuleSet]:
    """Every requested ruleset, or TableError listing the problems of all of them."""
    problems = []
    loaded = []
    for ruleset_id in ruleset_ids:
        try:
            loaded.append(load_folder(tables_dir() / ruleset_id))
        except TableError as error:
            problems += error.problems
    if problems:
        raise TableError(problems)
    return loaded


def outputs(rules: RuleSet, out: Path, paper: str) -> dict[Path, bytes]:
    return {
        out / f"{rules.id}.xlsx": workbook_bytes(build_workbook(rules, macro=False, paper=paper)),
        out / f"{rules.id}.xlsm": workbook_bytes(build_workbook(rules, macro=True, paper=paper)),
    }


def pdf_sources(rules: RuleSet, files: dict[Path, bytes], out: Path, paper: str) -> dict[str, bytes]:
    """Workbooks to print, by the PDF name they become: the cheat sheet and the full reference."""
    cheatsheet = build_cheatsheet(rules, tables_version(rules.id), paper)
    return {
        f"{rules.id}-cheatsheet": workbook_bytes(cheatsheet),
        f"{rules.id}-reference": files[out / f"{rules.id}.xlsx"],
    }


def write_pdfs(sources: dict[str, bytes], out: Path) -> list[Path]:
    """Print every source workbook to PDF with one LibreOffice call; move each PDF into place."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        books = []
        for stem, data in sources.items():
            books.append(work / f"{stem}.xlsx")
            books[-1].write_bytes(data)
        written = []
        for pdf in convert(books, work / "pdf", "pdf"):
            write_atomically(out / pdf.name, pdf.read_bytes())
            written.append(out / pdf.name)
            if pdf.stem.endswith("-cheatsheet") and shutil.which("pdftoppm"):
                preview = work / pdf.stem
                subprocess.run(
                    [
                        "pdftoppm",
                        "-r",
                        "80",
                        "-png",
                        "-singlefile",
                        "-f",
                        "1",
                        "-l",
                        "1",
                        str(pdf),
                        str(preview),
                    ],
                    check=True,
                )
                write_atomically(out / f"{pdf.stem}.png", preview.with_suffix(".png").read_bytes())
                written.append(out / f"{pdf.stem}.png")
        return written


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    ruleset_ids = args.ruleset or list(available_rulesets())
    missing = [r for r in ruleset_ids if not (tables_dir() / r / "ruleset.yaml").exists()]
    if missing:
        print(f"build.py: no tables for {', '.join(missing)} under {tables_dir()}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        rulesets = load_all(ruleset_ids)
    except TableError as error:
        print(error, file=sys.stderr)
        print(
            f"build.py: {len(error.problems)} problem(s) in the tables; nothing was written", file=sys.stderr
        )
        return 1
    files: dict[Path, bytes] = {}
    for rules in rulesets:
        files.update(outputs(rules, args.out, args.paper))
    if args.check:
        stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        for path in stale:
            print(f"stale: {path} (run build.py)", file=sys.stderr)
        return 1 if stale else 0
    written = []
    for path, data in files.items():
        write_atomically(path, data)
        written.append(path)
    if args.pdf:
        if find_soffice() is None:
            print(
                "build.py: --pdf needs LibreOffice headless (soffice); run scripts/build.sh", file=sys.stderr
            )
            return 1
        sources = {}
        for rules in rulesets:
            sources.update(pdf_sources(rules, files, args.out, args.paper))
        written += write_pdfs(sources, args.out)
    if not args.quiet:
        for path in written:
            print(f"wrote {path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path}")
    if not args.quiet:
        print(f"built {len(rulesets)} ruleset(s) in {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
