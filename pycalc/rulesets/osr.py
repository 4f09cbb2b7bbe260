"""OSR house rules (seed 001, descending AC): what its Excel functions and subsystems share.

Every number comes from ``tables/osr``; the rulings in force come from ``rules.ruling(...)``.

Attack: the natural d20 needed is ``target - bonus - mods`` where ``target`` is the number the
GM's attack matrix gives for the defender's AC. A natural 1 always misses and is a Critical Fumble
when a second d20 rolls higher than the attacker's level; a natural 20 always hits (a Critical HIT
unless only a 19 or 20 could hit; 1 damage less per point needed over 20). Those rules, the
situation's pickers and typed numbers and the GM's fumble table are the ``resolution:`` block of
``tables/osr/ruleset.yaml``: the generic engine resolves them (``pycalc.resolution``) and the generic
calculator (``pycalc.resolution_calculator``) is osr's Attack calculator, and the shared ``d20_*``
Excel functions (``pycalc.udfs.shared``) its attack's functions. This module keeps the attack's result
for the engine registry (``pycalc.d20_engines``), the fumble table's line (the seed's table is
missing: :func:`fumble_effect` reads the GM's own rows and never invents one; ``fumble_effect("osr",
roll)``) and what the subsystems share. Its subsystems have a module each: ``osr_mass_combat``, ``osr_normal_men`` (attacks against Normal
Men, kills per round), ``osr_grappling``, ``osr_saves`` (saves after a maneuver, spell interruption);
its surprise is the encounter block's (``pycalc.surprise``).
"""

from __future__ import annotations

from pycalc import resolution as generic
from pycalc import resolution_results
from pycalc.d20 import FUMBLE, Attack
from pycalc.tables import RuleSet, load_ruleset

USES_FOLLOW_ROLL = True


def osr_rules() -> RuleSet:
    """The osr tables (with the rulings' defaults), through the loader's cache: the Excel functions'."""
    return load_ruleset("osr")


# --------------------------------------------------------------------------- the generic engine


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None) -> str:
    """The shared d20 interface (pycalc.d20): no situation flags."""
    return resolution_results.resolve(rules, generic.from_d20(attack), roll, follow_roll)


def fumble_effect(rules: RuleSet, roll: int | None) -> str:
    """The GM's fumble table row for that roll (the block's chart over it: ``resolution_results``);
    '' before the roll. The seed has none, so none is invented: until the GM fills it in, it says where."""
    return resolution_results.chart_text(rules, ANY_ATTACK, FUMBLE, None, roll)


# The chart does not depend on the attack here (no automatic hit, no critical chart).
ANY_ATTACK = generic.Attack(0, 0)
