"""OSR house rules surprise: on what d6 faces one party surprises another, and who is surprised.

Reads ``surprise_rules`` and ``surprise_outcomes`` of ``tables/osr`` and the ruling
surprise_range_adjustment; ``pycalc.sheets.osr_surprise`` writes the same rules as native formulas.
"""

from __future__ import annotations

from fractions import Fraction

from pycalc.errors import RuleError, said
from pycalc.tables import RuleSet


def surprise_range(rules: RuleSet, surprises_on: int, surprised_on: int) -> int:
    """Top d6 face on which a side that "surprises on 1-``surprises_on``" surprises a side that is
    normally "surprised on 1-``surprised_on``" (fits the seed's four examples)."""
    sides = rules.constant("surprise_rules", "surprise_die_sides")
    for value, what in ((surprises_on, "SURPRISES ON"), (surprised_on, "SURPRISED ON")):
        if not 0 <= value <= sides:
            raise RuleError(f"#{what}? 0 to {sides}")
    shift = rules.constant("surprise_rules", "normal_surprise_max") - surprised_on
    if rules.ruling("surprise_range_adjustment") == "reduce_only":
        shift = max(0, shift)
    return min(sides, max(0, surprises_on - shift))


def surprise_chance(rules: RuleSet, top_face: int) -> Fraction:
    return Fraction(top_face, rules.constant("surprise_rules", "surprise_die_sides"))


def surprise_outcome(rules: RuleSet, a_on_b: int, b_on_a: int, roll_for_b: int, roll_for_a: int) -> str:
    """``roll_for_b``: the d6 rolled to see whether B is surprised (B is when it is <= a_on_b)."""
    sides = rules.constant("surprise_rules", "surprise_die_sides")
    for value, what in ((roll_for_b, "ROLL FOR B"), (roll_for_a, "ROLL FOR A")):
        if not 1 <= value <= sides:
            raise RuleError(f"#{what}? 1 to {sides}")
    b_surprised, a_surprised = roll_for_b <= a_on_b, roll_for_a <= b_on_a
    entry = (
        "both_surprised"
        if a_surprised and b_surprised
        else "a_surprises_b"
        if b_surprised
        else "b_surprises_a"
        if a_surprised
        else "no_surprise"
    )
    return str(rules.table("surprise_outcomes").value(entry, "result"))


def surprise_outputs(
    rules: RuleSet,
    a_surprises_on: int,
    a_surprised_on: int,
    b_surprises_on: int,
    b_surprised_on: int,
    roll_for_a: int | None = None,
    roll_for_b: int | None = None,
) -> dict[str, object]:
    a_on_b = said(surprise_range, rules, a_surprises_on, b_surprised_on)
    b_on_a = said(surprise_range, rules, b_surprises_on, a_surprised_on)
    outcome: object = ""
    if roll_for_a is not None and roll_for_b is not None:
        if isinstance(a_on_b, str) or isinstance(b_on_a, str):
            outcome = a_on_b if isinstance(a_on_b, str) else b_on_a
        else:
            outcome = said(surprise_outcome, rules, a_on_b, b_on_a, roll_for_b, roll_for_a)
    return {
        "SURPRISE_A_ON_B": a_on_b,
        "SURPRISE_B_ON_A": b_on_a,
        "SURPRISE_A_CHANCE": a_on_b if isinstance(a_on_b, str) else surprise_chance(rules, a_on_b),
        "SURPRISE_B_CHANCE": b_on_a if isinstance(b_on_a, str) else surprise_chance(rules, b_on_a),
        "SURPRISE_RESULT": outcome,
    }
