"""The words of the odds functions' common arguments (``cells.arg_docs``): the shared ``d20_*``
odds (``pycalc.udfs.shared``) and the strike-chance ones describe them alike."""

from __future__ import annotations

# The odds UDFs' arguments where the rulesets describe them alike (``cells.arg_docs``)
AMOUNT = ("amount", "damage")
TARGET_HP = ("hp", "target's hit points now")
ATTACKS = ("attacks", "attacks in the round, independent (optional, 1)")
