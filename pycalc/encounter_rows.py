"""The attack log resolved row by row: each row's result and hit points lost (``resolve_log``), a heal, the
hints of who acts earlier with no line yet, and the roster's state after the log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pycalc.damage_kinds import (
    HEALED,
    bad_kind,
    heal_also_message,
    heal_needs_amount,
    healed,
    row_kind,
    subdual_part,
)
from pycalc.encounter import (
    DAMAGE,
    LOST_STUNNED,
    ORDER_HINT,
    VOID,
    Attack,
    Combatant,
    Fight,
    RowResult,
    round_now,
    rounds_of,
    with_names,
)
from pycalc.encounter_block import HEAL, SUBDUAL, encounter
from pycalc.encounter_checks import (
    attack_numbers,
    attacker_check,
    attacks_allowed,
    attacks_check,
    attacks_each_round,
    each_round_check,
    round_ahead,
    row_checks,
    spell_attacked,
    spell_check,
    spell_lost,
    target_check,
    unknown_names,
)
from pycalc.encounter_initiative import order
from pycalc.encounter_rulesets import adapter, row_choices, start_hp
from pycalc.encounter_state import CombatantState, states_after
from pycalc.errors import RuleError
from pycalc.hit_point_states import down_lethal
from pycalc.log_picks import UNKNOWN as PICKS_UNKNOWN
from pycalc.log_picks import row_picks
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class RowState:
    attacker_hp: int  # the attacker's hit points before this row
    target_prot_wear: int  # PROT the target lost to earlier rows


def resolve_log(rules: RuleSet, fight: Fight) -> list[RowResult]:
    ruleset = adapter(rules)
    fight = with_names(fight)
    by_name = {c.name: c for c in fight.lines if c.name}
    start = {c.name: start_hp(c) for c in fight.lines if c.name}
    lost: dict[str, int] = dict.fromkeys(start, 0)
    sub: dict[str, int] = dict.fromkeys(start, 0)  # the subdual part of ``lost``
    wear: dict[str, int] = dict.fromkeys(start, 0)
    found: list[RowResult] = []
    now = round_now(fight)
    numbers = attack_numbers(rules, fight.lines)
    allowed = attacks_allowed(rules, numbers) or attacks_each_round(rules, fight.lines)
    limit_check = each_round_check if encounter(rules).attacks_each_round else attacks_check
    made: Counter[tuple[str, int]] = Counter()  # rows as Attacker per (name, round), void rows aside
    resolved: set[int] = set()  # the rows whose check speaks of the attacker and the target
    for attack, row_round in zip(fight.attacks, rounds_of(fight.attacks), strict=True):
        attacker, target = by_name.get(attack.attacker), by_name.get(attack.target)
        if attacker is not None and not attack.void:
            made[attacker.name, row_round] += 1
        if attack.void:  # counts for nothing, and says nothing more
            found.append(RowResult(row_round, VOID if attack.attacker or attack.target else "", 0, {}))
            continue
        filled = bool(attack.attacker or attack.target)
        ahead = round_ahead(row_round, now) if filled else ""
        # the picks say subdual only when the Picks cell can be read (the sheet: picks_bad)
        picked = row_choices(rules, attack) if not row_picks(rules, attack.named_picks).unknown else {}
        kind = row_kind(rules, attack.kind, picked.get("choices", {}), picked.get("toggles", ()))
        flat_error = (attack.attacker and attacker is None) or target is None
        if attack.damage is not None and filled and not flat_error:
            if kind is None:
                found.append(RowResult(row_round, bad_kind(rules), 0, {}, ahead))
            elif kind == HEAL:
                before = start[target.name] - lost[target.name]
                found.append(heal_row(rules, attack, target, before, sub[target.name], row_round, ahead))
                lost[target.name] += found[-1].hp_lost
                sub[target.name] += found[-1].subdual
            else:
                before = start[target.name] - lost[target.name]
                part = subdual_part(rules, attack.damage, before) if kind == SUBDUAL else 0
                for name in (attack.target, *attack.also):
                    if name in lost:
                        lost[name] += attack.damage
                        sub[name] += part
                found.append(
                    RowResult(
                        row_round,
                        DAMAGE,
                        attack.damage,
                        {},
                        ahead,
                        part,
                        down_lethal(rules, attack.damage - part, before),
                    )
                )
            continue
        if attack.damage is not None and filled:
            found.append(RowResult(row_round, unknown_names(attack, by_name), 0, {}, ahead))
            continue
        if attacker is None or target is None:
            message = "" if not (attack.attacker or attack.target) else unknown_names(attack, by_name)
            found.append(RowResult(row_round, message, 0, {}, ahead))
            continue
        if kind is None or kind == HEAL:
            message = bad_kind(rules) if kind is None else heal_needs_amount()
            found.append(RowResult(row_round, message, 0, {}, ahead))
            continue
        state = RowState(
            attacker_hp=start[attacker.name] - lost[attacker.name],
            target_prot_wear=wear[target.name],
        )
        before_round = start[attacker.name] - sum(
            r.hp_lost * (a.target, *a.also).count(attacker.name)  # as ``lost`` counts: once per mention
            for a, r in zip(fight.attacks, found, strict=False)
            if r.round < row_round
        )
        stunned = encounter(rules).stun_loses_attacks and any(
            r.round == row_round and a.target == attacker.name and r.outputs.get("TARGET_STUNNED") is True
            for a, r in zip(fight.attacks, found, strict=False)
        )
        resolved.add(len(found))
        check = row_checks(
            ahead,
            attacker_check(attacker.name, state.attacker_hp, before_round, stunned),
            limit_check(attacker.name, made[attacker.name, row_round], allowed.get(attacker.name)),
            target_check(target.name, start[target.name] - lost[target.name]),
        )
        if stunned:
            found.append(RowResult(row_round, LOST_STUNNED, 0, {}, check))
            continue
        if row_picks(rules, attack.named_picks).unknown:
            outputs = {ruleset.result: PICKS_UNKNOWN, ruleset.hp_lost: ""}
        else:
            try:
                outputs = ruleset.resolve(rules, attacker, target, attack, state)
            except RuleError as error:  # the calculator's cell shows the message
                outputs = {ruleset.result: str(error), ruleset.hp_lost: ""}
        result = outputs[ruleset.result]
        hp = outputs[ruleset.hp_lost]
        if isinstance(hp, str) and hp.startswith("#") and not str(result).startswith("#"):
            result = hp  # a hit whose damage cannot be worked out says why
        hp_lost = hp if isinstance(hp, int) and not isinstance(hp, bool) else 0
        before = start[target.name] - lost[target.name]
        part = subdual_part(rules, hp_lost, before) if kind == SUBDUAL else 0
        for name in (attack.target, *attack.also):
            if name in lost:
                lost[name] += hp_lost
                sub[name] += part
        wear[target.name] += ruleset.prot_wear(outputs)
        broken = row_round == now and spell_lost(
            rules, result, numbers, attacker, target, made[attacker.name, row_round]
        )
        found.append(
            RowResult(
                row_round,
                result,
                hp_lost,
                outputs,
                row_checks(
                    check,
                    spell_attacked(rules, numbers, attacker, target, row_round, now, hp_lost),
                    spell_check(target) if broken else "",
                ),
                part,
                down_lethal(rules, hp_lost - part, before),
                spell_lost=broken,
            )
        )
    for index, hint in order_hints(rules, fight, found).items():
        if index in resolved:
            found[index] = replace(found[index], check=row_checks(found[index].check, hint))
    return found


def order_hints(rules: RuleSet, fight: Fight, log: Sequence[RowResult]) -> dict[int, str]:
    """A hint on the first row of the round now whose attacker acts later in the order than a
    combatant (named, not down, with initiative, not casting a spell this round) that has no row yet
    this round: that combatant's name (the first such roster line, where one row passes several).
    By log row index."""
    fight = with_names(fight)
    now = round_now(fight)
    states = states_after(rules, fight, log)
    positions = order(rules, fight.lines)
    first_line: dict[str, int] = {}
    for index, c in enumerate(fight.lines):
        if c.name:
            first_line.setdefault(c.name, index)
    rows = [
        (index, first_line[attack.attacker])
        for index, (attack, row) in enumerate(zip(fight.attacks, log, strict=True))
        if row.round == now and not attack.void and attack.attacker in first_line
    ]
    first_row: dict[int, int] = {}
    for index, line in rows:
        first_row.setdefault(line, index)
    hints: dict[int, str] = {}
    for line, me in enumerate(fight.lines):
        mine = positions[line]
        casting = me.cast_round == now or states[line].spell_at not in (None, "")  # a spell is no row
        if not me.name or states[line].down or mine is None or casting:
            continue
        passed = [
            i for i, actor in rows if i < first_row.get(line, len(log)) and (positions[actor] or 0) > mine
        ]
        if passed:
            hints.setdefault(min(passed), me.name + ORDER_HINT)
    return hints


def heal_row(
    rules: RuleSet,
    attack: Attack,
    target: Combatant,
    before: int,
    sub_before: int,
    row_round: int,
    ahead: str,
) -> RowResult:
    """A heal row: its Target only (Also hits typed: a message), by the seed's caps read at the band
    of the hit points its normal damage leaves; the hit points given back take subdual damage off
    first (the seeds are silent: a ruling)."""
    if any(attack.also):
        return RowResult(row_round, heal_also_message(), 0, {}, ahead)
    most = max(target.max_hp, start_hp(target))
    given = healed(rules, attack.damage or 0, before, before + sub_before, most)
    return RowResult(row_round, HEALED, -given, {}, ahead, -min(sub_before, given), heal=True)


def roster_state(
    rules: RuleSet, fight: Fight, log: Sequence[RowResult] | None = None
) -> list[CombatantState]:
    """Each combatant's state after the log (resolved here when not given)."""
    return states_after(rules, fight, resolve_log(rules, fight) if log is None else log)
