"""Dice expressions such as ``2d4+2``, ``d8``, ``10d6`` or ``3``: maximum, minimum, mean, exact distribution."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from pycalc import limits
from pycalc.errors import RuleError

PATTERN = re.compile(r"^(\d*)[dD](\d+)(?:([+-])(\d+))?$")
CONSTANT = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    modifier: int = 0

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    @property
    def minimum(self) -> int:
        return self.count * (1 if self.sides else 0) + self.modifier

    @property
    def mean(self) -> Fraction:
        return (
            Fraction(self.count * (self.sides + 1), 2) + self.modifier
            if self.sides
            else Fraction(self.modifier)
        )

    def __str__(self) -> str:
        dice = f"{self.count}d{self.sides}" if self.count else ""
        if not self.modifier:
            return dice or "0"
        return f"{dice}{self.modifier:+d}" if dice else str(self.modifier)


def parse(expression: object) -> Dice:
    """A Dice from text (``2d4+2``, ``d8``); a plain number is a constant. RuleError when unreadable."""
    if isinstance(expression, float) and expression == int(expression):
        expression = int(expression)
    text = re.sub(r"\s+", "", str(expression if expression is not None else ""))
    if CONSTANT.match(text) and len(text) <= 8:
        return Dice(0, 0, int(text))
    match = PATTERN.match(text)
    if not match or len(text) > 24:
        raise RuleError("#DICE? write it like 2d4+2")  # the workbooks' own formulas say the same
    count, sides = int(match.group(1) or 1), int(match.group(2))
    modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    if sides < 1 or not 1 <= count <= limits.DICE_COUNT:
        raise RuleError(f"#DICE? 1 to {limits.DICE_COUNT} dice of at least 1 side")
    if sides > limits.DICE_SIDES:
        raise RuleError(f"#DICE? dice of 1 to {limits.DICE_SIDES} sides")
    if abs(modifier) > limits.DICE_MODIFIER:
        raise RuleError(f"#DICE? dice: a modifier from -{limits.DICE_MODIFIER:,} to {limits.DICE_MODIFIER:,}")
    return Dice(count, sides, modifier)


@cache
def counts(dice: Dice) -> tuple[dict[int, int], int]:
    """How many of the ``sides ** count`` equally likely rolls show each total (modifier added), and
    that number of rolls: whole numbers, for callers that add many weighted chances exactly (the odds
    take up to limits.ODDS_DICE_COUNT dice of up to limits.ODDS_DICE_SIDES sides)."""
    if dice.count > limits.ODDS_DICE_COUNT or dice.sides > limits.ODDS_DICE_SIDES:
        raise RuleError(
            f"#DICE? dice for the odds: up to {limits.ODDS_DICE_COUNT} dice of up to {limits.ODDS_DICE_SIDES} sides"
        )
    return counts_within_limits(dice)


@cache
def counts_within_limits(dice: Dice) -> tuple[dict[int, int], int]:
    """``counts`` for dice already checked (e.g. the sum of two rolls that each are within the limits).

    The dice are one polynomial raised to the power ``count``, its coefficients packed into one big
    integer (Kronecker substitution): a single integer power instead of a loop over every face."""
    outcomes = dice.sides**dice.count
    if not dice.count:
        return {dice.modifier: 1}, outcomes
    width = outcomes.bit_length() // 8 + 1  # bytes a coefficient: no count overflows into the next
    one_die = int.from_bytes(bytes(width) + (b"\x01" + bytes(width - 1)) * dice.sides, "little")
    data = (one_die**dice.count).to_bytes(width * (dice.count * dice.sides + 1), "little")
    found = {}
    for total in range(dice.count, dice.count * dice.sides + 1):
        found[total + dice.modifier] = int.from_bytes(data[total * width : (total + 1) * width], "little")
    return found, outcomes


@cache
def distribution(dice: Dice) -> dict[int, Fraction]:
    """Exact probability of each total (the odds take up to 20 dice of up to 20 sides: limits.py)."""
    ways, outcomes = counts(dice)
    return {total: Fraction(count, outcomes) for total, count in ways.items()}
