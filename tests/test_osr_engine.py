"""The osr engine: the seed's worked examples, the natural-roll rules (osr's resolution block through
the generic engine, pycalc.resolution), exact odds by brute force."""

from __future__ import annotations

import dataclasses
import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import d20, d20_engines, resolution_chances, resolution_damage, resolution_results
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import osr, osr_grappling, osr_mass_combat, osr_normal_men, osr_saves
from pycalc.tables import Row, load_ruleset

RULES = load_ruleset("osr")


def with_rulings(**chosen: str):
    return dataclasses.replace(RULES, chosen=chosen)


def with_fumble_rows(*rows: tuple[int, int, str]):
    table = RULES.table("fumble_table")
    filled = dataclasses.replace(
        table,
        rows=tuple(
            Row({"d20_from": a, "d20_to": b, "effect": e}, table.section, 1, id=f"r{i}", label=f"r{i}")
            for i, (a, b, e) in enumerate(rows)
        ),
    )
    return dataclasses.replace(RULES, tables={**RULES.tables, "fumble_table": filled})


# --------------------------------------------------------------------------- the seed's examples


def test_mass_combat_survivors_example():
    table = RULES.table("mass_combat_survivors")
    original = table.value("ex_original_hp")
    men = table.value("survivor_divisor_men")
    assert osr_mass_combat.mass_survivors(
        RULES, original, table.value("ex_remaining_hp_a"), men
    ) == table.value("ex_survivors_a")
    assert osr_mass_combat.mass_survivors(
        RULES, original, table.value("ex_remaining_hp_b"), men
    ) == table.value("ex_survivors_b")
    assert osr_mass_combat.mass_survivors(RULES, 40, 5, 10) == 2  # fractions are rounded upwards
    assert osr_mass_combat.mass_survivors(RULES, 40, 0, 10) == 0
    assert osr_mass_combat.mass_damage(RULES, 4, 10) == 40
    assert osr_mass_combat.mass_damage(with_rulings(mass_combat_damage_multiplier="always_ten"), 4, 5) == 40
    assert osr_mass_combat.mass_damage(RULES, 4, 5) == 20


def test_expected_kills_example():
    table = RULES.table("expected_kills")
    found = osr_normal_men.expected_kills(
        RULES, int(table.value("ex_attacks")), int(table.value("ex_number_needed")), "1d6+1", "1d6"
    )
    assert found.hit_chance == Fraction(7, 10) == Fraction(str(table.value("ex_hit_chance")))
    assert found.hits == Fraction(str(table.value("ex_hits")))
    assert (found.average_damage, found.average_hp) == (Fraction(9, 2), Fraction(7, 2))
    assert found.kills == Fraction(str(table.value("ex_kills")))
    rounded = osr_normal_men.expected_kills(with_rulings(expected_kills_rounding="up"), 8, 7, "1d6+1", "1d6")
    assert rounded.kills == table.value("ex_kills_rounded_up")
    assert osr_normal_men.expected_kills(
        with_rulings(expected_kills_method="damage_over_hp"), 8, 7, "1d6+1", "1d6"
    ).kills == Fraction(36, 5)


def test_attacks_per_round_examples():
    table = RULES.table("attacks_vs_normal_men")
    fighter = "PC or important NPC fighter type"
    assert osr_normal_men.attacks_vs_normal_men(
        RULES, fighter, table.value("ex_fighter_level")
    ) == table.value("ex_fighter_attacks")
    assert osr_normal_men.attacks_vs_normal_men(
        RULES, "Monster (whole HD)", table.value("ex_troll_hd")
    ) == table.value("ex_troll_attacks")
    assert osr_normal_men.attacks_vs_normal_men(RULES, "Monster (whole HD)", 1) == 1
    assert osr_normal_men.attacks_vs_normal_men(RULES, "PC who is not a fighter type", 5) == 1
    assert (
        osr_normal_men.attacks_vs_normal_men(
            with_rulings(normal_men_multiple_attacks="all_pcs"), "other_pc", 5
        )
        == 5
    )


