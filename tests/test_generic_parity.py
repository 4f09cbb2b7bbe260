"""A ruleset written in YAML alone builds into full workbooks whose native formulas equal the generic
engine: the B/X-like fixture (tests/fixtures/tables/bx) built with ``build.py --tables``, recalculated
in real LibreOffice over seeded random input sets (every picker, rolls on and off the die, dice forms
good and bad), and its resolution block edited into confirmed criticals and level-checked fumbles
(still no Python) checked the same way."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

import build
from pycalc import dice as dice_module
from pycalc import resolution as engine
from pycalc import resolution_damage
from pycalc.damage_kinds import labels
from pycalc.encounter import Fight
from pycalc.encounter_block import SUBDUAL
from pycalc.grid_limits import BEYOND_GRID
from pycalc.resolution_block import checked_charts, own_roll_charts, typed_cells
from pycalc.resolution_calculator import (
    CalculatorInputs,
    adds_dice,
    attack_and_damage,
    attack_outputs,
    chart_roll_bounds,
    rolls_further,
    uses_follow,
)
from pycalc.sheets import d20_check, d20_range, target_state
from pycalc.sheets.calculator import ATTACK_SHEET
from pycalc.sheets.common import ruling_name
from pycalc.sheets.d20_cells import number_name
from pycalc.sheets.d20_layout import NOTE_COLUMN, OUT_LABEL
from pycalc.sheets.situation_cells import pick_name
from pycalc.sheets.target_state import has_subdual
from pycalc.tables import RuleSet, load_folder, load_ruleset
from pycalc.udfs import shared
from tests.parity import same
from tests.test_d20_heat import heat_mismatches, ruling_draws
from tests.test_encounter_parity import expected_outputs, random_fight, sheet_inputs
from tests.test_encounter_parity import mismatches as encounter_mismatches
from tests.test_log_says_what_the_calculator_says import log_and_calculator_lines

D6 = dice_module.Dice(1, 6, 0)
FIXTURE = Path(__file__).parent / "fixtures" / "tables" / "bx"
DICE_FORMS = [
    "1d8",
    "d6",
    "2d4+2",
    "1d6-1",
    "1D10 + 3",
    "1d4-3",
    "3d6",
    "8d12+1",
    "9d6",
    "3",
    "",
    "abc",
    "2x6",
]
CRITICAL_BLOCK = """
  critical:
    mode: confirm
    confirm_natural_miss_fails: true
  fumble: level_check
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: 2, modifier: 1}
"""
SITUATION_BLOCK = """
  advantage: {highest_of: 2, lowest_of: 3, both: normal}
  damage:
    least: attack_rules.least_damage
    multipliers: [{name: situation, scope: dice, rounding: up}]
  modifiers: [missile_range, cover, situation, tactics, grip, magic]
"""
SITUATION_TABLES = """
  tactics:
    title: Tactics
    kind: entries
    picker: toggle
    source: {section: Attacking}
    columns:
      advantage: {label: Advantage, type: bool}
      disadvantage: {label: Disadvantage, type: bool}
      damage_multiplier: {label: Damage multiplier, type: number}
      cannot_hit: {label: Cannot be hit, type: bool}
    rows:
      - {id: flanking, label: Flanking, advantage: true, disadvantage: false, damage_multiplier: 1, cannot_hit: false}
      - {id: blinded, label: Blinded, advantage: false, disadvantage: true, damage_multiplier: 1, cannot_hit: false}
      - {id: charging, label: Charging, advantage: false, disadvantage: false, damage_multiplier: 2, cannot_hit: false}
      - {id: out_of_reach, label: Target out of reach, advantage: false, disadvantage: false, damage_multiplier: 1, cannot_hit: true}

  grip:
    title: Grip
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      damage_multiplier: {label: Damage multiplier, type: number}
    rows:
      - {id: one_hand, label: One hand, damage_multiplier: 1}
      - {id: two_hands, label: Two hands, damage_multiplier: 1.5}
      - {id: pulled, label: Pulled blow, damage_multiplier: 0.5}
"""
STAGES_BLOCK = """  fumble: none
  critical: automatic
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: 1, die_max: 1, modifier: 1}
    auto_hit: {dice_max: 2, modifier: 2}
    auto_hit_multiplied:
      ruling: helpless_multiplied
      choices: {all: true, none: false}
    multipliers:
      - name: double
        scope:
          ruling: double_scope
          choices: {double_total: whole, double_roll_only: not_max_die}
      - name: mode
        rounding:
          ruling: half_rounding
          choices: {down: down, up: up}
      - name: water
        rounding: picked
        factor: stage_factors.crushing  # while a picked row ticks `crushing`
        when: crushing
  modifiers: [missile_range, cover, situation, charge, blow, water, plight]
"""
NOTE_LETTER = get_column_letter(NOTE_COLUMN)
PLIGHTS = ("Helpless", "Heavy armor")  # the plight toggles of STAGES_TABLES, by label
STAGES_TABLES = """
  charge:
    title: Charge
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      damage_multiplier: {label: Damage multiplier, type: int}
    rows:
      - {id: none, label: No charge, hit: 0, damage_multiplier: 1}
      - {id: charge, label: Charge, hit: 2, damage_multiplier: 2}
      - {id: set, label: Set against a charge, hit: 0, damage_multiplier: 2}

  blow:
    title: Blow
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      damage_multiplier_mode: {label: Damage multiplier after the charge, type: number}
    rows:
      - {id: killing, label: Killing blow, damage_multiplier_mode: 1}
      - {id: flat, label: Flat of the blade, damage_multiplier_mode: 0.5}

  water:
    title: Underwater
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      damage_multiplier_water: {label: Damage multiplier underwater, type: number}
      round_up_water: {label: Rounded up, type: bool}
    rows:
      - {id: dry, label: Not underwater, damage_multiplier_water: 1, round_up_water: false}
      - {id: swung, label: Swung weapon, damage_multiplier_water: 0.5, round_up_water: true}
      - {id: thrown, label: Thrown weapon, damage_multiplier_water: 0.5, round_up_water: false}

  plight:
    title: The defender's plight
    kind: entries
    picker: toggle
    source: {section: Attacking}
    columns:
      auto_hit: {label: Hit automatically, type: bool}
      damage_multiplier_mode: {label: Damage multiplier after the charge, type: number}
      round_up_water: {label: Underwater halving rounded up, type: bool}
      crushing: {label: A crushing blow, type: bool}
    rows:
      - {id: helpless, label: Helpless, auto_hit: true, damage_multiplier_mode: 1, round_up_water: false,
         crushing: true}
      - {id: armored, label: Heavy armor, auto_hit: false, damage_multiplier_mode: 0.5, round_up_water: true,
         crushing: false}

  stage_factors:
    title: Stage factors
    kind: entries
    source: {section: Attacking}
    columns:
      value: {label: Value, type: int}
    rows:
      - {id: crushing, label: A crushing blow multiplies the damage by, value: 3}

rulings:
  double_scope:
    label: What a charge doubles
    default: double_total
    choices:
      double_total: everything
      double_roll_only: everything but a critical's maximum die
    source: {section: Attacking}
    why: a test ruling
  half_rounding:
    label: Rounding of a halved blow
    default: up
    choices:
      up: round up
      down: round down
    source: {section: Attacking}
    why: a test ruling
  helpless_multiplied:
    label: Multipliers on a helpless defender's damage
    default: all
    choices:
      all: multiplied
      none: not multiplied
    source: {section: Attacking}
    why: a test ruling
