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


# --------------------------------------------------------------------------- the ink and the drawn lines

SVG_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
SYMBOL = re.compile(r'<symbol overflow="visible" id="(glyph[\d-]+)">\s*<path[^>]* d="([^"]*)"')
USE = re.compile(r'<use xlink:href="#(glyph[\d-]+)" x="([-\d.]+)" y="([-\d.]+)"/>')
STROKE = re.compile(
    r'<path style="fill:none;stroke-width:([\d.]+);[^"]*" d="M ([-\d.]+) ([-\d.]+) L ([-\d.]+) ([-\d.]+) "'
    r' transform="matrix\(([-\d.e]+),[-\d.e]+,[-\d.e]+,([-\d.e]+),([-\d.e]+),([-\d.e]+)\)"'
)
FILL = re.compile(
    r'<path style=" ?stroke:none;fill-rule:evenodd;fill:rgb[^"]*" d="M ([-\d.]+) ([-\d.]+) L [^"]*"'
)
RULE_WIDTH = 1.2  # points: a stroke at least this wide is a block's rule (the grid is drawn at 0.75)
SAME_LINE = 2.0  # points: baselines this close are one line (an office may set a run a little apart)
WORD_GAP = 6.0  # points between two glyphs on one baseline that still belong to one run of text


@dataclass(frozen=True)
class Box:
    """The ink of a run of text on one baseline, a drawn horizontal line, or a filled box; y grows down."""

    x0: float
    y0: float
    x1: float
    y1: float
    baseline: float = 0.0  # a run of text's

    def across(self, other: Box) -> bool:
        """Whether the two overlap from left to right (one stands above the other)."""
        return min(self.x1, other.x1) - max(self.x0, other.x0) > 0.5

    def gap(self, other: Box) -> float:
        """Points of paper between the two, from top to bottom (negative: they overlap)."""
        return max(other.y0 - self.y1, self.y0 - other.y1)


@dataclass(frozen=True)
class Drawing:
    """One printed page: its runs of text as ink, the block rules, the grid's lines and the filled boxes."""

    ink: list[Box]
    rules: list[Box]
    grid: list[Box]
    fills: list[Box]


def glyph_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Each glyph's ink box relative to its origin on the baseline (a path's points bound its curves)."""
    boxes = {}
    for name, path in SYMBOL.findall(svg):
        numbers = [float(n) for n in SVG_NUMBER.findall(path)]
        if numbers:
            xs, ys = numbers[0::2], numbers[1::2]
            boxes[name] = (min(xs), min(ys), max(xs), max(ys))
    return boxes


def drawing(svg: str) -> Drawing:
    """The page of a ``pdftocairo -svg`` file: the ink of each run of glyphs, the lines and the fills."""
    shapes = glyph_boxes(svg)
    runs: list[list[float]] = []  # x0, y0, x1, y1, baseline, last x
    for name, x_text, y_text in USE.findall(svg):
        if name not in shapes:
            continue  # a space
        x, y = float(x_text), float(y_text)
        left, top, right, bottom = shapes[name]
        run = runs[-1] if runs else None
        if run and abs(run[4] - y) < 0.01 and 0 <= x + left - run[2] <= WORD_GAP:
            run[1], run[2], run[3] = min(run[1], y + top), x + right, max(run[3], y + bottom)
        else:
            runs.append([x + left, y + top, x + right, y + bottom, y])
    rules, grid = [], []
    for width, x0, y0, x1, y1, a, d, e, f in STROKE.findall(svg):
        if float(y0) != float(y1):
            continue  # a vertical line
        scale, y = float(d), float(d) * float(y0) + float(f)
        half = float(width) * abs(scale) / 2
        left, right = sorted((float(a) * float(x0) + float(e), float(a) * float(x1) + float(e)))
        (rules if float(width) >= RULE_WIDTH else grid).append(Box(left, y - half, right, y + half))
    fills = []
    for match in FILL.finditer(svg):
        numbers = [float(n) for n in SVG_NUMBER.findall(match.group(0).split(' d="')[1])]
        xs, ys = numbers[0::2], numbers[1::2]
        fills.append(Box(min(xs), min(ys), max(xs), max(ys)))
    ink = [Box(*run[:5]) for run in runs]
    return Drawing(ink, rules, grid, joined(fills))


def joined(fills: list[Box]) -> list[Box]:
    """Filled boxes one above the other, as wide and touching, as one (a header cell over two rows
    may be filled row by row)."""
    merged: list[Box] = []
    for box in sorted(fills, key=lambda b: (round(b.x0), round(b.x1), b.y0)):
        last = merged[-1] if merged else None
        if last and abs(last.x0 - box.x0) < 0.5 and abs(last.x1 - box.x1) < 0.5 and box.y0 - last.y1 < 0.5:
            merged[-1] = Box(last.x0, last.y0, last.x1, max(last.y1, box.y1))
        else:
            merged.append(box)
    return merged


def pdf_drawings(path: Path) -> list[Drawing]:
    """Every page of the PDF as drawn (poppler's ``pdftocairo -svg``, one page at a time)."""
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    pages = []
    for page in range(1, count + 1):
        command = ["pdftocairo", "-svg", "-f", str(page), "-l", str(page), str(path), "-"]
        pages.append(drawing(subprocess.run(command, capture_output=True, text=True, check=True).stdout))
    return pages


def tight_spots(page: Drawing, least: float) -> list[tuple[float, str, Box, Box]]:
    """Where a run of text comes closer than ``least`` points, above or below, to a block's rule, to
    another line of text, or to a filled box (a table's header) it is not printed in: (gap, what, the
    text's ink, the other)."""
    found = []
    for box in page.ink:
        for rule in page.rules:
            if box.across(rule) and box.gap(rule) < least:
                found.append((box.gap(rule), "rule", box, rule))
        for fill in page.fills:
            inside = fill.y0 < box.baseline < fill.y1  # a header's own text
            if box.across(fill) and not inside and box.gap(fill) < least:
                found.append((box.gap(fill), "table", box, fill))
        for other in page.ink:
            below = other.baseline > box.baseline + SAME_LINE
            if below and box.across(other) and box.gap(other) < least:
                found.append((box.gap(other), "text", box, other))
    return sorted(found, key=lambda spot: spot[0])
