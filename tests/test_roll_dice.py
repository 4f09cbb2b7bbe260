"""Dice on the roll (issue #34): a picker row of a ruleset written in YAML alone may add dice to the
attack roll (``hit: 1d4``, Bless; ``hit: -1d4``, Bane: the Magic table of tests/fixtures/tables/bx).
The engine's chances are exact over the dice (against brute-force enumeration, Advantage included),
the calculator asks for their total, and the generic workbook equals the engine in LibreOffice: the
calculator with the die cell, its odds, and the Odds heat map with dice picked."""

from __future__ import annotations

import itertools
import random
import shutil
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import dice as dice_module
from pycalc import resolution as engine
from pycalc import resolution_chances, resolution_damage, resolution_results, resolution_situation
from pycalc import resolution_odds as odds
from pycalc.d20 import CRITICAL, HIT, OUTCOMES
from pycalc.resolution_calculator import NOT_ADDED, CalculatorInputs, attack_and_damage, attack_outputs
from pycalc.sheets import d20_supported
from pycalc.sheets.situation_cells import pick_name
from pycalc.table_files import TableError
from pycalc.tables import RuleSet, load_folder
from tests.parity import same
from tests.test_d20_heat import grid_cells
from tests.test_generic_parity import (
    BASE_RULES,
    CHART_BLOCK,
    CHART_TABLES,
    CRITICAL_BLOCK,
    FIXTURE,
    SITUATION_BLOCK,
    SITUATION_TABLES,
    edited_bx,
    mismatches,
    scenarios,
)

BLESS, BANE, PRAYER = ("magic", "bless"), ("magic", "bane"), ("magic", "prayer")
INSPIRATION_TABLES = """
  inspiration:
    title: Inspiration
    kind: entries
    picker: choice
    source: {section: Attacking}
    columns:
      hit: {label: To hit, type: modifier}
    rows:
      - {id: none, label: Not inspired, hit: 0}
      - {id: inspired, label: Inspired, hit: 1d6}
      - {id: cursed, label: Cursed, hit: -2d4}
      - {id: steady, label: Steady, hit: 2}
"""
ADVANTAGE_BLOCK = """
  advantage: {highest_of: 2, lowest_of: 2, both: normal}
  critical: automatic
"""


@cache
def bx() -> RuleSet:
    return load_folder(FIXTURE)


def edited_copy(folder: Path, ruleset_find: str = "", ruleset_put: str = "", attack_add: str = "") -> Path:
    """The fixture copied into ``folder`` with one edit of its ruleset.yaml and tables added."""
    shutil.copytree(FIXTURE, folder)
    header = folder / "ruleset.yaml"
    header.write_text(header.read_text().replace(ruleset_find, ruleset_put))
    tables = folder / "attack.yaml"
    tables.write_text(tables.read_text() + attack_add)
    return folder


@pytest.fixture(scope="module")
def advantage_rules(tmp_path_factory: pytest.TempPathFactory) -> RuleSet:
    """The fixture with Advantage (the higher of 2 d20s) and a critical on a natural 20."""
    folder = tmp_path_factory.mktemp("tables") / "bx"
    block = "  fumble: none\n  critical: none\n"
    return load_folder(edited_copy(folder, block, "  fumble: none\n" + ADVANTAGE_BLOCK))


# --------------------------------------------------------------------------- the YAML


def test_a_picker_row_gives_dice_or_a_number_in_its_hit_column():
    table = bx().table("magic")
    assert [row.values["hit"] for row in table.rows] == ["1d4", "-1d4", 1]
    where = resolution_situation.picked_situation(bx(), {}, [BLESS, BANE, PRAYER])
    assert where.hit == 1 and where.hit_dice == ((1, 4), (-1, 4))


