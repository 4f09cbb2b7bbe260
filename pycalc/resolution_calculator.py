"""The generic Attack calculator of a d20 ruleset described by its YAML alone (a ``resolution:`` block
with ``modifiers: [...]``): what each output cell of the sheet must show, by defined name.

The reference for the native formulas of ``pycalc.sheets.d20`` (the parity tests compare the two in
LibreOffice): the GM's inputs, the pickers added up by ``pycalc.resolution_situation.picked_situation``, then
the generic engine (``pycalc.resolution`` and ``pycalc.resolution_odds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pycalc import (
    attack_odds,
    damage_kinds,
    resolution_added,
    resolution_block,
    resolution_chances,
    resolution_check,
    resolution_damage,
    resolution_range,
    resolution_results,
    resolution_situation,
)
from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as engine
from pycalc import resolution_odds as odds
from pycalc.d20 import CRITICAL, FUMBLE, HIT, HITS, MISS
from pycalc.encounter_block import SUBDUAL
from pycalc.errors import RuleError
from pycalc.grid_limits import BEYOND_GRID, MAX_DICE, MAX_SIDES
from pycalc.hit_point_states import state_after_hit
from pycalc.limits import ATTACKS, HIT_POINTS
from pycalc.odds import CALCULATOR_ODDS, EXPECTED, EXPECTED_ROUND, KILL, KILL_ROUND
from pycalc.resolution_block import (
    ROLL_COLUMN,
    Formula,
    Resolution,
    checked_charts,
    own_roll_charts,
    possible,
    shows_chart_text,
)
from pycalc.resolution_summary import (
    EFFECT,
    NO_ROLL_YET,
    chart_wait,
    penalty_said,
    ruled_out_said,
    state_said,
    summary,
)
from pycalc.table_files import roll_dice
from pycalc.tables import RuleSet

TARGET_STATE = "ATTACK_TARGET_STATE"  # the target's state after the hit (encounter hit-point states)
CHECK = "ATTACK_CHECK"  # the check a chart row calls for (resolution_check), with a chart that has one
NOT_ADDED = "not used: no picked row adds dice"


def number_name(number_id: str) -> str:
    """The calculator cell of a number the GM types beside the pickers (``situation.numbers``)."""
    return f"ATTACK_NUMBER_{number_id.upper()}"  # an id is lower_snake_case


@dataclass(frozen=True)
class CalculatorInputs:
    bonus: int = 0
    target: int = 10  # the defender's AC, or the number needed (block ``target``)
    mods: int = 0  # the free modifier to the roll
    level: int = 0
    roll: int | None = None
    follow_roll: int | None = None
    dice: str = "1d8"
    damage_roll: int | None = None
    extra_roll: int | None = None
    added_roll: int | None = None  # the total the dice a picked row adds to the roll show
    chart_roll: int | None = None  # the roll on a chart of its own after a Fumble or a Critical
    check_roll: int | None = None  # the d20 of the check a chart row calls for (resolution_check)
    check_bonus: int = 0  # added to that d20 (the DEX bonus)
    damage_bonus: int = 0
    hp: int = 10
    attacks: int = 1
    choices: Mapping[str, str] = field(default_factory=dict)  # choice table id -> picked label
    toggles: frozenset[tuple[str, str]] = frozenset()  # (toggle table id, row id) ticked
    numbers: Mapping[str, int] = field(default_factory=dict)  # typed number id -> its value (situation)
    kind: str = ""  # the kind of damage typed (encounter.damage_kinds): empty, subdual's label or letter
    subdual_taken: int = 0  # the subdual damage inside the hit points the target has lost so far
    range_increment: int | None = None  # the ranged weapon's, in feet (None: no range band)
    distance: int | None = None  # to the target, in feet (None: no range band)


def uses_follow(block: Resolution) -> bool:
    """The calculator asks for a follow-up roll (a confirmation, a fumble check or a chart)."""
    modes = possible(block.fumble.mode) + possible(block.critical.mode)
    return any(mode in ("level_check", "confirm", "chart") for mode in modes)


def uses_level(block: Resolution) -> bool:
    """The calculator asks for the attacker's level (a fumble checked against it)."""
    return "level_check" in possible(block.fumble.mode)


