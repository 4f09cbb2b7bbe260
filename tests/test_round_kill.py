"""The round's chance to drop the target (ATTACK_KILL_CHANCE_ROUND) of every generic d20 Attack
calculator: the engine's exact chance against an enumeration of the attacks by hand and against the
shared Excel function ``d20_kill_chance``; its messages; and the .xlsx's native convolution
(``pycalc.sheets.d20_round``) recalculated in LibreOffice over attacks 0 to 10 and hit points up to
200, with criticals, fumbles, ruled-out attacks, targets down already and every limit, equal to the
engine in every output of the calculator."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from pycalc import limits, resolution_odds
from pycalc.d20 import D20_RULESETS
from pycalc.grid_limits import BEYOND_GRID, MAX_DICE, MAX_SIDES
from pycalc.odds import ALREADY_DOWN, KILL, KILL_ROUND
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs, weighed
from pycalc.tables import RuleSet, load_folder, load_ruleset
from pycalc.udfs import shared
from tests.test_generic_parity import (
    FIXTURE,
    critical_bx,  # noqa: F401  (the fixture: confirmed criticals, level-checked fumbles)
    mismatches,
    random_inputs,
)

ATTACKS_SAID = f"#ATTACKS? 0 to {limits.ATTACKS}"
HP_SAID = f"#HP? up to {limits.HIT_POINTS}"
SWORD = CalculatorInputs(bonus=4, target=14, dice="1d8+1", hp=12, attacks=3)


def by_hand(one: dict[int, Fraction], attacks: int, hp: int) -> Fraction:
    """Every sequence of the attacks' amounts, weighed: the chance their total reaches ``hp``."""
    found = Fraction(0)
    for amounts in itertools.product(one.items(), repeat=attacks):
        if sum(amount for amount, _ in amounts) >= hp:
            chance = Fraction(1)
            for _, p in amounts:
                chance *= p
            found += chance
    return found


