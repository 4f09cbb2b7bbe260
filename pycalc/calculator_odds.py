"""The odds cells of a d20 ruleset's Attack calculator, by defined name, exactly as its .xlsx shows them
(numbers or messages): the reference the parity tests hold the sheet's native formulas to.

The contract: from its calculator's inputs the ruleset works out either the message its odds cells
show instead of numbers (its own checks of the dice, in its sheet's order: dice written badly, no
dice, more than the sheet's grid holds, :func:`grid_message`) or a :class:`CalculatorAttack` (the
generic engine's attack and damage, and the dice as the calculator reads them). :func:`calculator_cells`
then gives the generic calculator's cells (``pycalc.resolution_calculator.odds_outputs``: the grid's
room for further rolls, the number of attacks and the hit points the sheet takes) and :func:`shown`
the round's chance to drop the target, and a target down already (``pycalc.odds.down_already``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycalc import dice as dice_module
from pycalc import odds as shared_odds
from pycalc import resolution as generic
from pycalc import resolution_calculator as calculator
from pycalc.grid_limits import BEYOND_GRID, fits_grid
from pycalc.odds import KILL, KILL_ROUND, ONE_ATTACK
from pycalc.tables import RuleSet


@dataclass(frozen=True)
class CalculatorAttack:
    """The calculator's attack as the odds take it."""

    attack: generic.Attack
    damage: generic.Damage
    dice_text: str  # the dice as the calculator reads them (the generic calculator checks the grid)


def grid_message(dice: dice_module.Dice | None) -> str | None:
    """The grid's message for no dice (None) or dice the sheet's grid cannot hold; None when it can."""
    return None if dice is not None and fits_grid(dice.count, dice.sides) else BEYOND_GRID


def round_kill(found: Mapping[str, object], attacks: int, messages_first: tuple[str, ...] = ()) -> object:
    """The round's chance to drop the target as the .xlsx shows it: the message of the first of the
    cells ``messages_first`` that shows one (the ruleset's sheet looks at them first), otherwise
    ``pycalc.odds.round_kill`` of one attack's chance (the .xlsm gives several attacks' chance)."""
    for name in messages_first:
        if isinstance(found[name], str):
            return found[name]
    return shared_odds.round_kill(found[KILL], attacks, shared_odds.SEVERAL_ATTACKS)


def shown(
    found: Mapping[str, object] | str, attacks: int, hp: int, messages_first: tuple[str, ...] = ()
) -> dict[str, object]:
    """Every odds cell from one attack's (``ONE_ATTACK``; a message: each of them shows it): the
    round's chance to drop the target added, then a target down already said."""
    one = dict.fromkeys(ONE_ATTACK, found) if isinstance(found, str) else found
    return shared_odds.down_already({**one, KILL_ROUND: round_kill(one, attacks, messages_first)}, hp)


def calculator_cells(
    rules: RuleSet,
    attack: CalculatorAttack | str,
    attacks: int,
    hp: int,
    messages_first: tuple[str, ...] = (),
) -> dict[str, object]:
    """The odds cells: the ruleset's message (``attack`` a text) in each of them, otherwise the
    generic calculator's, then as :func:`shown`."""
    if isinstance(attack, str):
        return shown(attack, attacks, hp, messages_first)
    inputs = calculator.CalculatorInputs(hp=hp, attacks=attacks)
    found = calculator.odds_outputs(rules, attack.attack, attack.damage, inputs, attack.dice_text)
    return shown(found, attacks, hp, messages_first)
