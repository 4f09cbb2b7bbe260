"""The situation of a d20 attack in a ruleset whose block lists its pickers (``modifiers:``): the
picked rows added up (``pycalc.pickers.added_up``) and the attack and damage they make."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from pycalc import pickers
from pycalc.errors import RuleError
from pycalc.resolution import Attack, Damage, block
from pycalc.resolution_block import MELEE, NEAR_MISS_COLUMN, NUMBER_PARTS, RANGED, Stage, cell_of, value
from pycalc.table_files import roll_dice
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class Situation:
    """What the picked rows of a block's ``modifiers`` tables add up to, by column name."""

    hit: int = 0  # column hit: to the roll (its whole numbers)
    hit_dice: tuple[tuple[int, int], ...] = ()  # column hit: the dice it adds (Attack.added)
    ac: int = 0  # column ac: to the defender's AC
    damage: int = 0  # column damage: to the damage
    own_ac: int = 0  # column own_ac: to the attacker's own AC (shown; not part of this roll)
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
    counting: frozenset[str] = frozenset()  # the typed numbers that count (their ``when`` ticked, or none)
    critical_as_hit: bool = False  # column critical_as_hit: a Critical deals what a Hit deals
    no_attack: str = ""  # column no_attack: what rules the attack out (``no_attack_by``), or ''
    dice: str = ""  # column dice: the damage dice of the first counted pick that has them, or ''
    near_miss: str = ""  # column near_miss: the words of a near Miss (effect.near_miss_by), or ''


def stage_factor_column(stage: str) -> str:
    """The picker column whose product over the picked rows is the factor of the multiplier ``stage``."""
    return f"damage_multiplier_{stage}"


def stage_round_up_column(stage: str) -> str:
    """The picker column that, ticked in a picked row, rounds the multiplier ``stage`` up (rounding picked)."""
    return f"round_up_{stage}"


SITUATION_FLAGS = ("cannot_hit", "needs_magic", "auto_hit", "advantage", "disadvantage")
NO_ATTACK, CRITICAL_AS_HIT = "no_attack", "critical_as_hit"  # flag columns beside the situation's
NO_ATTACK_SAID = "#NO ATTACK? {label}"
NEAR_MISS_SAID = "missed by {margin}: {text}"
DICE_COLUMN = "dice"  # a picked row's damage dice, in place of the dice typed
SUMS = ("hit", "ac", "damage", "own_ac")
ATTACK_WORDS = (MELEE, RANGED)


def kind_limited(column: str, word: str) -> str:
    """The column that gives a situation flag or sum only for an attack of that kind (``auto_hit_melee``,
    ``ac_ranged``)."""
    return f"{column}_{word}"


def kind_sum(totals: pickers.Totals, part: str) -> int:
    """A sum part with its columns for the picked kind's word (``ac_ranged``)."""
    return totals.sums[part] + sum(
        totals.sums[kind_limited(part, w)] for w in ATTACK_WORDS if w in totals.kinds
    )


def situation_flag(totals: pickers.Totals, flag: str) -> bool:
    """Whether a counted pick ticks the situation ``flag``, or its column for the picked kind's word."""
    limited = (totals.flags[kind_limited(flag, word)] for word in ATTACK_WORDS if word in totals.kinds)
    return totals.flags[flag] or any(limited)


def modifier_tables(rules: RuleSet) -> tuple[str, ...]:
    tables = block(rules).modifiers
    if tables is None:
        raise RuleError(f"#RULESET? {rules.id} works its situation out in its own module")
    return tables


def picker_tables(rules: RuleSet, picker: str) -> tuple[str, ...]:
    """The block's ``modifiers`` tables whose picker is ``picker`` (``choice`` or ``toggle``), in order."""
    return tuple(t for t in modifier_tables(rules) if rules.table(t).picker == picker)


def flag_label(rules: RuleSet, flag: str) -> str | None:
    """The label of a situation flag's column, as the first of the block's ``modifiers`` tables that has
    it (or its column for an attack kind, ``cannot_hit_ranged``) names it; None where none has it."""
    columns = (flag, *(kind_limited(flag, word) for word in ATTACK_WORDS))
    tables = [rules.table(t) for t in modifier_tables(rules)]
    return next(
        (str(c.label) for column in columns for table in tables for c in table.columns if c.id == column),
        None,
    )


