"""Castles & Crusades (seed 000): d20 + BtH + modifiers >= AC, and the ruleset's other calculators.

An attack is resolved by the generic d20 engine (``pycalc.resolution``) from the ``resolution:``
block of ``tables/cnc/ruleset.yaml``: the total against AC (never below the least AC), and the
``natural_rolls`` boxes, all false in the seed, which states no natural-1 or natural-20 rule and has
no critical or fumble chart; a house rule ticked there is followed without code changes. The Attack
calculator and the attack's Excel functions are the generic ones (``pycalc.resolution_calculator``
and the shared ``d20_*`` of ``pycalc.udfs.shared``: the block's pickers, the prone rows by ruling,
the range band of a typed distance, the attack kinds' least damage and effect texts). What stays
here: the result of one attack of a worked-out AC (the engine ``pycalc.d20_engines`` and the
registry name) and the attack kinds' rows (the special ACs read them). Its subsystems have a module
each: ``cnc_falling``, ``cnc_special_ac`` (disarm, grapple, touch), ``cnc_movement`` (movement,
charge), ``cnc_subdual``.
Every number comes from ``tables/cnc``.
"""

from __future__ import annotations

from pycalc import resolution as generic
from pycalc import resolution_results
from pycalc.d20 import Attack
from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet, load_ruleset

USES_FOLLOW_ROLL = False
RULESET_ID = "cnc"


def cnc_rules() -> RuleSet:
    """The cnc tables (with the rulings' defaults), through the loader's cache: the Excel functions'."""
    return load_ruleset(RULESET_ID)


# --------------------------------------------------------------------------- d20 resolution


def as_generic(attack: Attack) -> generic.Attack:
    """A d20 attack whose AC is already worked out (a UDF's argument, a chart's column) for the
    generic engine: the AC is taken as given, not raised to the least AC."""
    return generic.from_d20(attack, target_as_given=True)


def result(rules: RuleSet, attack: Attack, roll: int, follow_roll: int | None = None) -> str:
    """Miss or Hit: the total against AC, with the natural-roll rules of the table (none in the seed).

    There is no follow roll in C&C; ``follow_roll`` is accepted and ignored.
    """
    return resolution_results.resolve(rules, as_generic(attack), roll)


KIND_TABLE = "attack_types"


def kind_row(rules: RuleSet, kind: str) -> Row:
    try:
        return rules.table(KIND_TABLE).by_label(kind)
    except KeyError:
        raise RuleError("#KIND? pick an attack kind from the list") from None
