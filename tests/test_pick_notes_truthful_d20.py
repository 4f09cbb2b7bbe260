"""The note beside a pick says what the workings apply, for BFRPG (cnc's, osr's and combat17's
calculators are the generic writer's: test_cnc_parity, test_osr_parity, test_combat17_parity): for
every pick of the Attack calculator, under every choice of every ruling (one at a time) and two sets
of the attacker's and target's numbers (Dex, shield), the effect the note claims ("To hit -3 + Dex
modifier, at most +0", "Number needed - target's shield", "damage x1/2 rounded up") is worked out
from the note as LibreOffice shows it, and compared with what picking it changes in the calculator's
workings (the roll, the AC or number needed, the damage of a hit, the flags)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from pycalc.libreoffice import CalcSession
from pycalc.rulesets import bfrpg
from pycalc.sheets import bfrpg as bfrpg_sheet
from pycalc.sheets.common import ruling_name
from pycalc.tables import RuleSet, load_ruleset

WORKBOOKS = Path(__file__).resolve().parent.parent / "workbook"
DAMAGE_ROLL, DICE_MAX = 3, 8  # bfrpg's runs: an odd roll of the 1d8 (a halving rounds), its maximum
NOTE_COLUMN = "F"
Found = dict[str, object]


@dataclass(frozen=True)
class Spec:
    """How a ruleset's Attack calculator is read: its picks, the numbers tried, the workings measured
    (effect -> a function of the outputs), and the note's words (number words, inputs, flags)."""

    choices: tuple[str, ...]
    toggles: tuple[str, ...]
    pick_name: Callable[[str, str | None], str]
    kinds: tuple[tuple[str, str], ...]  # (name the note gives the kind: "ranged", the kind pick's value)
    kind_pick: str
    numbers: tuple[dict[str, int], ...]  # the inputs of each run (Dex, shield...)
    fixed: dict[str, object]  # inputs every scenario has (a roll that hits, a damage roll)
    workings: dict[str, Callable[[Found], object]]
    what: dict[str, str]  # a number's words -> the effect it claims
    inputs: dict[str, str]  # an input's words -> its defined name
    flags: dict[str, tuple[str, object]]  # words -> (effect, value claimed)
    kinds_of: Callable[[str, object], tuple[str, ...]]  # (table id, row) -> the kinds a pick is tried with
    unmeasured: tuple[str, ...] = ()  # words saying what these workings do not show (kept to a list)
    only_words: dict[str, str] = field(default_factory=dict)  # "<kind> only" words -> kind


def number(found: Found, name: str) -> float:
    value = found[name]
    assert isinstance(value, (int, float)), f"{name}: {value!r}"
    return value


def kinds_of_table(rules: RuleSet, table_id: str) -> tuple[tuple[str, str], ...]:
    """("melee", the first melee kind's label), ("ranged", the first ranged kind's label)."""
    rows = rules.table(table_id).rows
    return tuple(
        (kind, str(next(r.label for r in rows if bool(r["ranged"]) == (kind == "ranged"))))
        for kind in ("melee", "ranged")
    )