def rolls_further(block: Resolution) -> bool:
    """A damage formula rolls the dice again (``rerolled``): the calculator asks for that total."""
    rule = block.damage
    specs = (rule.hit, rule.critical, rule.auto_hit)
    return any(
        isinstance(formula, Formula) and any(count != 0 for count in possible(formula.rerolled))
        for spec in specs
        for formula in possible(spec)
    )


def adds_dice(rules: RuleSet) -> bool:
    """A picker row adds dice to the roll (``hit: 1d4``): the calculator asks for their total."""
    return any(
        roll_dice(row.values.get(ROLL_COLUMN)) is not None
        for table_id in engine.block(rules).modifiers or ()
        for row in rules.table(table_id).rows
    )


def added_dice_bounds(rules: RuleSet) -> tuple[int, int]:
    """The lowest and highest total the dice on the roll can show under any picks: the totals the
    hidden workings weigh, and the log column's check at entry (the row's own picks then narrow it)."""
    low = high = 0
    for table_id in engine.block(rules).modifiers or ():
        table = rules.table(table_id)
        dice = [roll_dice(row.values.get(ROLL_COLUMN)) for row in table.rows]
        ranges = [resolution_added.added_range([d]) for d in dice if d is not None]
        if table.picker == "toggle":  # any rows ticked together
            low, high = low + sum(min(0, a) for a, _ in ranges), high + sum(max(0, b) for _, b in ranges)
        elif ranges:  # one row picked
            low, high = low + min(0, *(a for a, _ in ranges)), high + max(0, *(b for _, b in ranges))
    return low, high


def added_dice_said(attack: engine.Attack) -> str:
    """What the calculator says beside the added dice's cell: the dice and their range, or that it is unused."""
    if not attack.added:
        return NOT_ADDED
    low, high = resolution_added.added_range(attack.added)
    return f"{dice_text(attack.added)}: type their total, {low} to {high}"


def dice_text(added: tuple[tuple[int, int], ...]) -> str:
    """The added dice as the GM reads them: ``1d4 - 1d4``, ``-1d4``."""
    text = "".join(f" {'-' if count < 0 else '+'} {abs(count)}d{sides}" for count, sides in added)
    return text[3:] if text.startswith(" + ") else "-" + text[3:]


def grid_dice(formula: resolution_damage.Coefficients, count: int) -> int:
    """How many dice the sheet's grid must hold for a formula (further rolls of the dice included)."""
    return (formula.dice_rolled + formula.rerolled) * count if formula.rerolled else count


def odds_formulas(rules: RuleSet, attack: engine.Attack) -> list[resolution_damage.Coefficients]:
    """The formulas the sheet's odds columns use: the hit's (or the automatic hit's), then the
    critical's, or every formula a critical chart can name."""
    rule = engine.block(rules).damage
    hit = rule.auto_hit if attack.auto_hit and rule.auto_hit is not None else rule.hit
    if engine.critical_mode(rules) == "chart" and rule.formulas is not None:
        criticals = [str(row.id) for row in rules.table(rule.formulas.table).rows]
    else:
        criticals = [rule.hit if rule.critical is None else rule.critical]
    return [resolution_damage.coefficients(rules, spec) for spec in [hit, *criticals]]


def chart_roll_bounds(rules: RuleSet) -> tuple[int, int]:
    """The lowest and highest chart roll any of those charts takes (the log column's check at entry)."""
    charts = own_roll_charts(engine.block(rules)).values()
    dice = [resolution_results.chart_die(rules, chart) for chart in charts]
    return min(low for low, _ in dice), max(high for _, high in dice)