def modifiers_adding(rules: RuleSet) -> pickers.Adding:
    """How the block's ``modifiers`` tables add up: every part is the column of its own name in each
    (or its variant by ruling), gated by the attack's kind, as its ``situation`` says."""
    tables = modifier_tables(rules)
    stages = [stage.name for stage in block(rules).damage.multipliers]
    products = ["damage_multiplier", *(stage_factor_column(name) for name in stages)]
    declared = block(rules).situation or pickers.Adding()
    limited = [kind_limited(flag, word) for flag in (*SITUATION_FLAGS, NO_ATTACK) for word in ATTACK_WORDS]
    kind_limited_sums = [kind_limited(part, word) for part in NUMBER_PARTS for word in ATTACK_WORDS]
    flags = [*SITUATION_FLAGS, NO_ATTACK, CRITICAL_AS_HIT, *limited]
    flags += [stage_round_up_column(name) for name in stages]
    flags += [number.when for number in declared.numbers if number.when is not None]
    flags += [stage.when for stage in block(rules).damage.multipliers if stage.when is not None]
    return pickers.Adding(
        kind_table=declared.kind_table,
        only=declared.only,
        gate=declared.gate,
        ruled=declared.ruled,
        numbers=declared.numbers,
        not_with=declared.not_with,
        also_counts=declared.also_counts,
        worse_of=declared.worse_of,
        sums={column: dict.fromkeys(tables, column) for column in (*SUMS, *kind_limited_sums)},
        products={column: dict.fromkeys(tables, column) for column in products},
        flags={column: dict.fromkeys(tables, column) for column in dict.fromkeys(flags)},
    )


def typed_sums(
    rules: RuleSet, adding: pickers.Adding, totals: pickers.Totals, numbers: Mapping[str, int]
) -> dict[str, int]:
    """What the typed numbers (``situation.numbers``; an untyped one is 0) add to each sum: ``times``
    the number while its ``when`` flag is ticked in a counted pick, and no more than takes the flagged
    rows' part up to its ``at_most``."""
    found = dict.fromkeys(NUMBER_PARTS, 0)
    best: dict[str, tuple[str, int]] = {}  # a best_of group -> its sum and the highest of its counted numbers
    for number in adding.numbers:
        if number.when is not None and not totals.flags[number.when]:
            continue
        added = number.times * numbers.get(cell_of(number), 0)
        limit = value(rules, number.at_most)
        if limit is not None:
            flagged = pickers.flagged_sum(rules, adding, totals.counted, str(number.when), number.adds_to)
            added = min(added, int(limit) - flagged)
        if number.best_of is None:
            found[number.adds_to] += added
        elif number.best_of not in best or added > best[number.best_of][1]:
            best[number.best_of] = (number.adds_to, added)
    for part, added in best.values():
        found[part] += added
    return found


def no_attack_by(rules: RuleSet, adding: pickers.Adding, totals: pickers.Totals) -> str:
    """What rules the attack out, in the first of the block's ``modifiers`` tables whose counted picks
    tick ``no_attack`` (or its column for the picked kind's word): the picked row's label in a choice
    table, the table's title in a toggle table; '' when nothing does."""
    columns = (NO_ATTACK, *(kind_limited(NO_ATTACK, w) for w in ATTACK_WORDS if w in totals.kinds))
    for table_id in modifier_tables(rules):
        cells = [pickers.ruled_values(rules, adding, t, row) for t, row in totals.counted if t == table_id]
        if any(values.get(column) is True for values in cells for column in columns):
            table = rules.table(table_id)
            if table.picker == "choice":
                return str(next(row for t, row in totals.counted if t == table_id).label)
            return str(table.title)
    return ""


def first_text(rules: RuleSet, adding: pickers.Adding, totals: pickers.Totals, column: str) -> str:
    """``column`` of the first counted pick (in the block's ``modifiers`` order) whose cell is filled
    (a weapon's ``dice``), or ''."""
    cells = (pickers.ruled_values(rules, adding, t, row).get(column) for t, row in totals.counted)
    return next((str(text) for text in cells if text not in (None, "")), "")