def test_grappling_example():
    ex = {r.id: r["value"] for r in RULES.table("grappling_example").rows}
    assert (
        osr_grappling.grapple_stun_rounds(RULES, ex["ex_hero_roll"], ex["ex_grapplers_total"])
        == ex["ex_stun_rounds"]
    )
    assert osr_grappling.grapple_result(RULES, 7, 7).startswith("On his feet")
    assert osr_grappling.grapple_result(RULES, 6, 7) == "Pinned helplessly"
    assert osr_grappling.grapple_stun_rounds(RULES, 6, 7) == 0
    out = osr_grappling.grapple_outputs(RULES, 3, 2, 19, 7)
    assert out["GRAPPLE_OUTCOME"] == "#HERO ROLL? 3 to 18"


def test_level_gap_save_bonus_counts_full_steps_of_three():
    assert [osr_saves.level_gap_save_bonus(RULES, s, 1) for s in (1, 3, 4, 6, 7, 10)] == [0, 0, 1, 1, 2, 3]
    assert osr_saves.level_gap_save_bonus(RULES, 1, 9) == 0
    assert (
        osr_saves.maneuver_save_modifier(RULES, "Whip entangle (target ogre size or smaller)", 10, 1, 2) == -2
    )
    assert osr_saves.maneuver_save_modifier(RULES, "disarm", 10, 1, 2) == 3
    with pytest.raises(RuleError, match="no save"):
        osr_saves.maneuver_save_modifier(RULES, "untrained_weapon", 1, 1, 0)


def test_spell_interruption():
    simultaneous = "Hit by an opponent with simultaneous initiative"
    assert osr_saves.spell_interruption(RULES, simultaneous, "Failed", 4) == "Spell lost"
    assert osr_saves.spell_interruption(RULES, simultaneous, "Failed", 5) == "Spell miscast"
    assert "goes off" in osr_saves.spell_interruption(RULES, simultaneous, "Made", None)
    assert "lost" in osr_saves.spell_interruption(RULES, "Hit by an opponent who won initiative", None, None)
    with pytest.raises(RuleError, match="#D6"):
        osr_saves.spell_interruption(RULES, simultaneous, "Failed", 7)


# --------------------------------------------------------------------------- natural rolls


def test_natural_1_always_misses_and_fumbles_above_the_level():
    attack = generic.Attack(bonus=10, target=2, level=5)  # need -8: every other roll hits
    assert resolution_results.result(RULES, attack, 1, None) == "Miss"
    assert resolution_results.result(RULES, attack, 1, 5) == "Miss"
    assert resolution_results.result(RULES, attack, 1, 6) == "Fumble"
    assert (
        resolution_results.result(RULES, generic.Attack(0, 10, level=20), 1, 20) == "Miss"
    )  # level 20: never a fumble


def natural_20_damage(rules, dice_text: str, shown: int, penalty: int, double: bool = False) -> int:
    """The damage of a natural 20 against a foe needing ``20 + penalty``, doubled when said (the block's
    double-damage stage, as a picked charge gives it)."""
    attack = generic.Attack(0, 20 + penalty)
    stage = next(s for s in generic.block(rules).damage.multipliers if s.name == "double")
    times = {stage.name: Fraction(generic.value(rules, stage.factor))} if double else {}
    damage = generic.Damage(dice_module.parse(dice_text), multipliers=times)
    return resolution_damage.attack_damage(rules, attack, damage, "Hit", 20, None, shown)


def test_natural_20_hits_beyond_20_with_the_damage_penalty():
    attack = generic.Attack(bonus=0, target=22)
    assert resolution_results.result(RULES, attack, 20, None) == "Hit"  # needs more than 19: no critical
    penalty = RULES.constant("natural_20_hit", "nat20_example_penalty")
    assert resolution_damage.natural_penalty(RULES, attack, 20) == penalty
    assert natural_20_damage(RULES, "1d6", 1, 2) == 0  # "possible to 'hit' a foe and cause no damage"
    assert natural_20_damage(RULES, "1d6+1", 4, 2, double=True) == 8
    die_rules = with_rulings(nat20_penalty_applies_to="damage_die")
    assert natural_20_damage(die_rules, "1d6+1", 1, 2, double=True) == 2  # die 1 - 2 -> 0, +1, x2
    crit_rules = with_rulings(nat20_crit_exception="needed_19_or_20_only")
    assert resolution_results.result(crit_rules, attack, 20, None) == "Critical"
    assert resolution_results.result(crit_rules, generic.Attack(0, 20), 20, None) == "Hit"


