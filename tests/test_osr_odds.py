"""Odds before the dice are rolled (osr): exact damage distribution, UDFs, native odds cells.

The distribution equals a brute-force enumeration of every d20 (both with Advantage), fumble check
and damage die face through the Attack calculator itself (osr.attack_outputs' ATTACK_DAMAGE); a
seeded Monte Carlo agrees on a large case; LibreOffice recalculates the .xlsx odds cells, the chart
data and the Odds sheet to the engine's values over hundreds of scenarios with random pickers.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
from fractions import Fraction
from functools import cache
from typing import NamedTuple

import openpyxl
import pytest

from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_chances, resolution_damage, resolution_results
from pycalc.rulesets import osr
from pycalc.rulesets import osr_odds as odds
from pycalc.sheets import d20_cells
from pycalc.sheets import osr_odds as odds_sheet
from pycalc.sheets.dice_grid import MAX_DICE, MAX_SIDES
from pycalc.tables import RuleSet
from pycalc.udfs import osr as udfs_osr
from tests.test_osr_parity import FLIPS, RULES, attack_cells, flipped, same

ODDS_NAMES = list(shared_odds.ODDS_CELLS)


# --------------------------------------------------------------------------- brute force


def brute_force(rules: RuleSet, inputs: osr.AttackInputs) -> dict[int, Fraction]:
    """Every kept-roll d20 set, fumble check and damage die face, through ATTACK_DAMAGE."""
    mode = resolution_chances.roll_mode(rules, osr.generic_attack(rules, inputs)[0])
    sides = osr.die_sides(rules)
    n = (
        rules.constant("to_hit_roll", "advantage_d20s")
        if mode == generic.ADVANTAGE
        else rules.constant("to_hit_roll", "disadvantage_d20s")
        if mode == generic.DISADVANTAGE
        else 1
    )
    parsed = re.match(r"(\d+)d(\d+)", inputs.dice)
    count, faces = int(parsed.group(1)), int(parsed.group(2))

    @cache
    def damage(kept: int, follow: int, shown: int) -> int:
        found = osr.attack_outputs(
            rules, dataclasses.replace(inputs, roll=kept, follow_roll=follow, damage_roll=shown)
        )["ATTACK_DAMAGE"]
        assert isinstance(found, int), found
        return found

    total_ways = sides**n * sides * faces**count
    found: dict[int, Fraction] = {}
    for d20s in itertools.product(range(1, sides + 1), repeat=n):
        kept = min(d20s) if mode == generic.DISADVANTAGE else max(d20s)
        for follow in range(1, sides + 1):
            for dice in itertools.product(range(1, faces + 1), repeat=count):
                amount = damage(kept, follow, sum(dice))
                found[amount] = found.get(amount, Fraction(0)) + Fraction(1, total_ways)
    return dict(sorted(found.items()))


BRUTE_CASES = [
    (RULES, osr.AttackInputs(bonus=2, target=14, level=3, dice="1d4")),
    (RULES, osr.AttackInputs(bonus=0, target=23, level=0, dice="2d3+1")),  # nat-20 penalty 3
    (flipped(RULES, "nat20_penalty_applies_to"), osr.AttackInputs(bonus=0, target=24, level=5, dice="1d6-1")),
    (flipped(RULES, "nat20_needed_basis"), osr.AttackInputs(bonus=4, target=23, mods=1, level=1, dice="1d3")),
    (flipped(RULES, "nat20_crit_exception"), osr.AttackInputs(bonus=1, target=20, level=19, dice="2d2")),
    (
        RULES,
        osr.AttackInputs(
            bonus=1, target=16, level=2, dice="1d4+1", choices={"charge_attack": "Charging attacker"}
        ),
    ),
    (RULES, osr.AttackInputs(bonus=0, target=12, dice="1d3", toggles=frozenset({("florentine_fighting", "attacker_two_weapons")}))),
    (RULES, osr.AttackInputs(bonus=3, target=25, level=4, dice="1d2-3", toggles=frozenset({("attacker_limits", "attacker_disadvantage")}))),
    (
        flipped(RULES, "magic_weapon_needed"),
        osr.AttackInputs(bonus=0, target=22, dice="1d3", toggles=frozenset({("attacker_limits", "magic_weapon_needed")})),
    ),
    (RULES, osr.AttackInputs(bonus=0, target=10, dice="1d3", toggles=frozenset({("attacker_limits", "magic_weapon_needed")}))),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "inputs"), BRUTE_CASES)
def test_distribution_equals_brute_force_enumeration(rules, inputs):
    fast = odds.damage_distribution(rules, odds.odds_attack(rules, inputs))
    assert fast == brute_force(rules, inputs)
    assert sum(fast.values()) == 1


def test_round_distribution_equals_convolving_by_hand():
    attack = odds.odds_attack(RULES, osr.AttackInputs(bonus=1, target=15, dice="1d4+1"))
    one = odds.damage_distribution(RULES, attack)
    by_hand: dict[int, Fraction] = {}
    for a, b, c in itertools.product(one.items(), repeat=3):
        by_hand[a[0] + b[0] + c[0]] = by_hand.get(a[0] + b[0] + c[0], Fraction(0)) + a[1] * b[1] * c[1]
    for hp in range(-1, 20):
        want = sum((p for d, p in by_hand.items() if d >= hp), Fraction(0)) if hp > 0 else 1
        assert odds.kill_chance(RULES, attack, hp, 3) == want
    mean = sum(d * p for d, p in by_hand.items())
    assert odds.expected_damage(RULES, attack, 3) == mean
    assert odds.chance_at_least(RULES, attack, 5, 0) == 0
    assert odds.expected_damage(RULES, attack, 0) == 0


def test_seed_sword_expectation():
    # a normal weapon (d6+1, 4.5 a hit) needing 11: hits on 11-20 (natural 1 misses anyway)
    attack = odds.odds_attack(RULES, osr.AttackInputs(bonus=0, target=11, dice="1d6+1"))
    assert odds.expected_damage(RULES, attack) == Fraction(1, 2) * Fraction(9, 2)


# --------------------------------------------------------------------------- Monte Carlo


def simulate(rules: RuleSet, inputs: osr.AttackInputs, attacks: int, hp: int, trials: int, seed: int):
    chance = random.Random(seed)
    where = osr.situation(rules, inputs)
    attack, _ = osr.generic_attack(rules, inputs)
    mode = resolution_chances.roll_mode(rules, attack)
    parsed = re.match(r"(\d+)d(\d+)", inputs.dice)
    count, faces = int(parsed.group(1)), int(parsed.group(2))
    one_total, kills = 0, 0
    for _ in range(trials):
        dealt = 0
        for index in range(attacks):
            d20s = (chance.randint(1, 20), chance.randint(1, 20))
            kept = {generic.NORMAL: d20s[0], generic.ADVANTAGE: max(d20s), generic.DISADVANTAGE: min(d20s)}[
                mode
            ]
            outcome = resolution_results.resolve(rules, attack, kept, chance.randint(1, 20))
            shown = sum(chance.randint(1, faces) for _ in range(count))
            penalty = (
                resolution_damage.natural_penalty(rules, attack, kept)
                if outcome in ("Hit", "Critical")
                else 0
            )
            amount = osr.damage_for(rules, outcome, inputs.dice, shown, penalty, osr.doubles(where))
            dealt += amount
            if index == 0:
                one_total += amount
        kills += dealt >= hp
    return one_total / trials, kills / trials


def test_monte_carlo_agrees_on_a_large_case():
    rules = flipped(RULES, "nat20_penalty_applies_to")
    inputs = osr.AttackInputs(
        bonus=2,
        target=21,
        level=2,
        dice="3d8+2",
        choices={"charge_attack": "Charging attacker", "cover": str(RULES.table("cover").rows[1].label)},
        toggles=frozenset({("florentine_fighting", "attacker_two_weapons")}),
    )
    attack = odds.odds_attack(rules, inputs)
    trials = 60_000
    mean, kill = simulate(rules, inputs, 3, 40, trials, seed=20261122)
    one = odds.damage_distribution(rules, attack)
    expected = float(odds.expected_damage(rules, attack))
    sd = math.sqrt(float(sum(p * (d - odds.expected_damage(rules, attack)) ** 2 for d, p in one.items())))
    assert abs(mean - expected) < 5 * sd / math.sqrt(trials)
    p = float(odds.kill_chance(rules, attack, 40, 3))
    assert 0.05 < p < 0.95
    assert abs(kill - p) < 5 * math.sqrt(p * (1 - p) / trials)


# --------------------------------------------------------------------------- UDFs as xlwings calls them


def test_udfs_equal_the_engine():
    chance = random.Random(7)
    for _ in range(60):
        bonus, target, mods, level = (
            chance.randint(-2, 6),
            chance.randint(2, 26),
            chance.randint(-3, 3),
            chance.randint(0, 20),
        )
        dice = chance.choice(["1d6+1", "2d4", "1d8-1", "3d6", "8d6"])
        mode = chance.choice([None, "Normal", "Advantage", "Disadvantage"])
        double, magic = chance.random() < 0.3, chance.random() < 0.2
        attacks, hp = chance.randint(0, 4), chance.randint(-1, 30)
        advantage, disadvantage = udfs_osr.as_mode(mode)
        attack = odds.OddsAttack(
            generic.Attack(
                bonus, target, mods, level, advantage=advantage, disadvantage=disadvantage, needs_magic=magic
            ),
            osr.generic_damage(RULES, osr.dice_module.parse(dice), double),
        )
        args = (float(bonus), float(target), dice)
        tail = (float(attacks), float(mods), float(level), mode, double, magic)
        got = udfs_osr.osr_expected_damage(*args, *tail)
        assert got == pytest.approx(float(odds.expected_damage(RULES, attack, attacks)))
        got = udfs_osr.osr_kill_chance(*args, float(hp), *tail)
        assert got == pytest.approx(float(odds.kill_chance(RULES, attack, hp, attacks)))
        got = udfs_osr.osr_damage_chance_at_least(*args, float(hp), *tail)
        assert got == pytest.approx(float(odds.chance_at_least(RULES, attack, hp, attacks)))
    # optional arguments as empty cells, defaults 0 / 1 / Normal
    plain = odds.OddsAttack(generic.Attack(0, 11), osr.generic_damage(RULES, osr.dice_module.parse("1d6+1")))
    assert udfs_osr.osr_expected_damage(None, 11.0, "1d6+1", None, None, None, None, None, None) == 2.25
    assert udfs_osr.osr_kill_chance(0.0, 11.0, "1d6+1", 7.0) == pytest.approx(
        float(odds.kill_chance(RULES, plain, 7))
    )


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "axe"), "#DICE?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "3"), "#DICE?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, None, "1d6"), "#TARGET?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "1d6", None, 0.0, -1.0), "#LEVEL?"),
        (lambda: udfs_osr.osr_expected_damage(0.0, 11.0, "1d6", -2.0, 0.0, 1.0), "#ATTACKS?"),
        (lambda: udfs_osr.osr_kill_chance(0.0, 11.0, "1d6", "x"), "#HP?"),
        (lambda: udfs_osr.osr_kill_chance(0.0, 11.0, "1d6", 5.0, mode="sideways"), "#MODE?"),
        (lambda: udfs_osr.osr_damage_chance_at_least(0.0, 11.0, "1d6", None), "#AMOUNT?"),
        (lambda: udfs_osr.osr_damage_chance_at_least(0.0, 11.0, "1d6", 2.0, double="maybe"), "#DOUBLE?"),
    ],
)
def test_udfs_never_raise(call, start):
    assert str(call()).startswith(start)


def test_odds_udfs_are_exported():
    for name in ("osr_expected_damage", "osr_damage_chance_at_least", "osr_kill_chance"):
        assert name in udfs_osr.__all__
        assert hasattr(getattr(udfs_osr, name), "__xlfunc__") or callable(getattr(udfs_osr, name))


# --------------------------------------------------------------------------- LibreOffice parity


class OddsInputs(NamedTuple):
    attacks: int = 1  # ATTACK_ATTACKS
    target_hp: int = 10  # ATTACK_TARGET_HP


def odds_scenarios(count: int) -> list[tuple[RuleSet, osr.AttackInputs, OddsInputs]]:
    chance = random.Random(20261123)
    found = []
    edge_dice = ["1d1", "8d12", "8d12+5", "2d4-1", "1d4-3", "d6", "1d12+30", "9d6", "1d20", "abc", "3", "0d6"]
    for index, dice in enumerate(edge_dice):
        rules = (RULES, flipped(RULES, "nat20_penalty_applies_to"))[index % 2]
        found.append((rules, osr.AttackInputs(bonus=1, target=22, level=2, dice=dice), OddsInputs(1, 6)))
        found.append(
            (
                rules,
                osr.AttackInputs(
                    bonus=0, target=13, dice=dice, choices={"charge_attack": "Charging attacker"}
                ),
                OddsInputs(3, 9),
            )
        )
    for attacks, hp in ((0, 5), (-1, 5), (1, 0), (1, -3), (2, 1), (1, 200), (5, 1)):
        found.append((RULES, osr.AttackInputs(bonus=2, target=15, dice="2d6"), OddsInputs(attacks, hp)))
    for need in (-2, 1, 2, 19, 20, 21, 22, 25, 30):
        for rules in (RULES, flipped(RULES, "nat20_needed_basis"), flipped(RULES, "nat20_crit_exception")):
            found.append(
                (
                    rules,
                    osr.AttackInputs(bonus=1, target=need + 1, level=need % 7, dice="1d8+1"),
                    OddsInputs(),
                )
            )
    flips = list(FLIPS)[:6]
    dice_choices = ["1d6+1", "1d8", "2d6", "1d4+2", "1d10-1", "3d6+3", "2d12", "1d3", "4d4-2"]
    for index in range(count):
        choices = {
            t: str(chance.choice(RULES.table(t).rows).label) for t in osr.picker_tables(RULES, "choice")
        }
        toggles = frozenset(
            (t, r.id)
            for t in osr.picker_tables(RULES, "toggle")
            for r in RULES.table(t).rows
            if chance.random() < 0.3
        )
        rules = flipped(RULES, *chance.sample(flips, chance.randint(1, 3))) if index % 3 == 0 else RULES
        inputs = osr.AttackInputs(
            bonus=chance.randint(-2, 6),
            target=chance.randint(2, 27),
            mods=chance.randint(-3, 3),
            level=chance.randint(0, 20),
            dice=chance.choice(dice_choices),
            roll=chance.choice([None, None, 1, 20, chance.randint(1, 20)]),
            target_shield=chance.randint(0, 2),
            target_dex=chance.randint(0, 3),
            attacker_dex=chance.randint(0, 2),
            choices=choices,
            toggles=toggles,
        )
        found.append((rules, inputs, OddsInputs(chance.choice([1, 1, 2, 3, 6]), chance.randint(1, 30))))
    return found


def odds_cells(rules: RuleSet, inputs: osr.AttackInputs, more: OddsInputs) -> dict[str, object]:
    return {**attack_cells(rules, inputs), "ATTACK_ATTACKS": more.attacks, "ATTACK_TARGET_HP": more.target_hp}


@pytest.fixture(scope="module")
def xlsx(build_ruleset):
    return build_ruleset("osr") / "osr.xlsx"


def test_odds_cells_equal_the_engine(calc, xlsx):
    scenarios = odds_scenarios(300)
    assert len(scenarios) >= 300
    results = calc.evaluate(xlsx, [odds_cells(*s) for s in scenarios], ODDS_NAMES)
    mismatches, checked = [], 0
    for (rules, inputs, more), got in zip(scenarios, results, strict=True):
        expected = odds.odds_outputs(rules, inputs, more.attacks, more.target_hp)
        for name in ODDS_NAMES:
            checked += 1
            if not same(expected[name], got[name]):
                mismatches.append(
                    f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {inputs} {more}"
                )
    assert not mismatches, f"{len(mismatches)} mismatches, first:\n" + "\n".join(mismatches[:6])
    assert checked >= 4 * 280


def test_chart_data_and_odds_sheet_equal_the_engine(calc, xlsx):
    book = openpyxl.load_workbook(xlsx)
    sheet = book[d20_cells.DAMAGE_SHEET]
    header = next(
        c for row in sheet.iter_rows(min_row=6, max_row=6) for c in row if c.value == "Chance"
    )  # the chart's data column
    first = header.row + 1
    rows = 2 * MAX_DICE * MAX_SIDES + 1
    chart = [(d20_cells.DAMAGE_SHEET, f"{header.column_letter}{first + x}") for x in range(rows)]
    heat = book[odds_sheet.ODDS_SHEET]
    grids = {}
    for name in ("ODDS_HIT_GRID", "ODDS_CRIT_GRID", "ODDS_FUMBLE_ROW"):
        _, ref = next(iter(book.defined_names[name].destinations))
        grids[name] = [[c.coordinate for c in row] for row in heat[ref.replace("$", "")]]
    heat_cells = [(odds_sheet.ODDS_SHEET, c) for g in grids.values() for row in g for c in row]
    values = calc.evaluate_cells(xlsx, chart + heat_cells)
    # the chart: the workbook's default attack (1d6+1 needing 10, level 1)
    inputs = osr.AttackInputs(
        bonus=0, target=10, level=1, dice=str(RULES.table("damage_dice").value("normal_weapon", "dice"))
    )
    spread = odds.damage_distribution(RULES, odds.odds_attack(RULES, inputs))
    for x, got in enumerate(values[: len(chart)]):
        assert got == pytest.approx(float(spread.get(x, 0)), abs=1e-12), x
    got_heat = iter(values[len(chart) :])
    for bonus in odds_sheet.HEAT_BONUS:
        for target in odds_sheet.HEAT_TARGET:
            assert next(got_heat) == pytest.approx(
                float(resolution_chances.hit_chance(RULES, generic.Attack(bonus, target)))
            )
    for bonus in odds_sheet.HEAT_BONUS:
        for target in odds_sheet.HEAT_TARGET:
            want = resolution_chances.chances(RULES, generic.Attack(bonus, target))["Critical"]
            assert next(got_heat) == pytest.approx(float(want)), (bonus, target)
    for level in odds_sheet.FUMBLE_LEVELS:
        want = resolution_chances.chances(RULES, generic.Attack(0, 11, 0, level))["Fumble"]
        assert next(got_heat) == pytest.approx(float(want))
    assert grids["ODDS_HIT_GRID"] and heat.conditional_formatting


def test_new_names_inputs_and_formulas(build_ruleset):
    folder = build_ruleset("osr")
    xlsx = openpyxl.load_workbook(folder / "osr.xlsx")
    xlsm = openpyxl.load_workbook(folder / "osr.xlsm", keep_vba=True)
    for name in ("ATTACK_ATTACKS", "ATTACK_TARGET_HP"):
        sheet, ref = next(iter(xlsx.defined_names[name].destinations))
        assert xlsx[sheet][ref.replace("$", "")].protection.locked is False
    assert xlsx["Attack calculator"]._charts
    assert xlsx[d20_cells.DAMAGE_SHEET].sheet_state == "hidden"
    assert xlsx[odds_sheet.ODDS_SHEET].sheet_state == "visible"
    for name in ODDS_NAMES:
        sheet, ref = next(iter(xlsm.defined_names[name].destinations))
        assert "osr_" in xlsm[sheet][ref.replace("$", "")].value, name
