"""The check on every attack log row (LOG_CHECK), in the model: what a GM would otherwise check by eye.
The sheet gives the same texts on 200 generated fights per ruleset (tests/test_encounter_parity.py)."""

from __future__ import annotations

from dataclasses import replace

from pycalc.creatures import LibraryLine
from pycalc.encounter import LOST_STUNNED, ORDER_HINT, SPELL_LOST, Attack, Combatant, Fight
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.tables import load_ruleset

CNC = load_ruleset("cnc")
SPELLJAMMER = load_ruleset("spelljammer")
GOBLIN = {"bonus": 1, "ac": 12, "dice": "1d6", "level": 1}
SPELLJAMMER_STATS = {
    "sc": 100,
    "def": 10,
    "con": 30,
    "size": "Medium",
    "prot": 0,
    "magic_def": 0,
    "dice": "1d6",
    "rank": 0,
}


def cnc_fight(attacks: list[Attack], round_now: int = 3) -> Fight:
    roster = [
        Combatant("Aria", side="PCs", max_hp=12, stats=GOBLIN),
        Combatant("Goblin 1", side="Goblins", max_hp=5, stats=GOBLIN),
        Combatant("Goblin 2", side="Goblins", max_hp=5, stats=GOBLIN),
    ]
    return Fight(roster, attacks, round=round_now)


def checks(rules, fight: Fight) -> list[str]:
    return [row.check for row in resolve_log(rules, fight)]


def test_all_is_well_says_nothing():
    fight = cnc_fight([Attack("Aria", "Goblin 1", round=1, roll=3, damage_roll=2)])
    assert checks(CNC, fight) == [""]


def test_an_attacker_down_since_an_earlier_round_cannot_act():
    fight = cnc_fight(
        [Attack("Aria", "Goblin 1", round=1, damage=7), Attack("Goblin 1", "Aria", round=2, roll=15)]
    )
    assert checks(CNC, fight)[1] == "Goblin 1 is at -2 HP: it cannot act"


def test_an_attacker_down_this_round_acts_only_together_with_whoever_downed_it():
    fight = cnc_fight(
        [Attack("Aria", "Goblin 1", round=2, damage=5), Attack("Goblin 1", "Aria", round=2, roll=15)]
    )
    assert checks(CNC, fight)[1] == (
        "Goblin 1 went down this round: the attack stands only if Goblin 1 acts together with whoever downed it"
    )


def test_a_target_already_down_and_a_round_ahead_are_said_together():
    fight = cnc_fight(
        [Attack("Aria", "Goblin 2", round=1, damage=9), Attack("Aria", "Goblin 2", round=4, roll=12)],
        round_now=3,
    )
    assert checks(CNC, fight)[1] == "round 4 is after Round now (3); Goblin 2 is already at -4 HP"


def test_the_row_still_resolves_as_typed():
    fight = cnc_fight(
        [
            Attack("Aria", "Goblin 1", round=1, damage=7),
            Attack("Goblin 1", "Aria", round=2, roll=20, damage_roll=4),
        ]
    )
    row = resolve_log(CNC, fight)[1]
    assert row.check and row.hp_lost > 0


def test_a_combatant_stunned_earlier_in_the_round_loses_its_remaining_attacks():
    stats = {**SPELLJAMMER_STATS, "con": 6, "dice": "2d10"}
    roster = [Combatant("Vex", max_hp=40, stats=stats), Combatant("Ogre", max_hp=60, stats=stats)]
    hit = Attack("Vex", "Ogre", round=1, roll=5, damage_roll=20)  # 20 damage against CON 6: a stun
    log = resolve_log(
        SPELLJAMMER, Fight(roster, [hit, Attack("Ogre", "Vex", round=1, roll=5, damage_roll=9)], round=1)
    )
    assert log[0].outputs.get("TARGET_STUNNED") is True
    assert (log[1].result, log[1].hp_lost) == (LOST_STUNNED, 0)
    assert log[1].check == "Ogre was stunned earlier this round: its remaining attacks are lost"
    next_round = Attack("Ogre", "Vex", round=2, roll=5, damage_roll=9)
    log = resolve_log(SPELLJAMMER, Fight(roster, [hit, next_round], round=2))
    assert log[1].result != LOST_STUNNED and log[1].check == ""


