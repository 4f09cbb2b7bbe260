"""The 17 Combat workbook recalculated in real LibreOffice equals the engine, input for input: its
Attack calculator (the generic writer's) the generic engine (``pycalc.resolution_calculator``), its
other calculators combat17's own modules.

Scenarios cover every natural-roll rule (natural 1 and 20, follow-up rolls at every chart edge, the
condition chart after a follow-up 20, need <= 1, need >= 20, need > 20), every band edge of the
critical, critical miss, condition and scatter tables, every ruling choice, bad inputs, and random
picker situations.
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import (
    combat17_brawling,
    combat17_rate_of_fire,
    combat17_scatter,
    combat17_subdual,
)
from pycalc.sheets.calculator import ATTACK_SHEET
from pycalc.sheets.combat17 import OTHER_SHEET
from pycalc.sheets.common import ruling_name
from pycalc.sheets.d20_cells import EXACT_DIGITS
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet, load_ruleset
from tests.parity import same
from tests.test_generic_parity import mismatches, scenarios

RULES = load_ruleset("combat17")
ROUNDING = f",{EXACT_DIGITS})"  # the decimals the generic damage formula's ROUND keeps: no rule number
ATTACK_OUTPUTS = list(attack_outputs(RULES, CalculatorInputs(roll=10)))
OTHER_OUTPUTS = [
    *combat17_rate_of_fire.ROF_OUTPUTS,
    *combat17_scatter.GRENADE_OUTPUTS,
    *combat17_brawling.BRAWL_OUTPUTS,
    *combat17_subdual.SUBDUAL_OUTPUTS,
]
RULING_FLIPS = [
    {"natural_roll_outcome": "special_only"},
    {"critical_follow_up_roll": "add_modifiers"},
    {"critical_follow_up_roll": "add_modifiers", "natural_roll_outcome": "special_only"},
    {"double_damage_basis": "dice_only", "subdual_half_rounding": "up"},
    {"stumble_penalty_scope": "attack_and_damage"},
    {"cover_values": "as_concealment"},
    {"cover_values": "as_concealment", "cover_concealment_together": "worse_only"},
    {"parting_shot_from_behind": "combined", "missile_engaged_unaware": "add"},
    {
        "kick_damage": "no_strength_lethal",
        "rate_of_fire_start": "unloaded",
        "grenade_missing_ten": "reroll_ten",
    },
    {"kick_damage": "strength_lethal"},
    {"kick_damage": "no_strength_non_lethal"},
]
# the rulings the Attack calculator reads (a case sets every one: typed cells stay for the next case)
ATTACK_RULINGS = sorted({r for flip in RULING_FLIPS[:8] for r in flip})


def ruling_cells(rules: RuleSet) -> dict[str, str]:
    return {ruling_name(r): rules.ruling(r) for r in rules.rulings}


def flips(chosen: dict[str, str] | None = None) -> dict[str, str]:
    """Every ruling the Attack calculator reads: ``chosen`` flipped, the rest at their defaults."""
    return {r: (chosen or {}).get(r, RULES.ruling(r)) for r in ATTACK_RULINGS}


def natural_roll_cases() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """The natural-roll rules at their edges: need from -4 to 26 against every edge roll, each
    follow-up roll at a chart band's edge, the condition chart's roll after a follow-up 20 (and one
    left from an earlier attack)."""
    found = []
    follows = [None, 1, 2, 3, 5, 6, 10, 11, 15, 16, 19, 20]
    for need in (-4, 0, 1, 2, 10, 11, 19, 20, 21, 26):
        target = 12
        rolls = sorted({1, 2, 19, 20} | {min(20, max(1, r)) for r in (need - 1, need)})
        for roll in rolls:
            for follow in follows if roll in (1, 20) else [None]:
                inputs = CalculatorInputs(
                    bonus=target - need,
                    target=target,
                    roll=roll,
                    follow_roll=follow,
                    dice="1d6+2",
                    damage_roll=3,
                    chart_roll=(need % 4) + 1,
                )
                found.append((inputs, flips()))
    for chosen in RULING_FLIPS[:8]:
        for mods in (-12, -3, 0, 4, 11):
            for follow in (1, 9, 10, 11, 15, 16, 19, 20):
                inputs = CalculatorInputs(
                    bonus=2, target=14, mods=mods, roll=20, follow_roll=follow, dice="2d4+1", damage_roll=5
                )
                found.append((replace(inputs, chart_roll=(follow % 4) + 1), flips(chosen)))
            found.append(
                (CalculatorInputs(bonus=2, target=14, mods=mods, roll=1, follow_roll=16), flips(chosen))
            )
    return found


def bad_input_cases() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    base = CalculatorInputs(bonus=5, target=12, roll=15, dice="1d8", damage_roll=4)
    variants = [
        dict(roll=0),
        dict(roll=21),
        dict(follow_roll=0),
        dict(follow_roll=21),
        dict(roll=20, follow_roll=20, chart_roll=5),
        dict(roll=20, follow_roll=20, chart_roll=0),
        dict(roll=20, follow_roll=20, chart_roll=None),
        dict(roll=20, follow_roll=19, chart_roll=2),
        dict(dice="abc"),
        dict(dice="0d6"),
        dict(dice="1d0"),
        dict(dice=""),
        dict(dice="d8", damage_roll=8),
        dict(dice="D10-2", damage_roll=1),
        dict(dice="2d4 + 2", damage_roll=2),
        dict(dice="3", damage_roll=None),
        dict(dice="3", damage_roll=5),  # dice-less damage: the typed roll is not read (generic order)
        dict(roll=20, follow_roll=None, dice="abc"),  # a hit's bad dice say so before the chart roll
        dict(dice="1d6+", damage_roll=3),
        dict(dice="1.5d6", damage_roll=3),
        dict(damage_roll=9),
        dict(damage_roll=0),
        dict(damage_roll=None),
        dict(roll=20, follow_roll=12, damage_roll=None),
        dict(roll=20, follow_roll=12, dice="1d2-5"),
        dict(roll=20, follow_roll=None),
        dict(roll=1, follow_roll=None),
        dict(roll=None),
    ]
    return [(replace(base, **v), flips()) for v in variants]


def check_cases() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """The DEX check a critical miss chart row calls for (fumble.check): a follow-up roll at each band's
    edge, the check's d20 not typed, off the die, either side of the DC with a DEX bonus; a check typed
    where no row calls for one (a hit, a natural 20's chart), and the Miss a plain row makes by ruling."""
    base = CalculatorInputs(bonus=2, target=14, roll=1, dice="1d6+2", damage_roll=3)
    found = []
    for follow in (None, 1, 2, 3, 5, 6, 10, 11, 16, 20):
        for check_roll, check_bonus in (
            (None, 0),
            (0, 0),
            (21, 2),
            (1, 0),
            (13, 2),
            (14, 0),
            (15, 0),
            (19, 1),
            (19, 0),
            (20, -1),
        ):
            found.append(
                (replace(base, follow_roll=follow, check_roll=check_roll, check_bonus=check_bonus), flips())
            )
    found += [
        (replace(base, roll=12, check_roll=20, check_bonus=3), flips()),
        (replace(base, roll=20, follow_roll=4, check_roll=5), flips()),
        (replace(base, follow_roll=18, check_roll=5), flips({"natural_roll_outcome": "special_only"})),
        (
            replace(base, follow_roll=4, check_roll=16, check_bonus=4),
            flips({"natural_roll_outcome": "special_only"}),
        ),
    ]
    return found


# --------------------------------------------------------------------------- the other calculators


def other_scenarios() -> list[tuple[RuleSet, dict[str, Any], dict[str, Any]]]:
    chance = random.Random(1702)
    weapons = [str(r.label) for r in RULES.table("rate_of_fire").rows]
    armours = [str(r.label) for r in RULES.table("brawling_armour").rows]
    kinds = [str(r.label) for r in RULES.table("brawling").rows]
    found = []
    for index in range(220):
        rules = (
            dataclasses.replace(RULES, chosen=RULING_FLIPS[index % len(RULING_FLIPS)]) if index % 2 else RULES
        )
        rof = dict(
            weapon=weapons[index % len(weapons)] if index % 17 else "Sling of doom",
            rounds=chance.choice([0, 1, 2, 3, 4, 5, 6, 7, 10, -1]),
            siege=chance.choice([None, 1, 4, 6, 0]),
        )
        grenade = dict(hit=index % 9 == 0, roll=[None, 0, *range(1, 11), 11][index % 13])
        brawl = dict(
            kind=kinds[index % len(kinds)] if index % 23 else "Headbutt",
            bonus=chance.randint(-1, 6),
            ac=chance.randint(9, 18),
            mods=chance.randint(-2, 2),
            strength=chance.randint(-2, 3),
            armour=armours[index % len(armours)],
            roll=chance.choice([None, 1, 2, 3, 4, 5, 0]),
        )
        subdual = dict(
            hp=chance.randint(-1, 12),
            damage=chance.randint(0, 15),
            flat=chance.random() < 0.6,
            earlier=chance.random() < 0.3,
            unconscious=chance.random() < 0.15,
        )
        cells = {
            "ROF_WEAPON": rof["weapon"],
            "ROF_ROUNDS": rof["rounds"],
            "ROF_SIEGE_RATE": rof["siege"],
            "GRENADE_HIT": grenade["hit"],
            "GRENADE_ROLL": grenade["roll"],
            "BRAWL_KIND": brawl["kind"],
            "BRAWL_BONUS": brawl["bonus"],
            "BRAWL_AC": brawl["ac"],
            "BRAWL_MODS": brawl["mods"],
            "BRAWL_STR": brawl["strength"],
            "BRAWL_ARMOUR": brawl["armour"],
            "BRAWL_DAMAGE_ROLL": brawl["roll"],
            "SUBDUAL_HP": subdual["hp"],
            "SUBDUAL_DAMAGE": subdual["damage"],
            "SUBDUAL_FLAT": subdual["flat"],
            "SUBDUAL_EARLIER": subdual["earlier"],
            "SUBDUAL_UNCONSCIOUS": subdual["unconscious"],
            **ruling_cells(rules),
        }
        expected = {
            **combat17_rate_of_fire.shots_fired(rules, rof["weapon"], rof["rounds"], rof["siege"]),
            **combat17_scatter.scatter(rules, grenade["hit"], grenade["roll"]),
            **combat17_brawling.brawl_outputs(
                rules,
                brawl["kind"],
                brawl["bonus"],
                brawl["ac"],
                brawl["mods"],
                brawl["strength"],
                brawl["roll"],
                brawl["armour"],
            ),
            **combat17_subdual.subdual_outputs(
                rules,
                subdual["hp"],
                subdual["damage"],
                subdual["flat"],
                subdual["earlier"],
                subdual["unconscious"],
            ),
        }
        found.append((rules, cells, expected))
    return found


# --------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def xlsx(build_ruleset) -> Path:
    return build_ruleset("combat17") / "combat17.xlsx"


def test_attack_calculator_equals_the_generic_engine(calc, xlsx: Path):
    """combat17's Attack calculator is the generic writer's, from its resolution block: the edges of
    the seed's natural-roll rules and charts, bad inputs, random picks and rulings, against the engine."""
    cases = natural_roll_cases() + bad_input_cases() + check_cases()
    cases += [
        (inputs, flips(RULING_FLIPS[index % 8]) if index % 3 == 0 else flips())
        for index, inputs in enumerate(scenarios(RULES, 200, 20261201))
    ]
    assert len(cases) >= 300
    found = mismatches(calc, RULES, xlsx, [c for c, _ in cases], [r for _, r in cases])
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:6])


