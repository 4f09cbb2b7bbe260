"""Castles & Crusades (seed 000): d20 + BtH + modifiers >= AC, and the ruleset's other calculators.

An attack is resolved by the generic d20 engine (``pycalc.resolution``) from the ``resolution:``
block of ``tables/cnc/ruleset.yaml``: the total against AC (never below the least AC), and the
``natural_rolls`` boxes, all false in the seed, which states no natural-1 or natural-20 rule and has
no critical or fumble chart; a house rule ticked there is followed without code changes. The Attack
calculator and the attack's Excel functions are the generic ones (``pycalc.resolution_calculator``
and the shared ``d20_*`` of ``pycalc.udfs.shared``: the block's pickers, the prone rows by ruling,
the range band of a typed distance, the attack kinds' least damage and effect texts). What stays
here: the result of one attack of a worked-out AC (the engine ``pycalc.d20_engines`` and the
registry name), the attack kinds' rows (the special ACs read them), the hit point states and the
range bands of the Other calculators. Its subsystems have a module each: ``cnc_falling``,
``cnc_special_ac`` (disarm, grapple, touch), ``cnc_movement`` (movement, charge), ``cnc_subdual``.
Every number comes from ``tables/cnc``.
"""

from __future__ import annotations

from pycalc import resolution as generic
from pycalc import resolution_range, resolution_results
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

USES_FOLLOW_ROLL = False
RULESET_ID = "cnc"

# --------------------------------------------------------------------------- d20 resolution


def as_generic(attack: Attack) -> generic.Attack:
    """A d20 attack whose AC is already worked out (a UDF's argument, a chart's column) for the
    generic engine: the AC is taken as given, not raised to the least AC."""
    return generic.from_d20(attack, target_as_given=True)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss or Hit: the total against AC, with the natural-roll rules of the table (none in the seed).

    There is no follow roll in C&C; ``follow_roll`` is accepted and ignored.
    """
    return resolution_results.resolve(rules, as_generic(attack), roll)


KIND_TABLE = "attack_types"


def kind_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table(KIND_TABLE).by_label(kind)
    except KeyError:
        raise RuleError("#KIND? pick an attack kind from the list") from None


# --------------------------------------------------------------------------- hit points


def hp_row(rules: RuleSet, hp: int) -> Row:
    row = rules.table("hit_point_states").band(hp)
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError("#HP? not in the hit point table")
    return row


def hp_state(rules: RuleSet, hp: int) -> str:
    return str(hp_row(rules, hp)["state"])


# --------------------------------------------------------------------------- range


def range_row(rules: RuleSet, increment: int, distance: int) -> Row:
    row = rules.table("range_bands").band(resolution_range.increments(increment, distance))
    if row is None:  # the table is open at both ends; only an edited table gets here
        raise RuleError(resolution_range.OFF_TABLE)
    return row


def range_band(rules: RuleSet, increment: int, distance: int) -> str:
    return str(range_row(rules, increment, distance)["band"])


def range_modifier(rules: RuleSet, increment: int, distance: int) -> int | str:
    """To-hit modifier of the band; '' out of range (no attack possible)."""
    value = range_row(rules, increment, distance)["hit"]
    return "" if value is None else int(value)
