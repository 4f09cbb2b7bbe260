"""The band of hit points a combatant is in (the encounter block's ``hit_points.states``), after the
damage a hit deals: the state the roster, a log row and the Attack calculator name (dying, knocked
out by subdual damage, able to act)."""

from __future__ import annotations

from pycalc.damage_kinds import subdual_part
from pycalc.encounter_block import encounter
from pycalc.tables import RuleSet


def down_lethal(rules: RuleSet, lethal: int, before: int) -> int:
    """Normal damage taken by a Target already at 0 or below, where further damage kills
    (``further_damage_lethal``): it ends a subdual knock-out."""
    kinds = encounter(rules).damage_kinds
    return lethal if kinds is not None and kinds.further_damage_lethal and before <= 0 and lethal > 0 else 0


def hit_point_state(
    rules: RuleSet, hp: int, start: int | None = None, subdual: int = 0, down_lethal: int = 0
) -> str:
    """The state of the band ``hp`` lies in; with ``start_band_exempt``, a combatant still in the band
    of its starting hit points (``start``, when known) reads as the last band (spelljammer: no wound until the next band).
    With subdual damage taken: knocked out (the kinds' state column) when ``hp`` is 0 or below but the
    normal damage alone leaves it above 0 and no damage struck it while down where that kills; else
    the band of the hit points the normal damage leaves when they are 0 or below (the wound)."""
    rule, kinds = encounter(rules).hit_points, encounter(rules).damage_kinds
    table = rules.table(rule.table)
    lethal = hp + subdual
    if subdual > 0 and hp <= 0 < lethal and down_lethal == 0 and kinds and kinds.knocked_out:
        row = table.band(hp)
        return "" if row is None else str(row[kinds.knocked_out])
    if lethal <= 0:
        hp = lethal
    row = table.band(hp)
    if row is not None and rule.start_band_exempt and start is not None and row is table.band(start):
        row = table.rows[-1]
    return "" if row is None else str(row[rule.state])


def state_after_hit(
    rules: RuleSet,
    hp_before: int,
    subdual_before: int,
    damage: int,
    subdual_hit: bool,
) -> str:
    """The target's state after one hit of ``damage`` (the Attack calculator's, and a log row's, one
    line): its hit points before, the subdual damage inside them, and whether the hit deals subdual
    damage (its part as a log row's, ``subdual_part``, less its normal part, ``damage_kinds.normal_part``; damage
    struck while down where that kills)."""
    part = subdual_part(rules, damage, hp_before) if subdual_hit else 0
    struck_down = down_lethal(rules, damage - part, hp_before)
    return hit_point_state(rules, hp_before - damage, hp_before, subdual_before + part, struck_down)
