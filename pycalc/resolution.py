"""One d20 attack resolution for every d20 ruleset, read from the ``resolution:`` block of its YAML.

Design note: what tells the four d20 rulesets apart
----------------------------------------------------
Read from the four hand-written engines this module replaced (``pycalc/rulesets/{cnc,osr,combat17,
bfrpg}.py`` and their ``_odds`` modules now call it). Everything else (the d20 + bonus + mods against
a target, exact odds by enumerating both d20s, damage = dice + modifier, several attacks as a
convolution) is the same in all four.

=====================  ==========  ===================  =====================  ======================
choice                 cnc         osr                  combat17               bfrpg
=====================  ==========  ===================  =====================  ======================
target                 AC (floor   number needed; AC    AC                     AC
                       min AC)     change x -1 (ruling)
hit margin             table       0                    0                      table
natural rolls that     box per     == natural_miss      bands with auto_miss   <= natural_always
always miss            face (off)  roll (1)             (1)                    _fails (1)
... always hit         box per     == natural_hit_roll  bands with auto_hit    >= natural_always
                       face (off)  (20)                 (20)                   _hits (20)
needs magic/silver     -           ruling: no hit at    ticked: no hit (nat 1  -
                                   all / no auto hit    still fumbles)
advantage              -           roll 2 keep high/    -                      -
                                   low; both: ruling
follow-up d20          -           fumble check         crit / fumble chart    confirmation
fumble                 -           nat 1 and follow >   nat 1 -> chart; Miss   -
                                   level                if not special (rul.)
critical               -           automatic on 20      nat 20 -> chart (+mods threat on >= 20;
                                   unless need >= 19    by ruling); Hit if     confirm: follow hits
                                   (ruling, basis need  not special (ruling)   by total (nat 1
                                   or target: ruling)                          fails: ruling); none
                                                                               if need >= 20 (rul.)
critical damage        -           as a hit             chart row -> outcomes  max die + roll (+ 2nd
                                                        formula (reg/max/crit) roll + mod: ruling)
damage multipliers     -           x2 (double)          situation x, whole or  double (whole or not
                                                        dice only; round rul.  the max die: ruling),
                                                                               half (round: ruling),
                                                                               water (row rounding)
nat-high penalty       -           -1/point needed      -                      -
                                   over 20 (total or
                                   die: ruling)
least damage           kind row    0                    table (0)              0
automatic hit          -           -                    -                      helpless: 2 x max
                                                                               (multiplied: ruling)
=====================  ==========  ===================  =====================  ======================

The ``resolution:`` block (``pycalc.resolution_block``, documented in ``tables/README.md``) names
each of those choices, with every number a literal or a table cell and every ambiguity a ruling.
This module reads it: pure functions of (RuleSet, :class:`Attack`, rolls) and (RuleSet,
:class:`Damage`, ...). The four d20 rulesets' attacks, odds and UDFs run on them, each ruleset
handing over its situation (``generic_attack`` in its module); the switch-over was checked by
comparing the old and new code on hundreds of thousands of inputs, and each ruleset's tests check
its documented numbers. No rule number is written here. What is truly a ruleset's own (falling,
mass combat, jousting, scatter, the situation its pickers add up to) stays in its own module;
``resolution_situation.picked_situation`` adds up the pickers of a ruleset whose block lists them
(``modifiers:``) with ``pycalc.pickers.added_up``, which adds up the shipped rulesets' own pickers too.

This module holds the attack, its damage and the target and number needed; the result of a roll is
``pycalc.resolution_results``, the chances ``pycalc.resolution_chances`` (dice on the roll:
``pycalc.resolution_added``), the damage ``pycalc.resolution_damage``.

Precedence, in this order: a ``blocked`` attack misses; an ``auto_hit`` attack hits (no critical);
an always-miss roll misses (and may fumble); a target that cannot be hit is missed; then the total
(or an always-hit roll) decides the hit, and the critical rule decides Hit or Critical.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pycalc import d20
from pycalc import dice as dice_module
from pycalc.errors import RuleError
from pycalc.resolution_block import (
    NeedRange,
    Resolution,
    RollColumn,
    Rolls,
    value,
)
from pycalc.tables import RuleSet

LOWEST_FACE = 1  # every die's lowest face, not a rule number


NORMAL, ADVANTAGE, DISADVANTAGE = "normal", "advantage", "disadvantage"


@dataclass(frozen=True)
class Attack:
    """One attack before the dice: what the d20 is rolled with and what the situation says."""

    bonus: int
    target: int  # the defender's AC, or the number needed (block `target`)
    mods: int = 0  # every modifier to the roll (the free one and the situation's)
    level: int = 0  # the attacker's level (fumble mode level_check)
    ac_change: int = 0  # the situation's change of the defender's AC (block `ac_change` converts it)
    advantage: bool = False
    disadvantage: bool = False
    needs_magic: bool = False  # only a weapon the attacker lacks can hit the target (block `needs_magic`)
    cannot_hit: bool = False  # no roll can hit (an always-miss roll still fumbles)
    blocked: bool = False  # no attack is possible: every roll misses, nothing fumbles
    auto_hit: bool = False  # every roll hits, no critical (damage: block `damage.auto_hit`)
    target_as_given: bool = False  # the target is already worked out: no `least_target` floor
    # dice the situation adds to the roll, (count, sides), the count negative for dice taken away
    # (-1d4: (-1, 4)); their total counts as mods, the natural-roll rules read the natural roll alone
    added: tuple[tuple[int, int], ...] = ()


def from_d20(attack: d20.Attack, **flags: bool) -> Attack:
    """The shared d20 interface's attack (``pycalc.d20``: bonus, target, mods, level) as the engine's,
    with the situation's ``flags`` (e.g. ``cannot_hit``, ``target_as_given``)."""
    return Attack(attack.bonus, attack.target, attack.mods, attack.level, **flags)


