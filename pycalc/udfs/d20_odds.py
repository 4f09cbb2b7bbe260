"""The bodies of the odds UDFs of a d20 ruleset whose calculator is its own (bfrpg), one per job:
before the dice are rolled the expected damage, the chance of at least some damage and the chance to
drop a target (the rulesets on the generic calculator have the shared ``d20_*`` odds instead).

A ruleset's UDF module reads its own attack from the cells (its situation: barred targets,
pickers...) and hands it here with its ``RulesetOdds``: the ruleset's id, whose
tables are read each call, and its odds module (``pycalc.rulesets.<id>_odds``), which works the
odds out on the generic d20 engine. The number of attacks, the damage wanted and the hit points are
read here, after the attack, as every ruleset read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs.cells import as_attacks, as_hit_points

# The odds UDFs' arguments where the rulesets describe them alike (``cells.arg_docs``)
AMOUNT = ("amount", "damage")
TARGET_HP = ("hp", "target's hit points now")
ATTACKS = ("attacks", "attacks in the round, independent (optional, 1)")


class OddsEngine(Protocol):
    """What a ruleset's odds module offers (``pycalc.rulesets.bfrpg_odds``)."""

    def expected_damage(self, rules: RuleSet, odds: Any, attacks: int = 1) -> Fraction: ...

    def chance_at_least(self, rules: RuleSet, odds: Any, amount: int, attacks: int = 1) -> Fraction: ...

    def kill_chance(self, rules: RuleSet, odds: Any, hp: int, attacks: int = 1) -> Fraction: ...


@dataclass(frozen=True)
class RulesetOdds:
    """A d20 ruleset's odds as its UDFs reach them."""

    ruleset_id: str
    engine: OddsEngine


def expected_damage(ruleset: RulesetOdds, odds: Any, attacks: Any) -> float:
    """Expected damage of ``attacks`` independent attacks (a miss counts 0)."""
    rules = load_ruleset(ruleset.ruleset_id)
    return float(ruleset.engine.expected_damage(rules, odds, as_attacks(attacks)))


def damage_chance_at_least(ruleset: RulesetOdds, odds: Any, amount: Any, attacks: Any) -> float:
    """Probability that the attacks together do at least ``amount`` damage."""
    rules = load_ruleset(ruleset.ruleset_id)
    return float(
        ruleset.engine.chance_at_least(rules, odds, as_hit_points(amount, "AMOUNT"), as_attacks(attacks))
    )


def kill_chance(ruleset: RulesetOdds, odds: Any, hp: Any, attacks: Any) -> float:
    """Probability that a target of ``hp`` hit points drops to 0 or below within the attacks."""
    rules = load_ruleset(ruleset.ruleset_id)
    return float(ruleset.engine.kill_chance(rules, odds, as_hit_points(hp, "HP"), as_attacks(attacks)))
