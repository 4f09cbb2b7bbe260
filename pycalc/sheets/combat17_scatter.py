"""The 17 Combat grenade-like missile calculator (where it lands): native formulas of
``pycalc.rulesets.combat17_scatter``."""

from __future__ import annotations

from pycalc.rulesets import combat17_scatter as engine
from pycalc.sheets.calculator import Field, Section, empty_input, flag_input, working_field
from pycalc.sheets.combat17_cells import band_check
from pycalc.sheets.formulas import band, const, q
from pycalc.sheets.situation_cells import ruling_is


def grenade_section() -> Section:
    def column(name: str) -> str:
        return band("grenade_scatter", name, "GRENADE_ROLL")

    square = const("grenade_missiles", "scatter_square_ft")
    again = f"AND({column('reinterpreted')},{ruling_is('grenade_missing_ten', 'reroll_ten')})"

    def shown(direct: str, value: str, rolled_again: str) -> str:
        return (
            f'IF(GRENADE_HIT=TRUE,{direct},IF(GRENADE_SCATTER_CHECK<>"ok",GRENADE_SCATTER_CHECK,'
            f"IF({again},{rolled_again},{value})))"
        )

    return Section(
        "Grenade-like missile: where it lands",
        (
            flag_input("The attack roll hit (direct hit)", "GRENADE_HIT"),
            empty_input("1d10 scatter roll (on a miss)", "GRENADE_ROLL"),
            Field(
                "Lands",
                "GRENADE_LANDS",
                key=True,
                native=shown(q(engine.DIRECT_HIT), column("direction"), q(engine.ROLL_AGAIN)),
                udf='IF(GRENADE_HIT=TRUE,"Direct hit",IF(GRENADE_ROLL="","",combat17_scatter(GRENADE_ROLL)))',
            ),
            Field(
                "Feet toward the thrower (negative: beyond)",
                "GRENADE_TOWARD_FT",
                native=shown("0", f"{column('toward_thrower')}*{square}", '""'),
            ),
            Field(
                "Feet to the thrower's right (negative: left)",
                "GRENADE_RIGHT_FT",
                native=shown("0", f"{column('to_right')}*{square}", '""'),
            ),
            Field(
                "Distance from the target (ft)",
                "GRENADE_DISTANCE_FT",
                native=shown(
                    "0", f"MAX(ABS({column('toward_thrower')}),ABS({column('to_right')}))*{square}", '""'
                ),
                udf='IF(GRENADE_HIT=TRUE,0,IF(GRENADE_ROLL="","",combat17_scatter_feet(GRENADE_ROLL,"distance")))',
            ),
            working_field(
                "Roll entered correctly",
                "GRENADE_SCATTER_CHECK",
                band_check("GRENADE_ROLL", "grenade_scatter", "SCATTER ROLL"),
            ),
        ),
    )
