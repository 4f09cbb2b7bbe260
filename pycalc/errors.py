"""The one error type the engine raises for input a GM can fix, and its messages."""

from __future__ import annotations

from collections.abc import Callable, Iterable

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


def list_message(name: str, words: Iterable[object]) -> str:
    """``#KIND? one of Melee, Missile or Thrown``: the argument and the words it accepts, cut to
    MESSAGE_LENGTH. The workbooks' own formulas show the same text for the same mistake."""
    listed = [str(word) for word in words]
    accepted = f"{', '.join(listed[:-1])} or {listed[-1]}" if len(listed) > 1 else "".join(listed)
    return str(RuleError(f"#{name.upper()}? one of {accepted}"))


def not_in_list(name: str, words: Iterable[object]) -> RuleError:
    """The error for a word that is not in a picker's list (see list_message)."""
    return RuleError(list_message(name, words))


def said(function: Callable[..., object], *args: object) -> object:
    """What a calculator's cell shows for ``function(*args)``: its value, or the RuleError's '#...' text."""
    try:
        return function(*args)
    except RuleError as error:
        return str(error)