def test_other_calculators_equal_the_engine(calc, xlsx: Path):
    scenarios = other_scenarios()
    results = calc.evaluate(xlsx, [cells for _, cells, _ in scenarios], OTHER_OUTPUTS)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells}"
        for (_, cells, expected), got in zip(scenarios, results, strict=True)
        for name in OTHER_OUTPUTS
        if not same(expected[name], got[name])
    ]
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:5])


def test_seed_examples_in_the_workbook(calc, xlsx: Path):
    """1d6+2 showing 3 on a natural 20: regular 5, maximum 8, critical 11 (17.0.3) by the chart's row."""
    attack = {"ATTACK_BONUS": 3, "ATTACK_TARGET": 15, "ATTACK_DICE": "1d6+2", "ATTACK_DAMAGE_ROLL": 3}
    got = calc.evaluate(
        xlsx,
        [{**attack, "ATTACK_ROLL": 20, "ATTACK_FOLLOW_ROLL": follow} for follow in (5, 12, 17)],
        ["ATTACK_RESULT", "ATTACK_DAMAGE"],
    )
    assert [(g["ATTACK_RESULT"], g["ATTACK_DAMAGE"]) for g in got] == [
        ("Critical", 5.0),
        ("Critical", 8.0),
        ("Critical", 11.0),
    ]