@pytest.mark.parametrize("ruleset_id", D20_RULESETS)
def test_the_round_s_chance_equals_every_sequence_of_attacks_by_hand(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    one = resolution_odds.damage_distribution(*weighed(rules, SWORD))
    assert len(one) > 2  # a miss and several amounts
    for attacks, hp in [(2, 9), (3, 12), (4, 30), (3, 1)]:
        found = attack_outputs(rules, replace(SWORD, attacks=attacks, hp=hp))[KILL_ROUND]
        assert found == by_hand(one, attacks, hp), (attacks, hp)
        assert 0 < found < 1


@pytest.mark.parametrize("ruleset_id", D20_RULESETS)
def test_the_round_s_chance_is_the_shared_function_s(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    chance = random.Random(ruleset_id)
    for _ in range(6):
        inputs = CalculatorInputs(
            bonus=chance.randint(0, 8),
            target=chance.randint(10, 20),
            dice=f"{chance.randint(1, 4)}d{chance.randint(2, 10)}",
            hp=chance.randint(1, limits.HIT_POINTS),
            attacks=chance.randint(0, limits.ATTACKS),
        )
        typed = (ruleset_id, float(inputs.bonus), float(inputs.target), inputs.dice, float(inputs.hp))
        found = attack_outputs(rules, inputs)[KILL_ROUND]
        assert shared.d20_kill_chance(*typed, float(inputs.attacks)) == pytest.approx(float(found), abs=1e-12)


def test_no_attack_one_attack_and_the_limits():
    rules = load_ruleset("cnc")
    cases = [
        replace(SWORD, attacks=0),
        replace(SWORD, attacks=1, hp=8),
        replace(SWORD, attacks=limits.ATTACKS + 1),
        replace(SWORD, attacks=-1),
        replace(SWORD, hp=limits.HIT_POINTS + 1),
        replace(SWORD, hp=limits.HIT_POINTS + 1, attacks=-1),  # the hit points are said first
        replace(SWORD, hp=0, attacks=-1),
        replace(SWORD, dice=f"{MAX_DICE + 1}d6"),
        replace(SWORD, dice="abc"),
    ]
    said = [attack_outputs(rules, inputs) for inputs in cases]
    rounds = [found[KILL_ROUND] for found in said]
    one_attack = said[1]
    assert rounds[:2] == [0, one_attack[KILL]] and 0 < one_attack[KILL] < 1
    assert rounds[2:7] == [ATTACKS_SAID, ATTACKS_SAID, HP_SAID, HP_SAID, ALREADY_DOWN]
    assert rounds[7] == BEYOND_GRID and rounds[8].startswith("#DICE?")


def test_a_ruled_out_attack_never_drops_the_target():
    rules = load_ruleset("bfrpg")
    defending = replace(SWORD, choices={"defense_stance": "Total (full) defense"})
    assert attack_outputs(rules, defending)[KILL_ROUND] == 0
    assert attack_outputs(rules, SWORD)[KILL_ROUND] > 0


# --------------------------------------------------------------------------- the workbooks


def round_cases(rules: RuleSet, count: int, seed: int) -> list[CalculatorInputs]:
    """The worst case first (the whole workbook's first recalculation is a full one), the limits, then
    random pickers, rolls and rulings' inputs with dice anywhere in the grid, 0 to 10 attacks and hit
    points from the target down already to past the limit."""
    chance = random.Random(seed)
    worst = CalculatorInputs(
        bonus=5, target=12, dice=f"{MAX_DICE}d{MAX_SIDES}", hp=limits.HIT_POINTS, attacks=limits.ATTACKS
    )
    found = [worst, replace(worst, hp=limits.HIT_POINTS + 1), replace(worst, attacks=limits.ATTACKS + 1)]
    found += [replace(worst, dice="2d6+1", hp=hp, attacks=0) for hp in (-2, 0, 7)]
    for _ in range(count):
        count_, sides = chance.randint(1, MAX_DICE), chance.randint(1, MAX_SIDES)
        mod = chance.randint(-3, 8)
        inputs = random_inputs(rules, chance)
        attacks = chance.choice([*range(limits.ATTACKS + 1), limits.ATTACKS, -1, limits.ATTACKS + 1])
        most = min(limits.HIT_POINTS, max(1, attacks * (count_ * sides + mod)))  # what the attacks can reach
        within = [chance.randint(1, 40), chance.randint(1, limits.HIT_POINTS), chance.randint(1, most)]
        edge = chance.random() < 0.2  # a target down already or past the limit; else one in reach
        found.append(
            replace(
                inputs,
                target=inputs.target if chance.random() < 0.3 else chance.randint(8, 20),
                dice=f"{count_}d{sides}{mod:+d}" if chance.random() < 0.8 else inputs.dice,
                attacks=attacks,
                hp=chance.choice([-3, 0, limits.HIT_POINTS + 1]) if edge else chance.choice(within),
            )
        )
    return found


def held(rules: RuleSet, cases: list[CalculatorInputs]) -> list[object]:
    """The engine's round chances of the cases: the parity below must meet each kind of answer."""
    return [attack_outputs(rules, inputs)[KILL_ROUND] for inputs in cases]


def covers_every_kind(rules: RuleSet, cases: list[CalculatorInputs]) -> None:
    rounds = held(rules, cases)
    several = [r for r, i in zip(rounds, cases, strict=True) if i.attacks >= 2 and isinstance(r, Fraction)]
    assert sum(0 < r < 1 for r in several) >= 5
    assert {ATTACKS_SAID, HP_SAID, ALREADY_DOWN} <= set(rounds)
    assert any(r == 0 and i.hp > 0 and i.attacks > 0 for r, i in zip(rounds, cases, strict=True))
    assert any(
        i.hp > 100 and i.attacks >= 5 and isinstance(r, Fraction) and 0 < r < 1
        for r, i in zip(rounds, cases, strict=True)
    )


@pytest.mark.parametrize("ruleset_id", D20_RULESETS)
def test_the_native_round_chance_equals_the_engine_in_libreoffice(
    calc, build_ruleset: Callable[[str], Path], ruleset_id: str
):
    rules = load_ruleset(ruleset_id)
    cases = round_cases(rules, 90, 20261201)
    covers_every_kind(rules, cases)
    found = mismatches(calc, rules, build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx", cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_the_yaml_only_ruleset_s_round_chance_equals_the_engine(calc, build_ruleset: Callable[[str], Path]):
    rules = load_folder(FIXTURE)
    cases = round_cases(rules, 60, 7)
    found = mismatches(calc, rules, build_ruleset(FIXTURE.name) / f"{FIXTURE.name}.xlsx", cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_confirmed_criticals_and_level_checked_fumbles_in_the_round(calc, critical_bx):  # noqa: F811
    rules, xlsx = critical_bx
    cases = round_cases(rules, 60, 11)
    found = mismatches(calc, rules, xlsx, cases)
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])
