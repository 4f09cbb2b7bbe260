"""Basic Fantasy RPG's Jousting calculator: the save against being unhorsed, its penalty from the
damage dealt, and what a failed save does (fall, knockout, stun).

Reads ``jousting_save`` and ``jousting_save_failure`` of ``tables/bfrpg/mounted_jousting.yaml`` and the
ruling joust_knockout_stun; ``pycalc.sheets.bfrpg_joust`` writes the same rules as native formulas.
"""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.rulesets.bfrpg import faces
from pycalc.tables import RuleSet

# Text the calculator shows (the workbook formulas use the same strings).
JOUST_SAVED = "Saved: stays in the saddle"
JOUST_UNHORSED = "Unhorsed: prone, {dice} falling damage"
JOUST_KNOCKED_OUT = ", knocked out {dice} rounds"
JOUST_STUNNED = ", stunned {dice} rounds"
JOUST_AFTER_WAKING = " after waking"


def joust_save_penalty(rules: RuleSet, damage: int) -> int:
    """-1 for each full 5 points of damage dealt."""
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    step = int(rules.constant("jousting_save", "damage_per_save_penalty"))
    return (damage // step) * int(rules.constant("jousting_save", "save_penalty_per_step"))


def optional_text(value: object) -> str:
    return "" if value is None else str(value)


def joust_outputs(
    rules: RuleSet, damage: int, save_target: int, str_bonus: int, roll: int | None
) -> dict[str, object]:
    out: dict[str, object] = dict.fromkeys(
        (
            "JOUST_SAVE_PENALTY",
            "JOUST_SAVE_TOTAL",
            "JOUST_FAILED_BY",
            "JOUST_UNHORSED",
            "JOUST_FALL_DAMAGE",
            "JOUST_STUNNED",
            "JOUST_KNOCKED_OUT",
            "JOUST_RESULT",
        ),
        "",
    )
    try:
        out["JOUST_SAVE_PENALTY"] = joust_save_penalty(rules, damage)
    except RuleError as error:
        out["JOUST_SAVE_PENALTY"] = out["JOUST_RESULT"] = str(error)
        return out
    if roll is None:
        return out
    if not 1 <= roll <= faces(rules):
        out["JOUST_RESULT"] = f"#ROLL? 1 to {faces(rules)}"
        return out
    total = roll + str_bonus + int(out["JOUST_SAVE_PENALTY"])  # type: ignore[call-overload]
    failed_by = save_target - total
    band = rules.table("jousting_save_failure").band(failed_by)
    assert band is not None  # the bands are open at both ends
    knocked_out = optional_text(band["knocked_out_rounds"])
    stunned = optional_text(band["stunned_rounds"])
    ruling = rules.ruling("joust_knockout_stun")
    if knocked_out and ruling == "knockout_only":
        stunned = ""
    out.update(
        JOUST_SAVE_TOTAL=total,
        JOUST_FAILED_BY=failed_by,
        JOUST_UNHORSED=bool(band["unhorsed"]),
        JOUST_FALL_DAMAGE=optional_text(band["unhorsed_damage"]),
        JOUST_STUNNED=stunned,
        JOUST_KNOCKED_OUT=knocked_out,
    )
    if not band["unhorsed"]:
        out["JOUST_RESULT"] = JOUST_SAVED
        return out
    text = JOUST_UNHORSED.format(dice=out["JOUST_FALL_DAMAGE"])
    if knocked_out:
        text += JOUST_KNOCKED_OUT.format(dice=knocked_out)
    if stunned:
        text += JOUST_STUNNED.format(dice=stunned)
        if knocked_out and ruling == "stun_after_waking":
            text += JOUST_AFTER_WAKING
    out["JOUST_RESULT"] = text
    return out
