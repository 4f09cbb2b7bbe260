"""The bfrpg .xlsx recalculated in real LibreOffice equals the engine, input for input: its Attack
calculator (the generic writer's) the generic engine (``pycalc.resolution_calculator``), its Combat
maneuvers (jousting, parry) bfrpg's own modules (surprise: tests/test_surprise.py).

Scenarios cover every natural-roll rule (natural 1, natural 20, confirmation rolls at their edges,
need <= 1, need = 20, need > 20), every attack kind's ability bonus (the better of STR and DEX, the
thrown weapon's by ruling), what rules an attack out, brawls with their own dice, near misses into a
melee, every band of the jousting table, every ruling choice, and randomly drawn picker situations.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.resolution_situation import picker_tables
from pycalc.rulesets import bfrpg_joust, bfrpg_parry
from pycalc.sheets.common import ruling_name
from pycalc.tables import RuleSet, load_ruleset
from tests.parity import every_pick, same, wrong_notes
from tests.test_generic_parity import mismatches

RULES = load_ruleset("bfrpg")
CHOICE_PICKERS, TOGGLE_PICKERS = picker_tables(RULES, "choice"), picker_tables(RULES, "toggle")
FLIPS = [
    {"only_natural_20_hits": "no_critical_past_20", "confirmation_natural_1": "total_only"},
    {"critical_damage": "normal_plus_max_plus_roll", "critical_with_double_damage": "double_roll_only"},
    {"subdual_half_rounding": "down", "two_weapon_dex": "off_hand_only", "thrown_attack_ability": "dex"},
    {
        "thrown_attack_ability": "better",
        "helpless_multipliers": "none",
        "joust_knockout_stun": "knockout_only",
    },
    {
        "joust_knockout_stun": "stun_after_waking",
        "block_tie": "full_damage",
        "parry_includes_str": "with_str",
    },
    {"block_magic_bonus": "weapon_or_shield", "critical_damage": "normal_plus_max_plus_roll"},
]
KINDS = [str(row.label) for row in RULES.table("attack_kinds").rows]


def with_rulings(chosen: dict[str, str]) -> RuleSet:
    return dataclasses.replace(RULES, chosen=chosen)


def ruling_cells(rules: RuleSet) -> dict[str, object]:
    return {ruling_name(r): rules.ruling(r) for r in rules.rulings}


def every_ruling(chosen: dict[str, str] | None = None) -> dict[str, str]:
    """Every ruling: ``chosen`` flipped, the rest at their defaults (typed cells stay for the next case)."""
    return {r: (chosen or {}).get(r, RULES.ruling(r)) for r in RULES.rulings}


def abilities(strength: int, dex: int) -> dict[str, int]:
    return {"attacker_str": strength, "attacker_dex": dex}


def natural_roll_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """Every need from far below 1 to far above 20, every roll edge and confirmation edge."""
    found = []
    for index, need in enumerate((-6, 0, 1, 2, 9, 18, 19, 20, 21, 22, 30)):
        flip = ({}, FLIPS[0], FLIPS[1])[index % 3]
        rolls = sorted({1, 2, 19, 20} | {min(20, max(1, n)) for n in (need - 1, need, need + 1)})
        for roll in rolls:
            follows: list[int | None] = [None]
            if roll == 20:
                follows += sorted({1, 2, 20} | {min(20, max(1, n)) for n in (need - 1, need, need + 1)})
            for follow in follows:
                inputs = CalculatorInputs(
                    bonus=4,
                    target=need + 4,
                    roll=roll,
                    follow_roll=follow,
                    dice="1d8+2",
                    damage_roll=(roll % 8) + 1,
                    extra_roll=3,
                )
                found.append((inputs, every_ruling(flip)))
    return found


def error_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    base = CalculatorInputs(bonus=3, target=14, dice="2d6+1", damage_roll=7)
    found = [
        dataclasses.replace(base, roll=None),
        dataclasses.replace(base, roll=0),
        dataclasses.replace(base, roll=21),
        dataclasses.replace(base, roll=20, follow_roll=0),
        dataclasses.replace(base, roll=20, follow_roll=21),
        dataclasses.replace(base, roll=15, damage_roll=1),
        dataclasses.replace(base, roll=15, damage_roll=13),
        dataclasses.replace(base, roll=15, damage_roll=12),
        dataclasses.replace(base, roll=15, damage_roll=None),
        dataclasses.replace(base, roll=15, dice="abc"),
        dataclasses.replace(base, roll=15, dice="1d8-3", damage_roll=1),
        dataclasses.replace(base, roll=3, dice="abc"),
    ]
    critical = [
        dataclasses.replace(base, roll=20, follow_roll=15, extra_roll=extra) for extra in (None, 1, 12)
    ]
    return [(one, every_ruling()) for one in found] + [(one, every_ruling(FLIPS[1])) for one in critical]


def kind_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """Every attack kind with STR above DEX and below it, the thrown weapon under each ruling, two
    weapons with the DEX bonus reducing the penalty; every brawl, with and without STR."""
    found = []
    for ruling in ("str", "dex", "better"):
        for kind in KINDS:
            for numbers in (abilities(3, 1), abilities(-1, 2)):
                for weapons in ("One weapon (or a shield)", None):
                    choices = {"attack_kinds": kind}
                    if weapons is None:
                        choices["two_weapon_fighting"] = str(RULES.table("two_weapon_fighting").rows[1].label)
                    inputs = CalculatorInputs(
                        bonus=2,
                        target=15,
                        roll=12,
                        dice="1d6",
                        damage_roll=3,
                        numbers=numbers,
                        choices=choices,
                    )
                    found.append((inputs, every_ruling({"thrown_attack_ability": ruling})))
    for row in RULES.table("unarmed_attacks").rows:
        for numbers in (abilities(2, 0), abilities(-1, 0)):
            inputs = CalculatorInputs(
                bonus=2,
                target=12,
                roll=14,
                dice="1d8+2",
                damage_roll=3,
                numbers=numbers,
                choices={"unarmed_attacks": str(row.label)},
            )
            found.append((inputs, every_ruling()))
    return found


def stray_scenarios() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """Shots into melee missing by 0 to 5, with and without the -4, and at a Large target."""
    found = []
    for shot in RULES.table("firing_into_melee").rows:
        for kind in ("missile", "melee"):
            choices = {
                "firing_into_melee": str(shot.label),
                "attack_kinds": str(RULES.table("attack_kinds").entry(kind).label),
            }
            need = int(attack_outputs(RULES, CalculatorInputs(3, 15, choices=choices))["ATTACK_NEED"])  # type: ignore[call-overload]
            for margin in range(-1, 6):
                roll = min(20, max(1, need - margin))
                inputs = CalculatorInputs(3, 15, roll=roll, dice="1d6", damage_roll=4, choices=choices)
                found.append((inputs, every_ruling()))
    return found


def picker_scenarios(count: int, seed: int) -> list[tuple[CalculatorInputs, dict[str, str]]]:
    chance = random.Random(seed)
    found = []
    for index in range(count):
        choices = {}
        for table_id in CHOICE_PICKERS:
            rows = RULES.table(table_id).rows
            # mostly the default, so that the rows ruling the attack out do not swamp everything else
            row = chance.choice(rows) if chance.random() < 0.45 else rows[0]
            choices[table_id] = str(row.label)
        toggles = frozenset(
            (t, r.id) for t in TOGGLE_PICKERS for r in RULES.table(t).rows if chance.random() < 0.15
        )
        flip = FLIPS[index % len(FLIPS)] if index % 2 else {}
        sides = chance.choice([4, 6, 8, 10, 12])
        number = chance.choice([1, 1, 2])
        modifier = chance.randint(-2, 4)
        dice = f"{number}d{sides}{modifier:+d}" if modifier else f"{number}d{sides}"
        roll = chance.choice([1, 2, 19, 20, 20, chance.randint(1, 20)])
        inputs = CalculatorInputs(
            bonus=chance.randint(-2, 12),
            target=chance.randint(8, 24),
            mods=chance.randint(-3, 3),
            roll=roll,
            follow_roll=chance.choice([None, 1, 20, chance.randint(1, 20)]) if roll >= 19 else None,
            dice=dice,
            damage_roll=chance.choice([None, chance.randint(number, number * sides)]),
            extra_roll=chance.randint(number, number * sides),
            hp=chance.randint(-3, 14),
            numbers=abilities(chance.randint(-2, 3), chance.randint(-2, 3)),
            choices=choices,
            toggles=toggles,
        )
        found.append((inputs, every_ruling(flip)))
    return found


@pytest.fixture(scope="module")
def xlsx(build_ruleset) -> Path:
    return build_ruleset("bfrpg") / "bfrpg.xlsx"


def test_attack_calculator_equals_the_engine(calc, xlsx: Path):
    cases = (
        natural_roll_scenarios()
        + error_scenarios()
        + kind_scenarios()
        + stray_scenarios()
        + picker_scenarios(260, 4004)
    )
    assert len(cases) >= 450
    found = mismatches(calc, RULES, xlsx, [i for i, _ in cases], [flip for _, flip in cases])
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:6])


def outputs_of(cases: list[tuple[CalculatorInputs, dict[str, str]]], name: str) -> list[object]:
    return [attack_outputs(dataclasses.replace(RULES, chosen=flip), inputs)[name] for inputs, flip in cases]


def test_every_rule_of_the_attack_is_exercised():
    """The scenarios reach every natural-roll rule, what rules an attack out, a near miss hitting the
    ally, a brawl's own dice and the better of STR and DEX."""
    results = set(outputs_of(natural_roll_scenarios(), "ATTACK_RESULT"))
    assert {"Hit", "Miss", "Critical"} <= results
    summaries = " ".join(str(s) for s in outputs_of(natural_roll_scenarios(), "ATTACK_SUMMARY"))
    assert "type the follow-up roll" in summaries and "(follow-up roll " in summaries
    picked = picker_scenarios(260, 4004)
    stopped = {str(r) for r in outputs_of(picked, "ATTACK_RESULT") if str(r).startswith("#NO ATTACK")}
    assert {"#NO ATTACK? Total (full) defense", "#NO ATTACK? Shortbow or longbow"} <= stopped
    near = [str(e) for e in outputs_of(stray_scenarios(), "ATTACK_EFFECT") if str(e).startswith("missed by")]
    assert {e.split(":")[0] for e in near} == {"missed by 1", "missed by 2", "missed by 3"}
    kinds = outputs_of(kind_scenarios(), "ATTACK_SITUATION_HIT")
    assert len(set(kinds)) >= 5


