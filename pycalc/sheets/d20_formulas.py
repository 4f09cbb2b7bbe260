"""Native formulas of the generic d20 resolution (``pycalc.resolution``), written from a ruleset's
``resolution:`` block: the same rules, as spreadsheet formula text over defined names.

Every value of the block becomes an expression: a literal, a lookup of the table cell it names
(``formulas.const``), or, when a ruling chooses it, ``IF(RULING_X="choice", ..., ...)`` over the
Rulings sheet's cell, so flipping a ruling in the workbook changes the result as the engine does.
The rules are those of :func:`pycalc.resolution.resolve` in the same order (see its module).

What the generic sheet does not write yet is refused when the workbook is built, with the block's
``file:line``: critical and fumble charts, advantage, a follow die of its own, damage multipliers,
the natural penalty and formulas with further rolls (``rerolled``). Those rulesets (combat17, osr,
bfrpg) keep their own calculators for now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pycalc.resolution_block import (
    HIT_FORMULA,
    ByRuling,
    Formula,
    NeedRange,
    Ref,
    Resolution,
    RollColumn,
    RollRange,
    Rolls,
    possible,
)
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import band, const, q
from pycalc.table_files import TableError, TableProblem
from pycalc.tables import RuleSet

# Defined names of the generic Attack calculator's cells (inputs, working cells, outputs)
BONUS, TARGET, MODS, LEVEL = "ATTACK_BONUS", "ATTACK_TARGET", "ATTACK_MODS", "ATTACK_LEVEL"
ROLL, FOLLOW = "ATTACK_ROLL", "ATTACK_FOLLOW_ROLL"
DICE, DAMAGE_ROLL, DAMAGE_BONUS = "ATTACK_DICE", "ATTACK_DAMAGE_ROLL", "ATTACK_DAMAGE_BONUS"
HP, ATTACKS = "ATTACK_TARGET_HP", "ATTACK_ATTACKS"
FACES = "ATTACK_FACES"
SIT_HIT, SIT_AC, SIT_DAMAGE = "ATTACK_SITUATION_HIT", "ATTACK_SITUATION_AC", "ATTACK_SITUATION_DAMAGE"
SIT_CANNOT_HIT, SIT_NEEDS_MAGIC, SIT_AUTO_HIT = "ATTACK_CANNOT_HIT", "ATTACK_NEEDS_MAGIC", "ATTACK_AUTO_HIT"
TOTAL_MODS, TARGET_NOW = "ATTACK_TOTAL_MODS", "ATTACK_TARGET_NOW"
RAW_NEED, NEED, NEED_BASIS = "ATTACK_RAW_NEED", "ATTACK_NEED", "ATTACK_NEED_BASIS"
CRIT_POSSIBLE, CONFIRM_CHANCE = "ATTACK_CRIT_POSSIBLE", "ATTACK_CONFIRM_CHANCE"
HIT_CHANCE, CRIT_CHANCE, FUMBLE_CHANCE = "ATTACK_HIT_CHANCE", "ATTACK_CRIT_CHANCE", "ATTACK_FUMBLE_CHANCE"
RESULT, DAMAGE, HP_AFTER = "ATTACK_RESULT", "ATTACK_DAMAGE", "ATTACK_HP_AFTER"
DICE_TEXT, DICE_MESSAGE = "ATTACK_DICE_T", "ATTACK_DICE_MESSAGE"
DICE_COUNT, DICE_SIDES, DICE_MOD = "ATTACK_DICE_COUNT", "ATTACK_DICE_SIDES", "ATTACK_DICE_MOD"
FORMULA_PARTS = ("dice_rolled", "rerolled", "dice_max", "die_max", "modifier")


# --------------------------------------------------------------------------- what the sheet can write


def unsupported(block: Resolution) -> list[str]:
    """The block's choices that the generic sheet cannot write yet (empty: it can write them all)."""
    found = []
    modes = {
        "fumble.mode": (block.fumble.mode, {"none", "always", "level_check"}),
        "critical.mode": (block.critical.mode, {"none", "automatic", "confirm"}),
    }
    for key, (item, allowed) in modes.items():
        found += [f"{key}: {mode}" for mode in possible(item) if mode not in allowed]
    checks = {
        "advantage": block.advantage is not None,
        "follow_die": block.follow_die is not None,
        "damage.multipliers": bool(block.damage.multipliers),
        "damage.natural_penalty": block.damage.natural_penalty is not None,
        "damage.formulas": block.damage.formulas is not None,
        "damage formulas with rerolled": any(
            isinstance(f, Formula) and any(v != 0 for v in possible(f.rerolled))
            for spec in (block.damage.hit, block.damage.critical, block.damage.auto_hit)
            for f in possible(spec)
        ),
        "modifiers: own": block.modifiers is None,
    }
    return found + [key for key, present in checks.items() if present]


