"""Exact distributions of damage: the arithmetic every ruleset's odds share.

A distribution maps an amount (hit points lost) to its exact probability (a Fraction). One attack's
distribution comes from a ruleset's own rules; this module sums independent attacks and reads
expectations and tail chances from the result.
"""

from __future__ import annotations

from fractions import Fraction

Distribution = dict[int, Fraction]


def add(first: Distribution, second: Distribution, cap: int | None = None) -> Distribution:
    """Distribution of the sum of two independent amounts (capped at ``cap`` when given)."""
    found: Distribution = {}
    for a, p in first.items():
        for b, q in second.items():
            total = a + b if cap is None else min(cap, a + b)
            found[total] = found.get(total, Fraction(0)) + p * q
    return found


def repeated(one: Distribution, times: int, cap: int | None = None) -> Distribution:
    """Distribution of the total of ``times`` independent draws of ``one`` (capped when given);
    no draw at all totals 0. Callers check the number of attacks their rules allow."""
    total: Distribution = {0: Fraction(1)}
    for _ in range(times):
        total = add(total, one, cap)
    return total


def mean(spread: Distribution) -> Fraction:
    return sum((amount * p for amount, p in spread.items()), Fraction(0))


def chance_at_least(one: Distribution, amount: int, times: int = 1) -> Fraction:
    """Probability that ``times`` independent draws of ``one`` total at least ``amount``."""
    if amount <= 0:
        return Fraction(1)
    return repeated(one, times, cap=amount).get(amount, Fraction(0))