def near_miss_said(
    rules: RuleSet, attack: engine.Attack, where: resolution_situation.Situation, outcome: str, roll: int
) -> str:
    """What a Miss short of the target by 1 to the block's ``effect.near_miss_by`` does: a counted
    pick's ``near_miss`` text ("missed by 2: the shot hits ..."); '' otherwise."""
    within = resolution_block.value(rules, engine.block(rules).effect.near_miss_by)
    margin = engine.raw_need(rules, attack) - roll  # the target less the total
    if outcome != MISS or within is None or not where.near_miss or not 1 <= margin <= int(within):
        return ""
    return resolution_situation.NEAR_MISS_SAID.format(margin=margin, text=where.near_miss)


def dice_used(rules: RuleSet, inputs: CalculatorInputs) -> str:
    """The damage dice: a counted picked row's (its ``dice`` column: the weapon picked), else those typed."""
    where = resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles, inputs.numbers)
    return where.dice or inputs.dice


def range_band(rules: RuleSet, inputs: CalculatorInputs) -> resolution_range.Band:
    return resolution_range.band(rules, inputs.choices, inputs.range_increment, inputs.distance)


def attack_and_damage(
    rules: RuleSet, inputs: CalculatorInputs, dice: dice_module.Dice
) -> tuple[engine.Attack, engine.Damage, resolution_situation.Situation]:
    where = resolution_situation.picked_situation(rules, inputs.choices, inputs.toggles, inputs.numbers)
    band = range_band(rules, inputs)
    # out of range the attack is blocked (no chance of anything), as a pick that rules it out blocks it
    attack = engine.Attack(
        inputs.bonus, inputs.target, inputs.mods + band.hit, inputs.level, blocked=bool(band.stop)
    )
    damage = engine.Damage(dice, inputs.damage_bonus)
    situated_attack, situated_damage = resolution_situation.situated(rules, attack, damage, where)
    return situated_attack, situated_damage, where


def stopped_by(band: resolution_range.Band, where: resolution_situation.Situation) -> str:
    """What stops the attack before any roll: out of range (or why no band can be read), else a
    picked row that rules it out; '' when nothing does."""
    if band.stop:
        return band.stop
    return resolution_situation.NO_ATTACK_SAID.format(label=where.no_attack) if where.no_attack else ""


def odds_outputs(
    rules: RuleSet, attack: engine.Attack, damage: engine.Damage, inputs: CalculatorInputs, dice_text: str
) -> dict[str, object]:
    """Expected damage and the chances of dropping the target (one attack's, the round's), or the
    message the sheet shows. One attack's distribution is worked out once and read for all four."""
    try:
        dice = dice_module.parse(dice_text)
    except RuleError as error:
        return dict.fromkeys(CALCULATOR_ODDS, str(error))
    further = max(grid_dice(formula, dice.count) for formula in odds_formulas(rules, attack))
    if dice.count > MAX_DICE or dice.sides > MAX_SIDES or further > MAX_DICE:
        return dict.fromkeys(CALCULATOR_ODDS, BEYOND_GRID)
    one = odds.damage_distribution(rules, attack, damage)
    attacks_said = None if 0 <= inputs.attacks <= ATTACKS else f"#ATTACKS? 0 to {ATTACKS}"
    hp_said = None if inputs.hp <= HIT_POINTS else f"#HP? up to {HIT_POINTS}"
    expected = shared_odds.mean(one)
    return {
        EXPECTED: expected,
        EXPECTED_ROUND: attacks_said or inputs.attacks * expected,
        KILL: hp_said or shared_odds.chance_at_least(one, inputs.hp),
        # the sheet checks the hit points first, as for one attack, then the attacks
        KILL_ROUND: hp_said or attacks_said or shared_odds.chance_at_least(one, inputs.hp, inputs.attacks),
    }


