"""Dice on the roll (a picked row's ``hit: 1d4``): the totals they can show and how often, and the
attack with the total rolled, or each fixed attack they make with its chance."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from pycalc.errors import RuleError
from pycalc.resolution import (
    LOWEST_FACE,
    Attack,
)


def added_counts(added: Iterable[tuple[int, int]]) -> tuple[dict[int, int], int]:
    """How many of the equally likely rolls of the added dice give each total, and of how many rolls."""
    found, rolls = {0: 1}, 1
    for count, sides in added:
        sign = 1 if count > 0 else -1
        for _ in range(abs(count)):
            step: dict[int, int] = {}
            for total, ways in found.items():
                for face in range(LOWEST_FACE, sides + 1):
                    step[total + sign * face] = step.get(total + sign * face, 0) + ways
            found, rolls = step, rolls * sides
    return found, rolls


def added_range(added: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The lowest and highest total of the added dice."""
    found = [
        (count * LOWEST_FACE, count * sides) if count > 0 else (count * sides, count * LOWEST_FACE)
        for count, sides in added
    ]
    return sum(low for low, _ in found), sum(high for _, high in found)


def with_added_roll(attack: Attack, shown: int | None) -> Attack:
    """The attack with its added dice showing ``shown`` (their total), counted in its mods; a message
    while the total is not typed or the dice cannot show it."""
    if not attack.added:
        return attack
    low, high = added_range(attack.added)
    if shown is None or not low <= shown <= high:
        raise RuleError(f"#DICE ON THE ROLL? {low} to {high}")
    return replace(attack, mods=attack.mods + shown, added=())


def fixed_attacks(attack: Attack) -> list[tuple[Attack, Fraction]]:
    """The attack once for each total of its added dice, with that total's chance (alone without dice)."""
    if not attack.added:
        return [(attack, Fraction(1))]
    ways, rolls = added_counts(attack.added)
    return [
        (replace(attack, mods=attack.mods + total, added=()), Fraction(count, rolls))
        for total, count in sorted(ways.items())
    ]
