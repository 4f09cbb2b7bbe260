"""osr's resolution block through the generic engine (pycalc.resolution), which now is osr's engine:
the seed's natural-roll rules on every natural roll and fumble-check roll under every combination of
the rulings that change a result, a needed magic weapon, the natural-20 damage penalty and the
critical exception under both readings. (Its comparisons with osr's own hand-written engine went
with that engine; the brute-force checks of chances and odds are in test_osr_engine / test_osr_odds.)"""

from __future__ import annotations

import itertools

import pytest

from pycalc import resolution as generic
from pycalc import resolution_damage, resolution_results
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS
from pycalc.tables import load_ruleset
from tests.resolution_cases import ATTACKS, DICE, FOLLOWS, ruling_combos

RULES = load_ruleset("osr")
RESULT_RULINGS = ("magic_weapon_needed", "nat20_crit_exception", "nat20_needed_basis")
LEVELS = (0, 5, 25)


@pytest.mark.parametrize("name, rules", list(ruling_combos(RULES, *RESULT_RULINGS)))
@pytest.mark.parametrize("needs_magic", [False, True])
def test_natural_rolls_on_every_roll_and_fumble_check(name, rules, needs_magic: bool):
    """The seed's text under every ruling: a natural 1 always misses (a Critical Fumble when the
    fumble check rolls above the level), a natural 20 always hits unless only a magic weapon could,
    and every result is reached."""
    natural_miss = rules.constant("natural_1_fumble", "natural_miss_roll")
    natural_hit = rules.constant("natural_20_hit", "natural_hit_roll")
    seen = set()
    for (bonus, target, mods), roll, follow in itertools.product(ATTACKS, range(1, 21), FOLLOWS):
        for level in LEVELS if roll == natural_miss else LEVELS[:1]:
            attack = generic.Attack(bonus, target, mods, level, needs_magic=needs_magic)
            found = resolution_results.result(rules, attack, roll, follow)
            if roll == natural_miss:
                assert found == (FUMBLE if follow is not None and follow > level else MISS), (level, follow)
            elif roll == natural_hit and not needs_magic:
                assert found in (HIT, CRITICAL), (bonus, target, mods)
            seen.add(found)
    can_hit = not (needs_magic and rules.ruling("magic_weapon_needed") == "no_hit")
    assert seen == ({MISS, HIT, CRITICAL, FUMBLE} if can_hit else {MISS, FUMBLE})


def test_the_seed_example_22_needed_loses_2():
    attack = generic.Attack(0, 22)
    assert resolution_results.result(RULES, attack, 20) == HIT
    assert resolution_damage.natural_penalty(RULES, attack, 20) == 2
    assert (
        resolution_damage.attack_damage(RULES, attack, generic.Damage(DICE[3]), HIT, 20, None, 5) == 5 + 3 - 2
    )


def test_critical_exception_under_both_readings():
    """A critical needs the roll 19 or more by default, 19 or 20 only under the other reading."""
    default = RULES
    for need, crit in ((18, True), (19, False), (20, False), (21, False)):
        assert resolution_results.result(default, generic.Attack(0, need), 20) == (CRITICAL if crit else HIT)
    (_, only), *_ = [
        (n, r) for n, r in ruling_combos(RULES, "nat20_crit_exception") if n == "needed_19_or_20_only"
    ]
    assert resolution_results.result(only, generic.Attack(0, 21), 20) == CRITICAL
