"""The Castles & Crusades falling damage calculator: native formulas of ``pycalc.rulesets.cnc_falling``."""

from __future__ import annotations

from pycalc.sheets.calculator import BOOLEAN_FORMAT, INPUT, Field, Section, working_field
from pycalc.sheets.common import ruling_name as ruling
from pycalc.sheets.formulas import const, round_up


def falling_section() -> Section:
    feet = "FALL_FEET"
    fd = "falling_damage"
    step = const(fd, "increment_ft")
    full = f"INT({feet}/{step})"
    rest = f"({feet}-{full}*{step})"
    increments = (
        f'IF({ruling("falling_partial_increment")}="round_up",{round_up(f"{feet}/{step}")},'
        f'{full}+IF({ruling("falling_partial_increment")}="round_down",0,IF({rest}>{const(fd, "partial_increment_counts_over_ft")},1,0)))'
    )
    first, more = const(fd, "dice_first_increment"), const(fd, "dice_added_per_increment")
    count = f"FALL_INCREMENTS*AVERAGE({first},{first}+(FALL_INCREMENTS-1)*{more})"
    bad = f"OR(NOT(ISNUMBER({feet})),SUM({feet})<0)"
    dex_check = (
        f'IF({feet}<{const(fd, "dex_check_from_ft")},AND({ruling("falling_five_feet")}="dex_check",'
        f"{feet}>={const(fd, 'min_fall_ft')}),{feet}<={const(fd, 'dex_check_to_ft')})"
    )
    dice = (
        f'IF({bad},"#FEET? 0 or more",IF(FALL_DEX_CHECK,{const(fd, "dex_check_fail_damage", "dice")},'
        f'IF({feet}<={const(fd, "dex_check_to_ft")},"0",IF(FALL_DICE_COUNT=0,"0",FALL_DICE_COUNT&"d"&{const(fd, "die_faces")}))))'
    )
    return Section(
        "Falling damage",
        (
            Field("Height fallen (ft)", feet, INPUT, 18),
            Field(
                "A Dex check avoids all damage",
                "FALL_DEX_CHECK",
                native=f'IF({bad},"#FEET? 0 or more",{dex_check})',
                udf=f"cnc_falling_dex_check({feet})",
                number_format=BOOLEAN_FORMAT,
            ),
            Field(
                "Damage dice",
                "FALL_DICE",
                key=True,
                native=dice,
                udf=f"falling_damage({feet})",
                help="in the Dex-check band: the damage on a failed check; 0 = none",
            ),
            working_field("10-ft increments counted", "FALL_INCREMENTS", f'IF({bad},"",{increments})'),
            working_field("Dice for those increments", "FALL_DICE_COUNT", f'IF({bad},"",{count})'),
        ),
    )
