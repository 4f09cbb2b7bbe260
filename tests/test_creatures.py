"""The creature library: the Creatures sheet (its columns the roster's, the seed's examples only, kept
across rebuilds), the model's rule of which creature a roster line names, and a bad example in the
YAML stopping the build with its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

import build
from pycalc.creatures import NO_CREATURE, LibraryLine, creature_for, from_creatures, kind_of
from pycalc.encounter import Combatant, Fight
from pycalc.encounter_block import encounter
from pycalc.encounter_rulesets import adapter
from pycalc.sheets.creatures import SHEET, example_cells
from pycalc.sheets.encounter_cells import library_columns
from pycalc.tables import PROJECT_ROOT, RULESET_IDS, load_ruleset

GOBLIN = LibraryLine("Goblin", {"ac": 15, "max_hp": 5, "dex": 1, "dice": "1d6"})


@pytest.mark.parametrize(
    ("name", "kind", "found"),
    [
        ("Goblin 3", "", "Goblin"),
        ("  goblin   12 ", "", "goblin"),
        ("Goblin", "", "Goblin"),
        ("Grishnak", " Goblin ", "Goblin"),
        ("12", "", ""),
        ("Black Knight", "", "Black Knight"),
        ("Goblin 3b", "", "Goblin 3b"),
    ],
)
def test_a_line_names_its_kind_or_its_name_without_the_number(name: str, kind: str, found: str) -> None:
    assert kind_of(name, kind) == found


def test_the_first_library_line_of_the_name_counts_in_any_case() -> None:
    library = [LibraryLine(""), GOBLIN, LibraryLine("GOBLIN", {"max_hp": 9})]
    assert creature_for(library, "goblin 4", "") is GOBLIN
    assert creature_for(library, "", "Goblin") is None  # a line without a name is no combatant
    assert from_creatures(library, "Orc 1", "") == ""
    assert from_creatures(library, "Grishnak", "Dragon") == f"{NO_CREATURE}: Dragon"


def test_a_roster_line_takes_the_creatures_numbers_only_where_it_leaves_them_empty() -> None:
    typed = Combatant("Goblin 2", dex=None, max_hp=8, stats={"ac": "", "dice": "1d4"})
    plain = Combatant("Aria", dex=None, max_hp=None)
    fight = Fight([typed, plain], creatures=[GOBLIN])
    goblin, aria = fight.lines
    assert (goblin.dex, goblin.max_hp, goblin.stats["ac"], goblin.stats["dice"]) == (1, 8, 15, "1d4")
    assert (aria.dex, aria.max_hp) == (0, 0)
    assert fight.roster[0] is typed  # what the GM typed stays as typed


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_example_creature_is_the_seeds_and_fills_roster_columns(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    columns = {key for key, _, _ in library_columns(adapter(rules))}
    for creature in encounter(rules).creatures:
        assert creature.section, creature.name
        seed = (PROJECT_ROOT.parent / "shared" / "seeds").glob(f"*{rules.seed[-8:]}")
        for text in (p.read_text(errors="replace") for p in seed):
            assert creature.section in text
        assert set(example_cells(rules, creature)) <= columns


def test_the_creatures_sheet_has_the_roster_columns_and_the_seed_example(built: Path) -> None:
    book = load_workbook(built / "spelljammer.xlsx")
    sheet = book[SHEET]
    names = book.defined_names
    rules = load_ruleset("spelljammer")
    for _, _, defined in library_columns(adapter(rules)):
        assert f"CREATURE_{defined}" in names
        assert f"ROSTER_{defined}_IN_USE" in names
    _, cells = next(iter(names["CREATURE_NAME"].destinations))
    first = cells.replace("$", "").split(":")[0]
    assert sheet[first].value == "Nutshell fighter"
    row = sheet[first].row
    values = {
        defined: sheet[
            next(iter(names[f"CREATURE_{defined}"].destinations))[1].replace("$", "").split(":")[0]
        ]
        for defined in ("SC", "DEX", "DICE_COUNT", "DICE_SIDES", "DICE_BONUS", "DEF", "MAX_HP")
    }
    assert {k: v.value for k, v in values.items()} == {
        "SC": 112, "DEX": 2, "DICE_COUNT": 1, "DICE_SIDES": 8, "DICE_BONUS": 4, "DEF": None, "MAX_HP": None
    }  # fmt: skip
    assert all(v.row == row for v in values.values())
    assert sheet[first].protection.locked is False


def test_a_creature_the_gm_typed_is_kept_when_the_workbook_is_built_again(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert build.main(["--ruleset", "cnc", "--out", str(out), "--fresh", "--quiet"]) == 0
    book = load_workbook(out / "cnc.xlsx")
    places = {
        name: book.defined_names[name].destinations
        for name in ("CREATURE_NAME", "CREATURE_AC", "CREATURE_MAX_HP")
    }
    for name, value in (("CREATURE_NAME", "Goblin"), ("CREATURE_AC", 15), ("CREATURE_MAX_HP", 5)):
        title, cells = next(iter(places[name]))
        book[title][cells.replace("$", "").split(":")[0]] = value
    book.save(out / "cnc.xlsx")
    assert build.main(["--ruleset", "cnc", "--out", str(out), "--force"]) == 0
    said = capsys.readouterr().out
    assert "CREATURE_NAME" in said and "CREATURE_AC" in said
    again = load_workbook(out / "cnc.xlsx")
    title, cells = next(iter(again.defined_names["CREATURE_AC"].destinations))
    assert again[title][cells.replace("$", "").split(":")[0]].value == 15


def test_an_example_creature_of_a_wrong_shape_stops_the_build_with_its_line(tmp_path: Path, capsys) -> None:
    tables = tmp_path / "tables"
    shutil.copytree(PROJECT_ROOT / "tables" / "spelljammer", tables / "spelljammer")
    ruleset = tables / "spelljammer" / "ruleset.yaml"
    text = ruleset.read_text().replace("      sc: 112\n", "      sc: [112]\n")
    ruleset.write_text(text)
    line = text.splitlines().index("      sc: [112]") + 1
    assert build.main(["--tables", str(tables), "--out", str(tmp_path / "out")]) == 1
    assert f"ruleset.yaml:{line}: creature 'Nutshell fighter' 'sc' must be a number or dice text" in (
        capsys.readouterr().err
    )


def test_an_example_creature_naming_no_roster_number_stops_the_build_with_its_line(
    tmp_path: Path, capsys
) -> None:
    tables = tmp_path / "tables"
    shutil.copytree(PROJECT_ROOT / "tables" / "spelljammer", tables / "spelljammer")
    ruleset = tables / "spelljammer" / "ruleset.yaml"
    text = ruleset.read_text().replace("      sc: 112\n", "      thac0: 12\n")
    ruleset.write_text(text)
    line = text.splitlines().index("    - name: Nutshell fighter") + 1
    assert build.main(["--tables", str(tables), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"ruleset.yaml:{line}: creature 'Nutshell fighter': 'thac0' is no roster number" in err
    assert "Traceback" not in err
