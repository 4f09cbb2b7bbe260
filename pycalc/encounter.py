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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from pycalc.creatures import LibraryLine, with_creature

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
    chart_roll: int | None = None  # the roll on a chart of its own after a Fumble or a Critical
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
