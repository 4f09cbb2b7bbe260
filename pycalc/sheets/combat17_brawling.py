"""The 17 Combat brawling calculator (punch or kick): native formulas of
``pycalc.rulesets.combat17_brawling``."""

from __future__ import annotations

from pycalc.rulesets import combat17 as engine
from pycalc.rulesets.combat17_brawling import ATTACKER, TARGET
from pycalc.sheets.calculator import (
    BOOLEAN_FORMAT,
    INPUT,
    Field,
    Section,
    empty_input,
    list_input,
    working_field,
)
from pycalc.sheets.combat17_cells import DiceCells, damage_formula, empty
from pycalc.sheets.common import ruling_name
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import by_label, list_mistake, q
from pycalc.sheets.situation_cells import by_id
from pycalc.tables import RuleSet

BRAWL_DICE_CELLS = DiceCells("BRAWL", "BRAWL_DICE")


def brawling_section(rules: RuleSet) -> Section:
    kind = "BRAWL_KIND"

    def value(column: str) -> str:
        found = by_label("brawling", column, kind)
        return (
            f"IF({empty(found)},{by_id('kick_damage_readings', column, ruling_name('kick_damage'))},{found})"
        )

    armour = f'IF(BRAWL_ARMOUR="",INDEX({T("brawling_armour", "label")},1),BRAWL_ARMOUR)'
    check = (
        f"IF(ISNA(MATCH({kind},{T('brawling', 'label')},0)),{list_mistake(rules, 'brawl', 'brawling')},"
        f'IF(ISNA(MATCH({armour},{T("brawling_armour", "label")},0)),{list_mistake(rules, "armour", "brawling_armour")},"ok"))'
    )

    def shown(expr: str) -> str:
        return f'IF(BRAWL_CHECK<>"ok",BRAWL_CHECK,{expr})'

    damage = damage_formula(
        rules,
        "regular_damage",
        "BRAWL_DAMAGE_ROLL",
        BRAWL_DICE_CELLS,
        extra=f"IF({value('adds_strength')},SUM(BRAWL_STR),0)",
    )
    return Section(
        "Brawling (punch or kick)",
        (
            list_input("Punch or kick", kind, "brawling", engine.default_choice(rules.table("brawling"))),
            Field("Attack bonus", "BRAWL_BONUS", INPUT, 2),
            Field("Target's Armor Class", "BRAWL_AC", INPUT, 12),
            Field("Other modifiers to the roll", "BRAWL_MODS", INPUT, 0),
            Field("Attacker's STR modifier", "BRAWL_STR", INPUT, 1),
            list_input(
                "Armour",
                "BRAWL_ARMOUR",
                "brawling_armour",
                engine.default_choice(rules.table("brawling_armour")),
            ),
            empty_input("Damage die shown", "BRAWL_DAMAGE_ROLL"),
            Field("Attack roll modifier", "BRAWL_HIT_MOD", native=shown(by_label("brawling", "hit", kind))),
            Field(
                "Natural d20 needed",
                "BRAWL_NEED",
                key=True,
                native=shown("SUM(BRAWL_AC)-SUM(BRAWL_BONUS)-SUM(BRAWL_MODS)-BRAWL_HIT_MOD"),
            ),
            Field("Damage dice", "BRAWL_DICE", native=shown(by_label("brawling", "damage", kind))),
            Field(
                "Non-lethal",
                "BRAWL_NON_LETHAL",
                native=shown(value("non_lethal")),
                number_format=BOOLEAN_FORMAT,
            ),
            Field(
                "Who takes the damage",
                "BRAWL_TAKES_DAMAGE",
                native=shown(
                    f"IF({by_label('brawling_armour', 'backfires', armour)},{q(ATTACKER)},{q(TARGET)})"
                ),
            ),
            Field(
                "Damage",
                "BRAWL_DAMAGE",
                key=True,
                native=shown(f'IF(BRAWL_DAMAGE_ROLL="","",{damage})'),
                udf='IF(BRAWL_DAMAGE_ROLL="","",combat17_brawl_damage(BRAWL_KIND,BRAWL_DAMAGE_ROLL,BRAWL_STR))',
            ),
            working_field("Inputs entered correctly", "BRAWL_CHECK", check),
            *BRAWL_DICE_CELLS.fields(),
        ),
    )