def stage_factor(rules: RuleSet, stage: Stage, totals: pickers.Totals) -> Fraction:
    """The factor of a multiplier stage: its own column's product over the picked rows, times its
    ``factor`` while a picked row ticks its ``when``."""
    product = totals.products[stage_factor_column(stage.name)]
    if stage.when is None or not totals.flags[stage.when]:
        return product
    return product * Fraction(str(value(rules, stage.factor)))


# picked_situation's answers, by what they are worked out from: a sheet's notes ask the same situation
# again and again (each pick under each combination of rulings, some 200,000 times for bfrpg's)
_known_situations: dict[tuple, tuple[tuple[object, ...], Situation]] = {}
KNOWN_SITUATIONS_KEPT = 100_000


def picked_situation(
    rules: RuleSet,
    choices: Mapping[str, str],
    toggles: Iterable[tuple[str, str]] = (),
    numbers: Mapping[str, int] | None = None,
) -> Situation:
    """What the rows a GM picked in the block's ``modifiers`` tables add up to (a choice table's first
    row by default), those that count for the picked attack kind, with the numbers typed beside them
    (``numbers``: a typed number's id -> its value); dice in a ``hit`` column (Bless's 1d4) are the
    situation's ``hit_dice``."""
    toggles = frozenset(toggles)
    read = (rules.tables, rules.rulings, rules.resolution_block)  # with rules.chosen, all it reads of rules
    key = (
        tuple(map(id, read)),
        frozenset(rules.chosen.items()),
        frozenset(choices.items()),
        toggles,
        frozenset((numbers or {}).items()),
    )
    known = _known_situations.get(key)
    # what was read is kept with the answer: an object's id is no other's while it lives (a copy of the
    # rules with other rulings, dataclasses.replace, shares them: its chosen rulings tell it apart)
    if known is not None and all(a is b for a, b in zip(known[0], read, strict=True)):
        return known[1]
    if len(_known_situations) >= KNOWN_SITUATIONS_KEPT:
        _known_situations.clear()
    found = worked_out_situation(rules, choices, toggles, numbers)
    _known_situations[key] = (read, found)
    return found


def worked_out_situation(
    rules: RuleSet,
    choices: Mapping[str, str],
    toggles: Iterable[tuple[str, str]],
    numbers: Mapping[str, int] | None,
) -> Situation:
    """``picked_situation``, worked out."""
    adding = modifiers_adding(rules)
    picks = pickers.picked(rules, choices, toggles, modifier_tables(rules))
    totals = pickers.added_up(rules, adding, picks)
    typed = typed_sums(rules, adding, totals, numbers or {})
    stages = block(rules).damage.multipliers
    return Situation(
        hit=kind_sum(totals, "hit") + typed["hit"],
        hit_dice=tuple(
            dice for _, row in totals.counted if (dice := roll_dice(row.values.get("hit"))) is not None
        ),
        ac=kind_sum(totals, "ac") + typed["ac"],
        damage=kind_sum(totals, "damage") + typed["damage"],
        own_ac=totals.sums["own_ac"],
        multiplier=totals.products["damage_multiplier"],
        multipliers={stage.name: stage_factor(rules, stage, totals) for stage in stages},
        round_up={stage.name: totals.flags[stage_round_up_column(stage.name)] for stage in stages},
        **{flag: situation_flag(totals, flag) for flag in SITUATION_FLAGS},
        counting=frozenset(n.id for n in adding.numbers if n.when is None or totals.flags[n.when]),
        critical_as_hit=totals.flags[CRITICAL_AS_HIT],
        no_attack=no_attack_by(rules, adding, totals),
        dice=first_text(rules, adding, totals, DICE_COLUMN),
        near_miss=first_text(rules, adding, totals, NEAR_MISS_COLUMN),
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
            blocked=attack.blocked or bool(where.no_attack),  # a pick rules the attack out
            auto_hit=attack.auto_hit or where.auto_hit,
            target_as_given=attack.target_as_given,
            added=attack.added + where.hit_dice,
        ),
        Damage(
            dice=damage.dice,
            bonus=damage.bonus + where.damage,
            least=damage.least,
            deals_damage=damage.deals_damage,
            critical_extra=damage.critical_extra and not where.critical_as_hit,
            multipliers=multipliers,
            round_up=round_up,
        ),
    )
