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
melee, a helpless target, two weapons, a charge's doubling of a critical). What stays here is the
attack roll the shared d20 functions dispatch to (``pycalc.d20_engines``: ``result``) and its exact
chances. bfrpg's own subsystems, the Combat maneuvers calculators, have a module each with one pure
function: ``bfrpg_joust``, ``bfrpg_parry`` (parry and block) (its surprise is the encounter block's,
``pycalc.surprise``); their keys are the
workbook's defined names, '' standing for a cell left blank until rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pycalc import pickers, resolution_chances, resolution_results
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, HIT, Attack
from pycalc.tables import RuleSet

default_choice = pickers.default_choice  # the name the sheet writers read

USES_FOLLOW_ROLL = True

# --------------------------------------------------------------------------- the attack roll (generic engine)


def faces(rules: RuleSet) -> int:
    return generic.faces(rules)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss, Hit or Critical. A threat without its confirmation roll yet is a Hit."""
    return resolution_results.resolve(rules, generic.from_d20(attack), roll, follow_roll)


@dataclass(frozen=True)
class Odds:
    hit: Fraction  # any hit, criticals included
    critical: Fraction


def chances(rules: RuleSet, attack: Attack) -> Odds:
    """Exact odds over every (roll, confirmation roll) pair of the YAML's die."""
    found = resolution_chances.chances(rules, generic.from_d20(attack))
    return Odds(found[HIT] + found[CRITICAL], found[CRITICAL])
