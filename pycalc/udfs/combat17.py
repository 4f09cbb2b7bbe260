"""What 17 Combat's Excel functions (xlwings) share: its rules. It declares no function of its own.

Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None, a bad argument
returns a short '#...' text, nothing raises into a cell. The attack's functions are the shared ones
(``pycalc.udfs.shared``: ``d20_result("combat17", ...)``, ``d20_effect``, ``d20_damage`` (the damage
of any row of the critical chart), the odds), computed by the generic Attack calculator that
combat17's workbook uses; ``crit_effect`` and ``fumble_effect`` read its charts, ``d20_check`` the
DEX check a critical miss chart row calls for. Its other calculators have their functions in a module
each, named like the subsystem they call (``pycalc.udfs.combat17_brawling``, ``combat17_subdual``;
``combat17_missiles`` for rate of fire and scatter). Every function is prefixed ``combat17_`` so it cannot clash with
another ruleset's functions once star-imported into ``pycalc.udfs``.
"""

from __future__ import annotations

from pycalc.tables import RuleSet, load_ruleset

__all__: list[str] = []


def rules() -> RuleSet:
    return load_ruleset("combat17")
