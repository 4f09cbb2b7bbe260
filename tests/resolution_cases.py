"""Shared grids for comparing the generic resolution engine with the four d20 engines."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

from pycalc import dice as dice_module
from pycalc.tables import Row, RuleSet

# (bonus, target, mods): the roll needed (target - bonus - mods) runs from below 1 to above 20,
# every edge of the natural-roll rules (1, 2, 19, 20, 21) included, with bonus + mods both zero
# and not (the osr rulings read the target or the need).
ATTACKS = [
    (0, 1, 0),
    (3, 4, -2),
    (0, 2, 0),
    (2, 13, 1),
    (0, 18, 0),
    (-1, 17, -1),
    (0, 19, 0),
    (4, 21, -2),
    (0, 20, 0),
    (1, 22, 0),
    (0, 21, 0),
    (-2, 18, -3),
    (0, 24, 0),
    (5, 29, 1),
]
FEW_ATTACKS = [(0, 2, 0), (2, 13, 1), (0, 19, 0), (4, 21, -2), (0, 20, 0), (1, 22, 0), (-2, 18, -3)]
DICE = [dice_module.parse(text) for text in ("1d4", "2d3+1", "1d6-2", "1d8+3")]
FOLLOWS: list[int | None] = [None, *range(1, 21)]


def with_rulings(rules: RuleSet, chosen: dict[str, str]) -> RuleSet:
    return dataclasses.replace(rules, chosen={**rules.chosen, **chosen})


def ruling_combos(rules: RuleSet, *ruling_ids: str) -> Iterator[tuple[str, RuleSet]]:
    """Every combination of the named rulings' choices, with a readable name."""
    choices = [list(rules.rulings[r].choices) for r in ruling_ids]
    for picked in itertools.product(*choices):
        chosen = dict(zip(ruling_ids, picked, strict=True))
        yield ",".join(picked) or "defaults", with_rulings(rules, chosen)


def with_cell(rules: RuleSet, table_id: str, entry_id: str, column: str, value: object) -> RuleSet:
    """The rules with one table cell changed (as a house rule would)."""
    table = rules.table(table_id)
    rows = tuple(
        dataclasses.replace(row, values={**row.values, column: value}) if row.id == entry_id else row
        for row in table.rows
    )
    return dataclasses.replace(
        rules, tables={**rules.tables, table_id: dataclasses.replace(table, rows=rows)}
    )


def damage_rolls(dice: dice_module.Dice) -> range:
    return range(dice.count, dice.count * dice.sides + 1)


def row_label(row: Row) -> str:
    return str(row.label)
