"""The osr workbook recalculated in real LibreOffice equals the engine, input for input: its Attack
calculator (the generic writer's) the generic engine (``pycalc.resolution_calculator``), its Combat
calculators osr's own modules.

Scenarios cover every natural-roll rule (natural 1 with fumble checks at the level's edges, natural
20 with the 19/20 exception and the over-20 penalty, need <= 1, 19, 20, > 20), every picker row,
Advantage/Disadvantage, every ruling flipped, and the band edges of the other calculators' tables.
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc import limits, udfs
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import osr_grappling, osr_mass_combat, osr_normal_men, osr_saves
from pycalc.sheets.common import ruling_name
from pycalc.sheets.d20_cells import EXACT_DIGITS
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet, load_ruleset
from tests.parity import same, with_note_names
from tests.test_generic_parity import cells as attack_cells
from tests.test_generic_parity import mismatches, scenarios

WORKBOOKS = Path(__file__).resolve().parent.parent / "workbook"

RULES = load_ruleset("osr")
FLIPS = {
    "nat20_penalty_applies_to": "damage_die",
    "nat20_crit_exception": "needed_19_or_20_only",
    "nat20_needed_basis": "matrix_number",
    "magic_weapon_needed": "no_auto_hit",
    "ac_change_to_number_needed": "gm_matrix",
    "advantage_meets_disadvantage": "disadvantage",
    "surprise_range_adjustment": "reduce_only",
    "mass_combat_damage_multiplier": "always_ten",
    "expected_kills_method": "damage_over_hp",
    "expected_kills_rounding": "up",
    "normal_men_multiple_attacks": "all_pcs",
}
ATTACK_FLIPS = list(FLIPS)[:6]  # the rulings the Attack calculator reads


def flipped(rules: RuleSet, *ruling_ids: str) -> RuleSet:
    return dataclasses.replace(rules, chosen={r: FLIPS[r] for r in ruling_ids})


def ruling_cells(rules: RuleSet) -> dict[str, object]:
    return {ruling_name(r): rules.ruling(r) for r in rules.rulings}


def flips(*ruling_ids: str) -> dict[str, str]:
    """The Attack calculator's rulings, ``ruling_ids`` flipped and the rest at their defaults (a
    scenario's cells stay typed for the next: every case sets every ruling)."""
    return {r: FLIPS[r] if r in ruling_ids else RULES.ruling(r) for r in ATTACK_FLIPS}


def natural_roll_cases() -> list[tuple[CalculatorInputs, dict[str, str]]]:
    """The seed's natural-roll rules at their edges (need from -2 to 24 against every edge roll, the
    fumble check at the level's edges, the natural-20 penalty against every dice form, bad rolls and
    levels, a chart roll left from an earlier attack), each with the rulings that change them."""
    found = []
    ruled = [flips(), flips("nat20_penalty_applies_to", "nat20_crit_exception"), flips("nat20_needed_basis")]
    for index, need in enumerate((-2, 0, 1, 2, 10, 18, 19, 20, 21, 22, 24)):
        for roll in (1, 2, need - 1, need, 19, 20):
            if 1 <= roll <= 20:
                follow = (5, 6, None)[roll % 3] if roll == 1 else None
                inputs = CalculatorInputs(
                    bonus=3, target=need + 3, level=5, roll=roll, follow_roll=follow, dice="1d6+1"
                )
                found.append((replace(inputs, damage_roll=(1, 3, 6)[roll % 3]), ruled[(index + roll) % 3]))
    for level in (0, 1, 7, 19, 20, 21):
        for follow in sorted({1, max(1, level), min(20, level + 1), 20}):
            found.append((CalculatorInputs(target=11, level=level, roll=1, follow_roll=follow), flips()))
    for dice, shown in (("1d8", 8), ("2d4-1", 2), ("d6", 1), ("3d6+2", 18), ("1d6", 0), ("abc", 3), ("4", 4)):
        for ruling in (flips(), flips("nat20_penalty_applies_to")):
            found.append((CalculatorInputs(target=23, roll=20, dice=dice, damage_roll=shown), ruling))
            charging = {"charge_attack": "Charging attacker"}
            inputs = CalculatorInputs(
                bonus=2, target=12, roll=15, dice=dice, damage_roll=shown, choices=charging
            )
            found.append((inputs, ruling))
    for roll, follow, level in ((0, None, 1), (21, None, 1), (1, 0, 1), (1, 21, 1), (10, None, -1)):
        found.append((CalculatorInputs(level=level, roll=roll, follow_roll=follow), flips()))
    for roll in (1, 12, 20):  # a chart roll left from an earlier attack: called out unless a fumble
        found.append((CalculatorInputs(level=9, roll=roll, follow_roll=12, chart_roll=4), flips()))
    return [*found, (CalculatorInputs(bonus=1, target=14), flips())]