def test_natural_20_critical_unless_only_19_or_20_could_hit():
    assert resolution_results.result(RULES, generic.Attack(0, 18), 20, None) == "Critical"
    assert resolution_results.result(RULES, generic.Attack(0, 19), 20, None) == "Hit"
    assert resolution_results.result(RULES, generic.Attack(0, 19), 19, None) == "Hit"
    basis = with_rulings(nat20_needed_basis="matrix_number")
    assert (
        resolution_results.result(basis, generic.Attack(5, 19), 20, None) == "Hit"
    )  # matrix 19: no critical even with +5
    assert resolution_damage.natural_penalty(basis, generic.Attack(5, 22), 20) == 2


def test_magic_weapons_needed():
    assert resolution_results.result(RULES, generic.Attack(0, 5, needs_magic=True), 20, None) == "Miss"
    lost_auto = with_rulings(magic_weapon_needed="no_auto_hit")
    assert resolution_results.result(lost_auto, generic.Attack(0, 21, needs_magic=True), 20, None) == "Miss"
    assert resolution_results.result(lost_auto, generic.Attack(0, 12, needs_magic=True), 15, None) == "Hit"
    assert (
        resolution_results.result(RULES, generic.Attack(0, 12, level=0, needs_magic=True), 1, 3) == "Fumble"
    )


def test_fumble_table_is_empty_and_never_invented():
    fill_in = "fill in its table on the Criticals fumbles tables sheet"
    assert osr.fumble_effect(RULES, 7) == fill_in
    assert fumble_line(RULES, 7) == fill_in
    assert fumble_line(RULES, None) == fill_in
    with pytest.raises(RuleError, match="#NONE"):
        d20_engines.chart_effect("osr", 5, "crit")  # no critical chart either


def test_a_gm_filled_fumble_table_is_read():
    rules = with_fumble_rows((1, 10, "Drops weapon"), (11, 20, "Falls down"))
    assert osr.fumble_effect(rules, 10) == "Drops weapon"
    assert osr.fumble_effect(rules, 11) == "Falls down"
    assert fumble_line(rules, 3) == "Drops weapon"
    assert fumble_line(rules, None) == ""
    waiting = CalculatorInputs(bonus=0, target=10, roll=1, follow_roll=5)
    assert attack_outputs(rules, waiting)["ATTACK_SUMMARY"].endswith("type the chart roll")
    gap = with_fumble_rows((1, 10, "Drops weapon"), (10, 12, "Trips"))
    with pytest.raises(RuleError, match=re.escape("#CHART ROLL? no row covers 15")):
        osr.fumble_effect(gap, 15)
    assert fumble_line(gap, 10) == "#CHART? two rows cover 10"
    assert fumble_line(gap, 21) == "#CHART ROLL? 1 to 20"


def fumble_line(rules, chart_roll: int | None) -> str:
    """What the Attack calculator (and so ``d20_effect``) says of a Critical Fumble's fumble table roll."""
    typed = CalculatorInputs(bonus=0, target=10, roll=1, follow_roll=5, chart_roll=chart_roll)
    return str(attack_outputs(rules, typed)["ATTACK_CHART_EFFECT"])


# --------------------------------------------------------------------------- exact odds


MODES = {
    generic.NORMAL: {},
    generic.ADVANTAGE: {"advantage": True},
    generic.DISADVANTAGE: {"disadvantage": True},
}


