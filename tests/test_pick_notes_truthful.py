"""The note beside a pick says what the workings apply, under every choice of every ruling: for each of
combat17's Attack calculator toggles, the effect the note claims ("Attack roll -1, Damage -1", "damage x2",
"Target AC against melee -4") equals what ticking it changes in the engine's situation, and the sheet's
note shows the text of the ruling in force in LibreOffice."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from pycalc.resolution_situation import picker_tables
from pycalc.rulesets import combat17 as engine
from pycalc.sheets.combat17 import toggle_help
from pycalc.sheets.common import ruling_name
from pycalc.sheets.ruling_text import under
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import RuleSet, load_ruleset

RULES = load_ruleset("combat17")
WORKBOOK = Path(__file__).resolve().parent.parent / "workbook" / "combat17.xlsx"
CLAIM = re.compile(r"^(?P<what>.+?) (?P<value>[+-]\d+)$")
KIND_OF_AC = {"Target AC against melee": "melee", "Target AC against missiles": "missile"}


def rulings_one_at_a_time() -> list[tuple[str, RuleSet]]:
    found = [("defaults", RULES)]
    for ruling_id, ruling in RULES.rulings.items():
        found += [(f"{ruling_id}={c}", under(RULES, ruling_id, c)) for c in ruling.choices]
    return found


def applied(
    rules: RuleSet, table_id: str, row_id: str, kind: str
) -> tuple[engine.Situation, engine.Situation]:
    label = next(str(r.label) for r in rules.table("attack_kind").rows if r.id == kind)
    inputs = engine.AttackInputs(choices={"attack_kind": label})
    ticked = engine.AttackInputs(choices=inputs.choices, toggles=frozenset({(table_id, row_id)}))
    return engine.situation(rules, inputs), engine.situation(rules, ticked)


@pytest.mark.parametrize(
    ("case", "rules"), rulings_one_at_a_time(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_every_toggle_note_claims_what_ticking_it_applies(case: str, rules: RuleSet) -> None:
    for table_id in picker_tables(RULES, "toggle"):
        for row in rules.table(table_id).rows:
            note = toggle_help(rules, rules.table(table_id), row)
            for kind in ("melee", "missile"):
                said = sheet_claims(note, kind)
                if said.get("only", kind) != kind:
                    said = sheet_claims("", kind)  # an attack of another kind: nothing changes
                before, after = applied(rules, table_id, str(row.id), kind)
                did = {
                    "hit": after.hit - before.hit,
                    "ac": after.ac - before.ac,
                    "damage": after.damage - before.damage,
                    "factor": after.multiplier / before.multiplier,
                    "barred": after.barred and not before.barred,
                    "non_lethal": after.non_lethal and not before.non_lethal,
                }
                assert {k: said[k] for k in did} == did, f"{case} {table_id}.{row.id} ({kind}): {note!r}"


NOTE_COLUMN = "F"
WORKINGS = (
    "ATTACK_SITUATION_HIT",
    "ATTACK_SITUATION_AC",
    "ATTACK_SITUATION_DAMAGE",
    "ATTACK_DAMAGE_MULTIPLIER",
    "ATTACK_BARRED",
)


def kind_label(kind: str) -> str:
    return next(str(r.label) for r in RULES.table("attack_kind").rows if r.id == kind)


def sheet_claims(note: str, kind: str) -> dict[str, object]:
    """What a note on the sheet claims for an attack of ``kind``, in the workings' terms."""
    found: dict[str, object] = {
        "hit": 0,
        "ac": 0,
        "damage": 0,
        "factor": Fraction(1),
        "barred": False,
        "non_lethal": False,
    }
    if note in ("", "No modifier"):
        return found
    for part in note.split(", "):
        if part.startswith("damage x"):
            found["factor"] = Fraction(part.removeprefix("damage x"))
        elif part == "non-lethal":
            found["non_lethal"] = True
        elif part == "cannot hit":
            found["barred"] = True
        elif part.endswith(" only"):
            found["only"] = part.removesuffix(" only")
        else:
            read = CLAIM.match(part)
            assert read, f"a claim the test cannot read: {part!r}"
            what, value = read["what"], int(read["value"])
            if what == "Attack roll":
                found["hit"] = value
            elif what == "Damage":
                found["damage"] = value
            elif what == "Target AC" or KIND_OF_AC.get(what) == kind:
                found["ac"] = value
    return found


