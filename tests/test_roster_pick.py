"""Picking the attacker and the target from the Encounter roster on the Attack (Strike) calculator:
in real LibreOffice, the calculator with two combatants picked says exactly what it says with their
roster numbers (and the target's hit points now, from the model) typed in by hand."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc.dice import parse
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.encounter_rulesets import adapter, start_hp
from pycalc.sheets.common import destinations
from pycalc.sheets.log_rows import names_in
from pycalc.sheets.roster_pick import PICKS, calculator_sheet
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset
from tests.parity import same
from tests.test_encounter_parity import random_fight, sheet_inputs, text
from tests.test_generic_parity import gated_bx  # noqa: F401 (a fixture)

CASES = 25


def calculator_names(book: openpyxl.Workbook) -> tuple[list[str], list[str]]:
    """The calculator sheet's single-cell names: (its formula outputs, its typed inputs)."""
    sheet = calculator_sheet(book)
    outputs, inputs = [], []
    for name, defined in book.defined_names.items():
        places = destinations(defined)
        if len(places) != 1 or places[0][0] != sheet.title or ":" in places[0][1]:
            continue
        cell = sheet[places[0][1].replace("$", "")]
        if isinstance(cell.value, str) and cell.value.startswith("="):
            if not name.endswith(("_IN_USE", "_FROM_ROSTER")):
                outputs.append(name)
        elif cell.protection.locked is False:
            inputs.append(name)
    return outputs, inputs


def roster_numbers(rules: RuleSet, fight, index: int, states) -> dict[str, object]:
    """What the roster gives for the combatant at ``index``, by stat id (an empty cell: the stat's
    default, as a log row counts it)."""
    me, state = fight.lines[index], states[index]
    found: dict[str, object] = {s.id: s.default for s in adapter(rules).stats}
    found |= {k: v for k, v in me.stats.items() if v not in (None, "")}
    for stat in adapter(rules).stats:  # the roster's dice are three numbers: d6 reads 1d6
        if stat.kind == "dice" and found.get(stat.id) not in (None, ""):
            found[stat.id] = str(parse(found[stat.id]))
    found |= {"dex": me.dex, "max_hp": me.max_hp, "hp_now": state.hp_now, "hp_at_start": start_hp(me)}
    found["subdual_taken"] = state.subdual
    if "ROSTER_PROT_NOW" in state.extra:
        found["prot_now"] = state.extra["ROSTER_PROT_NOW"]
    return found


@pytest.mark.timeout(600)
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_picked_combatant_fills_the_calculator(calc, build_ruleset: Callable[[str], Path], ruleset_id: str):
    rules, xlsx = load_ruleset(ruleset_id), build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    assert set(adapter(rules).filled_from_roster()) <= set(calculator_names(openpyxl.load_workbook(xlsx))[1])
    picked_equals_typed(calc, rules, xlsx)


@pytest.mark.timeout(600)
def test_a_picked_combatant_fills_the_typed_numbers(calc, gated_bx):  # noqa: F811
    """An own ruleset's typed numbers of the attacker or the defender (``situation.numbers`` with
    ``of``) are roster columns: a picked combatant fills the calculator's cells for them."""
    rules, xlsx = gated_bx
    filled = adapter(rules).filled_from_roster()
    assert {"ATTACK_NUMBER_DEFENDER_DEX", "ATTACK_NUMBER_FURY"} <= set(filled)
    picked_equals_typed(calc, rules, xlsx)


def picked_equals_typed(calc, rules: RuleSet, xlsx: Path) -> None:
    """The calculator with two combatants picked says what it says with their roster numbers typed."""
    ruleset_id = rules.id
    book = openpyxl.load_workbook(xlsx)
    outputs, inputs = calculator_names(book)
    filled = {n: source for n, source in adapter(rules).filled_from_roster().items() if n in inputs}
    assert filled
    rolls = [r.calculator_name for r in adapter(rules).rolls if r.calculator_name in inputs]
    chance = random.Random(f"roster-pick-{ruleset_id}")
    scenarios, cases = [], 0
    while cases < CASES:
        fight = random_fight(rules, chance)
        named = [i for i, c in enumerate(fight.roster) if c.name]
        states = roster_state(rules, fight, resolve_log(rules, fight))
        picked = {who: chance.choice(named) for who in PICKS}
        roll = {name: [text(chance.randint(1, 20))] for name in rolls}
        encounter = sheet_inputs(rules, fight)
        by_pick = {
            **encounter,
            **roll,
            **{PICKS[who][2]: [fight.roster[i].name] for who, i in picked.items()},
        }
        by_hand = {**encounter, **roll, **{PICKS[who][2]: [""] for who in PICKS}}
        numbers = {who: roster_numbers(rules, fight, i, states) for who, i in picked.items()}
        for name, (who, stat_id) in filled.items():
            if stat_id in numbers[who]:
                by_hand[name] = [text(numbers[who][stat_id])]
        scenarios += [by_pick, by_hand]
        cases += 1
    present = set(book.defined_names)
    scenarios = [{n: v for n, v in s.items() if n in present} for s in scenarios]
    flags = [f"{name}_FROM_ROSTER" for name in filled]
    results = calc.evaluate_columns(xlsx, scenarios, outputs + flags)
    for flag in flags:  # the picks did fill (the roster cell was filled), and typing alone does not
        assert sum(bool(r[flag][0]) for r in results[0::2]) > CASES // 2, flag
        assert not any(r[flag][0] for r in results[1::2]), flag
    differ = [
        f"case {k // 2} {name}: picked {results[k][name]!r} != typed {results[k + 1][name]!r}"
        for k in range(0, len(results), 2)
        for name in outputs
        if not same(results[k + 1][name][0], results[k][name][0])
    ]
    assert not differ, f"{len(differ)} differences, first:\n" + "\n".join(differ[:8])


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_formula_reads_the_used_number(build_ruleset: Callable[[str], Path], ruleset_id: str):
    """Outside the Encounter sheet and the used cells themselves, no formula reads a typed cell a
    roster pick overrides (it would ignore the pick)."""
    filled = set(adapter(load_ruleset(ruleset_id)).filled_from_roster())
    for suffix in ("xlsx", "xlsm"):
        book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}")
        used_cells = {
            destinations(book.defined_names[f"{n}_{s}"])[0][1].replace("$", "")
            for n in filled
            for s in ("IN_USE", "FROM_ROSTER")
        }
        calculator = calculator_sheet(book).title
        for sheet in book.worksheets:
            if sheet.title in ("Encounter", "Log"):
                continue
            for row in sheet.iter_rows():
                for cell in row:
                    if not (isinstance(cell.value, str) and cell.value.startswith("=")):
                        continue
                    if sheet.title == calculator and cell.coordinate in used_cells:
                        continue
                    read = set(names_in(cell.value[1:])) & filled
                    assert not read, f"{suffix} {sheet.title}!{cell.coordinate} reads {read}"
