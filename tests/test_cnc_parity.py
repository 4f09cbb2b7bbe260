"""The generated cnc.xlsx recalculated in real LibreOffice equals the engine, input for input: its
Attack calculator (the generic writer's) the generic engine (``pycalc.resolution_calculator``), its
other calculators cnc's own modules.

Scenarios: every natural roll against needs from below 1 to above 20, the natural-roll house rules
switched on, every picker row and random picker situations with every ruling flipped (the prone rows
stacking and replaced by a ranged attack's row), every range band edge, the damage dice forms, and
every band edge of the falling, hit point, range, movement, charge, subdual, disarm, grapple and
touch calculators.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from pycalc import dice as dice_module
from pycalc.errors import RuleError
from pycalc.hit_point_states import hit_point_state
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.resolution_situation import picker_tables
from pycalc.rulesets import cnc_falling, cnc_movement, cnc_special_ac, cnc_subdual
from pycalc.sheets.cnc_movement import MOVE_ACTIONS
from pycalc.sheets.common import ruling_name
from pycalc.sheets.workbook import build_workbook
from pycalc.tables import RuleSet, load_ruleset
from tests.parity import every_pick, same, wrong_notes
from tests.test_generic_parity import mismatches

RULES = load_ruleset("cnc")
CHOICE_PICKERS, TOGGLE_PICKERS = picker_tables(RULES, "choice"), picker_tables(RULES, "toggle")
FLIPS = {ruling_id: list(r.choices) for ruling_id, r in RULES.rulings.items()}
DICE_FORMS = ["1d8", "d6", "1d8+2", "2d4+2", "1d6-1", "1D10 + 3", "1d4-3", "", "abc", "1d8+0", "2x6", "d"]
RANGED, MELEE = "Ranged, thrown weapon (javelin, dagger, spear)", "Melee (armed)"
PRONE = "Defender prone or blind"
DEFENSELESS = "Defender prone and defenseless (e.g. held by a grapple)"
RANGED_VS_PRONE = frozenset({("situational_modifiers", "ranged_vs_prone_or_in_melee")})


@pytest.fixture(scope="module")
def xlsx(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset("cnc") / "cnc.xlsx"


def with_rulings(rules: RuleSet, chosen: dict[str, str]) -> RuleSet:
    return dataclasses.replace(rules, chosen=chosen)


def every_ruling(chosen: dict[str, str] | None = None) -> dict[str, str]:
    """Every ruling: ``chosen`` flipped, the rest at their defaults (typed cells stay for the next case)."""
    return {r: (chosen or {}).get(r, RULES.ruling(r)) for r in RULES.rulings}


def with_natural(rules: RuleSet, entry_id: str, column: str) -> RuleSet:
    """The ruleset with one natural-roll box ticked (a house rule), for the sheet and the engine."""
    table = rules.table("natural_rolls")
    rows = tuple(
        dataclasses.replace(r, values={**r.values, column: True}) if r.id == entry_id else r
        for r in table.rows
    )
    tables = {**rules.tables, "natural_rolls": dataclasses.replace(table, rows=rows)}
    return dataclasses.replace(rules, tables=tables)


def ruling_cells(rules: RuleSet) -> dict[str, object]:
    return {ruling_name(r): rules.ruling(r) for r in rules.rulings}


def dex(defender: int, attacker: int) -> dict[str, int]:
    return {"defender_dex": defender, "attacker_dex": attacker}


def attack_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    found: list[tuple[CalculatorInputs, dict[str, str]]] = []
    # every natural roll against needs from far below 1 to far above 20
    for need in (-5, 0, 1, 2, 10, 19, 20, 21, 22, 30):
        for roll in (1, 2, 10, 19, 20):
            found.append(CalculatorInputs(bonus=5, target=need + 5, roll=roll, dice="1d8+1", damage_roll=4))
    # rolls outside the die, and no roll yet; the AC floor of 1
    found += [CalculatorInputs(bonus=3, target=15, roll=roll) for roll in (0, 21, None)]
    found += [CalculatorInputs(bonus=0, target=target, roll=1, dice="1d4") for target in (-3, 0, 1, 2)]
    # every damage form, on a hit and on a miss; a damage roll off the dice, none yet
    for index, dice in enumerate(DICE_FORMS):
        for roll in (20, 1):
            found.append(CalculatorInputs(bonus=0, target=11, roll=roll, dice=dice, damage_roll=index % 5))
    found += [CalculatorInputs(bonus=0, target=11, roll=20, dice="1d6", damage_roll=r) for r in (None, 0, 7)]
    # every row of every choice picker, every toggle alone on a melee and a ranged attack
    for table_id in CHOICE_PICKERS:
        for row in RULES.table(table_id).rows:
            for roll in (8, 15):
                found.append(
                    CalculatorInputs(
                        bonus=4,
                        target=16,
                        roll=roll,
                        dice="1d6+1",
                        damage_roll=3,
                        numbers=dex(2, 1),
                        choices={table_id: str(row.label)},
                    )
                )
    for table_id in TOGGLE_PICKERS:
        for row in RULES.table(table_id).rows:
            for kind in (MELEE, "Ranged, propelled weapon (crossbow, sling)"):
                found.append(
                    CalculatorInputs(
                        bonus=4,
                        target=16,
                        roll=12,
                        dice="1d6",
                        damage_roll=2,
                        numbers=dex(-1, 0),
                        choices={"attack_types": kind},
                        toggles=frozenset({(table_id, row.id)}),
                    )
                )
    # the range band: every band edge, out of range, a bad increment or distance, a melee kind, one empty
    for increment, distance in ((30, 0), (30, 30), (30, 31), (30, 60), (30, 61), (30, 90), (30, 91),
                                (0, 10), (-5, 10), (30, -1), (None, 50), (30, None)):  # fmt: skip
        for kind in (RANGED, MELEE):
            for roll in (None, 14):
                found.append(
                    CalculatorInputs(
                        bonus=3,
                        target=15,
                        roll=roll,
                        dice="1d6",
                        damage_roll=4,
                        range_increment=increment,
                        distance=distance,
                        choices={"attack_types": kind},
                    )
                )
    return [(inputs, every_ruling()) for inputs in found]


def prone_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """The prone rows under both rulings: stacking (prone_modifiers_stack) and a ranged attack's row
    replacing them (ranged_vs_prone), on a melee and a ranged attack, the row ticked or not."""
    found = []
    for stack in FLIPS["prone_modifiers_stack"]:
        for ranged_rule in FLIPS["ranged_vs_prone"]:
            for prone in (PRONE, DEFENSELESS, "Neither"):
                for kind in (RANGED, MELEE):
                    for toggles in (frozenset(), RANGED_VS_PRONE):
                        inputs = CalculatorInputs(
                            bonus=2,
                            target=18,
                            roll=9,
                            dice="1d6",
                            damage_roll=3,
                            choices={"defender_prone": prone, "attack_types": kind},
                            toggles=toggles,
                        )
                        chosen = {"prone_modifiers_stack": stack, "ranged_vs_prone": ranged_rule}
                        found.append((inputs, every_ruling(chosen)))
    return found


def random_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    chance = random.Random(20240501)
    found = []
    for _ in range(220):
        choices = {t: str(chance.choice(RULES.table(t).rows).label) for t in CHOICE_PICKERS}
        toggles = frozenset(
            (t, r.id) for t in TOGGLE_PICKERS for r in RULES.table(t).rows if chance.random() < 0.3
        )
        inputs = CalculatorInputs(
            bonus=chance.randint(-3, 15),
            target=chance.randint(-2, 30),
            mods=chance.randint(-6, 6),
            roll=chance.choice([1, 20, chance.randint(1, 20)]),
            dice=chance.choice(DICE_FORMS[:7]),
            damage_roll=chance.choice([None, chance.randint(1, 6)]),
            numbers=dex(chance.randint(-2, 4), chance.randint(-2, 4)),
            range_increment=chance.choice([None, 10, 30, 50]),
            distance=chance.choice([None, chance.randint(0, 200)]),
            hp=chance.randint(-3, 12),
            choices=choices,
            toggles=toggles,
        )
        found.append((inputs, {r: chance.choice(c) for r, c in FLIPS.items()}))
    return found


def test_attack_calculator_equals_the_engine(calc, xlsx: Path):
    cases = attack_scenarios() + prone_scenarios() + random_scenarios()
    assert len(cases) >= 400
    found = mismatches(calc, RULES, xlsx, [i for i, _ in cases], [flip for _, flip in cases])
    assert not found, f"{len(found)} mismatches, first: " + "\n".join(found[:5])


def test_the_sheet_follows_a_natural_roll_house_rule(calc, tmp_path: Path):
    """Tick a natural-roll box in the table (a house rule): the built sheet and the engine both follow it."""
    cases = 0
    for entry_id in ("natural_1", "natural_20"):
        for column in ("auto_hit", "auto_miss"):
            rules = with_natural(RULES, entry_id, column)
            path = tmp_path / f"{entry_id}_{column}.xlsx"
            build_workbook(rules).save(path)
            inputs = [
                CalculatorInputs(bonus=0, target=need, roll=roll)
                for need in (30, -5, 10)
                for roll in (1, 10, 20)
            ]
            found = mismatches(calc, rules, path, inputs)
            assert not found, found[:3]
            cases += len(inputs)
    # the house rules do decide: a natural 20 that always hits hits AC 30 with no bonus
    house = with_natural(RULES, "natural_20", "auto_hit")
    assert attack_outputs(house, CalculatorInputs(bonus=0, target=30, roll=20))["ATTACK_RESULT"] == "Hit"
    assert cases == 36


def test_with_every_picker_at_its_default_attack_depends_on_the_named_inputs_alone(calc, xlsx: Path):
    chance = random.Random(5)
    scenarios = [
        {
            "ATTACK_BONUS": chance.randint(-3, 12),
            "ATTACK_TARGET": chance.randint(1, 28),
            "ATTACK_MODS": chance.randint(-4, 4),
            "ATTACK_ROLL": chance.randint(1, 20),
            "ATTACK_DICE": chance.choice(["1d8", "1d6+2", "2d4-1"]),
            "ATTACK_DAMAGE_ROLL": chance.randint(2, 6),  # on every dice below
        }
        for _ in range(40)
    ]
    outputs = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE"]
    results = calc.evaluate(xlsx, scenarios, outputs)
    for cells, got in zip(scenarios, results, strict=True):
        need = cells["ATTACK_TARGET"] - cells["ATTACK_BONUS"] - cells["ATTACK_MODS"]
        hit = cells["ATTACK_ROLL"] >= need
        modifier = dice_module.parse(cells["ATTACK_DICE"]).modifier
        assert got == {
            "ATTACK_NEED": float(need),
            "ATTACK_RESULT": "Hit" if hit else "Miss",
            "ATTACK_DAMAGE": float(max(0, cells["ATTACK_DAMAGE_ROLL"] + modifier)) if hit else 0.0,
            "ATTACK_HIT_CHANCE": pytest.approx(max(0, min(20, 21 - need)) / 20, abs=1e-12),
        }, cells


# --------------------------------------------------------------------------- other calculators


def engine(function: Callable[..., object], *args: object) -> object:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)


def other_expected(rules: RuleSet, c: dict[str, object]) -> dict[str, object]:
    feet, hp = c["FALL_FEET"], c["HP_NOW"]
    fall = engine(cnc_falling.falling, rules, feet)
    kind = str(c["GRAPPLE_KIND"])
    defender = cnc_special_ac.Defender(
        bool(c["GRAPPLE_STR_PRIME"]),
        c["GRAPPLE_STR"],
        c["GRAPPLE_DEX"],
        c["GRAPPLE_BTH"],
        c["GRAPPLE_NORMAL_AC"],
    )
    rate, reduction = c["MOVE_RATE"], Fraction(str(c["MOVE_REDUCTION"]))
    now = engine(cnc_movement.reduced_rate, rules, rate, reduction)
    moves = {
        f"MOVE_{a.upper()}": now if isinstance(now, str) else cnc_movement.action_move(rules, now, a)
        for a in MOVE_ACTIONS
    }
    window = engine(cnc_movement.charge_window, rules, c["CHARGE_RATE"])
    total = engine(cnc_subdual.subdual_total, rules, c["SUBDUAL_DAMAGE"])
    normal = engine(cnc_subdual.subdual_normal, rules, c["SUBDUAL_DAMAGE"])
    state = rules.table("hit_point_states").band(hp)
    return {
        "FALL_DICE": fall if isinstance(fall, str) else fall.dice,
        "FALL_DEX_CHECK": fall if isinstance(fall, str) else fall.dex_check,
        "HP_STATE_NOW": hit_point_state(rules, hp),
        "HP_CAN_ACT": state["can_act"],
        "HP_LOSS_PER_ROUND": state["hp_loss_per_round"],
        "DISARM_AC": engine(cnc_special_ac.disarm_ac, rules, c["DISARM_LEVEL"], c["DISARM_DEX"]),
        "GRAPPLE_AC": engine(cnc_special_ac.grapple_ac, rules, kind, defender, c["GRAPPLE_SIZE_DIFF"]),
        "GRAPPLE_ALLOWED": engine(cnc_special_ac.grapple_allowed, rules, kind, c["GRAPPLE_SIZE_DIFF"]),
        "GRAPPLE_ROLL_BONUS": engine(
            cnc_special_ac.grapple_roll_bonus,
            rules,
            kind,
            c["GRAPPLE_ATTACKER_STR"],
            c["GRAPPLE_ATTACKER_BTH"],
        ),
        "TOUCH_AC": cnc_special_ac.touch_ac(
            rules,
            c["TOUCH_DEX"],
            bool(c["TOUCH_MONSTER"]),
            c["TOUCH_MAGIC"],
            c["TOUCH_ARMOR"],
            c["TOUCH_SHIELD"],
        ),
        "MOVE_RATE_NOW": now,
        **moves,
        "MOVE_SQUARES": now if isinstance(now, str) else cnc_movement.grid_squares(rules, now),
        "CHARGE_MIN": window if isinstance(window, str) else window[0],
        "CHARGE_MAX": window if isinstance(window, str) else window[1],
        "CHARGE_OK": engine(cnc_movement.charge_verdict, rules, c["CHARGE_RATE"], c["CHARGE_DISTANCE"]),
        "SUBDUAL_TOTAL": total,
        "SUBDUAL_NORMAL": normal,
        "SUBDUAL_TEMPORARY": total if isinstance(total, str) else total - normal,
        "SUBDUAL_HEAL_MINUTES": total
        if isinstance(total, str)
        else (total - normal) * rules.constant("subdual_damage", "subdual_heal_minutes_per_hp"),
    }


OTHER_OUTPUTS = list(other_expected(RULES, {
    "FALL_FEET": 1, "HP_NOW": 1, "GRAPPLE_KIND": "Grapple", "GRAPPLE_STR_PRIME": False, "GRAPPLE_STR": 0,
    "GRAPPLE_DEX": 0, "GRAPPLE_BTH": 0, "GRAPPLE_NORMAL_AC": 0, "GRAPPLE_SIZE_DIFF": 0, "GRAPPLE_ATTACKER_STR": 0,
    "GRAPPLE_ATTACKER_BTH": 0, "MOVE_RATE": 30, "MOVE_REDUCTION": 0, "CHARGE_RATE": 30, "CHARGE_DISTANCE": 30,
    "SUBDUAL_DAMAGE": 1, "DISARM_LEVEL": 1, "DISARM_DEX": 0,
    "TOUCH_DEX": 0, "TOUCH_MONSTER": False, "TOUCH_MAGIC": 0, "TOUCH_ARMOR": 0, "TOUCH_SHIELD": 0,
}))  # fmt: skip


OTHER_RULINGS = (
    "falling_partial_increment",
    "falling_five_feet",
    "subdual_normal_split",
    "disarm_dex",
    "movement_reduction_limit",
    "grapple_ac_reading",
    "grapple_size_direction",
    "overbear_ac_modifiers",
    "overbear_attacker_bth",
)


def other_scenarios() -> list[tuple[RuleSet, dict[str, object]]]:
    chance = random.Random(99)
    fall_edges = [
        0,
        4,
        5,
        6,
        7,
        10,
        11,
        14,
        15,
        16,
        18,
        19,
        20,
        21,
        25,
        26,
        30,
        35,
        36,
        44,
        45,
        46,
        50,
        100,
        -1,
    ]
    hp_edges = [-30, -11, -10, -9, -8, -7, -6, -2, -1, 0, 1, 2, 50]
    move_cases = [(30, 0), (30, 0.5), (30, 0.75), (30, 0.8), (30, 1), (30, 0.3), (20, 0.9), (5, 0.5), (3, 0.5),
                  (1, 0), (12, 0.1), (40, 0.25), (40, 0.26), (0, 0), (30, 1.5), (30, -0.1), (7, 0.33)]  # fmt: skip
    charge_cases = [
        (30, 29),
        (30, 30),
        (30, 45),
        (30, 60),
        (30, 61),
        (25, 50),
        (25, 51),
        (1, 2),
        (0, 5),
        (30, -1),
    ]
    subdual = [0, 1, 4, 5, 6, 9, 10, 11, 14, 15, 16, 23, -1]
    # every choice of every ruling across every edge list, then random ruling mixes
    plan = [
        with_rulings(RULES, {ruling_id: choice})
        for ruling_id in OTHER_RULINGS
        for choice in FLIPS[ruling_id]
        for _ in range(len(fall_edges) if ruling_id.startswith("falling") else len(move_cases))
    ]
    plan += [with_rulings(RULES, {r: chance.choice(c) for r, c in FLIPS.items()}) for _ in range(80)]
    found = []
    for index, rules in enumerate(plan):
        rate, reduction = move_cases[index % len(move_cases)]
        charge_rate, distance = charge_cases[index % len(charge_cases)]
        cells: dict[str, object] = {
            "FALL_FEET": fall_edges[index % len(fall_edges)],
            "HP_NOW": hp_edges[index % len(hp_edges)],
            "DISARM_LEVEL": chance.choice([0, 1, 5, 12, -1]),
            "DISARM_DEX": chance.randint(-3, 3),
            "GRAPPLE_KIND": chance.choice(["Grapple", "Overbear", "Melee (armed)"]),
            "GRAPPLE_STR_PRIME": chance.random() < 0.5,
            "GRAPPLE_STR": chance.randint(-2, 3),
            "GRAPPLE_DEX": chance.randint(-2, 3),
            "GRAPPLE_BTH": chance.randint(0, 10),
            "GRAPPLE_SIZE_DIFF": chance.randint(-3, 3),
            "GRAPPLE_NORMAL_AC": chance.randint(-2, 22),
            "GRAPPLE_ATTACKER_STR": chance.randint(-2, 3),
            "GRAPPLE_ATTACKER_BTH": chance.randint(0, 8),
            "TOUCH_MONSTER": chance.random() < 0.4,
            "TOUCH_DEX": chance.randint(-12, 4),
            "TOUCH_MAGIC": chance.randint(0, 3),
            "TOUCH_ARMOR": chance.randint(0, 6),
            "TOUCH_SHIELD": chance.randint(0, 1),
            "MOVE_RATE": rate,
            "MOVE_REDUCTION": reduction,
            "CHARGE_RATE": charge_rate,
            "CHARGE_DISTANCE": distance,
            "SUBDUAL_DAMAGE": subdual[index % len(subdual)],
            **ruling_cells(rules),
        }
        found.append((rules, cells))
    return found


def test_other_calculators_equal_the_engine(calc, xlsx: Path):
    scenarios = other_scenarios()
    results = calc.evaluate(xlsx, [cells for _, cells in scenarios], OTHER_OUTPUTS)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells} {dict(rules.chosen)}"
        for (rules, cells), got in zip(scenarios, results, strict=True)
        for expected in [other_expected(rules, cells)]
        for name in OTHER_OUTPUTS
        if not same(expected[name], got[name])
    ]
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


def test_the_seed_examples_in_the_workbook(calc, xlsx: Path):
    got = calc.evaluate(
        xlsx,
        [
            {"FALL_FEET": 18, "DISARM_LEVEL": 5, "CHARGE_RATE": 30, "CHARGE_DISTANCE": 30},
            {"FALL_FEET": 45, "CHARGE_RATE": 30, "CHARGE_DISTANCE": 60},
        ],
        ["FALL_DICE", "DISARM_AC", "CHARGE_MIN", "CHARGE_MAX", "CHARGE_OK"],
    )
    assert got[0] == {
        "FALL_DICE": "3d6",
        "DISARM_AC": 23.0,
        "CHARGE_MIN": 30.0,
        "CHARGE_MAX": 60.0,
        "CHARGE_OK": "Yes",
    }
    assert got[1]["FALL_DICE"] == "10d6" and got[1]["CHARGE_OK"] == "Yes"


# --------------------------------------------------------------------------- the notes beside the picks


@pytest.mark.timeout(900)
def test_every_pick_note_says_what_the_calculator_applies(calc, xlsx: Path, tmp_path: Path):
    """cnc's notes are the generic writer's: for every pick, for a melee and a ranged attack, under the
    default rulings and the prone rows stacking, the note's to-hit, AC and damage are what picking it
    changes in the calculator (the typed Dex numbers at 0: what they add, their own note says)."""
    fixed = {"ATTACK_BONUS": 3, "ATTACK_TARGET": 15, "ATTACK_ROLL": 11, "ATTACK_DAMAGE_ROLL": 3}
    fixed |= {"ATTACK_NUMBER_DEFENDER_DEX": 0, "ATTACK_NUMBER_ATTACKER_DEX": 0}
    rulings = [every_ruling(), every_ruling({"prone_modifiers_stack": "cumulative"})]
    kinds = {"melee": MELEE, "ranged": RANGED}
    wrong, compared = wrong_notes(calc, RULES, xlsx, tmp_path, kinds, fixed, rulings)
    assert compared == 2 * 2 * len(every_pick(RULES, "attack_types"))
    assert not wrong, f"{len(wrong)} of {compared}:\n" + "\n".join(wrong[:10])
