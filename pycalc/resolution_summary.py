"""The generic Attack calculator's outcome in one line (ATTACK_SUMMARY, which every log row says too):
the result, the follow-up roll it used, why a Miss could never hit, what the result and its chart do, the
damage, the target's hit points and state, and the roll it still waits for (``pycalc.resolution_calculator``
works out the values it reads; ``pycalc.sheets.d20_roll_formulas.Formulas.summary`` is the same line as a
formula)."""

from __future__ import annotations

from collections.abc import Mapping

from pycalc import resolution as engine
from pycalc import resolution_damage, resolution_results, resolution_situation
from pycalc.d20 import HITS, MISS
from pycalc.resolution_block import Chart
from pycalc.tables import RuleSet

NO_ROLL_YET = ""
EFFECT = "ATTACK_EFFECT"  # what the result does, in words (the block's ``effect``)


def chart_wait(rules: RuleSet, chart: Chart | None, chart_roll: int | None) -> str:
    """What the summary asks of the chart roll: the roll on the result's chart of its own
    (``resolution_results.own_roll_chart``), or to clear a chart roll the result does not read; nothing
    of a chart with no row yet (its words say so)."""
    if chart is not None and chart_roll is None and not resolution_results.unfilled(rules, chart):
        return " - type the chart roll"
    if chart is None and chart_roll is not None:
        return f" - the chart roll {chart_roll} is not used by this roll: clear it"
    return ""


def follow_read(follow: int, read: int) -> str:
    """The follow-up roll as the summary names it: with the modifiers and the total the chart read
    when the critical chart adds them (``14 + 2 = 16 on the chart``)."""
    if read == follow:
        return str(follow)
    sign = "-" if read < follow else "+"
    return f"{follow} {sign} {abs(read - follow)} = {read} on the chart"


def state_said(rules: RuleSet, state: object) -> str:
    """The one line's words after the target's hit points: ': Dying', none while it can still act
    (the states table's last band) or before the damage is known."""
    if rules.encounter_block is None or state in ("", None):
        return ""
    rule = rules.encounter_block.hit_points
    able = rules.table(rule.table).rows[-1][rule.state]
    return "" if state == able else f": {state}"


def ruled_out_words(rules: RuleSet, flag: str) -> str:
    """': ' and the label of the situation flag's column (``cannot_hit``, ``needs_magic``), lower case
    first; '' where no picker table has it. The engine's and the sheet's words alike."""
    label = resolution_situation.flag_label(rules, flag)
    return "" if label is None else f": {label[:1].lower()}{label[1:]}"


def ruled_out_said(rules: RuleSet, attack: engine.Attack, outcome: str) -> str:
    """Why a Miss could never hit, in the one line: the words of the situation flag that rules the
    attack out (``cannot_hit``, else ``needs_magic``); '' for any other result."""
    if outcome != MISS or not engine.cannot_hit(rules, attack):
        return ""
    return ruled_out_words(rules, "cannot_hit" if attack.cannot_hit else "needs_magic")


def penalty_said(rules: RuleSet, attack: engine.Attack, outcome: str, roll: int) -> str:
    """The damage a hit on an always-hit roll lost (``damage.natural_penalty``), in the one line after
    the damage: ' (2 less for a natural 20)'; '' where it lost none."""
    lost = (
        resolution_damage.natural_penalty(rules, attack, roll)
        if outcome in HITS and not attack.auto_hit
        else 0
    )
    return f" ({lost} less for a natural {roll})" if lost > 0 else ""


def summary(
    found: Mapping[str, object],
    follow: int | None,
    needed: bool,
    damage_rolled: bool = False,
    read: int | None = None,
    chart: tuple[str, str] = ("", ""),
    state: str = "",
    ruled_out: str = "",
    penalty: str = "",
) -> str:
    """The outcome in one line, as the sheet's ATTACK_SUMMARY shows it: the roll it waits for is named
    once (the follow-up roll first, then the damage roll, then the further damage roll); ``read`` is
    the key the critical chart read for that follow-up roll (the roll itself without one); what the
    result does (the block's ``effect``, then what a chart rolled on by a roll of its own says) follows
    the result; ``chart``: (what that chart says, what the summary asks of its roll: ``chart_wait``);
    ``state``: the words after the target's hit points (``state_said``); ``ruled_out``: why a Miss could
    never hit (``ruled_out_said``), after the result; ``penalty``: what the natural roll cost
    (``penalty_said``), after the damage."""
    result, damage = str(found["ATTACK_RESULT"]), found["ATTACK_DAMAGE"]
    if result == NO_ROLL_YET:
        return "Type the natural roll"
    if result.startswith("#"):
        return result
    text = result
    if needed and follow is not None:
        text += f" (follow-up roll {follow_read(follow, follow if read is None else read)})"
    text += ruled_out
    if found.get(EFFECT):
        text += f", {found[EFFECT]}"
    chart_said, chart_asks = chart
    if chart_said:
        text += f", {chart_said}"
    if isinstance(damage, int):
        if damage > 0:
            text += f": {damage} damage{penalty}, the target is at {found['ATTACK_HP_AFTER']} HP{state}"
    elif damage == NO_ROLL_YET:
        if result in HITS and not (needed and follow is None):
            text += ": type the further damage roll" if damage_rolled else ": type the damage roll"
    else:
        text += f": {damage}"
    if needed and follow is None:
        text += " - type the follow-up roll"
    elif not needed and follow is not None:
        text += f" - the follow-up roll {follow} is not used by this roll: clear it"
    return text + chart_asks