def weighed(rules: RuleSet, inputs: CalculatorInputs) -> tuple[RuleSet, engine.Attack, engine.Damage]:
    """The rules, attack and damage the calculator's odds weigh, read as ``attack_outputs`` reads them
    (the rows picked, the level only where a fumble is checked against it), for odds of several
    attacks or of at least some damage (the shared Excel functions); the dice checked against the
    odds' own limits, not the sheet's grid (``RuleError``)."""
    rules = with_picks(rules, inputs.choices)
    if not uses_level(engine.block(rules)):
        inputs = replace(inputs, level=0)
    dice = attack_odds.within_odds_limits(dice_module.parse(inputs.dice))
    attack, damage, _ = attack_and_damage(rules, inputs, dice)
    return rules, attack, damage


def follow_needed(rules: RuleSet, attack: engine.Attack, roll: int) -> bool:
    """The result of ``roll`` waits on a follow-up roll (a fumble check or chart, a confirmation or
    a critical chart)."""
    if attack.auto_hit:
        return False
    if engine.always_misses(rules, roll):
        return engine.fumble_mode(rules) in ("level_check", "chart")
    return (
        resolution_results.resolve(rules, attack, roll) in HITS
        and engine.in_rolls(rules, engine.critical_rolls(rules), roll)
        and engine.critical_possible(rules, attack)
        and engine.critical_mode(rules) in ("confirm", "chart")
    )


def target_state(rules: RuleSet, inputs: CalculatorInputs, damage: int) -> str:
    """The target's state after a hit of ``damage`` (the encounter block's hit-point states): subdual
    damage where the Kind picked, or a pick of the situation, says so (``damage_kinds.row_kind``; the
    sheet's Kind is a dropdown of the subdual kind alone)."""
    kind = damage_kinds.row_kind(rules, inputs.kind, inputs.choices, inputs.toggles)
    return state_after_hit(rules, inputs.hp, inputs.subdual_taken, damage, kind == SUBDUAL)


def with_picks(rules: RuleSet, choices: Mapping[str, str]) -> RuleSet:
    """The rules with the rows picked (``choices``: table id -> label) where the block reads a picked row."""
    picked = {}
    for table_id in engine.block(rules).picked_tables:
        label = choices.get(table_id)
        rows = [row for row in rules.table(table_id).rows if str(row.label) == label]
        if rows:
            picked[table_id] = str(rows[0].id)
    return replace(rules, picked=picked) if picked else rules