def test_with_every_picker_at_its_default_attack_outputs_depend_on_the_named_inputs_alone(calc, xlsx: Path):
    named = {
        "ATTACK_BONUS": 4,
        "ATTACK_TARGET": 16,
        "ATTACK_MODS": 1,
        "ATTACK_ROLL": 11,
        "ATTACK_FOLLOW_ROLL": None,
        "ATTACK_DICE": "1d8+1",
        "ATTACK_DAMAGE_ROLL": 6,
        "ATTACK_CHART_ROLL": None,
    }
    got = calc.evaluate(xlsx, [named], ATTACK_OUTPUTS)[0]
    bare = attack_outputs(
        RULES, CalculatorInputs(bonus=4, target=16, mods=1, roll=11, dice="1d8+1", damage_roll=6)
    )
    assert {k: got[k] for k in ("ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE")} == {
        "ATTACK_NEED": 11.0,
        "ATTACK_RESULT": "Hit",
        "ATTACK_DAMAGE": 7.0,
        "ATTACK_HIT_CHANCE": 0.5,
    }
    assert all(same(bare[k], got[k]) for k in ATTACK_OUTPUTS)


def test_no_rule_number_is_typed_into_a_formula_and_pickers_come_from_the_yaml(xlsx: Path):
    book = openpyxl.load_workbook(xlsx)
    for sheet_name in (ATTACK_SHEET, OTHER_SHEET):  # the d20 workings parse dice text
        for row in book[sheet_name].iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    text = re.sub(r'"[^"]*"', "", cell.value).replace(ROUNDING, ")")
                    text = re.sub(r"\$?\b[A-Z_]+\$?[0-9]+\b", "", text)  # cell references
                    numbers = {int(n) for n in re.findall(r"(?<![A-Za-z_])\d+", text)}
                    assert numbers <= {0, 1}, (sheet_name, cell.coordinate, cell.value)
    lists = {dv.formula1 for dv in book[ATTACK_SHEET].data_validations.dataValidation}
    assert {"T_CONCEALMENT_LABEL", "T_MISSILE_RANGE_LABEL", '"TRUE,FALSE"'} <= lists
    for name in (
        ATTACK_OUTPUTS
        + OTHER_OUTPUTS
        + ["ATTACK_ROLL", "ATTACK_FOLLOW_ROLL", "ATTACK_CHART_ROLL", "ATTACK_DICE"]
    ):
        assert name in book.defined_names, name


