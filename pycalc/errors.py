"""The one error type the engine raises for input a GM can fix, and its messages."""

from __future__ import annotations

from collections.abc import Iterable

MESSAGE_LENGTH = 100  # what a cell shows without a wide column


class RuleError(ValueError):
    """Input outside what the rules cover. The message is short, starts with '#', and is what a
    spreadsheet cell shows (e.g. ``#SIZE? size: Tiny, Small, Medium, Large or Giant``); a longer one is
    cut to MESSAGE_LENGTH characters, so no input is ever echoed back at length."""

    def __init__(self, message: str) -> None:
        message = message if message.startswith("#") else f"#{message}"
        if len(message) > MESSAGE_LENGTH:
            message = message[: MESSAGE_LENGTH - 3].rstrip() + "..."
        super().__init__(message)


def not_in_list(name: str, words: Iterable[object]) -> RuleError:
    """``#NAME? pick from the list``: the text the workbooks' own formulas show for the same mistake
    (naming the accepted words in the sheets too is left for the calculators' rework, issue #11)."""
    del words
    return RuleError(f"#{name.upper()}? pick from the list")