"""
CHART_BLOCK = """
  fumble:
    mode: chart
    chart: fumble_chart
    special: special
    plain_unless_special: true
    text: effect
  critical:
    mode: chart
    chart: critical_chart
    formula: damage
    special: special
    follow_adds_mods: true
    text: effect
  damage:
    least: attack_rules.least_damage
    formulas: {table: damage_formulas, dice_rolled: rolled, dice_max: maximum, modifier: modifier}
    hit: regular
"""
CHART_TABLES = """
  damage_formulas:
    title: Damage formulas
    kind: entries
    source: {section: Critical hits}
    columns:
      rolled: {label: Dice as rolled, type: int}
      maximum: {label: Maximum of the dice, type: int}
      modifier: {label: Modifier counted, type: int}
    rows:
      - {id: regular, label: Regular damage, rolled: 1, maximum: 0, modifier: 1}
      - {id: maximum, label: Maximum damage, rolled: 0, maximum: 1, modifier: 1}
      - {id: brutal, label: Roll plus maximum, rolled: 1, maximum: 1, modifier: 2}

  critical_chart:
    title: Critical chart (follow-up d20 + modifiers)
    kind: bands
    source: {section: Critical hits}
    key: {id: follow_up_d20, label: Follow-up d20}
    columns:
      damage: {label: Damage formula, type: text}
      special: {label: A special, type: bool}
      effect: {label: Effect, type: text}
    rows:
      - {to: 9, damage: regular, special: false, effect: A solid blow}
      - {from: 10, to: 17, damage: maximum, special: true, effect: Maximum damage}
      - {from: 18, damage: brutal, special: true, effect: "Brutal blow, the foe staggers"}

  fumble_chart:
    title: Fumble chart (follow-up d20)
    kind: bands
    source: {section: Fumbles}
    key: {id: follow_up_d20, label: Follow-up d20}
    columns:
      special: {label: A special, type: bool}
      effect: {label: Effect, type: text}
    rows:
      - {to: 5, special: true, effect: Weapon dropped}
      - {from: 6, to: 12, special: true, effect: "Stumble, lose the next attack"}
      - {from: 13, special: false, effect: Just a miss}
"""

ROLLED_CHART_BLOCK = """
  critical:
    mode: automatic
    chart: wound_chart
    text: wound
  fumble:
    mode: level_check
    chart: fumble_table
    text: effect
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: 2, modifier: 1}
"""
ROLLED_CHART_TABLES = """
  wound_chart:
    title: Wound chart (2d6)
    kind: bands
    source: {section: Critical hits}
    key: {id: wound_roll, label: 2d6}
    columns:
      wound: {label: Wound, type: text}
    rows:
      - {from: 2, to: 6, wound: A deep cut}
      - {from: 7, to: 11, wound: "Knocked down, loses the next attack"}
      - {from: 12, to: 12, wound: A limb broken}

  fumble_table:
    title: Fumble table (d6)
    kind: bands
    source: {section: Fumbles}
    key: {id: fumble_roll, label: d6}
    columns:
      effect: {label: Effect, type: text}
    rows:
      - {from: 1, to: 2, effect: Weapon dropped}
      - {from: 3, to: 6, effect: Off balance until the next round}
"""


def rebuilt(folder: Path, out: Path) -> Path:
    assert (
        build.main(["--tables", str(folder.parent), "--ruleset", folder.name, "--out", str(out), "--quiet"])
        == 0
    )
    return out / f"{folder.name}.xlsx"


@pytest.fixture(scope="module")
def bx_xlsx(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset(FIXTURE.name) / f"{FIXTURE.name}.xlsx"  # the run's one build of the fixture


BASE_RULES = "  fumble: none\n  critical: none\n  damage:\n    least: attack_rules.least_damage\n"


MAGIC = "situation, magic]"
FIXTURE_LOG_PICKS = (
    "log_picks: [missile_range, cover]"  # the fixture's picker of dice on the roll (Bless 1d4, Bane -1d4)
)


def edited_bx(
    tmp_path_factory: pytest.TempPathFactory,
    block: str,
    name: str,
    old: str = BASE_RULES,
    tables: str = "",
    log_picks: str = "",
) -> tuple[RuleSet, Path]:
    """The fixture with ``old`` in its resolution block replaced by ``block``, ``tables`` added and
    ``log_picks`` the encounter's (its own by default); without its dice on the roll unless ``block``
    lists them (tests/test_roll_dice.py weighs them with these blocks)."""
    folder = tmp_path_factory.mktemp("tables") / "bx"
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    text = header.read_text().replace(MAGIC, "situation]")
    assert old in text
    text = text.replace(old, block)
    if log_picks:
        assert FIXTURE_LOG_PICKS in text
        text = text.replace(FIXTURE_LOG_PICKS, f"log_picks: [{log_picks}]")
    header.write_text(text)
    found = folder / "attack.yaml"
    found.write_text(found.read_text() + tables)
    return load_folder(folder), rebuilt(folder, tmp_path_factory.mktemp(name))


@pytest.fixture(scope="module")
def critical_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture with its resolution block edited: confirmed criticals for double dice, level-checked fumbles."""
    return edited_bx(tmp_path_factory, CRITICAL_BLOCK, "bx-critical")


@pytest.fixture(scope="module")
def rerolled_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Confirmed criticals that roll the damage dice a second time (the further roll typed apart)."""
    block = CRITICAL_BLOCK.replace(
        "{dice_rolled: 2, modifier: 1}", "{dice_rolled: 1, rerolled: 1, modifier: 1}"
    )
    return edited_bx(tmp_path_factory, block, "bx-rerolled")


@pytest.fixture(scope="module")
def situational_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture with Advantage (2 dice, Disadvantage 3) and a damage multiplier over the dice,
    rounded up, both picked from two new tables: still no Python."""
    old = "  damage:\n    least: attack_rules.least_damage\n  modifiers: [missile_range, cover, situation]\n"
    return edited_bx(tmp_path_factory, SITUATION_BLOCK, "bx-situational", old, SITUATION_TABLES)


@pytest.fixture(scope="module")
def staged_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Three damage multiplier stages as bfrpg's block has them: a charge doubling the total or all
    but a critical's maximum die (ruling), then a halving rounded by ruling, then one rounded as the
    picked row says, each stage's factor from its own picker column; an automatic hit multiplied or
    not (ruling): still no Python."""
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    return edited_bx(tmp_path_factory, STAGES_BLOCK, "bx-staged", old, STAGES_TABLES)


@pytest.fixture(scope="module")
def rolled_chart_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture with level-checked fumbles and automatic criticals, each with a chart rolled on by a
    roll of its own (a d6 fumble table, a 2d6 wound chart) that says what the result does."""
    return edited_bx(tmp_path_factory, ROLLED_CHART_BLOCK, "bx-rolled-chart", tables=ROLLED_CHART_TABLES)


