"""Benchmark: what the round's chance to drop the target (the Damage workings' convolution of one
attack's damage, ``pycalc.sheets.d20_round``) costs in LibreOffice, on each d20 Attack calculator.

Per keystroke: the attack bonus typed (every odds cell and the whole convolution depend on it), timed
from the edit through the recalculation of what it made dirty to the answer read, over UNO, with the
calculator at its defaults (1 attack: the convolution's columns are a cheap 0) and at the worst case
the odds take (8d12 dice, 10 attacks, a target of 200 hit points: every cell sums over every amount
below it). Per workbook: one whole ``soffice --convert-to csv`` (start, load, recalculate everything)
and the file's size. With ``--before DIR`` (workbooks built without the convolution, e.g. another
checkout's ``workbook/``) the same figures for those, side by side.

Prints figures; asserts nothing (these machines are shared and noisy).

    .venv/bin/python bench/bench_round_kill.py [--edits 20] [--runs 3] [--ruleset cnc ...]
        [--workbooks workbook] [--before DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_recalc import converted_seconds  # noqa: E402
from pycalc import limits  # noqa: E402
from pycalc.d20 import D20_RULESETS  # noqa: E402
from pycalc.grid_limits import MAX_DICE, MAX_SIDES  # noqa: E402
from pycalc.libreoffice import CalcSession, uno_available  # noqa: E402
from pycalc.odds import KILL  # noqa: E402
from pycalc.sheets import d20_cells  # noqa: E402

WORST = [  # the largest inputs the odds take, typed before the timed edits
    (d20_cells.DICE, f"{MAX_DICE}d{MAX_SIDES}"),
    (d20_cells.HP, str(limits.HIT_POINTS)),
    (d20_cells.ATTACKS, str(limits.ATTACKS)),
]
SETTINGS = {"defaults (1 attack, 10 HP, 1d8)": [], "worst case (8d12, 10 attacks, 200 HP)": WORST}


def keystroke_ms(calc: CalcSession, book: Path, setup: list[tuple[str, str]], edits: int) -> float:
    """Median milliseconds of typing the attack bonus, after ``setup`` (untimed) is typed."""
    typed = [(name, 0, entry) for name, entry in setup]
    typed += [(d20_cells.BONUS, 0, str(k % 7 + 1)) for k in range(edits)]
    times = calc.keystrokes(book, typed, (KILL, 0))[len(setup) :]
    return statistics.median(times) * 1000


def load_seconds(book: Path, out: Path, runs: int) -> float:
    """Median seconds of one whole soffice process opening and recalculating ``book``."""
    return statistics.median(converted_seconds(book, out, "csv") for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edits", type=int, default=20, help="keystrokes timed per setting")
    parser.add_argument("--runs", type=int, default=3, help="whole soffice processes per workbook")
    parser.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    parser.add_argument("--workbooks", type=Path, default=ROOT / "workbook", help="folder of <id>.xlsx")
    parser.add_argument("--before", type=Path, help="folder of the same workbooks without the convolution")
    args = parser.parse_args()
    if not uno_available():
        print("LibreOffice with python3-uno not found: nothing measured")
        return
    folders = {"after": args.workbooks, **({"before": args.before} if args.before else {})}
    with tempfile.TemporaryDirectory(prefix="bench-round-") as folder, CalcSession() as calc:
        out = Path(folder) / "out"
        for ruleset_id in args.ruleset or D20_RULESETS:
            print(f"{ruleset_id}:")
            for when, books in folders.items():
                book = books / f"{ruleset_id}.xlsx"
                typed = ", ".join(
                    f"{said} {keystroke_ms(calc, book, setup, args.edits):.1f} ms"
                    for said, setup in SETTINGS.items()
                )
                print(f"  {when}: attack bonus typed, median per keystroke: {typed}")
                print(
                    f"  {when}: open + recalculate (soffice --convert-to csv, median of {args.runs}): "
                    f"{load_seconds(book, out, args.runs):.2f} s; file {book.stat().st_size / 1024:.0f} KB"
                )


if __name__ == "__main__":
    main()
