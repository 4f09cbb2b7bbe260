"""The words of a d20 attack shared by the d20 rulesets (cnc, osr, combat17, bfrpg): its outcomes,
the attack's numbers and the die. Each ruleset's engine (``pycalc.rulesets.<id>``) imports these;
``pycalc.d20_engines`` reaches each engine by its id.

The roll needed is the same everywhere: ``target - bonus - mods`` on a d20 (for osr the target is
the number needed from the GM's attack matrix, for the others the defender's AC).
"""

from __future__ import annotations

from dataclasses import dataclass

from pycalc.errors import RuleError

D20_FACES = 20  # the die itself, not a rule number
D20_RULESETS = ("cnc", "osr", "combat17", "bfrpg")
# those whose Attack calculator is the generic one (``pycalc.resolution_calculator``): the shared
# Excel functions (``pycalc.udfs.shared``) serve their attack; bfrpg's calculator is its own
GENERIC_CALCULATOR = ("cnc", "osr", "combat17")
MISS, HIT, CRITICAL, FUMBLE = "Miss", "Hit", "Critical", "Fumble"
OUTCOMES = (MISS, HIT, CRITICAL, FUMBLE)
HITS = (HIT, CRITICAL)


@dataclass(frozen=True)
class Attack:
    bonus: int
    target: int
    mods: int = 0
    level: int = 0  # the attacker's level (osr's fumble check)

    @property
    def need(self) -> int:
        """The natural roll needed, before any natural-roll rule."""
        return self.target - self.bonus - self.mods


def check_roll(roll: int, what: str = "ROLL") -> int:
    if not 1 <= roll <= D20_FACES:
        raise RuleError(f"#{what}? 1 to {D20_FACES}")
    return roll
