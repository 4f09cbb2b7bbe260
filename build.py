#!/usr/bin/env python3
"""Build the GM workbooks: tables/<ruleset>/*.yaml -> workbook/<ruleset>.xlsx and .xlsm.

With no arguments every ruleset under tables/ is built. A problem in the YAML stops the build with
``file:line: what is wrong`` and nothing is written: the previous workbooks stay untouched.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pycalc.sheets.workbook import build_workbook, workbook_bytes, write_atomically
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


def outputs(rules: RuleSet, out: Path) -> dict[Path, bytes]:
    return {
        out / f"{rules.id}.xlsx": workbook_bytes(build_workbook(rules, macro=False)),
        out / f"{rules.id}.xlsm": workbook_bytes(build_workbook(rules, macro=True)),
    }


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
        files.update(outputs(rules, args.out))
    if args.check:
        stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        for path in stale:
            print(f"stale: {path} (run build.py)", file=sys.stderr)
        return 1 if stale else 0
    for path, data in files.items():
        write_atomically(path, data)
        if not args.quiet:
            print(f"wrote {path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path}")
    if not args.quiet:
        print(f"built {len(rulesets)} ruleset(s) in {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
