"""The roster's short names (g3 for Goblin 3, bk for Black Knight, a for Aria, none where taken) worked out
by a second engine: Gnumeric, which keeps to what Excel documents where LibreOffice is lenient (there is
no Excel here), recalculates a roster typed into the workbook and gives the model's short names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.encounter import Combatant, short_names
from tests.test_gnumeric import gnumeric_recalculated, require_gnumeric

ROSTER = (  # name, short name typed
    ("Aria", ""),
    ("Alric", ""),  # "a" taken by the line above: none
    ("Goblin 1", ""),
    ("Goblin 2", "boss"),
    ("Goblin 12", ""),
    ("  Big  Bad Wolf ", ""),
    ("Black Knight", ""),  # "bk" typed on a line below: none
    ("Grim 1", ""),  # g1 taken
    ("Bob", "bk"),
)


def cells(book: openpyxl.Workbook, name: str) -> tuple[str, list[str]]:
    title, ref = next(iter(book.defined_names[name].destinations))
    rows = book[title][ref.replace("$", "")]
    return title, [row[0].coordinate for row in rows]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("ruleset_id", ["cnc", "spelljammer"])
def test_gnumeric_gives_the_models_short_names(
    build_ruleset: Callable[[str], Path], tmp_path: Path, ruleset_id: str
) -> None:
    require_gnumeric()
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    sheet, names = cells(book, "ROSTER_NAME")
    _, typed = cells(book, "ROSTER_SHORT_TYPED")
    _, short = cells(book, "ROSTER_SHORT")
    for (name, mine), at, typed_at in zip(ROSTER, names, typed, strict=False):
        book[sheet][at].value = name
        book[sheet][typed_at].value = mine or None
    source = tmp_path / "roster.xlsx"
    book.save(source)
    shown = gnumeric_recalculated(source, tmp_path / "gnumeric", book.sheetnames)
    expected = short_names([Combatant(name, short=mine) for name, mine in ROSTER])
    got = [shown.get((sheet, at), "") for at in short[: len(ROSTER)]]
    assert got == expected
    assert expected == ["a", "", "g1", "boss", "g12", "bw", "", "", "bk"]
