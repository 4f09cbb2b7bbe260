"""Benchmark: one attack's exact damage distribution in every ruleset, under every ruling, 8d12 dice.

Prints figures; asserts nothing. For each ruleset, its own odds module (``pycalc.rulesets.<id>_odds``:
the d20 rulesets' are layers over the generic engine, with their own checks of the dice; bfrpg's
adds nothing to time) and, where the ruleset has a ``resolution:`` block, the generic engine (``pycalc.resolution_odds``),
timed cold (the dice cache cleared) for every choice of every ruling (the others at their defaults),
with and without advantage where the ruleset has it. The slowest ruling is reported against the 2 ms
target. Run: .venv/bin/python bench/bench_odds_all.py [--dice 8d12+3] [--runs 30]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pycalc import dice, resolution, resolution_odds
from pycalc.rulesets import spelljammer_odds
from pycalc.tables import RuleSet, load_ruleset

TARGET_MS = 2.0


CLOCK = time.perf_counter


def cold_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        dice.distribution.cache_clear()
        for cached in ("counts", "counts_within_limits"):  # (absent from older checkouts)
            if hasattr(dice, cached):
                getattr(dice, cached).cache_clear()
        started = CLOCK()
        action()
        times.append(CLOCK() - started)
    return statistics.median(times) * 1000


def own_engine(rules: RuleSet, expression: str) -> list[tuple[str, Callable[[], object]]]:
    """(case, call) for the ruleset's odds module (its own engine, or its layer over the generic one)."""
    parsed = dice.parse(expression)
    if rules.id == "spelljammer":
        strike = spelljammer_odds.StrikeAttack(72, parsed, 4)
        return [("", lambda: spelljammer_odds.hp_loss_distribution(rules, strike))]
    if rules.id in (
        "cnc",
        "osr",
        "combat17",
        "bfrpg",
    ):  # their odds are the generic engine's (generic_engine times them)
        return []
    raise ValueError(rules.id)


def generic_engine(rules: RuleSet, expression: str) -> list[tuple[str, Callable[[], object]]]:
    if rules.resolution_block is None:
        return []
    damage = resolution.Damage(dice.parse(expression), 1)
    cases = []
    for label, extra in (("", {}), ("advantage", {"advantage": True})):
        attack = resolution.Attack(5, 15, 1, 5, **extra)
        cases.append((label, lambda a=attack: resolution_odds.damage_distribution(rules, a, damage)))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dice", default="8d12+3")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--cpu", action="store_true", help="time the process's CPU time, not the wall clock (a busy machine)"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    worst_overall = 0.0
    for ruleset_id in ("cnc", "osr", "combat17", "spelljammer", "bfrpg"):
        base = load_ruleset(ruleset_id)
        variants = [("defaults", base)] + [
            (f"{ruling}={choice}", dataclasses.replace(base, chosen={ruling: choice}))
            for ruling, spec in base.rulings.items()
            for choice in spec.choices
            if choice != spec.default
        ]
        for engine_name, cases_of in (("own", own_engine), ("generic", generic_engine)):
            timings = []
            for name, rules in variants:
                try:
                    for case, call in cases_of(rules, args.dice):
                        timings.append((cold_ms(call, args.runs), f"{name} {case}".strip()))
                except Exception as error:  # a ruling the engine refuses is reported, not timed
                    timings.append((0.0, f"{name}: {type(error).__name__} {error}"))
            if not timings:
                continue
            slowest, which = max(timings)
            worst_overall = max(worst_overall, slowest)
            print(
                f"{ruleset_id:12} {engine_name:8} {args.dice}: median {statistics.median(t for t, _ in timings):.2f} ms, "
                f"slowest {slowest:.2f} ms ({which}) over {len(timings)} rulings x cases"
                + ("" if slowest < TARGET_MS else f"  > {TARGET_MS} ms")
            )
    clock = "CPU time" if args.cpu else "wall clock"
    print(f"slowest one-attack distribution of all: {worst_overall:.2f} ms {clock} (target {TARGET_MS} ms)")


if __name__ == "__main__":
    main()
