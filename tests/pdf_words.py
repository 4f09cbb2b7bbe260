"""The words of a printed PDF with their boxes and sizes (pdftotext -bbox), for the printing tests."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

HEIGHT_PER_POINT = 1.3  # pdftotext boxes a word 1.299 times its font size tall (Liberation Sans, measured)
WORD = re.compile(
    r'<page width="([\d.]+)" height="([\d.]+)">'
    r'|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


@dataclass(frozen=True)
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def size(self) -> float:
        return (self.y1 - self.y0) / HEIGHT_PER_POINT


def pdf_pages(path: Path) -> list[tuple[float, list[Word]]]:
    """Each page's height and the words on it, with their boxes (pdftotext -bbox)."""
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True)
    pages: list[tuple[float, list[Word]]] = []
    for match in WORD.finditer(out.stdout):
        if match.group(2):
            pages.append((float(match.group(2)), []))
        else:
            x0, y0, x1, y1 = (float(match.group(i)) for i in range(3, 7))
            pages[-1][1].append(Word(x0, y0, x1, y1, html.unescape(match.group(7))))
    return pages


def pieces(text: str) -> list[str]:
    """Words, split after hyphens too (where the office may wrap a line)."""
    return [piece for piece in re.split(r"\s+|(?<=-)(?=\S)", text) if piece]
