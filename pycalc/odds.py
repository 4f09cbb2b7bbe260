"""Exact distributions of damage: the arithmetic every ruleset's odds share.

A distribution maps an amount (hit points lost) to its exact probability (a Fraction). One attack's
distribution comes from a ruleset's own rules; this module sums independent attacks and reads
expectations and tail chances from the result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

Distribution = dict[int, Fraction]
Part = tuple[Fraction | int, Mapping[int, int], int]
"""One outcome of an attack: its chance, how many equally likely dice rolls give each amount, and the
number of those rolls (``pycalc.dice.counts``)."""
SPARSE_ABOVE = 10_000  # largest amount packed slot by slot


def add(first: Distribution, second: Distribution, cap: int | None = None) -> Distribution:
    """Distribution of the sum of two independent amounts (capped at ``cap`` when given)."""
    found: Distribution = {}
    for a, p in first.items():
        for b, q in second.items():
            total = a + b if cap is None else min(cap, a + b)
            found[total] = found.get(total, Fraction(0)) + p * q
    return found


def regrouped(ways: Mapping[int, int], amount: Callable[[int], int]) -> dict[int, int]:
    """The counts of dice totals as counts of the amount each total gives."""
    found: dict[int, int] = {}
    for total, count in ways.items():
        key = amount(total)
        found[key] = found.get(key, 0) + count
    return found


def mixed(parts: Iterable[Part]) -> Distribution:
    """Exact probability of each amount over every outcome: the sum of chance x count / rolls.

    The same sum as adding Fractions term by term, done in whole numbers over one common denominator,
    with one Fraction (one reduction) per amount; amounts of chance 0 are left out, in amount order."""
    kept = [(Fraction(chance), ways, rolls) for chance, ways, rolls in parts if chance]
    if not kept:
        return {}
    denominator = math.lcm(*(chance.denominator * rolls for chance, _, rolls in kept))
    totals: dict[int, int] = {}
    for chance, ways, rolls in kept:
        scale = chance.numerator * (denominator // (chance.denominator * rolls))
        for amount, count in ways.items():
            totals[amount] = totals.get(amount, 0) + scale * count
    return {amount: Fraction(total, denominator) for amount, total in sorted(totals.items()) if total}


def as_counts(spread: Distribution) -> tuple[dict[int, int], int]:
    """The same distribution as whole-number weights over one common denominator."""
    denominator = math.lcm(*(p.denominator for p in spread.values()))
    return {amount: p.numerator * (denominator // p.denominator) for amount, p in spread.items()}, denominator


def packed(counts: list[int], width: int) -> int:
    """Whole-number counts as one integer, ``width`` bytes a slot (slot i holds the count of amount i)."""
    return int.from_bytes(b"".join(count.to_bytes(width, "little") for count in counts), "little")


def unpacked(number: int, width: int, slots: int) -> list[int]:
    data = number.to_bytes(width * slots, "little")
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, width * slots, width)]


def repeated_counts(
    one: Distribution, times: int, cap: int | None = None
) -> tuple[list[int] | dict[int, int], int]:
    """The counts of each total of ``times`` draws of ``one`` (capped when given), and their denominator.

    Exact and fast: the counts over a common denominator are packed into one big integer, so each
    draw is a single integer multiplication (Kronecker substitution); amounts past the cap are folded
    into the cap after each draw."""
    weights, denominator = as_counts(one)
    if cap is not None:  # an amount past the cap counts as the cap
        folded: dict[int, int] = {}
        for amount, weight in weights.items():
            folded[min(cap, amount)] = folded.get(min(cap, amount), 0) + weight
        weights = folded
    if min(weights) < 0 or max(weights) > SPARSE_ABOVE:  # e.g. a big damage bonus: a dict, not a slot each
        return sparse_counts(weights, times, cap), denominator**times
    width = (
        (sum(weights.values()) ** max(times, 1)).bit_length() + 8
    ) // 8  # no slot overflows into the next
    one_draw = packed([weights.get(amount, 0) for amount in range(max(weights) + 1)], width)
    counts = [1]
    for _ in range(times):
        slots = len(counts) + max(weights)
        counts = unpacked(packed(counts, width) * one_draw, width, slots)
        if cap is not None and len(counts) > cap + 1:
            counts = [*counts[:cap], sum(counts[cap:])]
    return counts, denominator**times


def sparse_counts(weights: dict[int, int], times: int, cap: int | None) -> list[int] | dict[int, int]:
    counts = {0: 1}
    for _ in range(times):
        step: dict[int, int] = {}
        for a, ways in counts.items():
            for b, weight in weights.items():
                total = a + b if cap is None else min(cap, a + b)
                step[total] = step.get(total, 0) + ways * weight
        counts = step
    return counts


def repeated(one: Distribution, times: int, cap: int | None = None) -> Distribution:
    """Distribution of the total of ``times`` independent draws of ``one`` (capped when given);
    no draw at all totals 0. Callers check the number of attacks their rules allow."""
    counts, scale = repeated_counts(one, times, cap)
    found = counts.items() if isinstance(counts, dict) else enumerate(counts)
    return {amount: Fraction(ways, scale) for amount, ways in found if ways}


def mean(spread: Distribution) -> Fraction:
    return sum((amount * p for amount, p in spread.items()), Fraction(0))


def chance_at_least(one: Distribution, amount: int, times: int = 1) -> Fraction:
    """Probability that ``times`` independent draws of ``one`` total at least ``amount``."""
    if amount <= 0:
        return Fraction(1)
    counts, scale = repeated_counts(one, times, cap=amount)
    if isinstance(counts, dict):
        return Fraction(counts.get(amount, 0), scale)
    return Fraction(counts[amount], scale) if len(counts) > amount else Fraction(0)


ALREADY_DOWN = "target at 0 HP or less: down already"
SEVERAL_ATTACKS = "several attacks: the .xlsm gives this chance"  # spelljammer .xlsx's round kill chance

# The defined names of a calculator's odds cells: the engines' outputs and the sheets' cells
EXPECTED, EXPECTED_ROUND = "ATTACK_EXPECTED_DAMAGE", "ATTACK_EXPECTED_DAMAGE_ROUND"
KILL, KILL_ROUND = "ATTACK_KILL_CHANCE", "ATTACK_KILL_CHANCE_ROUND"
ONE_ATTACK = (EXPECTED, EXPECTED_ROUND, KILL)  # worked out from one attack's odds
CALCULATOR_ODDS = (
    *ONE_ATTACK,
    KILL_ROUND,
)  # a d20 Attack calculator's odds cells (the round's kill chance too)


def down_already(found: Mapping[str, object], hp: int) -> dict[str, object]:
    """A calculator's odds cells as shown: against a target at 0 hit points or below the chances to
    drop it (the cells named ``*_KILL_CHANCE*``) say it is down already, not 100% (or a message)."""
    if hp > 0:
        return dict(found)
    return {name: ALREADY_DOWN if "_KILL_CHANCE" in name else value for name, value in found.items()}


def round_kill(one_attack: object, attacks: int, several: str) -> object:
    """The round's chance to drop the target as the .xlsx shows it: one attack's chance, none for no
    attack, or the text pointing at the .xlsm (a target at 0 or below: ``down_already``)."""
    if attacks == 1:
        return one_attack
    return Fraction(0) if attacks == 0 else several