def test_a_spelljammer_attack_past_those_its_initiative_rolls_give():
    """One initiative roll per attack: two rolls, two attacks; a third row that round is said."""
    vex = Combatant("Vex", max_hp=40, stats=SPELLJAMMER_STATS, init_rolls=(7, 3, None))
    ogre = Combatant("Ogre", max_hp=60, stats=SPELLJAMMER_STATS, init_rolls=(5, None, None))
    rows = [Attack("Vex", "Ogre", round=1, roll=50, damage_roll=3) for _ in range(3)]
    found = checks(SPELLJAMMER, Fight([vex, ogre], rows, round=1))
    assert found == ["", "", "Vex makes attack 3 this round: its initiative rolls give it 2"]
    no_rolls = Combatant("Vex", max_hp=40, stats=SPELLJAMMER_STATS)  # no initiative typed: no check
    assert checks(SPELLJAMMER, Fight([no_rolls, ogre], rows, round=1)) == ["", "", ""]


def test_a_spelljammer_caster_hit_while_casting_loses_the_spell():
    """Casting from its initiative (8) down to the number the spell goes off on (8 - 5 = 3): a hit on
    6 breaks it, a hit on 9 (before it began) or a miss does not."""
    mage = Combatant("Mage", max_hp=20, stats=SPELLJAMMER_STATS, init_rolls=(8, None, None), casting_time=5)
    orc = Combatant("Orc", max_hp=20, stats=SPELLJAMMER_STATS, init_rolls=(6, None, None))
    fast = Combatant("Orc", max_hp=20, stats=SPELLJAMMER_STATS, init_rolls=(9, None, None))
    hit, miss = (
        Attack("Orc", "Mage", round=1, roll=50, damage_roll=2),
        Attack("Orc", "Mage", round=1, roll=99),
    )
    fight = Fight([mage, orc], [hit], round=1)
    assert checks(SPELLJAMMER, fight) == ["Mage is hit while casting: the spell is lost"]
    assert roster_state(SPELLJAMMER, fight)[0].spell_at == SPELL_LOST
    assert checks(SPELLJAMMER, Fight([mage, fast], [hit], round=1)) == [""]
    assert checks(SPELLJAMMER, Fight([mage, orc], [miss], round=1)) == [""]
    later = Fight([mage, orc], [hit], round=2)  # the roster's numbers are the current round's
    assert checks(SPELLJAMMER, later) == [""] and roster_state(SPELLJAMMER, later)[0].spell_at == 3


def test_a_combat17_caster_attacked_before_it_acts_saves_or_loses_the_spell():
    """17.0.13: a caster attacked during its casting, even by a miss, saves on its Initiative number.
    Casting in round 2 on 3 (d6 2 + DEX 1): an attacker on 5 (earlier) makes it save, hit or miss; one
    on 3 acts together with the spell and one on 2 after it; a row of round 1 is before the casting."""
    combat17 = load_ruleset("combat17")
    numbers = {"attack_bonus": 2, "ac": 12, "dice": "1d6", "level": 1}
    mage = Combatant("Mage", max_hp=20, dex=1, init_rolls=(2,), stats=numbers, cast_round=2)
    orcs = [Combatant(f"Orc {n}", max_hp=20, init_rolls=(n,), stats=numbers) for n in (5, 3, 2)]
    rows = [Attack(f"Orc {n}", "Mage", roll=r, damage_roll=2) for n, r in ((5, 18), (5, 1), (3, 18), (2, 18))]
    rows = [Attack("Orc 5", "Mage", round=1, roll=18, damage_roll=2), replace(rows[0], round=2), *rows[1:]]
    said = "Mage is attacked while casting: a saving throw on its initiative number, or the spell is lost"
    assert checks(combat17, Fight([mage, *orcs], rows, round=2)) == ["", said, said, "", ""]
    # not casting, the mage has no row: the orc acting after it is the first row to pass it
    passed = f"Mage{ORDER_HINT}"
    assert checks(combat17, Fight([replace(mage, cast_round=None), *orcs], rows, round=2)) == [""] * 4 + [
        passed
    ]
    assert checks(CNC, cnc_fight([Attack("Goblin 1", "Aria", roll=18, damage_roll=2)])) == [""]


