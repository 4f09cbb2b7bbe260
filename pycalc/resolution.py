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
:func:`picked_situation` adds up the pickers of a ruleset whose block lists them (``modifiers:``)
with ``pycalc.pickers.added_up``, which adds up the shipped rulesets' own pickers too.

Precedence, in this order: a ``blocked`` attack misses; an ``auto_hit`` attack hits (no critical);
an always-miss roll misses (and may fumble); a target that cannot be hit is missed; then the total
(or an always-hit roll) decides the hit, and the critical rule decides Hit or Critical.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from pycalc import d20, pickers
from pycalc import dice as dice_module
from pycalc.d20 import CRITICAL, FUMBLE, HIT, MISS, OUTCOMES
from pycalc.errors import RuleError
from pycalc.resolution_block import (
    HIT_FORMULA,
    Chart,
    Formula,
    NeedRange,
    Resolution,
    RollColumn,
    Rolls,
    value,
)
from pycalc.table_files import roll_dice
from pycalc.tables import Row, RuleSet

LOWEST_FACE = 1  # every die's lowest face, not a rule number
NORMAL, ADVANTAGE, DISADVANTAGE = "normal", "advantage", "disadvantage"


# --------------------------------------------------------------------------- inputs


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


# --------------------------------------------------------------------------- the block


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


# --------------------------------------------------------------------------- natural rolls


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


# --------------------------------------------------------------------------- the target and the need


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


# --------------------------------------------------------------------------- critical and fumble rules


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


def chart_row(rules: RuleSet, chart: Chart, key: int) -> Row:
    row = rules.table(chart.table).band(key)
    if row is None:
        raise RuleError(f"#FOLLOW ROLL? not on the {rules.table(chart.table).title}")
    return row


def critical_chart(rules: RuleSet) -> Chart:
    chart = block(rules).critical.chart
    if chart is None:
        raise RuleError(f"#NONE? {rules.id} has no critical chart")
    return chart


def fumble_chart(rules: RuleSet) -> Chart:
    chart = block(rules).fumble.chart
    if chart is None:
        raise RuleError(f"#NONE? {rules.id} has no fumble chart")
    return chart


def follow_total(rules: RuleSet, attack: Attack, follow: int) -> int:
    """The critical chart's key: the follow roll, plus the roll's mods when ``follow_adds_mods``."""
    return follow + (attack.mods if get(rules, critical_chart(rules).follow_adds_mods) else 0)


def critical_chart_row(rules: RuleSet, attack: Attack, follow: int) -> Row:
    return chart_row(rules, critical_chart(rules), follow_total(rules, attack, follow))


def fumble_chart_row(rules: RuleSet, follow: int) -> Row:
    return chart_row(rules, fumble_chart(rules), follow)


def plain_row(rules: RuleSet, chart: Chart, row: Row) -> bool:
    """The chart row makes the natural roll plain (Hit / Miss) under ``plain_unless_special``."""
    return (
        bool(get(rules, chart.plain_unless_special)) and chart.special is not None and not row[chart.special]
    )


def chart_text(rules: RuleSet, attack: Attack, outcome: str, follow: int | None) -> str:
    """What the chart row read for a Critical or a Fumble says (its ``text`` column; '' without one,
    or before the follow roll)."""
    if follow is None:
        return ""
    if outcome == CRITICAL and critical_mode(rules) == "chart" and critical_chart(rules).text:
        return str(critical_chart_row(rules, attack, follow)[str(critical_chart(rules).text)] or "")
    if outcome == FUMBLE and fumble_mode(rules) == "chart" and fumble_chart(rules).text:
        return str(fumble_chart_row(rules, follow)[str(fumble_chart(rules).text)] or "")
    return ""


# --------------------------------------------------------------------------- the result


