"""The Encounter sheet as built: its defined names, what a rebuild keeps, and the model on fights a
GM can check by hand (the seed's initiative rules)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

import build
import pycalc.udfs
from pycalc.encounter import LOG_SIZE, ROSTER_SIZE, Attack, Combatant, Condition, Fight
from pycalc.encounter_initiative import order
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.tables import RULESET_IDS, load_ruleset

NAMES = {
    "ENC_ROUND": 1,
    "ROSTER_NAME": ROSTER_SIZE,
    "ROSTER_SIDE": ROSTER_SIZE,
    "ROSTER_GROUP": ROSTER_SIZE,
    "ROSTER_INIT_ROLL": ROSTER_SIZE,
    "ROSTER_DEX": ROSTER_SIZE,
    "ROSTER_MAX_HP": ROSTER_SIZE,
    "ROSTER_ORDER": ROSTER_SIZE,
    "ROSTER_HP_NOW": ROSTER_SIZE,
    "ROSTER_STATE": ROSTER_SIZE,
    "LOG_ROUND": LOG_SIZE,
    "LOG_ATTACKER": LOG_SIZE,
    "LOG_TARGET": LOG_SIZE,
    "LOG_ROLL": LOG_SIZE,
    "LOG_DAMAGE_ROLL": LOG_SIZE,
    "LOG_MODS": LOG_SIZE,
    "LOG_FLAT_DAMAGE": LOG_SIZE,
    "LOG_RESULT": LOG_SIZE,
    "LOG_HP_LOST": LOG_SIZE,
    "COND_TARGET": 40,
    "COND_NAME": 40,
    "COND_START": 40,
    "COND_ROUNDS": 40,
}
STATS = {
    "cnc": ("ROSTER_ATTACK_BONUS", "ROSTER_AC", "ROSTER_DICE", "ROSTER_RANGE_INCREMENT"),  # no level rule
    "osr": ("ROSTER_ATTACK_BONUS", "ROSTER_NEEDED", "ROSTER_DICE", "ROSTER_LEVEL"),
    "combat17": ("ROSTER_ATTACK_BONUS", "ROSTER_AC", "ROSTER_DICE"),  # no level rule for attacks
    "bfrpg": (
        "ROSTER_ATTACK_BONUS",
        "ROSTER_AC",
        "ROSTER_DICE",
        "ROSTER_NUMBER_ATTACKER_STR",
    ),  # DEX: ROSTER_DEX
    "spelljammer": (
        "ROSTER_SC",
        "ROSTER_DEF",
        "ROSTER_CON",
        "ROSTER_SIZE",
        "ROSTER_PROT",
        "ROSTER_DICE",
        "ROSTER_RANK",
    ),
}


def cells_of(book: openpyxl.Workbook, name: str) -> list:
    title, ref = next(iter(book.defined_names[name].destinations))
    found = book[title][ref.replace("$", "")]
    return [c for row in found for c in row] if isinstance(found, tuple) else [found]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_name_covers_one_column_of_the_encounter_sheet(build_ruleset, ruleset_id: str):
    for suffix in ("xlsx", "xlsm"):
        book = openpyxl.load_workbook(
            build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}", keep_vba=suffix == "xlsm"
        )
        for name, size in {**NAMES, **dict.fromkeys(STATS[ruleset_id], ROSTER_SIZE)}.items():
            cells = cells_of(book, name)
            assert len(cells) == size and len({c.column for c in cells}) == 1, name
            assert {c.parent.title for c in cells} == {
                "Log" if name.startswith(("LOG_", "ENC_")) else "Encounter"
            }
        udfs = {n.upper() for n in dir(pycalc.udfs) if not n.startswith("_")}
        assert not udfs & {n.upper() for n in book.defined_names}


def test_the_xlsm_log_resolves_through_the_udfs(build_ruleset):
    book = openpyxl.load_workbook(build_ruleset("spelljammer") / "spelljammer.xlsm", keep_vba=True)
    formulas = [c.value for row in book["Log"].iter_rows() for c in row if isinstance(c.value, str)]
    assert any("strike_result(" in f for f in formulas)
    native = openpyxl.load_workbook(build_ruleset("spelljammer") / "spelljammer.xlsx")
    assert not any("strike_result(" in str(c.value) for row in native["Log"].iter_rows() for c in row)


def test_a_rebuild_keeps_the_roster_the_logs_and_the_round(tmp_path: Path):
    out = tmp_path / "out"
    assert build.main(["--ruleset", "cnc", "--out", str(out), "--quiet"]) == 0
    path = out / "cnc.xlsx"
    book = openpyxl.load_workbook(path)
    cells_of(book, "ENC_ROUND")[0].value = 3
    cells_of(book, "ROSTER_NAME")[0].value = "Aldric"
    cells_of(book, "ROSTER_AC")[0].value = 17
    cells_of(book, "LOG_ATTACKER")[5].value = "Aldric"
    cells_of(book, "LOG_ROLL")[5].value = 14
    cells_of(book, "COND_NAME")[1].value = "Prone"
    book.save(path)
    assert build.main(["--ruleset", "cnc", "--out", str(out), "--quiet"]) == 0
    rebuilt = openpyxl.load_workbook(path)
    kept = [
        cells_of(rebuilt, n)[i].value for n, i in (("ENC_ROUND", 0), ("ROSTER_NAME", 0), ("ROSTER_AC", 0))
    ]
    kept += [
        cells_of(rebuilt, n)[i].value for n, i in (("LOG_ATTACKER", 5), ("LOG_ROLL", 5), ("COND_NAME", 1))
    ]
    assert kept == [3, "Aldric", 17, "Aldric", 14, "Prone"]


def test_cnc_initiative_ties_go_to_the_higher_dexterity_then_act_together():
    rules = load_ruleset("cnc")
    roster = [
        Combatant("Aldric", init_rolls=(7,), dex=1),
        Combatant("Brenna", init_rolls=(7,), dex=2),
        Combatant("Cade", init_rolls=(7,), dex=1),
        Combatant("Orc", init_rolls=(9,)),
    ]
    assert order(rules, roster) == [3, 2, 3, 1]  # Aldric and Cade: equal roll, equal Dex, simultaneous
    states = roster_state(rules, Fight(roster))
    assert [s.simultaneous for s in states] == [True, False, True, False]


def test_osr_group_shares_the_roll_typed_on_its_first_line():
    rules = load_ruleset("osr")
    roster = [
        Combatant("Hero", init_rolls=(4,)),
        Combatant("Goblin 1", group="goblins", init_rolls=(4,)),
        Combatant("Goblin 2", group="goblins"),
    ]
    states = roster_state(rules, Fight(roster))
    assert [s.order for s in states] == [1, 1, 1]
    assert [s.simultaneous for s in states] == [True, True, True]  # the hero acts with the goblins


def test_spelljammer_later_attacks_and_lost_actions():
    rules = load_ruleset("spelljammer")
    # the seed's nutshell: IM +2, two attacks -> 1d10+2 and 1d8+2; equal numbers: the second goes
    # the table's later_tie_delay (1 segment) later
    hero = Combatant("Hero", init_rolls=(5, 5), dex=2)
    slow = Combatant("Slow", init_rolls=(1, 1), dex=-4, action="Run (up to TMR) and attack")
    states = roster_state(rules, Fight([hero, slow]))
    delay = rules.constant("initiative_rules", "later_tie_delay")
    assert (states[0].initiative, states[0].later[0], delay) == (7, 6, 1)
    assert states[1].initiative == 1 - 4 - 7 and states[1].lost == 2  # -10 and -11: both lost (-6 or later)


def test_damage_comes_off_the_target_and_an_area_hit_takes_it_from_each():
    rules = load_ruleset("cnc")
    roster = [
        Combatant("Mage", max_hp=10, stats={"attack_bonus": 0, "ac": 10, "dice": "1d6"}),
        Combatant("Orc 1", max_hp=8, stats={"ac": 13}),
        Combatant("Orc 2", max_hp=8, stats={"ac": 13}),
    ]
    attacks = [Attack("Mage", "Orc 1", round=1, roll=20, damage_roll=5, also=("Orc 2",))]
    fight = Fight(roster, attacks, [Condition("Orc 1", "Prone", 1, 2)], round=2)
    assert [(r.result, r.hp_lost) for r in resolve_log(rules, fight)] == [("Hit", 5)]
    states = roster_state(rules, fight)
    assert [s.hp_now for s in states] == [10, 3, 3]
    assert states[1].conditions == "Prone (to round 2)"
    assert roster_state(rules, Fight(roster, attacks, fight.conditions, round=3))[1].conditions == ""


def test_a_damage_row_needs_no_roll_nor_attacker_and_hits_every_target():
    rules = load_ruleset("cnc")
    roster = [Combatant("Orc 1", max_hp=8), Combatant("Orc 2", max_hp=8), Combatant("Mage", max_hp=10)]
    attacks = [
        Attack("", "Orc 1", round=1, damage=6, also=("Orc 2",)),  # a fireball, a trap: no attack roll
        Attack("Mage", "Orc 2", damage=1, roll=1),  # the roll typed beside it is not resolved
        Attack("Nobody", "Orc 1", damage=3),
        Attack("", "Ogre", damage=3),
    ]
    log = resolve_log(rules, Fight(roster, attacks))
    assert [(r.result, r.hp_lost) for r in log] == [
        ("Damage", 6),
        ("Damage", 1),
        ("#ATTACKER? a name on the roster", 0),
        ("#TARGET? a name on the roster", 0),
    ]
    assert [s.hp_now for s in roster_state(rules, Fight(roster, attacks), log)] == [2, 1, 10]


def test_spelljammer_state_ignores_the_wound_band_a_combatant_starts_in():
    """The seed's exception: starting hit points inside a wound band give no modifier until the next
    band; the State column follows the modifier (an unhurt 15-HP goblin is not "Badly Wounded")."""
    rules = load_ruleset("spelljammer")
    goblin = Combatant("Goblin", max_hp=15)
    for damage, state in (
        (0, "Wounded / Bloodied / unhurt"),
        (4, "Wounded / Bloodied / unhurt"),
        (5, "Very Badly Wounded"),
    ):
        attacks = [Attack("", "Goblin", damage=damage)]
        assert roster_state(rules, Fight([goblin], attacks))[0].state == state
    veteran = Combatant("Veteran", max_hp=40)
    assert (
        roster_state(rules, Fight([veteran], [Attack("", "Veteran", damage=22)]))[0].state == "Badly Wounded"
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_damage_dice_are_typed_as_three_whole_numbers(build_ruleset, ruleset_id: str):
    """LibreOffice's AutoInput completed a typed 1d6 under 1d6+1 into 1d6+1 (every goblin hit +1 damage):
    the dice are typed as numbers (count, sides, bonus), which AutoInput never completes, and the dice
    text the rows read is a locked formula of them."""
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    sheet = book["Encounter"]
    checked = {
        place: check
        for check in sheet.data_validations.dataValidation
        for ranges in check.sqref.ranges
        for place in ranges.cells
    }
    for part in ("COUNT", "SIDES", "BONUS"):
        cells = cells_of(book, f"ROSTER_DICE_{part}")
        assert all(c.protection.locked is False for c in cells)
        assert all(checked[(c.row, c.column)].type == "whole" for c in cells)
    dice = cells_of(book, "ROSTER_DICE")
    assert all(c.protection.locked is not False and str(c.value).startswith("=") for c in dice)
    assert sheet.column_dimensions[dice[0].column_letter].hidden


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_header_above_a_typed_number_starts_with_a_digit(build_ruleset, ruleset_id: str):
    """AutoInput also completes from a column's header: a damage roll "2" typed under "2nd damage
    roll" became that text (and the check turned it away) in the LibreOffice window."""
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    headers = [
        book[cells[0].parent.title].cell(cells[0].row - 1, cells[0].column).value
        for name in book.defined_names
        if name.startswith(("LOG_", "ROSTER_"))
        and (cells := cells_of(book, name))[0].parent.title in ("Encounter", "Log")
        and cells[0].protection.locked is False
    ]
    assert headers
    assert not [h for h in headers if str(h or "")[:1].isdigit()]


def test_a_hit_whose_dice_cannot_be_read_says_so_in_the_log():
    """AutoInput's "1d8+" on the roster: the row says why no damage came off, not "Hit" and 0."""
    rules = load_ruleset("cnc")
    roster = [
        Combatant("Orc", max_hp=8, stats={"dice": "1d8+"}),
        Combatant("Bera", max_hp=12, stats={"ac": 10}),
    ]
    log = resolve_log(rules, Fight(roster, [Attack("Orc", "Bera", roll=18, damage_roll=3)]))
    assert log[0].result.startswith("#") and "DICE" in log[0].result.upper() and log[0].hp_lost == 0