@dataclass(frozen=True)
class Damage:
    """The damage side of one attack."""

    dice: dice_module.Dice  # e.g. 1d8+2: the +2 is the modifier the formulas count
    bonus: int = 0  # the situation's damage bonus, counted with the modifier
    least: int | None = None  # None: the block's damage.least
    deals_damage: bool = True  # False: a hit deals none (a grapple)
    critical_extra: bool = True  # False: a critical deals what a hit deals (a lingering injury instead)
    multipliers: Mapping[str, Fraction] = field(default_factory=dict)  # stage name -> factor (1)
    round_up: Mapping[str, bool] = field(default_factory=dict)  # stages with rounding: picked


def block(rules: RuleSet) -> Resolution:
    found = rules.resolution_block
    if found is None:
        raise RuleError(f"#RULESET? {rules.id} has no resolution block")
    return found


_RESOLVED: weakref.WeakKeyDictionary[RuleSet, dict[int, Any]] = weakref.WeakKeyDictionary()


def get(rules: RuleSet, item: Any) -> Any:
    """A block value under these rules (``resolution_block.value``), remembered per RuleSet: a
    RuleSet never changes (house rules and flipped rulings make a new one), nor does its block."""
    if item is None or isinstance(item, (bool, int, str)):
        return item
    found = _RESOLVED.get(rules)
    if found is None:
        found = _RESOLVED[rules] = {}
    key = id(item)
    if key not in found:
        found[key] = value(rules, item)
    return found[key]


def faces(rules: RuleSet) -> int:
    return int(get(rules, block(rules).die))


def follow_faces(rules: RuleSet) -> int:
    follow = block(rules).follow_die
    return faces(rules) if follow is None else int(get(rules, follow))


def fumble_mode(rules: RuleSet) -> str:
    return str(get(rules, block(rules).fumble.mode))


def critical_mode(rules: RuleSet) -> str:
    return str(get(rules, block(rules).critical.mode))


FOLLOWED_FUMBLES = ("level_check", "chart")  # fumble modes a follow roll decides


FOLLOWED_CRITICALS = ("confirm", "chart")  # critical modes a follow roll decides


def uses_follow_roll(rules: RuleSet) -> bool:
    """Whether a second d20 can change the result (fumble check or chart, confirmation, crit chart)."""
    return fumble_mode(rules) in FOLLOWED_FUMBLES or critical_mode(rules) in FOLLOWED_CRITICALS


def check_roll(rules: RuleSet, roll: int, what: str = "ROLL", sides: int | None = None) -> int:
    top = faces(rules) if sides is None else sides
    if not LOWEST_FACE <= roll <= top:
        raise RuleError(f"#{what}? {LOWEST_FACE} to {top}")
    return roll


def roll_set(rules: RuleSet, rolls: Rolls) -> frozenset[int]:
    """The faces of the die that ``rolls`` (a union of ranges and table columns) names."""
    found = _RESOLVED.get(rules)
    if found is None:
        found = _RESOLVED[rules] = {}
    key = id(rolls)
    if key not in found:
        top = faces(rules)
        faces_in: set[int] = set()
        for part in rolls:
            if isinstance(part, RollColumn):
                table = rules.table(part.table)
                faces_in |= {
                    roll
                    for roll in range(LOWEST_FACE, top + 1)
                    if (row := table.band(roll)) and row[part.column]
                }
            elif get(rules, part.when):
                low = LOWEST_FACE if part.low is None else int(get(rules, part.low))
                high = top if part.high is None else int(get(rules, part.high))
                faces_in |= set(range(low, high + 1))
        found[key] = frozenset(faces_in)
    return found[key]


