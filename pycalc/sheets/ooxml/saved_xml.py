"""Edits and reads of a saved workbook's XML parts by pattern, not by parsing them.

Each pattern matches the one shape openpyxl (with ``pycalc.sheets.ooxml.writer``) writes, or, for
``saved_cells``, any cell element of SpreadsheetML: a saved part is some megabytes, parsing it whole
costs more than the build wants to spend, and the bytes of the parts left alone stay as they were.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from html import escape, unescape  # (xml.sax.saxutils would import urllib, http and ssl)
from typing import Any
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]

escape_text: Callable[[str], str] = _escape_cdata
"""Text as the standard library's XML writer (openpyxl's, without lxml) escapes it in an element."""

escape_attribute: Callable[[str], str] = _escape_attrib
"""An attribute's value as the standard library's XML writer escapes it."""

MODIFIED_STAMP = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")
PRINT_TITLES = re.compile(rb'<definedName name="_xlnm.Print_Titles" [^>]*>[^<]*</definedName>')


def fixed_modified_stamp(core_xml: bytes, stamp: bytes = b"2000-01-01T00:00:00Z") -> bytes:
    """``docProps/core.xml`` with its modification time ``stamp`` (openpyxl writes the time of saving):
    the same book, the same bytes."""
    return MODIFIED_STAMP.sub(rb"\g<1>" + stamp + rb"\g<2>", core_xml)


def print_titles_last(workbook_xml: bytes) -> bytes:
    """The sheets' print titles after every print area, as Excel orders them (openpyxl writes each
    sheet's titles before its area). LibreOffice works out the pages of the sheets when it reads a
    sheet's print titles: over all of a sheet whose print area it has not read yet. Opening a workbook
    took about 0.1 s more CPU for it."""
    titles = PRINT_TITLES.findall(workbook_xml)
    return PRINT_TITLES.sub(b"", workbook_xml).replace(
        b"</definedNames>", b"".join(titles) + b"</definedNames>"
    )


def with_sheet_data(sheet_xml: bytes, rows: bytes) -> bytes:
    """A worksheet part with ``rows`` (``<row>`` elements) in place of those inside its ``<sheetData>``."""
    start = sheet_xml.index(b"<sheetData>") + len(b"<sheetData>")
    return sheet_xml[:start] + rows + sheet_xml[sheet_xml.rindex(b"</sheetData>") :]


# A formula cell as the builder writes it (no value), and as ``formula_cells_valued`` writes it (with
# one); its <f> element holds the formula, or starts or joins a shared formula
# (``shared_formulas``).
FORMULA = rb'(<f>[^<]*</f>|<f t="shared" ref="[A-Z0-9:]+" si="[0-9]+">[^<]*</f>|<f t="shared" si="[0-9]+" />)'
EMPTY_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"((?: s="[0-9]+")?)>' + FORMULA + rb"<v ?/></c>")
VALUED_FORMULA_CELL = re.compile(
    rb'<c r="([A-Z]+[0-9]+)"((?: s="[0-9]+")?)(?: t="[a-z]+")?>' + FORMULA + rb"<v>[^<]*</v></c>"
)
WRITTEN_VALUE = re.compile(
    rb'<c r="([A-Z]+[0-9]+)"(?: s="[0-9]+")?(?: t="([a-z]+)")?>(?:' + FORMULA[1:-1] + rb")<v>([^<]*)</v></c>"
)
WRITTEN_TEXT = re.compile(WRITTEN_VALUE.pattern.decode())  # the same, in a decoded part

CellEnding = tuple[bytes, bytes]
"""A formula cell's cached value as written: its type attribute (b'' for a number, b' t="str"' ...)
and its escaped ``<v>`` text."""


def cell_ending(kind: str, text: str) -> CellEnding:
    """How ``formula_cells_valued`` writes a cached value of type ``kind`` ('n', 'str', 'b', 'e')."""
    shown = escape(text, quote=False) if "&" in text or "<" in text or ">" in text else text
    return (b"" if kind == "n" else f' t="{kind}"'.encode()), shown.encode()


def formula_cells_valued(sheet_xml: bytes, endings: dict[bytes, CellEnding]) -> bytes:
    """A worksheet part as written, each formula cell whose reference ``endings`` holds given that
    cached value (the others stay empty)."""

    def valued(match: re.Match[bytes]) -> bytes:
        ref, style, formula = match.groups()
        found = endings.get(ref)
        if found is None:
            return match.group(0)
        return b'<c r="%s"%s%s>%s<v>%s</v></c>' % (ref, style, found[0], formula, found[1])

    return EMPTY_FORMULA_CELL.sub(valued, sheet_xml)


def formula_cells_emptied(sheet_xml: bytes) -> bytes:
    """A worksheet part with the cached values of its formula cells removed, as openpyxl writes it
    (a part just written, with no value after any formula, is handed back as it is, unsearched)."""
    if b"</f><v>" not in sheet_xml and b'" /><v>' not in sheet_xml:
        return sheet_xml
    return VALUED_FORMULA_CELL.sub(empty_formula_cell, sheet_xml)


def empty_formula_cell(valued: re.Match[bytes]) -> bytes:
    """A valued formula cell as openpyxl writes it: no type, no value (a function, not a template:
    ``re`` expands a template in Python, match by match, at half the speed)."""
    return b'<c r="%s"%s>%s<v /></c>' % valued.group(1, 2, 3)


def written_formula_values(sheet_text: str) -> list[tuple[str, str, str]]:
    """(reference, type attribute or '' for none, ``<v>`` text unescaped) of each formula cell
    ``formula_cells_valued`` gave a value, in a decoded worksheet part (read without parsing it)."""
    return [
        (ref, kind, unescape(text) if "&" in text else text)
        for ref, kind, text in WRITTEN_TEXT.findall(sheet_text)
    ]


CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)', re.S)
CELL_START = re.compile(rb'<c r="([A-Z]+[0-9]+)"')
CELL_TYPE = re.compile(rb'\bt="([a-zA-Z]+)"')
VALUE = re.compile(rb"<v>([^<]*)</v>")
TEXT = re.compile(rb"<t(?: [^>]*)?>([^<]*)</t>")


def cell_value(kind: bytes, inner: bytes, shared: list[str]) -> Any:
    """A stored cell's value as openpyxl reads it (dates stay numbers: inputs are never dates)."""
    stored = VALUE.search(inner)
    text = unescape(stored.group(1).decode()) if stored else None
    if kind == b"inlineStr":
        return unescape("".join(t.decode() for t in TEXT.findall(inner)))
    if text is None:
        return None
    if kind == b"s":
        return shared[int(text)]
    if kind == b"b":
        return bool(int(text))
    if kind in (b"str", b"e", b"d"):
        return text
    return float(text) if any(c in text for c in ".Ee") else int(text)


def saved_cells(
    sheet_xml: bytes, refs: Collection[bytes], shared: list[str], unreadable: Callable[[bytes], Exception]
) -> dict[bytes, tuple[Any, bool]]:
    """(value, whether it is a formula) of each cell at ``refs`` (b"A1" ...) a worksheet part stores,
    as LibreOffice, Excel or the builder saved it; ``unreadable(ref)`` is raised for a cell whose
    element cannot be read. The cells' starts are found fast; only the wanted cells are read whole."""
    found: dict[bytes, tuple[Any, bool]] = {}
    for start in CELL_START.finditer(sheet_xml):
        ref = start.group(1)
        if ref not in refs:
            continue
        match = CELL.match(sheet_xml, start.start())
        if match is None:
            raise unreadable(ref)
        kind = CELL_TYPE.search(match.group(2))
        inner = match.group(3) or b""
        found[ref] = (cell_value(kind.group(1) if kind else b"n", inner, shared), b"<f" in inner)
    return found