def test_attack_calculator_equals_the_generic_engine(calc, build_ruleset):
    """osr's Attack calculator is the generic writer's, from its resolution block: the edges of the
    seed's natural-roll rules and random picks, typed numbers and rulings, against the engine."""
    chance = random.Random(20261122)
    cases = natural_roll_cases() + [
        (inputs, flips(*chance.sample(ATTACK_FLIPS, chance.randint(1, 3))) if index % 3 == 0 else flips())
        for index, inputs in enumerate(scenarios(RULES, 240, 20261122))
    ]
    assert len(cases) >= 300
    xlsx = build_ruleset("osr") / "osr.xlsx"
    found = mismatches(calc, RULES, xlsx, [c for c, _ in cases], [r for _, r in cases])
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:6])


def test_with_every_picker_at_its_default_attack_depends_on_the_named_inputs_alone(calc, build_ruleset):
    named = {
        "ATTACK_BONUS": 2,
        "ATTACK_TARGET": 22,
        "ATTACK_MODS": 1,
        "ATTACK_LEVEL": 3,
        "ATTACK_ROLL": 20,
        "ATTACK_DICE": "1d6+1",
        "ATTACK_DAMAGE_ROLL": 4,
        # inputs that only pickers use: no effect while every picker is at its default
        "ATTACK_NUMBER_TARGET_SHIELD": 3,
        "ATTACK_NUMBER_TARGET_DEX": 2,
        "ATTACK_NUMBER_ATTACKER_DEX": 2,
    }
    outputs = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE", "ATTACK_SUMMARY"]
    got = calc.evaluate(build_ruleset("osr") / "osr.xlsx", [named], outputs)[0]
    # need 22 - 2 - 1 = 19: a natural 20 hits, no critical (19 or more needed), no penalty
    assert got["ATTACK_NEED"] == 19.0
    assert got["ATTACK_RESULT"] == "Hit"
    assert got["ATTACK_DAMAGE"] == 5.0
    assert got["ATTACK_HIT_CHANCE"] == pytest.approx(0.1)
    inputs = CalculatorInputs(bonus=2, target=22, mods=1, level=3, roll=20, dice="1d6+1", damage_roll=4)
    expected = attack_outputs(RULES, inputs)
    assert all(same(expected[n], got[n]) for n in outputs), got


