"""The Castles & Crusades subdual damage calculator: native formulas of ``pycalc.rulesets.cnc_subdual``
(the normal part of a subdual hit as the encounter block's ``damage_kinds.normal_part`` says,
``kind_formulas.normal_part``, as the Attack calculator's target state and the log count it)."""

from __future__ import annotations

from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.formulas import const
from pycalc.sheets.kind_formulas import normal_part
from pycalc.tables import RuleSet


def subdual_section(rules: RuleSet) -> Section:
    sd = "subdual_damage"
    total = "SUBDUAL_TOTAL"
    normal = f"IF(ISNUMBER({total}),{normal_part(rules, total)},{total})"
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
