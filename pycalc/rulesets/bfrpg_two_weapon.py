"""Basic Fantasy RPG's Two-weapon calculator: the attack roll modifier of every two_weapon_fighting
row after the wielder's DEX bonus, counted as the Attack calculator's situation counts it.

Reads ``two_weapon_fighting`` and ``two_weapon_rules`` (the penalty cap) of
``tables/bfrpg/maneuvers.yaml`` and the ruling two_weapon_dex through the block's situation
(``pycalc.resolution_situation``); ``pycalc.sheets.bfrpg_two_weapon`` writes the same rule as native
formulas.
"""

from __future__ import annotations

from pycalc import pickers, resolution_situation
from pycalc.rulesets.bfrpg import DEX_NUMBER
from pycalc.tables import Row, RuleSet

TWO_WEAPON = "two_weapon_fighting"


def two_weapon_hit(rules: RuleSet, row: Row, dex_bonus: int) -> int:
    """The two-weapon row's penalty with the DEX bonus as the block's situation counts it (its typed
    ``attacker_dex``: while the row's ``dex_reduces`` by ruling two_weapon_dex is ticked, no further
    than the cap)."""
    adding = resolution_situation.modifiers_adding(rules)
    totals = pickers.added_up(rules, adding, [(TWO_WEAPON, row)])
    return (
        totals.sums["hit"]
        + resolution_situation.typed_sums(rules, adding, totals, {DEX_NUMBER: dex_bonus})["hit"]
    )


def two_weapon_outputs(rules: RuleSet, dex_bonus: int) -> dict[str, object]:
    """The attack roll modifier of every two_weapon_fighting row for this DEX bonus."""
    table = rules.table("two_weapon_fighting")
    return {f"TWO_WEAPON_{row.id.upper()}": two_weapon_hit(rules, row, dex_bonus) for row in table.rows}