@pytest.mark.parametrize(
    "row, bad, message",
    [
        ("{id: bless, label: Bless, hit: 1d4}", "{id: bless, label: Bless, hit: 1x4}", "got text '1x4'"),
        ("{id: bless, label: Bless, hit: 1d4}", "{id: bless, label: Bless, hit: 0d4}", "got text '0d4'"),
        ("{id: bane, label: Bane, hit: -1d4}", "{id: bane, label: Bane, hit: 1d4+1}", "got text '1d4+1'"),
        ("{id: prayer, label: Prayer, hit: 1}", "{id: prayer, label: Prayer, hit: 1.5}", "got a decimal"),
    ],
)
def test_a_malformed_dice_value_stops_the_build_at_its_line(tmp_path: Path, row: str, bad: str, message: str):
    folder = edited_copy(tmp_path / "bx")
    tables = folder / "attack.yaml"
    tables.write_text(tables.read_text().replace(row, bad))
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    line = next(i for i, text in enumerate(tables.read_text().splitlines(), start=1) if bad in text)
    reported = [str(problem) for problem in caught.value.problems]
    hint = "must be modifier (a whole number, or dice such as 1d4 or -1d4)"
    assert any(f"attack.yaml:{line}: " in p and hint in p and message in p for p in reported), reported


def test_dice_in_a_picker_column_other_than_hit_stop_the_build(tmp_path: Path):
    folder = edited_copy(tmp_path / "bx")
    tables = folder / "attack.yaml"
    text = tables.read_text().replace(
        "      hit: {label: To hit, type: modifier}", "      ac: {label: AC, type: modifier}"
    )
    for row in ("bless, label: Bless, hit", "bane, label: Bane, hit", "prayer, label: Prayer, hit"):
        text = text.replace(row, row[:-3] + "ac")
    tables.write_text(text)
    with pytest.raises(TableError) as caught:
        load_folder(folder)
    line = next(
        i for i, t in enumerate((folder / "ruleset.yaml").read_text().splitlines(), 1) if "magic]" in t
    )
    reported = [str(problem) for problem in caught.value.problems]
    assert any(f"ruleset.yaml:{line}: magic: only the 'hit' column may hold dice" in p for p in reported)


# --------------------------------------------------------------------------- the engine by hand


def hit_chance(rules: RuleSet, *toggles: tuple[str, str], bonus: int = 5, target: int = 15) -> Fraction:
    inputs = CalculatorInputs(bonus=bonus, target=target, toggles=frozenset(toggles))
    attack, _, _ = attack_and_damage(rules, inputs, dice_module.Dice(1, 6, 0))
    return resolution_chances.hit_chance(rules, attack)


def test_bless_and_bane_by_hand():
    """+5 against AC 15 needs 10 on the d20 (11 faces of 20, a natural 1 misses and a 20 hits); Bless
    makes it 10 - d4: 12 + 13 + 14 + 15 faces of 80; Bane 10 + d4: 10 + 9 + 8 + 7."""
    rules = bx()
    assert hit_chance(rules) == Fraction(11, 20)
    assert hit_chance(rules, BLESS) == Fraction(12 + 13 + 14 + 15, 80)
    assert hit_chance(rules, BANE) == Fraction(10 + 9 + 8 + 7, 80)
    assert hit_chance(rules, PRAYER) == Fraction(12, 20)  # a number in the same column
    assert hit_chance(rules, BLESS, BANE) == Fraction(11, 20)  # d4 - d4 is even around 0
    assert hit_chance(rules, BANE, target=40) == Fraction(1, 20)  # only the natural 20 hits
    assert hit_chance(rules, BLESS, target=-10) == Fraction(19, 20)  # the natural 1 still misses


