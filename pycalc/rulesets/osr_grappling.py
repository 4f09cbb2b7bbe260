"""OSR house rules grappling: the grappled hero's d6 per HD against the grapplers' combined roll, the
result and the rounds the thrown-off grapplers are stunned.

Reads ``grappling_dice`` and ``grappling_result`` of ``tables/osr``; ``pycalc.sheets.osr_grappling``
writes the same rules as native formulas.
"""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet


def grapple_row(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> Row:
    row = rules.table("grappling_result").band(hero_roll - grapplers_roll)
    assert row is not None  # the bands are open at both ends
    return row


def grapple_result(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> str:
    return str(grapple_row(rules, hero_roll, grapplers_roll)["result"])


def grapple_stun_rounds(rules: RuleSet, hero_roll: int, grapplers_roll: int) -> int:
    """Rounds the thrown-off grapplers are stunned: the hero's roll minus their combined roll."""
    if not grapple_row(rules, hero_roll, grapplers_roll)["grapplers_stunned"]:
        return 0
    per_point = rules.constant("grappling_dice", "stun_rounds_per_point")
    return (hero_roll - grapplers_roll) * per_point


def check_grapple_roll(rules: RuleSet, roll: int, hit_dice: int, per_hd_entry: str, what: str) -> int:
    """A total of ``hit_dice`` x d6: between the count of dice and six times it."""
    count = hit_dice * rules.constant("grappling_dice", per_hd_entry)
    sides = rules.constant("grappling_dice", "grappling_die_sides")
    if hit_dice < 1:
        raise RuleError(f"#{what} HD? 1 or more")
    if not count <= roll <= count * sides:
        raise RuleError(f"#{what} ROLL? {count} to {count * sides}")
    return roll


def grapple_outputs(
    rules: RuleSet, hero_hd: int, grapplers_hd: int, hero_roll: int, grapplers_roll: int
) -> dict[str, object]:
    try:
        check_grapple_roll(rules, hero_roll, hero_hd, "defender_d6_per_hd", "HERO")
        check_grapple_roll(rules, grapplers_roll, grapplers_hd, "grappler_d6_per_hd", "GRAPPLERS")
    except RuleError as error:
        return dict.fromkeys(("GRAPPLE_MARGIN", "GRAPPLE_OUTCOME", "GRAPPLE_STUNNED_ROUNDS"), str(error))
    return {
        "GRAPPLE_MARGIN": hero_roll - grapplers_roll,
        "GRAPPLE_OUTCOME": grapple_result(rules, hero_roll, grapplers_roll),
        "GRAPPLE_STUNNED_ROUNDS": grapple_stun_rounds(rules, hero_roll, grapplers_roll),
    }