def picks() -> list[tuple[str, object, str]]:
    """(defined name of the pick, its value when picked, the attack kind it is tried with)."""
    found = []
    for table_id in picker_tables(RULES, "choice"):
        if table_id != "attack_kind":
            for row in RULES.table(table_id).rows[1:]:
                kind = row.values.get("applies_to")
                kind = "melee" if kind in (None, engine.ANY_ATTACK) else str(kind)
                found.append((pick_name(table_id), str(row.label), kind))
    for table_id in picker_tables(RULES, "toggle"):
        for row in RULES.table(table_id).rows:
            kind = row.values.get("applies_to")
            kinds = ["melee", "missile"] if kind in (None, engine.ANY_ATTACK) else [str(kind)]
            found += [(pick_name(table_id, row.id), True, k) for k in kinds]
    return found


@pytest.mark.timeout(600)
def test_every_pick_note_on_the_sheet_claims_what_the_workings_apply(calc, tmp_path: Path) -> None:
    """For every pick of the Attack calculator under every choice of every ruling (one at a time), in
    LibreOffice: the note beside it against what picking it changes in the calculator's workings."""
    book = openpyxl.load_workbook(WORKBOOK)
    sheet = book["Attack calculator"]
    note_of = {}
    for name, _, _ in picks():
        if name not in note_of:
            _, ref = next(iter(book.defined_names[name].destinations))
            note_of[name] = f"TEST_NOTE_{len(note_of)}"
            row = sheet[ref.replace("$", "")].row
            book.defined_names[note_of[name]] = DefinedName(
                note_of[name], attr_text=f"'{sheet.title}'!${NOTE_COLUMN}${row}"
            )
    copy = tmp_path / "combat17.xlsx"
    book.save(copy)
    defaults = {ruling_name(ruling_id): ruling.default for ruling_id, ruling in RULES.rulings.items()}
    rulings = [{}] + [
        {ruling_name(ruling_id): choice}
        for ruling_id, ruling in RULES.rulings.items()
        for choice in ruling.choices
    ]
    scenarios, cases = [], []
    for ruling in rulings:
        for kind in ("melee", "missile"):
            scenarios.append({**defaults, **ruling, "PICK_ATTACK_KIND": kind_label(kind)})
            cases.append((ruling, None, kind))
        for name, value, kind in picks():
            scenarios.append({**defaults, **ruling, "PICK_ATTACK_KIND": kind_label(kind), name: value})
            cases.append((ruling, name, kind))
    results = calc.evaluate(copy, scenarios, [*WORKINGS, *note_of.values()])
    base = {(str(r), k): found for (r, name, k), found in zip(cases, results, strict=True) if name is None}
    wrong = []
    for (ruling, name, kind), found in zip(cases, results, strict=True):
        if name is None:
            continue
        before = base[(str(ruling), kind)]
        note = found[note_of[name]] or ""
        said = sheet_claims(note, kind)
        did = {
            "hit": found["ATTACK_SITUATION_HIT"] - before["ATTACK_SITUATION_HIT"],
            "ac": found["ATTACK_SITUATION_AC"] - before["ATTACK_SITUATION_AC"],
            "damage": found["ATTACK_SITUATION_DAMAGE"] - before["ATTACK_SITUATION_DAMAGE"],
            "factor": Fraction(found["ATTACK_DAMAGE_MULTIPLIER"]).limit_denominator(100)
            / Fraction(before["ATTACK_DAMAGE_MULTIPLIER"]).limit_denominator(100),
            "barred": bool(found["ATTACK_BARRED"]) and not bool(before["ATTACK_BARRED"]),
        }
        claimed = {k: said[k] for k in did}
        if claimed != did:
            wrong.append(
                f"{ruling or 'defaults'} {name} ({kind}): note {note!r} claims {claimed}, workings {did}"
            )
    assert not wrong, f"{len(wrong)} of {len(cases)}:\n" + "\n".join(sorted(wrong, key=len)[:14])
