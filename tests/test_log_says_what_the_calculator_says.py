"""A log row says what the calculator says for the same roll: its result, the hit points it takes, the
target's hit points after and the calculator's outcome in one line (a roll that waits on a follow-up
says what to type; a follow-up roll the roll does not use is called out), in LibreOffice.

Each case is a one-row fight: the attacker and the target on the roster, one log row (in round 2, so
that *HP now* at round 1 is the target's hit points before the row), and the same roll typed into the
calculator with the attacker and the target picked from the roster."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.damage_kinds import labels
from pycalc.encounter import Attack, Combatant, Fight
from pycalc.encounter_block import SUBDUAL, encounter
from pycalc.encounter_rulesets import adapter
from pycalc.log_picks import UNKNOWN as PICKS_UNKNOWN
from pycalc.log_picks import by_name_tables, row_picks
from pycalc.resolution_calculator import chart_roll_bounds
from pycalc.sheets import target_state
from pycalc.sheets.common import name_part
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset
from tests.parity import same
from tests.test_encounter_parity import random_named_picks, random_stats, safe_labels, sheet_inputs, text

CASES = 300
LOG_OUTPUTS = ("LOG_RESULT", "LOG_HP_LOST", "LOG_TARGET_HP_AFTER", "LOG_SUMMARY")


def one_row_fight(rules: RuleSet, chance: random.Random) -> Fight:
    faces = 100 if rules.id == "spelljammer" else 20
    natural = chance.choice([1, 1, faces, faces, *range(1, faces + 1)])
    roster = [
        Combatant(
            name=name,
            side=side,
            max_hp=dropped_often(chance.randint(1, 40)),
            stats=random_stats(rules, chance),  # an empty cell: the stat's default on both
            init_rolls=(None,) * (1 + len(encounter(rules).initiative.later_dice)),
        )
        for name, side in (("Kara", "PCs"), ("Gnoll", "Foes"))
    ]
    picks = {
        t: chance.choice(safe_labels(rules, t)) for t in encounter(rules).log_picks if chance.random() < 0.5
    }
    row = Attack(
        attacker="Kara",
        target="Gnoll",
        round=2,
        roll=natural,
        follow_roll=chance.choice([None, None, chance.randint(1, 20)]),  # often stray: not asked for
        damage_roll=chance.choice([None, chance.randint(1, 12)]),
        extra_roll=chance.choice([None, chance.randint(1, 8)]),
        distance=chance.choice([None, chance.randint(0, 200)]),
        mods=chance.randint(-3, 3),
        picks=picks,
        named_picks=random_named_picks(rules, chance),
        kind=chance.choice(["", "", "", *subdual_kind(rules)]),  # the one line names the state it leaves
    )
    if any(roll.field == "chart_roll" for roll in adapter(rules).rolls):  # a chart of its own: its roll
        low, high = chart_roll_bounds(rules)
        row = replace(row, chart_roll=None if chance.random() < 0.4 else chance.randint(low - 1, high + 1))
    return Fight(roster, [row], [], round=1)


def dropped_often(drawn: int) -> int:
    """Hit points a hit often takes below 0 (a quarter of the draws: 1 to 3), from one draw (the other
    draws of the fight stay as they were)."""
    return 1 + drawn // 4 if drawn <= 10 else drawn


def subdual_kind(rules: RuleSet) -> list[str]:
    """The Kind typed for subdual damage (its label, its first letter), where the ruleset has it."""
    label = labels(rules).get(SUBDUAL)
    return [] if label is None else [label, label[:1].lower()]


def calculator_pick(book: openpyxl.Workbook, table_id: str) -> str:
    """The calculator's dropdown of a picker table (named PICK_X, or ATTACK_X in bfrpg)."""
    return next(
        n for n in (f"PICK_{table_id.upper()}", f"ATTACK_{table_id.upper()}") if n in book.defined_names
    )


