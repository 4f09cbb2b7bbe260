"""The OSR house rules save calculators (Save vs Paralysis after a maneuver, spellcaster hit while
casting): native formulas of ``pycalc.rulesets.osr_saves``."""

from __future__ import annotations

from pycalc.rulesets.osr_saves import SAVE_FAILED, SAVE_MADE
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, list_input, working_field
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import by_label, const, list_mistake, optional_input
from pycalc.tables import RuleSet


def save_section(rules: RuleSet) -> Section:
    table = "special_maneuvers"
    found = f"ISNA(MATCH(SAVE_MANEUVER,{T(table, 'label')},0))"
    saver = by_label(table, "saver", "SAVE_MANEUVER")
    row_error = f'IF({found},{list_mistake(rules, "maneuver", table)},IF({saver}="","#MANEUVER? no save for this one",""))'
    gap = (
        'IF(OR(SUM(SAVE_SAVER_LEVEL)<0,SUM(SAVE_ATTACKER_LEVEL)<0),"#LEVEL? 0 or more",'
        f"INT(MAX(0,SUM(SAVE_SAVER_LEVEL)-SUM(SAVE_ATTACKER_LEVEL))/{const('level_gap_save_bonus', 'levels_per_step')})"
        f"*{const('level_gap_save_bonus', 'save_bonus_per_step')})"
    )
    modifier = (
        f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,'
        f"IF({by_label(table, 'level_gap_bonus', 'SAVE_MANEUVER')},SAVE_LEVEL_GAP_BONUS,0)"
        f"-IF({by_label(table, 'minus_target_str_bonus', 'SAVE_MANEUVER')},SUM(SAVE_TARGET_STR_BONUS),0))"
    )
    modifier = (
        f'IF(AND(SAVE_ROW_ERROR="",NOT(ISNUMBER(SAVE_LEVEL_GAP_BONUS))),SAVE_LEVEL_GAP_BONUS,{modifier})'
    )
    default = next(str(r.label) for r in rules.table(table).rows if r["level_gap_bonus"])
    return Section(
        "Save vs Paralysis after a maneuver (level-gap bonus)",
        (
            list_input("Maneuver", "SAVE_MANEUVER", table, default),
            Field("Level of the one saving", "SAVE_SAVER_LEVEL", INPUT, 7),
            Field("Attacker's level", "SAVE_ATTACKER_LEVEL", INPUT, 1),
            Field(
                "Whip target's STR bonus",
                "SAVE_TARGET_STR_BONUS",
                INPUT,
                0,
                help="subtracted from the whip wielder's save",
            ),
            working_field("Maneuver check", "SAVE_ROW_ERROR", row_error),
            Field(
                "Level-gap bonus (+1 per 3 levels above)",
                "SAVE_LEVEL_GAP_BONUS",
                native=gap,
                udf="osr_level_gap_save_bonus(SAVE_SAVER_LEVEL,SAVE_ATTACKER_LEVEL)",
            ),
            Field("Who saves", "SAVE_WHO", native=f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,{saver})'),
            Field(
                "Added to the save",
                "SAVE_MODIFIER",
                key=True,
                native=modifier,
                udf="osr_maneuver_save_modifier(SAVE_MANEUVER,SAVE_SAVER_LEVEL,SAVE_ATTACKER_LEVEL,SAVE_TARGET_STR_BONUS)",
            ),
            Field(
                "What the maneuver does",
                "SAVE_EFFECT",
                native=f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,{by_label(table, "effect", "SAVE_MANEUVER")})',
            ),
        ),
    )


def spell_section(rules: RuleSet) -> Section:
    table = "spell_interruption"
    low, high = (
        f"MIN({T('spell_interruption_failure', 'from')})",
        f"MAX({T('spell_interruption_failure', 'to')})",
    )

    def col(column: str) -> str:
        return by_label(table, column, "SPELL_SITUATION")

    band = f"INDEX({T('spell_interruption_failure', 'outcome')},MATCH(SPELL_D6,{T('spell_interruption_failure', 'from')},1))"
    outcome = (
        f"IF(ISNA(MATCH(SPELL_SITUATION,{T(table, 'label')},0)),{list_mistake(rules, 'situation', table)},"
        f'IF(OR(NOT({col("save_vs_paralysis")}),SPELL_SAVE=""),{col("result")},'
        f'IF(UPPER(SPELL_SAVE)=UPPER("{SAVE_MADE}"),{col("if_save_made")},'
        f'IF(UPPER(SPELL_SAVE)<>UPPER("{SAVE_FAILED}"),"#SAVE? {SAVE_MADE} or {SAVE_FAILED}",'
        f'IF(SPELL_D6="",{col("if_save_failed")},'
        f'IF(OR(SPELL_D6<{low},SPELL_D6>{high}),"#D6? "&{low}&" to "&{high},{band}))))))'
    )
    return Section(
        "Spellcaster hit while casting",
        (
            list_input(
                "Situation",
                "SPELL_SITUATION",
                table,
                str(rules.table(table).entry("simultaneous_initiative").label),
            ),
            Field(
                "Save vs Paralysis (add PSY bonus)",
                "SPELL_SAVE",
                INPUT,
                None,
                options=f"{SAVE_MADE},{SAVE_FAILED}",
            ),
            empty_input("d6 after a failed save", "SPELL_D6"),
            Field(
                "What happens",
                "SPELL_OUTCOME",
                key=True,
                native=outcome,
                udf=f"osr_spell_interruption(SPELL_SITUATION,{optional_input('SPELL_SAVE')},{optional_input('SPELL_D6')})",
            ),
        ),
    )
