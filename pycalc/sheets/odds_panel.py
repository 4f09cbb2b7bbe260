"""The odds panel of a d20 Attack calculator: the attacks this round and the target's hit points typed,
then the expected damage per attack and per round and the chances to drop the target, each with its
native formula (the generic writer's, ``d20_damage.odds_formulas``, or the ruleset's) and its UDF call for the
.xlsm (``<ruleset>_expected_damage``, ``<ruleset>_kill_chance``). A ruleset gives the data: its UDFs'
arguments, the native formulas (the generic ones over its calculator's cells, :func:`generic_native`,
or its own) and its words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycalc.odds import EXPECTED, EXPECTED_ROUND, KILL, KILL_ROUND, SEVERAL_ATTACKS
from pycalc.resolution_block import Resolution
from pycalc.sheets import d20_damage
from pycalc.sheets.calculator import INPUT, Field
from pycalc.sheets.common import PERCENT_FORMAT
from pycalc.sheets.d20_cells import Cells
from pycalc.sheets.formulas import round_kill_formula, unless_down
from pycalc.tables import RuleSet

ATTACKS, TARGET_HP = "ATTACK_ATTACKS", "ATTACK_TARGET_HP"


@dataclass(frozen=True)
class OddsPanel:
    ruleset: str  # the UDFs' prefix
    head: str  # the UDFs' first arguments (bonus, target, dice), before the hit points
    tail: str  # their last ones; the attacks come first unless "{attacks}" places them
    native: Mapping[str, str]  # the outputs' native formulas by name (EXPECTED ... KILL_ROUND)
    attacks_label: str = "Attacks this round (same attack, independent)"
    attacks_help: str = ""
    hp_help: str = ""
    expected_label: str = "Expected damage per attack"
    expected_help: str = ""
    kill_key: bool = False  # the chance one attack drops the target is a headline
    kill_help: str = ""


def generic_native(
    rules: RuleSet, block: Resolution, cells: Cells, messages_first: tuple[str, ...] = ()
) -> dict[str, str]:
    """The outputs' native formulas over a calculator's cells: one attack's odds the generic d20
    writer's (``d20_damage.odds_formulas``), the round's chance to drop the target as
    ``pycalc.calculator_odds.round_kill`` gives it (the messages of the cells ``messages_first`` first,
    then ``round_kill_formula``)."""
    round_kill = round_kill_formula(ATTACKS, KILL, TARGET_HP, SEVERAL_ATTACKS)
    for name in reversed(messages_first):
        round_kill = f"IF(ISNUMBER({name}),{round_kill},{name})"
    return {**d20_damage.odds_formulas(rules, block, cells), KILL_ROUND: round_kill}


def udf(panel: OddsPanel, function: str, attacks: str, hp: bool = False) -> str:
    """The call of the ruleset's ``function`` UDF for ``attacks`` attacks (``hp``: the target's hit
    points follow the head)."""
    tail = panel.tail.format(attacks=attacks) if "{attacks}" in panel.tail else f"{attacks},{panel.tail}"
    head = f"{panel.head},{TARGET_HP}" if hp else panel.head
    call = f"{panel.ruleset}_{function}({head},{tail})"
    return unless_down(TARGET_HP, call) if hp else call


def odds_fields(panel: OddsPanel) -> tuple[Field, ...]:
    """The panel's two inputs and four outputs, in the calculator's order."""
    return (
        Field(panel.attacks_label, ATTACKS, INPUT, 1, help=panel.attacks_help),
        Field("Target's hit points now", TARGET_HP, INPUT, 10, help=panel.hp_help),
        Field(
            panel.expected_label,
            EXPECTED,
            key=True,
            number_format="0.00",
            native=panel.native[EXPECTED],
            udf=udf(panel, "expected_damage", "1"),
            help=panel.expected_help,
        ),
        Field(
            "Expected damage per round",
            EXPECTED_ROUND,
            number_format="0.00",
            native=panel.native[EXPECTED_ROUND],
            udf=udf(panel, "expected_damage", ATTACKS),
        ),
        Field(
            "Chance one attack drops the target",
            KILL,
            key=panel.kill_key,
            number_format=PERCENT_FORMAT,
            native=panel.native[KILL],
            udf=udf(panel, "kill_chance", "1", hp=True),
            help=panel.kill_help,
        ),
        Field(
            "Chance the round's attacks drop the target",
            KILL_ROUND,
            number_format=PERCENT_FORMAT,
            native=panel.native[KILL_ROUND],
            udf=udf(panel, "kill_chance", ATTACKS, hp=True),
        ),
    )
