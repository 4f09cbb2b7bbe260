"""Assemble a ruleset's workbook: contents, calculators, rulings and reference sheets.

``build_workbook(rules, macro=False)`` gives the .xlsx (native formulas only); ``macro=True`` gives
the .xlsm, whose calculators call the UDFs of ``pycalc.udfs``, with the VBA project (and add-in
reference) of xlwings' own quickstart.xlsm (``make_macro``). The build saves both files from one book
(``build_both``, ``pycalc.sheets.dual``): the same bytes, for about half the work.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import importlib.util
import io
import json
import os
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator
from copy import copy
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath

import openpyxl
from openpyxl.packaging.custom import StringProperty
from openpyxl.workbook.properties import CalcProperties
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.worksheet import Worksheet

from pycalc.registry import CalculatorWriter, GenericRuleset, ruleset_of
from pycalc.sheets.common import (
    NOTE,
    SUBTITLE,
    TITLE,
    WRAP,
    absolute,
    define_name,
    font,
    protect,
    put,
    ruling_name,
    style_header,
)
from pycalc.sheets.creatures import SHEET as CREATURES_SHEET
from pycalc.sheets.creatures import creature_problems, write_creatures
from pycalc.sheets.d20_supported import check_supported
from pycalc.sheets.dual import BOTH, Both, Udfs, both, set_text
from pycalc.sheets.encounter import write_encounter
from pycalc.sheets.encounter_cells import LOG_SHEET, Calculator
from pycalc.sheets.encounter_cells import SHEET as ENCOUNTER_SHEET
from pycalc.sheets.fight_record import SHEET as FIGHT_RECORD_SHEET
from pycalc.sheets.fight_record import write_fight_record
from pycalc.sheets.gm_text import make_readable, readable
from pycalc.sheets.ooxml.cells import all_sheets, cells_of, set_stored_value, stored_value
from pycalc.sheets.ooxml.fast_cells import fast_cells
from pycalc.sheets.ooxml.saved_xml import fixed_modified_stamp, print_titles_last
from pycalc.sheets.ooxml.styles import share_styles
from pycalc.sheets.ooxml.writer import Parts, SavedSheet, save_parts
from pycalc.sheets.pick_notes import show_pick_modifiers
from pycalc.sheets.portable import make_portable
from pycalc.sheets.printing import is_hidden, last_shown_column, set_up_workbook
from pycalc.sheets.reference import write_reference_sheet
from pycalc.sheets.roster_pick import fill_from_roster
from pycalc.table_files import TableError
from pycalc.tables import RuleSet, Table, tables_dir, yaml_files

CONTENTS_SHEET = "Contents"
RULINGS_SHEET = "Rulings"
RULING_ID_COLUMN = "F"  # the choice in force as the formulas read it (hidden)
XLWINGS_CONF_SHEET = "xlwings.conf"
UDF_MODULE = "pycalc.udfs"
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
FIXED_DATE = datetime(2000, 1, 1)


def calculator_writer(rules: RuleSet) -> CalculatorWriter | None:
    """The writer of the ruleset's calculator sheets (``pycalc.registry``): a shipped ruleset's own, or
    the generic d20 sheets (``pycalc.sheets.d20``) when its YAML has a resolution block; else None."""
    found = ruleset_of(rules)
    return None if found is None else found.sheets


def check_buildable(rules: RuleSet) -> None:
    """TableError (at the block's file:line) when the generic sheets cannot write the ruleset's block."""
    if isinstance(ruleset_of(rules), GenericRuleset):
        check_supported(rules)
    problems = creature_problems(rules)
    if problems:
        raise TableError(problems)


def tables_version(ruleset_id: str) -> str:
    """Short hash of the ruleset's YAML: printed in the workbook so a sheet names its tables."""
    digest = hashlib.sha256()
    folder = tables_dir() / ruleset_id
    for path in [folder / "ruleset.yaml", *yaml_files(folder)]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def quickstart_path() -> Path:
    """xlwings' quickstart.xlsm, found without importing xlwings (which the build does not need)."""
    spec = importlib.util.find_spec("xlwings")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("xlwings is not installed: the .xlsm takes its VBA project from it")
    return Path(spec.origin).parent / "quickstart.xlsm"


def new_book() -> Workbook:
    book = openpyxl.Workbook()
    book.remove(book.active)
    return share_styles(book)


@dataclass(frozen=True)
class Quickstart:
    """What the .xlsm takes from xlwings' quickstart.xlsm: its VBA project (with the add-in reference)
    and what its modules are tied to: the workbook's and its two sheets' code names, and its calculation
    settings. Its styles and theme are not taken: the .xlsm looks as the .xlsx does."""

    vba_parts: bytes  # the template's parts, as a zip (openpyxl's writer copies the VBA ones)
    code_name: str | None
    sheet_code_names: tuple[str, ...]
    calculation: CalcProperties


@functools.cache
def quickstart() -> Quickstart:
    template = openpyxl.load_workbook(quickstart_path(), keep_vba=True)
    archive = template.vba_archive
    memory = archive.fp
    archive.close()  # writes the zip's directory; a file object handed to ZipFile stays open
    return Quickstart(
        memory.getvalue(),  # type: ignore[union-attr]
        template.code_name,
        tuple(sheet.sheet_properties.codeName for sheet in template.worksheets),
        template.calculation,
    )


def make_macro(book: Workbook) -> None:
    """Make the finished book the .xlsm: xlwings' VBA project, and its xlwings.conf sheet."""
    template = quickstart()
    book.vba_archive = zipfile.ZipFile(io.BytesIO(template.vba_parts))  # read by the writer only
    book.code_name = template.code_name
    book.calculation = copy(template.calculation)
    write_xlwings_conf(book)
    for sheet, code_name in zip(
        (book.worksheets[0], book[XLWINGS_CONF_SHEET]), template.sheet_code_names, strict=True
    ):  # the VBA project's document modules: Sheet1, its first sheet; Sheet2, its xlwings.conf
        sheet.sheet_properties.codeName = code_name
    record_generated_sheets(book)


def reference_groups(rules: RuleSet) -> dict[str, list[Table]]:
    """Tables grouped by the YAML file they come from, as sheet title -> tables."""
    groups: dict[str, list[Table]] = {}
    for table in rules.tables.values():
        groups.setdefault(table.sheet_title, []).append(table)
    return groups


def write_rulings(book: Workbook, rules: RuleSet) -> None:
    sheet = book.create_sheet(RULINGS_SHEET)
    sheet.sheet_properties.tabColor = "9F580A"
    put(sheet["A1"], "Rulings in force").font = TITLE
    intro = put(
        sheet["A2"],
        "Where the seed is ambiguous this workbook follows a ruling. To change one, set its choice in the "
        "ruleset's YAML (or a house-rule file) and rebuild: the calculators follow the choice shown here.",
    )
    intro.font, intro.alignment = NOTE, WRAP
    sheet.merge_cells("A2:E2")
    sheet.row_dimensions[2].height = 30
    for column, (title, width) in enumerate(
        [("Ruling", 34), ("In force", 40), ("The other choices", 44), ("Why", 60), ("Source", 24)], start=1
    ):
        style_header(sheet.cell(4, column, title))
        sheet.column_dimensions["ABCDE"[column - 1]].width = width
    sheet.column_dimensions[RULING_ID_COLUMN].hidden = True
    for row, ruling in enumerate(rules.rulings.values(), start=5):
        chosen = rules.ruling(ruling.id)
        put(sheet.cell(row, 1), ruling.label).alignment = WRAP
        in_force = put(sheet.cell(row, 2), ruling.choices[chosen])
        in_force.font, in_force.alignment = font(bold=True), WRAP
        others = [text for key, text in ruling.choices.items() if key != chosen]
        put(sheet.cell(row, 3), "\n".join(f"• {text}" for text in others)).alignment = WRAP
        put(sheet.cell(row, 4), ruling.why).alignment = WRAP
        put(sheet.cell(row, 5), f"§ {ruling.section}").font = NOTE
        put(sheet[f"{RULING_ID_COLUMN}{row}"], chosen)  # what the formulas compare with, hidden
        define_name(book, ruling_name(ruling.id), absolute(sheet, f"{RULING_ID_COLUMN}{row}"))
    heading_row = 5 + len(rules.rulings) + 1
    put(sheet.cell(heading_row, 1), "House rules in force").font = SUBTITLE
    for row, change in enumerate(
        rules.house_rules or ("None: the tables as shipped.",), start=heading_row + 1
    ):
        put(sheet.cell(row, 1), change)
    sheet.freeze_panes = "A5"
    protect(sheet)


THIS_FILE: dict[Udfs, str] = {
    False: "native formulas, no Python needed",
    True: "calculators call the pycalc UDFs (xlwings)",
}
THIS_FILE[BOTH] = both(THIS_FILE[False], THIS_FILE[True])


def write_contents(book: Workbook, rules: RuleSet, macro: Udfs) -> None:
    sheet = book.create_sheet(CONTENTS_SHEET, 0)
    sheet.sheet_properties.tabColor = "1D4E89"
    sheet.column_dimensions["A"].width = 34
    sheet.column_dimensions["B"].width = 70
    put(sheet["A1"], rules.name).font = TITLE
    facts = [
        ("Resolution", rules.resolution),
        ("Source", f"{rules.source}; every table row names its section"),
        ("Tables version", tables_version(rules.id)),
        ("This file", THIS_FILE[macro]),
    ]
    for row, (label, text) in enumerate(facts, start=2):
        put(sheet.cell(row, 1), label).font = font(bold=True)
        set_text(put(sheet.cell(row, 2), text), text)
    row = len(facts) + 3
    put(sheet.cell(row, 1), "Sheets").font = SUBTITLE
    for sheet_title in book.sheetnames:
        if sheet_title in (CONTENTS_SHEET, XLWINGS_CONF_SHEET) or book[sheet_title].sheet_state != "visible":
            continue
        row += 1
        link = put(sheet.cell(row, 1), sheet_title)
        link.hyperlink = Hyperlink(ref=link.coordinate, location=f"'{sheet_title}'!A1", display=sheet_title)
        link.font = font(colour="0B69A3")
        put(sheet.cell(row, 2), sheet_purpose(book[sheet_title], rules)).font = NOTE
    protect(sheet)


CALCULATOR_PURPOSE = (
    "Resolve one attack: the number needed and the odds before the roll; after it, the result, the "
    "damage and the target's hit points"
)


def headings_of(sheet: Worksheet) -> list[str]:
    """The section titles written down column A below the sheet's title (bold, 11 pt and up)."""
    return [
        str(cell.value)
        for (cell,) in sheet.iter_rows(min_row=3, max_col=1)
        if isinstance(cell.value, str) and cell.font.b and (cell.font.sz or 0) >= 11
    ]


def sheet_purpose(sheet: Worksheet, rules: RuleSet) -> str:
    """What a sheet is for, for its Contents line."""
    if sheet.title.endswith(" calculator"):
        return CALCULATOR_PURPOSE
    if sheet.title == ENCOUNTER_SHEET:
        return "Run a whole fight: roster, initiative order, hit points and conditions by round"
    if sheet.title == LOG_SHEET:
        return "Log the attacks as they are called out, under the acting order of the round and who acts now"
    if sheet.title == FIGHT_RECORD_SHEET:
        return "The fight on one printed page: acting order, hit points, states and the attack log"
    if sheet.title == CREATURES_SHEET:
        return "Your creature library: a roster line naming a creature takes its numbers (kept on rebuild)"
    if sheet.title == RULINGS_SHEET:
        return "Where the seed is ambiguous: the choice this workbook follows, the other choices, and why"
    groups = reference_groups(rules)
    if sheet.title in groups:
        return "Tables: " + "; ".join(readable(table.title, rules) for table in groups[sheet.title])
    if sheet.title.startswith("Odds"):
        return "Printable odds before the roll: " + "; ".join(headings_of(sheet)).lower()
    return "Calculators: " + "; ".join(headings_of(sheet))


def add_back_links(book: Workbook) -> None:
    """A link back to the Contents sheet at the right end of every visible sheet's first row."""
    for sheet in book.worksheets:
        if sheet.title == CONTENTS_SHEET or sheet.sheet_state != "visible":
            continue
        column = max(2, last_shown_column(sheet))
        while (
            sheet.cell(1, column).value is not None
            or is_hidden(sheet, column)
            or any(sheet.cell(1, column).coordinate in merged for merged in sheet.merged_cells.ranges)
        ):
            column += 1
        link = put(sheet.cell(1, column), "Contents")
        link.hyperlink = Hyperlink(ref=link.coordinate, location=f"'{CONTENTS_SHEET}'!A1", display="Contents")
        link.font = font(9, colour="0B69A3")


def write_xlwings_conf(book: Workbook) -> None:
    """Only the key we mean: any key present overrides the GM's own xlwings setting."""
    sheet = book.create_sheet(XLWINGS_CONF_SHEET)
    put(sheet["A1"], "UDF Modules")
    put(sheet["B1"], UDF_MODULE)
    sheet.sheet_state = "hidden"
    sheet.sheet_view.tabSelected = False


def build_workbook(
    rules: RuleSet, macro: bool = False, paper: str = "a4", calculators: dict[bool, Calculator] | None = None
) -> Workbook:
    """One workbook of the ruleset. ``calculators``, shared by the builds of the .xlsx and the .xlsm,
    holds the calculators' formulas read so far by kind (see ``write_encounter``); built with
    ``fast_cells`` (the same bytes) and the garbage collector paused (``gc_paused``)."""
    with fast_cells(), gc_paused():
        return workbook_of(rules, macro, paper, calculators)


def build_both(rules: RuleSet, paper: str = "a4") -> Workbook:
    """The ruleset's book to save as both files (``pycalc.sheets.dual``): as the .xlsx, then, after
    ``to_macro``, as the .xlsm. The same files as ``build_workbook`` builds, for about half the work."""
    with fast_cells(), gc_paused():
        return workbook_of(rules, BOTH, paper, None)


def to_macro(book: Workbook) -> None:
    """The book saved as the .xlsx (``build_both``), made the .xlsm: each cell takes its .xlsm text."""
    for sheet in book.worksheets:
        for cell in cells_of(sheet).values():
            value = stored_value(cell)
            if type(value) is Both:
                set_stored_value(cell, value.macro)
        # what openpyxl's writer left on the sheet, which would change the next save:
        sheet.legacy_drawing = None  # where it put the comments' shapes (read back from the VBA parts)
        sheet.column_dimensions.max_outline = None  # read as the sheet's outline level before set
    make_macro(book)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No automatic garbage collection inside: each one walks every object alive, and a workbook being
    built is some 100,000 cells and style arrays that are never garbage while it is built (a quarter of
    the build's time went to walking them again and again). The cycles left behind are collected by
    the first collection after (nested use is fine: the collector is on again only if it was on)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def release(book: Workbook) -> None:
    """Free a saved workbook's cells now, by their reference counts, while the garbage collector is
    paused: left to the collector, its first collection after the pause walks every one of them."""
    for sheet in all_sheets(book):
        cells_of(sheet).clear()


def workbook_of(
    rules: RuleSet, macro: Udfs, paper: str, calculators: dict[bool, Calculator] | None
) -> Workbook:
    book = new_book()
    writer = calculator_writer(rules)
    if writer:
        writer(book, rules, macro)
        write_encounter(book, rules, writer, macro, calculators)
        write_fight_record(book, rules)
        write_creatures(book, rules)
        fill_from_roster(book, rules)
    write_rulings(book, rules)
    for title, tables in reference_groups(rules).items():
        write_reference_sheet(book, title, tables, rules)
    add_back_links(book)
    show_pick_modifiers(book, rules)
    make_portable(book)
    write_contents(book, rules, macro)
    make_readable(book, rules)
    set_up_workbook(book, rules.name, tables_version(rules.id), paper)
    opening = opening_sheet(book)
    book.active = book.worksheets.index(opening)
    put_cursor_on_first_input(opening)
    for sheet in book.worksheets:
        sheet.sheet_view.tabSelected = sheet is opening  # one selected tab: never sheets grouped for typing
    if macro is True:
        make_macro(book)
    else:
        record_generated_sheets(book)
    return book


GENERATED_SHEETS = "pycalc generated sheets"  # a custom document property: the sheets a build made


def record_generated_sheets(book: Workbook) -> None:
    """Name the sheets this build made (a JSON list, kept by Excel and LibreOffice when the GM saves),
    so the next build tells the GM's own sheets from those a newer build no longer makes."""
    properties = book.custom_doc_props
    properties.props = [p for p in properties.props if p.name != GENERATED_SHEETS]  # the .xlsx's
    properties.append(StringProperty(name=GENERATED_SHEETS, value=json.dumps(book.sheetnames)))


def generated_sheets(parts: Parts) -> set[str] | None:
    """The sheets the build that made a saved workbook recorded (None when it recorded none)."""
    if "docProps/custom.xml" not in parts:
        return None
    for found in ET.fromstring(parts["docProps/custom.xml"]):
        if found.get("name") == GENERATED_SHEETS:
            titles = json.loads("".join(found.itertext()))
            if isinstance(titles, list) and all(isinstance(t, str) for t in titles):
                return set(titles)
    return None


def opening_sheet(book: Workbook) -> Worksheet:
    """The sheet the workbook opens on: its first visible calculator (Attack or Strike calculator)."""
    return next(s for s in book.worksheets if s.sheet_state == "visible" and s.title.endswith(" calculator"))


def put_cursor_on_first_input(sheet: Worksheet) -> None:
    """The sheet opens with the cursor on its first yellow cell (the first unlocked one, row by row):
    the GM types or picks there at once. On the title, LibreOffice also looked up every currency of
    every language as it opened the workbook (about 0.03 s), to show that text in the input line."""
    cells = cells_of(sheet)  # (iter_rows would make a cell at every empty place it passes)
    inputs = [place for place, cell in cells.items() if cell.protection.locked is False]
    if not inputs:
        return
    first = cells[min(inputs)]
    for selection in sheet.sheet_view.selection:
        selection.activeCell = selection.sqref = first.coordinate


MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
DOC_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def parts_of(data: bytes) -> Parts:
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        parts = {info.filename: source.read(info.filename) for info in source.infolist()}
        if len(parts) != len(source.infolist()):
            raise ValueError("a zip part name appears twice")
    return parts


def sheets_in(read: Callable[[str], bytes]) -> dict[str, str]:
    """Sheet title -> the part holding that worksheet, of a workbook whose parts ``read`` gives."""
    workbook = ET.fromstring(read("xl/workbook.xml"))
    rels = ET.fromstring(read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels.iter(f"{RELS}Relationship")}
    parts = {}
    for sheet in workbook.iter(f"{MAIN}sheet"):
        target = targets[sheet.get(DOC_REL)]
        path = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)
        parts[sheet.get("name", "")] = path
    return parts


def shared_strings(parts: Parts) -> list[str]:
    """The workbook's shared strings, by index (none in the builder's files; LibreOffice and Excel
    write text this way)."""
    if "xl/sharedStrings.xml" not in parts:
        return []
    strings = ET.fromstring(parts["xl/sharedStrings.xml"])
    return ["".join(t.text or "" for t in item.iter(f"{MAIN}t")) for item in strings]


def zipped(parts: Parts) -> bytes:
    """The parts stored reproducibly (fixed times), each compressed once."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name, part in parts.items():
            fixed_info = zipfile.ZipInfo(name, FIXED_ZIP_TIME)
            fixed_info.compress_type = zipfile.ZIP_DEFLATED
            fixed_info.external_attr = 0o600 << 16
            target.writestr(fixed_info, part)
    return out.getvalue()


def workbook_parts(
    book: Workbook, kept: dict[str, SavedSheet] | None = None, given: dict[str, SavedSheet] | None = None
) -> Parts:
    """The saved file's parts, reproducible (no save time in them), before they are compressed. Into
    ``kept``, each sheet as the .xlsm of a book holding both files stores it; from ``given``, the
    sheets to take as they are (``BothFilesWriter``)."""
    book.properties.creator = "pycalc build.py"
    book.properties.lastModifiedBy = "pycalc build.py"
    book.properties.created = FIXED_DATE
    parts = save_parts(book, kept, given)  # as book.save, into parts: compressed once, by zipped()
    parts["xl/workbook.xml"] = print_titles_last(parts["xl/workbook.xml"])
    if "docProps/core.xml" in parts:
        parts["docProps/core.xml"] = fixed_modified_stamp(parts["docProps/core.xml"])
    return parts


def workbook_bytes(book: Workbook) -> bytes:
    """The saved file, made byte-for-byte reproducible (fixed timestamps inside the zip)."""
    return zipped(workbook_parts(book))


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and move it into place: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # a download, readable by all (mkstemp makes it private)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
