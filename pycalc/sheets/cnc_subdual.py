"""The Castles & Crusades subdual damage calculator, and the normal part of a subdual hit that the
Attack calculator's target state counts: native formulas of ``pycalc.rulesets.cnc_subdual``."""

from __future__ import annotations

from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import ruling_name as ruling
from pycalc.sheets.formulas import const, round_up


def subdual_normal(total: str) -> str:
    """The points of a subdual hit of ``total`` (a number) counted as normal damage (ruling
    subdual_normal_split; ``cnc.subdual_normal``)."""
    per = const("subdual_damage", "subdual_points_per_normal_point")
    split = ruling("subdual_normal_split")
    return (
        f'IF({split}="started_fives",{round_up(f"{total}/{per}")},'
        f'IF({split}="full_fives",INT({total}/{per}),MAX(1,INT({total}/{per}))))'
    )


def subdual_section() -> Section:
    sd = "subdual_damage"
    total = "SUBDUAL_TOTAL"
    normal = f"IF(ISNUMBER({total}),{subdual_normal(total)},{total})"
    return Section(
        "Subdual damage",
        (
            Field("Subdual damage dealt", "SUBDUAL_DAMAGE", INPUT, 7),
            Field(
                "Subdual damage (at least 1)",
                total,
                native=f'IF(OR(NOT(ISNUMBER(SUBDUAL_DAMAGE)),SUM(SUBDUAL_DAMAGE)<0),"#DAMAGE? 0 or more",'
                f"MAX({const(sd, 'weapon_subdual_min_damage')},SUBDUAL_DAMAGE))",
            ),
            Field(
                "Of which normal damage",
                "SUBDUAL_NORMAL",
                key=True,
                native=normal,
                udf="cnc_subdual_normal(SUBDUAL_DAMAGE)",
            ),
            Field(
                "Of which temporary",
                "SUBDUAL_TEMPORARY",
                native=f"IF(ISNUMBER({total}),{total}-SUBDUAL_NORMAL,{total})",
            ),
            Field(
                "Minutes to heal the temporary part",
                "SUBDUAL_HEAL_MINUTES",
                native=f"IF(ISNUMBER({total}),SUBDUAL_TEMPORARY*{const(sd, 'subdual_heal_minutes_per_hp')},{total})",
            ),
        ),
    )