# --------------------------------------------------------------------------- Combat maneuvers

JOUST_OUTPUTS = list(bfrpg_joust.joust_outputs(RULES, 0, 10, 0, None))
PARRY_OUTPUTS = [
    "PARRY_BONUS",
    "PARRY_TOTAL",
    "PARRY_SUCCESS",
    "BLOCK_TOTAL",
    "BLOCK_RESULT",
    "BLOCK_DAMAGE_TAKEN",
]
MANEUVER_OUTPUTS = JOUST_OUTPUTS + PARRY_OUTPUTS


def maneuver_scenario(index: int, chance: random.Random) -> tuple[dict[str, object], dict[str, object]]:
    rules = with_rulings(FLIPS[index % len(FLIPS)]) if index % 3 else RULES
    cells: dict[str, object] = ruling_cells(rules)
    expected: dict[str, object] = {}
    # jousting: every band edge of the save failure
    damage = chance.choice([-1, 0, 4, 5, 9, 10, 14, 15, 23])
    target, strength = 12, chance.randint(-1, 2)
    penalty = max(-9, bfrpg_joust.joust_save_penalty(rules, max(0, damage)))
    failed_by = [-1, 0, 1, 4, 5, 9, 10, 15][index % 8]
    joust_roll = target - failed_by - strength - penalty
    if index % 11 == 0:
        joust_roll = chance.choice([None, 0, 21])
    elif not 1 <= joust_roll <= 20:
        joust_roll = min(20, max(1, joust_roll))
    cells.update(
        JOUST_DAMAGE=damage, JOUST_SAVE_TARGET=target, JOUST_STR_BONUS=strength, JOUST_SAVE_ROLL=joust_roll
    )
    expected.update(bfrpg_joust.joust_outputs(rules, damage, target, strength, joust_roll))
    # parry and block
    stance = chance.choice(
        RULES.table("defense_stance").rows[1:] if index % 7 else RULES.table("defense_stance").rows
    )
    parry_with = chance.choice(
        RULES.table("parry_with").rows[1:] if index % 9 else RULES.table("parry_with").rows
    )
    parry = bfrpg_parry.ParryInputs(
        stance=str(stance.label),
        parry_with=str(parry_with.label),
        attack_bonus=chance.randint(0, 8),
        str_bonus=chance.randint(-1, 3),
        parry_number=chance.choice([0, 1, 1, 2, 3, 4]),
        character_class=chance.choice(bfrpg_parry.CLASSES),
        level=chance.randint(1, 5),
        ranged=chance.random() < 0.2,
        attack_total=chance.choice([None, chance.randint(8, 25)]),
        roll=chance.choice([None, 0, 1, 10, 20, chance.randint(1, 20)]),
        block_roll=chance.choice([None, 0, 1, 4, 8, 9]),
        magic_bonus=chance.randint(0, 2),
        damage=chance.choice([None, chance.randint(1, 12)]),
    )
    cells.update(
        PARRY_STANCE=parry.stance,
        PARRY_WITH=parry.parry_with,
        PARRY_AB=parry.attack_bonus,
        PARRY_STR=parry.str_bonus,
        PARRY_NUMBER=parry.parry_number,
        PARRY_CLASS=parry.character_class,
        PARRY_LEVEL=parry.level,
        PARRY_RANGED=parry.ranged,
        PARRY_ATTACK_TOTAL=parry.attack_total,
        PARRY_ROLL=parry.roll,
        BLOCK_ROLL=parry.block_roll,
        BLOCK_MAGIC=parry.magic_bonus,
        BLOCK_DAMAGE=parry.damage,
    )
    expected.update(bfrpg_parry.parry_outputs(rules, parry))
    return cells, expected