def calculator_inputs(rules: RuleSet, book: openpyxl.Workbook, fight: Fight) -> dict[str, list[str]]:
    row, ruleset = fight.attacks[0], adapter(rules)
    found = {"FROM_ROSTER_ATTACKER": [row.attacker], "FROM_ROSTER_TARGET": [row.target]}
    for roll in ruleset.rolls:
        if f"LOG_{roll.field.upper()}" in book.defined_names:  # a roll the block never asks for: no column
            found[roll.calculator_name] = [text(getattr(row, roll.field))]
    found["STRIKE_MODS" if rules.id == "spelljammer" else "ATTACK_MODS"] = [text(row.mods)]
    found[target_state.KIND] = [row.kind]
    for table_id in encounter(rules).log_picks:
        label = row.picks.get(table_id, str(rules.table(table_id).rows[0].label))
        found[calculator_pick(book, table_id)] = [label]
    read = row_picks(rules, row.named_picks)
    for table_id in by_name_tables(rules):
        table = rules.table(table_id)
        if table.picker == "choice":
            found[calculator_pick(book, table_id)] = [read.choices.get(table_id, str(table.rows[0].label))]
            continue
        for pick in table.rows:
            box = next(
                f"{prefix}_{name_part(table_id)}_{name_part(str(pick.id))}"
                for prefix in ("PICK", "ATTACK", "STRIKE")
                if f"{prefix}_{name_part(table_id)}_{name_part(str(pick.id))}" in book.defined_names
            )
            found[box] = [text((table_id, str(pick.id)) in read.toggles)]
    return found


def hp_after_name(rules: RuleSet) -> str:
    return "TARGET_HP_AFTER" if rules.id == "spelljammer" else "ATTACK_HP_AFTER"


def calculator_says(rules: RuleSet, outputs: dict[str, list[object]]) -> dict[str, object]:
    ruleset = adapter(rules)
    lost = outputs[ruleset.hp_lost][0]
    after = outputs[hp_after_name(rules)][0]
    result = outputs[ruleset.result][0]
    if isinstance(lost, str) and lost.startswith("#") and not str(result).startswith("#"):
        result = lost  # the log says why a hit's damage cannot be worked out, as the calculator's line does
    return {
        "LOG_RESULT": result,
        "LOG_HP_LOST": lost if isinstance(lost, (int, float)) else 0,
        "LOG_TARGET_HP_AFTER": after if isinstance(after, (int, float)) else None,
        "LOG_SUMMARY": outputs[ruleset.summary][0],
    }


@pytest.mark.timeout(900)
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_log_row_says_what_the_calculator_says(calc, build_ruleset: Callable[[str], Path], ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    lines = log_and_calculator_lines(calc, rules, build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx", CASES)
    if rules.id != "spelljammer":  # the state the hit leaves the target in, once it cannot act
        assert sum(1 for line in lines if " HP: " in line) >= 3
    assert sum(1 for line in lines if "type the" in line or "clear it" in line) >= 10 or rules.id in (
        "cnc",
        "spelljammer",
    )


def log_and_calculator_lines(calc, rules: RuleSet, xlsx: Path, cases: int) -> list[str]:
    """One-row fights typed into the log and the calculator of one workbook: each log row must say
    what the calculator says; the log's lines."""
    book = openpyxl.load_workbook(xlsx, read_only=True)
    chance = random.Random(f"log-says-{rules.id}")
    fights = [one_row_fight(rules, chance) for _ in range(cases)]
    ruleset = adapter(rules)
    outputs = [*LOG_OUTPUTS, ruleset.result, ruleset.hp_lost, hp_after_name(rules), ruleset.summary]
    present = set(book.defined_names)
    scenarios = [
        {
            n: v
            for n, v in {**sheet_inputs(rules, f), **calculator_inputs(rules, book, f)}.items()
            if n in present
        }
        for f in fights
    ]
    results = calc.evaluate_columns(xlsx, scenarios, outputs)
    differ = []
    for k, got in enumerate(results):
        says = calculator_says(rules, {n: got[n] for n in outputs})
        if row_picks(rules, fights[k].attacks[0].named_picks).unknown:  # the log refuses the row
            says = {
                "LOG_RESULT": PICKS_UNKNOWN,
                "LOG_HP_LOST": 0,
                "LOG_TARGET_HP_AFTER": None,
                "LOG_SUMMARY": "",
            }
        for name, want in says.items():
            have = got[name][0]
            if name == "LOG_TARGET_HP_AFTER" and want is None:
                continue  # a miss or a wait: the calculator shows no HP after, the log the HP kept
            if not same("" if want is None else want, "" if have is None else have):
                differ.append(
                    f"case {k} {name}: calculator {want!r} != log {have!r} ({fights[k].attacks[0]})"
                )
    assert not differ, f"{len(differ)} differences, first:\n" + "\n".join(differ[:10])
    return [str(got["LOG_SUMMARY"][0]) for got in results]
