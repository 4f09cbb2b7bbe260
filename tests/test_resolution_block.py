"""A malformed resolution block stops the load with ruleset.yaml:LINE: what is wrong (the line of the
offending value), like every other table problem; the shipped blocks load clean."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pycalc.resolution_block import ByRuling, Ref, RollColumn, RollRange, value
from pycalc.tables import PROJECT_ROOT, TableError, load_folder, load_ruleset

FOLDERS = {
    "bx": Path(__file__).parent / "fixtures" / "tables" / "bx",
    "bfrpg": PROJECT_ROOT / "tables" / "bfrpg",
    "cnc": PROJECT_ROOT / "tables" / "cnc",
    "combat17": PROJECT_ROOT / "tables" / "combat17",
    "osr": PROJECT_ROOT / "tables" / "osr",
}

# (ruleset, text to find in ruleset.yaml, replacement, text of the line to report, message fragment)
CASES = [
    (
        "bx",
        "  die: attack_rules.attack_die",
        "  die: attack_rules.attack_dice",
        "die: attack_rules.attack_dice",
        "has no entry 'attack_dice'",
    ),
    (
        "bx",
        "  die: attack_rules.attack_die",
        "  die: rules.attack_die",
        "die: rules.attack_die",
        "'rules' is not an entries table",
    ),
    (
        "bx",
        "  target: armor_class",
        "  target: ac",
        "target: ac",
        "'ac' must be one of armor_class, number_needed",
    ),
    (
        "bx",
        "  target: armor_class",
        "  target: descending_ac\n  least_target: attack_rules.natural_miss",
        "least_target: attack_rules",
        "least_target is not read with target: descending_ac",
    ),
    (
        "bx",
        "  always_hit: {from: attack_rules.natural_hit}",
        "  always_hit: {from: situation.picked.hit}",
        "always_hit: {from: situation.picked.hit}",
        "situation.picked needs 'situation' as a choice picker in modifiers",
    ),
    (
        "bx",
        "  critical: none",
        "  critical: sometimes",
        "critical: sometimes",
        "'sometimes' must be one of none, automatic",
    ),
    ("bx", "  fumble: none", "  fumble: chart", "fumble: chart", "mode chart needs 'chart'"),
    (
        "bx",
        "  modifiers: [missile_range, cover, situation, magic]",
        "  modifiers: [missile_range, attack_rules, situation, magic]",
        "modifiers: [missile_range, attack_rules",
        "'attack_rules' is not a picker table",
    ),
    (
        "bx",
        "  always_hit: {from: attack_rules.natural_hit}",
        "  always_hit: {from: twenty}",
        "always_hit: {from: twenty}",
        "not a table reference",
    ),
    (
        "bx",
        "  always_hit: {from: attack_rules.natural_hit}",
        "  always_hit: {form: attack_rules.natural_hit}",
        "always_hit: {form:",
        "unknown key 'form'",
    ),
    ("bx", "    least: attack_rules.least_damage", "    least: 1.5", "least: 1.5", "must be a whole number"),
    (
        "bx",
        "  needs_magic: cannot_hit",
        "  needs_magik: cannot_hit",
        "needs_magik:",
        "unknown key 'needs_magik' in resolution",
    ),
    (
        "bx",
        "  always_miss: {to: attack_rules.natural_miss}",
        "  always_miss: {to: situation.from_behind.needs_magic}",
        "always_miss: {to: situation",
        "is bool, not int",
    ),
    (
        "bx",
        "  always_miss: {to: attack_rules.natural_miss}",
        "  always_miss: {to: attack_rules.natural_miss, when: attack_rules.natural_miss}",
        "when: attack_rules.natural_miss}",
        "is int, not bool",
    ),
    (
        "bx",
        "  needs_magic: cannot_hit",
        "  needs_magic: {ruling: magic_rule, choices: {a: cannot_hit}}",
        "needs_magic: {ruling: magic_rule",
        "no ruling 'magic_rule'",
    ),
    (
        "bx",
        "\nresolution:\n",
        "\nresolution: yes\nold_resolution:\n",
        "resolution: yes",
        "resolution must be a mapping",
    ),
    ("bx", "  damage:\n", "  damage:\n    multipliers: double\n", "multipliers: double", "must be a list"),
    (
        "bfrpg",
        "      choices: {fails: true, total_only: false}",
        "      choices: {fails: true}",
        "choices: {fails: true}",
        "choice(s) total_only not given",
    ),
    (
        "bfrpg",
        "      choices: {fails: true, total_only: false}",
        "      choices: {fails: true, total_only: false, maybe: true}",
        "maybe: true}",
        "maybe not a choice of ruling 'confirmation_natural_1'",
    ),
    (
        "bfrpg",
        "        rounding:\n          ruling: subdual_half_rounding",
        "        scope: dice\n        rounding:\n          ruling: subdual_half_rounding",
        "scope: dice",
        "only the first multiplier may have a scope other than whole",
    ),
    (
        "bfrpg",
        "        max_die_plus_roll: {dice_rolled: 1,",
        "        max_die_plus_roll: {dice_roled: 1,",
        "max_die_plus_roll: {dice_roled",
        "unknown key 'dice_roled'",
    ),
    (
        "combat17",
        "    hit: regular_damage",
        "    hit: normal_damage",
        "hit: normal_damage",
        "'normal_damage' is not a row of the damage.formulas",
    ),
    (
        "combat17",
        "    chart: critical_misses",
        "    chart: outcomes",
        "chart: outcomes",
        "'outcomes' is not a bands table",
    ),
    (
        "combat17",
        "    formula: damage",
        "    formula: damages",
        "chart: critical_hits",
        "has no column 'damages'",
    ),
    (
        "combat17",
        "    text: effect\n    then:",
        "    text: effects\n    then:",
        "chart: critical_hits",
        "has no column 'effects'",
    ),
    (
        "combat17",
        "    text: effect\n    then:",
        "    text: special\n    then:",
        "chart: critical_hits",
        "critical_hits.special is bool, not text",
    ),
    (
        "combat17",
        "when: condition_roll, text: [condition, effect]}",
        "when: percent, text: [condition, effect]}",
        "chart: critical_hits",
        "critical_hits.percent is int, not bool",
    ),
    (
        "combat17",
        "when: condition_roll, text: [condition, effect]}",
        "when: condition_roll, text: [condition, effects]}",
        "chart: critical_conditions",
        "has no column 'effects'",
    ),
    (
        "combat17",
        "when: condition_roll, text: [condition, effect]}",
        "when: condition_roll}",
        "then: {chart: critical_conditions",
        "critical.then is missing 'text'",
    ),
    (
        "combat17",
        "    text: effect\n    special: special",
        "    text: effect\n    then: {chart: critical_conditions, when: x, text: condition}\n    special: special",
        "chart: critical_misses",
        "table 'critical_misses' has no column 'x'",  # the fumble chart's row leads to it: its column
    ),
    (
        "combat17",
        "  always_miss: {table: natural_rolls, column: auto_miss}",
        "  always_miss: {table: natural_rolls, column: follow_up}",
        "always_miss: {table: natural_rolls",
        "column natural_rolls.follow_up is text, not bool",
    ),
    (
        "combat17",
        "choices: {worse_only: [cover, concealment]",
        "choices: {worse_only: [cover, concelment]",
        "worse_only: [cover, concelment]",
        "'concelment' is not a picker table",
    ),
    (
        "combat17",
        "choices: {worse_only: [cover, concealment]",
        "choices: {worse_only: [cover, missile_range]",
        "worse_only: [cover, missile_range]",
        "'missile_range' must be a choice picker that counts for every attack",
    ),
    (
        "combat17",
        "choices: {add: also_under_add,",
        "choices: {add: also_under,",
        "add: also_under,",
        "no table of the situation has a column 'also_under'",
    ),
    (
        "cnc",
        "        when: loses_dex\n",
        "        when: loses_the_dex\n",
        "when: loses_the_dex",
        "no table of resolution.modifiers has a true/false column 'loses_the_dex'",
    ),
    (
        "cnc",
        "    gate: attack\n",
        "    gate: attacks\n",
        "gate: attacks",
        "situation.gate: no table of the situation has a column 'attacks'",
    ),
    (
        "cnc",
        "    gate: attack\n",
        "    gate: attack\n    only: {cover: thrown}\n",
        "only: {cover: thrown}",
        "situation.only.cover: 'thrown' must be one of melee, ranged, any",
    ),
    (
        "cnc",
        "    gate: attack\n",
        "    gate: attack\n    ruled: {cover: cover_rule}\n",
        "ruled: {cover: cover_rule}",
        "no ruling 'cover_rule' in this ruleset",
    ),
    (
        "cnc",
        "    gate: attack\n",
        "    gate: attack\n    adds: {}\n",
        "adds: {}",
        "unknown key 'adds' in resolution.situation",
    ),
    (
        "combat17",
        "    gate: applies_to\n",
        "    gate: applies_to\n    sums: {hit: [cover]}\n",
        "    sums:",
        "unknown key 'sums' in resolution.situation",
    ),
    (
        "combat17",
        "  modifiers: [attack_kind, missile_range, concealment, cover, two_weapon, attack_situation, attacker_conditions,\n"
        "    target_conditions, attack_barred]\n",
        "  modifiers: own\n",
        "    kind_table: attack_kind",
        "resolution.situation is read only beside a list of modifiers tables",
    ),
    (
        "cnc",
        "    kind_table: attack_types\n",
        "    kind_table: charge\n",
        "    kind_table: charge",
        "resolution.situation.kind_table: 'charge' must be a choice picker",
    ),
]


def broken_copy(tmp_path: Path, ruleset: str, find: str, replace: str) -> Path:
    folder = tmp_path / ruleset
    shutil.copytree(FOLDERS[ruleset], folder)
    header = folder / "ruleset.yaml"
    text = header.read_text()
    assert text.count(find) == 1, f"test case text not unique in {ruleset}/ruleset.yaml: {find}"
    header.write_text(text.replace(find, replace))
    return folder


ROLLED_FUMBLE = "  fumble:\n    mode: always\n    chart: critical_misses\n"
CASES += [
    (
        "combat17",
        "  fumble:\n    mode: chart\n    chart: critical_misses\n    text: effect\n",
        ROLLED_FUMBLE,
        "chart: critical_misses",
        "fumble.chart without mode chart is read by a roll of its own: it needs 'text'",
    ),
    (
        "combat17",
        "  fumble:\n    mode: chart\n    chart: critical_misses\n",
        ROLLED_FUMBLE,
        "special: special",
        "fumble.special needs mode chart",
    ),
    (
        "combat17",
        "  critical:\n    mode: chart\n",
        "  critical:\n    mode: automatic\n",
        "then: {chart: critical_conditions",
        "critical.then needs mode chart",
    ),
    (
        "combat17",
        "  fumble:\n    mode: chart\n    chart: critical_misses\n",
        ROLLED_FUMBLE,
        "ruling: natural_roll_outcome",
        "fumble.plain_unless_special needs mode chart",
    ),
]


OSR_DIE = "    chart_die: to_hit_roll.to_hit_die_sides\n"
OSR_ROWS = "    chart_from: d20_from\n    chart_to: d20_to\n"
CASES += [
    ("osr", OSR_DIE, "", "chart_from: d20_from", "fumble: chart_from, chart_to, chart_die go together"),
    (
        "osr",
        OSR_ROWS + OSR_DIE,
        "",
        "chart: fumble_table",
        "fumble.chart: 'fumble_table' is not a bands table of this ruleset",
    ),
    (
        "combat17",
        "  fumble:\n    mode: chart\n    chart: critical_misses\n",
        "  fumble:\n    mode: chart\n    chart: critical_misses\n    chart_from: x\n    chart_to: y\n    chart_die: 6\n",
        "chart_from: x",
        "fumble.chart_from needs a chart read by a roll of its own (no mode chart)",
    ),
]

# The check a fumble chart row calls for (fumble.check): its columns are the chart's, of their types
CHECK = "check: {dc: dex_check_dc, label: DEX check, passed: check_passed, failed: check_failed}"
CASES += [
    (
        "combat17",
        CHECK,
        CHECK.replace("dc: dex_check_dc", "dc: dex_dc"),
        "chart: critical_misses",
        "has no column 'dex_dc'",
    ),
    (
        "combat17",
        CHECK,
        CHECK.replace("dc: dex_check_dc", "dc: effect"),
        "chart: critical_misses",
        "critical_misses.effect is text, not int",
    ),
    (
        "combat17",
        CHECK,
        CHECK.replace("failed: check_failed", "failed: [check_failed, weapon_breaks]"),
        "chart: critical_misses",
        "critical_misses.weapon_breaks is bool, not text",
    ),
    (
        "combat17",
        CHECK,
        CHECK.replace("label: DEX check, ", ""),
        "check: {dc:",
        "fumble.check is missing 'label'",
    ),
    (
        "combat17",
        CHECK,
        CHECK.replace("label: DEX check", "label: [DEX]"),
        "check: {dc:",
        "fumble.check.label must be text",
    ),
    (
        "combat17",
        CHECK,
        CHECK.replace("dc:", "dcc:"),
        "check: {dcc:",
        "unknown key 'dcc' in resolution.fumble.check",
    ),
    (
        "combat17",
        "  fumble:\n    mode: chart\n",
        "  fumble:\n    mode: always\n",
        "check: {dc:",
        "fumble.check needs mode chart",
    ),
]


def test_a_chart_s_check_is_parsed_with_its_columns():
    chart = load_ruleset("combat17").resolution_block.fumble.chart
    assert chart is not None and chart.check is not None
    assert (chart.check.dc, chart.check.label) == ("dex_check_dc", "DEX check")
    assert (chart.check.passed, chart.check.failed) == (("check_passed",), ("check_failed",))
    assert load_ruleset("combat17").resolution_block.critical.chart.check is None


def test_a_chart_rolled_on_by_its_own_roll_is_closed_at_both_ends(tmp_path: Path):
    folder = tmp_path / "bx"
    shutil.copytree(FOLDERS["bx"], folder)
    header = folder / "ruleset.yaml"
    rolled = "  fumble:\n    mode: always\n    chart: mishaps\n    text: effect\n"
    header.write_text(header.read_text().replace("  fumble: none\n", rolled))
    tables = folder / "attack.yaml"
    tables.write_text(
        tables.read_text()
        + """
  mishaps:
    title: Mishaps
    kind: bands
    source: {section: Fumbles}
    key: {id: mishap_roll, label: d6}
    columns:
      effect: {label: Effect, type: text}
    rows:
      - {to: 3, effect: Weapon dropped}
      - {from: 4, to: 6, effect: Off balance}
