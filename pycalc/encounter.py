"""A whole fight, as the Encounter sheet runs it: roster + rolls + logs -> acting order and state.

The reference the sheet's formulas are checked against (tests/test_encounter_parity.py). Pure
functions of the ruleset (its ``encounter:`` block, :mod:`pycalc.encounter_block`), the roster, the
attack log, the conditions log and the current round. Each attack is resolved by the ruleset's own
calculator engine (:mod:`pycalc.encounter_rulesets`), so a log row says what the Attack or Strike
calculator says for the same numbers.

How the sheet reads the logs (and so this model):

- Initiative: a combatant's number is its roll (the roll typed on the first roster line of its
  group when its own is empty) + its DEX modifier when the ruleset adds it + its Action's
  initiative modifier. Order = 1 + how many have a higher number (ties to the higher DEX first
  where the ruleset says so); equal order = simultaneous.
- Attack log rows count in order, top to bottom. A row's round is the round typed, or the round of
  the row above (round 1 for the first). A row counts while its round is not after the current
  round, so stepping the round back shows the fight as it stood.
- A row's damage (HP lost) is taken from its target and from each "also hits" target. A row with
  damage typed (no attack roll: area, falling, a trap) is not resolved: its result is "Damage" and
  it takes that number, the attacker being optional. What a row needs of the state before it
  (spelljammer: the attacker's hit points for its wound modifier, the target's PROT worn by
  grievous hits) counts every row above it.
- Bleeding (encounter.hit_points.loss_per_round, C&C's -7 to -9): a combatant whose hit points from
  the log are in a band that loses hit points each round loses them in every round after the round
  its hit points from the log first reached that band (round 0 when it started the fight there), up
  to the current round and until the round before it was aided; never below the band (C&C: at -10
  it is dead and bleeds no more).
- A condition lasts from its start round through start + rounds - 1 (empty rounds: until the log row
  is cleared); it ends after its last round.
- A log row names the attacker and targets by their names or short names (``short_names``: the one
  typed, else the initials, g3 for Goblin 3), any case. A row voided (x in its Void cell) counts for
  nothing: its result is "Void".
- Who acts now: the first in the acting order of the round who has not attacked in it (a row not
  voided) and is not down.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from pycalc import dice
from pycalc.creatures import LibraryLine, with_creature
from pycalc.damage_kinds import (
    HEALED,
    bad_kind,
    heal_also_message,
    heal_needs_amount,
    healed,
    row_kind,
    subdual_part,
)
from pycalc.encounter_block import HEAL, SUBDUAL, cell, encounter
from pycalc.encounter_rulesets import EACH_ROUND, adapter, row_choices, start_hp, typed_number
from pycalc.errors import RuleError
from pycalc.log_picks import UNKNOWN as PICKS_UNKNOWN
from pycalc.log_picks import row_picks
from pycalc.tables import RuleSet

ROSTER_SIZE = 30
LOG_SIZE = 200
CONDITION_SIZE = 40
ALSO_HITS = 3  # targets an area attack also hits
DAMAGE = "Damage"  # the result of a row with damage and no attack roll
VOID = "Void"  # the result of a voided row
LOST_STUNNED = "Lost: stunned"  # the result of an attack a stun earlier in the round took away
SPELL_LOST = "lost: hit while casting"  # the roster's Spell goes off on, after such a hit this round
SPELL_CHECK = " is hit while casting: the spell is lost"  # after the target's name, on the row's check
# after a combatant's name, on the check of the first row that passes it in the acting order
ORDER_HINT = " acts earlier in the order and has no line yet this round"
CONDITION_SLOTS = 4  # active conditions the roster names (then: and N more)
RECORD_LOG_SIZE = 60  # log rows the one-page fight record shows (the last ones filled)


@dataclass(frozen=True)
class Combatant:
    name: str
    side: str = ""
    group: str = ""
    init_rolls: tuple[int | None, ...] = (None,)  # the first attack's roll, then later attacks'
    dex: int | None = 0  # None: empty on the roster (the creature's, else 0)
    action: str = ""  # the initiative modifiers table's row label ("" = none)
    casting_time: int | None = None
    first_round: bool = False  # acts first in round 1 (reach, size: encounter.initiative.first_round)
    max_hp: int | None = 0  # None: empty on the roster (the creature's, else 0)
    start_hp: int | None = None  # None: starts at max_hp
    stats: Mapping[str, object] = field(default_factory=dict)  # the ruleset's combat numbers by stat id
    morale_roll: int | None = None
    aided_round: int | None = None  # the round aid stopped the bleeding (encounter.hit_points.loss_per_round)
    short: str = ""  # the short name typed for the log ("" = the initials, ``auto_short``)
    kind: str = ""  # the creature typed or picked ("": the name without its number, pycalc.creatures)
    cast_round: int | None = None  # the round it casts a spell in (spell_when_attacked)


@dataclass(frozen=True)
class Attack:
    attacker: str
    target: str
    round: int | None = None  # None: the round of the row above
    also: tuple[str, ...] = ()
    roll: int | None = None
    follow_roll: int | None = None
    damage_roll: int | None = None
    extra_roll: int | None = None
    added_roll: int | None = None  # the total of the dice a picked row adds to the roll (Bless's 1d4)
    distance: int | None = None  # feet to the target (C&C's range band, with the attacker's increment)
    mods: int = 0
    picks: Mapping[str, str] = field(default_factory=dict)  # picker table id -> row label
    named_picks: str = ""  # the Picks cell: more picks by name, "charge, target prone" (log_picks)
    damage: int | None = None  # damage with no attack roll (area, falling, a trap): no resolution
    void: bool = False  # x in the Void cell: the row counts for nothing
    kind: str = ""  # the Kind cell: empty (normal damage), subdual's or heal's label or first letter


@dataclass(frozen=True)
class Condition:
    target: str
    name: str  # the conditions table's row label
    start: int
    rounds: int | None = None


@dataclass(frozen=True)
class Fight:
    roster: Sequence[Combatant]
    attacks: Sequence[Attack] = ()
    conditions: Sequence[Condition] = ()
    round: int | None = 1  # None: Round now left empty (round_now: the last round logged)
    creatures: Sequence[LibraryLine] = ()  # the Creatures sheet

    @cached_property
    def lines(self) -> tuple[Combatant, ...]:
        """The roster's lines with their numbers in use: typed, else the creature's (pycalc.creatures).
        ``roster`` is what the GM typed; everything the sheet works out reads these."""
        return tuple(in_use(c, self.creatures) for c in self.roster)


def in_use(combatant: Combatant, library: Sequence[LibraryLine]) -> Combatant:
    """The line with the creature's numbers where it leaves them empty; an empty DEX or maximum HP
    with no creature's counts as 0, an empty stat as the stat's default (``encounter_rulesets.stat``)."""
    dex, max_hp, stats = with_creature(
        library, combatant.name, combatant.kind, combatant.dex, combatant.max_hp, combatant.stats
    )
    return replace(
        combatant,
        dex=0 if dex is None or dex == "" else int(dex),  # type: ignore[call-overload]
        max_hp=0 if max_hp is None or max_hp == "" else int(max_hp),  # type: ignore[call-overload]
        stats=stats,
    )


def round_now(fight: Fight) -> int:
    """The round the fight is shown at: Round now, or when it is empty the last round logged (never
    round 0: an emptied Round now must not look like a fight where nothing happened)."""
    if fight.round is not None:
        return fight.round
    filled = [
        r for a, r in zip(fight.attacks, rounds_of(fight.attacks), strict=True) if a.attacker or a.target
    ]
    return max([1, *filled])


# --------------------------------------------------------------------------- names on the log


def auto_short(name: str) -> str:
    """The initials a combatant is known by on the log: the first letter of the first word, then the
    last word when it is a number, else its first letter (g3 for Goblin 3, bk for Black Knight, a for
    Aria)."""
    words = [w for w in name.split(" ") if w]
    if not words:
        return ""
    first = words[0][0].lower()
    if len(words) == 1:
        return first
    last = words[-1]
    return first + (last if all(c in "0123456789" for c in last) else last[0].lower())


def short_names(roster: Sequence[Combatant]) -> list[str]:
    """Each roster line's short name: the one typed, else the initials unless a line above has them or
    any line typed them (then none)."""
    typed = {c.short.lower() for c in roster if c.short}
    found: list[str] = []
    for c in roster:
        if not c.name:
            found.append("")
        elif c.short:
            found.append(c.short)
        else:
            auto = auto_short(c.name)
            taken = auto.lower() in typed or auto.lower() in {f.lower() for f in found if f}
            found.append("" if taken else auto)
    return found


def with_names(fight: Fight) -> Fight:
    """The fight with each log row's attacker and targets by their roster names, typed as a name or
    a short name in any case (a name the roster lacks stays as typed)."""
    known: dict[str, str] = {}
    for c in fight.lines:
        if c.name:
            known.setdefault(c.name.lower(), c.name)
    shorts: dict[str, str] = {}
    for c, short in zip(fight.lines, short_names(fight.lines), strict=True):
        if short:
            shorts.setdefault(short.lower(), c.name)

    def name(typed: str) -> str:
        if not typed:
            return typed
        return known.get(typed.lower()) or shorts.get(typed.lower()) or typed

    attacks = [
        replace(a, attacker=name(a.attacker), target=name(a.target), also=tuple(name(n) for n in a.also))
        for a in fight.attacks
    ]
    return replace(fight, attacks=attacks)


# --------------------------------------------------------------------------- initiative


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


# --------------------------------------------------------------------------- the attack log


def rounds_of(attacks: Sequence[Attack]) -> list[int]:
    found, current = [], 1
    for attack in attacks:
        current = attack.round if attack.round is not None else current
        found.append(current)
    return found


@dataclass
class RowResult:
    round: int
    result: object  # the calculator's result ('' with no roll, a '#...' message on a mistake)
    hp_lost: int  # what each target loses (0 unless a number)
    outputs: dict[str, object]
    check: str = ""  # what the GM would check by eye (row_checks); empty when all is well
    subdual: int = 0  # the part of hp_lost that is subdual (temporary) damage
    down_lethal: int = 0  # normal damage the row's Target took while already at 0 or below
    heal: bool = False  # a heal row (hp_lost is minus the hit points given back, to the Target only)
    spell_lost: bool = False  # the row hits its Target while it casts (spell_lost_on_hit)


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
    states = roster_state(rules, fight, log)
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


def down_lethal(rules: RuleSet, lethal: int, before: int) -> int:
    """Normal damage taken by a Target already at 0 or below, where further damage kills
    (``further_damage_lethal``): it ends a subdual knock-out."""
    kinds = encounter(rules).damage_kinds
    return lethal if kinds is not None and kinds.further_damage_lethal and before <= 0 and lethal > 0 else 0


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


@dataclass(frozen=True)
class RowState:
    attacker_hp: int  # the attacker's hit points before this row
    target_prot_wear: int  # PROT the target lost to earlier rows


# --------------------------------------------------------------------------- state on the roster


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


def hit_point_state(rules: RuleSet, hp: int, start: int, subdual: int = 0, down_lethal: int = 0) -> str:
    """The state of the band ``hp`` lies in; with ``start_band_exempt``, a combatant still in the band
    of its starting hit points reads as the last band (spelljammer: no wound until the next band).
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
    if row is not None and rule.start_band_exempt and row is table.band(start):
        row = table.rows[-1]
    return "" if row is None else str(row[rule.state])


def state_after_hit(
    rules: RuleSet, hp_before: int, subdual_before: int, damage: int, subdual_hit: bool
) -> str:
    """The target's state after one hit of ``damage`` (the Attack calculator's, and a log row's, one
    line): its hit points before, the subdual damage inside them, and whether the hit deals subdual
    damage (its part as a log row's, ``subdual_part``; damage struck while down where that kills)."""
    part = subdual_part(rules, damage, hp_before) if subdual_hit else 0
    struck_down = down_lethal(rules, damage - part, hp_before)
    return hit_point_state(rules, hp_before - damage, hp_before, subdual_before + part, struck_down)


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


def roster_state(
    rules: RuleSet, fight: Fight, log: Sequence[RowResult] | None = None
) -> list[CombatantState]:
    log = resolve_log(rules, fight) if log is None else log
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


# --------------------------------------------------------------------------- the one-page record


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
