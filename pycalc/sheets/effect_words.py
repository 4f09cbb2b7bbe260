"""The words a note beside a pick says of what the pick changes ("To hit -3 + Dex modifier, at most +0",
"damage x1/2 rounded up"), worked out from what the engine applies under the rules in force, so a note
cannot say one thing while the workings do another. The rulesets' notes (their ``Pickers.effect``,
``situation_cells.in_words`` of their ``effect_parts``, comparing a ``Trial`` of the pick) are made of
these parts, joined by ``listed``;
``tests/test_pick_notes_truthful.py`` reads them back and compares them with the workings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from pycalc.table_files import Row

PROBE = 100  # an input far past any cap a rule puts on what it adds
SEPARATOR = ", "
NO_MODIFIER = "No modifier"

Tried = TypeVar("Tried")  # what the engine works out of a pick: its situation, or the attack's inputs


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


@dataclass(frozen=True)
class Trial(Generic[Tried]):
    """A pick tried on the engine: what it works out with ``row`` picked and with nothing picked, on
    the same inputs (``numbers``: the attacker's Dex...), so that a note's parts compare the two."""

    tried: Callable[[Row | None, Mapping[str, object]], Tried]  # (row picked or None, inputs) -> worked out
    row: Row

    def pair(self, **numbers: object) -> tuple[Tried, Tried]:
        """(nothing picked, the row picked)."""
        return self.tried(None, numbers), self.tried(self.row, numbers)

    def changed(self, value_of: Callable[[Tried], int], **numbers: object) -> int:
        """How much picking the row changes ``value_of``."""
        before, after = self.pair(**numbers)
        return value_of(after) - value_of(before)

    def change(self, what: str, value_of: Callable[[Tried], int]) -> list[str]:
        """'<what> +2' where the pick changes the value (``change``), else nothing."""
        before, after = self.pair()
        return change(what, value_of(before), value_of(after))

    def following(
        self, what: str, value_of: Callable[[Tried], int], given: str, given_words: str
    ) -> list[str]:
        """``with_input`` of the change to ``value_of`` as the input ``given`` goes (its ``given_words``)."""
        return with_input(what, lambda n: self.changed(value_of, **{given: n}), given_words)

    def newly(self, flag_of: Callable[[Tried], bool], words: str) -> list[str]:
        """[words] where the pick sets a flag nothing set before, else nothing."""
        before, after = self.pair()
        return [words] if flag_of(after) and not flag_of(before) else []