def check_supported(rules: RuleSet) -> Resolution:
    block = rules.resolution_block
    if block is None:
        raise TableError([TableProblem(f"{rules.id}/ruleset.yaml", 1, "no resolution block to build from")])
    missing = unsupported(block)
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


# --------------------------------------------------------------------------- values


def literal(item: Any) -> str:
    if isinstance(item, bool):
        return "TRUE()" if item else "FALSE()"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return q(item)
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
        text = f"IF({ruling_name(item.ruling)}={q(choice)},{by_choice(chosen, render)},{text})"
    return text


def expr(item: Any) -> str:
    """A scalar value of the block as a formula."""
    return by_choice(item, literal)


def is_mode(item: Any, mode: str) -> str:
    """TRUE when the block value ``item`` (a word, maybe by ruling) is ``mode``."""
    words = possible(item)
    if all(word == mode for word in words):
        return "TRUE()"
    if mode not in words:
        return "FALSE()"
    return f"{expr(item)}={q(mode)}"


# --------------------------------------------------------------------------- natural rolls


def in_rolls(rolls: Rolls, face: str) -> str:
    """TRUE when the natural roll ``face`` is one of ``rolls`` (``resolution.roll_set``)."""
    parts = []
    for part in rolls:
        if isinstance(part, RollColumn):
            parts.append(f"IFERROR({band(part.table, part.column, face)}=TRUE(),FALSE())")
        elif isinstance(part, RollRange):
            conditions = [] if part.when is True else [expr(part.when)]
            if part.low is not None:
                conditions.append(f"{face}>={expr(part.low)}")
            if part.high is not None:
                conditions.append(f"{face}<={expr(part.high)}")
            parts.append(f"AND({','.join(conditions)})" if conditions else "TRUE()")
    if not parts:
        return "FALSE()"
    return parts[0] if len(parts) == 1 else f"OR({','.join(parts)})"


def always_misses(block: Resolution, face: str) -> str:
    return in_rolls(block.always_miss, face)


def always_hits(block: Resolution, face: str) -> str:
    return in_rolls(block.always_hit, face)


def critical_roll(block: Resolution, face: str) -> str:
    rolls = block.critical.rolls
    return in_rolls(block.always_hit if rolls is None else rolls, face)


# --------------------------------------------------------------------------- the target and the need


def target_now(block: Resolution) -> str:
    changed = f"{TARGET}+{SIT_AC}*({expr(block.ac_change)})"
    return by_choice(
        block.least_target, lambda least: changed if least is None else f"MAX({literal(least)},{changed})"
    )


def raw_need() -> str:
    return f"{TARGET_NOW}-{BONUS}-{TOTAL_MODS}"


def need(block: Resolution) -> str:
    return f"{RAW_NEED}+({expr(block.hit_margin)})"


def need_basis(block: Resolution) -> str:
    return by_choice(block.need_basis, lambda basis: TARGET_NOW if basis == "target" else RAW_NEED)


def in_need_range(span: Any) -> str:
    """TRUE when NEED_BASIS is in the range (``resolution.in_need_range``)."""

    def render(found: Any) -> str:
        if found is None:
            return "FALSE()"
        assert isinstance(found, NeedRange)
        tests = (("at_least", ">="), ("above", ">"), ("at_most", "<="), ("below", "<"))
        parts = [
            by_choice(
                getattr(found, key),
                lambda b, op=op: "TRUE()" if b is None else f"{NEED_BASIS}{op}{literal(b)}",
            )
            for key, op in tests
            if getattr(found, key) is not None
        ]
        return f"AND({','.join(parts)})" if parts else "TRUE()"

    return by_choice(span, render)