def test_a_cnc_second_attack_in_a_round_with_one_allowed():
    """C&C, Attack: "one attack each round" (combat_actions.attack.per_round): an empty Attacks each
    round counts as 1; a second row that round says so, a row of the next round starts again at 1."""
    rows = [
        Attack("Goblin 1", "Aria", round=1, roll=3, damage_roll=1),
        Attack("Goblin 1", "Aria", roll=3, damage_roll=1),
        Attack("Goblin 2", "Aria", roll=3, damage_roll=1),
        Attack("Goblin 1", "Aria", round=2, roll=3, damage_roll=1),
    ]
    said = "Goblin 1 makes attack 2 this round: it has 1 attack each round"
    assert checks(CNC, cnc_fight(rows)) == ["", said, "", ""]


def test_attacks_each_round_typed_or_the_creatures():
    """A number typed on the line (or its creature's) wins over the default: 3 rows of 3 say nothing,
    a fourth says it in the plural."""
    three = {**GOBLIN, "attacks_each_round": 3}
    fight = cnc_fight([Attack("Aria", "Goblin 1", round=1, roll=3, damage_roll=1) for _ in range(4)])
    fight = replace(fight, roster=[replace(fight.roster[0], stats=three), *fight.roster[1:]])
    said = "Aria makes attack 4 this round: it has 3 attacks each round"
    assert checks(CNC, fight) == ["", "", "", said]
    library = [LibraryLine("Goblin", {"attacks_each_round": 2})]  # Goblin 1's creature: 2 each round
    rows = [Attack("Goblin 1", "Aria", round=1, roll=3, damage_roll=1) for _ in range(3)]
    fight = replace(cnc_fight(rows), creatures=library)
    assert checks(CNC, fight) == ["", "", "Goblin 1 makes attack 3 this round: it has 2 attacks each round"]


def test_attacks_each_round_empty_with_no_default_is_not_checked():
    """OSR (attacks against 'Normal Men' by level or HD: no number for all): an empty Attacks each
    round says nothing however many rows; a number typed is checked."""
    osr = load_ruleset("osr")
    stats = {"bonus": 1, "needed": 12, "dice": "1d6", "level": 1}
    rows = [Attack("Orc", "Aria", round=1, roll=3, damage_roll=1) for _ in range(3)]
    roster = [Combatant("Aria", max_hp=12, stats=stats), Combatant("Orc", max_hp=12, stats=stats)]
    assert checks(osr, Fight(roster, rows, round=1)) == ["", "", ""]
    roster[1] = replace(roster[1], stats={**stats, "attacks_each_round": 1})
    said = "Orc makes attack {} this round: it has 1 attack each round"
    assert checks(osr, Fight(roster, rows, round=1)) == ["", said.format(2), said.format(3)]


def test_a_void_row_is_no_attack():
    """A voided row (x) counts for nothing: the row after it is still the attacker's first."""
    rows = [
        Attack("Goblin 1", "Aria", round=1, roll=3, damage_roll=1, void=True),
        Attack("Goblin 1", "Aria", roll=3, damage_roll=1),
        Attack("Goblin 1", "Aria", roll=3, damage_roll=1, void=True),
    ]
    assert checks(CNC, cnc_fight(rows)) == ["", "", ""]


