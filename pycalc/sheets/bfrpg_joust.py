"""The Basic Fantasy RPG Jousting calculator: native formulas of ``pycalc.rulesets.bfrpg_joust``."""

from __future__ import annotations

from pycalc.rulesets import bfrpg_joust as engine
from pycalc.sheets.bfrpg_formulas import FACES, roll_bad, template
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import band, const, optional_input, q


def joust_section() -> Section:
    roll, failed = "JOUST_SAVE_ROLL", "JOUST_FAILED_BY"

    def column(name: str) -> str:
        return band("jousting_save_failure", name, failed)

    def optional(name: str) -> str:
        return f'IF(ISNUMBER({failed}),IF({column(name)}="","",{column(name)}),"")'

    ruling = ruling_name("joust_knockout_stun")
    stunned = (
        f'IF(ISNUMBER({failed}),IF(OR({column("stunned_rounds")}="",AND(JOUST_KNOCKED_OUT<>"",{ruling}="knockout_only")),"",'
        f'{column("stunned_rounds")}),"")'
    )
    text = (
        f"{template(engine.JOUST_UNHORSED, dice='JOUST_FALL_DAMAGE')}"
        f'&IF(JOUST_KNOCKED_OUT<>"",{template(engine.JOUST_KNOCKED_OUT, dice="JOUST_KNOCKED_OUT")},"")'
        f'&IF(JOUST_STUNNED<>"",{template(engine.JOUST_STUNNED, dice="JOUST_STUNNED")}'
        f'&IF(AND(JOUST_KNOCKED_OUT<>"",{ruling}="stun_after_waking"),{q(engine.JOUST_AFTER_WAKING)},""),"")'
    )
    result = (
        f'IF(NOT(ISNUMBER(JOUST_SAVE_PENALTY)),JOUST_SAVE_PENALTY,IF({roll}="","",IF({roll_bad(roll, FACES)},'
        f'"#ROLL? 1 to "&{FACES},IF(NOT(JOUST_UNHORSED),{q(engine.JOUST_SAVED)},{text}))))'
    )
    return Section(
        "Jousting: the save against being unhorsed",
        (
            Field("Damage dealt by the hit", "JOUST_DAMAGE", INPUT, 0),
            Field("Save vs. Death Ray needed", "JOUST_SAVE_TARGET", INPUT, 12),
            Field("Strength bonus", "JOUST_STR_BONUS", INPUT, 0),
            empty_input("Save d20 roll", roll),
            Field(
                "Save penalty from the damage",
                "JOUST_SAVE_PENALTY",
                native=f'IF(SUM(JOUST_DAMAGE)<0,"#DAMAGE? 0 or more",INT(SUM(JOUST_DAMAGE)/'
                f"{const('jousting_save', 'damage_per_save_penalty')})*{const('jousting_save', 'save_penalty_per_step')})",
                udf="bfrpg_joust_save_penalty(JOUST_DAMAGE)",
            ),
            Field(
                "Save total",
                "JOUST_SAVE_TOTAL",
                native=f'IF(OR(NOT(ISNUMBER(JOUST_SAVE_PENALTY)),{roll}=""),"",IF({roll_bad(roll, FACES)},"",'
                f"{roll}+SUM(JOUST_STR_BONUS)+JOUST_SAVE_PENALTY))",
            ),
            Field(
                "Save failed by",
                failed,
                native='IF(ISNUMBER(JOUST_SAVE_TOTAL),SUM(JOUST_SAVE_TARGET)-JOUST_SAVE_TOTAL,"")',
            ),
            Field(
                "Unhorsed",
                "JOUST_UNHORSED",
                key=True,
                native=f'IF(ISNUMBER({failed}),{column("unhorsed")},"")',
            ),
            Field("Falling damage", "JOUST_FALL_DAMAGE", native=optional("unhorsed_damage")),
            Field("Knocked out (rounds)", "JOUST_KNOCKED_OUT", native=optional("knocked_out_rounds")),
            Field("Stunned (rounds; -2 AC, -2 AB)", "JOUST_STUNNED", native=stunned),
            Field(
                "Result",
                "JOUST_RESULT",
                key=True,
                native=result,
                udf=f"bfrpg_joust_result(JOUST_DAMAGE,JOUST_SAVE_TARGET,JOUST_STR_BONUS,{optional_input(roll)})",
            ),
        ),
    )
