"""What bfrpg's Excel functions (xlwings) share: its tables and the words of their common arguments.

Its attack, damage and odds are the shared ``d20_*`` functions' (``pycalc.udfs.shared``: its Attack
calculator is the generic one: a critical, two weapons, firing into a melee, a helpless target); its
Combat maneuvers' functions are in a module each, named like the subsystem they call
(``pycalc.udfs.bfrpg_joust``, ``bfrpg_parry``), every one prefixed ``bfrpg_``; its surprise is the
shared ``pycalc.udfs.surprise``.
Same conventions as ``pycalc.udfs``: numbers arrive as floats, empty cells as None; a bad argument
returns a short '#...' text and nothing raises into a cell.
"""

from __future__ import annotations

from pycalc.tables import RuleSet, load_ruleset

BFRPG = "bfrpg"
__all__: list[str] = []


def bfrpg_rules() -> RuleSet:
    return load_ruleset(BFRPG)
