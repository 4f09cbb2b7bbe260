"""How wide a text prints in Arial (LibreOffice draws it with the same-width Liberation Sans).

Advance widths in thousandths of the font size, read once from LiberationSans-Regular.ttf and
LiberationSans-Bold.ttf for the characters the tables use; any other character counts as the widest
letter, so a measure never comes out short.
"""

from __future__ import annotations

import functools

CHARACTERS = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~–—×≤≥§½¼¾°’‘“”…·±−"
_REGULAR = "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500 334 260 334 584 556 1000 584 549 549 556 834 834 834 400 222 222 333 333 1000 278 549 584"
_BOLD = "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 333 333 584 584 584 611 975 722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 667 778 722 667 611 722 667 944 667 667 611 333 278 333 584 556 333 556 611 556 611 556 333 611 611 278 278 556 278 889 611 611 611 611 389 556 333 611 556 778 556 556 500 389 280 389 584 556 1000 584 549 549 556 834 834 834 400 278 278 500 500 1000 278 549 584"
REGULAR = dict(zip(CHARACTERS, map(int, _REGULAR.split()), strict=True))
BOLD = dict(zip(CHARACTERS, map(int, _BOLD.split()), strict=True))
WIDEST = 1015


@functools.lru_cache(maxsize=65536)  # the same words and lines are measured again and again
def text_units(text: str, bold: bool = False) -> int:
    """The advance widths of a line of text added up, in thousandths of the font size."""
    advances = BOLD if bold else REGULAR
    return sum(advances.get(character, WIDEST) for character in text)


def text_points(text: str, size: float, bold: bool = False) -> float:
    """The printed width of one line of text, in points."""
    return text_units(text, bold) * size / 1000


def wrapped(text: str, room: float, size: float, bold: bool = False) -> list[str]:
    """The lines of a text wrapped at spaces within ``room`` points (a word wider than the room stands
    alone on its line); each ``\n`` starts a new line."""
    space = text_units(" ", bold)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, units = "", 0
        for word in paragraph.split():
            word_units = text_units(word, bold)
            if line and (units + space + word_units) * size / 1000 > room:
                lines.append(line)
                line, units = word, word_units
            elif line:
                line, units = f"{line} {word}", units + space + word_units
            else:
                line, units = word, word_units
        lines.append(line)
    return lines
