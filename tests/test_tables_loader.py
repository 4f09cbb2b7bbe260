"""Malformed YAML stops the build with file:line: what is wrong (the line of the offending value)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pycalc.tables import PROJECT_ROOT, TableError, load_folder, load_ruleset

SOURCE = PROJECT_ROOT / "tables" / "spelljammer"

# (file, text to find, replacement, text of the line that must be reported, message fragment)
CASES = [
    (
        "strike.yaml",
        "{from: 10, to: 16, grievous_max: 1",
        "{from: 11, to: 16, grievous_max: 1",
        "{from: 11, to: 16",
        "gap between 9 and 11",
    ),
    (
        "strike.yaml",
        "{from: 17, to: 23,",
        "{from: 16, to: 23,",
        "{from: 16, to: 23,",
        "overlaps the previous band",
    ),
    (
        "strike.yaml",
        "{from: 24, to: 28, grievous_max: 1, critical_max: 4}",
        "{from: 24, to: 28, grievous_max: 1, critical_max: four}",
        "critical_max: four",
        "must be int",
    ),
    (
        "strike.yaml",
        "{from: 29, to: 36, grievous_max: 2, critical_max: 5}",
        "{from: 29, to: 36, grievous_max: 2, critical_max: 5, crit: 3}",
        "crit: 3",
        "unknown key 'crit'",
    ),
    (
        "strike.yaml",
        "{from: 37, to: 43, grievous_max: 2, critical_max: 6}",
        "{from: 37, to: 43, grievous_max: 2, grievous_max: 2, critical_max: 6}",
        "grievous_max: 2, grievous_max",
        "duplicate key 'grievous_max'",
    ),
    (
        "strike.yaml",
        "{from: 44, to: 49, grievous_max: 2, critical_max: 7}",
        "{from: 44, to: 49, grievous_max: 2, critical_max: 7",
        "{from: 50, to: 56",
        "expected ','",
    ),
    (
        "strike.yaml",
        "{from: 50, to: 56, grievous_max: 3, critical_max: 8}",
        "{from: 50, to: 56, grievous_max: 3}",
        "{from: 50, to: 56, grievous_max: 3}",
        "missing column 'critical_max'",
    ),
    (
        "strike.yaml",
        "{from: 57, to: 63,",
        "{from: 57,",
        "{from: 57, grievous_max",
        "only the last band may leave out 'to'",
    ),
    (
        "strike.yaml",
        "at_least: critical, always_miss: false",
        "at_least: crit, always_miss: false",
        "at_least: crit,",
        "'crit' is not an entry of the 'outcomes' table",
    ),
    ("strike.yaml", "{from: 70, to: 76,", "{from: 76, to: 70,", "{from: 76, to: 70,", "runs backwards"),
    (
        "damage.yaml",
        "default: taken",
        "default: maybe",
        "default: maybe",
        "default 'maybe' is not one of its choices",
    ),
    (
        "damage.yaml",
        "{id: small, label: Small, con_bonus: 0}",
        "{id: tiny, label: Small, con_bonus: 0}",
        "{id: tiny, label: Small",
        "duplicate entry id 'tiny'",
    ),
    (
        "damage.yaml",
        "    kind: bands\n    source: {section: Taking Damage}",
        "    kind: band\n    source: {section: Taking Damage}",
        "kind: band",
        "kind 'band' must be one of bands, entries",
    ),
    (
        "modifiers.yaml",
        "      sc: {label: SC, type: int}\n    rows:\n      - {id: lit",
        "      sc: {label: SC, type: integer}\n    rows:\n      - {id: lit",
        "type: integer",
        "type 'integer' is not one of",
    ),
    ("modifiers.yaml", "  lighting:\n", "  Lighting Table:\n", "Lighting Table:", "must be lower_snake_case"),
    ("modifiers.yaml", "  cover:\n", "  stun_table:\n", "stun_table:", "duplicate table id 'stun_table'"),
    (
        "actions.yaml",
        "    source: {section: Casting Mage Spells}",
        "    source: {chapter: Casting Mage Spells}",
        "source: {chapter",
        "unknown key 'chapter'",
    ),
    (
        "damage.yaml",
        "      block: stun\n      order: 1",
        "      block: stunned\n      order: 1",
        "block: stunned",
        "cheatsheet block must be one of initiative, attack",
    ),
    (
        "damage.yaml",
        "        remaining attacks this round. CON above {human_max_con}",
        "        remaining attacks this round. CON above {human_max}",
        "rule: >-",  # the rule's key (its first rule in the file)
        "cheatsheet rule: {human_max} names no cell of this table",
    ),
    (
        "damage.yaml",
        "      block: stun\n      order: 2",
        "      block: stun\n      order: 2\n      columns: [bonus]",
        "columns: [bonus]",
        "cheatsheet columns: no column 'bonus'",
    ),
    (
        "strike.yaml",
        "    cheatsheet:\n      block: results\n      order: 2\n      columns: [effect]",
        "    cheatsheet: yes please",
        "cheatsheet: yes please",
        "cheatsheet must be false, one of initiative",
    ),
    (
        "ruleset.yaml",
        "  stun_loses_attacks: true",
        "  stun_loses_attacks: true\n  attacks_each_round: true",
        "attacks_each_round: true",
        "initiative.later_dice already give each combatant its attacks",
    ),
    (
        "ruleset.yaml",
        "  stun_loses_attacks: true",
        "  stun_loses_attacks: true\n  attacks_each_round: 2",
        "attacks_each_round: 2",
        "encounter.attacks_each_round must be true, false or a table.entry.column reference",
    ),
    (
        "ruleset.yaml",
        "  stun_loses_attacks: true",
        "  stun_loses_attacks: true\n  attacks_each_round: no_such_table.attack",
        "attacks_each_round: no_such",
        "no_such_table",
    ),
    (  # typed in the window, ' - ' becomes ' – ' and the dropdown refuses the label
        "modifiers.yaml",
        "label: No surprise,",
        "label: No surprise - none,",
        "label: No surprise - none,",
        "AutoCorrect turns into a dash",
    ),
]


def broken_copy(tmp_path: Path, file: str, find: str, replace: str) -> Path:
    folder = tmp_path / "spelljammer"
    shutil.copytree(SOURCE, folder)
    text = (folder / file).read_text()
    assert text.count(find) == 1, f"test case text not unique in {file}: {find}"
    (folder / file).write_text(text.replace(find, replace))
    return folder


@pytest.mark.parametrize("file, find, replace, line_text, message", CASES, ids=[c[4][:30] for c in CASES])
def test_problem_reported_at_file_and_line(tmp_path: Path, file, find, replace, line_text, message):
    folder = broken_copy(tmp_path, file, find, replace)
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    lines = (folder / file).read_text().splitlines()
    expected_line = next(i for i, line in enumerate(lines, start=1) if line_text in line)
    reported = [str(p) for p in caught.value.problems]
    assert any(
        p.endswith(f"{file}:{expected_line}: " + p.split(": ", 1)[1]) and message in p for p in reported
    ), reported


def test_shipped_tables_load_clean():
    rules = load_ruleset("spelljammer")
    assert len(rules.tables) >= 25 and len(rules.rulings) >= 4
    assert all(row.section for table in rules.tables.values() for row in table.rows)


def test_every_table_row_cites_a_section_that_is_in_the_seed():
    seed = PROJECT_ROOT.parent / "shared" / "seeds" / load_ruleset("spelljammer").seed
    if not seed.exists():
        pytest.skip("shared/seeds is not beside the project")
    text = seed.read_text()
    sections = {row.section for table in load_ruleset("spelljammer").tables.values() for row in table.rows}
    assert {s for s in sections if s not in text} == set()


def test_yaml_tags_that_build_objects_are_refused(tmp_path: Path):
    folder = broken_copy(
        tmp_path, "strike.yaml", "title: The strike die", "title: !!python/object/apply:os.system [echo]"
    )
    with pytest.raises(TableError, match=r"strike\.yaml:\d+: .*could not determine a constructor"):
        load_folder(folder)


def located(value):
    """A loaded YAML tree with the line numbers the loader recorded, for comparing two loaders."""
    if isinstance(value, dict):
        items = {key: located(item) for key, item in value.items()}
        return ("map", value.line, value.value_lines, value.key_lines, items)
    if isinstance(value, list):
        return ("list", value.line, value.item_lines, [located(item) for item in value])
    return (type(value).__name__, value)


def test_the_libyaml_loader_reads_every_shipped_file_as_the_python_loader_does():
    import yaml

    from pycalc.table_files import _FastLineLoader, _LineLoader

    files = sorted((PROJECT_ROOT / "tables").rglob("*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert located(yaml.load(text, Loader=_FastLineLoader)) == located(
            yaml.load(text, Loader=_LineLoader)
        )


def test_a_syntax_error_keeps_the_python_loaders_wording(tmp_path: Path):
    from pycalc.table_files import read_yaml

    path = tmp_path / "broken.yaml"
    path.write_text("a: 1\nb: [1, 2\nc: 3\n", encoding="utf-8")
    with pytest.raises(TableError) as caught:
        read_yaml(path)
    assert str(caught.value).endswith(":3: while parsing a flow sequence expected ',' or ']', but got ':'")
