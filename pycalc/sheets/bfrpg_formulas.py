"""Names and formula pieces shared by the bfrpg Attack calculator (``pycalc.sheets.bfrpg``) and its
odds (``pycalc.sheets.bfrpg_odds``)."""

from __future__ import annotations

from pycalc.sheets import situation_cells
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import optional_input, round_up

FACES_LIST = "D20_FACES_LIST"

FACES = "ATTACK_FACES"
FAIL_MAX = "ATTACK_FAIL_MAX"
ALWAYS_MIN = "ATTACK_ALWAYS_MIN"
MARGIN_MIN = "ATTACK_MARGIN_MIN"
THREAT_MIN = "ATTACK_THREAT_MIN"


pick_name = situation_cells.pick_name  # the Attack calculator's pick cells: PICK_<TABLE>, PICK_<TABLE>_<ROW>


DAMAGE_PICKS = ("charge_options", "damage_mode", "underwater_weapons", "critical_effect")


def udf_damage_picks() -> str:
    """The attack calculator's damage pickers as the damage and odds functions take them, in that
    order (charge, mode, underwater, critical): each optional, an empty one passed as not chosen."""
    return ",".join(optional_input(pick_name(table)) for table in DAMAGE_PICKS)


def crit_rule(need: str) -> str:
    """See engine.critical_possible."""
    return f'IF({ruling_name("only_natural_20_hits")}="no_critical",{need}<{ALWAYS_MIN},{need}<={ALWAYS_MIN})'


def multiplied(
    value: str, fixed: str, double: str, mode: str = "1", water: str = "1", water_up: str = "FALSE"
) -> str:
    """The block's multiplier stages (``pycalc.resolution_damage.amount``): doubling (ruling
    critical_with_double_damage), then the two halvings."""
    doubled = (
        f'IF({ruling_name("critical_with_double_damage")}="double_roll_only",'
        f"(({value})-{fixed})*{double}+{fixed},({value})*{double})"
    )
    halved = f'IF({ruling_name("subdual_half_rounding")}="up",{round_up(f"({doubled})*{mode}")},INT(({doubled})*{mode}))'
    watered = f"IF({water_up},{round_up(f'({halved})*{water}')},INT(({halved})*{water}))"
    return f"MAX(0,{watered})"
