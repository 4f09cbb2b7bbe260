"""The Basic Fantasy RPG Two-weapon calculator: native formulas of ``pycalc.rulesets.bfrpg_two_weapon``."""

from __future__ import annotations

from functools import partial

from pycalc.pickers import declared
from pycalc.rulesets import bfrpg_two_weapon as engine
from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.formulas import const, q
from pycalc.sheets.situation_cells import ruled_value
from pycalc.tables import Row, RuleSet


def two_weapon_formula(rules: RuleSet, row: Row, dex: str) -> str:
    """A two-weapon row's attack roll with the DEX bonus (``engine.two_weapon_hit``): the row's penalty
    plus the DEX while its ``dex_reduces`` (by ruling two_weapon_dex) is ticked, never past the cap."""
    value_of = partial(const, engine.TWO_WEAPON, str(row.id))
    reduces = ruled_value(rules, declared(rules), engine.TWO_WEAPON, "dex_reduces", value_of)
    hit = value_of("hit")
    return f"IF({reduces},MIN({const('two_weapon_rules', 'penalty_cap')},{hit}+SUM({dex})),{hit})"


def two_weapon_section(rules: RuleSet) -> Section:
    table = "two_weapon_fighting"
    fields = [Field("Dexterity bonus", "TWO_WEAPON_DEX", INPUT, 0)]
    for row in rules.table(table).rows:
        fields.append(
            Field(
                f"{row.label}: attack roll",
                f"TWO_WEAPON_{row.id.upper()}",
                native=two_weapon_formula(rules, row, "TWO_WEAPON_DEX"),
                udf=f"bfrpg_two_weapon_hit({q(row.id)},TWO_WEAPON_DEX)",
            )
        )
    return Section("Two-weapon penalties after DEX", tuple(fields))
