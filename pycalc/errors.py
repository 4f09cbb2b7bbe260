"""The one error type the engine raises for input a GM can fix."""


class RuleError(ValueError):
    """Input outside what the rules cover. The message is short, starts with '#', and is what a
    spreadsheet cell shows (e.g. ``#SIZE? use Tiny, Small, Medium, Large or Giant``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message if message.startswith("#") else f"#{message}")