def test_the_calculator_asks_for_the_total_of_the_dice():
    rules = bx()
    base = CalculatorInputs(bonus=5, target=15, roll=7, dice="1d6", damage_roll=4, toggles=frozenset({BLESS}))
    said = lambda **change: attack_outputs(rules, replace(base, **change))  # noqa: E731
    assert said(added_roll=3)["ATTACK_RESULT"] == HIT  # 7 + 5 + 3 = 15
    assert said(added_roll=2)["ATTACK_RESULT"] == "Miss"
    assert said(added_roll=3)["ATTACK_DAMAGE"] == 4
    for missing in (None, 0, 5):
        found = said(added_roll=missing)
        assert found["ATTACK_RESULT"] == found["ATTACK_SUMMARY"] == "#DICE ON THE ROLL? 1 to 4"
        assert found["ATTACK_DAMAGE"] == ""
    assert said()["ATTACK_ADDED_DICE"] == "1d4: type their total, 1 to 4"
    assert said(toggles=frozenset({BANE}))["ATTACK_ADDED_DICE"] == "-1d4: type their total, -4 to -1"
    both = said(toggles=frozenset({BLESS, BANE}), added_roll=-3)
    assert both["ATTACK_ADDED_DICE"] == "1d4 - 1d4: type their total, -3 to 3"
    assert (
        both["ATTACK_RESULT"] == "Miss" and said(toggles=frozenset({BANE}), roll=20)["ATTACK_RESULT"] != HIT
    )
    assert said(toggles=frozenset({BANE}), roll=20, added_roll=-4)["ATTACK_RESULT"] == HIT  # a natural 20
    assert said()["ATTACK_HIT_CHANCE"] == Fraction(54, 80)  # the odds need no typed total
    assert said(added_roll=1)["ATTACK_HIT_CHANCE"] == Fraction(54, 80)


def test_without_dice_picked_the_cell_is_not_used():
    rules = bx()
    plain = CalculatorInputs(
        bonus=5, target=15, roll=9, dice="1d6", damage_roll=4, toggles=frozenset({PRAYER})
    )
    found = attack_outputs(rules, plain)
    assert found["ATTACK_ADDED_DICE"] == NOT_ADDED
    assert attack_outputs(rules, replace(plain, added_roll=3)) == found  # typed but not used
    assert found["ATTACK_RESULT"] == HIT and found["ATTACK_HIT_CHANCE"] == Fraction(12, 20)


# --------------------------------------------------------------------------- the engine against brute force

DICE = st.lists(st.tuples(st.sampled_from([-2, -1, 1, 2]), st.sampled_from([2, 3, 4, 6])), max_size=2)
ATTACKS = st.builds(
    engine.Attack,
    bonus=st.integers(-3, 12),
    target=st.integers(5, 26),
    mods=st.integers(-3, 3),
    advantage=st.booleans(),
    disadvantage=st.booleans(),
    added=DICE.map(tuple),
)


def added_faces(added: tuple[tuple[int, int], ...]) -> list[int]:
    """Every equally likely total of the added dice, one die at a time (brute force)."""
    dice = [(1 if count > 0 else -1, sides) for count, sides in added for _ in range(abs(count))]
    return [
        sum(sign * face for (sign, _), face in zip(dice, faces, strict=True))
        for faces in itertools.product(*(range(1, sides + 1) for _, sides in dice))
    ]


def kept_rolls(rules: RuleSet, attack: engine.Attack) -> list[int]:
    """Every equally likely natural roll kept: both d20s rolled with Advantage, the higher kept."""
    block = rules.resolution_block
    assert block is not None
    mode = resolution_chances.roll_mode(rules, attack)
    if mode == engine.NORMAL or block.advantage is None:
        return list(range(1, 21))
    pick = max if mode == engine.ADVANTAGE else min
    count = 2  # the advantage block's highest_of and lowest_of
    return [pick(dice) for dice in itertools.product(range(1, 21), repeat=count)]


def brute_chances(rules: RuleSet, attack: engine.Attack) -> dict[str, Fraction]:
    found = dict.fromkeys(OUTCOMES, Fraction(0))
    rolls, totals = kept_rolls(rules, attack), added_faces(attack.added)
    follows = [None] if not engine.uses_follow_roll(rules) else list(range(1, engine.follow_faces(rules) + 1))
    share = Fraction(1, len(rolls) * len(totals) * len(follows))
    for roll, total, follow in itertools.product(rolls, totals, follows):
        fixed = replace(attack, mods=attack.mods + total, added=())  # one total for the roll and the follow
        found[resolution_results.resolve(rules, fixed, roll, follow)] += share
    return found


