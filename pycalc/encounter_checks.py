"""What a log row checks as a GM would by eye: may the attacker still act, is the target down, has it made
its attacks this round, is a caster hit while casting; the names it cannot find."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pycalc.encounter import SPELL_CHECK, SPELL_LOST, Attack, Combatant, Fight, RowResult
from pycalc.encounter_block import cell, encounter
from pycalc.encounter_initiative import initiative, later_initiatives, lost_action
from pycalc.encounter_rulesets import EACH_ROUND, typed_number
from pycalc.tables import RuleSet

# What a GM checks by eye on a row, said on the row (LOG_CHECK); the row still resolves as typed.
CHECK_SEPARATOR = "; "


def row_checks(*checks: str) -> str:
    return CHECK_SEPARATOR.join(c for c in checks if c)


def round_ahead(row_round: int, now: int) -> str:
    return f"round {row_round} is after Round now ({now})" if row_round > now else ""


def attacker_check(name: str, hp: int, hp_at_round_start: int, stunned: bool) -> str:
    """An attacker at 0 hit points or below cannot act: said so, or, when it went down this very
    round, that its attack stands only if it acts together with whoever downed it. A stunned attacker
    (``stun_loses_attacks``) has lost its remaining attacks of the round."""
    if stunned:
        return f"{name} was stunned earlier this round: its remaining attacks are lost"
    if hp > 0:
        return ""
    if hp_at_round_start > 0:
        return f"{name} went down this round: the attack stands only if {name} acts together with whoever downed it"
    return f"{name} is at {hp} HP: it cannot act"


def attacks_allowed(rules: RuleSet, numbers: Mapping[str, list[int | None]]) -> dict[str, int]:
    """Where a combatant rolls initiative per attack (``later_dice``: spelljammer), the attacks its
    rolls (``attack_numbers``) give it this round, less those lost at ``lost_at_or_below`` or later;
    none without a roll."""
    if not encounter(rules).initiative.later_dice:
        return {}
    rolled = {name: [n for n in mine if n is not None] for name, mine in numbers.items()}
    return {
        name: len(mine) - sum(lost_action(rules, n) for n in mine) for name, mine in rolled.items() if mine
    }


def attacks_check(name: str, made: int, allowed: int | None) -> str:
    """A row past the attacks the attacker's initiative rolls give it this round."""
    if allowed is None or made <= allowed:
        return ""
    return f"{name} makes attack {made} this round: its initiative rolls give it {allowed}"


def attacks_each_round(rules: RuleSet, lines: Sequence[Combatant]) -> dict[str, int]:
    """Where the roster has Attacks each round (``attacks_each_round``), each named combatant's: the
    number typed on its line, else its creature's (``Fight.lines``), else the block's default; none
    without any (not checked)."""
    block = encounter(rules)
    if not block.attacks_each_round:
        return {}
    default = None if block.attacks_default is None else cell(rules, block.attacks_default)
    found = {}
    for me in lines:
        number = typed_number(me.stats.get(EACH_ROUND))
        number = default if number is None else number
        if me.name and number is not None:
            found[me.name] = number
    return found


def each_round_check(name: str, made: int, allowed: int | None) -> str:
    """A row past the attacker's attacks each round (``attacks_each_round``)."""
    if allowed is None or made <= allowed:
        return ""
    return f"{name} makes attack {made} this round: it has {allowed} {'attack' if allowed == 1 else 'attacks'} each round"


def attack_numbers(rules: RuleSet, roster: Sequence[Combatant]) -> dict[str, list[int | None]]:
    """Each named combatant's initiative numbers this round: its first attack's, then its later ones."""
    return {
        me.name: [initiative(rules, roster, index), *later_initiatives(rules, roster, index)]
        for index, me in enumerate(roster)
        if me.name
    }


def spell_lost(
    rules: RuleSet,
    result: object,
    numbers: Mapping[str, list[int | None]],
    attacker: Combatant,
    target: Combatant,
    attack: int,
) -> bool:
    """Whether the row (the attacker's ``attack``-th this round) hits its target while the target casts:
    the attack's number at or below the target's initiative and above the number its spell goes off on
    (``spell_lost_on_hit``; the roster's numbers are this round's)."""
    rule = encounter(rules).spell_lost_on_hit
    if rule is None or target.casting_time is None:
        return False
    table, column = rule
    hit = any(row.label == result and (row[column] or 0) > 0 for row in rules.table(table).rows)
    mine, theirs = numbers[attacker.name], numbers[target.name][0]
    number = mine[attack - 1] if attack <= len(mine) else None
    if not hit or number is None or theirs is None:
        return False
    return theirs - target.casting_time < number <= theirs


def spell_attacked(
    rules: RuleSet,
    numbers: Mapping[str, list[int | None]],
    attacker: Combatant,
    target: Combatant,
    row_round: int,
    now: int,
    hp_lost: int,
) -> str:
    """The check of a row that attacks a target casting a spell this round (``spell_when_attacked``:
    a hit that takes hit points, or any attack where a miss counts too): the table's row whose order
    is the attacker's against the caster (1: a higher initiative, acting earlier; 0: the same number,
    together) says what happens to the spell; the roster's numbers are this round's."""
    rule = encounter(rules).spell_when_attacked
    if (
        rule is None
        or target.cast_round != row_round
        or row_round != now
        or (rule.hit_needed and hp_lost <= 0)
    ):
        return ""
    mine, theirs = numbers[attacker.name][0], numbers[target.name][0]
    if mine is None or theirs is None:
        return ""
    order = (mine > theirs) - (mine < theirs)
    said = next((r[rule.says] for r in rules.table(rule.table).rows if r[rule.order] == order), None)
    return "" if said is None else f"{target.name} {said}"


def spell_goes_off(
    fight: Fight, me: Combatant, first: int | None, log: Sequence[RowResult]
) -> int | str | None:
    """The roster's Spell goes off on: initiative less casting time, or SPELL_LOST after a row of the
    current round hit the caster while it cast (``fight``: with the log's names, ``round``: now)."""
    if any(
        r.spell_lost and a.target == me.name and r.round == fight.round
        for a, r in zip(fight.attacks, log, strict=True)
    ):
        return SPELL_LOST
    return None if first is None or me.casting_time is None else first - me.casting_time


def spell_check(target: Combatant) -> str:
    return target.name + SPELL_CHECK


def target_check(name: str, hp: int) -> str:
    return f"{name} is already at {hp} HP" if hp <= 0 else ""


def unknown_names(attack: Attack, by_name: Mapping[str, Combatant]) -> str:
    if attack.attacker not in by_name and (attack.attacker or attack.damage is None):
        return "#ATTACKER? a name on the roster"
    return "#TARGET? a name on the roster"