BFRPG_RULES = load_ruleset("bfrpg")
BFRPG = Spec(
    choices=bfrpg.picker_tables(BFRPG_RULES, "choice"),
    toggles=bfrpg.picker_tables(BFRPG_RULES, "toggle"),
    pick_name=bfrpg_sheet.attack_pickers(load_ruleset("bfrpg")).name,
    kinds=kinds_of_table(load_ruleset("bfrpg"), "attack_kinds"),
    kind_pick="PICK_ATTACK_KINDS",
    numbers=({"ATTACK_STR_BONUS": 1, "ATTACK_DEX_BONUS": 2}, {"ATTACK_STR_BONUS": 3, "ATTACK_DEX_BONUS": 1}),
    # every attack hits (AC far below any roll), a roll with no critical threat, an odd damage roll
    fixed={
        "ATTACK_BONUS": 0,
        "ATTACK_TARGET": -40,
        "ATTACK_ROLL": 12,
        "ATTACK_DAMAGE_ROLL": DAMAGE_ROLL,
        "ATTACK_DICE": "1d8",
    },
    workings={
        "hit": lambda f: number(f, "ATTACK_SITUATION_HIT"),
        "ac": lambda f: number(f, "ATTACK_SITUATION_AC"),
        "own_ac": lambda f: number(f, "ATTACK_OWN_AC_CHANGE"),
        "ability": lambda f: number(f, "ATTACK_ABILITY_BONUS"),
        "damage": lambda f: f["ATTACK_DAMAGE"],
        "auto_hit": lambda f: bool(f["ATTACK_AUTO_HIT"]),
        "blocked": lambda f: f["ATTACK_BLOCKED"] not in ("", None),
        "subdual": lambda f: "subduing" in str(f["ATTACK_EFFECT"]),
    },
    what={"Attack roll": "hit", "Target AC": "ac", "Own AC": "own_ac"},
    inputs={"DEX bonus": "ATTACK_DEX_BONUS"},
    flags={
        "melee: automatic hit for double maximum damage": ("auto_hit", True),
        "no attack possible": ("blocked", True),
        "subduing damage": ("subdual", True),
    },
    kinds_of=lambda table_id, row: (
        ("ranged", "melee")
        if table_id in bfrpg.ranged_only(load_ruleset("bfrpg"))
        else ("melee", "ranged")
        if table_id in bfrpg.melee_only(load_ruleset("bfrpg"))
        else ("melee",)
    ),
    unmeasured=(
        "shield specialist damage +1",
        "a critical deals a hit's damage",  # the critical damage: the parity tests  # no shield specialist in these runs
        "other damage multipliers too",  # a helpless target's damage with a charge: the parity tests
        "no other damage multiplier",
        "a critical's maximum die not multiplied",
        "Extra damage for a shield specialist",
        "Parry roll bonus",
        "Cumulative parry penalty per parry after the first",
        "Parries per round (blank = all attacks)",
        "Most movement (ft; blank = no limit of its own)",
    ),
    only_words={"melee only": "melee", "ranged attacks only": "ranged"},
)

SPECS = {
    "bfrpg": BFRPG
}  # cnc's, osr's and combat17's calculators are the generic writer's (their parity tests)
ABILITY = re.compile(r"^adds (the STR bonus|the DEX bonus|the better of the STR and DEX bonus)$")
FACTOR = re.compile(r"^damage x(?P<factor>\d+(?:/\d+)?)(?: rounded (?P<way>up|down))?$")
DICE = re.compile(r"^damage \d*d\d+(?P<str> \+ STR bonus)?$")
CAP = re.compile(r"^at (?P<which>most|least) (?P<value>[+-]\d+)$")
NUMBER = re.compile(r"^(?P<what>.+?)(?: (?P<value>[+-]\d+))?$")
NOT_COUNTED = " not counted: type the number needed for it"


