"""The one-page fight record: the order, each combatant's state and notes, the log rows it shows and who
acts now."""

from __future__ import annotations

from collections.abc import Sequence

from pycalc.encounter import (
    RECORD_LOG_SIZE,
    ROSTER_SIZE,
    Attack,
    Combatant,
    Fight,
    RowResult,
    round_now,
    rounds_of,
    with_names,
)
from pycalc.encounter_block import encounter
from pycalc.encounter_rows import roster_state
from pycalc.encounter_state import CombatantState, bleeding_since, healed_round, lethal_hp
from pycalc.tables import RuleSet


def record_order(fight: Fight, states: Sequence[CombatantState]) -> list[int]:
    """The roster lines the fight record lists, in acting order (ties and those without initiative
    yet in roster order, the latter last)."""
    named = [i for i, c in enumerate(fight.lines) if c.name]
    unordered = ROSTER_SIZE + 1
    return sorted(named, key=lambda i: (unordered if states[i].order is None else states[i].order, i))


def bleeding_note(rules: RuleSet, fight: Fight, me: Combatant, log: Sequence[RowResult]) -> str:
    """What the fight record says of a combatant in a band that loses hit points each round until
    aided: bleeding so many a round, or aided (in a round up to the current one) and stopped."""
    fight = with_names(fight)
    rule = encounter(rules).hit_points
    if not rule.loss or not me.name:
        return ""
    now = round_now(fight)
    row = rules.table(rule.table).band(lethal_hp(fight, me, log, now))
    loss = None if row is None else row[rule.loss]
    if not isinstance(loss, int) or loss <= 0:
        return ""
    if me.aided_round is not None and me.aided_round <= now:
        return f"aided in round {me.aided_round}, bleeding stopped"
    top = lethal_hp(fight, me, log, now) if row.high is None else row.high
    stop = healed_round(fight, me, log, bleeding_since(fight, me, log, top))
    if stop is not None and stop <= now:
        return f"healed in round {stop}, bleeding stopped"
    return f"bleeding {loss} HP a round"


def record_state(
    rules: RuleSet, fight: Fight, me: Combatant, state: CombatantState, log: Sequence[RowResult]
) -> str:
    """A roster line's "State and conditions now" on the fight record."""
    parts = (state.state, state.conditions, bleeding_note(rules, fight, me, log))
    return "; ".join(p for p in parts if p) if me.name else ""


def record_targets(attack: Attack) -> str:
    """A log row's targets on the fight record: the first, and how many more an area hit also hit
    ("Goblin 1 +3"), short enough to print at full size in its column (every name is on the
    Encounter sheet)."""
    more = sum(1 for name in attack.also if name)
    return attack.target + (f" +{more}" if more else "")


def record_result(result: str) -> str:
    """A log row's result on the fight record: a message ("#ROLL? 1 to 20") by its first word alone,
    which prints at full size in its column (the Encounter sheet says the rest)."""
    return result.split(" ", 1)[0] if result.startswith("#") else result


def acts_now(rules: RuleSet, fight: Fight, states: Sequence[CombatantState] | None = None) -> str:
    """Who acts now: the first in the acting order of the round in use who has not attacked in it (a
    row not voided) and is not down; "" when every one has."""
    fight = with_names(fight)
    states = roster_state(rules, fight) if states is None else states
    now = round_now(fight)
    first_line: dict[str, int] = {}
    for index, c in enumerate(fight.lines):
        if c.name:
            first_line.setdefault(c.name, index)
    acted = [0] * len(fight.lines)
    for attack, row_round in zip(fight.attacks, rounds_of(fight.attacks), strict=True):
        if not attack.void and row_round == now and attack.attacker in first_line:
            acted[first_line[attack.attacker]] += 1
    for index in record_order(fight, states):
        if not acted[index] and not states[index].down:
            return fight.lines[index].name
    return ""


def record_log_rows(fight: Fight) -> list[int]:
    """The log rows the fight record shows: the last RECORD_LOG_SIZE rows with a name typed."""
    filled = [i for i, a in enumerate(fight.attacks) if a.attacker or a.target]
    return filled[-RECORD_LOG_SIZE:]
