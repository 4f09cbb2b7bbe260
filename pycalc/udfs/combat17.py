"""Excel user-defined functions (xlwings) for 17 Combat (ruleset combat17): the damage of each outcome
(regular, maximum, critical), which its Critical damage calculator calls.

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None, a bad argument
returns a short '#...' text, nothing raises into a cell. The attack's functions are the shared ones
(``pycalc.udfs.shared``: ``d20_result("combat17", ...)``, ``d20_effect``, ``d20_damage``, the odds),
computed by the generic Attack calculator that combat17's workbook uses; ``crit_effect`` and
``fumble_effect`` read its charts. The charts and the other calculators have their functions in a
module each, named like the subsystem they call (``pycalc.udfs.combat17_critical``,
``combat17_fumble``, ``combat17_brawling``, ``combat17_subdual``; ``combat17_missiles`` for rate of
fire and scatter). Every function is prefixed ``combat17_`` so it cannot clash with another ruleset's
functions once star-imported into ``pycalc.udfs``.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from pycalc.errors import RuleError
from pycalc.rulesets import combat17 as engine
from pycalc.tables import RuleSet, load_ruleset
from pycalc.udfs.cells import as_dice, as_text, cell_safe, optional_int

__all__ = ["combat17_damage"]


def rules() -> RuleSet:
    return load_ruleset("combat17")


def damage_outcome(value: Any) -> str:
    text = as_text(value, "KIND")
    try:
        return str(rules().table("outcomes").by_label(text).id)
    except KeyError:
        raise RuleError("#KIND? use regular_damage, maximum_damage or critical_damage") from None


# --------------------------------------------------------------------------- damage


@xw.func
@xw.arg("dice", doc="weapon damage, e.g. 1d6+2")
@xw.arg("damage_roll", doc="the dice shown, without the +modifier")
@xw.arg("kind", doc="regular_damage, maximum_damage or critical_damage (or the label)")
@cell_safe
def combat17_damage(dice: Any, damage_roll: Any, kind: Any = "regular_damage") -> int:
    """Regular, maximum or critical damage: 1d6+2 showing 3 gives 5, 8 and 11."""
    return engine.damage(
        rules(),
        damage_outcome(kind),
        as_dice(dice, engine.parse_dice),
        optional_int(damage_roll, "DAMAGE ROLL"),
    )
