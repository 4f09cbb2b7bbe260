"""The words a note beside a pick says of what the pick changes ("To hit -3 + Dex modifier, at most +0",
"damage x1/2 rounded up"), worked out from what the engine applies under the rules in force, so a note
cannot say one thing while the workings do another. The rulesets' notes (their ``Pickers.effect``,
``situation_cells.in_words`` of their ``effect_parts``) are made of these parts, joined by ``listed``;
``tests/test_pick_notes_truthful.py`` reads them back and compares them with the workings."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

PROBE = 100  # an input far past any cap a rule puts on what it adds
SEPARATOR = ", "
NO_MODIFIER = "No modifier"


def signed(value: int | Fraction) -> str:
    return f"{value:+}" if isinstance(value, int) or Fraction(value).denominator == 1 else f"{value}"


def change(what: str, before: int, after: int) -> list[str]:
    """'<what> +2' where the pick changes a number, else nothing."""
    return [f"{what} {after - before:+}"] if after != before else []


def with_input(what: str, value_at: Callable[[int], int], input_words: str) -> list[str]:
    """What a pick adds to a number when it also follows an input (the attacker's Dex modifier):
    '<what> -3 + Dex modifier' ('- ...' when the input counts against it) and the cap the rule puts on the sum ('at most +0'), read by trying
    the input at 0, 1 and far either side; nothing when the pick adds nothing at any input."""
    base, step = value_at(0), value_at(1) - value_at(0)
    high, low = value_at(PROBE), value_at(-PROBE)
    if base == high == low == value_at(1) == 0:
        return []
    follows = (high, low) != (base, base)
    parts = [f"{what} {base:+}" + (f" {'-' if step < 0 else '+'} {input_words}" if follows else "")]
    if step and high != base + PROBE * step:
        parts.append(f"at most {high:+}")
    if step and low != base - PROBE * step:
        parts.append(f"at least {low:+}")
    return parts


def scaled(before: Callable[[int], int], after: Callable[[int], int]) -> list[str]:
    """What a pick does to a hit's damage, from the damage of a roll before and after it:
    'damage x2', 'damage x1/2 rounded up' (the rounding read from an odd roll)."""
    factor = Fraction(after(2 * PROBE), before(2 * PROBE))
    if factor == 1:
        return []
    exact = factor * before(1)
    if exact.denominator == 1:
        return [f"damage x{factor}"]
    return [f"damage x{factor} rounded {'up' if after(1) > exact else 'down'}"]


def listed(parts: Iterable[str]) -> str:
    """The parts as the note says them, or 'No modifier'."""
    return SEPARATOR.join(parts) or NO_MODIFIER