def test_xlsm_calculators_call_the_udfs(build_ruleset):
    book = openpyxl.load_workbook(build_ruleset("combat17") / "combat17.xlsm", keep_vba=True)
    formulas = " ".join(
        str(c.value) for row in book[OTHER_SHEET].iter_rows() for c in row if c.data_type == "f"
    )
    for udf in ("combat17_shots", "combat17_subdual_state"):
        assert udf in formulas


# --------------------------------------------------------------------------- the notes beside the picks

KINDS = {"melee": "Melee attack", "ranged": "Missile attack"}  # an attack kind's word -> its pick
NOTE_SUM = re.compile(r"([+-]\d+) (to hit|to AC|damage)(?: \((melee|ranged)\))?")
NOTE_FACTOR = re.compile(r"damage x([\d.]+)")
NOTE_BARRED = re.compile(r"cannot be hit(?: \((melee|ranged)\))?")
NOTE_ONLY = re.compile(r"(Melee attack|Missile attack) only")
PARTS = {"to hit": "hit", "to AC": "ac", "damage": "damage"}


def combat17_picks() -> list[tuple[str, object, str, str]]:
    """Every pick of the Attack calculator but a choice's first row and the attack kind: (its defined
    name, its value picked, its table, its row id)."""
    found = []
    for table_id in RULES.resolution_block.modifiers:
        table = RULES.table(table_id)
        if table_id == "attack_kind":
            continue
        if table.picker == "choice":
            found += [(pick_name(table_id), str(row.label), table_id, str(row.id)) for row in table.rows[1:]]
        else:
            found += [(pick_name(table_id, str(row.id)), True, table_id, str(row.id)) for row in table.rows]
    return found


