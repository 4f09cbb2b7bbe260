"""The OSR house rules mass combat calculator (a unit fought as one man): native formulas of
``pycalc.rulesets.osr_mass_combat``."""

from __future__ import annotations

from pycalc.sheets.calculator import BOOLEAN_FORMAT, INPUT, Field, Section, empty_input
from pycalc.sheets.formulas import const, dice_sides, optional_input, round_up
from pycalc.sheets.situation_cells import by_id, ruling_is
from pycalc.tables import RuleSet


def mass_section(rules: RuleSet) -> Section:
    die = by_id("mass_combat", "dice", '"unit_damage_die"')
    sides = dice_sides(die)
    times = (
        f"IF({ruling_is('mass_combat_damage_multiplier', 'men_in_unit')},MASS_MEN,"
        f"{const('mass_combat', 'unit_damage_multiplier')})"
    )
    damage = (
        'IF(MASS_DAMAGE_ROLL="","",'
        f'IF(OR(MASS_DAMAGE_ROLL<1,MASS_DAMAGE_ROLL>{sides}),"#DAMAGE ROLL? 1 to "&{sides},'
        f'IF(AND({ruling_is("mass_combat_damage_multiplier", "men_in_unit")},SUM(MASS_MEN)<1),"#MEN? 1 or more",'
        f"MASS_DAMAGE_ROLL*{times})))"
    )
    survivors = (
        'IF(SUM(MASS_MEN)<1,"#MEN? 1 or more",IF(SUM(MASS_ORIGINAL_HP)<1,"#ORIGINAL HP? 1 or more",'
        'IF(MASS_HP_AFTER>MASS_ORIGINAL_HP,"#REMAINING HP? at most the original hit points",'
        f"IF(MASS_HP_AFTER<=0,0,{round_up('MASS_HP_AFTER*MASS_MEN/MASS_ORIGINAL_HP')}))))"
    )
    men = rules.constant("mass_combat", "unit_men")
    return Section(
        "Mass combat (a unit fought as one man)",
        (
            Field("Men in the unit", "MASS_MEN", INPUT, men, help="unit hit points: one d6 per man"),
            Field("Unit's original hit points", "MASS_ORIGINAL_HP", INPUT, 40),
            Field("Unit's hit points before this hit", "MASS_HP_BEFORE", INPUT, 40),
            empty_input(
                "d6 thrown for the hit", "MASS_DAMAGE_ROLL", help_text="one hit throw per unit per round"
            ),
            Field(
                "Hit points lost",
                "MASS_DAMAGE_DEALT",
                key=True,
                native=damage,
                udf=f'IF(MASS_DAMAGE_ROLL="","",osr_mass_damage(MASS_DAMAGE_ROLL,{optional_input("MASS_MEN")}))',
            ),
            Field(
                "Unit's hit points now",
                "MASS_HP_AFTER",
                native="IF(ISNUMBER(MASS_DAMAGE_DEALT),MAX(0,SUM(MASS_HP_BEFORE)-MASS_DAMAGE_DEALT),SUM(MASS_HP_BEFORE))",
            ),
            Field("Slain to a man", "MASS_SLAIN", native="MASS_HP_AFTER<=0", number_format=BOOLEAN_FORMAT),
            Field(
                "Men left alive",
                "MASS_SURVIVORS_LEFT",
                key=True,
                native=survivors,
                udf=f"mass_survivors(MASS_ORIGINAL_HP,MASS_HP_AFTER,{optional_input('MASS_MEN')})",
                help="one per tenth of the original hit points left, fractions up",
            ),
        ),
    )
