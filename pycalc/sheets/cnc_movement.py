"""The Castles & Crusades movement and charge calculators: native formulas of
``pycalc.rulesets.cnc_movement``."""

from __future__ import annotations

from pycalc.resolution_range import BAD_DISTANCE
from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import ruling_name as ruling
from pycalc.sheets.formulas import const, optional_input, q
from pycalc.sheets.ruling_text import ruling_words
from pycalc.tables import RuleSet

MOVE_ACTIONS = ("attack", "walk", "jog", "run")  # combat_actions rows shown by the Movement calculator


def scaled(rate: str, factor: str) -> str:
    """rate x factor, fractions dropped, at least 1 ft unless the factor is 0 (engine: scaled_rate)."""
    return f"IF({factor}=0,0,MAX({const('movement_rules', 'min_rate_ft')},INT({rate}*{factor})))"


def movement_section(rules: RuleSet) -> Section:
    mr = "movement_rules"
    cap = const(mr, "max_terrain_reduction")
    limit = f'IF({ruling("movement_reduction_limit")}="reduced_by",{cap},1-{cap})'
    reduction = "SUM(MOVE_REDUCTION)"
    now = (
        f'IF(OR(NOT(ISNUMBER(MOVE_RATE)),SUM(MOVE_RATE)<=0),"#RATE? more than 0 ft",'
        f'IF(OR({reduction}<0,{reduction}>1),"#REDUCTION? 0 to 1 (0.5 = half)",'
        f"MAX({const(mr, 'min_rate_ft')},INT(MOVE_RATE*(1-MIN({reduction},{limit}))),MIN(MOVE_RATE,{const(mr, 'min_move_ft')}))))"
    )
    actions = rules.table("combat_actions")
    fields = [
        Field("Movement rate (ft)", "MOVE_RATE", INPUT, 30),
        Field(
            "Castle Keeper's reduction (0.5 = half)",
            "MOVE_REDUCTION",
            INPUT,
            0,
            help="terrain, obstacles, injuries; capped by ruling movement_reduction_limit",
            help_formula=ruling_words(rules, "movement_reduction_limit", "at most: "),
        ),
        Field("Movement rate now (ft)", "MOVE_RATE_NOW", key=True, native=now),
    ]
    for action_id in MOVE_ACTIONS:
        label = str(actions.entry(action_id).label)
        factor = const("combat_actions", action_id, "max_move")
        fields.append(
            Field(
                f"{label}: up to (ft)",
                f"MOVE_{action_id.upper()}",
                native=f"IF(ISNUMBER(MOVE_RATE_NOW),{scaled('MOVE_RATE_NOW', factor)},MOVE_RATE_NOW)",
                udf=f'cnc_movement(MOVE_RATE,"{label}",{optional_input("MOVE_REDUCTION")})',
            )
        )
    fields.append(
        Field(
            "Inches, hexes or squares",
            "MOVE_SQUARES",
            native=f"IF(ISNUMBER(MOVE_RATE_NOW),INT(MOVE_RATE_NOW/{const(mr, 'grid_divisor')}),MOVE_RATE_NOW)",
            udf="IF(ISNUMBER(MOVE_RATE_NOW),cnc_grid_squares(MOVE_RATE_NOW),MOVE_RATE_NOW)",
        )
    )
    return Section("Movement rates", tuple(fields))


def charge_section() -> Section:
    bad = "OR(NOT(ISNUMBER(CHARGE_RATE)),SUM(CHARGE_RATE)<=0)"
    message = '"#RATE? more than 0 ft"'
    least = scaled("CHARGE_RATE", const("combat_actions", "charge", "min_move"))
    most = scaled("CHARGE_RATE", const("combat_actions", "charge", "max_move"))
    verdict = (
        f"IF({bad},{message},IF(SUM(CHARGE_DISTANCE)<0,{q(BAD_DISTANCE)},"
        'IF(SUM(CHARGE_DISTANCE)<CHARGE_MIN,"Too close: at least "&CHARGE_MIN&" ft",'
        'IF(SUM(CHARGE_DISTANCE)>CHARGE_MAX,"Too far: at most "&CHARGE_MAX&" ft","Yes"))))'
    )
    return Section(
        "Charge",
        (
            Field("Charger's movement rate (ft)", "CHARGE_RATE", INPUT, 30),
            Field("Distance to the target (ft)", "CHARGE_DISTANCE", INPUT, 40),
            Field("Least distance (the movement rate)", "CHARGE_MIN", native=f"IF({bad},{message},{least})"),
            Field("Most distance (the jogging rate)", "CHARGE_MAX", native=f"IF({bad},{message},{most})"),
            Field(
                "Can charge",
                "CHARGE_OK",
                key=True,
                native=verdict,
                udf="cnc_charge_window(CHARGE_RATE,CHARGE_DISTANCE)",
                help="+2 damage, -4 AC for the round",
            ),
        ),
    )