def test_combat_maneuvers_equal_the_engine(calc, xlsx: Path):
    chance = random.Random(20620)
    scenarios = [maneuver_scenario(index, chance) for index in range(160)]
    results = calc.evaluate(xlsx, [cells for cells, _ in scenarios], MANEUVER_OUTPUTS)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells}"
        for (cells, expected), got in zip(scenarios, results, strict=True)
        for name in MANEUVER_OUTPUTS
        if not same(expected[name], got[name])
    ]
    assert not mismatches, f"{len(mismatches)} mismatches, first:\n" + "\n".join(mismatches[:6])


# --------------------------------------------------------------------------- seed examples in the workbook


def test_the_seed_critical_example_in_the_workbook(calc, xlsx: Path):
    """1d8+2, damage roll 5, confirmed: 8 + 5 + 2 = 15."""
    got = calc.evaluate(
        xlsx,
        [
            {
                "ATTACK_BONUS": 5,
                "ATTACK_TARGET": 15,
                "ATTACK_ROLL": 20,
                "ATTACK_FOLLOW_ROLL": 12,
                "ATTACK_DICE": "1d8+2",
                "ATTACK_DAMAGE_ROLL": 5,
            }
        ],
        ["ATTACK_RESULT", "ATTACK_DAMAGE"],
    )[0]
    assert got == {"ATTACK_RESULT": "Critical", "ATTACK_DAMAGE": 15.0}


