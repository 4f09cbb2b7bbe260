"""What the generic d20 sheet cannot write yet: refused when the workbook is built, with the block's
``file:line`` (``pycalc.sheets.d20_formulas`` says what and why)."""

from __future__ import annotations

from pycalc.resolution_block import (
    Formula,
    Resolution,
    possible,
)
from pycalc.resolution_calculator import adds_dice
from pycalc.table_files import TableError, TableProblem
from pycalc.tables import RuleSet


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
