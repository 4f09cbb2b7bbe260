"""A second engine: Gnumeric recalculates every .xlsx to what LibreOffice shows, on the default inputs
and on generated input sets, every formula cell of every sheet compared (there is no Excel here)."""

from __future__ import annotations

import math
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import openpyxl
import pytest

from pycalc.libreoffice import convert
from pycalc.sheets.cached_values import CellValue, read_values
from pycalc.tables import RULESET_IDS
from tests.conftest import require_libreoffice

INPUT_SETS = 40
SSCONVERT_TIMEOUT = 120
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


def gnumeric_recalculated(source: Path, out: Path) -> Path:
    command = [require_gnumeric(), "--recalc", str(source), str(out)]
    subprocess.run(command, check=True, capture_output=True, timeout=SSCONVERT_TIMEOUT)
    return out


def same(a: CellValue | None, b: CellValue | None) -> bool:
    if a is None or b is None:
        return a == b
    (kind_a, text_a), (kind_b, text_b) = a, b
    numeric = {"n", "b"}
    if kind_a in numeric and kind_b in numeric:
        return math.isclose(float(text_a), float(text_b), rel_tol=1e-9, abs_tol=1e-12)
    return (kind_a, text_a) == (kind_b, text_b)


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


def input_sets(source: Path, folder: Path, count: int, seed: int, stem: str = "inputs") -> list[Path]:
    """``count`` copies of the workbook, each with about 60% of its inputs given generated values."""
    rng = random.Random(seed)
    book = openpyxl.load_workbook(source)
    found = sorted(inputs(book).items())
    defaults = {name: book[sheet][ref].value for name, (sheet, ref, _) in found}
    paths = []
    for number in range(count):
        for name, (sheet, ref, choices) in found:
            changed = rng.random() < 0.6
            book[sheet][ref].value = (
                generated_value(rng, name, defaults[name], choices) if changed else defaults[name]
            )
        paths.append(folder / f"{stem}-{number:02d}.xlsx")
        book.save(paths[-1])
    return paths


@pytest.mark.timeout(900)  # every formula cell, the Encounter sheet's thousands included, in two engines
@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])  # bx: a ruleset in YAML alone
def test_gnumeric_equals_libreoffice_on_every_formula_cell(
    ruleset_id: str, build_ruleset: Callable[[str], Path], tmp_path: Path
):
    require_libreoffice()
    require_gnumeric()
    source = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    formula_cells = set(read_values(source.read_bytes()))  # LibreOffice also writes TRUE/FALSE as formulas
    (tmp_path / "in").mkdir()
    copies = [
        Path(shutil.copy(source, tmp_path / "in" / "defaults.xlsx")),
        *input_sets(source, tmp_path / "in", INPUT_SETS, seed=(*RULESET_IDS, "bx").index(ruleset_id)),
    ]
    (tmp_path / "gnumeric").mkdir()
    with ThreadPoolExecutor(max_workers=1) as gnumeric:  # runs beside the one LibreOffice process
        pending = [gnumeric.submit(gnumeric_recalculated, p, tmp_path / "gnumeric" / p.name) for p in copies]
        by_libreoffice = convert(copies, tmp_path / "libreoffice", "xlsx")
        by_gnumeric = [future.result() for future in pending]
    compared = 0
    differences = []
    for libreoffice_file, gnumeric_file in zip(by_libreoffice, by_gnumeric, strict=True):
        expected = read_values(libreoffice_file.read_bytes())
        shown = read_values(gnumeric_file.read_bytes())
        compared += len(formula_cells)
        differences += [
            f"{libreoffice_file.stem} {sheet}!{ref}: LibreOffice {expected.get((sheet, ref))}, "
            f"Gnumeric {shown.get((sheet, ref))}"
            for sheet, ref in sorted(formula_cells)
            if not same(expected.get((sheet, ref)), shown.get((sheet, ref)))
        ]
    print(f"{ruleset_id}: {len(copies)} input sets, {compared} cells compared, {len(differences)} differ")
    assert len(formula_cells) > 1000
    assert not differences, differences[:8]


def test_the_input_generator_changes_inputs(build_ruleset: Callable[[str], Path], tmp_path: Path):
    require_libreoffice()
    source = build_ruleset("spelljammer") / "spelljammer.xlsx"
    book = openpyxl.load_workbook(source)
    found = inputs(book)
    assert {"STRIKE_SC", "STRIKE_ROLL", "STRIKE_DICE"} <= found.keys()
    changed = openpyxl.load_workbook(input_sets(source, tmp_path, 1, seed=7)[0])
    assert any(changed[s][r].value != book[s][r].value for s, r, _ in found.values())
