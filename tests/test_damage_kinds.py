"""The log's Kind column in the encounter model, case by case as the seeds say (the sheet is compared
with the model in tests/test_encounter_parity.py): subdual knock-outs, further damage that kills,
C&C's normal part of subdual damage, OSR's temporary damage, heal rows and their caps."""

from __future__ import annotations

from pycalc.damage_kinds import HEALED
from pycalc.encounter import DAMAGE, Attack, Combatant, Fight
from pycalc.encounter_record import bleeding_note
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.tables import load_ruleset

STATS = {"attack_bonus": 2, "ac": 12, "dice": "1d6", "needed": 10}


def fighters(hp: int = 6, hero_hp: int = 10) -> list[Combatant]:
    return [
        Combatant("Aria", init_rolls=(4,), max_hp=hero_hp, stats=STATS),
        Combatant("Thug", init_rolls=(2,), max_hp=hp, stats=STATS),
    ]


def thug(ruleset_id: str, attacks: list[Attack], hp: int = 6, now: int = 1):
    fight = Fight(fighters(hp), attacks, round=now)
    rules = load_ruleset(ruleset_id)
    return resolve_log(rules, fight), roster_state(rules, fight)


def test_bfrpg_a_thug_brought_to_0_by_subduing_damage_is_unconscious_and_further_damage_kills():
    log, states = thug("bfrpg", [Attack("Aria", "Thug", damage=6, kind="s")])
    assert (log[0].result, log[0].hp_lost, log[0].subdual) == (DAMAGE, 6, 6)
    assert states[1].hp_now == 0 and states[1].state.startswith("Unconscious") and states[1].subdual == 6
    log, states = thug(
        "bfrpg", [Attack("Aria", "Thug", damage=6, kind="Subduing"), Attack("Aria", "Thug", damage=1)]
    )
    assert states[1].state == "Dying"
    # "further subduing damage is then considered killing damage"
    log, states = thug(
        "bfrpg", [Attack("Aria", "Thug", damage=6, kind="s"), Attack("Aria", "Thug", damage=2, kind="s")]
    )
    assert log[1].subdual == 0 and log[1].down_lethal == 2 and states[1].state == "Dying"
    log, states = thug("bfrpg", [Attack("Aria", "Thug", damage=6)])
    assert states[1].state == "Dying"  # no subduing damage: dying at 0


def test_a_pick_that_deals_subdual_damage_makes_the_row_subdual():
    log, states = thug(
        "bfrpg", [Attack("Aria", "Thug", roll=19, damage_roll=6, named_picks="flat of blade")], hp=3
    )
    assert log[0].hp_lost == 3 and log[0].subdual == 3  # half damage, all of it subduing
    assert states[1].state.startswith("Unconscious")
    log, _ = thug("combat17", [Attack("Aria", "Thug", roll=19, damage_roll=6, named_picks="flat of blade")])
    assert log[0].subdual == log[0].hp_lost > 0


def test_cnc_one_point_in_five_of_subdual_damage_is_normal_and_only_that_part_wounds():
    log, states = thug("cnc", [Attack("Aria", "Thug", damage=12, kind="s")])
    assert log[0].subdual == 10  # ruling subdual_normal_split: 1 per full 5, at least 1
    assert states[1].hp_now == -6 and states[1].state == "knocked out (subdual)"
    log, states = thug("cnc", [Attack("Aria", "Thug", damage=4, kind="s"), Attack("Aria", "Thug", damage=12)])
    assert log[0].subdual == 3 and states[1].hp_now == -10
    assert states[1].state == "mortally wounded"  # the wound: 6 - 1 - 12 = -7, not dead at -10


def test_osr_temporary_damage_knocks_out():
    _, states = thug("osr", [Attack("Aria", "Thug", damage=7, kind="t")])
    assert states[1].state.startswith("Knocked out by temporary damage")


def test_a_heal_row_gives_back_hit_points_within_the_seeds_caps():
    log, states = thug("bfrpg", [Attack("", "Thug", damage=4), Attack("", "Thug", damage=9, kind="h")])
    assert (log[1].result, log[1].hp_lost, states[1].hp_now) == (HEALED, -4, 6)  # never above the maximum
    # C&C: "With most magical healing, the character's hit points can only be returned to 0"
    log, states = thug("cnc", [Attack("", "Thug", damage=9), Attack("", "Thug", damage=8, kind="Heal")])
    assert log[1].hp_lost == -3 and states[1].hp_now == 0
    log, states = thug("cnc", [Attack("", "Thug", damage=20), Attack("", "Thug", damage=8, kind="h")])
    assert log[1].hp_lost == 0 and states[1].state == "dead"  # no healing for the dead
    log, _ = thug("bfrpg", [Attack("", "Thug", damage=6, kind="s"), Attack("", "Thug", damage=2, kind="h")])
    assert log[1].subdual == -2  # subdual damage healed first (a ruling)


def test_cnc_a_heal_stops_the_bleeding_from_its_round_on():
    attacks = [Attack("", "Thug", damage=14, round=1), Attack("", "Thug", damage=1, kind="h", round=2)]
    _, states = thug("cnc", attacks, now=5)
    assert (
        states[1].hp_now == -7 and states[1].state == "mortally wounded"
    )  # -8, healed 1 in round 2: no loss
    _, unhealed = thug("cnc", attacks[:1], now=5)
    assert unhealed[1].hp_now == -10
    rules, fight = load_ruleset("cnc"), Fight(fighters(), attacks, round=5)
    note = bleeding_note(rules, fight, fight.lines[1], resolve_log(rules, fight))
    assert note == "healed in round 2, bleeding stopped"  # the fight record says so


def test_a_kind_no_row_names_and_a_heal_without_hit_points_or_with_also_hits_say_so():
    log, _ = thug("spelljammer", [Attack("Aria", "Thug", damage=3, kind="s")])
    assert log[0].result.startswith("#KIND?") and log[0].hp_lost == 0  # the seed has no subdual damage
    log, _ = thug("bfrpg", [Attack("Aria", "Thug", roll=15, damage_roll=3, kind="h")])
    assert log[0].result.startswith("#HEAL?") and log[0].hp_lost == 0
    log, _ = thug("bfrpg", [Attack("", "Thug", damage=3, kind="h", also=("Aria",))])
    assert log[0].result.startswith("#HEAL?") and log[0].hp_lost == 0