def test_with_every_picker_at_its_default_outputs_depend_on_the_named_inputs_alone(calc, xlsx: Path):
    cells = {
        "ATTACK_BONUS": 6,
        "ATTACK_TARGET": 17,
        "ATTACK_MODS": 1,
        "ATTACK_ROLL": 20,
        "ATTACK_FOLLOW_ROLL": 9,
        "ATTACK_LEVEL": 4,
        "ATTACK_DICE": "2d6+1",
        "ATTACK_DAMAGE_ROLL": 7,
    }
    got = calc.evaluate(
        xlsx,
        [cells],
        ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE"],
    )[0]
    # need 17 - 6 - 1 = 10: rolls 10-20 hit (11/20); 20 threatens, 9 < 10 does not confirm
    assert got == {
        "ATTACK_NEED": 10.0,
        "ATTACK_RESULT": "Hit",
        "ATTACK_DAMAGE": 8.0,
        "ATTACK_HIT_CHANCE": 0.55,
        "ATTACK_CRIT_CHANCE": pytest.approx(11 / 400),
    }


# --------------------------------------------------------------------------- the notes beside the picks


@pytest.mark.timeout(900)
def test_every_pick_note_says_what_the_calculator_applies(calc, xlsx: Path, tmp_path: Path):
    """bfrpg's notes are the generic writer's: for every pick, for a melee and a ranged attack, under
    the default rulings and cover's steps by ruling, the note's to-hit, AC and damage are what picking
    it changes in the calculator (the typed STR and DEX at 0: what they add, their own note says)."""
    fixed = {"ATTACK_BONUS": 3, "ATTACK_TARGET": 15, "ATTACK_ROLL": 11, "ATTACK_DAMAGE_ROLL": 3}
    fixed |= {"ATTACK_NUMBER_ATTACKER_STR": 0, "ATTACK_NUMBER_ATTACKER_DEX": 0}
    rulings = [every_ruling(), every_ruling({"cover_intermediate_steps": "endpoints_only"})]
    kinds = {"melee": "Melee weapon", "ranged": "Missile weapon"}
    wrong, compared = wrong_notes(calc, RULES, xlsx, tmp_path, kinds, fixed, rulings)
    assert compared == 2 * 2 * len(every_pick(RULES, "attack_kinds"))
    assert not wrong, f"{len(wrong)} of {compared}:\n" + "\n".join(wrong[:10])
