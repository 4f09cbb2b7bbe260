"""A second engine: Gnumeric recalculates every .xlsx to what LibreOffice shows, on the default inputs
and on generated input sets, every formula cell of every sheet compared (there is no Excel here)."""

from __future__ import annotations

import csv
import math
import os
import random
import re
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from pycalc.libreoffice import CalcSession, Scalar, Value, typed
from pycalc.sheets.cached_values import CellValue, number_text, read_values
from pycalc.tables import RULESET_IDS
from tests.conftest import require_libreoffice

INPUT_SETS = 40
SSCONVERT_TIMEOUT = 120
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DICE = ["1d4", "1d6+1", "1d8", "2d4", "1d8+2", "2d6-1", "3d6", "1d10+3", "1d12", "2d8+4", "bad"]


def require_gnumeric() -> str:
    """ssconvert's path; skip without it on a developer machine, fail under CI where it must be there."""
    found = shutil.which("ssconvert")
    if found:
        return found
    message = "Gnumeric's ssconvert is needed (apt-get install --no-install-recommends gnumeric)"
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {message}", pytrace=False)
    pytest.skip(message)


def gnumeric_recalculated(source: Path, out: Path, sheets: list[str]) -> dict[tuple[str, str], str]:
    """Every cell Gnumeric shows after recalculating ``source``, as its raw text (full precision, no
    number format): one text file per sheet, which Gnumeric writes in about two thirds of the time
    an .xlsx takes."""
    out.mkdir()
    command = [
        require_gnumeric(),
        "--recalc",
        "--export-file-per-sheet",
        "--export-type=Gnumeric_stf:stf_assistant",
        "--export-options=format=raw separator=, quoting-mode=auto eol=unix",
        str(source),
        str(out / "sheet-%n.csv"),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=SSCONVERT_TIMEOUT)
    shown = {}
    for number, sheet in enumerate(sheets):
        with open(out / f"sheet-{number}.csv", newline="", encoding="utf-8") as rows:
            for row, values in enumerate(csv.reader(rows), start=1):
                for column, text in enumerate(values, start=1):
                    shown[(sheet, f"{get_column_letter(column)}{row}")] = text
    return shown


def same(expected: CellValue | None, shown: str | None) -> bool:
    """LibreOffice's value (as it saves it) and the text Gnumeric shows: numbers within rounding
    (TRUE and FALSE count as 1 and 0), texts and error names exactly."""
    shown = shown or ""
    if expected is None:
        return shown == ""
    kind, text = expected
    if kind in {"n", "b"}:
        number = {"TRUE": "1", "FALSE": "0"}.get(shown, shown)
        try:
            return math.isclose(float(text), float(number), rel_tol=1e-9, abs_tol=1e-12)
        except ValueError:
            return False
    return text == shown


def list_choices(book: openpyxl.Workbook, source: str) -> list[object]:
    """The values a dropdown offers: a literal list or a named range of the workbook."""
    if source.startswith('"'):
        return [True, False] if source == '"TRUE,FALSE"' else source.strip('"').split(",")
    sheet, ref = next(iter(book.defined_names[source.removeprefix("=")].destinations))
    return [c.value for row in book[sheet][ref.replace("$", "")] for c in row if c.value is not None]


def inputs(book: openpyxl.Workbook) -> dict[str, tuple[str, str, list[object] | None]]:
    """Each input cell the GM types into (unlocked, named): name -> (sheet, cell, dropdown choices)."""
    lists = {}
    for sheet in book.worksheets:
        for check in sheet.data_validations.dataValidation:
            if check.type != "list":  # a whole-number check on a roll: any number is generated
                continue
            for ref in str(check.sqref).split():
                lists[(sheet.title, ref)] = list_choices(book, check.formula1)
    found = {}
    for name, defined in book.defined_names.items():
        destinations = list(defined.destinations)
        if len(destinations) != 1 or ":" in destinations[0][1]:
            continue
        sheet, ref = destinations[0][0], destinations[0][1].replace("$", "")
        if sheet in book.sheetnames and book[sheet][ref].protection.locked is False:
            found[name] = (sheet, ref, lists.get((sheet, ref)))
    return found


