"""The Basic Fantasy RPG Parry and block calculator: native formulas of ``pycalc.rulesets.bfrpg_parry``."""

from __future__ import annotations

from pycalc.rulesets import bfrpg_parry as engine
from pycalc.sheets.bfrpg_formulas import damage_roll_check, dice_fields, roll_bad
from pycalc.sheets.calculator import (
    INPUT,
    Field,
    Section,
    empty_input,
    flag_input,
    list_input,
    working_field,
)
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import by_label, const, plus, q
from pycalc.sheets.ruling_text import ruling_words
from pycalc.tables import RuleSet


def parry_section(rules: RuleSet) -> Section:
    stance, with_ = "PARRY_STANCE", "PARRY_WITH"
    klass = "PARRY_CLASS"
    per_round = by_label("defense_stance", "parries_per_round", stance)
    allowed = (
        f'IF({per_round}="","",IF(AND({klass}="{engine.FIGHTER}",{per_round}>0),'
        f"MAX({per_round},SUM(PARRY_LEVEL)*{const('parry_rules', 'fighter_parries_per_level')}),{per_round}))"
    )
    class_ok = "OR(" + ",".join(f'{klass}="{c}"' for c in engine.CLASSES) + ")"
    total = plus(
        "SUM(PARRY_AB)",
        by_label("parry_with", "parry_bonus", with_),
        by_label("defense_stance", "parry_bonus", stance),
        f'IF({ruling_name("parry_includes_str")}="with_str",SUM(PARRY_STR),0)',
        f"(SUM(PARRY_NUMBER)-1)*{by_label('defense_stance', 'extra_parry_penalty', stance)}",
        f"IF(PARRY_RANGED,{const('parry_rules', 'ranged_parry_penalty')},0)",
    )
    bonus = (
        f'IF(NOT({class_ok}),"#CLASS? use {", ".join(engine.CLASSES)}",'
        f'IF(PARRY_ALLOWED=0,"#STANCE? parry only in partial or total defense",'
        f'IF({by_label("parry_with", "block_dice", with_)}="","#PARRY WITH? a weapon or a shield",'
        f'IF(SUM(PARRY_NUMBER)<1,"#PARRY NUMBER? 1 or more",'
        f'IF(AND(PARRY_ALLOWED<>"",SUM(PARRY_NUMBER)>PARRY_ALLOWED),"#PARRIES? at most "&PARRY_ALLOWED&" this round",'
        f'IF(AND(PARRY_RANGED,NOT(AND({by_label("parry_with", "can_parry_ranged", with_)},{klass}="{engine.FIGHTER}"))),'
        f'"#RANGED? only fighters with shields parry ranged attacks",{total}))))))'
    )
    parry_faces = const("parry_rules", "parry_die_faces")
    bad_block, block_message = damage_roll_check("BLOCK_ROLL", "BLOCK_DICE", "BLOCK ROLL")
    magic = f'OR({by_label("parry_with", "block_adds_magic", with_)},{ruling_name("block_magic_bonus")}="weapon_or_shield")'
    block = plus(
        "BLOCK_ROLL",
        "BLOCK_DICE_MOD",
        "SUM(PARRY_STR)",
        f"IF({magic},SUM(BLOCK_MAGIC),0)",
        f'IF(OR({klass}="{engine.FIGHTER}",{klass}="{engine.CLERIC}"),SUM(PARRY_LEVEL)*{const("parry_rules", "block_bonus_per_level")},0)',
    )
    return Section(
        "Parry and block",
        (
            list_input(
                "Defensive stance this round",
                stance,
                "defense_stance",
                str(rules.table("defense_stance").rows[1].label),
            ),
            list_input("Parry with", with_, "parry_with", str(rules.table("parry_with").rows[1].label)),
            Field("Class", klass, INPUT, engine.OTHER_CLASS, options=",".join(engine.CLASSES)),
            Field("Level", "PARRY_LEVEL", INPUT, 1),
            Field("Attack bonus (specialization included)", "PARRY_AB", INPUT, 2),
            Field(
                "Strength bonus",
                "PARRY_STR",
                INPUT,
                0,
                help="added to the block; to the parry by ruling",
                help_formula=ruling_words(rules, "parry_includes_str", "the parry adds "),
            ),
            Field("This is parry number (this round)", "PARRY_NUMBER", INPUT, 1),
            flag_input("Parrying a ranged attack", "PARRY_RANGED"),
            empty_input("Attacker's attack roll total", "PARRY_ATTACK_TOTAL"),
            empty_input("Parry d20 roll", "PARRY_ROLL"),
            Field("Shield's magic bonus", "BLOCK_MAGIC", INPUT, 0),
            empty_input("Block roll (d4 weapon, d8 shield)", "BLOCK_ROLL"),
            Field(
                "Attacker's damage",
                "BLOCK_DAMAGE",
                INPUT,
                None,
                help="see ruling block_damage_basis",
                help_formula=ruling_words(rules, "block_damage_basis", "type "),
            ),
            working_field("Parries allowed this round (blank = every attack)", "PARRY_ALLOWED", allowed),
            Field(
                "Parry roll bonus",
                "PARRY_BONUS",
                native=bonus,
                udf="bfrpg_parry_bonus(PARRY_STANCE,PARRY_WITH,PARRY_AB,PARRY_STR,PARRY_NUMBER,PARRY_CLASS,PARRY_LEVEL,PARRY_RANGED)",
            ),
            Field(
                "Parry total",
                "PARRY_TOTAL",
                native=f'IF(NOT(ISNUMBER(PARRY_BONUS)),"",IF(PARRY_ROLL="","",IF({roll_bad("PARRY_ROLL", parry_faces)},'
                f'"#ROLL? 1 to "&{parry_faces},PARRY_ROLL+PARRY_BONUS)))',
            ),
            Field(
                "Parry succeeds",
                "PARRY_SUCCESS",
                key=True,
                native='IF(NOT(ISNUMBER(PARRY_TOTAL)),"",IF(PARRY_ATTACK_TOTAL="","",'
                f"PARRY_TOTAL-SUM(PARRY_ATTACK_TOTAL)>={const('parry_rules', 'parry_must_exceed_attack_by')}))",
            ),
            Field(
                "Block total",
                "BLOCK_TOTAL",
                native=f'IF(PARRY_SUCCESS<>TRUE,"",IF(BLOCK_ROLL="","",IF({bad_block},{block_message},{block})))',
            ),
            Field(
                "Block result",
                "BLOCK_RESULT",
                key=True,
                native='IF(NOT(ISNUMBER(BLOCK_TOTAL)),"",IF(BLOCK_DAMAGE="","",IF(OR(BLOCK_TOTAL>BLOCK_DAMAGE,'
                f'AND(BLOCK_TOTAL=BLOCK_DAMAGE,{ruling_name("block_tie")}="absorbed")),'
                f"{q(engine.BLOCK_ABSORBED)},{q(engine.BLOCK_FULL)})))",
            ),
            Field(
                "Damage taken",
                "BLOCK_DAMAGE_TAKEN",
                key=True,
                native=f'IF(BLOCK_RESULT="","",IF(BLOCK_RESULT={q(engine.BLOCK_ABSORBED)},0,BLOCK_DAMAGE))',
            ),
            *dice_fields("BLOCK_DICE", by_label("parry_with", "block_dice", with_)),
        ),
    )