def note_claims(note: str, kind: str) -> dict[str, object]:
    """What a generic note says picking its row changes for an attack of ``kind`` (melee, ranged)."""
    said: dict[str, object] = {"hit": 0, "ac": 0, "damage": 0, "factor": 1.0, "barred": False}
    only = NOTE_ONLY.search(note)
    if only and only.group(1) != KINDS[kind]:
        return said  # the row does not count for this attack
    for value, part, limited in NOTE_SUM.findall(note.replace("damage x", "")):
        if limited in ("", kind):
            said[PARTS[part]] = int(said[PARTS[part]]) + int(value)
    for factor in NOTE_FACTOR.findall(note):
        said["factor"] = float(factor)
    said["barred"] = any(limited in ("", kind) for limited in NOTE_BARRED.findall(note))
    return said


@pytest.mark.timeout(900)
def test_every_pick_note_says_what_the_calculator_applies(calc, xlsx: Path, tmp_path: Path):
    """combat17's notes are the generic writer's: for every pick, for a melee and a missile attack,
    under the default rulings and each ruling that changes what a pick adds (cover read as
    concealment, the Stumble's damage, an unaware target's -5 counted too), the note's to-hit, AC,
    damage, damage factor and cannot-be-hit are what picking it changes in the calculator; a note
    saying "non-lethal damage" is a pick that makes the damage subdual (the encounter block's
    ``subdual_picks``)."""
    from tests.parity import with_note_names

    picks = combat17_picks()
    copy, note_of = with_note_names(xlsx, [name for name, _, _, _ in picks], tmp_path)
    fixed = {"ATTACK_BONUS": 40, "ATTACK_TARGET": 15, "ATTACK_ROLL": 11, "ATTACK_DAMAGE_ROLL": 3}
    ruled = [
        {},
        {"cover_values": "as_concealment"},
        {"stumble_penalty_scope": "attack_and_damage"},
        {"missile_engaged_unaware": "add"},
    ]
    outputs = ["ATTACK_SITUATION_HIT", "ATTACK_SITUATION_AC", "ATTACK_SITUATION_DAMAGE"]
    outputs += ["ATTACK_SITUATION_MULTIPLIER", "ATTACK_HIT_CHANCE", *note_of.values()]
    wrong, compared, subdual = [], 0, set()
    for chosen in ruled:
        for kind, kind_pick in KINDS.items():
            setting = {**fixed, **{ruling_name(r): c for r, c in flips(chosen).items()}}
            setting["PICK_ATTACK_KIND"] = kind_pick
            base, *picked = calc.evaluate(
                copy, [setting, *({**setting, n: v} for n, v, _, _ in picks)], outputs
            )
            for (name, _, table_id, row_id), found in zip(picks, picked, strict=True):
                note = str(found[note_of[name]] or "")
                said = note_claims(note, kind)
                did = {
                    "hit": found["ATTACK_SITUATION_HIT"] - base["ATTACK_SITUATION_HIT"],
                    "ac": found["ATTACK_SITUATION_AC"] - base["ATTACK_SITUATION_AC"],
                    "damage": found["ATTACK_SITUATION_DAMAGE"] - base["ATTACK_SITUATION_DAMAGE"],
                    "factor": found["ATTACK_SITUATION_MULTIPLIER"] / base["ATTACK_SITUATION_MULTIPLIER"],
                    "barred": found["ATTACK_HIT_CHANCE"] == 0 < base["ATTACK_HIT_CHANCE"],
                }
                compared += 1
                if said != did:
                    wrong.append(f"{chosen} {kind} {name}: note {note!r} says {said}, calculator {did}")
                if "non-lethal damage" in note:
                    subdual.add((table_id, row_id))
    assert compared == 4 * 2 * len(picks)
    assert not wrong, f"{len(wrong)} of {compared}:\n" + "\n".join(wrong[:10])
    assert subdual == {("attack_situation", "flat_of_blade")}