def generated_value(rng: random.Random, name: str, default: object, choices: list[object] | None) -> object:
    if choices:
        return rng.choice(choices)
    if "DICE" in name:
        return rng.choice(DICE)
    if "ROLL" in name:
        return rng.choice([None, *range(1, 21), 50, 99, 100])
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return rng.randint(int(default) - 10, int(default) + 10)
    return rng.choice([None, 0, 1, 3, 12])


def generated_inputs(book: openpyxl.Workbook, count: int, seed: int) -> list[dict[str, object]]:
    """``count`` input sets, each giving about 60% of the workbook's inputs a generated value."""
    rng = random.Random(seed)
    found = sorted(inputs(book).items())
    defaults = {name: book[sheet][ref].value for name, (sheet, ref, _) in found}
    return [
        {
            name: generated_value(rng, name, defaults[name], choices)
            for name, (_, _, choices) in found
            if rng.random() < 0.6
        }
        for _ in range(count)
    ]


def sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Each sheet's title -> the name of its XML part in the .xlsx package."""
    book = ElementTree.fromstring(package.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
    return {
        sheet.get("name", ""): targets[sheet.get(f"{{{RELATIONSHIPS}}}id")]
        .removeprefix("/")
        .removeprefix("xl/")
        for sheet in book.iter(f"{{{MAIN}}}sheet")
    }


def cell_xml(ref: str, style: str, value: object) -> str:
    """A cell's XML holding ``value`` as openpyxl saves it: a text starting with "=" as a formula."""
    start = f'<c r="{ref}"{style}'
    if value is None:
        return f"{start}/>"
    if isinstance(value, bool):
        return f'{start} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'{start} t="n"><v>{value!r}</v></c>'
    assert isinstance(value, str), value
    if value.startswith("="):
        return f"{start}><f>{escape(value[1:])}</f><v></v></c>"
    return f'{start} t="inlineStr"><is><t xml:space="preserve">{escape(value)}</t></is></c>'


def with_cells(xml: str, values: dict[str, object]) -> str:
    """The sheet's XML with the cells at these references holding these values (each keeps its style)."""
    for ref, value in values.items():
        found = re.search(f'<c r="{ref}"([^>]*?)(?:/>|>.*?</c>)', xml, flags=re.DOTALL)
        assert found, f"no cell {ref} in the sheet's XML"
        style = re.search(r' s="\d+"', found.group(1))
        xml = (
            xml[: found.start()] + cell_xml(ref, style.group(0) if style else "", value) + xml[found.end() :]
        )
    return xml


def saved_copies(
    source: Path, sets: list[dict[str, object]], folder: Path, stem: str = "inputs"
) -> list[Path]:
    """A copy of the workbook per input set (its other inputs at their defaults), as Gnumeric reads them:
    the workbook's own file with only the input cells' XML changed."""
    found = inputs(openpyxl.load_workbook(source))
    with zipfile.ZipFile(source) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
        sheet_part = {title: f"xl/{part}" for title, part in sheet_parts(package).items()}
    paths = []
    for number, values in enumerate(sets):
        by_part: dict[str, dict[str, object]] = {}
        for name, value in values.items():
            sheet, ref, _ = found[name]
            by_part.setdefault(sheet_part[sheet], {})[ref] = value
        paths.append(folder / f"{stem}-{number:02d}.xlsx")
        with zipfile.ZipFile(paths[-1], "w", zipfile.ZIP_DEFLATED, compresslevel=1) as copy:
            for part, data in parts.items():
                changed = by_part.get(part)
                copy.writestr(part, with_cells(data.decode(), changed) if changed else data)
    return paths


def typed_as_saved(value: object) -> Scalar:
    """An input as the saved copy holds it: openpyxl writes a text starting with "=" as a formula."""
    if isinstance(value, str) and value.startswith("="):
        return typed(value)
    assert value is None or isinstance(value, (bool, int, float, str)), value
    return value


# What LibreOffice writes into an .xlsx for each of its error codes (read back from its own files).
SAVED_ERRORS = {
    502: "#VALUE!",
    503: "#NUM!",
    519: "#VALUE!",
    524: "#REF!",
    525: "#NAME?",
    532: "#DIV/0!",
    32767: "#N/A",
}


def as_saved(value: Value) -> CellValue:
    """A formula cell's value read over UNO, as LibreOffice saves it (what ``read_values`` reads back);
    an error code without an Excel name stays 'Err:<code>', which no Gnumeric value equals."""
    if isinstance(value, float):
        return "n", number_text(repr(value))
    if isinstance(value, str) and value.startswith("#ERR:"):
        code = value.removeprefix("#ERR:")
        return "e", SAVED_ERRORS.get(int(code), f"Err:{code}") if code.isdigit() else value
    return "str", "" if value is None else value


def libreoffice_values(found: dict[str, list[tuple[int, int, Value]]]) -> dict[tuple[str, str], CellValue]:
    return {
        (sheet, f"{get_column_letter(column + 1)}{row + 1}"): as_saved(value)
        for sheet, cells in found.items()
        for row, column, value in cells
    }


@pytest.mark.timeout(900)  # every formula cell, the Encounter sheet's thousands included, in two engines
@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])  # bx: a ruleset in YAML alone
def test_gnumeric_equals_libreoffice_on_every_formula_cell(
    ruleset_id: str, build_ruleset: Callable[[str], Path], calc: CalcSession, tmp_path: Path
):
    """Gnumeric recalculates a saved copy per input set; LibreOffice, in the session, loads the workbook
    once and takes the same inputs set by set."""
    require_gnumeric()
    source = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    formula_cells = set(read_values(source.read_bytes()))  # LibreOffice also writes TRUE/FALSE as formulas
    sets = generated_inputs(
        openpyxl.load_workbook(source), INPUT_SETS, (*RULESET_IDS, "bx").index(ruleset_id)
    )
    (tmp_path / "in").mkdir()
    copies = [
        Path(shutil.copy(source, tmp_path / "in" / "defaults.xlsx")),
        *saved_copies(source, sets, tmp_path / "in"),
    ]
    sheets = openpyxl.load_workbook(source, read_only=True).sheetnames
    with ThreadPoolExecutor(max_workers=1) as gnumeric:  # runs beside the one LibreOffice process
        pending = [gnumeric.submit(gnumeric_recalculated, p, tmp_path / p.stem, sheets) for p in copies]
        scenarios = [{}, *({name: typed_as_saved(v) for name, v in one.items()} for one in sets)]
        by_libreoffice = [libreoffice_values(found) for found in calc.formula_values(source, scenarios)]
        by_gnumeric = [future.result() for future in pending]
    compared = 0
    differences = []
    for copy, expected, shown in zip(copies, by_libreoffice, by_gnumeric, strict=True):
        compared += len(formula_cells)
        differences += [
            f"{copy.stem} {sheet}!{ref}: LibreOffice {expected.get((sheet, ref))}, "
            f"Gnumeric {shown.get((sheet, ref))!r}"
            for sheet, ref in sorted(formula_cells)
            if not same(expected.get((sheet, ref)), shown.get((sheet, ref)))
        ]
    print(f"{ruleset_id}: {len(copies)} input sets, {compared} cells compared, {len(differences)} differ")
    assert len(formula_cells) > 1000
    assert not differences, differences[:8]


def test_a_saved_copy_holds_its_input_set_and_the_defaults_elsewhere(
    build_ruleset: Callable[[str], Path], tmp_path: Path
):
    require_libreoffice()
    source = build_ruleset("spelljammer") / "spelljammer.xlsx"
    book = openpyxl.load_workbook(source)
    found = inputs(book)
    assert {"STRIKE_SC", "STRIKE_ROLL", "STRIKE_DICE", "STRIKE_DEF"} <= found.keys()
    sets = generated_inputs(book, 3, seed=7)
    assert any(one[n] != book[s][r].value for one in sets for n, (s, r, _) in found.items() if n in one)
    sets.append({"STRIKE_SC": None, "STRIKE_ROLL": 2.5, "STRIKE_DICE": "=1+1", "STRIKE_DEF": True})
    sets.append({"STRIKE_DICE": 'a<&>"b ', "STRIKE_ROLL": -3})
    for copy, values in zip(saved_copies(source, sets, tmp_path), sets, strict=True):
        held = openpyxl.load_workbook(copy)
        for name, (sheet, ref, _) in found.items():
            want, got = values.get(name, book[sheet][ref].value), held[sheet][ref].value
            assert (type(got), got) == (type(want), want), name  # True is not 1