def fumble_result(rules: RuleSet, attack: Attack, follow: int | None) -> str:
    """Miss or Fumble for an always-miss roll."""
    mode = fumble_mode(rules)
    if mode == "always":
        return FUMBLE
    if mode == "level_check":
        return FUMBLE if follow is not None and follow > attack.level else MISS
    if mode == "chart":
        chart = fumble_chart(rules)
        if follow is not None and plain_row(rules, chart, fumble_chart_row(rules, follow)):
            return MISS
        return FUMBLE
    return MISS


def threatens(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether a roll that hits may be a critical: a critical roll, where criticals are possible."""
    return (
        critical_mode(rules) != "none"
        and in_rolls(rules, critical_rolls(rules), roll)
        and critical_possible(rules, attack)
    )


def critical_result(rules: RuleSet, attack: Attack, roll: int, follow: int | None) -> str:
    """Hit or Critical for a roll that hits."""
    mode = critical_mode(rules)
    if not threatens(rules, attack, roll):
        return HIT
    if mode == "automatic":
        return CRITICAL
    if mode == "confirm":
        return CRITICAL if follow is not None and confirms(rules, attack, follow) else HIT
    chart = critical_chart(rules)
    if follow is not None and plain_row(rules, chart, critical_chart_row(rules, attack, follow)):
        return HIT
    return CRITICAL


def hits(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether a roll that does not always miss hits (always, or by its total)."""
    if cannot_hit(rules, attack):
        return False
    auto = always_hits(rules, roll) and effective_needs_magic(rules, attack) != "no_auto_hit"
    return auto or hits_by_total(rules, attack, roll)


def resolve(rules: RuleSet, attack: Attack, roll: int, follow: int | None = None) -> str:
    """Miss, Hit, Critical or Fumble for the natural ``roll`` and the follow-up roll (unchecked)."""
    if attack.blocked:
        return MISS
    if attack.auto_hit:
        return HIT
    if always_misses(rules, roll):
        return fumble_result(rules, attack, follow)
    if not hits(rules, attack, roll):
        return MISS
    return critical_result(rules, attack, roll, follow)


def follow_matters(rules: RuleSet, attack: Attack, roll: int) -> bool:
    """Whether the follow-up roll can change the result of this natural roll, or its damage (``resolve``,
    ``formula_for``): the fumble check or chart of a roll that always misses, the confirmation or the
    critical chart of a critical roll that hits."""
    if attack.blocked or attack.auto_hit:
        return False
    if always_misses(rules, roll):
        return fumble_mode(rules) in FOLLOWED_FUMBLES
    return (
        critical_mode(rules) in FOLLOWED_CRITICALS
        and hits(rules, attack, roll)
        and threatens(rules, attack, roll)
    )


def result(rules: RuleSet, attack: Attack, roll: int, follow: int | None = None) -> str:
    """:func:`resolve` with both rolls checked against their dice (an attack with dice added to the
    roll is resolved once their total is in its mods: ``with_added_roll``)."""
    check_rolls(rules, roll, follow)
    return resolve(rules, with_added_roll(attack, None), roll, follow)


def check_rolls(rules: RuleSet, roll: int, follow: int | None) -> None:
    """The natural roll and the follow-up roll on their dice."""
    check_roll(rules, roll)
    if follow is not None:
        check_roll(rules, follow, "FOLLOW ROLL", follow_faces(rules))


# --------------------------------------------------------------------------- dice added to the roll


def added_counts(added: Iterable[tuple[int, int]]) -> tuple[dict[int, int], int]:
    """How many of the equally likely rolls of the added dice give each total, and of how many rolls."""
    found, rolls = {0: 1}, 1
    for count, sides in added:
        sign = 1 if count > 0 else -1
        for _ in range(abs(count)):
            step: dict[int, int] = {}
            for total, ways in found.items():
                for face in range(LOWEST_FACE, sides + 1):
                    step[total + sign * face] = step.get(total + sign * face, 0) + ways
            found, rolls = step, rolls * sides
    return found, rolls


def added_range(added: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The lowest and highest total of the added dice."""
    found = [
        (count * LOWEST_FACE, count * sides) if count > 0 else (count * sides, count * LOWEST_FACE)
        for count, sides in added
    ]
    return sum(low for low, _ in found), sum(high for _, high in found)


def with_added_roll(attack: Attack, shown: int | None) -> Attack:
    """The attack with its added dice showing ``shown`` (their total), counted in its mods; a message
    while the total is not typed or the dice cannot show it."""
    if not attack.added:
        return attack
    low, high = added_range(attack.added)
    if shown is None or not low <= shown <= high:
        raise RuleError(f"#DICE ON THE ROLL? {low} to {high}")
    return replace(attack, mods=attack.mods + shown, added=())


def fixed_attacks(attack: Attack) -> list[tuple[Attack, Fraction]]:
    """The attack once for each total of its added dice, with that total's chance (alone without dice)."""
    if not attack.added:
        return [(attack, Fraction(1))]
    ways, rolls = added_counts(attack.added)
    return [
        (replace(attack, mods=attack.mods + total, added=()), Fraction(count, rolls))
        for total, count in sorted(ways.items())
    ]


# --------------------------------------------------------------------------- chances


def roll_mode(rules: RuleSet, attack: Attack) -> str:
    if attack.advantage and attack.disadvantage:
        rule = block(rules).advantage
        return NORMAL if rule is None else str(get(rules, rule.both))
    return ADVANTAGE if attack.advantage else DISADVANTAGE if attack.disadvantage else NORMAL


def face_weight(rules: RuleSet, face: int, mode: str = NORMAL) -> Fraction:
    """Probability that the kept natural roll shows ``face`` (advantage keeps the highest of n)."""
    sides = faces(rules)
    rule = block(rules).advantage
    if mode == NORMAL or rule is None:
        return Fraction(1, sides)
    if mode == ADVANTAGE:
        n = int(get(rules, rule.highest_of))
        return Fraction(face**n - (face - 1) ** n, sides**n)
    n = int(get(rules, rule.lowest_of))
    return Fraction((sides + 1 - face) ** n - (sides - face) ** n, sides**n)


def roll_weights(rules: RuleSet, attack: Attack) -> list[tuple[int, Fraction]]:
    mode = roll_mode(rules, attack)
    return [(roll, face_weight(rules, roll, mode)) for roll in range(LOWEST_FACE, faces(rules) + 1)]


def follow_weights(rules: RuleSet) -> list[tuple[int | None, Fraction]]:
    if not uses_follow_roll(rules):
        return [(None, Fraction(1))]
    count = follow_faces(rules)
    return [(follow, Fraction(1, count)) for follow in range(LOWEST_FACE, count + 1)]


def pairs(rules: RuleSet, attack: Attack) -> Iterable[tuple[int, int | None, Fraction]]:
    """Every (natural roll, follow roll) with its probability."""
    follows = follow_weights(rules)
    for roll, weight in roll_weights(rules, attack):
        for follow, chance in follows:
            yield roll, follow, weight * chance


_CHANCES: weakref.WeakKeyDictionary[RuleSet, dict[Attack, dict[str, Fraction]]] = weakref.WeakKeyDictionary()
CHANCES_KEPT = 4096  # attacks remembered per RuleSet (a calculator, the odds and the UDFs ask again)


def chances(rules: RuleSet, attack: Attack) -> dict[str, Fraction]:
    """Exact probability of each result over every roll and follow roll (remembered per RuleSet and
    attack: both never change, and a follow-up d20 makes it 400 resolutions)."""
    known = _CHANCES.get(rules)
    if known is None:
        known = _CHANCES[rules] = {}
    if attack not in known:
        found = dict.fromkeys(OUTCOMES, Fraction(0))
        for fixed, share in fixed_attacks(attack):
            for roll, follow, weight in pairs(rules, fixed):
                found[resolve(rules, fixed, roll, follow)] += share * weight
        if len(known) >= CHANCES_KEPT:
            known.clear()
        known[attack] = found
    return dict(known[attack])


def hit_chance(rules: RuleSet, attack: Attack) -> Fraction:
    odds = chances(rules, attack)
    return odds[HIT] + odds[CRITICAL]


# --------------------------------------------------------------------------- damage


@dataclass(frozen=True)
class Coefficients:
    """A formula with every number resolved."""

    dice_rolled: int
    rerolled: int
    dice_max: int
    die_max: int
    modifier: int

    @property
    def rolls_dice(self) -> bool:
        return bool(self.dice_rolled or self.rerolled)


def coefficients(rules: RuleSet, spec: Any) -> Coefficients:
    """A formula of the block (inline, a row of ``damage.formulas``, or by ruling) resolved."""
    spec = get(rules, spec)
    if isinstance(spec, str):
        table = block(rules).damage.formulas
        assert table is not None  # checked when the YAML is loaded
        row = rules.table(table.table).entry(spec)
        found = {key: int(row[column]) for key, column in table.columns.items()}
        return Coefficients(**{key: found.get(key, 0) for key in Coefficients.__dataclass_fields__})
    formula = spec if isinstance(spec, Formula) else HIT_FORMULA
    return Coefficients(
        *(int(get(rules, getattr(formula, key))) for key in Coefficients.__dataclass_fields__)
    )


def formula_for(
    rules: RuleSet, attack: Attack, damage: Damage, outcome: str, follow: int | None
) -> tuple[Coefficients, bool] | None:
    """(formula, multipliers applied) of a hit; None while the critical chart is not rolled."""
    rule = block(rules).damage
    if attack.auto_hit and not attack.blocked and rule.auto_hit is not None:
        return coefficients(rules, rule.auto_hit), bool(get(rules, rule.auto_hit_multiplied))
    if outcome != CRITICAL or not damage.critical_extra:
        return coefficients(rules, rule.hit), True
    if critical_mode(rules) == "chart":
        if follow is None:
            return None
        chart = critical_chart(rules)
        assert chart.formula is not None  # checked when the YAML is loaded
        return coefficients(rules, str(critical_chart_row(rules, attack, follow)[chart.formula])), True
    return coefficients(rules, rule.hit if rule.critical is None else rule.critical), True


def natural_penalty(rules: RuleSet, attack: Attack, roll: int) -> int:
    """Damage lost by a hit on an always-hit roll when the number needed is above ``above``."""
    penalty = block(rules).damage.natural_penalty
    if penalty is None or not always_hits(rules, roll):
        return 0
    above = int(get(rules, penalty.above))
    basis = need_basis(rules, attack)
    return (basis - above) * int(get(rules, penalty.per_point)) if basis > above else 0


def least(rules: RuleSet, damage: Damage) -> int:
    return int(get(rules, block(rules).damage.least)) if damage.least is None else damage.least


def rounded(amount: Fraction, up: bool) -> int:
    return math.ceil(amount) if up else math.floor(amount)


def amount(
    rules: RuleSet,
    formula: Coefficients,
    damage: Damage,
    rolled: int,
    penalty: int = 0,
    multiplied: bool = True,
) -> int:
    """Damage of a hit whose dice part is ``rolled`` (dice_rolled x the roll + the further rolls):
    the formula's parts, the multiplier stages in order, the penalty, never below the least."""
    return amount_rule(rules, formula, damage, penalty, multiplied)(rolled)


SCOPES = {
    "whole": ("rolled", "dice_max", "die_max", "modifier"),
    "dice": ("rolled", "dice_max", "die_max"),
    "not_max_die": ("rolled", "dice_max", "modifier"),
}


def amount_rule(
    rules: RuleSet, formula: Coefficients, damage: Damage, penalty: int = 0, multiplied: bool = True
) -> Callable[[int], int]:
    """``amount`` for one formula, damage and penalty, as a function of the dice part: everything that
    does not depend on the roll is worked out once (the odds call it for every total of the dice).
    Whole numbers throughout: each stage's exact product is rounded by integer division."""
    floor = least(rules, damage)
    dice = damage.dice
    rule = block(rules).damage
    applies_to = None if rule.natural_penalty is None else get(rules, rule.natural_penalty.applies_to)
    fixed = {
        "dice_max": formula.dice_max * dice.count * dice.sides,
        "die_max": formula.die_max * dice.sides,
        "modifier": formula.modifier * (dice.modifier + damage.bonus),
    }
    stages = []
    for index, stage in enumerate(rule.multipliers if multiplied else ()):
        factor = Fraction(damage.multipliers.get(stage.name, 1))
        scope = SCOPES[str(get(rules, stage.scope))] if not index else ()
        rounding = str(get(rules, stage.rounding))
        up = damage.round_up.get(stage.name, False) if rounding == "picked" else rounding == "up"
        stages.append((factor.numerator, factor.denominator, scope, up))
    die_penalty = penalty if applies_to == "die" else 0
    total_penalty = penalty if applies_to == "total" else 0

    def of(rolled: int) -> int:
        if die_penalty:
            rolled = max(floor, rolled - die_penalty)
        parts = {"rolled": rolled, **fixed}
        total = sum(parts.values())
        for index, (numerator, denominator, scope, up) in enumerate(stages):
            inside = sum(parts[p] for p in scope) if not index else total
            exact = inside * numerator + (total - inside) * denominator  # x denominator
            total = -(-exact // denominator) if up else exact // denominator
        return max(floor, total - total_penalty)

    return of


def check_damage_roll(dice: dice_module.Dice, shown: int, what: str = "DAMAGE ROLL") -> int:
    """What the dice show, without the expression's modifier."""
    low, high = dice.count * LOWEST_FACE, dice.count * dice.sides
    if not low <= shown <= high:
        raise RuleError(f"#{what}? {low} to {high}")
    return shown


def attack_damage(
    rules: RuleSet,
    attack: Attack,
    damage: Damage,
    outcome: str,
    roll: int,
    follow: int | None = None,
    damage_roll: int | None = None,
    extra_roll: int | None = None,
) -> int | str:
    """Damage of the attack: 0 for a miss or fumble, '' while a roll it needs is not entered
    (the critical chart's follow roll, the damage roll, ``extra_roll``: what the further rolls of a
    formula with ``rerolled`` show together)."""
    if outcome not in (HIT, CRITICAL) or not damage.deals_damage:
        return 0
    found = formula_for(rules, attack, damage, outcome, follow)
    if found is None:
        return ""
    formula, multiplied = found
    rolled = 0
    if formula.dice_rolled and damage.dice.count:
        if damage_roll is None:
            return ""
        rolled += formula.dice_rolled * check_damage_roll(damage.dice, damage_roll)
    if formula.rerolled and damage.dice.count:
        if extra_roll is None:
            return ""
        again = dice_module.Dice(formula.rerolled * damage.dice.count, damage.dice.sides)
        rolled += check_damage_roll(again, extra_roll, "EXTRA DAMAGE ROLL")
    penalty = natural_penalty(rules, attack, roll) if not attack.auto_hit else 0
    return amount(rules, formula, damage, rolled, penalty, multiplied)


# --------------------------------------------------------------------------- the pickers (modifiers: [...])


@dataclass(frozen=True)
class Situation:
    """What the picked rows of a block's ``modifiers`` tables add up to, by column name."""

    hit: int = 0  # column hit: to the roll (its whole numbers)
    hit_dice: tuple[tuple[int, int], ...] = ()  # column hit: the dice it adds (Attack.added)
    ac: int = 0  # column ac: to the defender's AC
    damage: int = 0  # column damage: to the damage
    multiplier: Fraction = Fraction(1)  # column damage_multiplier: the first multiplier stage
    multipliers: Mapping[str, Fraction] = field(default_factory=dict)  # stage name -> its own column's factor
    round_up: Mapping[str, bool] = field(
        default_factory=dict
    )  # stage name -> its own column ticks rounding up
    cannot_hit: bool = False
    needs_magic: bool = False
    auto_hit: bool = False
    advantage: bool = False
    disadvantage: bool = False


def stage_factor_column(stage: str) -> str:
    """The picker column whose product over the picked rows is the factor of the multiplier ``stage``."""
    return f"damage_multiplier_{stage}"


def stage_round_up_column(stage: str) -> str:
    """The picker column that, ticked in a picked row, rounds the multiplier ``stage`` up (rounding picked)."""
    return f"round_up_{stage}"


SITUATION_FLAGS = ("cannot_hit", "needs_magic", "auto_hit", "advantage", "disadvantage")


def modifier_tables(rules: RuleSet) -> tuple[str, ...]:
    tables = block(rules).modifiers
    if tables is None:
        raise RuleError(f"#RULESET? {rules.id} works its situation out in its own module")
    return tables


def modifiers_adding(rules: RuleSet) -> pickers.Adding:
    """How the block's ``modifiers`` tables add up: every part is the column of its own name in each."""
    tables = modifier_tables(rules)
    stages = [stage.name for stage in block(rules).damage.multipliers]
    products = ["damage_multiplier", *(stage_factor_column(name) for name in stages)]
    flags = [*SITUATION_FLAGS, *(stage_round_up_column(name) for name in stages)]
    return pickers.Adding(
        sums={column: dict.fromkeys(tables, column) for column in ("hit", "ac", "damage")},
        products={column: dict.fromkeys(tables, column) for column in products},
        flags={column: dict.fromkeys(tables, column) for column in flags},
    )


def picked_situation(
    rules: RuleSet, choices: Mapping[str, str], toggles: Iterable[tuple[str, str]] = ()
) -> Situation:
    """What the rows a GM picked in the block's ``modifiers`` tables add up to (a choice table's first
    row by default); dice in a ``hit`` column (Bless's 1d4) are the situation's ``hit_dice``."""
    picks = pickers.picked(rules, choices, toggles, modifier_tables(rules))
    totals = pickers.added_up(rules, modifiers_adding(rules), picks)
    stages = [stage.name for stage in block(rules).damage.multipliers]
    return Situation(
        hit=totals.sums["hit"],
        hit_dice=tuple(dice for _, row in picks if (dice := roll_dice(row.values.get("hit"))) is not None),
        ac=totals.sums["ac"],
        damage=totals.sums["damage"],
        multiplier=totals.products["damage_multiplier"],
        multipliers={name: totals.products[stage_factor_column(name)] for name in stages},
        round_up={name: totals.flags[stage_round_up_column(name)] for name in stages},
        **{flag: totals.flags[flag] for flag in SITUATION_FLAGS},
    )


def situated(rules: RuleSet, attack: Attack, damage: Damage, where: Situation) -> tuple[Attack, Damage]:
    """The attack and damage with the situation added."""
    stages = block(rules).damage.multipliers
    multipliers = dict(damage.multipliers)
    for index, stage in enumerate(stages):
        factor = Fraction(where.multipliers.get(stage.name, 1)) * (where.multiplier if not index else 1)
        if factor != 1:
            multipliers[stage.name] = Fraction(multipliers.get(stage.name, 1)) * factor
    round_up = {**damage.round_up, **{name: True for name, up in where.round_up.items() if up}}
    return (
        Attack(
            bonus=attack.bonus,
            target=attack.target,
            mods=attack.mods + where.hit,
            level=attack.level,
            ac_change=attack.ac_change + where.ac,
            advantage=attack.advantage or where.advantage,
            disadvantage=attack.disadvantage or where.disadvantage,
            needs_magic=attack.needs_magic or where.needs_magic,
            cannot_hit=attack.cannot_hit or where.cannot_hit,
            blocked=attack.blocked,
            auto_hit=attack.auto_hit or where.auto_hit,
            target_as_given=attack.target_as_given,
            added=attack.added + where.hit_dice,
        ),
        Damage(
            dice=damage.dice,
            bonus=damage.bonus + where.damage,
            least=damage.least,
            deals_damage=damage.deals_damage,
            critical_extra=damage.critical_extra,
            multipliers=multipliers,
            round_up=round_up,
        ),
    )