def crit_possible(block: Resolution) -> str:
    return f"AND(NOT({is_mode(block.critical.mode, 'none')}),NOT({in_need_range(block.critical.no_critical_when_needed)}))"


def cannot_hit(block: Resolution) -> str:
    return f"OR({SIT_CANNOT_HIT},AND({SIT_NEEDS_MAGIC},{is_mode(block.needs_magic, 'cannot_hit')}))"


def loses_auto_hit(block: Resolution) -> str:
    return f"AND({SIT_NEEDS_MAGIC},{is_mode(block.needs_magic, 'no_auto_hit')})"


def hits(block: Resolution, face: str) -> str:
    """TRUE when ``face`` hits (by the always-hit rule or by the total), before the always-miss rule."""
    return f"OR(AND({always_hits(block, face)},NOT({loses_auto_hit(block)})),{face}>={NEED})"


def confirms(block: Resolution, follow: str) -> str:
    fails = expr(block.critical.confirm_natural_miss_fails)
    return f"AND(NOT(AND({fails},{always_misses(block, follow)})),{follow}>={NEED})"


# --------------------------------------------------------------------------- the result of a roll


def fumble_result(block: Resolution, follow: str) -> str:
    mode = block.fumble.mode
    checked = f'IF(AND(ISNUMBER({follow}),{follow}>{LEVEL}),"Fumble","Miss")'
    return f'IF({is_mode(mode, "always")},"Fumble",IF({is_mode(mode, "level_check")},{checked},"Miss"))'


def critical_result(block: Resolution, face: str, follow: str) -> str:
    mode = block.critical.mode
    confirmed = f'IF(ISNUMBER({follow}),IF({confirms(block, follow)},"Critical","Hit"),"Hit")'
    return (
        f'IF(OR(NOT({critical_roll(block, face)}),NOT({CRIT_POSSIBLE})),"Hit",'
        f'IF({is_mode(mode, "automatic")},"Critical",{confirmed}))'
    )


def result(block: Resolution, face: str, follow: str) -> str:
    """Miss, Hit, Critical or Fumble of a natural roll (``resolution.resolve``)."""
    return (
        f'IF({SIT_AUTO_HIT},"Hit",IF({always_misses(block, face)},{fumble_result(block, follow)},'
        f'IF({cannot_hit(block)},"Miss",IF(NOT({hits(block, face)}),"Miss",{critical_result(block, face, follow)}))))'
    )


def checked_result(block: Resolution) -> str:
    """RESULT: '' before the roll, the engine's messages for a roll off the die."""
    off_die = f"OR({ROLL}<1,{ROLL}>{FACES},{ROLL}<>INT({ROLL}))"
    follow_off = f"AND(ISNUMBER({FOLLOW}),OR({FOLLOW}<1,{FOLLOW}>{FACES},{FOLLOW}<>INT({FOLLOW})))"
    return (
        f'IF(ISBLANK({ROLL}),"",IF(NOT(ISNUMBER({ROLL})),"#ROLL? 1 to "&{FACES},IF({off_die},"#ROLL? 1 to "&{FACES},'
        f'IF({follow_off},"#FOLLOW ROLL? 1 to "&{FACES},{result(block, ROLL, FOLLOW)}))))'
    )


# --------------------------------------------------------------------------- chances, face by face


def face_hit_chance(block: Resolution, face: str) -> str:
    """Chance (0 or 1) that the natural roll ``face`` is a Hit or a Critical."""
    return (
        f"IF({SIT_AUTO_HIT},1,IF({always_misses(block, face)},0,IF({cannot_hit(block)},0,"
        f"IF({hits(block, face)},1,0))))"
    )


def face_crit_chance(block: Resolution, face: str) -> str:
    mode = block.critical.mode
    return (
        f"IF({SIT_AUTO_HIT},0,{face_hit_chance(block, face)}*IF(OR(NOT({critical_roll(block, face)}),"
        f"NOT({CRIT_POSSIBLE})),0,IF({is_mode(mode, 'automatic')},1,{CONFIRM_CHANCE})))"
    )


def face_fumble_chance(block: Resolution, face: str) -> str:
    mode = block.fumble.mode
    by_level = f"MAX(0,MIN({FACES},{FACES}-{LEVEL}))/{FACES}"
    return (
        f"IF({SIT_AUTO_HIT},0,IF({always_misses(block, face)},IF({is_mode(mode, 'always')},1,"
        f"IF({is_mode(mode, 'level_check')},{by_level},0)),0))"
    )


