"""Cached values: every formula cell of a built workbook carries its value at the workbook's inputs.

openpyxl writes formulas without values. Excel and LibreOffice recalculate on opening, but a viewer
that does not (phone and tablet previews, Quick Look, mail and cloud-drive previews) shows an empty
calculator. So the build recalculates the finished .xlsx once in LibreOffice, reads the value of
every formula cell, and writes it into the ``<v>`` of the same cell of both files (.xlsx and .xlsm:
their formula cells sit at the same addresses, and each .xlsm UDF returns what the native formula of
the .xlsx returns).

A file's *content key* ignores those values, so a workbook whose formulas and inputs did not change
takes its values from the previous build (the file already on disk, or an earlier build in the same
process) without starting LibreOffice. Numbers are written to 15 significant digits (what a cell
shows), which keeps builds byte-identical.
"""

from __future__ import annotations

import hashlib
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable
from pathlib import Path

from pycalc.libreoffice import convert
from pycalc.sheets.ooxml.saved_xml import (
    CellEnding,
    cell_ending,
    formula_cells_emptied,
    formula_cells_valued,
    written_formula_values,
)
from pycalc.sheets.workbook import MAIN, Parts, parts_of, shared_strings, sheets_in, zipped

CellValue = tuple[str, str]
"""A cached value as stored: the cell's type attribute ('n', 'str', 'b' or 'e') and the <v> text."""
BookValues = dict[tuple[str, str], CellValue]
"""(sheet title, cell reference) -> cached value."""

_known: dict[str, BookValues] = {}  # content key -> values, for builds of the same content in one run


def sheet_parts(book: zipfile.ZipFile) -> dict[str, str]:
    """Sheet title -> the zip part holding that worksheet."""
    return sheets_in(book.read)


def number_text(text: str) -> str:
    """A number as a cell shows it: 15 significant digits, whole numbers without a fraction."""
    number = float(text)
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(float(f"{number:.15g}"))


def read_values(data: bytes) -> BookValues:
    """The cached value of every formula cell of a workbook file (as LibreOffice or with_values saved it)."""
    values: BookValues = {}
    parts = parts_of(data)
    shared = shared_strings(parts)
    for title, part in sheets_in(parts.__getitem__).items():
        for cell in ET.fromstring(parts[part]).iter(f"{MAIN}c"):
            if cell.find(f"{MAIN}f") is None:
                continue
            kind = cell.get("t", "n")
            stored = cell.find(f"{MAIN}v")
            text = "" if stored is None or stored.text is None else stored.text
            if kind == "s":
                kind, text = "str", shared[int(text)]
            elif kind == "n":
                if not text:
                    continue
                text = number_text(text)
            values[(title, cell.get("r", ""))] = (kind, text)
    return values


def written_values(parts: Parts) -> BookValues:
    """The cached values ``parts_with_values`` wrote into a workbook's parts (read back without parsing
    the sheets: it writes every valued formula cell one way)."""
    values: BookValues = {}
    for title, part in sheets_in(parts.__getitem__).items():
        values.update(
            ((title, ref), (kind or "n", text))  # (kind "": no t attribute)
            for ref, kind, text in written_formula_values(parts[part].decode())
        )
    return values


def parts_with_values(parts: Parts, values: BookValues) -> Parts:
    """The parts with each formula cell's cached value written in (cells without one stay empty)."""
    return value_writer(values)(parts)


_last_writer: list[tuple[BookValues, Callable[[Parts], Parts]]] = []  # the values last written, and how


def value_writer(values: BookValues) -> Callable[[Parts], Parts]:
    """``parts_with_values`` with these values, for any number of files (the .xlsx and the .xlsm take
    the same): each cell's type attribute and escaped value are worked out once, and a sheet written
    the same in several files (most of the .xlsm's are the .xlsx's) is given its values once. The
    writer of the values last asked for is kept (``known_values`` tries it on the .xlsx first)."""
    if _last_writer and _last_writer[0][0] is values:
        return _last_writer[0][1]
    endings: dict[str, dict[bytes, CellEnding]] = {}
    for (title, ref), (kind, text) in values.items():
        endings.setdefault(title, {})[ref.encode()] = cell_ending(kind, text)

    written: dict[bytes, bytes] = {}

    def write(parts: Parts) -> Parts:
        rewritten = dict(parts)
        for title, part in sheets_in(parts.__getitem__).items():
            if parts[part] in written:
                rewritten[part] = written[parts[part]]
                continue
            valued = formula_cells_valued(parts[part], endings.get(title, {}))
            rewritten[part] = written[parts[part]] = valued
        return rewritten

    _last_writer[:] = [(values, write)]
    return write


def with_values(data: bytes, values: BookValues) -> bytes:
    """The workbook file with each formula cell's cached value written in (cells without one stay empty)."""
    parts = parts_of(data)
    valued = parts_with_values(parts, values)
    return zipped(valued) if valued != parts else data


def parts_key(parts: Parts) -> str:
    """A hash of everything in a workbook's parts except the cached values of its formula cells."""
    digest = hashlib.sha256()
    sheets = set(sheets_in(parts.__getitem__).values())
    for name in sorted(parts):
        part = parts[name]
        digest.update(
            name.encode() + b"\0" + (formula_cells_emptied(part) if name in sheets else part) + b"\0"
        )
    return digest.hexdigest()


def content_key(data: bytes) -> str:
    """A hash of everything in a workbook file except the cached values of its formula cells."""
    return parts_key(parts_of(data))


def known_values(parts: Parts, previous: bytes | None) -> BookValues | None:
    """The values of a workbook whose formulas and inputs are those of an earlier build: of this run,
    or of ``previous`` (the file it replaces). None when LibreOffice must work them out.

    A previous file that is not a workbook (damaged, half-copied, another program's) is not used."""
    key = parts_key(parts)
    if key in _known:
        return _known[key]
    if previous is None:
        return None
    try:
        old = parts_of(previous)
        values = written_values(old)
        # the same formulas and inputs: the old file is the new one with the old values written in
        if not values or value_writer(values)(parts) != old:
            return None
    except (zipfile.BadZipFile, KeyError, ValueError, ET.ParseError):
        return None
    _known[key] = values
    return values


def recalculate(files: dict[str, bytes]) -> dict[str, BookValues]:
    """Each .xlsx recalculated in LibreOffice (one process for all): name -> its formula cells' values."""
    with tempfile.TemporaryDirectory(prefix="pycalc-values-") as folder:
        work = Path(folder)
        sources = []
        for name, data in files.items():
            sources.append(work / f"{name}.xlsx")
            sources[-1].write_bytes(data)
        results = convert(sources, work / "recalculated", "xlsx")
        found = {}
        for (name, data), result in zip(files.items(), results, strict=True):
            found[name] = read_values(result.read_bytes())
            _known[content_key(data)] = found[name]
        return found