def attack_outputs(rules: RuleSet, inputs: CalculatorInputs) -> dict[str, object]:
    """Every output of the generic Attack calculator by defined name ('' before a roll is typed)."""
    rules = with_picks(rules, inputs.choices)
    block = engine.block(rules)
    if not uses_follow(block):
        inputs = replace(inputs, follow_roll=None)
    if not uses_level(block):
        inputs = replace(inputs, level=0)
    if not rolls_further(block):
        inputs = replace(inputs, extra_roll=None)
    if not own_roll_charts(block):
        inputs = replace(inputs, chart_roll=None)
    dice_text = dice_used(rules, inputs)
    try:
        dice = dice_module.parse(dice_text)
    except RuleError:
        dice = dice_module.Dice(0, 0, 0)
    attack, damage, where = attack_and_damage(rules, inputs, dice)
    band = range_band(rules, inputs)
    stop = stopped_by(band, where)
    chances = resolution_chances.chances(rules, attack)  # a stopped attack is blocked: a Miss
    found: dict[str, object] = {
        "ATTACK_SITUATION_HIT": where.hit,
        "ATTACK_SITUATION_AC": where.ac,
        "ATTACK_SITUATION_DAMAGE": where.damage,
        "ATTACK_TARGET_NOW": engine.target(rules, attack),
        "ATTACK_NEED": engine.need(rules, attack),
        "ATTACK_HIT_CHANCE": chances[HIT] + chances[CRITICAL],
        "ATTACK_CRIT_CHANCE": chances[CRITICAL],
        "ATTACK_FUMBLE_CHANCE": chances[FUMBLE],
        "ATTACK_RESULT": NO_ROLL_YET,
        "ATTACK_DAMAGE": NO_ROLL_YET,
        "ATTACK_HP_AFTER": NO_ROLL_YET,
        **({TARGET_STATE: NO_ROLL_YET} if rules.encounter_block is not None else {}),
        **shared_odds.down_already(odds_outputs(rules, attack, damage, inputs, dice_text), inputs.hp),
    }
    if shows_chart_text(block):
        found["ATTACK_CHART_EFFECT"] = NO_ROLL_YET
    if checked_charts(block):
        found[CHECK] = NO_ROLL_YET
    if block.effect is not None:
        found[EFFECT] = NO_ROLL_YET
    if adds_dice(rules):
        found["ATTACK_ADDED_DICE"] = added_dice_said(attack)
    found["ATTACK_SUMMARY"] = summary(found, None, False)
    if block.range is not None:
        found["ATTACK_RANGE_BAND"] = band.said
    if stop:  # no attack, roll or not
        found["ATTACK_RESULT"] = found["ATTACK_SUMMARY"] = stop
        return found
    if inputs.roll is None:
        return found
    try:
        resolution_results.check_rolls(rules, inputs.roll, inputs.follow_roll)
        attack = resolution_added.with_added_roll(
            attack, inputs.added_roll
        )  # their total counted in the mods
        outcome = resolution_results.result(rules, attack, inputs.roll, inputs.follow_roll)
    except RuleError as error:
        found["ATTACK_RESULT"] = found["ATTACK_SUMMARY"] = str(error)
        return found
    found["ATTACK_RESULT"] = outcome
    if block.effect is not None:
        found[EFFECT] = near_miss_said(rules, attack, where, outcome, inputs.roll) or (
            resolution_results.effect_text(rules, outcome)
        )
    if shows_chart_text(block):
        try:
            found["ATTACK_CHART_EFFECT"] = resolution_results.chart_text(
                rules, attack, outcome, inputs.follow_roll, inputs.chart_roll
            )
        except RuleError as error:  # a chart roll off the chart's die: said there, the result stands
            found["ATTACK_CHART_EFFECT"] = str(error)
    if CHECK in found:
        try:
            found[CHECK] = resolution_check.check_said(
                rules, attack, outcome, inputs.follow_roll, inputs.check_roll, inputs.check_bonus
            )
        except RuleError as error:  # a check roll off the die: said there, the result stands
            found[CHECK] = str(error)
    needed = follow_needed(rules, attack, inputs.roll)
    try:
        if outcome in HITS and resolution_damage.deals(rules, damage):
            dice_module.parse(dice_text)  # a badly written dice says so on a hit that deals damage
        amount = resolution_damage.attack_damage(
            rules,
            attack,
            damage,
            outcome,
            inputs.roll,
            inputs.follow_roll,
            inputs.damage_roll,
            inputs.extra_roll,
        )
    except RuleError as error:
        amount = str(error)
    found["ATTACK_DAMAGE"] = amount
    if isinstance(amount, int):
        found["ATTACK_HP_AFTER"] = inputs.hp - amount
        if TARGET_STATE in found:
            found[TARGET_STATE] = target_state(rules, inputs, amount)
    read = inputs.follow_roll
    if needed and read is not None and outcome in HITS and engine.critical_mode(rules) == "chart":
        read = resolution_results.follow_total(rules, attack, read)
    own_chart = resolution_results.own_roll_chart(rules, attack, outcome, inputs.follow_roll)
    chart = (
        str(found.get("ATTACK_CHART_EFFECT", "")),
        # while the follow-up roll is awaited, the result (and so its chart) is not known yet
        chart_wait(rules, own_chart, inputs.chart_roll)
        if own_roll_charts(block) and not (needed and inputs.follow_roll is None)
        else "",
    )
    found["ATTACK_SUMMARY"] = summary(
        found,
        inputs.follow_roll,
        needed,
        inputs.damage_roll is not None,
        read,
        chart,
        state_said(rules, found.get(TARGET_STATE)),
        ruled_out_said(rules, attack, outcome),
        penalty_said(rules, attack, outcome, inputs.roll),
    )
    return found
