"""The attack log's Picks cell (pycalc.log_picks): every pick the calculator offers is reachable from a
log row, by name; the names are unique; the issue's cases (charge, subduing) give the calculator's
numbers on the row, in the model and in LibreOffice."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pycalc.encounter import Attack, Combatant, Fight
from pycalc.encounter_block import encounter
from pycalc.encounter_rows import resolve_log
from pycalc.log_picks import UNKNOWN, named_picks, normalized, row_picks
from pycalc.sheets.workbook import build_workbook
from pycalc.tables import RULESET_IDS, load_folder, load_ruleset, tables_dir
from tests.parity import same
from tests.test_encounter_parity import sheet_inputs


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_name_picks_one_row(ruleset_id: str):
    picks = named_picks(load_ruleset(ruleset_id))
    names = [normalized(p.name) for p in picks]
    assert picks and all(names) and len(set(names)) == len(names)
    assert all("," not in p.name for p in picks)


def test_a_cell_is_read_as_the_gm_types_it():
    rules = load_ruleset("combat17")
    read = row_picks(rules, " Charge,TARGET_prone ,, from-behind,")
    assert read.unknown == ()
    assert read.toggles == {
        ("attack_situation", "charge"),
        ("target_conditions", "prone"),
        ("attack_situation", "from_behind"),
    }
    assert row_picks(rules, "").toggles == frozenset()
    assert row_picks(rules, "charge, dragon").unknown == ("dragon",)
    assert row_picks(rules, "charge, charge").unknown == ("charge",)
    label = str(next(r.label for r in rules.table("missile_range").rows if r.id == "short_range"))
    assert row_picks(rules, "short range").choices == {"missile_range": label}
    assert row_picks(rules, "short range, long range").unknown  # two rows of one choice table


def test_the_build_refuses_a_pick_no_log_row_reaches(tmp_path: Path):
    folder = tmp_path / "combat17"
    shutil.copytree(tables_dir() / "combat17", folder)
    ruleset = folder / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("[attack_situation, ", "["))
    rules = load_folder(folder)
    assert "attack_situation" not in encounter(rules).log_picks_by_name
    with pytest.raises(ValueError, match="'attack_situation' is not reachable from a log row"):
        build_workbook(rules)


def one_row(ruleset_id: str, stats: dict[str, object], named: str, roll: int, damage: int) -> Fight:
    rules = load_ruleset(ruleset_id)
    lines = encounter(rules).initiative.later_dice
    roster = [
        Combatant(name=n, side=s, max_hp=20, stats=stats, init_rolls=(None,) * (1 + len(lines)))
        for n, s in (("Lem", "PCs"), ("Kara", "Foes"))
    ]
    row = Attack("Lem", "Kara", round=1, roll=roll, damage_roll=damage, named_picks=named)
    return Fight(roster, [row], [], round=1)


# the rows: combat17 row 86 (a charge doubles damage), bfrpg row 93 (subduing halves, rounded up)
CASES = [
    ("combat17", {"attack_bonus": 3, "ac": 12, "dice": "1d6", "level": 1}, 15, 3, "charge", 6),
    ("combat17", {"attack_bonus": 3, "ac": 12, "dice": "1d6", "level": 1}, 15, 3, "", 3),
    ("bfrpg", {"attack_bonus": 3, "ac": 12, "dice": "1d8", "level": 1, "str": 0}, 19, 8, "flat of blade", 4),
    ("bfrpg", {"attack_bonus": 3, "ac": 12, "dice": "1d8", "level": 1, "str": 0}, 19, 7, "flat of blade", 4),
    ("bfrpg", {"attack_bonus": 3, "ac": 12, "dice": "1d8", "level": 1, "str": 0}, 19, 8, "", 8),
    ("bfrpg", {"attack_bonus": 3, "ac": 12, "dice": "1d8", "level": 1, "str": 0}, 19, 8, "flat of bla", None),
]


@pytest.mark.parametrize(("ruleset_id", "stats", "roll", "damage", "named", "lost"), CASES)
def test_the_model_takes_the_picks_by_name(ruleset_id, stats, roll, damage, named, lost):
    found = resolve_log(load_ruleset(ruleset_id), one_row(ruleset_id, stats, named, roll, damage))[0]
    if lost is None:
        assert (found.result, found.hp_lost) == (UNKNOWN, 0)
    else:
        assert found.hp_lost == lost, found


@pytest.mark.timeout(300)
def test_the_log_takes_the_picks_by_name_in_libreoffice(
    calc, build_ruleset: Callable[[str], Path], tmp_path: Path
):
    """Typed cell by cell, as a GM types (one-row fights under Recalculate Hard:
    ``test_encounter_hard_recalc``)."""
    for ruleset_id in ("combat17", "bfrpg"):
        rules = load_ruleset(ruleset_id)
        xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
        cases = [c for c in CASES if c[0] == ruleset_id]
        fights = [one_row(ruleset_id, stats, named, roll, dmg) for _, stats, roll, dmg, named, _ in cases]
        _, readings = calc.hard_recalculations(
            xlsx,
            [sheet_inputs(rules, f) for f in fights],
            ["LOG_RESULT", "LOG_HP_LOST"],
            tmp_path / "typed.xlsx",
            typed=True,
        )
        got = [as_entered for as_entered, _, _ in readings]
        for fight, case, have in zip(fights, cases, got, strict=True):
            want = resolve_log(rules, fight)[0]
            assert same(want.result, have["LOG_RESULT"][0]), (case, have)
            assert same(want.hp_lost, have["LOG_HP_LOST"][0]), (case, have)
