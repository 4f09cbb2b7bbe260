"""The 17 Combat missile rate of fire calculator (shots over N rounds): native formulas of
``pycalc.rulesets.combat17_rate_of_fire``."""

from __future__ import annotations

from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, list_input, working_field
from pycalc.sheets.combat17_cells import empty
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import by_label, list_mistake, optional_input
from pycalc.sheets.situation_cells import ruling_is
from pycalc.tables import RuleSet


def rate_of_fire_section(rules: RuleSet) -> Section:
    weapon = "ROF_WEAPON"
    every = by_label("rate_of_fire", "rounds_per_shot", weapon)
    reload = by_label("rate_of_fire", "reload_rounds", weapon)
    check = (
        f"IF(ISNA(MATCH({weapon},{T('rate_of_fire', 'label')},0)),{list_mistake(rules, 'weapon', 'rate_of_fire')},"
        f'IF(AND({empty(every)},OR(ROF_SIEGE_RATE="",SUM(ROF_SIEGE_RATE)<1)),"#RATE? fires once every how many rounds (1 or more)",'
        f'IF(SUM(ROF_ROUNDS)<0,"#ROUNDS? 0 or more","ok")))'
    )

    def shown(expr: str) -> str:
        return f'IF(ROF_CHECK<>"ok",ROF_CHECK,{expr})'

    return Section(
        "Missile rate of fire over N rounds",
        (
            list_input("Weapon", weapon, "rate_of_fire", "Light crossbow"),
            Field("Rounds of shooting", "ROF_ROUNDS", INPUT, 6),
            empty_input(
                "Siege weapon: fires once every N rounds", "ROF_SIEGE_RATE", help_text="e.g. 6 for 1/6"
            ),
            Field(
                "Fires once every (rounds)",
                "ROF_ROUNDS_PER_SHOT",
                native=shown(f"IF({empty(every)},SUM(ROF_SIEGE_RATE),{every})"),
            ),
            Field(
                "First shot in round",
                "ROF_FIRST_SHOT_ROUND",
                native=shown(
                    f"IF({ruling_is('rate_of_fire_start', 'loaded')},1,1+IF({empty(every)},SUM(ROF_SIEGE_RATE)-1,{reload}))"
                ),
            ),
            Field(
                "Shots",
                "ROF_SHOTS",
                key=True,
                native=shown(
                    "IF(SUM(ROF_ROUNDS)<ROF_FIRST_SHOT_ROUND,0,INT((SUM(ROF_ROUNDS)-ROF_FIRST_SHOT_ROUND)/ROF_ROUNDS_PER_SHOT)+1)"
                ),
                udf=f"combat17_shots(ROF_WEAPON,ROF_ROUNDS,{optional_input('ROF_SIEGE_RATE')})",
            ),
            Field(
                "Last shot in round",
                "ROF_LAST_SHOT_ROUND",
                native=shown('IF(ROF_SHOTS=0,"",ROF_FIRST_SHOT_ROUND+(ROF_SHOTS-1)*ROF_ROUNDS_PER_SHOT)'),
            ),
            working_field("Inputs entered correctly", "ROF_CHECK", check),
        ),
    )
