"""The Basic Fantasy RPG Helpless opponent calculator: native formulas of
``pycalc.rulesets.bfrpg_helpless``."""

from __future__ import annotations

from pycalc.sheets.bfrpg_formulas import dice_fields
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input
from pycalc.sheets.formulas import DICE_ERROR, const


def helpless_section() -> Section:
    def damage(text: str, entry: str) -> str:
        return (
            f'IF({text}="","",IF(NOT({text}_OK),{DICE_ERROR},'
            f"{const('helpless_damage', entry)}*({text}_COUNT*{text}_SIDES+{text}_MOD)))"
        )

    return Section(
        "Helpless opponent (melee hits automatically)",
        (
            Field("Melee damage (e.g. 1d8+1)", "HELPLESS_DICE", INPUT, "1d8+1"),
            empty_input("Backstab damage (optional)", "HELPLESS_BACKSTAB_DICE"),
            Field(
                "Damage: double the maximum",
                "HELPLESS_DAMAGE",
                key=True,
                native=damage("HELPLESS_DICE", "max_damage_multiplier"),
                udf='IF(HELPLESS_DICE="","",bfrpg_helpless_damage(HELPLESS_DICE))',
            ),
            Field(
                "Backstab: double the maximum",
                "HELPLESS_BACKSTAB_DAMAGE",
                native=damage("HELPLESS_BACKSTAB_DICE", "backstab_max_multiplier"),
                udf='IF(HELPLESS_BACKSTAB_DICE="","",bfrpg_helpless_damage(HELPLESS_BACKSTAB_DICE,TRUE))',
            ),
            *dice_fields("HELPLESS_DICE", "HELPLESS_DICE"),
            *dice_fields("HELPLESS_BACKSTAB_DICE", "HELPLESS_BACKSTAB_DICE"),
        ),
    )