"""
    )
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    line = next(i for i, text in enumerate(header.read_text().splitlines(), 1) if "chart: mishaps" in text)
    assert [str(p) for p in caught.value.problems] == [
        f"{header}:{line}: resolution.fumble.chart: 'mishaps' is rolled on: its first row needs 'from' and its last row 'to'"
    ]


@pytest.mark.parametrize("ruleset, find, replace, line_text, message", CASES, ids=[c[4][:40] for c in CASES])
def test_problem_reported_at_file_and_line(tmp_path: Path, ruleset, find, replace, line_text, message):
    assert_reported_at(broken_copy(tmp_path, ruleset, find, replace), line_text, message)


def assert_reported_at(folder: Path, line_text: str, message: str) -> None:
    """Loading ``folder`` stops with ``message`` at the first line of its ruleset.yaml holding ``line_text``."""
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    lines = (folder / "ruleset.yaml").read_text().splitlines()
    expected_line = next(i for i, line in enumerate(lines, start=1) if line_text in line)
    reported = [str(p) for p in caught.value.problems]
    assert any(f"ruleset.yaml:{expected_line}: " in p and message in p for p in reported), reported


@pytest.mark.parametrize("ruleset_id", ["cnc", "osr", "combat17", "bfrpg"])
def test_the_four_d20_blocks_load_clean_and_name_only_what_exists(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    block = rules.resolution_block
    assert block is not None and block.file.endswith(f"tables/{ruleset_id}/ruleset.yaml")
    assert int(value(rules, block.die)) == 20
    assert block.modifiers is not None  # each lists its pickers: the generic situation adds them up
    for rolls in (block.always_miss, block.always_hit):
        for part in rolls:
            assert isinstance(part, (RollRange, RollColumn))


def test_spelljammer_has_no_block_and_references_resolve_through_house_rules():
    assert load_ruleset("spelljammer").resolution_block is None
    bfrpg = load_ruleset("bfrpg")
    ref = Ref("attack_roll", "natural_always_hits", "value", 1)
    assert value(bfrpg, ref) == 20
    flip = ByRuling("confirmation_natural_1", {"fails": True, "total_only": False}, 1)
    assert value(bfrpg, flip) is True
    import dataclasses

    assert value(dataclasses.replace(bfrpg, chosen={"confirmation_natural_1": "total_only"}), flip) is False


def test_tables_readme_documents_every_key_and_word_of_the_block():
    from pycalc import resolution_block as rb

    text = (PROJECT_ROOT / "tables" / "README.md").read_text()
    section = text[text.index("## The resolution block") : text.index("## Errors")]
    keys = set(rb.TOP_KEYS) | {f"damage.{k}" for k in rb.DAMAGE_KEYS} | set(rb.FORMULA_KEYS)
    keys |= {f"fumble.{k}" for k in rb.FUMBLE_KEYS - {"special", "plain_unless_special"}}
    keys |= {f"critical.{k}" for k in rb.CRITICAL_KEYS} | {f"effect.{k}" for k in rb.EFFECT_KEYS}
    keys |= {f"situation.{k}" for k in rb.SITUATION_KEYS} | set(rb.NUMBER_KEYS) | set(rb.NUMBER_PARTS)
    keys |= set(rb.NEED_RANGE_KEYS) | {
        "highest_of",
        "lowest_of",
        "both",
        "from",
        "to",
        "when",
        "table",
        "column",
    }
    words = set(rb.TARGETS + rb.NEED_BASES + rb.NEEDS_MAGIC + rb.ROLL_MODES + rb.FUMBLE_MODES)
    words |= set(rb.CRITICAL_MODES + rb.SCOPES + rb.ROUNDINGS + rb.PENALTY_FROM) | {"own", "none"}
    missing = sorted(k for k in keys | words if f"`{k}`" not in section and f"`{k}:" not in section)
    assert not missing, missing


def test_a_row_naming_a_missing_row_in_a_row_rule_column_is_reported(tmp_path: Path):
    folder = tmp_path / "combat17"
    shutil.copytree(FOLDERS["combat17"], folder)
    missiles = folder / "range_missiles.yaml"
    missiles.write_text(
        missiles.read_text().replace("also_under_add: within_5ft\n", "also_under_add: within_5_ft\n")
    )
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    assert any(
        "missile_range row 'within_5ft_unaware'" in str(p) and "names no row 'within_5_ft'" in str(p)
        for p in caught.value.problems
    ), [str(p) for p in caught.value.problems]


def test_a_not_with_row_of_another_table_must_be_one_row_of_the_situation(tmp_path: Path):
    """cnc's prone rows name the ranged attack's row of situational_modifiers by its id: an id of no
    table of the situation, or of two, stops the build at the block's line."""
    for named, said in (("ranged_vs_prone", "names no row"), ("none", None)):
        folder = tmp_path / named / "cnc"
        shutil.copytree(FOLDERS["cnc"], folder)
        modifiers = folder / "modifiers.yaml"
        text = modifiers.read_text()
        modifiers.write_text(text.replace("not_with: ranged_vs_prone_or_in_melee}", f"not_with: {named}}}"))
        if said is None:  # 'none' is a row of its own table (Neither): it is read there
            assert load_folder(folder).table("defender_prone").entry("prone_or_blind")["not_with"] == "none"
            continue
        with pytest.raises(TableError) as caught:
            load_folder(folder)
        assert any(said in str(p) and "ruleset.yaml" in str(p) for p in caught.value.problems), [
            str(p) for p in caught.value.problems
        ]
    folder = tmp_path / "twice" / "cnc"
    shutil.copytree(FOLDERS["cnc"], folder)
    modifiers = folder / "modifiers.yaml"
    modifiers.write_text(
        modifiers.read_text().replace("not_with: ranged_vs_prone_or_in_melee}", "not_with: quarter}")
    )
    with pytest.raises(TableError) as caught:  # concealment and cover both have a row quarter
        load_folder(folder)
    assert any("names a row of several tables" in str(p) for p in caught.value.problems), [
        str(p) for p in caught.value.problems
    ]