@pytest.fixture(scope="module")
def charted_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture with a critical chart read with the roll's modifiers, whose rows name damage
    formulas, and a fumble chart whose plain rows are a Miss, both saying what happens: still no Python."""
    return edited_bx(tmp_path_factory, CHART_BLOCK, "bx-charted", tables=CHART_TABLES)


@pytest.fixture(scope="module")
def then_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The charted fixture whose special rows lead to a chart rolled on by a roll of its own
    (``then``): a fumble chart's special row to the d6 fumble table, a critical chart's special row
    to the 2d6 wound chart (its text two columns, joined)."""
    block = CHART_BLOCK.replace(
        "    plain_unless_special: true\n    text: effect\n",
        "    plain_unless_special: true\n    text: effect\n"
        "    then: {chart: fumble_table, when: special, text: effect}\n",
    ).replace(
        "    follow_adds_mods: true\n    text: effect\n",
        "    follow_adds_mods: true\n    text: effect\n"
        "    then: {chart: wound_chart, when: special, text: [wound, effect]}\n",
    )
    wounds = re.sub(r"(wound: [^{}]*)\}", r"\1, effect: null}", ROLLED_CHART_TABLES).replace(
        "      wound: {label: Wound, type: text}\n",
        "      wound: {label: Wound, type: text}\n      effect: {label: Effect, type: text, optional: true}\n",
    )
    tables = CHART_TABLES + wounds.replace(
        "A limb broken, effect: null}", "A limb broken, effect: out of the fight}"
    )
    return edited_bx(tmp_path_factory, block, "bx-then", tables=tables)


def cells(rules: RuleSet, inputs: CalculatorInputs) -> dict[str, object]:
    found: dict[str, object] = {
        "ATTACK_BONUS": inputs.bonus,
        "ATTACK_TARGET": inputs.target,
        "ATTACK_MODS": inputs.mods,
        "ATTACK_ROLL": inputs.roll,
        "ATTACK_DICE": inputs.dice,
        "ATTACK_DAMAGE_ROLL": inputs.damage_roll,
        "ATTACK_DAMAGE_BONUS": inputs.damage_bonus,
        "ATTACK_TARGET_HP": inputs.hp,
        "ATTACK_ATTACKS": inputs.attacks,
    }
    block = rules.resolution_block
    assert block is not None and block.modifiers is not None
    if uses_follow(block):
        found["ATTACK_FOLLOW_ROLL"] = inputs.follow_roll
    if block.fumble.mode == "level_check":
        found["ATTACK_LEVEL"] = inputs.level
    if rolls_further(block):
        found["ATTACK_EXTRA_ROLL"] = inputs.extra_roll
    if adds_dice(rules):
        found["ATTACK_ADDED_ROLL"] = inputs.added_roll
    if own_roll_charts(block):
        found["ATTACK_CHART_ROLL"] = inputs.chart_roll
    if checked_charts(block):
        found[d20_check.ROLL], found[d20_check.BONUS] = inputs.check_roll, inputs.check_bonus
    for table_id in block.modifiers:
        table = rules.table(table_id)
        if table.picker == "choice":
            found[pick_name(table_id)] = inputs.choices.get(table_id, str(table.rows[0].label))
        else:
            for row in table.rows:
                found[pick_name(table_id, str(row.id))] = (table_id, row.id) in inputs.toggles
    for number in typed_cells(block):
        found[number_name(number.id)] = inputs.numbers.get(number.id, 0)
    if block.range is not None:
        found[d20_range.INCREMENT], found[d20_range.DISTANCE] = inputs.range_increment, inputs.distance
    if has_subdual(rules):
        found[target_state.KIND] = inputs.kind
        found[target_state.SUBDUAL_TAKEN] = inputs.subdual_taken
    return found


def random_inputs(rules: RuleSet, chance: random.Random) -> CalculatorInputs:
    block = rules.resolution_block
    assert block is not None and block.modifiers is not None
    choices, toggles = {}, set()
    for table_id in block.modifiers:
        table = rules.table(table_id)
        if table.picker == "choice":
            choices[table_id] = str(chance.choice(table.rows).label)
        else:
            toggles |= {(table_id, str(row.id)) for row in table.rows if chance.random() < 0.25}
    dice = chance.choice(DICE_FORMS[:7] * 3 + DICE_FORMS)
    typed = {n.id: chance.randint(-4, 6) for n in typed_cells(block)}
    low, high = chart_roll_bounds(rules) if own_roll_charts(block) else (0, 0)
    return CalculatorInputs(
        bonus=chance.randint(-3, 12),
        target=chance.randint(-2, 30),
        mods=chance.randint(-5, 5),
        level=chance.randint(0, 12),
        roll=chance.choice([None, 0, 21, 1, 20, *range(1, 21)]),
        follow_roll=chance.choice([None, 1, 20, 25, *range(1, 21)]),
        dice=dice,
        damage_roll=chance.choice([None, 0, 1, 2, 3, 4, 5, 6, 8, 12, 40]),
        extra_roll=chance.choice([None, 0, 1, 2, 3, 5, 7, 12, 40]),
        added_roll=chance.choice([None, None, -5, -4, -1, 0, 1, 2, 3, 4, 5]) if adds_dice(rules) else None,
        chart_roll=chance.choice([None, None, *range(low - 1, high + 2)]) if high else None,
        check_roll=chance.choice([None, 0, 21, *range(1, 21)]) if checked_charts(block) else None,
        check_bonus=chance.randint(-2, 4) if checked_charts(block) else 0,
        damage_bonus=chance.randint(-2, 3),
        hp=chance.choice([-3, 0, 1, 5, 9, 14, 30, 250]),
        attacks=chance.choice([0, 1, 2, 3, 11, -1]),
        choices=choices,
        toggles=frozenset(toggles),
        numbers=typed,
        **subdual_inputs(rules, chance),
    )


def subdual_inputs(rules: RuleSet, chance: random.Random) -> dict[str, object]:
    """The kind of damage typed and the subdual damage taken, where the ruleset has a subdual kind."""
    if not has_subdual(rules):
        return {}
    label = labels(rules)[SUBDUAL]
    return {
        "kind": chance.choice(["", "", label, label[:1]]),
        "subdual_taken": chance.choice([0, 0, 1, 3, 8, 20]),
    }


def scenarios(rules: RuleSet, count: int, seed: int) -> Iterator[CalculatorInputs]:
    chance = random.Random(seed)
    for roll in (1, 2, 19, 20):  # the natural-roll edges against a target out of reach and one in reach
        for target in (2, 30):
            yield CalculatorInputs(bonus=0, target=target, roll=roll, dice="1d6", damage_roll=3)
    for _ in range(count):
        yield random_inputs(rules, chance)


def mismatches(
    calc,
    rules: RuleSet,
    xlsx: Path,
    cases: list[CalculatorInputs],
    rulings: list[dict[str, str]] | None = None,
) -> list[str]:
    """Outputs where the sheet and the engine differ; ``rulings``: the rulings flipped in each case."""
    flips = rulings or [{}] * len(cases)
    outputs = list(attack_outputs(rules, CalculatorInputs(roll=10)))
    typed = [
        {**cells(rules, one), **{ruling_name(ruling): choice for ruling, choice in flip.items()}}
        for one, flip in zip(cases, flips, strict=True)
    ]
    got = calc.evaluate(xlsx, typed, outputs)
    return [
        f"{name}: engine {expected[name]!r} != sheet {row[name]!r} for {one} {flip}"
        for one, flip, row in zip(cases, flips, got, strict=True)
        for expected in [attack_outputs(replace(rules, chosen={**rules.chosen, **flip}), one)]
        for name in outputs
        if not same(expected[name], row[name])
    ]


