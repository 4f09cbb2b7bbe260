"""d100 strike-chance resolution (spelljammer): roll d100 at or under SC - DEF.

Everything numeric comes from the ruleset's tables: ``dice``, ``outcomes``, ``automatic_results``
and ``critical_grievous``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet


@dataclass(frozen=True)
class Outcome:
    id: str
    label: str
    rank: int
    damage_multiplier: int
    prot_applies: bool
    prot_wear: int
    effect: str


@lru_cache(maxsize=64)
def outcomes(rules: RuleSet) -> tuple[Outcome, ...]:
    """The outcomes from Miss up, ordered by rank (read once per ruleset: every roll resolves with them)."""
    rows = rules.table("outcomes").rows
    found = (
        Outcome(
            str(r.id),
            str(r.label),
            r["rank"],
            r["damage_multiplier"],
            r["prot_applies"],
            r["prot_wear"],
            r["effect"],
        )
        for r in rows
    )
    return tuple(sorted(found, key=lambda o: o.rank))


def outcome_named(rules: RuleSet, name: str) -> Outcome:
    """The outcome whose label or id is ``name`` (case-insensitive)."""
    wanted = name.strip().casefold()
    for outcome in outcomes(rules):
        if wanted in (outcome.id.casefold(), outcome.label.casefold()):
            return outcome
    labels = ", ".join(o.label for o in outcomes(rules))
    raise RuleError(f"#RESULT? use {labels}")


def die_faces(rules: RuleSet) -> int:
    return rules.constant("dice", "strike_die_faces")


def modified_sc(sc: int, defense: int, mods: int = 0) -> int:
    """SC - DEF + mods: the highest roll that hits by the table."""
    return sc - defense + mods


def _band_value(rules: RuleSet, modified: int, column: str) -> int:
    band = rules.table("critical_grievous").band(modified)
    return band[column] if band else 0


def critical_max(rules: RuleSet, modified: int) -> int:
    """Highest d100 roll that is a critical by the table (0 when none)."""
    return _band_value(rules, modified, "critical_max")


def grievous_max(rules: RuleSet, modified: int) -> int:
    """Highest d100 roll that is a grievous hit by the table (0 when none)."""
    return _band_value(rules, modified, "grievous_max")


def _automatic(rules: RuleSet, roll: int) -> Row | None:
    return rules.table("automatic_results").band(roll)


def check_roll(rules: RuleSet, roll: int) -> int:
    faces = die_faces(rules)
    if not 1 <= roll <= faces:
        raise RuleError(f"#ROLL? 1 to {faces}")
    return roll


def resolve(rules: RuleSet, modified: int, roll: int) -> Outcome:
    """The outcome of one d100 roll against a modified strike chance."""
    check_roll(rules, roll)
    ranked = outcomes(rules)
    if roll <= grievous_max(rules, modified):
        rank = 3
    elif roll <= critical_max(rules, modified):
        rank = 2
    elif roll <= modified:
        rank = 1
    else:
        rank = 0
    automatic = _automatic(rules, roll)
    if automatic is not None:
        if automatic["always_miss"]:
            rank = 0
        elif automatic["at_least"]:
            rank = max(rank, outcome_named(rules, automatic["at_least"]).rank)
    return ranked[rank]


def distribution(rules: RuleSet, modified: int) -> dict[str, Fraction]:
    """Exact probability of each outcome (by id) over every face of the die."""
    faces = die_faces(rules)
    counts = {o.id: 0 for o in outcomes(rules)}
    for roll in range(1, faces + 1):
        counts[resolve(rules, modified, roll).id] += 1
    return {outcome_id: Fraction(count, faces) for outcome_id, count in counts.items()}


def hit_chance(rules: RuleSet, modified: int) -> Fraction:
    """Probability of any hit (every outcome above Miss)."""
    miss = outcomes(rules)[0].id
    return 1 - distribution(rules, modified)[miss]


def damage_taken(rules: RuleSet, damage: int, prot: int, outcome: Outcome) -> int:
    """Hit points lost: damage times the outcome's multiplier, less PROT where it applies."""
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    if prot < 0:
        raise RuleError("#PROT? 0 or more")
    taken = damage * outcome.damage_multiplier - (prot if outcome.prot_applies else 0)
    return max(0, taken)
