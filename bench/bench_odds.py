"""Benchmark: one attack's exact damage distribution, and a whole odds sheet (strike chance).

Prints figures; asserts nothing. Compares the engine with a straightforward enumeration of every d100
roll and every die face, and (when installed: pip install icepool) with icepool on the same case.
    .venv/bin/python bench/bench_odds.py
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pycalc import dice
from pycalc.rulesets import spelljammer as strike
from pycalc.rulesets import spelljammer_odds as strike_odds
from pycalc.sheets.spelljammer_odds import HEAT_DEF, HEAT_SC
from pycalc.tables import load_ruleset

RULES = load_ruleset("spelljammer")
CASE = ("3d6+2", 72, 4)  # damage dice, modified SC, PROT


def median_ms(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def engine(expression: str, modified: int, prot: int) -> dict[int, Fraction]:
    dice.distribution.cache_clear()  # cold: nothing reused between runs
    dice.counts.cache_clear()
    dice.counts_within_limits.cache_clear()
    return strike_odds.hp_loss_distribution(
        RULES, strike_odds.StrikeAttack(modified, dice.parse(expression), prot)
    )


def enumeration(expression: str, modified: int, prot: int) -> dict[int, Fraction]:
    parsed = dice.parse(expression)
    cases = list(
        itertools.product(range(1, 101), itertools.product(range(1, parsed.sides + 1), repeat=parsed.count))
    )
    found: dict[int, Fraction] = {}
    for roll, faces in cases:
        outcome = strike.resolve(RULES, modified, roll)
        lost = max(
            0,
            max(0, sum(faces) + parsed.modifier) * outcome.damage_multiplier
            - (prot if outcome.prot_applies else 0),
        )
        found[lost] = found.get(lost, Fraction(0)) + Fraction(1, len(cases))
    return found


def with_icepool(expression: str, modified: int, prot: int):
    import icepool

    parsed = dice.parse(expression)
    by_roll = {roll: strike.resolve(RULES, modified, roll) for roll in range(1, 101)}

    def lost(roll: int, total: int) -> int:
        outcome = by_roll[roll]
        return max(0, max(0, total) * outcome.damage_multiplier - (prot if outcome.prot_applies else 0))

    return icepool.map(lost, icepool.d100, parsed.count @ icepool.d(parsed.sides) + parsed.modifier)


def odds_sheet() -> int:
    cells = 0
    for sc in HEAT_SC:
        for def_value in HEAT_DEF:
            odds = strike.distribution(RULES, sc - def_value)
            _ = (1 - odds["miss"], odds["critical"] + odds["grievous"])
            cells += 2
    return cells


def main() -> None:
    expression, modified, prot = CASE
    assert engine(*CASE) == enumeration(*CASE)
    fast = median_ms(lambda: engine(*CASE), 100)
    slow = median_ms(lambda: enumeration(*CASE), 5)
    print(
        f"one attack ({expression} at modified SC {modified}, PROT {prot}): engine {fast:.2f} ms (median of 100, cold), "
        f"straightforward enumeration {slow:.1f} ms -> {slow / fast:.0f}x faster"
    )
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("icepool not installed: pip install icepool for the comparison")
    else:
        reference = with_icepool(*CASE)
        ours = engine(*CASE)
        assert all(Fraction(reference.probability(k)) == p for k, p in ours.items())
        ice = median_ms(lambda: with_icepool(*CASE), 20)
        print(
            f"icepool {ice:.2f} ms for the same distribution (identical) -> the engine is {ice / fast:.1f}x faster"
        )
    cells = odds_sheet()
    sheet = median_ms(odds_sheet, 10)
    print(
        f"whole odds sheet ({cells} cells, {len(HEAT_SC)} SC x {len(HEAT_DEF)} DEF, hit and critical): {sheet:.1f} ms"
    )


if __name__ == "__main__":
    main()