def test_the_seed_natural_20_example_in_the_workbook(calc, build_ruleset):
    got = calc.evaluate(
        build_ruleset("osr") / "osr.xlsx",
        [
            {
                "ATTACK_BONUS": 0,
                "ATTACK_TARGET": 22,
                "ATTACK_ROLL": 20,
                "ATTACK_DICE": "1d6",
                "ATTACK_DAMAGE_ROLL": 5,
            }
        ],
        ["ATTACK_RESULT", "ATTACK_NATURAL_PENALTY", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE"],
    )[0]
    assert got == {
        "ATTACK_RESULT": "Hit",
        "ATTACK_NATURAL_PENALTY": 2.0,
        "ATTACK_DAMAGE": 3.0,
        "ATTACK_HIT_CHANCE": pytest.approx(0.05),
    }


# --------------------------------------------------------------------------- other calculators

SECTION_OUTPUTS = {
    "mass": ["MASS_DAMAGE_DEALT", "MASS_HP_AFTER", "MASS_SLAIN", "MASS_SURVIVORS_LEFT"],
    "normal_men": [
        "NORMAL_MEN_ATTACKS",
        "KILLS_HIT_CHANCE",
        "KILLS_HITS",
        "KILLS_PER_ROUND",
        "KILLS_AVG_DAMAGE",
        "KILLS_AVG_HP",
    ],
    "grapple": ["GRAPPLE_MARGIN", "GRAPPLE_OUTCOME", "GRAPPLE_STUNNED_ROUNDS"],
    "save": ["SAVE_LEVEL_GAP_BONUS", "SAVE_WHO", "SAVE_MODIFIER", "SAVE_EFFECT"],
    "spell": ["SPELL_OUTCOME"],
}


def combat_scenarios() -> list[tuple[dict[str, object], dict[str, object]]]:
    """(cells, expected outputs) for every section of the Combat calculators sheet."""
    found: list[tuple[dict[str, object], dict[str, object]]] = []
    chance = random.Random(17)
    mass_rules = [RULES, flipped(RULES, "mass_combat_damage_multiplier")]
    for index, (men, original, before, roll) in enumerate(
        [
            (10, 40, 40, None),
            (10, 40, 40, 4),
            (10, 40, 8, None),
            (10, 40, 9, None),
            (10, 40, 41, None),
            (5, 18, 18, 3),
            (10, 35, 35, 6),
            (10, 40, 40, 7),
            (0, 40, 40, 2),
            (10, 0, 0, None),
            (5, 20, 20, 1),
        ]
        + [
            (m, o, chance.randint(-5, o), chance.choice([None, 1, 2, 3, 4, 5, 6]))
            for m, o in [(chance.choice([5, 10, 20]), chance.randint(5, 120)) for _ in range(20)]
        ]
    ):
        rules = mass_rules[index % 2]
        cells = {
            "MASS_MEN": men,
            "MASS_ORIGINAL_HP": original,
            "MASS_HP_BEFORE": before,
            "MASS_DAMAGE_ROLL": roll,
            **ruling_cells(rules),
        }
        found.append((cells, osr_mass_combat.mass_outputs(rules, men, original, before, roll)))
    kills_rules = [
        RULES,
        flipped(RULES, "expected_kills_method", "normal_men_multiple_attacks"),
        flipped(RULES, "expected_kills_rounding"),
        flipped(RULES, "expected_kills_method", "expected_kills_rounding"),
    ]
    kinds = [str(r.label) for r in RULES.table("attacker_kinds_vs_normal_men").rows] + ["Dragon"]
    for index, (level, need, damage, hp) in enumerate(
        [
            (8, 7, "1d6+1", "1d6"),
            (3, 1, "1d8", "1d6"),
            (5, 20, "2d4", "2d6"),
            (4, 25, "1d6", "1d6"),
            (10, 11, "1d4", "1d8"),
            (-1, 7, "1d6", "1d6"),
            (6, 7, "xyz", "1d6"),
            (6, 7, "1d6", "1d4-3"),
            (0, 7, "1d6", "1d6"),
            (2, 7, "1d6", "1d6"),
            (1, 7, "1d6", "1d6"),
        ]
        + [
            (
                chance.randint(1, 12),
                chance.randint(-1, 22),
                chance.choice(["1d6+1", "1d8", "2d6", "1d3"]),
                chance.choice(["1d6", "2d8", "1d4"]),
            )
            for _ in range(16)
        ]
    ):
        rules = kills_rules[index % 4]
        kind = kinds[index % len(kinds)]
        cells = {
            "NORMAL_MEN_KIND": kind,
            "NORMAL_MEN_LEVEL": level,
            "KILLS_NEED": need,
            "KILLS_DAMAGE_DICE": damage,
            "KILLS_HP_DICE": hp,
            **ruling_cells(rules),
        }
        expected = osr_normal_men.normal_men_outputs(rules, kind, level, need, damage, hp)
        found.append((cells, expected))
    for hero_hd, their_hd, hero, theirs in [
        (3, 2, 11, 7),
        (3, 2, 7, 7),
        (3, 2, 6, 7),
        (3, 2, 8, 7),
        (3, 2, 2, 7),
        (3, 2, 19, 7),
        (3, 2, 11, 1),
        (3, 2, 11, 13),
        (0, 2, 0, 7),
        (3, 0, 11, 0),
        (1, 5, 6, 5),
        (1, 5, 1, 30),
    ] + [
        (h, g, chance.randint(h, 6 * h), chance.randint(g, 6 * g))
        for h, g in [(chance.randint(1, 6), chance.randint(1, 6)) for _ in range(20)]
    ]:
        cells = {
            "GRAPPLE_HERO_HD": hero_hd,
            "GRAPPLE_GRAPPLERS_HD": their_hd,
            "GRAPPLE_HERO_ROLL": hero,
            "GRAPPLE_GRAPPLERS_ROLL": theirs,
        }
        found.append((cells, osr_grappling.grapple_outputs(RULES, hero_hd, their_hd, hero, theirs)))
    maneuvers = [str(r.label) for r in RULES.table("special_maneuvers").rows] + ["Sneeze"]
    for index, (saver, attacker) in enumerate(
        [(7, 1), (4, 1), (3, 1), (1, 7), (10, 1), (-1, 2), (13, 3), (6, 0)] * 3
    ):
        maneuver = maneuvers[index % len(maneuvers)]
        cells = {
            "SAVE_MANEUVER": maneuver,
            "SAVE_SAVER_LEVEL": saver,
            "SAVE_ATTACKER_LEVEL": attacker,
            "SAVE_TARGET_STR_BONUS": index % 3,
        }
        found.append((cells, osr_saves.save_outputs(RULES, maneuver, saver, attacker, index % 3)))
    situations = [str(r.label) for r in RULES.table("spell_interruption").rows] + ["Asleep"]
    for situation in situations:
        for save, d6 in [
            (None, None),
            ("Made", None),
            ("Failed", None),
            ("failed", 1),
            ("Failed", 4),
            ("Failed", 5),
            ("Failed", 6),
            ("Failed", 7),
            ("Failed", 0),
            ("Maybe", 3),
        ]:
            cells = {"SPELL_SITUATION": situation, "SPELL_SAVE": save, "SPELL_D6": d6}
            found.append((cells, osr_saves.spell_outputs(RULES, situation, save, d6)))
    return found


def test_combat_calculators_equal_the_engine(calc, build_ruleset):
    scenarios = combat_scenarios()
    names = sorted({n for names in SECTION_OUTPUTS.values() for n in names})
    results = calc.evaluate(build_ruleset("osr") / "osr.xlsx", [cells for cells, _ in scenarios], names)
    mismatches = [
        f"{name}: engine {expected[name]!r} != sheet {got[name]!r} for {cells}"
        for (cells, expected), got in zip(scenarios, results, strict=True)
        for name in expected
        if not same(expected[name], got[name])
    ]
    assert len(scenarios) >= 150
    assert not mismatches, f"{len(mismatches)} mismatches, first:\n" + "\n".join(mismatches[:6])


def test_seed_examples_in_the_combat_sheet(calc, build_ruleset):
    got = calc.evaluate(
        build_ruleset("osr") / "osr.xlsx",
        [
            {},
            {
                "SURPRISE_A_SURPRISES_ON": 5,
                "SURPRISE_B_SURPRISED_ON": 1,
                "MASS_HP_BEFORE": 4,
                "NORMAL_MEN_LEVEL": 3,
            },
        ],
        [
            "KILLS_PER_ROUND",
            "GRAPPLE_STUNNED_ROUNDS",
            "NORMAL_MEN_ATTACKS",
            "SURPRISE_A_ON_B",
            "MASS_SURVIVORS_LEFT",
        ],
    )
    assert got[0]["NORMAL_MEN_ATTACKS"] == 8.0  # an 8th level fighter: 8 attacks,
    assert got[0]["KILLS_PER_ROUND"] == pytest.approx(5.6)  # 7+, d6+1 vs d6: 5.6 killed
    assert got[0]["GRAPPLE_STUNNED_ROUNDS"] == 4.0  # 11 - 7
    assert got[1]["NORMAL_MEN_ATTACKS"] == 3.0  # a 3rd level fighter
    assert got[1]["SURPRISE_A_ON_B"] == 4.0  # example 2
    assert got[1]["MASS_SURVIVORS_LEFT"] == 1.0  # 4 of 40 left: one man


# --------------------------------------------------------------------------- the files


@pytest.fixture(scope="module")
def books(build_ruleset) -> tuple[openpyxl.Workbook, openpyxl.Workbook]:
    folder: Path = build_ruleset("osr")
    return openpyxl.load_workbook(folder / "osr.xlsx"), openpyxl.load_workbook(
        folder / "osr.xlsm", keep_vba=True
    )


ALLOWED = {
    "INDEX", "MATCH", "IF", "IFERROR", "COUNTIF", "COUNTIFS", "COUNTA", "SMALL", "ROWS", "SUMIFS", "INT", "MAX", "MIN", "N", "SUM", "OR", "AND", "NOT", "ISNUMBER",
    "LEFT", "UPPER", "SUMPRODUCT", "COUNT", "ROW", "ISNA", "AVERAGE", "VALUE", "MID", "FIND", "LOWER", "LEN",
    "FALSE", "TRUE", "SEARCH",  # SEARCH: the shared dice grid (pycalc/sheets/dice_grid.py)
    "NA", "TRIM", "TEXT", "REPLACE",  # the damage chart's gaps, the dice check, the dropdowns' modifiers
    "ISBLANK", "ROUND",  # the generic d20 damage formulas (pycalc/sheets/d20_formulas.py)
    "SUBSTITUTE",  # the attack log's Picks cell read by name
    "CHOOSE",  # the notes beside the picks: the text of the row picked (ruling_text.choice_note)
    "ABS",  # the generic calculator's formulas
}  # fmt: skip
# the bounds of what a calculator takes (pycalc.limits: dice, modifiers, hit points), not rule numbers
LIMITS = {value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.]*)\(")


def formula_cells(book: openpyxl.Workbook):
    return [c for s in book.worksheets for row in s.iter_rows() for c in row if c.data_type == "f"]


def test_named_inputs_unlocked_outputs_locked(books):
    xlsx, _ = books
    inputs = ["ATTACK_BONUS", "ATTACK_TARGET", "ATTACK_MODS", "ATTACK_ROLL", "ATTACK_FOLLOW_ROLL", "ATTACK_LEVEL",
              "ATTACK_DICE", "ATTACK_DAMAGE_ROLL", "SURPRISE_A_SURPRISES_ON", "MASS_MEN", "KILLS_NEED",
              "GRAPPLE_HERO_ROLL", "SAVE_MANEUVER", "SPELL_SITUATION"]  # fmt: skip
    outputs = ["ATTACK_NEED", "ATTACK_RESULT", "ATTACK_SUMMARY", "ATTACK_DAMAGE", "ATTACK_HIT_CHANCE",
               "SURPRISE_A_ON_B", "MASS_SURVIVORS_LEFT", "KILLS_PER_ROUND", "NORMAL_MEN_ATTACKS", "GRAPPLE_OUTCOME",
               "SAVE_MODIFIER", "SPELL_OUTCOME"]  # fmt: skip
    for name in inputs + outputs:
        destinations = list(xlsx.defined_names[name].destinations)
        assert len(destinations) == 1, name
        sheet, ref = destinations[0]
        cell = xlsx[sheet][ref.replace("$", "")]
        assert cell.parent.protection.sheet is True
        if name in inputs:
            assert cell.protection.locked is False, name
        else:
            assert cell.protection.locked is not False and cell.data_type == "f", name


def test_formulas_use_shared_functions_and_no_typed_rule_numbers(books):
    xlsx, _ = books
    for cell in formula_cells(xlsx):
        used = {m.upper() for m in CALL.findall(cell.value)}
        assert used <= ALLOWED, (cell.coordinate, used - ALLOWED)
        text = re.sub(r'"[^"]*"', "", cell.value)
        text = re.sub(r"\$?\b[A-Z]{1,2}\$?[0-9]+\b", "", text)  # cell references (workings grid)
        text = re.sub(r"\b[A-Z_][A-Z0-9_]*\b", "", text)  # defined names
        if "ROUND(" in cell.value:  # the generic damage's rounding before INT: not a rule number
            text = text.replace(f",{EXACT_DIGITS})", ")")
        if "MID(" in cell.value:  # the rest of a dice text: MID(text,2,99), MID(text,FIND(...)+1,99)
            text = re.sub(r"(,\d+)?,99\)", ")", text)
        if "LEN(" in cell.value:  # the generic dice check's bounds on a dice text's length: not rule numbers
            text = re.sub(r"\)<=\d+", ")", text)
        assert {int(n) for n in re.findall(r"\d+", text)} <= {0, 1, *LIMITS}, (
            cell.parent.title,
            cell.coordinate,
            cell.value,
        )


def test_xlsm_calls_only_udfs_that_exist(books):
    _, xlsm = books
    called = {m for c in formula_cells(xlsm) for m in CALL.findall(c.value) if m.upper() not in ALLOWED}
    assert {
        "surprise_range",
        "mass_survivors",
        "osr_expected_kills",
    } <= called
    for name in called:
        assert callable(getattr(udfs, name, None)), name


def test_the_empty_gm_tables_are_offered_for_filling(books):
    xlsx, _ = books
    assert "T_FUMBLE_TABLE_EFFECT" in xlsx.defined_names
    sheet, ref = next(iter(xlsx.defined_names["T_FUMBLE_TABLE_D20_FROM"].destinations))
    first = xlsx[sheet][ref.split(":")[0].replace("$", "")]
    assert first.value is None and first.protection.locked is False


def test_a_gm_filled_fumble_table_is_read_by_the_workbook(calc, tmp_path: Path):
    """The seed has no fumble table: filled by the GM in the YAML, the native formula reads it."""
    import os
    import shutil
    import subprocess
    import sys

    from pycalc.tables import PROJECT_ROOT, load_folder

    tables = tmp_path / "tables"
    shutil.copytree(PROJECT_ROOT / "tables" / "osr", tables / "osr")
    path = tables / "osr" / "criticals_fumbles.yaml"
    text = path.read_text(encoding="utf-8")
    gm_rows = (
        "    rows:\n"
        "      - {id: drop, label: Drop, d20_from: 1, d20_to: 10, effect: Drops weapon}\n"
        "      - {id: fall, label: Fall, d20_from: 11, d20_to: 18, effect: Falls down}\n"
    )
    start = text.index("  fumble_table:")
    rows_at = text.index("    rows: []\n", start)
    path.write_text(text[:rows_at] + gm_rows + text[rows_at + len("    rows: []\n") :], encoding="utf-8")
    rules = load_folder(tables / "osr")
    out = tmp_path / "out"
    env = {**os.environ, "PYCALC_TABLES": str(tables)}
    subprocess.run(
        [
            sys.executable,
            str(PROJECT_ROOT / "build.py"),
            "--ruleset",
            "osr",
            "--out",
            str(out),
            "--quiet",
            "--fresh",
        ],
        check=True,
        env=env,
        cwd=PROJECT_ROOT,
    )
    scenarios = [
        CalculatorInputs(target=10, roll=1, follow_roll=5, chart_roll=roll)
        for roll in (None, 1, 10, 11, 18, 19, 20)
    ]
    said = ["ATTACK_SUMMARY", "ATTACK_CHART_EFFECT"]
    got = calc.evaluate(out / "osr.xlsx", [attack_cells(rules, i) for i in scenarios], said)
    expected = [{n: attack_outputs(rules, i)[n] for n in said} for i in scenarios]
    assert got == expected
    assert expected[2]["ATTACK_SUMMARY"] == "Fumble (follow-up roll 5), Drops weapon"
    assert expected[5]["ATTACK_CHART_EFFECT"] == "#CHART ROLL? no row covers 19"


# --------------------------------------------------------------------------- the notes beside the picks

NOTE_NUMBER = re.compile(r"([+-]\d+) (to hit|to the number needed)")
UNCOUNTED = re.compile(r"AC [+-]\d+ \(not counted by the ruling\)")
NOTE_FACTOR = re.compile(r"damage x(\d+)")
MODES = {"Advantage": "advantage", "Disadvantage": "disadvantage"}
WORKINGS = ["ATTACK_SITUATION_HIT", "ATTACK_SITUATION_AC", "ATTACK_NEED", "ATTACK_SITUATION_MULTIPLIER"]


def osr_picks(rules: RuleSet) -> list[tuple[str, object]]:
    """Every pick of osr's calculator but a choice's first row: (its defined name, its value picked)."""
    block = rules.resolution_block
    assert block is not None and block.modifiers is not None
    found: list[tuple[str, object]] = []
    for table_id in block.modifiers:
        table = rules.table(table_id)
        if table.picker == "choice":
            found += [(pick_name(table_id), str(row.label)) for row in table.rows[1:]]
        else:
            found += [(pick_name(table_id, str(row.id)), True) for row in table.rows]
    return found


def note_claims(note: str) -> dict[str, object]:
    """What a generic note says a pick changes: to hit, the number needed (counted or not), the
    damage factor and the roll mode (the words of flags that need a typed number are left: none is typed)."""
    said: dict[str, object] = {"hit": 0, "need": 0, "factor": 1, "mode": "normal"}
    for value, what in NOTE_NUMBER.findall(UNCOUNTED.sub("", note)):
        said["hit" if what == "to hit" else "need"] = int(value)
    for factor in NOTE_FACTOR.findall(note):
        said["factor"] = int(factor)
    for words, mode in MODES.items():
        if re.search(rf"\b{words}\b", note):
            said["mode"] = mode
    return said


def test_every_pick_note_says_what_the_calculator_applies(calc, tmp_path: Path):
    """osr's notes are the generic writer's: for every pick, under the default rulings and with the AC
    changes left to the GM's matrix (ruling ac_change_to_number_needed), the note's to-hit, number
    needed, damage factor and Advantage are what picking it changes in the calculator."""
    picks = osr_picks(RULES)
    copy, note_of = with_note_names(WORKBOOKS / "osr.xlsx", [name for name, _ in picks], tmp_path)
    fixed = {"ATTACK_BONUS": 0, "ATTACK_TARGET": 12, "ATTACK_ROLL": 11, "ATTACK_DAMAGE_ROLL": 3}
    wrong, compared = [], 0
    for ruling in (flips(), flips("ac_change_to_number_needed"), flips("advantage_meets_disadvantage")):
        setting = {**fixed, **{ruling_name(r): c for r, c in ruling.items()}}
        outputs = [*WORKINGS, "ATTACK_ROLL_MODE", *note_of.values()]
        base, *picked = calc.evaluate(copy, [setting, *({**setting, n: v} for n, v in picks)], outputs)
        for (name, _), found in zip(picks, picked, strict=True):
            note = str(found[note_of[name]] or "")
            said = note_claims(note)
            did = {
                "hit": found["ATTACK_SITUATION_HIT"] - base["ATTACK_SITUATION_HIT"],
                "need": found["ATTACK_NEED"] - base["ATTACK_NEED"] + said["hit"],  # the to-hit part taken out
                "factor": found["ATTACK_SITUATION_MULTIPLIER"] / base["ATTACK_SITUATION_MULTIPLIER"],
                "mode": found["ATTACK_ROLL_MODE"],
            }
            compared += 1
            if said != did:
                wrong.append(f"{ruling} {name}: note {note!r} says {said}, calculator {did}")
    assert compared >= 3 * 20
    assert not wrong, f"{len(wrong)} of {compared}:\n" + "\n".join(wrong[:10])
