"""What a roll cell takes at entry, the same on every calculator and in the attack log: a whole number
in the die's range (a d20 1 to 20; a d100 0 to 100, 0 or 00 being 100), with one input message
saying so. Rolls of dice typed elsewhere (the damage dice shown) take a whole number from 0, and the
formulas say the dice's own range. Past the entry check the formulas still check every roll: a value
pasted or written by a script shows the sheet's "#ROLL? 1 to 20" message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import dice, resolution, resolution_calculator
from pycalc.encounter_block import cell
from pycalc.encounter_rulesets import LogRoll
from pycalc.resolution_block import own_roll_charts
from pycalc.rulesets import spelljammer
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class RollRange:
    low: int
    high: int | None  # None: the dice typed elsewhere set the top (the formulas say it)
    zero_reads: bool = False  # a d100 whose 00 is its highest face
    feet: bool = False  # a distance, not a roll
    charts: bool = False  # the roll on whichever of several charts the result reads (their widest range)

    def message(self) -> tuple[str, str]:
        """(title, text) of the input and error messages."""
        if self.feet:
            return "Distance (ft)", "Feet to the target, a whole number (0 or more)."
        if self.high is None:
            return "Roll: what the dice show", "Their total, a whole number (0 or more)."
        if self.charts:
            return "Chart roll", f"The roll on the chart the result reads, {self.low} to {self.high}."
        if self.zero_reads:
            return f"Roll: d{self.high}", f"What the die shows: 00 = {self.high}, 05 = 5."
        if self.low != 1:
            return "Roll: the dice's total", f"What the dice show, {self.low} to {self.high}."
        return f"Roll: d{self.high}", f"What the die shows, {self.low} to {self.high}."


def die_roll(faces: int, zero_reads: bool = False) -> RollRange:
    """A roll of one die of ``faces``; ``zero_reads``: the die shows 00 (typed 0) for ``faces``."""
    return RollRange(0 if zero_reads else 1, faces, zero_reads)


def dice_roll(rules: RuleSet, dice_ref: Any) -> RollRange:
    """A roll of the dice a table cell names ("2d6": 2 to 12)."""
    rolled = dice.parse(cell(rules, dice_ref))
    return RollRange(rolled.minimum, rolled.maximum)


DICE_SHOWN = RollRange(0, None)  # what damage dice show: their range depends on the dice typed
DISTANCE = RollRange(0, None, feet=True)  # a log row's distance to the target


def attack_roll(rules: RuleSet) -> RollRange:
    """The attack die of a ruleset with a ``resolution:`` block (the d20)."""
    return die_roll(resolution.faces(rules))


def follow_roll(rules: RuleSet) -> RollRange:
    """The follow-up die (fumble check, confirmation, chart roll)."""
    return die_roll(resolution.follow_faces(rules))


def chart_roll(rules: RuleSet, table_id: str) -> RollRange:
    """The die of a chart (a bands table): its first row's low end to its last row's high end."""
    rows = rules.table(table_id).rows
    low, high = rows[0].low, rows[-1].high
    assert low is not None and high is not None, f"{table_id}: a chart's bands are closed at both ends"
    return RollRange(low, high)


def log_roll(rules: RuleSet, roll: LogRoll) -> RollRange:
    """An attack log column's roll: the calculator input's die it feeds."""
    if roll.chart:
        return chart_roll(rules, roll.chart)
    if roll.d100:
        return die_roll(spelljammer.die_faces(rules), zero_reads=True)
    if roll.field == "roll":
        return attack_roll(rules)
    if roll.field == "follow_roll":
        return follow_roll(rules)
    if roll.field == "distance":
        return DISTANCE
    if roll.field == "added_roll":
        return RollRange(*resolution_calculator.added_dice_bounds(rules))
    if roll.field == "chart_roll":
        return own_chart_roll(rules)
    return DICE_SHOWN


def own_chart_roll(rules: RuleSet) -> RollRange:
    """The roll on a chart rolled on by a roll of its own (``resolution_block.own_roll_charts``):
    its bands' range, or the widest of two charts' (a Critical's and a Fumble's)."""
    charts = own_roll_charts(resolution.block(rules))
    return RollRange(*resolution_calculator.chart_roll_bounds(rules), charts=len(charts) > 1)


def add_roll_check(sheet: Worksheet, cells: str, roll: RollRange) -> None:
    """Refuse at entry what ``roll``'s die cannot show; its message shows when the cell is selected."""
    title, text = roll.message()
    bounds = {"operator": "greaterThanOrEqual", "formula1": str(roll.low)}
    if roll.high is not None:
        bounds = {"operator": "between", "formula1": str(roll.low), "formula2": str(roll.high)}
    check = DataValidation(
        type="whole", allow_blank=True, showErrorMessage=True, showInputMessage=True, **bounds
    )
    check.promptTitle = check.errorTitle = title
    check.prompt = check.error = text
    sheet.add_data_validation(check)
    check.add(cells)