def test_an_osr_caster_hit_while_casting_loses_or_saves_by_initiative():
    """OSR, ENCOUNTER ORDER: a caster "hit and taking damage" in the round it casts by one who won
    initiative loses the spell; by one acting together (the same roll) saves vs Paralysis, else a d6
    says lost or miscast; by one acting later, the spell goes off. A miss, a row of another round and
    a caster who typed no round say nothing."""
    osr = load_ruleset("osr")
    numbers = {"attack_bonus": 2, "ac": 12, "dice": "1d6", "level": 1}
    mage = Combatant("Mage", group="Party", max_hp=20, init_rolls=(3,), stats=numbers, cast_round=2)
    orcs = [
        Combatant(f"Orc {n}", group=f"Orcs {n}", max_hp=20, init_rolls=(n,), stats=numbers) for n in (5, 3, 2)
    ]
    hit = {"roll": 19, "damage_roll": 2}
    rows = [
        Attack("Orc 5", "Mage", round=1, **hit),  # the round before: no casting
        Attack("Orc 5", "Mage", round=2, **hit),  # won initiative: lost
        Attack("Orc 5", "Mage", roll=1, damage_roll=2),  # a miss: no damage taken
        Attack("Orc 3", "Mage", **hit),  # together: the save
        Attack("Orc 2", "Mage", **hit),  # after the caster: it goes off
    ]
    fight = Fight([mage, *orcs], rows, round=2)
    assert [r.result for r in resolve_log(osr, fight)] == ["Hit", "Hit", "Miss", "Hit", "Hit"]
    lost = "Mage is hit while casting by one who won initiative: the spell is lost, and no other until the next round"
    save = (
        "Mage is hit while casting by one acting together: a Save vs Paralysis (add its PSY bonus), "
        "else a d6: 1-4 the spell is lost, 5-6 miscast"
    )
    assert checks(osr, fight) == ["", lost, "", save, ""]
    not_casting = replace(fight, roster=[replace(mage, cast_round=None), *orcs])
    assert checks(osr, not_casting) == [""] * 4 + [f"Mage{ORDER_HINT}"]


def test_the_first_row_past_a_combatant_yet_to_act_says_so():
    """A hint, in the round now only: the orc (initiative 6) has no row yet when the goblin (4) swings,
    and the goblin's first row says so, once; Aria (6, together with the orc) passes no one; the rat,
    down, and the ghost, without initiative, are not waited for; rows of another round say nothing."""
    numbers = {"attack_bonus": 2, "ac": 12, "dice": "1d6", "level": 1}
    roster = [
        Combatant("Aria", init_rolls=(6,), max_hp=20, stats=numbers),
        Combatant("Orc", init_rolls=(6,), max_hp=20, stats=numbers),
        Combatant("Goblin", init_rolls=(4,), max_hp=20, stats=numbers),
        Combatant("Rat", init_rolls=(9,), max_hp=1, stats=numbers),  # down before the goblin swings
        Combatant("Ghost", max_hp=5, stats=numbers),  # no initiative typed
    ]
    rows = [
        Attack("Goblin", "Aria", round=1, roll=3, damage_roll=1),  # round 1: no hint
        Attack("Aria", "Rat", round=2, roll=19, damage_roll=5),
        Attack("Goblin", "Aria", roll=3, damage_roll=1),
        Attack("Goblin", "Aria", roll=3, damage_roll=1),
        Attack("Orc", "Goblin", roll=3, damage_roll=1),
    ]
    found = checks(CNC, Fight(roster, rows, round=2))
    assert [c.split("; ")[-1] if "acts earlier" in c else "" for c in found] == [
        "",
        "",
        f"Orc{ORDER_HINT}",
        "",
        "",
    ]
    in_round_1 = checks(CNC, Fight(roster, rows, round=1))  # round 1 now: its row passes Aria first
    assert in_round_1[0] == f"Aria{ORDER_HINT}" and not any("acts earlier" in c for c in in_round_1[1:])
