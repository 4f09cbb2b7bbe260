"""Native formulas of the generic d20 resolution (``pycalc.resolution``), written from a ruleset's
``resolution:`` block: the same rules, as spreadsheet formula text over defined names.

Every value of the block becomes an expression: a literal, a lookup of the table cell it names
(``formulas.const``), or, when a ruling chooses it, ``IF(RULING_X="choice", ..., ...)`` over the
Rulings sheet's cell, so flipping a ruling in the workbook changes the result as the engine does.
The rules are those of :func:`pycalc.resolution.resolve` in the same order (see its module).

What the generic sheet does not write yet is refused when the workbook is built, with the block's
``file:line``: a follow die of its own read by a confirmation or a chart (a fumble check reads
it), further rolls (``rerolled``) with a ``dice_rolled`` above 1 or in a table of formulas, and with
dice a picker adds to the roll (``hit: 1d4``) a chart read with the roll's modifiers, and the rules that
read the number needed where the block does not read the target (``unsupported_with_added_dice``). Those dice enter the result through their typed total and the
chances through the row of every total's chance (``Cells.added_values``).
Advantage weighs each face (``face_weight``); each damage multiplier stage takes its factor from a
cell (the first the situation's, a later one its own, ``stage_factor_name``) and a picked rounding
from a flag (``stage_round_up_name``); the natural penalty of an always-hit roll comes off the dice
part or the total as the block says; a critical chart's row names the damage formula
(``ChartFormula``), and a chart's ``text`` is shown. The shipped rulesets use these formulas over
their own calculators' cells (``own_calculator``) for the roll's result, and for a hit's damage
(bfrpg, cnc, combat17, osr) and the damage odds (all four): a ruleset whose pickers are its own
names in ``Cells`` the cells that hold what they decide (the situation's damage and multipliers, the
least damage, whether a hit deals any, the natural penalty).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pycalc.resolution import SCOPES
from pycalc.resolution_block import (
    HIT_FORMULA,
    PICKED,
    ByRuling,
    Chart,
    Formula,
    NeedRange,
    Ref,
    Resolution,
    RollColumn,
    RollRange,
    Rolls,
    Stage,
    possible,
)
from pycalc.resolution_calculator import adds_dice, rolls_further
from pycalc.sheets.common import name_part, ruling_name, table_name
from pycalc.sheets.formulas import band, const, q
from pycalc.table_files import TableError, TableProblem
from pycalc.tables import RuleSet

# Defined names of the generic Attack calculator's cells (inputs, working cells, outputs)
BONUS, TARGET, MODS, LEVEL = "ATTACK_BONUS", "ATTACK_TARGET", "ATTACK_MODS", "ATTACK_LEVEL"
ROLL, FOLLOW = "ATTACK_ROLL", "ATTACK_FOLLOW_ROLL"
DICE, DAMAGE_ROLL, DAMAGE_BONUS = "ATTACK_DICE", "ATTACK_DAMAGE_ROLL", "ATTACK_DAMAGE_BONUS"
EXTRA_ROLL = "ATTACK_EXTRA_ROLL"
HP, ATTACKS = "ATTACK_TARGET_HP", "ATTACK_ATTACKS"
FACES = "ATTACK_FACES"
FOLLOW_FACES = "D20W_FOLLOW_FACES"  # written beside the face columns (d20_heat.write_face_columns)
NATURAL_PENALTY = "ATTACK_NATURAL_PENALTY"
NATURAL_HIT_CHANCE, NATURAL_CRIT_CHANCE = "ATTACK_NATURAL_HIT_CHANCE", "ATTACK_NATURAL_CRIT_CHANCE"
SIT_HIT, SIT_AC, SIT_DAMAGE = "ATTACK_SITUATION_HIT", "ATTACK_SITUATION_AC", "ATTACK_SITUATION_DAMAGE"
SIT_CANNOT_HIT, SIT_NEEDS_MAGIC, SIT_AUTO_HIT = "ATTACK_CANNOT_HIT", "ATTACK_NEEDS_MAGIC", "ATTACK_AUTO_HIT"
SIT_ADVANTAGE, SIT_DISADVANTAGE, ROLL_MODE = "ATTACK_ADVANTAGE", "ATTACK_DISADVANTAGE", "ATTACK_ROLL_MODE"
SIT_MULTIPLIER = "ATTACK_SITUATION_MULTIPLIER"
CRIT_KEEP, FUMBLE_KEEP = "ATTACK_CRIT_CHART_KEEPS", "ATTACK_FUMBLE_CHART_KEEPS"
CHART_EFFECT = "ATTACK_CHART_EFFECT"
TOTAL_MODS, TARGET_NOW = "ATTACK_TOTAL_MODS", "ATTACK_TARGET_NOW"
RAW_NEED, NEED, NEED_BASIS = "ATTACK_RAW_NEED", "ATTACK_NEED", "ATTACK_NEED_BASIS"
CRIT_POSSIBLE, CONFIRM_CHANCE = "ATTACK_CRIT_POSSIBLE", "ATTACK_CONFIRM_CHANCE"
HIT_CHANCE, CRIT_CHANCE, FUMBLE_CHANCE = "ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE", "ATTACK_FUMBLE_CHANCE"
RESULT, DAMAGE, HP_AFTER = "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HP_AFTER"
DICE_TEXT, DICE_MESSAGE = "ATTACK_DICE_T", "ATTACK_DICE_MESSAGE"
DICE_COUNT, DICE_SIDES, DICE_MOD = "ATTACK_DICE_COUNT", "ATTACK_DICE_SIDES", "ATTACK_DICE_MOD"
ADDED_ROLL, ADDED_DICE, ADDED_VALUE = "ATTACK_ADDED_ROLL", "ATTACK_ADDED_DICE", "ATTACK_ADDED_VALUE"
ADDED_ANY, ADDED_LOW, ADDED_HIGH = "ATTACK_ADDED_ANY", "ATTACK_ADDED_LOW", "ATTACK_ADDED_HIGH"
# one row each on the d20 workings: every total of the dice on the roll, and its chance
ADDED_VALUES, ADDED_CHANCES = "D20W_ADDED_VALUES", "D20W_ADDED_CHANCES"
# the confirmation over the dice on the roll (d20_heat.write_confirm_counts): each number a total of the
# dice may leave needed (the die's faces and one above), and for each how many follow-up faces confirm
# and how many critical rolls hit (no situation: the heat maps')
CONFIRM_NEEDS, CONFIRM_COUNTS, THREAT_COUNTS = (
    "D20W_CONFIRM_NEEDS",
    "D20W_CONFIRM_COUNTS",
    "D20W_THREAT_COUNTS",
)
FORMULA_PARTS = ("dice_rolled", "rerolled", "dice_max", "die_max", "modifier")
EXACT_DIGITS = 6  # a multiplied damage is rounded to this many decimals before INT: no 2.9999999 for 3


def stage_factor_name(stage: str) -> str:
    """Defined name of the factor of a later multiplier stage (the first one's is SIT_MULTIPLIER)."""
    return f"ATTACK_MULTIPLIER_{name_part(stage)}"


def stage_round_up_name(stage: str) -> str:
    """Defined name of the flag that rounds a multiplier stage with rounding ``picked`` up."""
    return f"ATTACK_ROUND_UP_{name_part(stage)}"


@dataclass(frozen=True)
class ChartFormula:
    """The damage formula that the critical chart row read with ``key`` (the follow total) names."""

    key: str


@dataclass(frozen=True)
class Cells:
    """Where the formulas find each value: a defined name, or any expression (a ruleset's own
    calculator names its cells its own way, or gives a constant such as FALSE)."""

    bonus: str = BONUS
    target: str = TARGET
    mods: str = MODS
    level: str = LEVEL
    roll: str = ROLL
    follow: str = FOLLOW
    dice: str = DICE
    damage_roll: str = DAMAGE_ROLL
    extra_roll: str = EXTRA_ROLL
    damage_bonus: str = DAMAGE_BONUS
    hp: str = HP
    attacks: str = ATTACKS
    faces: str = FACES
    follow_faces: str = FOLLOW_FACES
    natural_penalty: str = NATURAL_PENALTY  # damage a hit on an always-hit roll loses in this attack
    sit_hit: str = SIT_HIT
    sit_ac: str = SIT_AC
    sit_damage: str = SIT_DAMAGE
    sit_cannot_hit: str = SIT_CANNOT_HIT
    sit_needs_magic: str = SIT_NEEDS_MAGIC
    sit_auto_hit: str = SIT_AUTO_HIT
    sit_advantage: str = SIT_ADVANTAGE
    sit_disadvantage: str = SIT_DISADVANTAGE
    roll_mode: str = ROLL_MODE
    sit_multiplier: str = SIT_MULTIPLIER
    crit_keep: str = CRIT_KEEP
    fumble_keep: str = FUMBLE_KEEP
    total_mods: str = TOTAL_MODS
    target_now: str = TARGET_NOW
    raw_need: str = RAW_NEED
    need: str = NEED
    need_basis: str = NEED_BASIS
    crit_possible: str = CRIT_POSSIBLE
    confirm_chance: str = CONFIRM_CHANCE
    hit_chance: str = HIT_CHANCE
    crit_chance: str = CRIT_CHANCE
    natural_hit_chance: str = NATURAL_HIT_CHANCE  # a hit or critical on an always-hit roll
    natural_crit_chance: str = NATURAL_CRIT_CHANCE  # a critical on an always-hit roll
    fumble_chance: str = FUMBLE_CHANCE
    result: str = RESULT
    damage: str = DAMAGE
    hp_after: str = HP_AFTER
    dice_text: str = DICE_TEXT
    dice_message: str = DICE_MESSAGE
    dice_count: str = DICE_COUNT
    dice_sides: str = DICE_SIDES
    dice_mod: str = DICE_MOD
    # by multiplier stage name: a later stage's factor and a picked rounding's round-up flag (missing:
    # the stage's defined name, stage_factor_name / stage_round_up_name)
    stage_multipliers: Mapping[str, str] = field(default_factory=dict)
    stage_round_up: Mapping[str, str] = field(default_factory=dict)
    critical_extra: str = "TRUE"  # FALSE: a Critical deals what a Hit deals (``resolution.Damage``)
    # A ruleset of its own (``modifiers: own``) may name the damage its pickers decide: the least
    # damage of a hit (None: the block's ``damage.least``) and whether the hit deals any (a grapple),
    # read where a hit's damage is worked out (``least_of``: cnc's damage cell and its odds).
    least: str | None = None
    deals_damage: str = "TRUE"
    # Dice a picked row adds to the roll (``hit: 1d4``): whether any is picked, the range of their
    # total and the total typed (checked with the roll), and for the chances the row of their totals
    # and the row of each total's chance (None: no picker adds dice)
    added_any: str = "FALSE"
    added_roll: str = ADDED_ROLL
    added_low: str = ADDED_LOW
    added_high: str = ADDED_HIGH
    added_values: str | None = None
    added_chances: str = ADDED_CHANCES


# --------------------------------------------------------------------------- what the sheet can write


def unsupported(block: Resolution) -> list[str]:
    """The block's choices that the generic sheet cannot write yet (empty: it can write them all)."""
    found = []
    modes = {
        "fumble.mode": (block.fumble.mode, {"none", "always", "level_check", "chart"}),
        "critical.mode": (block.critical.mode, {"none", "automatic", "confirm", "chart"}),
    }
    for key, (item, allowed) in modes.items():
        found += [f"{key}: {mode}" for mode in possible(item) if mode not in allowed]
    checks = {
        "follow_die with a confirmation or a chart": block.follow_die is not None
        and bool({"confirm", "chart"} & {*possible(block.critical.mode), *possible(block.fumble.mode)}),
        "critical.mode chosen by a ruling, one choice a chart": "chart" in possible(block.critical.mode)
        and len(set(possible(block.critical.mode))) > 1,
        "damage.formulas with rerolled": block.damage.formulas is not None
        and "rerolled" in block.damage.formulas.columns,
        "damage formulas with rerolled and dice_rolled above 1": any(
            isinstance(f, Formula)
            and any(v != 0 for v in possible(f.rerolled))
            and any(v not in (0, 1) for v in possible(f.dice_rolled))
            for spec in (block.damage.hit, block.damage.critical, block.damage.auto_hit)
            for f in possible(spec)
        ),
        "modifiers: own": block.modifiers is None,
    }
    return found + [key for key, present in checks.items() if present]


def unsupported_with_added_dice(block: Resolution) -> list[str]:
    """What the sheet cannot yet weigh over the dice a picker adds to the roll: a chart read with the
    roll's modifiers, and the rules that read the number needed (no critical when it is high, the
    natural penalty) unless they read the target (``need_basis: target``), which the dice do not move.
    A confirmation roll is weighed with the dice (``Formulas.hit_and_confirm_chance``)."""
    reads_need = "need" in possible(block.need_basis)
    checks = {
        "critical.no_critical_when_needed read from the number needed": reads_need
        and any(span is not None for span in possible(block.critical.no_critical_when_needed)),
        "critical.follow_adds_mods": block.critical.chart is not None
        and any(possible(block.critical.chart.follow_adds_mods)),
        "damage.natural_penalty read from the number needed": reads_need
        and block.damage.natural_penalty is not None,
    }
    return [
        f"{key} with dice on the roll (a picker's hit: 1d4)" for key, present in checks.items() if present
    ]


def check_supported(rules: RuleSet) -> Resolution:
    block = rules.resolution_block
    if block is None:
        raise TableError([TableProblem(f"{rules.id}/ruleset.yaml", 1, "no resolution block to build from")])
    missing = unsupported(block) + (unsupported_with_added_dice(block) if adds_dice(rules) else [])
    if missing:
        raise TableError(
            [
                TableProblem(
                    block.file,
                    block.line,
                    "the generic workbook cannot write these yet: " + ", ".join(missing),
                )
            ]
        )
    return block


def need_weights(need: str, values: str, chances: str) -> str:
    """Each total of the dice on the roll (``values`` across) by its chance, at the number it leaves
    needed (CONFIRM_NEEDS down; one below the lowest counts as the lowest, above the highest as the
    highest: every face then confirms, or none does by its total)."""
    left = f"({need}-{values})"
    low, high = f"MIN({CONFIRM_NEEDS})", f"MAX({CONFIRM_NEEDS})"
    return (
        f"{chances}*(({CONFIRM_NEEDS}={left})+({CONFIRM_NEEDS}={low})*({left}<{low})"
        f"+({CONFIRM_NEEDS}={high})*({left}>{high}))"
    )


# --------------------------------------------------------------------------- values


def literal(item: Any) -> str:
    if isinstance(item, bool):
        return "TRUE" if item else "FALSE"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return q(item)
    if isinstance(item, Ref) and item.entry == PICKED:  # the row picked in the calculator's dropdown
        pick = f"PICK_{name_part(item.table)}"
        return (
            f"INDEX({table_name(item.table, item.column)},MATCH({pick},{table_name(item.table, 'label')},0))"
        )
    if isinstance(item, Ref):
        return const(item.table, item.entry, item.column)
    raise TypeError(f"not a block value: {item!r}")


def by_choice(item: Any, render: Callable[[Any], str]) -> str:
    """``render`` of the value; a value chosen by a ruling becomes IF(RULING_X="a",...,IF(...))."""
    if not isinstance(item, ByRuling):
        return render(item)
    choices = list(item.choices.items())
    text = by_choice(choices[-1][1], render)
    for choice, chosen in reversed(choices[:-1]):
        chosen_text, picked = by_choice(chosen, render), f"{ruling_name(item.ruling)}={q(choice)}"
        text = {("TRUE", "FALSE"): picked, ("FALSE", "TRUE"): f"NOT({picked})"}.get(
            (chosen_text, text), choose(picked, chosen_text, text)
        )
    return text


def expr(item: Any) -> str:
    """A scalar value of the block as a formula."""
    return by_choice(item, literal)


def choose(condition: str, yes: str, no: str) -> str:
    """IF(condition,yes,no), or the one branch when the condition is TRUE or FALSE or both are alike
    (a formula over a ruleset's own cells stays short)."""
    if condition == "TRUE" or yes == no:
        return yes
    if condition == "FALSE":
        return no
    return f"IF({condition},{yes},{no})"


def rounded(up: str, exact: str) -> str:
    """``exact`` rounded up when ``up`` is TRUE, else down: -INT(-x) rounds up, INT(x) down."""
    if up == "FALSE":
        return f"INT({exact})"
    if up == "TRUE":
        return f"-INT(-{exact})"
    return f"IF({up},-1,1)*INT(IF({up},-1,1)*{exact})"


def is_mode(item: Any, mode: str) -> str:
    """TRUE when the block value ``item`` (a word, maybe by ruling) is ``mode``."""
    words = possible(item)
    if all(word == mode for word in words):
        return "TRUE"
    if mode not in words:
        return "FALSE"
    return f"{expr(item)}={q(mode)}"


# --------------------------------------------------------------------------- natural rolls


def in_rolls(rolls: Rolls, face: str) -> str:
    """TRUE when the natural roll ``face`` is one of ``rolls`` (``resolution.roll_set``)."""
    parts = []
    for part in rolls:
        if isinstance(part, RollColumn):
            parts.append(f"IFERROR({band(part.table, part.column, face)}=TRUE,FALSE)")
        elif isinstance(part, RollRange):
            conditions = [] if part.when is True else [expr(part.when)]
            if part.low is not None:
                conditions.append(f"{face}>={expr(part.low)}")
            if part.high is not None:
                conditions.append(f"{face}<={expr(part.high)}")
            parts.append(f"AND({','.join(conditions)})" if conditions else "TRUE")
    if not parts:
        return "FALSE"
    return parts[0] if len(parts) == 1 else f"OR({','.join(parts)})"


def own_calculator(rules: RuleSet, **cells: Any) -> Formulas:
    """The generic formulas over a shipped ruleset's own Attack calculator cells (``cells``: Cells
    fields). Its pickers are its own, so the situation flags default to FALSE and every multiplier
    stage's factor to 1 (rounded down where the rounding is picked); without a ``need`` the roll
    needed is worked from ``raw_need`` and the block's hit margin."""
    block = rules.resolution_block
    if block is None:
        raise TableError([TableProblem(f"{rules.id}/ruleset.yaml", 1, "no resolution block")])
    stages = [stage.name for stage in block.damage.multipliers]
    flags = {
        "sit_cannot_hit": "FALSE",
        "sit_needs_magic": "FALSE",
        "sit_auto_hit": "FALSE",
        "sit_advantage": "FALSE",
        "sit_disadvantage": "FALSE",
        "roll_mode": '"normal"',
        "sit_multiplier": "1",
        "stage_multipliers": {**dict.fromkeys(stages, "1"), **cells.pop("stage_multipliers", {})},
        "stage_round_up": {**dict.fromkeys(stages, "FALSE"), **cells.pop("stage_round_up", {})},
    }
    found = Cells(**{**flags, **cells})
    if "need" not in cells:
        found = replace(found, need=f"({Formulas(block, found).need()})")
    if "natural_penalty" not in cells:
        found = replace(found, natural_penalty=f"({Formulas(block, found).natural_penalty()})")
    return Formulas(block, found)


class Formulas:
    """The block's rules as formula text over the cells named in ``c`` (any expression will do)."""

    def __init__(self, block: Resolution, c: Cells | None = None) -> None:
        self.block = block
        self.c = c or Cells()

    def always_misses(self, face: str) -> str:
        return in_rolls(self.block.always_miss, face)

    def always_hits(self, face: str) -> str:
        return in_rolls(self.block.always_hit, face)

    def critical_roll(self, face: str) -> str:
        rolls = self.block.critical.rolls
        return in_rolls(self.block.always_hit if rolls is None else rolls, face)

    # --------------------------------------------------------------------------- the target and the need

    def target_now(self) -> str:
        no_change = self.c.sit_ac == "0"  # (the heat maps' cells: no situation)

        def changed(kind: str) -> str:
            sign = "-" if kind == "descending_ac" else "+"  # harder to hit: a lower descending AC
            return (
                self.c.target
                if no_change
                else f"{self.c.target}{sign}{self.c.sit_ac}*({expr(self.block.ac_change)})"
            )

        return by_choice(
            self.block.target,
            lambda kind: by_choice(
                self.block.least_target,
                lambda least: changed(kind) if least is None else f"MAX({literal(least)},{changed(kind)})",
            ),
        )

    def raw_need(self) -> str:
        return by_choice(
            self.block.target,
            lambda kind: (
                f"{self.c.bonus}-{self.c.target_now}-{self.c.total_mods}"
                if kind == "descending_ac"
                else f"{self.c.target_now}-{self.c.bonus}-{self.c.total_mods}"
            ),
        )

    def need(self) -> str:
        return f"{self.c.raw_need}+({expr(self.block.hit_margin)})"

    def need_basis(self) -> str:
        return by_choice(
            self.block.need_basis, lambda basis: self.c.target_now if basis == "target" else self.c.raw_need
        )

    def in_need_range(self, span: Any) -> str:
        """TRUE when the need basis is in the range (``resolution.in_need_range``)."""

        def render(found: Any) -> str:
            if found is None:
                return "FALSE"
            assert isinstance(found, NeedRange)
            tests = (("at_least", ">="), ("above", ">"), ("at_most", "<="), ("below", "<"))
            parts = [
                by_choice(
                    getattr(found, key),
                    lambda b, op=op: "TRUE" if b is None else f"{self.c.need_basis}{op}{literal(b)}",
                )
                for key, op in tests
                if getattr(found, key) is not None
            ]
            return f"AND({','.join(parts)})" if parts else "TRUE"

        return by_choice(span, render)

    def crit_possible(self) -> str:
        return f"AND(NOT({is_mode(self.block.critical.mode, 'none')}),NOT({self.in_need_range(self.block.critical.no_critical_when_needed)}))"

    def cannot_hit(self) -> str:
        return f"OR({self.c.sit_cannot_hit},AND({self.c.sit_needs_magic},{is_mode(self.block.needs_magic, 'cannot_hit')}))"

    def loses_auto_hit(self) -> str:
        return f"AND({self.c.sit_needs_magic},{is_mode(self.block.needs_magic, 'no_auto_hit')})"

    def hits(self, face: str) -> str:
        """TRUE when ``face`` hits (by the always-hit rule or by the total), before the always-miss rule."""
        return f"OR(AND({self.always_hits(face)},NOT({self.loses_auto_hit()})),{face}>={self.c.need})"

    def confirms(self, follow: str) -> str:
        fails = expr(self.block.critical.confirm_natural_miss_fails)
        return f"AND(NOT(AND({fails},{self.always_misses(follow)})),{follow}>={self.c.need})"

    # --------------------------------------------------------------------------- the result of a roll

    def plain_row(self, chart: Chart | None, key: str) -> str:
        """TRUE when the chart row of ``key`` makes the natural roll plain (``resolution.plain_row``)."""
        if chart is None or chart.special is None:
            return "FALSE"
        special = f"IFERROR({band(chart.table, chart.special, key)}=TRUE,FALSE)"
        return f"AND({expr(chart.plain_unless_special)},NOT({special}))"

    def follow_total(self, follow: str) -> str:
        """The critical chart's key: the follow roll, plus the roll's mods when ``follow_adds_mods``."""
        chart = self.block.critical.chart
        if chart is None:
            return follow
        return f"{follow}+IF({expr(chart.follow_adds_mods)},{self.c.total_mods},0)"

    def fumble_result(self, follow: str) -> str:
        mode = self.block.fumble.mode
        checked = f'IF(AND(ISNUMBER({follow}),{follow}>{self.c.level}),"Fumble","Miss")'
        charted = f'IF(ISNUMBER({follow}),IF({self.plain_row(self.block.fumble.chart, follow)},"Miss","Fumble"),"Fumble")'
        return (
            f'IF({is_mode(mode, "always")},"Fumble",IF({is_mode(mode, "level_check")},{checked},'
            f'IF({is_mode(mode, "chart")},{charted},"Miss")))'
        )

    def critical_result(self, face: str, follow: str) -> str:
        mode = self.block.critical.mode
        confirmed = f'IF(ISNUMBER({follow}),IF({self.confirms(follow)},"Critical","Hit"),"Hit")'
        plain = self.plain_row(self.block.critical.chart, self.follow_total(follow))
        charted = f'IF(ISNUMBER({follow}),IF({plain},"Hit","Critical"),"Critical")'
        return (
            f'IF(OR(NOT({self.critical_roll(face)}),NOT({self.c.crit_possible})),"Hit",'
            f'IF({is_mode(mode, "automatic")},"Critical",IF({is_mode(mode, "chart")},{charted},{confirmed})))'
        )

    def result(self, face: str, follow: str) -> str:
        """Miss, Hit, Critical or Fumble of a natural roll (``resolution.resolve``)."""
        return (
            f'IF({self.c.sit_auto_hit},"Hit",IF({self.always_misses(face)},{self.fumble_result(follow)},'
            f'IF({self.cannot_hit()},"Miss",IF(NOT({self.hits(face)}),"Miss",{self.critical_result(face, follow)}))))'
        )

    def follow_needed(self, face: str) -> str:
        """TRUE when the result of the natural roll ``face`` waits on a follow-up roll (a fumble check
        or chart after an always-miss roll, a confirmation or chart after a critical roll)."""
        fumble, critical = self.block.fumble.mode, self.block.critical.mode
        fumble_follows = f"OR({is_mode(fumble, 'level_check')},{is_mode(fumble, 'chart')})"
        critical_follows = f"OR({is_mode(critical, 'confirm')},{is_mode(critical, 'chart')})"
        threat = (
            f"AND(NOT({self.cannot_hit()}),{self.hits(face)},{self.critical_roll(face)},"
            f"{self.c.crit_possible},{critical_follows})"
        )
        return f"AND(NOT({self.c.sit_auto_hit}),IF({self.always_misses(face)},{fumble_follows},{threat}))"

    def chart_read(self, follow: str) -> str:
        """The summary's words after a follow-up roll the critical chart read with the modifiers
        (``&" + 2 = 16 on the chart"``, ``resolution_calculator.follow_read``); '' without such a chart."""
        chart = self.block.critical.chart
        if chart is None or not any(possible(chart.follow_adds_mods)):
            return ""
        read = self.follow_total(follow)
        result = self.c.result
        charted = f'AND(OR({result}="Hit",{result}="Critical"),{is_mode(self.block.critical.mode, "chart")},{read}<>{follow})'
        added = f'" "&IF({read}<{follow},"- ","+ ")&ABS({read}-{follow})&" = "&({read})&" on the chart"'
        return f'&IF({charted},{added},"")'

    def summary(self, state: str = "") -> str:
        """The outcome in one line, naming the follow-up roll it used (and the total the critical chart
        read, when it adds the modifiers); a follow-up roll left from an
        earlier attack that this roll does not use is called out, never silently kept. The roll it
        waits for is named once: the follow-up roll first, then the damage roll, then any further one.
        ``state``: the words after the target's hit points (``target_state.said``: its state)."""
        c = self.c
        result, damage, follow = c.result, c.damage, c.follow
        needed = self.follow_needed(c.roll)
        given = f"ISNUMBER({follow})"
        used = f'IF(AND({needed},{given})," (follow-up roll "&{follow}{self.chart_read(follow)}&")","")'
        waiting = (
            f'IF(AND({needed},NOT({given}))," - type the follow-up roll",'
            f'IF(AND(NOT({needed}),{given})," - the follow-up roll "&{follow}&" is not used by this roll: clear it",""))'
        )
        damage_part = (
            f'IF(ISNUMBER({damage}),IF({damage}>0,": "&{damage}&" damage, the target is at "&{c.hp_after}&" HP"{state},""),'
            f'IF({damage}="",IF(OR(AND({needed},NOT({given})),AND({result}<>"Hit",{result}<>"Critical")),"",'
            f'IF(ISNUMBER({c.damage_roll}),": type the further damage roll",": type the damage roll")),": "&{damage}))'
        )
        return (
            f'IF({result}="","Type the natural roll",IF(LEFT({result},1)="#",{result},'
            f"{result}&{used}&{damage_part}&{waiting}))"
        )

    def checked_result(self) -> str:
        """RESULT: '' before the roll, the engine's messages for a roll off its die (the follow-up roll's
        die may be a die of its own, ``follow_die``)."""
        off_die = f"OR({self.c.roll}<1,{self.c.roll}>{self.c.faces},{self.c.roll}<>INT({self.c.roll}))"
        follow, top = self.c.follow, self.c.follow_faces  # IF, not AND: INT() of a text is an error
        follow_off = f"IF(ISNUMBER({follow}),OR({follow}<1,{follow}>{top},{follow}<>INT({follow})),FALSE)"
        return (
            f'IF(ISBLANK({self.c.roll}),"",IF(NOT(ISNUMBER({self.c.roll})),"#ROLL? 1 to "&{self.c.faces},IF({off_die},"#ROLL? 1 to "&{self.c.faces},'
            f'IF({follow_off},"#FOLLOW ROLL? 1 to "&{top},{self.with_added_dice(self.result(self.c.roll, self.c.follow))}))))'
        )

    def with_added_dice(self, result: str) -> str:
        """``result``, or the message while the total of the dice a picked row adds to the roll is not
        typed or off their range (``resolution.with_added_roll``)."""
        c = self.c
        if c.added_any == "FALSE":
            return result
        off = off_dice(c.added_roll, c.added_low, c.added_high)
        return (
            f'IF(AND({c.added_any},{off}),"#DICE ON THE ROLL? "&{c.added_low}&" to "&{c.added_high},{result})'
        )

    def by_total_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` hits by its total: over every total of the dice added to
        the roll (a row of totals, ``Cells.added_values``)."""
        assert self.c.added_values is not None
        return f"SUMPRODUCT(({face}+{self.c.added_values}>={self.c.need})*{self.c.added_chances})"

    # --------------------------------------------------------------------------- chances, face by face

    def face_hit_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` is a Hit or a Critical (0 or 1 without dice on the roll)."""
        if self.c.added_values is not None:
            auto = f"AND({self.always_hits(face)},NOT({self.loses_auto_hit()}))"
            hit = f"IF({auto},1,{self.by_total_chance(face)})"
        else:
            hit = f"IF({self.hits(face)},1,0)"
        return f"IF({self.c.sit_auto_hit},1,IF({self.always_misses(face)},0,IF({self.cannot_hit()},0,{hit})))"

    def face_crit_chance(self, face: str) -> str:
        mode = self.block.critical.mode
        if self.c.added_values is not None and "confirm" in possible(mode):
            hit = self.face_hit_chance(face)
            by_mode = choose(
                is_mode(mode, "automatic"),
                hit,
                choose(
                    is_mode(mode, "chart"), f"{hit}*{self.c.crit_keep}", self.hit_and_confirm_chance(face)
                ),
            )
            return (
                f"IF({self.c.sit_auto_hit},0,IF(OR(NOT({self.critical_roll(face)}),"
                f"NOT({self.c.crit_possible})),0,{by_mode}))"
            )
        return (
            f"IF({self.c.sit_auto_hit},0,{self.face_hit_chance(face)}*IF(OR(NOT({self.critical_roll(face)}),"
            f"NOT({self.c.crit_possible})),0,IF({is_mode(mode, 'automatic')},1,"
            f"IF({is_mode(mode, 'chart')},{self.c.crit_keep},{self.c.confirm_chance}))))"
        )

    def hit_and_confirm_chance(self, face: str) -> str:
        """Chance that the natural roll ``face`` hits and a follow-up roll confirms it, over every total
        of the dice on the roll: the engine adds the one total to both rolls (``resolution.chances``
        over ``fixed_attacks``), so the two are weighed together, total by total."""
        c = self.c
        assert c.added_values is not None
        auto = f"AND({self.always_hits(face)},NOT({self.loses_auto_hit()}))"
        weighed = f"{CONFIRM_COUNTS}*{need_weights(c.need, c.added_values, c.added_chances)}"
        by_total = f"({face}+{c.added_values}>={c.need})"
        confirmed = f"IF({auto},SUMPRODUCT({weighed}),SUMPRODUCT({weighed}*{by_total}))/{c.faces}"
        return f"IF({self.always_misses(face)},0,IF({self.cannot_hit()},0,{confirmed}))"

    def face_fumble_chance(self, face: str) -> str:
        mode = self.block.fumble.mode
        top = self.c.follow_faces
        by_level = f"MAX(0,MIN({top},{top}-{self.c.level}))/{top}"
        return (
            f"IF({self.c.sit_auto_hit},0,IF({self.always_misses(face)},IF({is_mode(mode, 'always')},1,"
            f"IF({is_mode(mode, 'level_check')},{by_level},IF({is_mode(mode, 'chart')},{self.c.fumble_keep},0))),0))"
        )

    def face_confirms(self, face: str) -> str:
        return f"IF({is_mode(self.block.critical.mode, 'confirm')},IF({self.confirms(face)},1,0),0)"

    def roll_mode(self) -> str:
        """normal, advantage or disadvantage (``resolution.roll_mode``): both at once as the block says."""
        rule = self.block.advantage
        both = q("normal") if rule is None else expr(rule.both)
        adv, dis = self.c.sit_advantage, self.c.sit_disadvantage
        return f'IF(AND({adv},{dis}),{both},IF({adv},"advantage",IF({dis},"disadvantage","normal")))'

    def face_weight(self, face: str) -> str:
        """Chance the kept natural roll shows ``face`` (``resolution.face_weight``): with Advantage the
        highest of n dice is kept, with Disadvantage the lowest of m."""
        faces, mode, rule = self.c.faces, self.c.roll_mode, self.block.advantage
        if rule is None:
            return f"1/{faces}"
        n, m = expr(rule.highest_of), expr(rule.lowest_of)
        return (
            f'IF({mode}="advantage",({face}^{n}-({face}-1)^{n})/{faces}^{n},'
            f'IF({mode}="disadvantage",(({faces}+1-{face})^{m}-({faces}-{face})^{m})/{faces}^{m},1/{faces}))'
        )

    # --------------------------------------------------------------------------- damage

    def coefficient(self, spec: Any, part: str) -> str:
        """One part of a damage formula as a formula: inline, a row of ``damage.formulas`` (by id, or
        the one a critical chart row names), or chosen by a ruling."""

        def render(found: Any) -> str:
            if isinstance(found, ChartFormula):
                chart = self.block.critical.chart
                assert chart is not None and chart.formula is not None
                return self.formula_row_part(band(chart.table, chart.formula, found.key), part)
            if isinstance(found, str):
                return self.formula_row_part(q(found), part)
            formula = found if isinstance(found, Formula) else HIT_FORMULA
            return expr(getattr(formula, part))

        return by_choice(spec, render)

    def formula_row_part(self, row_id: str, part: str) -> str:
        """``part`` of the ``damage.formulas`` row whose id is ``row_id`` (0 when no column holds it)."""
        found = self.block.damage.formulas
        column = None if found is None else found.columns.get(part)
        if found is None or column is None:
            return "0"
        return f"INDEX({table_name(found.table, column)},MATCH({row_id},{table_name(found.table, 'id')},0))"

    def charted_critical(self) -> bool:
        """A critical's damage is the formula its chart row names (critical mode chart)."""
        return possible(self.block.critical.mode) == ["chart"]

    def formula_parts(
        self, spec: Any, rolled: str, extra: str | None = None, penalty: str = "0"
    ) -> dict[str, str]:
        """A hit's damage parts (``resolution.SCOPES`` names): the dice part and the fixed parts of the
        formula. The dice part is ``dice_rolled`` x ``rolled`` + the further rolls' total ``extra``;
        without ``extra`` (the odds), ``rolled`` is a total of all the dice a formula with further
        rolls throws (``dice_rolled`` is then 0 or 1: ``unsupported``). A natural ``penalty`` taken
        from the die comes off the dice part (:meth:`less_die_penalty`). A part whose coefficient is
        0 in every case (no column holds it) is left out."""
        part = self.coefficient
        dice_rolled, rerolled = part(spec, "dice_rolled"), part(spec, "rerolled")
        if rerolled == "0":
            dice_part = f"({dice_rolled})*{rolled}"
        elif extra is None:
            dice_part = f"IF(({rerolled})<>0,{rolled},({dice_rolled})*{rolled})"
        else:
            dice_part = f"({dice_rolled})*{rolled}+IF(({rerolled})<>0,{extra},0)"
        parts = {
            "rolled": (dice_rolled == rerolled == "0", self.less_die_penalty(dice_part, penalty)),
            "dice_max": (
                part(spec, "dice_max") == "0",
                f"({part(spec, 'dice_max')})*{self.c.dice_count}*{self.c.dice_sides}",
            ),
            "die_max": (part(spec, "die_max") == "0", f"({part(spec, 'die_max')})*{self.c.dice_sides}"),
            "modifier": (
                part(spec, "modifier") == "0",
                f"({part(spec, 'modifier')})*({self.c.dice_mod}+{self.c.sit_damage}+{self.c.damage_bonus})",
            ),
        }
        return {name: text for name, (none, text) in parts.items() if not none}

    def stage_factor(self, index: int, stage: Stage) -> str:
        """The factor of a multiplier stage: the situation's for the first, the stage's own cell after."""
        if not index:
            return self.c.sit_multiplier
        return self.c.stage_multipliers.get(stage.name, stage_factor_name(stage.name))

    def rounds_up(self, stage: Stage) -> str:
        """TRUE when the stage rounds up: by the block (maybe by ruling), or as the picked row says."""
        picked = self.c.stage_round_up.get(stage.name, stage_round_up_name(stage.name))
        return by_choice(
            stage.rounding, lambda rounding: {"up": "TRUE", "picked": picked}.get(rounding, "FALSE")
        )

    def formula_amount(
        self, spec: Any, rolled: str, multiplied: Any = True, extra: str | None = None, penalty: str = "0"
    ) -> str:
        """A hit's damage before the least (``resolution.amount_rule``): the parts, then each multiplier
        stage in order, rounded as the block says: the first over its scope, a later one over the
        running total."""
        parts = self.formula_parts(spec, rolled, extra, penalty)
        total = "+".join(parts.values()) or "0"
        stages = self.block.damage.multipliers
        if not stages or multiplied is False:
            return total
        amount = total
        for index, stage in enumerate(stages):
            factor = self.stage_factor(index, stage)
            if not index:  # the parts outside the scope are kept out of the product
                outside = by_choice(
                    stage.scope,
                    lambda scope: "+".join(parts[p] for p in parts if p not in SCOPES[scope]) or "0",
                )
                exact = f"ROUND(({total}-({outside}))*{factor}+({outside}),{EXACT_DIGITS})"
            else:
                exact = f"ROUND(({amount})*{factor},{EXACT_DIGITS})"
            amount = rounded(self.rounds_up(stage), exact)
        return amount if multiplied is True else f"IF({expr(multiplied)},{amount},{total})"

    def damage_specs(self) -> tuple[Any, Any, Any]:
        """(hit, critical, automatic hit) formula specs of the block; a charted critical reads the row
        of the entered follow-up roll."""
        rule = self.block.damage
        critical = rule.hit if rule.critical is None else rule.critical
        if self.charted_critical():
            critical = ChartFormula(self.follow_total(self.c.follow))
        return rule.hit, critical, rule.hit if rule.auto_hit is None else rule.auto_hit

    def least_of(self, amount: str) -> str:
        """A hit's damage never below the least, or 0 when the hit deals none (``resolution.amount``,
        ``Damage.least`` and ``Damage.deals_damage``)."""
        least = expr(self.block.damage.least) if self.c.least is None else self.c.least
        return choose(self.c.deals_damage, f"MAX({least},{amount})", "0")

    # --------------------------------------------------------------------------- the natural penalty

    def natural_penalty(self) -> str:
        """NATURAL_PENALTY: what a hit on an always-hit roll loses in this attack
        (``resolution.natural_penalty``): ``per_point`` for each point the need basis is above
        ``above``; nothing for an automatic hit, nor without ``damage.natural_penalty``."""
        rule = self.block.damage.natural_penalty
        if rule is None:
            return "0"
        above, basis = f"({expr(rule.above)})", self.c.need_basis
        return (
            f"IF(AND(NOT({self.c.sit_auto_hit}),{basis}>{above}),"
            f"({basis}-{above})*({expr(rule.per_point)}),0)"
        )

    def roll_penalty(self, face: str) -> str:
        """What a hit on the natural roll ``face`` loses: NATURAL_PENALTY on an always-hit roll."""
        if self.block.damage.natural_penalty is None:
            return "0"
        return f"IF({self.always_hits(face)},{self.c.natural_penalty},0)"

    def penalty_from(self, where: str, penalty: str) -> str:
        """``penalty`` when the block takes it from ``where`` (``total`` or ``die``), else 0."""
        rule = self.block.damage.natural_penalty
        if rule is None or penalty == "0":
            return "0"
        return f"IF({is_mode(rule.applies_to, where)},{penalty},0)"

    def less_die_penalty(self, dice_part: str, penalty: str) -> str:
        """The dice part less a penalty taken from the die, never below the least (``amount_rule``)."""
        taken = self.penalty_from("die", penalty)
        if taken == "0":
            return dice_part
        return f"IF({taken}<>0,MAX({expr(self.block.damage.least)},{dice_part}-{taken}),{dice_part})"

    def less_total_penalty(self, total: str, penalty: str) -> str:
        """The damage less a penalty taken from the total (after the multipliers)."""
        taken = self.penalty_from("total", penalty)
        return total if taken == "0" else f"{total}-{taken}"

    def penalized_amount(self, spec: Any, rolled: str, penalty: str) -> str:
        """A hit's damage by the formula ``spec`` less the natural ``penalty``, never below the least."""
        return self.least_of(
            self.less_total_penalty(self.formula_amount(spec, rolled, True, None, penalty), penalty)
        )

    def damage_of(self, outcome: str, rolled: str, extra: str | None = None, penalty: str = "0") -> str:
        """A hit's damage (Hit or Critical in ``outcome``) less the natural ``penalty`` of its roll
        (none for an automatic hit), never below the least."""
        hit, critical, auto = self.damage_specs()
        rule = self.block.damage
        auto_multiplied = True if rule.auto_hit is None else rule.auto_hit_multiplied
        chosen = self.by_outcome(
            outcome,
            lambda: self.formula_amount(auto, rolled, auto_multiplied, extra),
            lambda: self.formula_amount(critical, rolled, True, extra, penalty),
            lambda: self.formula_amount(hit, rolled, True, extra, penalty),
        )
        return self.least_of(self.less_total_penalty(chosen, penalty))

    def by_outcome(
        self, outcome: str, auto: Callable[[], str], critical: Callable[[], str], hit: Callable[[], str]
    ) -> str:
        """``auto`` on an automatic hit, else ``critical`` for a Critical in ``outcome``, else ``hit``;
        a branch that cannot be taken (no automatic hit in an own calculator, a literal "Hit") is
        left out of the formula."""
        chosen = hit() if outcome == q("Hit") else choose(self.deals_critical(outcome), critical(), hit())
        return chosen if self.c.sit_auto_hit == "FALSE" else choose(self.c.sit_auto_hit, auto(), chosen)

    def deals_critical(self, outcome: str) -> str:
        """TRUE when ``outcome`` deals a critical's damage: a Critical, unless ``critical_extra`` says
        a critical deals what a hit deals."""
        critical = f'{outcome}="Critical"'
        return critical if self.c.critical_extra == "TRUE" else f"AND({critical},{self.c.critical_extra})"

    def in_use(self, part: str) -> str:
        """``part`` of the formula the entered result uses (automatic hit, critical or hit)."""
        hit, critical, auto = self.damage_specs()
        return self.by_outcome(
            self.c.result,
            lambda: self.coefficient(auto, part),
            lambda: self.coefficient(critical, part),
            lambda: self.coefficient(hit, part),
        )

    def attack_damage(self, penalty: str | None = None) -> str:
        """DAMAGE of the entered rolls (``resolution.attack_damage``): 0 for a miss, '' until rolled;
        ``penalty``: a cell holding the natural penalty of the entered roll (default: worked out here)."""
        c = self.c
        count, sides = c.dice_count, c.dice_sides
        needs_roll = f"AND({self.in_use('dice_rolled')}<>0,{count}>0)"
        rolled = f"IF({count}>0,{typed_number(c.damage_roll)},0)"  # checked where the formula in use rolls it
        chart_waits = (
            f'AND({c.result}="Critical",NOT(ISNUMBER({c.follow})))' if self.charted_critical() else "FALSE"
        )
        return (
            f'IF(OR({c.result}="",LEFT({c.result},1)="#"),"",IF(AND({c.result}<>"Hit",{c.result}<>"Critical"),0,'
            f'IF({c.dice_message}<>"",{c.dice_message},IF({chart_waits},"",'
            f'IF(AND({needs_roll},ISBLANK({c.damage_roll})),"",'
            f"IF(AND({needs_roll},{off_dice(c.damage_roll, count, f'{count}*{sides}')}),"
            f'"#DAMAGE ROLL? "&{count}&" to "&{count}*{sides},'
            f"{self.with_further_roll(rolled, penalty)}))))))"
        )

    def with_further_roll(self, rolled: str, penalty: str | None = None) -> str:
        """The damage of the entered result, with the further dice's total when a formula rolls them:
        '' until it is typed, a message when those dice cannot show it."""
        c = self.c
        penalty = self.roll_penalty(c.roll) if penalty is None else penalty
        if not rolls_further(self.block):
            return self.damage_of(c.result, rolled, penalty=penalty)
        further = f"({self.in_use('rerolled')})*{c.dice_count}"
        needs_extra = f"AND({further}<>0,{c.dice_count}>0)"
        damage = self.damage_of(
            c.result, rolled, f"IF({c.dice_count}>0,{typed_number(c.extra_roll)},0)", penalty
        )
        return (
            f'IF(AND({needs_extra},ISBLANK({c.extra_roll})),"",'
            f"IF(AND({needs_extra},{off_dice(c.extra_roll, further, f'{further}*{c.dice_sides}')}),"
            f'"#EXTRA DAMAGE ROLL? "&{further}&" to "&{further}*{c.dice_sides},{damage}))'
        )

    def chart_effect(self) -> str:
        """What the chart row of a Critical or a Fumble says (``resolution.chart_text``)."""
        c, critical, fumble = self.c, self.block.critical.chart, self.block.fumble.chart
        given = f"ISNUMBER({c.follow})"
        critical_text = (
            band(critical.table, critical.text, self.follow_total(c.follow))
            if critical is not None and critical.text and self.charted_critical()
            else '""'
        )
        fumble_text = (
            band(fumble.table, fumble.text, c.follow)
            if fumble is not None and fumble.text and possible(self.block.fumble.mode) == ["chart"]
            else '""'
        )
        return (
            f'IF(NOT({given}),"",IF({c.result}="Critical",{critical_text}&"",'
            f'IF({c.result}="Fumble",{fumble_text}&"","")))'
        )


# --------------------------------------------------------------------------- the dice text


def typed_number(cell: str) -> str:
    """The number typed in ``cell``, 0 when it is empty or not a number: N() of an empty cell is
    #NUM! in Gnumeric (0 in Excel and LibreOffice), and a damage roll is empty until it is rolled."""
    return f"IF(ISNUMBER({cell}),{cell},0)"


def off_dice(cell: str, low: str, high: str) -> str:
    """TRUE when the roll typed in ``cell`` is not a whole number from ``low`` to ``high`` (or is empty)."""
    return f"IF(ISNUMBER({cell}),OR({cell}<{low},{cell}>{high},{cell}<>INT({cell})),TRUE)"


def digits_only(text: str) -> str:
    stripped = text
    for digit in "0123456789":
        stripped = f'SUBSTITUTE({stripped},"{digit}","")'
    return f'AND(LEN({text})>0,{stripped}="")'


def dice_parts(text: str) -> dict[str, str]:
    """Formula pieces reading a lower-case, space-free dice text as ``pycalc.dice.parse`` does."""
    at = f'FIND("d",{text})'
    prefix = f"LEFT({text},{at}-1)"
    rest = f"MID({text},{at}+1,99)"
    sign = f'IFERROR(FIND("+",{rest}),IFERROR(FIND("-",{rest}),0))'
    sides = f"IF({sign}=0,{rest},LEFT({rest},{sign}-1))"
    modifier = f'IF({sign}=0,"",MID({rest},{sign}+1,99))'
    unsigned = f'IF(OR(LEFT({text},1)="+",LEFT({text},1)="-"),MID({text},2,99),{text})'
    return {
        "constant": f"AND(LEN({text})<=8,{digits_only(unsigned)})",
        "dice": (
            f'IFERROR(AND(LEN({text})<=24,OR({prefix}="",{digits_only(prefix)}),{digits_only(sides)},'
            f"OR({sign}=0,{digits_only(modifier)})),FALSE)"
        ),
        "count": f'IF({prefix}="",1,VALUE({prefix}))',
        "sides": f"VALUE({sides})",
        "modifier": f'IF({sign}=0,0,IF(MID({rest},{sign},1)="-",-1,1)*VALUE({modifier}))',
    }
