"""From each d20 ruleset's Attack calculator inputs to the generic engine's Attack and Damage.

The situation (what the pickers add up to) stays each ruleset's own; these adapters hand its sums
and flags to ``pycalc.resolution``. Each lives in its ruleset's module (``generic_attack``),
and ``generic_outputs`` is what ``attack_outputs`` becomes: the same defined names, from the
generic engine. Tested against the engines still hand-written in ``test_resolution_calculators.py``
(bfrpg's attack_outputs runs on the generic engine through its ``generic_attack`` already).
"""

from __future__ import annotations

from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT
from pycalc.errors import RuleError
from pycalc.rulesets import cnc, combat17, osr
from pycalc.tables import RuleSet

ADAPTERS = {
    "cnc": cnc.generic_attack,
    "osr": osr.generic_attack,
    "combat17": combat17.generic_attack,
}


def generic_outputs(rules: RuleSet, inputs: object) -> dict[str, object]:
    """The Attack calculator's common outputs (defined names) from the generic engine."""
    attack, damage = ADAPTERS[rules.id](rules, inputs)
    odds = generic.chances(rules, attack)
    found: dict[str, object] = {
        "ATTACK_NEED": generic.need(rules, attack),
        "ATTACK_HIT_CHANCE": odds[HIT] + odds[CRITICAL],
        "ATTACK_CRIT_CHANCE": odds[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": odds[FUMBLE],
        "ATTACK_RESULT": "",
        "ATTACK_DAMAGE": "",
    }
    roll, follow = getattr(inputs, "roll", None), getattr(inputs, "follow_roll", None)
    if roll is None:
        return found
    try:
        outcome = generic.result(rules, attack, roll, follow)
    except RuleError as error:
        return {**found, "ATTACK_RESULT": str(error)}
    found["ATTACK_RESULT"] = outcome
    try:
        found["ATTACK_DAMAGE"] = generic.attack_damage(
            rules,
            attack,
            damage,
            outcome,
            roll,
            follow,
            getattr(inputs, "damage_roll", None),
            getattr(inputs, "extra_roll", None),
        )
    except RuleError as error:
        found["ATTACK_DAMAGE"] = str(error)
    return found
