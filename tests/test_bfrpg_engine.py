"""The bfrpg engine: the seed's own examples and properties of the d20 resolution."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycalc import d20_engines, resolution_damage
from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, HIT, MISS, Attack
from pycalc.errors import RuleError
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.rulesets import bfrpg as engine
from pycalc.rulesets import bfrpg_joust, bfrpg_parry
from pycalc.tables import RuleSet, load_ruleset

RULES = load_ruleset("bfrpg")
rolls = st.integers(1, 20)
follows = st.one_of(st.none(), rolls)
attacks = st.builds(Attack, st.integers(-5, 20), st.integers(-5, 40), st.integers(-8, 8))
ruling_sets = st.fixed_dictionaries(
    {ruling_id: st.sampled_from(list(ruling.choices)) for ruling_id, ruling in RULES.rulings.items()}
).map(lambda chosen: dataclasses.replace(RULES, chosen=chosen))


def label(table_id: str, row_id: str) -> str:
    return str(RULES.table(table_id).entry(row_id).label)


# --------------------------------------------------------------------------- the seed's own examples


def test_natural_1_always_fails_and_natural_20_always_hits():
    assert engine.result(RULES, Attack(30, 10), 1) == MISS  # need -20
    assert engine.result(RULES, Attack(0, 40), 20, 20) == HIT  # need 40: hits, but no critical


def test_total_equal_to_the_ac_hits():
    assert engine.result(RULES, Attack(4, 15), 11) == HIT
    assert engine.result(RULES, Attack(4, 15), 10) == MISS


def test_natural_20_threatens_and_a_normal_hit_confirms():
    attack = Attack(5, 15)  # need 10
    assert engine.result(RULES, attack, 20, 10) == CRITICAL
    assert engine.result(RULES, attack, 20, 9) == HIT
    assert engine.result(RULES, attack, 20, None) == HIT  # not rolled yet


def test_no_critical_when_only_a_natural_20_can_hit():
    assert not generic.critical_possible(RULES, generic.from_d20(Attack(0, 20)))  # need 20
    assert engine.result(RULES, Attack(0, 20), 20, 20) == HIT
    past = dataclasses.replace(RULES, chosen={"only_natural_20_hits": "no_critical_past_20"})
    assert engine.result(past, Attack(0, 20), 20, 20) == CRITICAL
    assert engine.result(past, Attack(0, 21), 20, 20) == HIT


def test_confirmation_natural_1_follows_the_ruling():
    attack = Attack(20, 10)  # need -10
    assert engine.result(RULES, attack, 20, 1) == HIT
    lenient = dataclasses.replace(RULES, chosen={"confirmation_natural_1": "total_only"})
    assert engine.result(lenient, attack, 20, 1) == CRITICAL


def test_the_seed_critical_damage_example():
    """1d8+2, roll 5 -> 8 + 5 + 2 = 15."""
    inputs = CalculatorInputs(5, 15, roll=20, follow_roll=12, dice="1d8+2", damage_roll=5)
    assert attack_outputs(RULES, inputs)["ATTACK_DAMAGE"] == 15
    both = dataclasses.replace(RULES, chosen={"critical_damage": "normal_plus_max_plus_roll"})
    assert (
        attack_outputs(both, dataclasses.replace(inputs, extra_roll=3))["ATTACK_DAMAGE"] == 20
    )  # its example
    assert attack_outputs(both, inputs)["ATTACK_DAMAGE"] == ""  # the second roll is missing


def test_attack_calculator_gives_15_for_the_seed_critical():
    out = attack_outputs(RULES, CalculatorInputs(5, 15, roll=20, follow_roll=12, dice="1d8+2", damage_roll=5))
    assert (out["ATTACK_RESULT"], out["ATTACK_DAMAGE"]) == ("Critical", 15)


def test_helpless_double_maximum_example():
    """1d8+1 against a totally helpless opponent: 18."""
    out = attack_outputs(
        RULES,
        CalculatorInputs(0, 30, roll=1, dice="1d8+1", toggles=frozenset({("target_conditions", "helpless")})),
    )
    assert (out["ATTACK_RESULT"], out["ATTACK_DAMAGE"], out["ATTACK_HIT_CHANCE"]) == ("Hit", 18, 1)


def test_charge_doubles_and_the_critical_ruling_decides_the_maximum_die():
    charge = {"charge_options": label("charge_options", "charge")}
    inputs = CalculatorInputs(5, 15, roll=20, follow_roll=15, dice="1d8+2", damage_roll=5, choices=charge)
    assert attack_outputs(RULES, inputs)["ATTACK_DAMAGE"] == 30
    once = dataclasses.replace(RULES, chosen={"critical_with_double_damage": "double_roll_only"})
    assert attack_outputs(once, inputs)["ATTACK_DAMAGE"] == 22  # (5 + 2) x 2 + 8


def test_flat_of_the_blade_halves_rounding_by_the_ruling():
    flat = {"damage_mode": label("damage_mode", "flat_of_blade")}
    inputs = CalculatorInputs(10, 15, roll=15, dice="1d8", damage_roll=5, choices=flat)
    out = attack_outputs(RULES, inputs)
    assert out["ATTACK_NEED"] == 9  # -4 to attack
    assert out["ATTACK_DAMAGE"] == 3
    down = dataclasses.replace(RULES, chosen={"subdual_half_rounding": "down"})
    assert attack_outputs(down, inputs)["ATTACK_DAMAGE"] == 2


@pytest.mark.parametrize(
    "row_id, linear, endpoints",
    [("concealment_50", -2, -1), ("concealment_75", -3, -4), ("cover_50", -4, -2), ("cover_75", -6, -8)],
)
def test_cover_between_the_seeds_ends_follows_the_ruling(row_id: str, linear: int, endpoints: int):
    """ "-1 (25% obscured) to -4 (90% obscured)", doubled for hard cover: the steps between, by ruling."""
    inputs = CalculatorInputs(0, 10, choices={"cover_concealment": label("cover_concealment", row_id)})
    ends = dataclasses.replace(RULES, chosen={"cover_intermediate_steps": "endpoints_only"})
    assert attack_outputs(RULES, inputs)["ATTACK_SITUATION_HIT"] == linear
    assert attack_outputs(ends, inputs)["ATTACK_SITUATION_HIT"] == endpoints


def test_two_weapon_penalties_with_dexterity():
    """'a character with 18 Dexterity does not get a +1 bonus to hit this way'."""

    def hit(row_id: str, dex: int, rules: RuleSet = RULES) -> object:
        picks = {"two_weapon_fighting": label("two_weapon_fighting", row_id)}
        inputs = CalculatorInputs(0, 10, numbers={"attacker_dex": dex}, choices=picks)
        return attack_outputs(rules, inputs)["ATTACK_SITUATION_HIT"]

    assert (hit("primary_hand", 3), hit("off_hand", 3), hit("off_hand_only", 1), hit("off_hand", -1)) == (
        0,
        -2,
        -2,
        -6,
    )
    strict = dataclasses.replace(RULES, chosen={"two_weapon_dex": "off_hand_only"})
    assert hit("primary_hand", 3, strict) == -2


@pytest.mark.parametrize(
    "damage, failed_by, result",
    [
        (4, 0, "Saved: stays in the saddle"),
        (5, 1, "Unhorsed: prone, 1d6 falling damage"),
        (9, 5, "Unhorsed: prone, 1d6 falling damage, stunned 1d3 rounds"),
        (10, 10, "Unhorsed: prone, 1d6 falling damage, knocked out 2d4 rounds, stunned 1d3 rounds"),
    ],
)
def test_jousting_save(damage: int, failed_by: int, result: str):
    penalty = bfrpg_joust.joust_save_penalty(RULES, damage)
    assert penalty == -(damage // 5)  # "Each full 5 points of damage dealt applies a -1 penalty"
    roll = 12 - failed_by - penalty
    out = bfrpg_joust.joust_outputs(RULES, damage, 12, 0, roll)
    assert (out["JOUST_FAILED_BY"], out["JOUST_RESULT"]) == (failed_by, result)


def test_parry_penalties_and_block():
    partial, total = label("defense_stance", "partial_defense"), label("defense_stance", "total_defense")
    weapon, shield = label("parry_with", "weapon"), label("parry_with", "shield")
    third = bfrpg_parry.ParryInputs(partial, weapon, 5, parry_number=3, character_class="Fighter", level=3)
    assert bfrpg_parry.parry_bonus(RULES, third) == 5 - 4  # "the third melee attack ... a -4 penalty"
    with pytest.raises(RuleError, match="#PARRIES"):
        bfrpg_parry.parry_bonus(RULES, dataclasses.replace(third, character_class="Other"))
    assert (
        bfrpg_parry.parry_bonus(RULES, bfrpg_parry.ParryInputs(total, shield, 5, parry_number=2))
        == 5 + 2 + 4 - 1
    )
    with pytest.raises(RuleError, match="#RANGED"):
        bfrpg_parry.parry_bonus(
            RULES, bfrpg_parry.ParryInputs(total, weapon, 5, character_class="Fighter", ranged=True)
        )
    out = bfrpg_parry.parry_outputs(
        RULES,
        bfrpg_parry.ParryInputs(
            total,
            shield,
            5,
            1,
            character_class="Cleric",
            level=2,
            attack_total=15,
            roll=10,
            block_roll=4,
            magic_bonus=1,
            damage=8,
        ),
    )
    # parry 10 + 5 + 2 + 4 = 21 > 15; block 4 + STR 1 + magic 1 + level 2 = 8 ties the damage: absorbed
    assert out["PARRY_SUCCESS"] is True
    assert (out["BLOCK_TOTAL"], out["BLOCK_RESULT"], out["BLOCK_DAMAGE_TAKEN"]) == (8, "Absorbed", 0)


def test_parry_must_surpass_the_attack_roll():
    total = label("defense_stance", "total_defense")
    inputs = bfrpg_parry.ParryInputs(total, label("parry_with", "weapon"), 0, attack_total=14, roll=10)
    assert bfrpg_parry.parry_outputs(RULES, inputs)["PARRY_SUCCESS"] is False  # 10 + 4 = 14 ties
    assert bfrpg_parry.parry_outputs(RULES, dataclasses.replace(inputs, roll=11))["PARRY_SUCCESS"] is True


def test_input_the_rules_do_not_cover():
    out = attack_outputs(RULES, CalculatorInputs(1, 10, roll=15, dice="sword", damage_roll=3))
    assert str(out["ATTACK_DAMAGE"]).startswith("#DICE")
    out = attack_outputs(RULES, CalculatorInputs(1, 10, roll=15, dice="1d8", damage_roll=9))
    assert out["ATTACK_DAMAGE"] == "#DAMAGE ROLL? 1 to 8"
    out = attack_outputs(RULES, CalculatorInputs(1, 10, roll=21))
    assert out["ATTACK_RESULT"] == "#ROLL? 1 to 20"
    with pytest.raises(RuleError, match="#DAMAGE"):
        bfrpg_joust.joust_save_penalty(RULES, -1)


def test_total_defense_and_bows_underwater_allow_no_attack():
    stance = {"defense_stance": label("defense_stance", "total_defense")}
    out = attack_outputs(RULES, CalculatorInputs(10, 10, roll=20, follow_roll=20, choices=stance))
    assert (out["ATTACK_RESULT"], out["ATTACK_DAMAGE"]) == ("#NO ATTACK? Total (full) defense", "")
    bow = {
        "underwater_weapons": label("underwater_weapons", "bow"),
        "attack_kinds": label("attack_kinds", "missile"),
    }
    out = attack_outputs(RULES, CalculatorInputs(10, 10, roll=20, choices=bow))
    assert out["ATTACK_RESULT"] == "#NO ATTACK? Shortbow or longbow"


def test_the_attack_kind_adds_its_ability_bonus():
    """STR for melee and thrown (ruling thrown_attack_ability), DEX for missiles, light weapons and
    touch; the DEX bonus typed once also offsets a two-weapon penalty up to the cap."""
    numbers = {"attacker_str": 3, "attacker_dex": 1}

    def hit(kind: str, rules: RuleSet = RULES, **choices: str) -> int:
        picks = {"attack_kinds": label("attack_kinds", kind), **choices}
        return int(
            attack_outputs(rules, CalculatorInputs(0, 10, numbers=numbers, choices=picks))[
                "ATTACK_SITUATION_HIT"
            ]
        )

    assert [hit(k) for k in ("melee", "thrown", "missile", "light_weapon", "touch")] == [3, 3, 1, 1, 1]
    for choice, thrown in (("dex", 1), ("better", 3)):
        assert hit("thrown", dataclasses.replace(RULES, chosen={"thrown_attack_ability": choice})) == thrown
    off_hand = {"two_weapon_fighting": label("two_weapon_fighting", "off_hand")}
    assert (
        hit("melee", **off_hand) == 3 + int(RULES.table("two_weapon_fighting").entry("off_hand")["hit"]) + 1
    )


def test_a_shield_bash_deals_its_own_dice_with_str():
    """1d4 subduing damage plus STR; a shield specialist's +1; a punch's 1d3 without STR."""
    numbers = {"attacker_str": 2}
    inputs = CalculatorInputs(5, 10, roll=15, dice="1d8+3", damage_roll=4, numbers=numbers)

    def damage(row_id: str, roll: int = 4) -> object:
        picks = {"unarmed_attacks": label("unarmed_attacks", row_id)}
        return attack_outputs(RULES, dataclasses.replace(inputs, damage_roll=roll, choices=picks))[
            "ATTACK_DAMAGE"
        ]

    assert damage("weapon") == 4 + 3
    assert damage("shield_bash") == 4 + 2
    assert damage("shield_bash_specialist") == 4 + 2 + 1
    assert damage("punch", 3) == 3
    assert damage("punch", 4) == "#DAMAGE ROLL? 1 to 3"


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(attacks)
def test_exact_chances_equal_the_shared_enumeration(attack: Attack):
    shared = d20_engines.chances("bfrpg", attack)
    mine = engine.chances(RULES, attack)
    assert mine.hit == shared[HIT] + shared[CRITICAL]
    assert mine.critical == shared[CRITICAL]


@settings(max_examples=200, deadline=None)
@given(attacks, ruling_sets)
def test_chances_equal_brute_force_under_every_ruling(attack: Attack, rules: RuleSet):
    pairs = [(r, f) for r in range(1, 21) for f in range(1, 21)]
    outcomes = [engine.result(rules, attack, r, f) for r, f in pairs]
    odds = engine.chances(rules, attack)
    assert odds.hit == Fraction(sum(o != MISS for o in outcomes), len(pairs))
    assert odds.critical == Fraction(outcomes.count(CRITICAL), len(pairs))


@settings(max_examples=300, deadline=None)
@given(attacks, rolls, follows, ruling_sets)
def test_natural_roll_rules_hold(attack: Attack, roll: int, follow: int | None, rules: RuleSet):
    outcome = engine.result(rules, attack, roll, follow)
    if roll == 1:
        assert outcome == MISS
    if roll == 20:
        assert outcome != MISS
    if 1 < roll < 20:
        assert (outcome != MISS) == (roll >= attack.need)
    if outcome == CRITICAL:
        assert roll == 20 and follow is not None and follow >= attack.need and attack.need <= 20
    if follow is None:
        assert outcome != CRITICAL


@settings(max_examples=200, deadline=None)
@given(st.integers(-5, 20), st.integers(-5, 40), ruling_sets)
def test_odds_grow_with_the_bonus(bonus: int, target: int, rules: RuleSet):
    lower, higher = (
        engine.chances(rules, Attack(bonus, target)),
        engine.chances(rules, Attack(bonus + 1, target)),
    )
    assert lower.hit <= higher.hit
    assert Fraction(1, 20) <= lower.hit <= Fraction(19, 20)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["1d4", "1d6+1", "2d6-1", "1d8+2", "3d6", "1d12+4"]),
    st.integers(1, 36),
    st.integers(1, 36),
)
def test_a_critical_never_does_less_than_the_hit(dice_text: str, roll: int, extra: int):
    dice = dice_module.parse(dice_text)
    roll, extra = min(roll, dice.count * dice.sides), min(extra, dice.count * dice.sides)
    roll, extra = max(roll, dice.count), max(extra, dice.count)
    damage, attack = generic.Damage(dice), generic.Attack(0, 0)
    for choice in RULES.rulings["critical_damage"].choices:
        rules = dataclasses.replace(RULES, chosen={"critical_damage": choice})
        critical = resolution_damage.attack_damage(rules, attack, damage, CRITICAL, 20, None, roll, extra)
        hit = resolution_damage.attack_damage(rules, attack, damage, HIT, 20, None, roll)
        assert isinstance(critical, int) and isinstance(hit, int)
        assert critical >= hit + dice.sides
