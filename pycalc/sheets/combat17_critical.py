"""The 17 Combat critical hit calculators (critical damage, and the 1d4 condition chart after a chart
20): native formulas of ``pycalc.rulesets.combat17_critical``."""

from __future__ import annotations

from pycalc.rulesets import combat17 as engine
from pycalc.rulesets.combat17_critical import CONDITION_COLUMNS
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, working_field
from pycalc.sheets.combat17_cells import (
    DiceCells,
    band_check,
    condition_text,
    crit_line_formula,
    d20_check,
    damage_formula,
    empty,
)
from pycalc.sheets.d20_cells import ChartFormula
from pycalc.sheets.formulas import band, optional_input, q
from pycalc.sheets.roll_entry import chart_roll, follow_roll
from pycalc.sheets.situation_cells import by_id, ruling_is
from pycalc.tables import RuleSet

CRIT_DICE = DiceCells("CRIT", "CRIT_DICE")


def critical_section(rules: RuleSet) -> Section:
    def variant(outcome_id: str) -> str:
        return f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,{damage_formula(rules, outcome_id, "CRIT_DAMAGE_ROLL", CRIT_DICE)})'

    follow_ok = d20_check("CRIT_FOLLOW_ROLL", "FOLLOW ROLL")
    total = "CRIT_FOLLOW_TOTAL"
    chart = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok",CRIT_FOLLOW_CHECK,'
        f"{crit_line_formula(total, 'CRIT_CONDITION_CHECK', 'CRIT_CONDITION_ROLL')}))"
    )
    damage = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok","",'
        f"{damage_formula(rules, ChartFormula(total), 'CRIT_DAMAGE_ROLL', CRIT_DICE)}))"
    )
    condition = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok","",IF(CRIT_CONDITION_CHECK="","",'
        f"IF(NOT({band('critical_hits', 'condition_roll', total)}),"
        f"{q(engine.CONDITION_UNUSED_START)}&CRIT_CONDITION_ROLL&{q(engine.CONDITION_UNUSED_END)},"
        f'IF(CRIT_CONDITION_CHECK="ok",{condition_text("CRIT_CONDITION_ROLL")},CRIT_CONDITION_CHECK)))))'
    )
    return Section(
        "Critical damage (natural 20: regular, maximum, critical)",
        (
            Field("Weapon damage (e.g. 1d6+2)", "CRIT_DICE", INPUT, "1d6+2"),
            Field("Damage dice shown (without the +modifier)", "CRIT_DAMAGE_ROLL", INPUT, 3),
            empty_input("Follow-up d20 on the critical chart", "CRIT_FOLLOW_ROLL", roll=follow_roll(rules)),
            Field(
                "Roll modifiers (ruling critical_follow_up_roll: add_modifiers)",
                "CRIT_MODS",
                INPUT,
                0,
                help="counted only under that ruling",
            ),
            empty_input("1d4 condition roll (chart 20 only)", "CRIT_CONDITION_ROLL"),
            Field(
                "Regular damage",
                "CRIT_REGULAR",
                key=True,
                native=variant("regular_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"regular_damage")',
            ),
            Field(
                "Maximum damage",
                "CRIT_MAXIMUM",
                key=True,
                native=variant("maximum_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"maximum_damage")',
            ),
            Field(
                "Critical damage",
                "CRIT_CRITICAL",
                key=True,
                native=variant("critical_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"critical_damage")',
            ),
            Field(
                "The chart gives",
                "CRIT_CHART",
                native=chart,
                udf=f'IF(CRIT_FOLLOW_ROLL="","",combat17_crit_line(CRIT_FOLLOW_ROLL,CRIT_MODS,{optional_input("CRIT_CONDITION_ROLL")}))',
            ),
            Field(
                "Damage by the chart",
                "CRIT_DAMAGE",
                key=True,
                native=damage,
                udf='IF(CRIT_FOLLOW_ROLL="","",combat17_crit_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,CRIT_FOLLOW_ROLL,CRIT_MODS))',
            ),
            Field("Condition on the enemy", "CRIT_CONDITION", native=condition),
            working_field("Follow-up roll entered correctly", "CRIT_FOLLOW_CHECK", follow_ok),
            working_field(
                "Critical chart total",
                total,
                f'IF(CRIT_FOLLOW_CHECK="ok",CRIT_FOLLOW_ROLL+IF({ruling_is("critical_follow_up_roll", "add_modifiers")},SUM(CRIT_MODS),0),"")',
            ),
            working_field(
                "Condition roll entered correctly",
                "CRIT_CONDITION_CHECK",
                band_check("CRIT_CONDITION_ROLL", "critical_conditions", "CONDITION ROLL"),
            ),
            *CRIT_DICE.fields(),
        ),
    )


def condition_section(rules: RuleSet) -> Section:
    check = "CONDITION_CHECK"

    def shown(expr: str) -> str:
        return f'IF({check}="ok",{expr},{check})'

    fields = [
        empty_input("1d4 roll", "CONDITION_ROLL", roll=chart_roll(rules, "critical_conditions")),
        Field(
            "Condition",
            "CONDITION_NAME",
            key=True,
            native=shown(band("critical_conditions", "condition", "CONDITION_ROLL")),
            udf='IF(CONDITION_ROLL="","",combat17_condition(CONDITION_ROLL))',
        ),
        Field(
            "Effect (as printed)",
            "CONDITION_EFFECT",
            native=shown(band("critical_conditions", "effect", "CONDITION_ROLL")),
        ),
        Field(
            "Primary weapon knocked away",
            "CONDITION_DISARMED",
            native=shown(band("critical_conditions", "disarmed", "CONDITION_ROLL")),
        ),
    ]
    labels = {
        "CONDITION_HIT": "Its attack rolls",
        "CONDITION_SAVES": "Its saving throws",
        "CONDITION_DC_CHECKS": "Its DC checks",
        "CONDITION_INIT": "Its initiative",
        "CONDITION_AC_MELEE": "Its AC against melee",
        "CONDITION_AC_RANGED": "Its AC against missiles",
    }
    for name, (table, link, column) in CONDITION_COLUMNS.items():
        linked = band("critical_conditions", link, "CONDITION_ROLL")
        fields.append(
            Field(
                labels[name],
                name,
                native=shown(f"IF({empty(linked)},0,{by_id(table, column, linked)})"),
                udf=f'IF(CONDITION_ROLL="","",combat17_condition_modifier(CONDITION_ROLL,"{column}"))',
            )
        )
    fields.append(
        working_field(
            "Roll entered correctly",
            check,
            band_check("CONDITION_ROLL", "critical_conditions", "CONDITION ROLL"),
        )
    )
    return Section("Critical condition chart (1d4 after a chart 20)", tuple(fields))