@settings(max_examples=60, deadline=None)
@given(ATTACKS)
def test_chances_over_the_dice_equal_brute_force(advantage_rules: RuleSet, attack: engine.Attack):
    assert resolution_chances.chances(advantage_rules, attack) == brute_chances(advantage_rules, attack)
    assert resolution_chances.chances(bx(), attack) == brute_chances(
        bx(), attack
    )  # no Advantage in its block


@settings(max_examples=40, deadline=None)
@given(ATTACKS, st.sampled_from(["1d6", "2d4+1", "1d8-2"]))
def test_damage_over_the_dice_equals_brute_force(advantage_rules: RuleSet, attack: engine.Attack, text: str):
    dice = dice_module.parse(text)
    damage = engine.Damage(dice)
    found: dict[int, Fraction] = {}
    rolls, totals = kept_rolls(advantage_rules, attack), added_faces(attack.added)
    shown = [sum(faces) for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count)]
    share = Fraction(1, len(rolls) * len(totals) * len(shown))
    for roll, total, rolled in itertools.product(rolls, totals, shown):
        fixed = replace(attack, mods=attack.mods + total, added=())
        outcome = resolution_results.resolve(advantage_rules, fixed, roll)
        amount = resolution_damage.attack_damage(
            advantage_rules, fixed, damage, outcome, roll, damage_roll=rolled
        )
        assert isinstance(amount, int)
        found[amount] = found.get(amount, Fraction(0)) + share
    got = odds.damage_distribution(advantage_rules, attack, damage)
    assert {k: v for k, v in got.items() if v} == found


# --------------------------------------------------------------------------- the workbook in LibreOffice


