"""Each combatant's state on the roster after the log: hit points and their band, subdual and lethal
damage, bleeding, conditions active, morale and a side down, worked out from a resolved log; and the
damage that strikes a combatant down."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pycalc.encounter import CONDITION_SLOTS, Combatant, Condition, Fight, RowResult, round_now, with_names
from pycalc.encounter_block import cell, encounter
from pycalc.encounter_checks import spell_goes_off
from pycalc.encounter_initiative import initiative, later_initiatives, lost_action, order, simultaneous
from pycalc.encounter_rulesets import adapter, start_hp
from pycalc.hit_point_states import hit_point_state
from pycalc.tables import RuleSet


@dataclass
class CombatantState:
    initiative: int | None
    order: int | None
    simultaneous: bool | None
    later: list[int | None]
    lost: int  # attacks whose number is at or below the ruleset's limit (spelljammer)
    spell_at: int | str | None  # initiative - casting time, or SPELL_LOST
    round_one: str  # the first-round exception, in round 1
    hp_now: int
    state: str
    conditions: str  # active conditions this round, "Stunned (to round 3), Prone"
    down: bool
    extra: dict[str, object]  # the ruleset's own (wound modifier, stunned, PROT now)
    morale: str = ""  # the GM's morale table at the morale roll
    subdual: int = 0  # subdual (temporary) damage taken, inside the hit points lost
    side_down: str = ""  # "2 of 5", then ": check morale" at the block's percent


def lasts(rules: RuleSet, condition: Condition) -> int | None:
    """The rounds typed, else the conditions table's fixed rounds for it, else None (until cleared)."""
    table_id = encounter(rules).conditions
    if condition.rounds is not None or not table_id:
        return condition.rounds
    row = next((r for r in rules.table(table_id).rows if r.label == condition.name), None)
    return row["rounds"] if row is not None and isinstance(row["rounds"], int) else None


def active(rules: RuleSet, condition: Condition, round_: int) -> bool:
    rounds = lasts(rules, condition)
    return condition.start <= round_ and (rounds is None or round_ <= condition.start + rounds - 1)


def condition_text(rules: RuleSet, condition: Condition) -> str:
    rounds = lasts(rules, condition)
    if rounds is None:
        return condition.name
    return f"{condition.name} (to round {condition.start + rounds - 1})"


def round_one(rules: RuleSet, fight: Fight, me: Combatant) -> str:
    table_id = encounter(rules).initiative.first_round
    if not table_id or fight.round != 1 or not me.first_round:
        return ""
    return f"acts first: {rules.table(table_id).title}"


NO_MORALE_ROW = "no row for this roll: fill the morale table"


def morale_result(rules: RuleSet, roll: int | None) -> str:
    morale = encounter(rules).morale
    if morale is None or roll is None:
        return ""
    for row in rules.table(morale.table).rows:
        if isinstance(row["roll_from"], int) and row["roll_from"] <= roll <= row["roll_to"]:
            return str(row["result"])
    return NO_MORALE_ROW


def side_down(rules: RuleSet, fight: Fight, me: Combatant, downs: Sequence[bool]) -> str:
    morale = encounter(rules).morale
    if morale is None or not me.name or not me.side:
        return ""
    down = sum(1 for c, d in zip(fight.lines, downs, strict=True) if c.side == me.side and d)
    size = sum(1 for c in fight.lines if c.side == me.side and c.name)
    percent = int(cell(rules, morale.check_at_percent))
    first = None if morale.check_at_down is None else int(cell(rules, morale.check_at_down))
    if down * 100 >= percent * size:
        return f"{down} of {size}: check morale ({percent}% down)"
    if down == first:
        return f"{down} of {size}: check morale (the first down)"
    return f"{down} of {size}"


def log_hp(fight: Fight, me: Combatant, log: Sequence[RowResult], up_to_round: int) -> int:
    """The combatant's hit points after the log rows of rounds up to ``up_to_round``."""
    taken = 0
    for attack, row in zip(fight.attacks, log, strict=True):
        if me.name and row.round <= up_to_round:
            taken += row.hp_lost * (attack.target, *attack.also).count(me.name)
    return start_hp(me) - taken


def subdual_taken(fight: Fight, me: Combatant, log: Sequence[RowResult], up_to_round: int) -> int:
    """The subdual (temporary) damage in the log rows of rounds up to ``up_to_round``."""
    return sum(
        row.subdual * (attack.target, *attack.also).count(me.name)
        for attack, row in zip(fight.attacks, log, strict=True)
        if me.name and row.round <= up_to_round
    )