def claims(spec: Spec, note: str, numbers: dict[str, int], base: Found, kind: str) -> dict[str, object]:
    """What ``note`` claims picking changes, in the workings' terms, for these inputs; {} when the note
    says the pick does nothing to an attack of ``kind``. A part the test cannot read fails it."""
    said: dict[str, object] = {}
    if note in ("", "No modifier"):
        return said
    last = None
    for part in note.split(", "):
        if part in spec.only_words:
            if spec.only_words[part] != kind:
                return {}
        elif part in spec.flags:
            effect, value = spec.flags[part]
            said[effect] = value
            if effect == "auto_hit":
                said["damage"] = 2 * DICE_MAX  # "double maximum damage" of the 1d8
        elif part in spec.unmeasured or part.endswith(NOT_COUNTED) or ABILITY.match(part):
            if ABILITY.match(part):
                strength, dex = numbers.get("ATTACK_STR_BONUS", 0), numbers.get("ATTACK_DEX_BONUS", 0)
                said["ability"] = {"STR": strength, "DEX": dex}.get(part.split()[2], max(strength, dex))
        elif read := CAP.match(part):
            assert last is not None, f"a cap on nothing: {note!r}"
            limit = int(read["value"])
            said[last] = min(said[last], limit) if read["which"] == "most" else max(said[last], limit)
        elif read := DICE.match(part):
            said["damage"] = DAMAGE_ROLL + (numbers.get("ATTACK_STR_BONUS", 0) if read["str"] else 0)
        elif read := FACTOR.match(part):
            said["factor"] = Fraction(read["factor"])
            said["rounded"] = read["way"]
        else:
            first, *rest = re.split(r" ([+-]) ", part)
            read = NUMBER.match(first)
            if read and read["what"] in spec.unmeasured:
                continue
            assert read and read["what"] in spec.what, f"a claim the test cannot read: {part!r} in {note!r}"
            value = int(read["value"] or 0)
            for sign, words in zip(rest[::2], rest[1::2], strict=True):
                assert words in spec.inputs, f"an input the test does not know: {words!r} in {note!r}"
                value += (1 if sign == "+" else -1) * numbers.get(spec.inputs[words], 0)
            last = spec.what[read["what"]]
            said[last] = value
    if "factor" in said and "damage" in spec.workings and "damage" not in said:
        exact = Fraction(said.pop("factor")) * int(number(base, "ATTACK_DAMAGE"))
        way = said.pop("rounded")
        assert way or exact.denominator == 1, f"an inexact damage with no rounding said: {note!r}"
        said["damage"] = math.ceil(exact) if way == "up" else math.floor(exact)
    said.pop("rounded", None)
    return said


def applied(spec: Spec, before: Found, after: Found) -> dict[str, object]:
    """What picking changed in the workings: numbers as differences (the damage and the ability bonus
    as they are), flags as the picked value where it differs."""
    did: dict[str, object] = {}
    for effect, read in spec.workings.items():
        old, new = read(before), read(after)
        if old == new:
            continue
        if effect in ("damage", "ability") or isinstance(new, bool):
            did[effect] = new
        elif effect == "factor":
            did[effect] = Fraction(new) / Fraction(old)
        else:
            did[effect] = new - old
    return did


def expected(spec: Spec, said: dict[str, object], before: Found) -> dict[str, object]:
    """The claims as differences from the workings before the pick (a claim equal to 'no change' drops)."""
    found = {}
    for effect, value in said.items():
        old = spec.workings[effect](before)
        if effect in ("damage", "ability") or isinstance(value, bool):
            if value != old:
                found[effect] = value
        elif effect == "factor":
            if value != 1:
                found[effect] = Fraction(value)
        elif value:
            found[effect] = value
    return found


def picks(spec: Spec, rules: RuleSet) -> list[tuple[str, object, tuple[str, ...]]]:
    """(defined name of the pick, its value when picked, the attack kinds it is tried with): every row
    but a choice table's first; the attack kind's rows from the first kind (the ability each adds)."""
    found: list[tuple[str, object, tuple[str, ...]]] = []
    for table_id in spec.choices:
        is_kind = spec.pick_name(table_id, None) == spec.kind_pick
        for row in rules.table(table_id).rows[1:]:
            kinds = (spec.kinds[0][0],) if is_kind else spec.kinds_of(table_id, row)
            found.append((spec.pick_name(table_id, None), str(row.label), kinds))
    for table_id in spec.toggles:
        for row in rules.table(table_id).rows:
            found.append((spec.pick_name(table_id, str(row.id)), True, spec.kinds_of(table_id, row)))
    return found


