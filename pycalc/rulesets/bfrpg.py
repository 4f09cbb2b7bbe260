"""Basic Fantasy RPG with house rules (bfrpg): d20 + AB + mods >= AC, critical threat and confirmation.

The attack roll and its damage are resolved by the generic d20 engine (``pycalc.resolution``) from
the ``resolution:`` block of ``tables/bfrpg/ruleset.yaml``, which states the seed's rules ("THE
COMBAT", "Critical Hits and Lingering Injuries") with every number a table cell and every ambiguity
a ruling: a natural 1 always fails; a natural 20 always hits and threatens a critical; a second d20
that hits "normally" confirms it; no critical when only a natural 20 can hit; a critical adds the
maximum die; a charge doubles, subduing and swung weapons underwater halve; a helpless target takes
double the maximum. There is no fumble chart.

The Attack calculator is the generic one (``pycalc.resolution_calculator``: the block's pickers, the
ability bonus by attack kind, what rules an attack out, a brawl's own dice, a near miss into a
melee). What stays here is the attack roll and the damage of a known result the Combat maneuvers
read. Its subsystems, the Combat maneuvers calculators,
have a module each with one pure function: ``bfrpg_critical``, ``bfrpg_two_weapon``,
``bfrpg_helpless``, ``bfrpg_joust``, ``bfrpg_parry`` (parry and block), ``bfrpg_firing`` (firing into
melee), ``bfrpg_surprise``. Their keys are the workbook's defined names; '' stands for a cell left
blank until rolled. ``result`` (what ``pycalc.d20`` dispatches to), ``chances``,
``critical_possible``, ``confirms`` and ``confirm_min`` take a plain ``pycalc.d20.Attack`` and ask the
engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import pickers, resolution_chances, resolution_damage, resolution_results
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, HIT, Attack
from pycalc.errors import RuleError
from pycalc.tables import RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True
# No face of the die: the natural roll of a result already known (bfrpg's damage has no natural-roll rule).
NO_NATURAL_ROLL = 0
DEX_NUMBER = "attacker_dex"  # the block's typed DEX bonus (it also offsets a two-weapon penalty)

# --------------------------------------------------------------------------- the attack roll (generic engine)


def faces(rules: RuleSet) -> int:
    return generic.faces(rules)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss, Hit or Critical. A threat without its confirmation roll yet is a Hit."""
    return resolution_results.resolve(rules, generic.from_d20(attack), roll, follow_roll)


def critical_possible(rules: RuleSet, attack: Attack) -> bool:
    """False when the only way to hit is the natural-20 rule (ruling only_natural_20_hits)."""
    return generic.critical_possible(rules, generic.from_d20(attack))


def confirms(rules: RuleSet, attack: Attack, follow_roll: int) -> bool:
    """The second roll is "a normal hit, not just another natural 20" (ruling confirmation_natural_1)."""
    return generic.confirms(rules, generic.from_d20(attack), follow_roll)


def confirm_min(rules: RuleSet, attack: Attack) -> int:
    """Lowest confirmation roll that confirms."""
    return generic.confirm_min(rules, generic.from_d20(attack))


@dataclass(frozen=True)
class Odds:
    hit: Fraction  # any hit, criticals included
    critical: Fraction


def chances(rules: RuleSet, attack: Attack) -> Odds:
    """Exact odds over every (roll, confirmation roll) pair of the YAML's die."""
    found = resolution_chances.chances(rules, generic.from_d20(attack))
    return Odds(found[HIT] + found[CRITICAL], found[CRITICAL])


# --------------------------------------------------------------------------- damage


def damage_dice(text: object) -> dice_module.Dice:
    """Weapon damage such as 1d8+2 (dice are needed: a critical adds the maximum die)."""
    parsed = dice_module.parse(text)
    if parsed.sides < 1:
        raise RuleError("#DICE? write it like 2d4+2")
    return parsed


def result_damage(
    rules: RuleSet,
    damage: generic.Damage,
    outcome: str,
    damage_roll: int | None,
    extra_roll: int | None = None,
    auto_hit: bool = False,
) -> int | str:
    """Damage of a result already known (Miss, Hit or Critical): 0 on a miss, '' while a damage roll
    it needs is missing. Of the attack only an automatic hit (a helpless target) changes the damage:
    bfrpg's block has no critical chart and no natural-roll penalty."""
    attack = generic.Attack(0, 0, auto_hit=auto_hit)
    return resolution_damage.attack_damage(
        rules, attack, damage, outcome, NO_NATURAL_ROLL, None, damage_roll, extra_roll
    )