def lethal_hp(fight: Fight, me: Combatant, log: Sequence[RowResult], up_to_round: int) -> int:
    """The hit points the log's normal damage leaves (subdual damage does not wound)."""
    return log_hp(fight, me, log, up_to_round) + subdual_taken(fight, me, log, up_to_round)


def down_lethal_taken(fight: Fight, me: Combatant, log: Sequence[RowResult], up_to_round: int) -> int:
    return sum(
        row.down_lethal
        for attack, row in zip(fight.attacks, log, strict=True)
        if me.name and attack.target == me.name and row.round <= up_to_round
    )


def bleeding(rules: RuleSet, fight: Fight, me: Combatant, log: Sequence[RowResult], hp: int) -> int:
    """Hit points lost by the current round to a band that loses them each round until aided (``hp``:
    the hit points the log's normal damage leaves, ``lethal_hp``). A heal row in a round after it
    reached the band stops the loss from that round, as aid does."""
    rule = encounter(rules).hit_points
    row = rules.table(rule.table).band(hp) if rule.loss and me.name else None
    if row is None or not isinstance(row[rule.loss], int) or row[rule.loss] <= 0:
        return 0
    since = bleeding_since(fight, me, log, hp if row.high is None else row.high)
    until = fight.round if me.aided_round is None else min(fight.round, me.aided_round - 1)
    stop = healed_round(fight, me, log, since)
    if stop is not None:
        until = min(until, stop - 1)
    lost = row[rule.loss] * max(0, until - since)
    return lost if row.low is None else min(lost, hp - row.low + 1)


def bleeding_since(fight: Fight, me: Combatant, log: Sequence[RowResult], top: int) -> int:
    """The round the log first brought the combatant to ``top`` or below (0: it started there)."""
    reached = [
        round_
        for attack, round_ in zip(fight.attacks, (r.round for r in log), strict=True)
        if me.name in (attack.target, *attack.also) and lethal_hp(fight, me, log, round_) <= top
    ]
    return 0 if start_hp(me) <= top else min(reached)


def healed_round(fight: Fight, me: Combatant, log: Sequence[RowResult], since: int) -> int | None:
    """The first round after ``since`` with a heal row on the combatant (it stops the bleeding)."""
    heals = [
        r.round
        for a, r in zip(fight.attacks, log, strict=True)
        if r.heal and a.target == me.name and r.round > since
    ]
    return min(heals) if heals else None


def states_after(rules: RuleSet, fight: Fight, log: Sequence[RowResult]) -> list[CombatantState]:
    fight = replace(with_names(fight), round=round_now(fight))
    positions = order(rules, fight.lines)
    together = simultaneous(rules, fight.lines, positions)
    found = []
    for index, me in enumerate(fight.lines):
        subdual = subdual_taken(fight, me, log, fight.round)
        hp = log_hp(fight, me, log, fight.round)
        hp -= bleeding(rules, fight, me, log, hp + subdual)
        first, later = initiative(rules, fight.lines, index), later_initiatives(rules, fight.lines, index)
        conditions = [
            condition_text(rules, c)
            for c in fight.conditions
            if me.name and c.target == me.name and active(rules, c, fight.round)
        ]
        found.append(
            CombatantState(
                initiative=first,
                order=positions[index],
                simultaneous=together[index],
                later=later,
                lost=sum(lost_action(rules, n) for n in (first, *later)),
                spell_at=spell_goes_off(fight, me, first, log),
                round_one=round_one(rules, fight, me),
                hp_now=hp,
                state=hit_point_state(
                    rules, hp, start_hp(me), subdual, down_lethal_taken(fight, me, log, fight.round)
                )
                if me.name
                else "",
                conditions=", ".join(conditions[:CONDITION_SLOTS])
                + (
                    f", and {len(conditions) - CONDITION_SLOTS} more"
                    if len(conditions) > CONDITION_SLOTS
                    else ""
                ),
                down=bool(me.name) and hp <= 0,
                extra=adapter(rules).roster_extra(rules, fight, me, hp, log),
                morale=morale_result(rules, me.morale_roll) if me.name else "",
                subdual=subdual,
            )
        )
    downs = [s.down for s in found]
    for me, state in zip(fight.lines, found, strict=True):
        state.side_down = side_down(rules, fight, me, downs)
    return found