def with_note_names(xlsx: Path, names: list[str], tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the workbook with a defined name on the note beside each pick."""
    book = openpyxl.load_workbook(xlsx)
    sheet = book["Attack calculator"]
    note_of = {}
    for name in dict.fromkeys(names):
        _, ref = next(iter(book.defined_names[name].destinations))
        note_of[name] = f"TEST_NOTE_{len(note_of)}"
        row = sheet[ref.replace("$", "")].row
        book.defined_names[note_of[name]] = DefinedName(
            note_of[name], attr_text=f"'{sheet.title}'!${NOTE_COLUMN}${row}"
        )
    copy = tmp_path / xlsx.name
    book.save(copy)
    return copy, note_of


def rulings(rules: RuleSet) -> list[dict[str, str]]:
    return [{}] + [
        {ruling_name(ruling_id): choice}
        for ruling_id, ruling in rules.rulings.items()
        for choice in ruling.choices
    ]


def wrong_notes(
    calc: CalcSession, ruleset_id: str, tmp_path: Path, rules: RuleSet, xlsx: Path
) -> tuple[list[str], int]:
    spec = SPECS[ruleset_id]
    tried = picks(spec, rules)
    copy, note_of = with_note_names(xlsx, [name for name, _, _ in tried], tmp_path)
    defaults = {ruling_name(ruling_id): ruling.default for ruling_id, ruling in rules.rulings.items()}
    outputs = sorted({*note_of.values(), *NAMES[ruleset_id]})
    scenarios, cases = [], []
    for ruling in rulings(rules):
        for numbers in spec.numbers:
            for kind, kind_label in spec.kinds:
                setting = {**defaults, **ruling, **spec.fixed, **numbers}
                if spec.kind_pick:
                    setting[spec.kind_pick] = kind_label
                scenarios.append(setting)
                cases.append((ruling, numbers, kind, None))
                for name, value, kinds in tried:
                    if kind not in kinds:
                        continue
                    scenarios.append({**setting, name: value})
                    cases.append((ruling, numbers, kind, name))
    results = calc.evaluate(copy, scenarios, outputs)
    base = {
        (str(ruling), str(numbers), kind): found
        for (ruling, numbers, kind, name), found in zip(cases, results, strict=True)
        if name is None
    }
    wrong = []
    for (ruling, numbers, kind, name), found in zip(cases, results, strict=True):
        if name is None:
            continue
        before = base[(str(ruling), str(numbers), kind)]
        note = str(found[note_of[name]] or "")
        try:
            said = expected(spec, claims(spec, note, numbers, before, kind), before)
        except AssertionError as unreadable:  # a note that claims what the test cannot read is wrong too
            wrong.append(f"{ruling or 'defaults'} {name}: {unreadable}")
            continue
        did = applied(spec, before, found)
        if said.get("blocked"):
            did.pop("damage", None)  # no attack: the damage cell says so, not a number
        if said != did:
            wrong.append(
                f"{ruling or 'defaults'} {numbers} {name} ({kind}): note {note!r} claims {said}, workings {did}"
            )
    return wrong, len(cases) - len(base)


NAMES = {
    "bfrpg": (
        "ATTACK_SITUATION_HIT",
        "ATTACK_SITUATION_AC",
        "ATTACK_OWN_AC_CHANGE",
        "ATTACK_ABILITY_BONUS",
        "ATTACK_DAMAGE",
        "ATTACK_AUTO_HIT",
        "ATTACK_BLOCKED",
        "ATTACK_EFFECT",
    ),
}


@pytest.mark.timeout(900)
@pytest.mark.parametrize("ruleset_id", sorted(SPECS))
def test_every_pick_note_claims_what_the_workings_apply(
    calc: CalcSession, ruleset_id: str, tmp_path: Path
) -> None:
    rules = load_ruleset(ruleset_id)
    wrong, count = wrong_notes(calc, ruleset_id, tmp_path, rules, WORKBOOKS / f"{ruleset_id}.xlsx")
    assert count > 100
    assert not wrong, f"{len(wrong)} of {count}:\n" + "\n".join(sorted(wrong, key=len)[:14])
