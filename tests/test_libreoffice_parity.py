"""The generated .xlsx recalculated in real LibreOffice equals the Python engine, input for input.

Scenarios cover every band edge of every table the calculators read (critical/grievous, automatic
results, stun table and its size/HP adjustments, wound tiers, casting time), every ruling choice,
and randomly drawn situations from the pickers.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from pycalc.errors import RuleError
from pycalc.rulesets import spelljammer as engine
from pycalc.rulesets.spelljammer_calculator import CHOICE_PICKERS, TOGGLE_PICKERS, StrikeInputs, outputs
from pycalc.sheets.common import ruling_name
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet, load_ruleset
from tests.parity import same

STRIKE_OUTPUTS = list(
    outputs(load_ruleset("spelljammer"), StrikeInputs(sc=1, defense=1, con=1, hp=1, start_hp=1, roll=1))
)
DEFENSE_OUTPUTS = [
    "DEFENDING_DEF_BONUS",
    "FULL_DEFENSE_DEF",
    "DESPERATE_DEFENSE_DEF",
    "CAST_SEGMENTS",
    "CAST_GOES_OFF",
    "SHOOT_TOTAL",
    "SHOOT_TARGET",
]
RULING_FLIPS = {
    "stun_above_table": "cap",
    "half_def_rounding": "up",
    "stun_damage_basis": "rolled",
    "late_spell": "lost",
}


def strike_cells(rules: RuleSet, inputs: StrikeInputs) -> dict[str, object]:
    cells: dict[str, object] = {
        "STRIKE_SC": inputs.sc,
        "STRIKE_DEF": inputs.defense,
        "TARGET_CON": inputs.con,
        "TARGET_HP": inputs.hp,
        "TARGET_START_HP": inputs.start_hp,
        "STRIKE_MODS": inputs.mods,
        "STRIKE_ROLL": inputs.roll,
        "STRIKE_DAMAGE": inputs.damage,
        "STRIKE_PROT": inputs.prot,
        "TARGET_SIZE": inputs.size,
        "TARGET_MAX_HP": inputs.max_hp,
        "STRIKE_DICE": inputs.dice,
        "STRIKE_ATTACKS": inputs.attacks,
        "TARGET_MAGIC_DEF": inputs.magic_def,
        "STRIKE_ATTACKERS": inputs.attackers,
    }
    for table_id in CHOICE_PICKERS:
        cells[pick_name(table_id)] = inputs.choices.get(table_id, str(rules.table(table_id).rows[0].label))
    for table_id in TOGGLE_PICKERS:
        for row in rules.table(table_id).rows:
            cells[pick_name(table_id, row.id)] = (table_id, row.id) in inputs.toggles
    for ruling_id in rules.rulings:
        cells[ruling_name(ruling_id)] = rules.ruling(ruling_id)
    return cells


def strike_scenarios(rules: RuleSet) -> list[tuple[RuleSet, StrikeInputs]]:
    base = dict(con=14, hp=30, start_hp=30, damage=12, prot=3)
    found: list[tuple[RuleSet, StrikeInputs]] = []
    # every edge of the critical/grievous bands, below the table and far above it
    edges = {-5, 0}
    for row in rules.table("critical_grievous").rows:
        edges |= {row.low, (row.high or 200)}
    rolls_for = lambda m: sorted({0, 1, 2, 3, 4, 95, 96, 100} | {max(1, min(100, r)) for r in (m, m + 1)})  # noqa: E731
    for modified in sorted(edges):
        crit, grievous = engine.critical_max(rules, modified), engine.grievous_max(rules, modified)
        for roll in sorted(
            set(rolls_for(modified)) | {max(1, crit), crit + 1, max(1, grievous), grievous + 1}
        ):
            found.append((rules, StrikeInputs(sc=modified + 40, defense=40, roll=roll, **base)))
    # stun: around human max, across the table, above it, with sizes and hit points
    for con in (9, 24, 25, 26, 30, 35, 36, 41):
        for size, max_hp in (("Medium", 0), ("Large", 100), ("Giant", 101), ("Tiny", 111), ("Small", 230)):
            for damage in (con, con + 1, 2 * con - 20):
                found.append(
                    (
                        rules,
                        StrikeInputs(
                            sc=100,
                            defense=40,
                            roll=50,
                            con=con,
                            size=size,
                            max_hp=max_hp,
                            damage=damage,
                            prot=1,
                            hp=40,
                            start_hp=40,
                        ),
                    )
                )
    # wound tiers with the starting-hp exception
    for start in (40, 18, 8, 4):
        for hp in (25, 21, 20, 11, 10, 6, 5, 1, 0):
            if hp <= start:
                found.append((rules, StrikeInputs(sc=90, defense=30, roll=97, con=12, hp=hp, start_hp=start)))
    # no roll yet
    found.append((rules, StrikeInputs(sc=112, defense=40, con=14, hp=30, start_hp=30)))
    # random situations from every picker, and every ruling flipped
    chance = random.Random(20261122)
    for index in range(140):
        choices = {t: str(chance.choice(rules.table(t).rows).label) for t in CHOICE_PICKERS}
        toggles = frozenset(
            (t, r.id) for t in TOGGLE_PICKERS for r in rules.table(t).rows if chance.random() < 0.3
        )
        flipped = dataclasses.replace(rules, chosen=RULING_FLIPS) if index % 4 == 0 else rules
        found.append(
            (
                flipped,
                StrikeInputs(
                    sc=chance.randint(20, 180),
                    defense=chance.randint(-5, 90),
                    mods=chance.randint(-30, 30),
                    roll=chance.randint(1, 100),
                    damage=chance.randint(0, 40),
                    prot=chance.randint(0, 8),
                    con=chance.randint(5, 45),
                    size=chance.choice(["Tiny", "Small", "Medium", "Large", "Giant"]),
                    max_hp=chance.choice([0, 40, 100, 101, 155]),
                    hp=chance.randint(-3, 60),
                    start_hp=chance.randint(1, 60),
                    magic_def=chance.randint(0, 20),
                    dice=chance.choice(["1d8+4", "2d6", "d4", "3d6-2", "1d12+5", "8d6", "1d2", "8d12"]),
                    attacks=chance.randint(1, 3),
                    attackers=chance.randint(1, 5),
                    choices=choices,
                    toggles=toggles,
                ),
            )
        )
    return found


def engine_value(function, *args) -> object:
    try:
        return function(*args)
    except RuleError as error:
        return str(error)


def defense_scenarios(rules: RuleSet) -> list[tuple[RuleSet, dict[str, object], dict[str, object]]]:
    found = []
    chance = random.Random(7)
    cast_edges = sorted(
        {0, 23} | {b for row in rules.table("mage_casting_time").rows for b in (row.low, row.high)}
    )
    situations = rules.table("shooting_into_melee").rows
    trainings = [str(r.label) for r in rules.table("shooter_training").rows]
    for index in range(120):
        current = dataclasses.replace(rules, chosen=RULING_FLIPS) if index % 3 == 0 else rules
        rank = index % 12 if index < 60 else chance.randint(0, 20)
        sacrificed = chance.choice([0, rank * 5, rank * 5 + 1, max(0, rank * 5 - 1), chance.randint(0, 60)])
        cast_rank = cast_edges[index % len(cast_edges)]
        kind = ("GK", "SK")[index % 2]
        initiative = chance.randint(-3, 12)
        situation = situations[index % len(situations)]
        training = trainings[index % len(trainings)]
        roll, weapon_rank, master = (
            chance.choice([0, 1, 3, 5, 6, chance.randint(1, 100)]),  # 0: 00 on the d100
            chance.randint(0, 10),
            chance.randint(0, 3),
        )
        cast_time = engine_value(engine.cast_time, current, cast_rank, kind)
        cells = {
            "DEFENSE_DEF": 30 + index,
            "DEFENSE_RANK": rank,
            "DEFENSE_SC_SACRIFICED": sacrificed,
            "CAST_RANK": cast_rank,
            "CAST_KIND": kind,
            "CAST_INITIATIVE": initiative,
            "SHOOT_ROLL": roll,
            "SHOOT_WEAPON_RANK": weapon_rank,
            "SHOOT_MASTER_RANK": master,
            "SHOOT_TRAINING": training,
            "SHOOT_SITUATION": str(situation.label),
            **{ruling_name(r): current.ruling(r) for r in current.rulings},
        }
        expected = {
            "DEFENDING_DEF_BONUS": engine_value(engine.defending_bonus, current, sacrificed, rank),
            "FULL_DEFENSE_DEF": engine.full_defense(current, 30 + index, rank),
            "DESPERATE_DEFENSE_DEF": engine.desperate_defense(current, 30 + index, rank),
            "CAST_SEGMENTS": cast_time,
            "CAST_GOES_OFF": cast_time
            if isinstance(cast_time, str)
            else engine.spell_goes_off(current, initiative, cast_time),
            "SHOOT_TOTAL": engine.shooting_total(current, roll, weapon_rank, master, training),
            "SHOOT_TARGET": "Friend"
            if engine.targets_friend(
                current, roll, weapon_rank, master, training, situation["friends"], situation["opponents"]
            )
            else "Foe",
        }
        found.append((current, cells, expected))
    return found


def test_strike_calculator_equals_the_engine(calc, built: Path, spelljammer: RuleSet):
    scenarios = strike_scenarios(spelljammer)
    assert len(scenarios) >= 300
    cells = [strike_cells(rules, inputs) for rules, inputs in scenarios]
    results = calc.evaluate(built / "spelljammer.xlsx", cells, STRIKE_OUTPUTS)
    mismatches = []
    for (rules, inputs), got in zip(scenarios, results, strict=True):
        expected = outputs(rules, inputs)
        for name in STRIKE_OUTPUTS:
            if not same(expected[name], got[name]):
                mismatches.append(
                    f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {inputs} {dict(rules.chosen)}"
                )
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


def test_defense_and_casting_equal_the_engine(calc, built: Path, spelljammer: RuleSet):
    scenarios = defense_scenarios(spelljammer)
    results = calc.evaluate(built / "spelljammer.xlsx", [cells for _, cells, _ in scenarios], DEFENSE_OUTPUTS)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells}"
        for (_, cells, expected), got in zip(scenarios, results, strict=True)
        for name in DEFENSE_OUTPUTS
        if not same(expected[name], got[name])
    ]
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


@pytest.mark.parametrize(
    "roll, expected", [(9, "Critical"), (4, "Grievous"), (72, "Hit"), (73, "Miss"), (96, "Miss")]
)
def test_the_seed_example_in_the_workbook(calc, built: Path, roll: int, expected: str):
    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [{"STRIKE_SC": 112, "STRIKE_DEF": 40, "STRIKE_ROLL": roll}],
        ["STRIKE_MODIFIED_SC", "STRIKE_OUTCOME"],
    )[0]
    assert got == {"STRIKE_MODIFIED_SC": 72.0, "STRIKE_OUTCOME": expected}


def test_with_every_modifier_at_its_default_outputs_depend_on_the_named_inputs_alone(calc, built: Path):
    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [
            {
                "STRIKE_SC": 80,
                "STRIKE_DEF": 25,
                "STRIKE_MODS": 5,
                "STRIKE_ROLL": 5,
                "STRIKE_DAMAGE": 10,
                "STRIKE_PROT": 4,
                "TARGET_CON": 30,
                "TARGET_SIZE": "Giant",
                "TARGET_MAX_HP": 120,
                "TARGET_HP": 12,
                "TARGET_START_HP": 50,
            }
        ],
        [
            "STRIKE_MODIFIED_SC",
            "STRIKE_OUTCOME",
            "STRIKE_HP_LOST",
            "TARGET_STUNNED",
            "TARGET_WOUND_MOD",
            "STRIKE_SUMMARY",
        ],
    )[0]
    # 80 - 25 + 5 = 60: 05 is a critical there (01-09; grievous 01-03); CON 30 + 4 + 2 = 36 -> 47
    assert got == {
        "STRIKE_MODIFIED_SC": 60.0,
        "STRIKE_OUTCOME": "Critical",
        "STRIKE_HP_LOST": 20.0,
        "TARGET_STUNNED": 0.0,
        "TARGET_WOUND_MOD": -10.0,
        "STRIKE_SUMMARY": "Critical: Double damage, no PROT, 20 HP lost",
    }


def test_dice_beyond_the_sheet_grid_say_so_in_the_sheet_and_the_udf(calc, built: Path):
    from pycalc import udfs

    got = calc.evaluate(
        built / "spelljammer.xlsx",
        [{"STRIKE_DICE": "12d6"}, {"STRIKE_DICE": "axe"}],
        ["STRIKE_EXPECTED_DAMAGE", "STRIKE_CHANCE_TO_HIT"],
    )
    for row in got:
        assert row["STRIKE_EXPECTED_DAMAGE"].startswith("#DICE? NdS+M with up to 8 dice of up to 12 sides")
        assert row["STRIKE_CHANCE_TO_HIT"] == 0.72
    # 12d6 never rolls under PROT 3: plain hits 0.61 x (42 - 3), criticals and grievous 0.11 x 2 x 42
    assert udfs.expected_damage(112.0, 40.0, "12d6", 3.0).startswith("#DICE? dice for the odds: up to 8 dice")
