"""Benchmark: what a GM waits for at the table, per keystroke, in LibreOffice: a damage roll typed on
the Encounter's attack log of a full fight (30 combatants, 200 log rows), and Round now changed, each
timed from the edit through the recalculation of what it made dirty to the answer read (inside the
office's own process, over UNO), against the same edit in a one-formula workbook in the same process.
The target is 50 ms.

Prints figures; asserts nothing.

    .venv/bin/python bench/bench_keystroke.py [--edits 20] [--ruleset cnc ...] [--workbooks DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_encounter import with_fight  # noqa: E402
from pycalc.libreoffice import CalcSession, uno_available  # noqa: E402
from pycalc.tables import RULESET_IDS  # noqa: E402

TARGET_MS = 50.0


def one_formula_book(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B1"] = 1, "=A1*2"
    book.defined_names["ONE_INPUT"] = openpyxl.workbook.defined_name.DefinedName(
        "ONE_INPUT", attr_text="Sheet!$A$1"
    )
    book.defined_names["ONE_ANSWER"] = openpyxl.workbook.defined_name.DefinedName(
        "ONE_ANSWER", attr_text="Sheet!$B$1"
    )
    book.save(path)
    return path


def milliseconds(times: list[float]) -> tuple[float, float]:
    return statistics.median(times) * 1000, max(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edits", type=int, default=20, help="keystrokes timed per kind")
    parser.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    parser.add_argument(
        "--workbooks",
        type=Path,
        default=ROOT / "workbook",
        help="the folder of <id>.xlsx (a build to compare)",
    )
    args = parser.parse_args()
    if not uno_available():
        print("LibreOffice with python3-uno not found: nothing measured")
        return
    rows = [(k * 7) % 180 + 10 for k in range(args.edits)]  # spread over the log, not the first rows
    with tempfile.TemporaryDirectory(prefix="bench-keystroke-") as folder, CalcSession() as calc:
        floor = calc.keystrokes(
            one_formula_book(Path(folder) / "one.xlsx"),
            [("ONE_INPUT", 0, str(k)) for k in range(args.edits)],
            ("ONE_ANSWER", 0),
        )
        low, _ = milliseconds(floor)
        print(f"one-formula workbook: {low:.2f} ms median per keystroke ({args.edits} edits)")
        print(
            f"full fight (30 combatants, 200 log rows), edit + recalculation + read, target {TARGET_MS:.0f} ms:"
        )
        for ruleset_id in args.ruleset or RULESET_IDS:
            fight = with_fight(
                args.workbooks / f"{ruleset_id}.xlsx", Path(folder) / f"{ruleset_id}.xlsx", ruleset_id
            )
            damage = calc.keystrokes(
                fight,
                [("LOG_DAMAGE_ROLL", row, str(k % 6 + 1)) for k, row in enumerate(rows)],
                ("ROSTER_HP_NOW", 0),
            )
            rounds = calc.keystrokes(
                fight, [("ENC_ROUND", 0, str(k % 5 + 1)) for k in range(args.edits)], ("ROSTER_HP_NOW", 0)
            )
            (d_med, d_max), (r_med, r_max) = milliseconds(damage), milliseconds(rounds)
            print(
                f"  {ruleset_id}: damage roll {d_med:.1f} ms median, {d_max:.1f} max ({d_med / low:.0f}x the floor);"
                f" Round now {r_med:.1f} ms median, {r_max:.1f} max"
            )


if __name__ == "__main__":
    main()