def test_the_yaml_only_ruleset_equals_the_generic_engine(calc, bx_xlsx: Path):
    rules = load_folder(FIXTURE)
    cases = list(scenarios(rules, 240, 20261125))
    assert len(cases) >= 200
    found = mismatches(calc, rules, bx_xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_an_edited_block_gives_confirmed_criticals_and_fumbles_in_the_sheet(calc, critical_bx):
    rules, xlsx = critical_bx
    assert rules.resolution_block is not None and rules.resolution_block.critical.mode == "confirm"
    cases = list(scenarios(rules, 120, 7))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    results = {attack_outputs(rules, one)["ATTACK_RESULT"] for one in cases}
    assert {"Critical", "Fumble", "Hit", "Miss"} <= results


def test_an_edited_block_gives_critical_and_fumble_heat_maps(calc, critical_bx):
    rules, xlsx = critical_bx
    problems, compared = heat_mismatches(calc, rules, xlsx)
    assert not problems, f"{len(problems)} mismatches, first: " + "\n".join(problems[:5])
    assert compared >= 3 * 300  # hit and critical grids and the fumble row, per ruling draw


def test_advantage_and_a_damage_multiplier_from_pickers_in_the_sheet(calc, situational_bx):
    rules, xlsx = situational_bx
    cases = list(scenarios(rules, 160, 11))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    said = {str(attack_outputs(rules, one)["ATTACK_SUMMARY"]) for one in cases}
    assert {"Miss: cannot be hit", "Miss: only a magic weapon can hit (attacker has none)"} <= said
    modes, multiplied = set(), False
    for one in cases:
        attack, _, where = attack_and_damage(rules, one, dice_module.Dice(1, 6, 0))
        modes.add((attack.advantage, attack.disadvantage))
        multiplied |= where.multiplier != 1
    assert {(True, False), (False, True), (True, True)} <= modes and multiplied


def test_three_multiplier_stages_in_the_sheet(calc, staged_bx):
    rules, xlsx = staged_bx
    cases = list(scenarios(rules, 200, 19))
    flips = ruling_draws(rules, len(cases) - 1, seed=19)
    found = mismatches(calc, rules, xlsx, cases, flips)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    factors, rounded_up = set(), set()
    for one in cases:
        _, damage, _ = attack_and_damage(rules, one, dice_module.Dice(1, 6, 0))
        factors |= {(stage, factor) for stage, factor in damage.multipliers.items() if factor != 1}
        rounded_up |= {stage for stage, up in damage.round_up.items() if up}
    assert {
        ("double", 2),
        ("mode", Fraction(1, 2)),
        ("mode", Fraction(1, 4)),
        ("water", Fraction(1, 2)),
        ("water", 3),
        ("water", Fraction(3, 2)),
    } <= factors
    assert rounded_up == {"water"}
    assert {flip.get("half_rounding") for flip in flips} >= {"up", "down"}
    sheet = openpyxl.load_workbook(xlsx)[ATTACK_SHEET]
    rows = {sheet.cell(r, OUT_LABEL).value: r for r in range(1, sheet.max_row + 1)}
    notes = calc.evaluate_cells(xlsx, [(ATTACK_SHEET, f"{NOTE_LETTER}{rows[label]}") for label in PLIGHTS])
    assert notes == [
        "hits automatically, damage x3",
        "damage x0.5, rounded up",
    ]  # the crushing stage's factor
    results = {attack_outputs(rules, one)["ATTACK_RESULT"] for one in cases}
    assert {"Critical", "Hit", "Miss"} <= results


def test_critical_and_fumble_charts_in_the_sheet(calc, charted_bx):
    rules, xlsx = charted_bx
    cases = list(scenarios(rules, 200, 13))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    results = [attack_outputs(rules, one) for one in cases]
    assert {"Critical", "Fumble", "Hit", "Miss"} <= {r["ATTACK_RESULT"] for r in results}
    said = {r["ATTACK_CHART_EFFECT"] for r in results}
    assert {"Maximum damage", "Brutal blow, the foe staggers", "Weapon dropped", ""} <= said
    assert any(" = " in r["ATTACK_SUMMARY"] for r in results)  # the total the chart read, not just the roll
    problems, compared = heat_mismatches(calc, rules, xlsx)
    assert not problems and compared >= 300, problems[:5]


def test_a_chart_rolled_on_by_a_roll_of_its_own_in_the_sheet(calc, rolled_chart_bx):
    """A fumble table (d6) after a level-checked Fumble and a wound chart (2d6) after an automatic
    Critical, each read by the chart roll: the words beside it and in the summary, its checks."""
    rules, xlsx = rolled_chart_bx
    fumble = CalculatorInputs(bonus=0, target=12, roll=1, follow_roll=15, level=1)
    critical = CalculatorInputs(bonus=0, target=12, roll=20, dice="1d8", damage_roll=5)
    hit = CalculatorInputs(bonus=0, target=12, roll=14, dice="1d8", damage_roll=5)
    cases = [replace(fumble, chart_roll=roll) for roll in (None, 0, 1, 2, 3, 6, 7)]
    cases += [replace(critical, chart_roll=roll) for roll in (None, 1, 2, 7, 12, 13)]
    cases += [replace(hit, chart_roll=roll) for roll in (None, 4)]
    cases += list(scenarios(rules, 200, 23))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    outputs = [attack_outputs(rules, one) for one in cases]
    assert [o["ATTACK_SUMMARY"] for o in outputs[:3]] == [
        "Fumble (follow-up roll 15) - type the chart roll",
        "Fumble (follow-up roll 15), #CHART ROLL? 1 to 6",
        "Fumble (follow-up roll 15), Weapon dropped",
    ]
    assert outputs[11]["ATTACK_SUMMARY"] == "Critical, A limb broken: 10 damage, the target is at 0 HP: dead"
    assert outputs[14]["ATTACK_SUMMARY"].endswith("the chart roll 4 is not used by this roll: clear it")
    said = {o["ATTACK_CHART_EFFECT"] for o in outputs}
    assert {"Weapon dropped", "Off balance until the next round", "A deep cut", "A limb broken"} <= said
    assert {"#CHART ROLL? 1 to 6", "#CHART ROLL? 2 to 12"} <= said
    problems, compared = heat_mismatches(calc, rules, xlsx)  # the charts change no chance
    assert not problems and compared >= 300, problems[:5]


def test_a_chart_a_chart_row_leads_to_in_the_sheet(calc, then_bx):
    """A chart rolled on by a roll of its own after a fumble or critical chart's special row: asked
    for only after such a row, its words after the row's, a roll after any other row called out."""
    rules, xlsx = then_bx
    fumble = CalculatorInputs(bonus=0, target=12, roll=1, follow_roll=3)
    critical = CalculatorInputs(bonus=0, target=12, roll=20, follow_roll=19, dice="1d8", damage_roll=5)
    cases = [replace(fumble, chart_roll=roll) for roll in (None, 0, 1, 4, 7)]
    cases += [replace(fumble, follow_roll=15, chart_roll=roll) for roll in (None, 2)]  # a plain row: a Miss
    cases += [replace(critical, chart_roll=roll) for roll in (None, 1, 7, 12, 13)]
    cases += [replace(critical, follow_roll=2, chart_roll=roll) for roll in (None, 7)]  # not special
    cases += list(scenarios(rules, 200, 29))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    said = [attack_outputs(rules, one)["ATTACK_SUMMARY"] for one in cases[:14]]
    assert said[0] == "Fumble (follow-up roll 3), Weapon dropped - type the chart roll"
    assert said[1] == "Fumble (follow-up roll 3), Weapon dropped; #CHART ROLL? 1 to 6"
    assert said[3] == "Fumble (follow-up roll 3), Weapon dropped; Off balance until the next round"
    assert said[6].endswith(" - the chart roll 2 is not used by this roll: clear it")
    assert said[10].startswith(
        "Critical (follow-up roll 19), Brutal blow, the foe staggers; A limb broken: out of"
    )
    assert said[13].endswith(" - the chart roll 7 is not used by this roll: clear it")


@pytest.mark.timeout(600)
def test_encounter_log_rows_roll_on_a_chart_of_its_own(calc, rolled_chart_bx):
    """The log's Chart column feeds the chart roll: a row says what the chart says, as the calculator does."""
    rules, xlsx = rolled_chart_bx
    fights = fights_match(calc, rules, xlsx, random.Random("encounter-rolled-chart"), 30)
    assert any(attack.chart_roll is not None for fight in fights for attack in fight.attacks)


@pytest.mark.timeout(600)
def test_a_log_row_says_what_a_chart_of_its_own_says(calc, rolled_chart_bx):
    """The log's Chart column: a row says what the fumble table or the wound chart says, as the calculator."""
    rules, xlsx = rolled_chart_bx
    lines = log_and_calculator_lines(calc, rules, xlsx, 150)
    said = ("Weapon dropped", "Off balance", "A deep cut", "Knocked down", "A limb broken")
    assert sum(any(words in line for words in said) for line in lines) >= 3, lines[:20]
    assert any("type the chart roll" in line for line in lines)


def test_a_critical_that_rolls_the_dice_again_in_the_sheet(calc, rerolled_bx):
    rules, xlsx = rerolled_bx
    confirmed = CalculatorInputs(bonus=5, target=12, roll=20, follow_roll=19, dice="2d6+1", damage_roll=7)
    cases = [replace(confirmed, extra_roll=extra) for extra in (None, 1, 2, 9, 12, 13)]
    cases += list(scenarios(rules, 200, 17))
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    outputs = [attack_outputs(rules, one) for one in cases]
    damages = {o["ATTACK_DAMAGE"] for o in outputs if o["ATTACK_RESULT"] == "Critical"}
    assert any(isinstance(d, int) and d > 0 for d in damages)
    assert any(str(d).startswith("#EXTRA DAMAGE ROLL?") for d in damages)
    assert any(o["ATTACK_EXPECTED_DAMAGE"] == BEYOND_GRID for o in outputs)


PENALTY_BLOCK = """
  follow_die: 12
  fumble: level_check
  critical: automatic
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: 2, modifier: 1}
    natural_penalty: {above: 20, per_point: 2, from: die}
    multipliers: [{name: situation, scope: whole, rounding: down}]
  modifiers: [missile_range, cover, situation, tactics, grip]
"""
PLAIN_BLOCK = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"


@pytest.fixture(scope="module")
def penalized_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """A fumble check on a d12 of its own, and a hit on a natural 20 losing 2 per point the roll
    needed is above 20, taken from the dice before a picked multiplier: still no Python."""
    return edited_bx(tmp_path_factory, PENALTY_BLOCK, "bx-penalized", PLAIN_BLOCK, SITUATION_TABLES)


@pytest.fixture(scope="module")
def total_penalized_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The natural penalty taken from the total, after the multiplier."""
    block = PENALTY_BLOCK.replace("from: die", "from: total").replace("rounding: down", "rounding: up")
    return edited_bx(tmp_path_factory, block, "bx-total-penalized", PLAIN_BLOCK, SITUATION_TABLES)


def penalized_cases(rules: RuleSet, seed: int) -> list[CalculatorInputs]:
    """Natural 20s needing more than 20 (a penalty), then seeded random input sets."""
    edges = [
        CalculatorInputs(bonus=bonus, target=target, roll=20, follow_roll=None, dice=dice, damage_roll=shown)
        for bonus, target in ((0, 24), (2, 30), (0, 21), (5, 12))
        for dice, shown in (("1d6+1", 2), ("2d4", 8), ("3", 0))
    ]
    return edges + list(scenarios(rules, 160, seed))


def test_a_follow_die_of_its_own_and_a_natural_penalty_from_the_die(calc, penalized_bx):
    rules, xlsx = penalized_bx
    cases = penalized_cases(rules, 19)
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    outputs = [attack_outputs(rules, one) for one in cases]
    assert any(o["ATTACK_RESULT"] == "#FOLLOW ROLL? 1 to 12" for o in outputs)
    assert {"Critical", "Fumble", "Hit", "Miss"} <= {o["ATTACK_RESULT"] for o in outputs}
    penalized = [
        one
        for one in cases
        if one.roll == 20
        and resolution_damage.natural_penalty(rules, attack_and_damage(rules, one, D6)[0], 20)
    ]
    assert len(penalized) >= 10
    said = [str(o["ATTACK_SUMMARY"]) for o in outputs]  # the line says what the natural 20 cost
    assert sum(" less for a natural 20), the target is at " in line for line in said) >= 3, said
    problems, compared = heat_mismatches(calc, rules, xlsx)
    assert not problems and compared >= 300, problems[:5]


@pytest.mark.timeout(600)
def test_a_log_row_says_what_the_natural_roll_cost(calc, total_penalized_bx):
    """The log's line is the calculator's: a natural 20 needing more than 20 names the damage it lost."""
    rules, xlsx = total_penalized_bx
    lines = log_and_calculator_lines(calc, rules, xlsx, 300)
    assert any(" less for a natural 20), the target is at " in line for line in lines), lines[:20]


def test_a_natural_penalty_from_the_total(calc, total_penalized_bx):
    rules, xlsx = total_penalized_bx
    found = mismatches(calc, rules, xlsx, penalized_cases(rules, 23))
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_the_chart_functions_read_an_own_ruleset_s_charts(charted_bx, monkeypatch: pytest.MonkeyPatch):
    """crit_effect and fumble_effect take an own ruleset's id and read its chart's text column."""
    rules, _ = charted_bx
    monkeypatch.setenv("PYCALC_TABLES", str(Path(rules.table("critical_chart").rows[0].file).parent.parent))
    load_ruleset.cache_clear()
    try:
        assert shared.crit_effect("bx", 5) == "A solid blow"
        assert shared.crit_effect("bx", 18) == "Brutal blow, the foe staggers"
        assert shared.crit_effect("bx", 21) == "#ROLL? 1 to 20"
        chart = rules.table("fumble_chart")
        assert shared.fumble_effect("bx", 1) == chart.band(1)["effect"]
    finally:
        monkeypatch.delenv("PYCALC_TABLES")
        load_ruleset.cache_clear()


@pytest.fixture(scope="module")
def thac0_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """The fixture read as AD&D reads it: the GM types the attacker's THAC0 and a descending AC."""
    return edited_bx(tmp_path_factory, "  target: descending_ac\n", "bx-thac0", "  target: armor_class\n")


def test_thac0_against_descending_ac_by_hand(thac0_bx):
    rules, _ = thac0_bx
    need = lambda thac0, ac, mods=0: engine.need(rules, engine.Attack(thac0, ac, mods))  # noqa: E731
    assert need(17, 5) == 12  # THAC0 17 against AC 5: roll 12 or more
    assert need(17, -2) == 19 and need(20, 10) == 10
    assert need(17, 5, mods=2) == 10  # +2 to hit
    cover = CalculatorInputs(bonus=17, target=5, choices={"cover": "Partial cover"})  # -2 to hit
    assert attack_outputs(rules, cover)["ATTACK_NEED"] == 14
    behind = CalculatorInputs(bonus=17, target=5, toggles=frozenset({("situation", "no_shield")}))
    assert attack_outputs(rules, behind)["ATTACK_TARGET_NOW"] == 6  # AC 1 worse without the shield
    assert attack_outputs(rules, behind)["ATTACK_NEED"] == 11


def test_thac0_against_descending_ac_in_the_sheet(calc, thac0_bx):
    rules, xlsx = thac0_bx
    chance = random.Random(17)
    cases = [
        replace(one, bonus=chance.randint(1, 21), target=chance.randint(-10, 10))
        for one in scenarios(rules, 200, 17)
    ]
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    problems, compared = heat_mismatches(calc, rules, xlsx)
    assert not problems, f"{len(problems)} mismatches, first: " + "\n".join(problems[:5])
    assert compared >= 20 * 21  # THAC0 20 to 1 by AC 10 to -10
    book = openpyxl.load_workbook(xlsx)
    calculator = book["Attack calculator"]
    labels = {calculator.cell(row, 1).value for row in range(1, 12)}
    assert {"THAC0", "Defender's armor class (descending)"} <= labels
    assert book["Encounter"]["A1"].value is not None and "ROSTER_ATTACK_BONUS" in book.defined_names


WEAPON_BLOCK = """
  critical:
    mode: confirm
    rolls: {from: weapon.picked.threat_from}
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: weapon.picked.multiplier, modifier: weapon.picked.multiplier}
  modifiers: [weapon, missile_range, cover, situation]
"""
WEAPON_TABLES = """
  weapon:
    title: Weapon
    kind: entries
    picker: choice
    source: {section: Weapons}
    columns:
      hit: {label: To hit, type: int}
      threat_from: {label: Critical threat from, type: int}
      multiplier: {label: Critical multiplier, type: int}
    rows:
      - {id: longsword, label: Longsword, hit: 0, threat_from: 19, multiplier: 2}
      - {id: scythe, label: Scythe, hit: 0, threat_from: 20, multiplier: 4}
      - {id: rapier, label: Rapier, hit: 0, threat_from: 18, multiplier: 2}
"""


@pytest.fixture(scope="module")
def weapon_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Pathfinder-style criticals: the picked weapon sets the threat range and the multiplier."""
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    return edited_bx(tmp_path_factory, WEAPON_BLOCK, "bx-weapon", old, WEAPON_TABLES)


def test_the_picked_weapon_drives_the_critical_by_hand(weapon_bx):
    rules, _ = weapon_bx
    base = CalculatorInputs(bonus=5, target=15, roll=18, follow_roll=15, dice="1d8+2", damage_roll=6)
    rapier = attack_outputs(rules, replace(base, choices={"weapon": "Rapier"}))
    longsword = attack_outputs(rules, replace(base, choices={"weapon": "Longsword"}))
    assert rapier["ATTACK_RESULT"] == "Critical" and rapier["ATTACK_DAMAGE"] == 2 * (6 + 2)  # 18 threatens
    assert longsword["ATTACK_RESULT"] == "Hit" and longsword["ATTACK_DAMAGE"] == 6 + 2  # 19-20 only
    scythe = attack_outputs(rules, replace(base, roll=20, choices={"weapon": "Scythe"}))
    assert scythe["ATTACK_RESULT"] == "Critical" and scythe["ATTACK_DAMAGE"] == 4 * (6 + 2)
    assert rapier["ATTACK_CRIT_CHANCE"] > longsword["ATTACK_CRIT_CHANCE"]  # the odds follow the pick


def test_the_picked_weapon_drives_the_critical_in_the_sheet(calc, weapon_bx):
    rules, xlsx = weapon_bx
    chance = random.Random(19)
    labels = [str(row.label) for row in rules.table("weapon").rows]
    cases = [
        replace(one, choices={**one.choices, "weapon": chance.choice(labels)})
        for one in scenarios(rules, 200, 19)
    ]
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    results = {attack_outputs(rules, one)["ATTACK_RESULT"] for one in cases}
    assert "Critical" in results
    grids = calc.evaluate(xlsx, [{"PICK_WEAPON": label} for label in labels], ["ATTACK_CRIT_CHANCE"])
    assert len({row["ATTACK_CRIT_CHANCE"] for row in grids}) == 3  # the calculator's odds follow the pick
    problems, compared = heat_mismatches(calc, rules, xlsx)  # the Odds sheet at the default pick
    assert not problems and compared, problems[:5]


GATED_BLOCK = """  fumble: none
  critical: none
  damage:
    least: attack_rules.least_damage
    deals: attack_kind.picked.deals_damage
  effect: {hit: attack_kind.picked.on_hit, miss: attack_kind.picked.on_miss}
  modifiers: [attack_kind, missile_range, cover, footing, guard, magic, two_weapons]
  situation:
    kind_table: attack_kind
    only: {missile_range: ranged, cover: ranged}
    gate: attack
    ruled: {footing: footing_rule}
    numbers:
      defender_dex:
        label: "Defender's Dex modifier (inside the AC)"
        adds_to: ac
        times: -1
        when: loses_dex
        of: defender
        help: as on the defender's sheet
      fury: {label: Fury (to the damage), adds_to: damage, of: attacker}
      attacker_dex:
        label: "Attacker's Dex modifier (two weapons)"
        adds_to: hit
        when: dex_offsets
        at_most: {ruling: dex_offset_rule, choices: {offsets: 0, added: none}}
        of: attacker
"""
GATED_TABLES = """
  attack_kind:
    title: Attack kind
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      ranged: {label: Ranged, type: bool}
      deals_damage: {label: Deals damage, type: bool}
      on_hit: {label: On a hit, type: text}
      on_miss: {label: On a miss, type: text}
    rows:
      - {id: sword, label: Sword, ranged: false, deals_damage: true, on_hit: "", on_miss: ""}
      - {id: spear, label: Spear (set against a charge), ranged: false, deals_damage: true, on_hit: the charge is stopped, on_miss: ""}
      - {id: bow, label: Bow, ranged: true, deals_damage: true, on_hit: "", on_miss: the arrow is lost}
      - {id: disarm, label: Disarm (no damage), ranged: false, deals_damage: false, on_hit: the defender drops its weapon, on_miss: the attacker is off balance}

  footing:
    title: Footing
    kind: entries
    picker: toggle
    source: {section: Attacking}
    ruling: footing_rule
    columns:
      hit: {label: To hit, type: modifier}
      hit_house: {label: To hit (house rule), type: int}
      ac: {label: Defender's AC, type: int}
      attack: {label: Counts for, type: text}
    rows:
      - {id: higher_ground, label: Higher ground, hit: 1, hit_house: 2, ac: 0, attack: melee}
      - {id: aimed, label: Aimed shot, hit: 2, hit_house: 1, ac: 0, attack: ranged}
      - {id: in_shadow, label: Defender in shadow, hit: -1, hit_house: -2, ac: 0, attack: any}
      - {id: set_spear, label: Spear set against a charge, hit: 1, hit_house: 3, ac: -1, attack: spear}
      - {id: war_chant, label: War chant, hit: 1d6, hit_house: 0, ac: 0, attack: ""}
      - {id: frenzy, label: Frenzy, hit: 1d4, hit_house: 0, ac: 0, attack: melee}

  guard:
    title: Defender off guard
    kind: entries
    picker: toggle
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      loses_dex: {label: Loses Dex to AC, type: bool}
      auto_hit_melee: {label: Melee attacks hit automatically, type: bool}
      attack: {label: Counts for, type: text}
    rows:
      - {id: from_behind, label: Attacked from behind, hit: 1, loses_dex: true, auto_hit_melee: false, attack: any}
      - {id: held, label: Defender held (melee), hit: 0, loses_dex: true, auto_hit_melee: false, attack: melee}
      - {id: distracted, label: Defender distracted, hit: 1, loses_dex: false, auto_hit_melee: false, attack: ""}
      - {id: helpless, label: Defender helpless, hit: 0, loses_dex: true, auto_hit_melee: true, attack: any}

  two_weapons:
    title: Weapons in hand
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: int}
      dex_offsets: {label: Dex offsets it, type: bool}
    rows:
      - {id: one_weapon, label: One weapon, hit: 0, dex_offsets: false}
      - {id: two_weapons, label: Two weapons (-4), hit: -4, dex_offsets: true}
      - {id: light_offhand, label: Light off-hand weapon (-2), hit: -2, dex_offsets: true}

rulings:
  footing_rule:
    label: Footing's to-hit numbers
    default: book
    choices:
      book: the book's numbers (hit)
      house: the house numbers (hit_house)
    source: {section: Attacking}
    why: a test ruling
  dex_offset_rule:
    label: The attacker's Dex and a two-weapon penalty
    default: offsets
    choices:
      offsets: offsets the penalty, down to 0 at most
      added: is added whole
    source: {section: Attacking}
    why: a test ruling
"""


@pytest.fixture(scope="module")
def gated_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Pickers that count for some attack kinds only: missile range and cover for a ranged kind (the
    picked kind's ``ranged`` column), footing rows by their ``attack`` column (melee, ranged, any, a
    kind's id, or empty: every kind), a die on the roll among them: still no Python."""
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    return edited_bx(
        tmp_path_factory, GATED_BLOCK, "bx-gated", old, GATED_TABLES, "attack_kind, missile_range, cover"
    )


def test_pickers_count_for_the_picked_attack_kind_by_hand(gated_bx):
    rules, _ = gated_bx
    ticked = frozenset(("footing", row.id) for row in rules.table("footing").rows)
    far = {"missile_range": "Long range", "cover": "Partial cover"}  # -1 and -2, ranged only

    disarm = CalculatorInputs(
        bonus=5, target=10, roll=15, damage_roll=6, choices={"attack_kind": "Disarm (no damage)"}
    )
    assert attack_outputs(rules, disarm)["ATTACK_RESULT"] == "Hit"
    assert attack_outputs(rules, disarm)["ATTACK_DAMAGE"] == 0  # damage.deals from the picked kind
    assert attack_outputs(rules, disarm)["ATTACK_SUMMARY"] == "Hit, the defender drops its weapon"
    assert attack_outputs(rules, replace(disarm, roll=2))["ATTACK_EFFECT"] == "the attacker is off balance"
    assert attack_outputs(rules, replace(disarm, choices={}))["ATTACK_DAMAGE"] == 6

    def situation(kind: str) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        inputs = CalculatorInputs(choices={**far, "attack_kind": kind}, toggles=ticked)
        _, _, where = attack_and_damage(rules, inputs, D6)
        return where.hit, where.ac, where.hit_dice

    # higher ground +1, shadow -1; the war chant's 1d6 counts for every kind, the frenzy's 1d4 for melee
    assert situation("Sword") == (1 - 1, 0, ((1, 6), (1, 4)))
    assert situation("Spear (set against a charge)") == (1 - 1 + 1, -1, ((1, 6), (1, 4)))
    assert situation("Bow") == (-1 - 2 + 2 - 1, 0, ((1, 6),))  # long range, cover, aimed, shadow
    rules = replace(rules, chosen={**rules.chosen, "footing_rule": "house"})  # footing reads hit_house
    assert situation("Sword") == (2 - 2, 0, ((1, 6), (1, 4)))
    assert situation("Spear (set against a charge)") == (2 - 2 + 3, -1, ((1, 6), (1, 4)))


def test_typed_numbers_count_while_their_flag_is_picked_by_hand(gated_bx):
    """The defender's Dex leaves the AC only while a pick that counts for the attack says it loses Dex;
    the fury counts to every hit's damage."""
    rules, _ = gated_bx
    typed = {"defender_dex": 2, "fury": 3}

    def situation(kind: str, *ticked: str, numbers=typed) -> tuple[int, int, int]:
        inputs = CalculatorInputs(
            choices={"attack_kind": kind},
            toggles=frozenset(("guard", row) for row in ticked),
            numbers=numbers,
        )
        _, _, where = attack_and_damage(rules, inputs, D6)
        return where.hit, where.ac, where.damage

    assert situation("Sword") == (0, 0, 3)  # nothing says the defender loses Dex
    assert situation("Sword", "distracted") == (1, 0, 3)
    assert situation("Sword", "from_behind") == (1, -2, 3)
    assert situation("Sword", "from_behind", "held") == (1, -2, 3)  # lost once, however many say it
    assert situation("Sword", "held") == (0, -2, 3)
    assert situation("Bow", "held") == (0, 0, 3)  # held counts for melee only: the Dex stays
    assert situation("Bow", "from_behind", numbers={"defender_dex": -1}) == (1, 1, 0)  # a Dex penalty
    sword = CalculatorInputs(bonus=0, target=15, roll=10, damage_roll=4, dice="1d6", numbers=typed)
    behind = replace(sword, toggles=frozenset({("guard", "from_behind")}))
    assert attack_outputs(rules, sword)["ATTACK_NEED"] == 15
    assert attack_outputs(rules, behind)["ATTACK_NEED"] == 15 - 1 - 2  # +1 to hit, AC 13
    assert attack_outputs(rules, replace(behind, roll=12))["ATTACK_DAMAGE"] == 4 + 3


def test_a_flag_column_for_one_kind_of_attack_ticks_only_for_it_by_hand(gated_bx):
    """``auto_hit_melee``: a helpless defender is hit automatically by a melee attack, not a ranged one
    (its row's Dex loss counts for both)."""
    rules, _ = gated_bx
    helpless = frozenset({("guard", "helpless")})

    def where(kind: str) -> tuple[bool, int]:
        inputs = CalculatorInputs(
            choices={"attack_kind": kind}, toggles=helpless, numbers={"defender_dex": 2}
        )
        found = attack_and_damage(rules, inputs, D6)[2]
        return found.auto_hit, found.ac

    assert where("Sword") == (True, -2)
    assert where("Spear (set against a charge)") == (True, -2)
    assert where("Bow") == (False, -2)
    sword = CalculatorInputs(bonus=0, target=30, roll=2, choices={"attack_kind": "Sword"}, toggles=helpless)
    assert attack_outputs(rules, sword)["ATTACK_RESULT"] == "Hit"
    assert attack_outputs(rules, replace(sword, choices={"attack_kind": "Bow"}))["ATTACK_RESULT"] == "Miss"


def test_a_typed_number_offsets_a_penalty_no_further_than_its_limit_by_hand(gated_bx):
    """The attacker's Dex offsets a two-weapon penalty down to 0 at most (ruling dex_offset_rule:
    offsets), or is added whole (added); with one weapon it does not count."""
    rules, _ = gated_bx

    def hit(weapons: str, dex: int, ruling: str = "offsets") -> int:
        ruled = replace(rules, chosen={**rules.chosen, "dex_offset_rule": ruling})
        inputs = CalculatorInputs(choices={"two_weapons": weapons}, numbers={"attacker_dex": dex})
        return attack_and_damage(ruled, inputs, D6)[2].hit

    assert hit("One weapon", 3) == 0
    assert hit("Two weapons (-4)", 3) == -4 + 3
    assert hit("Two weapons (-4)", 6) == 0  # offset down to 0, no bonus left over
    assert hit("Two weapons (-4)", -1) == -5  # a Dex penalty adds to it
    assert hit("Light off-hand weapon (-2)", 6) == 0
    assert hit("Light off-hand weapon (-2)", 6, "added") == -2 + 6


def test_pickers_count_for_the_picked_attack_kind_in_the_sheet(calc, gated_bx):
    rules, xlsx = gated_bx
    cases = list(scenarios(rules, 200, 23))
    flips = ruling_draws(rules, len(cases) - 1, 23)  # the house numbers in about half the cases
    found = mismatches(calc, rules, xlsx, cases, flips)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    assert {flip.get("footing_rule") for flip in flips} == {None, "book", "house"}
    kinds = {one.choices["attack_kind"] for one in cases if "attack_kind" in one.choices}
    assert len(kinds) == 4  # every kind drawn, melee, ranged, the one a row names, one dealing no damage
    dealt = {attack_outputs(rules, one)["ATTACK_DAMAGE"] for one in cases if "Disarm" in str(one.choices)}
    assert dealt <= {0, ""} and 0 in dealt
    effects = {attack_outputs(rules, one).get("ATTACK_EFFECT") for one in cases}
    assert {"", "the charge is stopped", "the attacker is off balance"} <= effects
    problems, compared = heat_mismatches(calc, rules, xlsx)  # the Odds sheet at the default picks
    assert not problems and compared, problems[:5]


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("kind_table: attack_kind", "kind_table: cover_kind"),
        ("    gate: attack\n", "    gate: attack\n    sums: {hit: [footing]}\n"),
        ("only: {missile_range: ranged, cover: ranged}", "only: {missile_range: thrown}"),
        ("only: {missile_range: ranged, cover: ranged}", "only: {situation: ranged}"),
        ("attack: spear}", "attack: lance}"),
        ("deals: attack_kind.picked.deals_damage", "deals: attack_kind.picked.dealt"),
        ("ruled: {footing: footing_rule}", "ruled: {footing: footing_rules}"),
        ("ruled: {footing: footing_rule}", "ruled: {situation: footing_rule}"),
        ("miss: attack_kind.picked.on_miss}", "miss: attack_kind.picked.ranged}"),
        ("when: loses_dex", "when: lose_dex"),
        ("when: loses_dex", "when: attack"),  # a text column, not a flag
        ("adds_to: ac", "adds_to: armor"),
        ("times: -1", "times: 0"),
        ("fury: {label: Fury (to the damage), adds_to: damage, of: attacker}", "fury: {adds_to: damage}"),
        ("of: defender", "of: target"),
        ("        when: dex_offsets\n", ""),  # at_most without the rows it limits
        ("choices: {offsets: 0, added: none}", "choices: {offsets: zero, added: none}"),
    ],
)
def test_a_gating_mistake_is_named_with_its_line(tmp_path: Path, edit: str, said: str, capsys):
    folder = tmp_path / "tables" / "bx"
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    text = (
        header.read_text()
        .replace(MAGIC, "situation]")
        .replace(BASE_RULES + "  modifiers: [missile_range, cover, situation]\n", GATED_BLOCK)
    )
    tables = folder / "attack.yaml"
    tables.write_text(tables.read_text() + GATED_TABLES)
    if edit.startswith("attack: "):
        tables.write_text(tables.read_text().replace(edit, said))
    else:
        text = text.replace(edit, said)
    header.write_text(text)
    out = tmp_path / "out"
    assert build.main(["--tables", str(folder.parent), "--out", str(out), "--quiet"]) != 0
    error = capsys.readouterr().err
    assert "bx/" in error and ".yaml:" in error, error
    assert not out.exists() or not any(out.glob("*.xlsx"))


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("        when: crushing\n", ""),  # a factor no picked row applies
        ("        factor: stage_factors.crushing  # while a picked row ticks `crushing`\n", ""),
        ("when: crushing", "when: crushed"),
        ("when: crushing", "when: damage_multiplier_mode"),  # a number column, not a flag
        ("factor: stage_factors.crushing", "factor: stage_factors.crushed"),
    ],
)
def test_a_stage_factor_mistake_is_named_with_its_line(tmp_path: Path, edit: str, said: str, capsys):
    folder = tmp_path / "tables" / "bx"
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    old = BASE_RULES + "  modifiers: [missile_range, cover, situation]\n"
    assert edit in STAGES_BLOCK
    header.write_text(
        header.read_text().replace(MAGIC, "situation]").replace(old, STAGES_BLOCK.replace(edit, said))
    )
    tables = folder / "attack.yaml"
    tables.write_text(tables.read_text() + STAGES_TABLES)
    out = tmp_path / "out"
    assert build.main(["--tables", str(folder.parent), "--out", str(out), "--quiet"]) != 0
    error = capsys.readouterr().err
    assert "bx/ruleset.yaml:" in error and "water" in error, error
    assert not out.exists() or not any(out.glob("*.xlsx"))


@pytest.mark.timeout(600)
def test_encounter_log_rows_count_picks_for_their_attack_kind(calc, gated_bx):
    """A log row's picked kind gates its other picks as the calculator's does (the encounter model)."""
    rules, xlsx = gated_bx
    fights = fights_match(calc, rules, xlsx, random.Random("encounter-gated"), 40)
    kinds = {attack.picks.get("attack_kind") for fight in fights for attack in fight.attacks if attack.picks}
    assert len(kinds - {None}) == 4


def fights_match(calc, rules: RuleSet, xlsx: Path, chance: random.Random, count: int) -> list[Fight]:
    """Random fights typed into the workbook's Encounter and Log: each equals the encounter model."""
    fights = [random_fight(rules, chance) for _ in range(count)]
    expected = [expected_outputs(rules, fight) for fight in fights]
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    inputs = [{n: v for n, v in sheet_inputs(rules, f).items() if n in present} for f in fights]
    results = calc.evaluate_columns(xlsx, inputs, list(expected[0]))
    found = [
        m
        for i, (e, g) in enumerate(zip(expected, results, strict=True))
        for m in encounter_mismatches(e, g, i)
    ]
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    return fights