@pytest.fixture(scope="module")
def inspired_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Advantage and a damage multiplier, Bless and Bane, and a choice picker whose rows add 1d6,
    take 2d4 away or add 2: still no Python."""
    old = "  damage:\n    least: attack_rules.least_damage\n  modifiers: [missile_range, cover, situation]\n"
    block = SITUATION_BLOCK.replace("grip, magic]", "grip, magic, inspiration]")
    return edited_bx(tmp_path_factory, block, "bx-inspired", old, SITUATION_TABLES + INSPIRATION_TABLES)


def dice_cases(rules: RuleSet, count: int, seed: int) -> list[CalculatorInputs]:
    """Seeded random input sets, half of them with Bless or Bane picked and a total typed (or not)."""
    chance = random.Random(seed)
    cases = []
    for one in scenarios(rules, count, seed):
        if chance.random() < 0.5:
            magic = frozenset(row for row in (BLESS, BANE) if chance.random() < 0.6)
            one = replace(one, toggles=one.toggles | magic, added_roll=chance.choice([None, *range(-9, 10)]))
        cases.append(one)
    return cases


def dice_coverage(rules: RuleSet, cases: list[CalculatorInputs]) -> set[str]:
    """What the cases show of the dice: typed in range and a result, missing or off, not used."""
    seen = set()
    for one in cases:
        found = attack_outputs(rules, one)
        attack, _, _ = attack_and_damage(rules, one, dice_module.Dice(1, 6, 0))
        if not attack.added:
            seen.add("not used")
        elif one.roll is not None and found["ATTACK_RESULT"] in ("Hit", "Critical", "Miss"):
            seen.add(f"typed: {found['ATTACK_RESULT']}")
        elif str(found["ATTACK_RESULT"]).startswith("#DICE ON THE ROLL?"):
            seen.add("missing or off")
    return seen


@pytest.fixture(scope="module")
def bx_book(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset(FIXTURE.name) / f"{FIXTURE.name}.xlsx"  # the run's one build of the fixture


def test_the_fixture_s_calculator_with_dice_equals_the_engine(calc, bx_book: Path):
    rules = bx()
    by_hand = [
        CalculatorInputs(
            bonus=5,
            target=15,
            roll=roll,
            dice="1d6",
            damage_roll=3,
            toggles=frozenset(picks),
            added_roll=total,
        )
        for picks, total in (
            ({BLESS}, 3),
            ({BLESS}, 2),
            ({BANE}, -1),
            ({BLESS, BANE}, 0),
            ({BLESS}, None),
            ({PRAYER}, 4),
        )
        for roll in (1, 7, 12, 20)
    ]
    cases = by_hand + dice_cases(rules, 200, 34)
    found = mismatches(calc, rules, bx_book, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    assert {"not used", "typed: Hit", "typed: Miss", "missing or off"} <= dice_coverage(rules, cases)
    chances = calc.evaluate(
        bx_book,
        [{"ATTACK_BONUS": 5, "ATTACK_TARGET": 15, pick_name(*BLESS): True}],
        ["ATTACK_HIT_CHANCE", "ATTACK_ADDED_DICE"],
    )
    assert same(Fraction(54, 80), chances[0]["ATTACK_HIT_CHANCE"])
    assert chances[0]["ATTACK_ADDED_DICE"] == "1d4: type their total, 1 to 4"


def test_advantage_and_dice_of_a_choice_picker_equal_the_engine(calc, inspired_bx):
    rules, xlsx = inspired_bx
    labels = [str(row.label) for row in rules.table("inspiration").rows]
    chance = random.Random(341)
    cases = [
        replace(one, choices={**one.choices, "inspiration": chance.choice(labels)})
        for one in dice_cases(rules, 200, 341)
    ]
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    assert {"not used", "typed: Hit", "typed: Miss", "missing or off"} <= dice_coverage(rules, cases)
    modes = {attack_and_damage(rules, one, dice_module.Dice(1, 6, 0))[0].advantage for one in cases}
    assert modes == {True, False}


HEAT_PICKS = [
    {},
    {pick_name(*BLESS): True},
    {pick_name(*BANE): True},
    {pick_name(*BLESS): True, pick_name(*BANE): True, pick_name("inspiration"): "Inspired"},
    {pick_name("inspiration"): "Cursed", pick_name(*PRAYER): True},
]


def grid_mismatches(
    calc, rules: RuleSet, xlsx: Path, grid: str, picks_list: list[dict], outcomes: tuple[str, ...]
) -> tuple[list[str], int, list[list]]:
    """Cells of the heat map ``grid`` where the sheet differs from the engine's chance of ``outcomes``
    over the dice each set of picks adds; how many were compared, and the values by picks."""
    book = openpyxl.load_workbook(xlsx)
    _, cells = grid_cells(book, grid)
    results = calc.evaluate_cells_per_scenario(
        xlsx, picks_list, [(sheet, cell) for sheet, cell, _, _ in cells]
    )
    problems, compared = [], 0
    for picks, values in zip(picks_list, results, strict=True):
        toggles = [(t, r) for t, r in (BLESS, BANE, PRAYER) if picks.get(pick_name(t, r))]
        choices = (
            {"inspiration": picks[pick_name("inspiration")]} if pick_name("inspiration") in picks else {}
        )
        added = resolution_situation.picked_situation(rules, choices, toggles).hit_dice
        for (_, cell, bonus, target), value in zip(cells, values, strict=True):
            odds_now = resolution_chances.chances(rules, engine.Attack(int(bonus), int(target), added=added))
            want = sum(odds_now[outcome] for outcome in outcomes)
            compared += 1
            if not same(want, value):
                problems.append(f"{cell} ({bonus}, {target}) {picks}: {want} != {value}")
    return problems, compared, results


def test_the_odds_heat_map_with_dice_picked_equals_the_engine(calc, inspired_bx):
    """The Odds sheet's hit grid weighs every total of the dice the calculator's picks add (its rows
    are the bonus with every other modifier, so a Prayer's +1 does not move it)."""
    rules, xlsx = inspired_bx
    problems, compared, results = grid_mismatches(
        calc, rules, xlsx, "ODDS_HIT_GRID", HEAT_PICKS, (HIT, CRITICAL)
    )
    assert not problems, f"{len(problems)} mismatches, first: " + "\n".join(problems[:5])
    assert compared >= 5 * 300
    assert results[0] != results[1] and results[1] != results[2]  # the picked dice move the map


# --------------------------------------------------------------------------- rules that read the target

TARGET_READ_BLOCK = """
  need_basis: target
  fumble: none
  critical:
    mode: automatic
    rolls: {from: 15}
    no_critical_when_needed: {at_least: 17}
  damage:
    least: attack_rules.least_damage
    critical: {dice_rolled: 2, modifier: 1}
    natural_penalty: {above: 14, per_point: 2, from: total}
  modifiers: [missile_range, cover, situation, magic]
"""
TARGET_READ_OLD = (
    "  fumble: none\n  critical: none\n  damage:\n    least: attack_rules.least_damage\n"
    "  modifiers: [missile_range, cover, situation]\n"
)


@pytest.fixture(scope="module")
def target_read_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Bless and Bane with criticals on 15 to 20 (hitting by the total below 20), none against a target
    of 17 or more, and a natural-20 hit losing 2
    damage a point of target above 14: both read the target (``need_basis: target``), which the dice
    do not move, so the sheet weighs them with dice on the roll."""
    return edited_bx(tmp_path_factory, TARGET_READ_BLOCK, "bx-target-read", TARGET_READ_OLD)


def test_no_critical_when_needed_and_the_natural_penalty_with_dice_equal_the_engine(calc, target_read_bx):
    rules, xlsx = target_read_bx
    by_hand = [
        CalculatorInputs(
            bonus=bonus,
            target=target,
            roll=roll,
            dice="1d6",
            damage_roll=4,
            toggles=frozenset(picks),
            added_roll=total,
        )
        for bonus, target in ((5, 15), (3, 18), (0, 12))
        for picks, total in (({BLESS}, 4), ({BANE}, -2), ({BLESS, BANE}, 1), ({BLESS}, None), (set(), None))
        for roll in (1, 13, 19, 20)
    ]
    cases = by_hand + dice_cases(rules, 200, 3405)
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    assert {"not used", "typed: Hit", "typed: Miss", "missing or off"} <= dice_coverage(rules, cases)
    outputs = [attack_outputs(rules, one) for one in by_hand]
    assert {"Critical", "Hit"} <= {out["ATTACK_RESULT"] for out in outputs}  # criticals below 17 only
    attack = engine.Attack(5, 18, added=((1, 4),))
    assert resolution_damage.natural_penalty(rules, attack, 20) == 8  # (18 - 14) x 2, whatever the die shows
    assert not engine.critical_possible(rules, attack)


def test_the_heat_maps_of_target_read_rules_with_dice_equal_the_engine(calc, target_read_bx):
    """Both grids over every total of the picked dice: the critical grid is written (no critical
    against a high target) and its threats hit over the dice."""
    rules, xlsx = target_read_bx
    picks_list = [*HEAT_PICKS[:3], {pick_name(*BLESS): True, pick_name(*BANE): True}]
    for grid, outcomes in (("ODDS_HIT_GRID", (HIT, CRITICAL)), ("ODDS_CRIT_GRID", (CRITICAL,))):
        problems, compared, results = grid_mismatches(calc, rules, xlsx, grid, picks_list, outcomes)
        assert not problems, f"{grid}: {len(problems)} mismatches, first: " + "\n".join(problems[:5])
        assert compared >= 4 * 300
        assert results[0] != results[1]


# --------------------------------------------------------------------------- a confirmation roll

CONFIRM_BLOCK = CRITICAL_BLOCK.replace(
    "    mode: confirm\n", "    mode: confirm\n    rolls: {from: 18}\n"
) + ("  modifiers: [missile_range, cover, situation, magic]\n")


@pytest.fixture(scope="module")
def confirm_bx(tmp_path_factory: pytest.TempPathFactory) -> tuple[RuleSet, Path]:
    """Bless and Bane with Pathfinder-style criticals: a threat on 18 to 20 that hits is confirmed by
    a follow-up roll that hits too (a natural 1 fails), the same total of the dice added to both."""
    return edited_bx(tmp_path_factory, CONFIRM_BLOCK, "bx-confirm", TARGET_READ_OLD)


def test_a_confirmation_roll_with_dice_equals_the_engine(calc, confirm_bx):
    rules, xlsx = confirm_bx
    by_hand = [
        CalculatorInputs(
            bonus=5,
            target=target,
            roll=roll,
            follow_roll=follow,
            dice="1d6",
            damage_roll=4,
            level=3,
            toggles=frozenset(picks),
            added_roll=total,
        )
        for target in (15, 24)
        for picks, total in (({BLESS}, 4), ({BLESS}, 1), ({BANE}, -3), ({BLESS, BANE}, 2), ({BLESS}, None))
        for roll, follow in ((18, 14), (19, 11), (20, 16), (20, 1), (1, 5))
    ]
    cases = by_hand + dice_cases(rules, 200, 3406)
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
    assert {"not used", "typed: Hit", "typed: Miss", "missing or off"} <= dice_coverage(rules, cases)
    results = {attack_outputs(rules, one)["ATTACK_RESULT"] for one in by_hand}
    assert {"Critical", "Hit"} <= results
    # the one total counts in both rolls: with Bless at 4 a follow-up 11 confirms against 20, at 1 not
    confirmed = [
        attack_outputs(
            rules,
            CalculatorInputs(
                bonus=5, target=20, roll=19, follow_roll=11, toggles=frozenset({BLESS}), added_roll=t
            ),
        )["ATTACK_RESULT"]
        for t in (4, 1)
    ]
    assert confirmed == ["Critical", "Hit"]


def test_the_heat_maps_of_a_confirmation_with_dice_equal_the_engine(calc, confirm_bx):
    rules, xlsx = confirm_bx
    for grid, outcomes in (("ODDS_HIT_GRID", (HIT, CRITICAL)), ("ODDS_CRIT_GRID", (CRITICAL,))):
        problems, compared, results = grid_mismatches(calc, rules, xlsx, grid, HEAT_PICKS[:3], outcomes)
        assert not problems, f"{grid}: {len(problems)} mismatches, first: " + "\n".join(problems[:5])
        assert compared >= 3 * 300
        assert results[0] != results[1] and results[1] != results[2]


@pytest.mark.parametrize(
    "critical, named",
    [
        (
            "  critical: {mode: automatic, no_critical_when_needed: {above: 19}}\n",
            "critical.no_critical_when_needed read from the number needed",
        ),
        (
            "  critical: none\n  damage:\n    natural_penalty: {above: 14, per_point: 1}\n",
            "damage.natural_penalty read from the number needed",
        ),
    ],
)
def test_what_the_sheet_does_not_weigh_with_dice_yet_stops_the_build(
    tmp_path: Path, critical: str, named: str
):
    """The engine reads these rules with dice on the roll; the generic sheet says at the block's line
    that it does not write them yet."""
    damage = "  damage:\n" if "damage:" in critical else ""  # the fixture's damage block follows critical
    rules = load_folder(edited_copy(tmp_path / "bx", f"  critical: none\n{damage}", critical))
    with pytest.raises(TableError) as caught:
        d20_supported.check_supported(rules)
    line = (
        next(
            i
            for i, t in enumerate((tmp_path / "bx" / "ruleset.yaml").read_text().splitlines(), 1)
            if t == "resolution:"
        )
        + 1
    )  # the block's first key
    assert f"ruleset.yaml:{line}: " in str(caught.value) and f"{named} with dice on the roll" in str(
        caught.value
    )
    attack = engine.Attack(5, 15, added=((1, 4),))
    assert resolution_chances.chances(rules, attack) == brute_chances(rules, attack)  # the engine weighs them


def test_a_chart_read_with_the_modifiers_and_dice_still_stops_the_build(tmp_path: Path):
    """A critical chart read with the roll's modifiers (``follow_adds_mods``) and Bless: the sheet
    would weigh each chart row with the hit, total by total, in the damage odds too; not written yet."""
    rules = load_folder(edited_copy(tmp_path / "bx", BASE_RULES, CHART_BLOCK, CHART_TABLES))
    with pytest.raises(TableError) as caught:
        d20_supported.check_supported(rules)
    assert "critical.follow_adds_mods with dice on the roll" in str(caught.value)
    attack = engine.Attack(5, 15, added=((1, 4),))
    assert resolution_chances.chances(rules, attack) == brute_chances(rules, attack)  # the engine weighs them
