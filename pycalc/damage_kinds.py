"""The attack log's Kind column (``encounter.damage_kinds``): normal damage (empty), subdual or
temporary damage, and healing, with the seed's effects on a row (the roster's states are in
:mod:`pycalc.encounter`).

- Kind typed: a row label of the kinds table or its first letter, any case; anything else is a
  message on the row.
- Subdual: the row's damage is taken off hit points as any other; its subdual part (all of it, or what
  the ruleset's split leaves: C&C's one point in five is normal) goes to the combatant's subdual pool.
  Where further damage is lethal (``further_damage_lethal``), a Target already at 0 or below takes it
  all as normal damage.
- Heal: the hit points typed in Dmg, no roll, given back to the Target only, never above its maximum
  (the larger of Maximum HP and Start HP), at most to the states table's cap where the band of the
  hit points its normal damage leaves has one (C&C: magical healing of the dying to 0), none where
  that band is beyond healing (dead). What it gives back takes subdual damage off first (a ruling:
  the seeds do not say which damage healing mends).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycalc import pickers
from pycalc.encounter_block import HEAL, SUBDUAL, DamageKinds, encounter
from pycalc.resolution_block import value
from pycalc.tables import RuleSet

HEALED = "Healed"  # the result of a heal row


def kinds(rules: RuleSet) -> DamageKinds | None:
    return encounter(rules).damage_kinds


def labels(rules: RuleSet) -> dict[str, str]:
    """Kind id -> the label typed (subdual where the seed has it, heal)."""
    block = kinds(rules)
    if block is None:
        return {}
    return {str(r.id): str(r.label) for r in rules.table(block.table).rows if r.id in (SUBDUAL, HEAL)}


def kind_of(rules: RuleSet, typed: str) -> str | None:
    """ "" for normal damage, SUBDUAL or HEAL, None for a text that names no kind."""
    if typed == "":
        return ""
    for kind, label in labels(rules).items():
        if typed.lower() in (label.lower(), label[:1].lower()):
            return kind
    return None


def row_kind(
    rules: RuleSet, typed: str, choices: Mapping[str, str], toggles: Iterable[tuple[str, str]]
) -> str | None:
    """The row's kind: the one typed, else subdual where a pick of the row deals subdual damage
    (``subdual_picks``: the choice's row, or a ticked row, TRUE in the column)."""
    kind = kind_of(rules, typed)
    block = kinds(rules)
    if kind != "" or block is None or SUBDUAL not in labels(rules):
        return kind
    for table_id, column in block.subdual_picks:
        if any(row[column] is True for _, row in pickers.picked(rules, choices, toggles, (table_id,))):
            return SUBDUAL
    return ""


def bad_kind(rules: RuleSet) -> str:
    return "#KIND? " + ", ".join(labels(rules).values()) + " or empty"


def heal_needs_amount() -> str:
    return "#HEAL? type the hit points in Dmg, no roll"


def heal_also_message() -> str:
    return "#HEAL? the Target only: clear Also hits"


def normal_part(rules: RuleSet, damage: int) -> int:
    """The part of a subdual hit of ``damage`` that is normal damage (the block's ``normal_part``; 0
    without one): the damage, at least its least, over ``per``, rounded as the block says, at least
    ``at_least``."""
    block = kinds(rules)
    split = None if block is None else block.normal_part
    if split is None:
        return 0
    total = max(int(value(rules, split.damage_at_least)), damage)
    per = int(value(rules, split.per))
    parts = -(-total // per) if value(rules, split.rounding) == "up" else total // per
    return max(int(value(rules, split.at_least)), parts)


def subdual_part(rules: RuleSet, damage: int, target_before: int) -> int:
    """The subdual part of a subdual row's damage for a target at ``target_before`` hit points."""
    block = kinds(rules)
    if block is None or damage <= 0 or (block.further_damage_lethal and target_before <= 0):
        return 0
    return damage - normal_part(rules, damage)


def healed(rules: RuleSet, amount: int, before: int, lethal_before: int, most: int) -> int:
    """Hit points a heal of ``amount`` gives a combatant at ``before`` (``lethal_before`` without its
    subdual damage, whose band the caps read) whose maximum is ``most``."""
    block = kinds(rules)
    assert block is not None
    table = rules.table(encounter(rules).hit_points.table)
    row = table.band(lethal_before)
    if block.beyond_healing and row is not None and row[block.beyond_healing] is True:
        return 0
    if block.heal_cap and row is not None and isinstance(row[block.heal_cap], int):
        most = min(most, row[block.heal_cap])
    return max(0, min(amount, most - before))
