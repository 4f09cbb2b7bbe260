"""The acting order of a round: each combatant's initiative (its dice, modifiers, group rolls, later
segments), the order and who acts together, and an action lost to a late number."""

from __future__ import annotations

from collections.abc import Sequence

from pycalc import dice
from pycalc.encounter import Combatant
from pycalc.encounter_block import cell, encounter
from pycalc.tables import RuleSet


def initiative_dice(rules: RuleSet) -> list[int]:
    """Faces of the initiative die of each attack: the first, then the later attacks' (the sheet's
    roll checks)."""
    rule = encounter(rules).initiative
    found = cell(rules, rule.die)
    first = dice.parse(found).sides if rule.die_is_dice else int(found)
    return [first, *(int(cell(rules, d)) for d in rule.later_dice)]


def initiative_modifier(rules: RuleSet, action: str) -> int:
    table_id = encounter(rules).initiative.modifiers
    if not table_id or not action:
        return 0
    return int(rules.table(table_id).by_label(action)["init"])


def group_roll(roster: Sequence[Combatant], index: int, attack: int = 0) -> int | None:
    """The combatant's own roll, else the roll on the first roster line of its group."""
    me = roster[index]
    own = me.init_rolls[attack] if attack < len(me.init_rolls) else None
    if own is not None or not me.group:
        return own
    first = next(c for c in roster if c.group == me.group)
    return first.init_rolls[attack] if attack < len(first.init_rolls) else None


def initiative(rules: RuleSet, roster: Sequence[Combatant], index: int, attack: int = 0) -> int | None:
    roll = group_roll(roster, index, attack)
    me = roster[index]
    if roll is None or not me.name:
        return None
    return (
        roll
        + (me.dex if cell(rules, encounter(rules).initiative.adds_dex) else 0)
        + initiative_modifier(rules, me.action)
    )


def later_initiatives(rules: RuleSet, roster: Sequence[Combatant], index: int) -> list[int | None]:
    """Later attacks' numbers: the block's later_tie_delay lower than the attack before when equal to it."""
    rule = encounter(rules).initiative
    found: list[int | None] = [initiative(rules, roster, index)]
    for attack in range(1, 1 + len(rule.later_dice)):
        number = initiative(rules, roster, index, attack)
        if number is not None and found[-1] is not None and number == found[-1]:
            number -= int(cell(rules, rule.later_tie_delay))
        found.append(number)
    return found[1:]


def order(rules: RuleSet, roster: Sequence[Combatant]) -> list[int | None]:
    """Acting position of each combatant (1 acts first; equal positions act together)."""
    numbers = [initiative(rules, roster, i) for i in range(len(roster))]
    by_dex = encounter(rules).initiative.ties == "higher_dex"
    found: list[int | None] = []
    for me, mine in zip(roster, numbers, strict=True):
        if mine is None:
            found.append(None)
            continue
        ahead = sum(1 for n in numbers if n is not None and n > mine)
        if by_dex:
            ahead += sum(1 for c, n in zip(roster, numbers, strict=True) if n == mine and c.dex > me.dex)
        found.append(1 + ahead)
    return found


def simultaneous(
    rules: RuleSet, roster: Sequence[Combatant], positions: Sequence[int | None]
) -> list[bool | None]:
    """Acting together with someone outside one's own group (None: no initiative yet)."""
    return [
        None
        if mine is None
        else any(
            other == mine and (not me.group or them.group != me.group)
            for j, (them, other) in enumerate(zip(roster, positions, strict=True))
            if j != i
        )
        for i, (me, mine) in enumerate(zip(roster, positions, strict=True))
    ]


def lost_action(rules: RuleSet, number: int | None) -> bool:
    limit = encounter(rules).initiative.lost_at_or_below
    return limit is not None and number is not None and number <= int(cell(rules, limit))
