"""The range band of a ranged attack at the distance the GM types (the block's ``range:``,
``pycalc.resolution_block.RangeBands``): the range increments to the target are the distance over the
weapon's increment, rounded up; the band they fall in adds its ``hit`` to the roll, or stops the attack
out of range. A melee attack (the picked kind's ``ranged`` column false), or either number left empty,
has no band."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycalc.errors import RuleError
from pycalc.pickers import chosen_row
from pycalc.resolution import block
from pycalc.resolution_block import ROLL_COLUMN
from pycalc.tables import RuleSet

OUT_OF_RANGE = "#RANGE? the target is out of range: no attack"
BAD_INCREMENT, BAD_DISTANCE = "#INCREMENT? more than 0 ft", "#DISTANCE? 0 or more"
OFF_TABLE = "#RANGE? not in the range table"


@dataclass(frozen=True)
class Band:
    """A ranged attack's band: its name (or why none can be read), its modifier to the roll, and what
    stops the attack ('' when nothing does)."""

    said: str = ""
    hit: int = 0
    stop: str = ""


def increments(increment: int, distance: int) -> int:
    """The range increments to the target, rounded up; RuleError for an increment of 0 or less or a
    negative distance."""
    if increment <= 0:
        raise RuleError(BAD_INCREMENT)
    if distance < 0:
        raise RuleError(BAD_DISTANCE)
    return -(-distance // increment)


def ranged(rules: RuleSet, choices: Mapping[str, str]) -> bool:
    """The picked attack kind is ranged (every attack is, where the kind table has no ``ranged`` column)."""
    situation = block(rules).situation
    if situation is None or situation.kind_table is None:
        return True
    return chosen_row(rules, choices, situation.kind_table).values.get("ranged", True) is True


def band(rules: RuleSet, choices: Mapping[str, str], increment: int | None, distance: int | None) -> Band:
    """The band of a ranged attack with both numbers typed; none otherwise."""
    rule = block(rules).range
    if rule is None or increment is None or distance is None or not ranged(rules, choices):
        return Band()
    try:
        row = rules.table(rule.table).band(increments(increment, distance))
    except RuleError as error:
        return Band(str(error), 0, str(error))
    if row is None:  # the shipped table is open at both ends; only an edited one gets here
        return Band(OFF_TABLE, 0, OFF_TABLE)
    within = row[rule.within] is True
    hit = int(row.values.get(ROLL_COLUMN) or 0) if within else 0
    return Band(band_name(str(row[rule.band]), hit), hit, "" if within else OUT_OF_RANGE)


def band_name(name: str, hit: int) -> str:
    """The band's name, with its modifier to the roll when it has one: "long (-6 to hit)"."""
    return f"{name} ({hit:+d} to hit)" if hit else name