def in_rolls(rules: RuleSet, rolls: Rolls, roll: int) -> bool:
    """Whether the natural ``roll`` is one of ``rolls``."""
    return roll in roll_set(rules, rolls)


def always_misses(rules: RuleSet, roll: int) -> bool:
    return in_rolls(rules, block(rules).always_miss, roll)


def always_hits(rules: RuleSet, roll: int) -> bool:
    return in_rolls(rules, block(rules).always_hit, roll)


def critical_rolls(rules: RuleSet) -> Rolls:
    rolls = block(rules).critical.rolls
    return block(rules).always_hit if rolls is None else rolls


def target(rules: RuleSet, attack: Attack) -> int:
    """The target after the situation's AC change (and never below ``least_target``, unless the
    attack's target is one already worked out: ``target_as_given``)."""
    rule = block(rules)
    change = attack.ac_change * int(get(rules, rule.ac_change))  # harder to hit: a lower descending AC
    found = attack.target - change if descending(rules) else attack.target + change
    least = get(rules, rule.least_target)
    return found if least is None or attack.target_as_given else max(int(least), found)


def descending(rules: RuleSet) -> bool:
    """The target is a descending AC and the attacker's bonus its THAC0 (block ``target``)."""
    return get(rules, block(rules).target) == "descending_ac"


def raw_need(rules: RuleSet, attack: Attack) -> int:
    """Target minus bonus minus mods: what the total must make up on the die (``d20.Attack.need``);
    with a descending AC, THAC0 minus AC minus mods."""
    if descending(rules):
        return attack.bonus - target(rules, attack) - attack.mods
    return target(rules, attack) - attack.bonus - attack.mods


def need(rules: RuleSet, attack: Attack) -> int:
    """The natural roll needed to hit by the total, before any natural-roll rule."""
    return raw_need(rules, attack) + int(get(rules, block(rules).hit_margin))


def hits_by_total(rules: RuleSet, attack: Attack, roll: int) -> bool:
    return roll >= need(rules, attack)


def need_basis(rules: RuleSet, attack: Attack) -> int:
    """The number the natural-roll exceptions and penalty look at (block ``need_basis``)."""
    if get(rules, block(rules).need_basis) == "target":
        return target(rules, attack)
    return raw_need(rules, attack)


def in_need_range(rules: RuleSet, span: NeedRange | None, number: int) -> bool:
    if span is None:
        return False
    checks = (
        (span.at_least, lambda bound: number >= bound),
        (span.above, lambda bound: number > bound),
        (span.at_most, lambda bound: number <= bound),
        (span.below, lambda bound: number < bound),
    )
    return all(test(int(get(rules, bound))) for bound, test in checks if get(rules, bound) is not None)


def effective_needs_magic(rules: RuleSet, attack: Attack) -> str | None:
    """What the attack's ``needs_magic`` does under the block: cannot_hit, no_auto_hit or None."""
    return str(get(rules, block(rules).needs_magic)) if attack.needs_magic else None


def cannot_hit(rules: RuleSet, attack: Attack) -> bool:
    return attack.cannot_hit or effective_needs_magic(rules, attack) == "cannot_hit"


def critical_possible(rules: RuleSet, attack: Attack) -> bool:
    """False when the number needed is in ``critical.no_critical_when_needed`` (e.g. only a natural
    20 can hit); the attack's own flags (blocked, auto hit) are not counted here."""
    if critical_mode(rules) == "none":
        return False
    span = get(rules, block(rules).critical.no_critical_when_needed)
    return not in_need_range(rules, span, need_basis(rules, attack))


def confirms(rules: RuleSet, attack: Attack, follow: int) -> bool:
    """Confirmation (critical mode confirm): the follow roll hits by its total; an always-miss roll
    fails when ``confirm_natural_miss_fails``."""
    if get(rules, block(rules).critical.confirm_natural_miss_fails) and always_misses(rules, follow):
        return False
    return hits_by_total(rules, attack, follow)


def confirm_min(rules: RuleSet, attack: Attack) -> int:
    """Lowest confirmation roll that confirms (may lie outside the die: none or every roll)."""
    floor = LOWEST_FACE
    if get(rules, block(rules).critical.confirm_natural_miss_fails):
        while floor <= faces(rules) and always_misses(rules, floor):
            floor += 1
    return max(need(rules, attack), floor)