def brute_force(rules, attack: generic.Attack) -> dict[str, Fraction]:
    """Every die of the Advantage/Disadvantage pool and every fumble check, counted."""
    sides = rules.constant("to_hit_roll", "to_hit_die_sides")
    mode = resolution_chances.roll_mode(rules, attack)
    n = 1 if mode == generic.NORMAL else 2
    keep = max if mode == generic.ADVANTAGE else min
    counts = dict.fromkeys(d20.OUTCOMES, 0)
    faces = range(1, sides + 1)
    for pool in itertools.product(faces, repeat=n):
        for follow in faces:
            counts[resolution_results.resolve(rules, attack, keep(pool), follow)] += 1
    total = sides ** (n + 1)
    return {k: Fraction(v, total) for k, v in counts.items()}


@settings(max_examples=100, deadline=None)
@given(
    bonus=st.integers(-5, 10),
    target=st.integers(-3, 30),
    level=st.integers(0, 22),
    mode=st.sampled_from(list(MODES)),
    needs_magic=st.booleans(),
)
def test_exact_chances_equal_brute_force(bonus, target, level, mode, needs_magic):
    attack = generic.Attack(bonus, target, 0, level, needs_magic=needs_magic, **MODES[mode])
    assert resolution_chances.chances(RULES, attack) == brute_force(RULES, attack)


@settings(max_examples=100, deadline=None)
@given(bonus=st.integers(-5, 10), target=st.integers(-3, 30), level=st.integers(0, 22))
def test_the_shared_d20_core_agrees(bonus, target, level):
    attack = Attack(bonus, target, 0, level)
    same = generic.Attack(bonus, target, 0, level)
    assert d20_engines.chances("osr", attack) == resolution_chances.chances(RULES, same)
    for roll in (1, 2, 19, 20):
        assert d20_engines.result("osr", attack, roll, 10) == resolution_results.resolve(
            RULES, same, roll, 10
        )


@settings(max_examples=100, deadline=None)
@given(bonus=st.integers(-5, 25), target=st.integers(-3, 30))
def test_hit_chance_grows_with_bonus_and_advantage_helps(bonus, target):
    low, high = generic.Attack(bonus, target), generic.Attack(bonus + 1, target)
    assert resolution_chances.hit_chance(RULES, low) <= resolution_chances.hit_chance(RULES, high)
    assert Fraction(1, 20) <= resolution_chances.hit_chance(RULES, low) <= Fraction(19, 20)
    assert (
        resolution_chances.hit_chance(RULES, dataclasses.replace(low, disadvantage=True))
        <= resolution_chances.hit_chance(RULES, low)
        <= resolution_chances.hit_chance(RULES, dataclasses.replace(low, advantage=True))
    )


def test_roll_mode_rulings():
    both = generic.Attack(0, 10, advantage=True, disadvantage=True)
    assert resolution_chances.roll_mode(RULES, both) == generic.NORMAL
    assert (
        resolution_chances.roll_mode(with_rulings(advantage_meets_disadvantage="disadvantage"), both)
        == generic.DISADVANTAGE
    )
    assert resolution_chances.roll_mode(RULES, generic.Attack(0, 10, advantage=True)) == generic.ADVANTAGE


def test_the_generic_calculator_applies_osr_s_pickers():
    numbers = {"target_shield": 1, "target_dex": 2, "attacker_dex": 1}
    base = CalculatorInputs(bonus=0, target=12, roll=12, dice="1d6+1", damage_roll=3, numbers=numbers)
    assert attack_outputs(RULES, base)["ATTACK_NEED"] == 12
    behind = dataclasses.replace(
        base, choices={"attack_direction": "From behind or surprise attack, first round"}
    )
    # +2 to hit, no shield (1) and no DEX (2): AC 3 worse -> 3 less needed
    assert attack_outputs(RULES, behind)["ATTACK_NEED"] == 12 - 2 - 3
    charge = dataclasses.replace(base, choices={"charge_attack": "Charging attacker"})
    out = attack_outputs(RULES, charge)
    assert out["ATTACK_NEED"] == 12 - 2 + 1 and out["ATTACK_DAMAGE"] == (3 + 1) * 2
    parry = dataclasses.replace(base, choices={"defensive_action": "Parry"})
    assert attack_outputs(RULES, parry)["ATTACK_NEED"] == 14
    assert attack_outputs(with_rulings(ac_change_to_number_needed="gm_matrix"), parry)["ATTACK_NEED"] == 12