def face_confirms(block: Resolution, face: str) -> str:
    return f"IF({is_mode(block.critical.mode, 'confirm')},IF({confirms(block, face)},1,0),0)"


# --------------------------------------------------------------------------- damage


def coefficient(spec: Any, part: str) -> str:
    """One part of a damage formula (inline, or chosen by a ruling) as a formula."""

    def render(found: Any) -> str:
        formula = found if isinstance(found, Formula) else HIT_FORMULA
        return expr(getattr(formula, part))

    return by_choice(spec, render)


def formula_amount(spec: Any, rolled: str) -> str:
    """A hit's damage before the least: ``dice_rolled`` x rolled + the fixed parts of the formula."""
    return (
        f"({coefficient(spec, 'dice_rolled')})*{rolled}"
        f"+({coefficient(spec, 'dice_max')})*{DICE_COUNT}*{DICE_SIDES}"
        f"+({coefficient(spec, 'die_max')})*{DICE_SIDES}"
        f"+({coefficient(spec, 'modifier')})*({DICE_MOD}+{SIT_DAMAGE}+{DAMAGE_BONUS})"
    )


def damage_specs(block: Resolution) -> tuple[Any, Any, Any]:
    """(hit, critical, automatic hit) formula specs of the block."""
    rule = block.damage
    return (
        rule.hit,
        rule.hit if rule.critical is None else rule.critical,
        rule.hit if rule.auto_hit is None else rule.auto_hit,
    )


def damage_of(block: Resolution, outcome: str, rolled: str) -> str:
    """A hit's damage (Hit or Critical in ``outcome``), never below the least."""
    hit, critical, auto = damage_specs(block)
    least = expr(block.damage.least)
    chosen = (
        f"IF({SIT_AUTO_HIT},{formula_amount(auto, rolled)},"
        f'IF({outcome}="Critical",{formula_amount(critical, rolled)},{formula_amount(hit, rolled)}))'
    )
    return f"MAX({least},{chosen})"


def rolls_dice(block: Resolution) -> str:
    """TRUE when the formula the outcome uses takes the damage roll (dice_rolled not 0)."""
    hit, critical, auto = damage_specs(block)
    return (
        f"IF({SIT_AUTO_HIT},{coefficient(auto, 'dice_rolled')},"
        f'IF({RESULT}="Critical",{coefficient(critical, "dice_rolled")},{coefficient(hit, "dice_rolled")}))<>0'
    )


def attack_damage(block: Resolution) -> str:
    """DAMAGE of the entered rolls (``resolution.attack_damage``): 0 for a miss, '' until rolled."""
    low, high = DICE_COUNT, f"{DICE_COUNT}*{DICE_SIDES}"
    needs_roll = f"AND({rolls_dice(block)},{DICE_COUNT}>0)"
    bad_roll = f"OR({DAMAGE_ROLL}<{low},{DAMAGE_ROLL}>{high},{DAMAGE_ROLL}<>INT({DAMAGE_ROLL}))"
    rolled = f"IF({needs_roll},{DAMAGE_ROLL},0)"
    return (
        f'IF(OR({RESULT}="",LEFT({RESULT},1)="#"),"",IF(AND({RESULT}<>"Hit",{RESULT}<>"Critical"),0,'
        f'IF({DICE_MESSAGE}<>"",{DICE_MESSAGE},'
        f'IF(AND({needs_roll},ISBLANK({DAMAGE_ROLL})),"",'
        f'IF(AND({needs_roll},OR(NOT(ISNUMBER({DAMAGE_ROLL})),{bad_roll})),"#DAMAGE ROLL? "&{low}&" to "&{high},'
        f"{damage_of(block, RESULT, rolled)})))))"
    )


# --------------------------------------------------------------------------- the dice text


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
            f"OR({sign}=0,{digits_only(modifier)})),FALSE())"
        ),
        "count": f'IF({prefix}="",1,VALUE({prefix}))',
        "sides": f"VALUE({sides})",
        "modifier": f'IF({sign}=0,0,IF(MID({rest},{sign},1)="-",-1,1)*VALUE({modifier}))',
    }
