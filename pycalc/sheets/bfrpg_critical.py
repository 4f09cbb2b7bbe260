"""The Basic Fantasy RPG Critical calculator (threat, confirmation, damage): native formulas of
``pycalc.rulesets.bfrpg_critical``, over the Attack calculator's die cells (``bfrpg_formulas``)."""

from __future__ import annotations

from pycalc.sheets.bfrpg_formulas import (
    ALWAYS_MIN,
    FACES,
    FACES_LIST,
    FAIL_MAX,
    MARGIN_MIN,
    THREAT_MIN,
    confirm_min,
    crit_rule,
    damage_roll_check,
    dice_fields,
    multiplied,
    roll_bad,
)
from pycalc.sheets.calculator import BOOLEAN_FORMAT, INPUT, Field, Section, chance_field, empty_input
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import DICE_ERROR, const, optional_input


def confirms(follow: str, need: str) -> str:
    """See ``pycalc.resolution.confirms``."""
    return (
        f'AND(OR({ruling_name("confirmation_natural_1")}<>"fails",{follow}>{FAIL_MAX}),'
        f"{follow}-{need}>={MARGIN_MIN})"
    )


def critical_section() -> Section:
    need, follow = "CRIT_NEED", "CRIT_FOLLOW_ROLL"
    faces = FACES_LIST
    hit_faces = f"(({faces}-{need}>={MARGIN_MIN})+({faces}>={ALWAYS_MIN})>0)"
    threats = f"SUMPRODUCT(({faces}>={THREAT_MIN})*({faces}>{FAIL_MAX})*{hit_faces})*CRIT_POSSIBLE"
    confirming = (
        f'SUMPRODUCT(({faces}-{need}>={MARGIN_MIN})*((({ruling_name("confirmation_natural_1")}<>"fails")'
        f"+({faces}>{FAIL_MAX}))>0))"
    )
    droll, extra = "CRIT_DAMAGE_ROLL", "CRIT_EXTRA_DAMAGE_ROLL"
    bad_roll, roll_message = damage_roll_check(droll, "CRIT_DICE", "DAMAGE ROLL")
    bad_extra, extra_message = damage_roll_check(extra, "CRIT_DICE", "EXTRA DAMAGE ROLL")
    normal = f"{droll}+CRIT_DICE_MOD"
    max_die = "CRIT_MAX_DIE"
    double = "SUM(CRIT_DOUBLE)"
    critical = (
        f'IF({ruling_name("critical_damage")}="max_die_plus_roll",{multiplied(f"{normal}+{max_die}", max_die, double)},'
        f'IF({extra}="","",IF({bad_extra},{extra_message},'
        f"{multiplied(f'{normal}+{max_die}+{extra}+CRIT_DICE_MOD', max_die, double)})))"
    )
    ready = f'IF(NOT(ISNUMBER({max_die})),{max_die},IF({droll}="","",IF({bad_roll},{roll_message},{{}})))'
    return Section(
        "Critical threat, confirmation and damage",
        (
            Field("Attack bonus (with STR/DEX)", "CRIT_BONUS", INPUT, 3),
            Field("Target's AC", "CRIT_TARGET", INPUT, 15),
            Field("Other modifiers to the roll", "CRIT_MODS", INPUT, 0),
            empty_input("Confirmation d20", follow),
            Field("Weapon damage", "CRIT_DICE", INPUT, "1d8+2"),
            empty_input("Damage dice rolled (without the +modifier)", droll),
            empty_input("Second damage roll (critical, when the ruling adds a second roll)", extra),
            Field("Damage multiplier (2 for a charge or set weapon)", "CRIT_DOUBLE", INPUT, 1),
            Field("Natural roll needed", need, native="SUM(CRIT_TARGET)-SUM(CRIT_BONUS)-SUM(CRIT_MODS)"),
            Field(
                "A natural 20 can be a critical",
                "CRIT_POSSIBLE",
                key=True,
                native=crit_rule(need),
                udf="bfrpg_crit_possible(CRIT_BONUS,CRIT_TARGET,CRIT_MODS)",
                number_format=BOOLEAN_FORMAT,
            ),
            Field("Confirmation roll needed", "CRIT_CONFIRM_MIN", native=confirm_min(need)),
            chance_field(
                "Chance of a confirmed critical",
                "CRIT_CHANCE",
                f"{threats}*{confirming}/({FACES}*{FACES})",
                "bfrpg_crit_chance(CRIT_BONUS,CRIT_TARGET,CRIT_MODS)",
            ),
            Field(
                "Critical confirmed",
                "CRIT_CONFIRMED",
                key=True,
                native=f'IF({follow}="","",IF({roll_bad(follow, FACES)},"#FOLLOW ROLL? 1 to "&{FACES},'
                f"AND(CRIT_POSSIBLE,{confirms(follow, need)})))",
                udf=f'IF({follow}="","",bfrpg_confirms({follow},CRIT_BONUS,CRIT_TARGET,CRIT_MODS))',
            ),
            Field(
                "Maximum die added",
                max_die,
                native=f'IF({double}<1,"#DOUBLE? 1 or more",IF(NOT(CRIT_DICE_OK),{DICE_ERROR},'
                f"{const('critical_hits', 'maximum_dice_added')}*CRIT_DICE_SIDES))",
            ),
            Field(
                "Normal damage", "CRIT_NORMAL_DAMAGE", native=ready.format(multiplied(normal, "0", double))
            ),
            Field(
                "Critical damage",
                "CRIT_DAMAGE",
                key=True,
                native=ready.format(critical),
                udf=f'IF({droll}="","",bfrpg_critical_damage(CRIT_DICE,{droll},{optional_input(extra)},CRIT_DOUBLE))',
            ),
            *dice_fields("CRIT_DICE", "CRIT_DICE"),
        ),
    )
