"""House-rule overlays: change, add and remove rows, new tables, rulings; errors at the overlay's line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import openpyxl
import pytest

import build
from pycalc.house import apply_house_rules
from pycalc.rulesets import spelljammer as engine
from pycalc.tables import TableError, load_ruleset

HOUSE = """\
house_rules:
  ruleset: spelljammer
  name: Our table
  tables:
    cover:
      set: {hard: {sc: -30}}
      add:
        - {id: force_wall, label: Wall of force, sc: -40}
      remove: [soft]
    critical_grievous:
      set:
        29: {grievous_max: 1, critical_max: 4}
    house_fumbles:
      title: Our fumble table
      kind: entries
      source: {section: house rule}
      columns:
        effect: {label: Effect, type: text}
      rows:
        - {id: drop, label: Drop weapon, effect: "=SUM(A1) is text, not a formula"}
  rulings:
    stun_above_table: cap
"""


def write(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_overlay_changes_adds_removes_and_flips_rulings(tmp_path: Path):
    rules = apply_house_rules(load_ruleset("spelljammer"), [write(tmp_path, HOUSE)])
    cover = rules.table("cover")
    assert cover.entry("hard")["sc"] == -30
    assert [r.id for r in cover.rows] == ["none", "hard", "force_wall"]
    assert engine.critical_max(rules, 29) == 4 and engine.grievous_max(rules, 29) == 1
    assert rules.table("house_fumbles").rows[0]["effect"].startswith("=SUM")
    assert engine.stun_threshold(rules, 40) == 45  # capped by the flipped ruling
    assert (
        "Our table: “Ranged - cover”, Hard cover (walls, trunks, rocks, wagons): SC -20 -> -30"
        in rules.house_rules
    )
    assert "Our table: “Ranged - cover”: added Wall of force" in rules.house_rules
    assert load_ruleset("spelljammer").table("cover").entry("hard")["sc"] == -20  # shipped tables untouched


@pytest.mark.parametrize(
    "patch, line_text, message",
    [
        ("    cover:\n      set: {hard: {sc: lots}}\n", "set: {hard", "must be int"),
        ("    cover:\n      set: {granite: {sc: -5}}\n", "set: {granite", "no row 'granite'"),
        ("    cover:\n      remove: [moat]\n", "remove: [moat]", "no row 'moat' to remove"),
        (
            "    cover:\n      add:\n        - {id: hard, label: Harder, sc: -25}\n",
            "{id: hard",
            "exists already",
        ),
        ("    critical_grievous:\n      remove: [29]\n", "critical_grievous", "gap between 28 and 37"),
        ("    dragons:\n      set: {red: {sc: 1}}\n", "dragons:", "no table 'dragons'"),
        ("    cover:\n      rename: {hard: harder}\n", "rename:", "unknown key 'rename'"),
    ],
)
def test_overlay_problems_point_at_the_overlay_file_and_line(
    tmp_path: Path, patch: str, line_text: str, message: str
):
    path = tmp_path / "bad.yaml"
    path.write_text("house_rules:\n  ruleset: spelljammer\n  tables:\n" + patch)
    with pytest.raises(TableError) as caught:
        apply_house_rules(load_ruleset("spelljammer"), [path])
    lines = path.read_text().splitlines()
    problem = caught.value.problems[0]
    assert message in problem.message
    if "gap" not in message:
        assert problem.file.endswith("bad.yaml") and line_text.strip() in lines[problem.line - 1]


def test_unknown_ruling_choice_is_reported(tmp_path: Path):
    path = write(tmp_path, "house_rules:\n  ruleset: spelljammer\n  rulings:\n    late_spell: maybe\n")
    with pytest.raises(TableError, match=r"bad|house\.yaml:4: ruling 'late_spell' has no choice 'maybe'"):
        apply_house_rules(load_ruleset("spelljammer"), [path])


def test_build_with_house_rules_shows_them_and_uses_them(tmp_path: Path, calc):
    house = write(tmp_path, HOUSE)
    out = tmp_path / "out"
    assert build.main(["--ruleset", "spelljammer", "--house", str(house), "--out", str(out), "--quiet"]) == 0
    book = openpyxl.load_workbook(out / "spelljammer.xlsx")
    rulings = [c.value for row in book["Rulings"].iter_rows() for c in row if isinstance(c.value, str)]
    # in the GM's words: the table's title, the row's label, the ruling's choice; no file path
    assert "Our table: “Ranged - cover”, Hard cover (walls, trunks, rocks, wagons): SC -20 -> -30" in rulings
    assert any(
        "ruling “CON above the stun table (over 35)”: the table's last row (45) holds" in text
        for text in rulings
    )
    assert not any(str(tmp_path) in text or "tables sheet)" in text for text in rulings)
    got = calc.evaluate(
        out / "spelljammer.xlsx",
        [
            {
                "STRIKE_SC": 100,
                "STRIKE_DEF": 30,
                "PICK_ATTACK_KINDS": "Ranged",
                "PICK_COVER": "Wall of force",
                "STRIKE_ROLL": 29,
            }
        ],
        ["STRIKE_MODIFIED_SC", "STRIKE_CRITICAL_UP_TO", "STRIKE_OUTCOME"],
    )[0]
    assert got == {
        "STRIKE_MODIFIED_SC": 30.0,
        "STRIKE_CRITICAL_UP_TO": 4.0,
        "STRIKE_OUTCOME": "Hit",
    }  # 29-36 is 4 by the house rule


def test_udfs_follow_house_rules_named_in_pycalc_house(tmp_path: Path, monkeypatch):
    from pycalc import udfs

    monkeypatch.setenv("PYCALC_HOUSE", str(write(tmp_path, HOUSE)))
    load_ruleset.cache_clear()
    try:
        assert udfs.stun_threshold(40.0) == 45
        assert udfs.modifier("spelljammer", "cover", "hard") == -30
    finally:
        monkeypatch.delenv("PYCALC_HOUSE")
        load_ruleset.cache_clear()
    assert udfs.stun_threshold(40.0) == 55


def test_the_declared_situation_reads_the_tables_after_house_rules(tmp_path: Path):
    """C&C's ``situation:`` names tables and columns only: a house rule's cover value is what adds."""
    from pycalc.resolution_situation import picked_situation

    path = write(
        tmp_path, "house_rules:\n  ruleset: cnc\n  tables:\n    cover:\n      set: {half: {ac: 5}}\n"
    )
    picks = {"cover": "1/2 cover"}
    for rules, expected in ((load_ruleset("cnc"), 4), (apply_house_rules(load_ruleset("cnc"), [path]), 5)):
        assert picked_situation(rules, picks).ac == expected
