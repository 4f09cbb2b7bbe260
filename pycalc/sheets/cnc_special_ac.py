"""The Castles & Crusades special AC calculators (disarm, grappling and overbearing, touch): native
formulas of ``pycalc.rulesets.cnc_special_ac``."""

from __future__ import annotations

from pycalc.rulesets.cnc import KIND_TABLE
from pycalc.rulesets.cnc_special_ac import GRAPPLE, OVERBEAR
from pycalc.sheets.calculator import BOOLEAN_FORMAT, INPUT, Field, Section, flag_input, working_field
from pycalc.sheets.common import ruling_name as ruling
from pycalc.sheets.formulas import by_label, const, plus
from pycalc.sheets.ruling_text import ruling_words
from pycalc.tables import RuleSet


def min_ac() -> str:
    return const("armor_class", "minimum_ac")


def disarm_section(rules: RuleSet) -> Section:
    dex = "SUM(DISARM_DEX)"
    dex_part = f'IF({ruling("disarm_dex")}="modifier",{dex},MAX(0,{dex}))'
    ac = (
        f"MAX({min_ac()},{const('disarm', 'disarm_base_ac')}+{const('disarm', 'disarm_ac_per_hd_or_level')}"
        f"*SUM(DISARM_LEVEL)+{dex_part})"
    )
    return Section(
        "Disarm",
        (
            Field("Defender's hit dice or level", "DISARM_LEVEL", INPUT, 5),
            Field(
                "Defender's Dex modifier",
                "DISARM_DEX",
                INPUT,
                0,
                help="ruling disarm_dex",
                help_formula=ruling_words(rules, "disarm_dex"),
            ),
            Field(
                "AC to hit to disarm",
                "DISARM_AC",
                key=True,
                native=f'IF(SUM(DISARM_LEVEL)<0,"#LEVEL? 0 or more",{ac})',
                udf="cnc_disarm_ac(DISARM_LEVEL,DISARM_DEX)",
            ),
        ),
    )


def grapple_section(rules: RuleSet) -> Section:
    kinds = rules.table(KIND_TABLE)
    labels = [str(kinds.entry(k).label) for k in (GRAPPLE, OVERBEAR)]
    kind = "GRAPPLE_KIND_ID"
    weights = rules.table("grapple_ac_modifiers")
    column = f'IF({kind}="{GRAPPLE}","grappling",{ruling("overbear_ac_modifiers")})'

    def weight(row_id: str) -> str:
        chosen = const(weights.id, row_id, weights.columns[-1].id)
        for col in reversed(weights.columns[:-1]):
            chosen = f'IF(GRAPPLE_COLUMN="{col.id}",{const(weights.id, row_id, col.id)},{chosen})'
        return chosen

    size_column = f'{ruling("grapple_size_direction")}="reversed"'

    def size_value(row_id: str) -> str:
        return (
            f"IF({size_column},{const('grapple_size_modifier', row_id, 'ac_reversed')},"
            f"{const('grapple_size_modifier', row_id, 'ac_as_written')})"
        )

    diff = "SUM(GRAPPLE_SIZE_DIFF)"
    size = f"IF({diff}>=0,{size_value('attacker_larger')}*{diff},{size_value('attacker_smaller')}*-{diff})"
    base = (
        f"IF(GRAPPLE_STR_PRIME=TRUE,{const('grapple_target_ac', 'strength_prime', 'ac')},"
        f"{const('grapple_target_ac', 'strength_not_prime', 'ac')})"
    )
    inputs = {
        "defender_str_modifier": "SUM(GRAPPLE_STR)",
        "defender_dex_modifier": "SUM(GRAPPLE_DEX)",
        "size_difference": "GRAPPLE_SIZE_AC",
        "defender_bth": "SUM(GRAPPLE_BTH)",
    }
    total = plus(base, *(f"{weight(row_id)}*{value}" for row_id, value in inputs.items()))
    bad = f'NOT(OR({kind}="{GRAPPLE}",{kind}="{OVERBEAR}"))'
    message = '"#KIND? Grapple or Overbear"'
    ac = (
        f'IF({bad},{message},IF(AND({kind}="{GRAPPLE}",{ruling("grapple_ac_reading")}="normal_ac"),'
        f"MAX({min_ac()},SUM(GRAPPLE_NORMAL_AC)),MAX({min_ac()},{total})))"
    )
    allowed = f'IF({bad},{message},IF({kind}="{GRAPPLE}",TRUE,-{diff}<={const("overbearing", "max_defender_size_larger")}))'
    adds = (
        f'OR({by_label(KIND_TABLE, "adds_bth", "GRAPPLE_KIND")},AND({kind}="{OVERBEAR}",'
        f'{ruling("overbear_attacker_bth")}="added"))'
    )
    roll_bonus = f"IF({bad},{message},SUM(GRAPPLE_ATTACKER_STR)+IF({adds},SUM(GRAPPLE_ATTACKER_BTH),0))"
    udf_defender = "GRAPPLE_KIND,GRAPPLE_STR_PRIME,GRAPPLE_STR,GRAPPLE_DEX,GRAPPLE_BTH,GRAPPLE_SIZE_DIFF,GRAPPLE_NORMAL_AC"
    return Section(
        "Grappling and overbearing",
        (
            Field("Attack", "GRAPPLE_KIND", INPUT, labels[0], options=",".join(labels)),
            flag_input("Strength is a prime of the defender", "GRAPPLE_STR_PRIME"),
            Field("Defender's Str modifier", "GRAPPLE_STR", INPUT, 0),
            Field("Defender's Dex modifier", "GRAPPLE_DEX", INPUT, 0),
            Field("Defender's BtH or hit dice", "GRAPPLE_BTH", INPUT, 0, help="counts for overbearing"),
            Field(
                "Attacker's size minus defender's (categories)",
                "GRAPPLE_SIZE_DIFF",
                INPUT,
                0,
                help="1 = attacker one size larger, -1 = one size smaller",
            ),
            Field(
                "Defender's normal AC",
                "GRAPPLE_NORMAL_AC",
                INPUT,
                10,
                help="used only under ruling grapple_ac_reading = normal_ac",
                help_formula=ruling_words(rules, "grapple_ac_reading", "grappling: "),
            ),
            Field("Attacker's Str modifier", "GRAPPLE_ATTACKER_STR", INPUT, 0),
            Field("Attacker's BtH", "GRAPPLE_ATTACKER_BTH", INPUT, 0),
            Field("Target AC", "GRAPPLE_AC", key=True, native=ac, udf=f"cnc_grapple_ac({udf_defender})"),
            Field(
                "Allowed (overbearing: defender not two sizes larger)",
                "GRAPPLE_ALLOWED",
                native=allowed,
                udf="cnc_grapple_allowed(GRAPPLE_KIND,GRAPPLE_SIZE_DIFF)",
                number_format=BOOLEAN_FORMAT,
            ),
            Field(
                "Attacker adds to the d20",
                "GRAPPLE_ROLL_BONUS",
                native=roll_bonus,
                help="Str, plus BtH (overbearing: ruling overbear_attacker_bth)",
                help_formula=ruling_words(rules, "overbear_attacker_bth", "overbearing: "),
            ),
            working_field(
                "Attack kind (id)", kind, f'IFERROR({by_label(KIND_TABLE, "id", "GRAPPLE_KIND")},"")'
            ),
            working_field("Modifier column in force", "GRAPPLE_COLUMN", column),
            working_field("AC from the size difference", "GRAPPLE_SIZE_AC", size),
        ),
    )


def touch_section(rules: RuleSet) -> Section:
    values = {
        "dex_modifier": "SUM(TOUCH_DEX)",
        "magic_protection": "SUM(TOUCH_MAGIC)",
        "armor": "SUM(TOUCH_ARMOR)",
        "shield": "SUM(TOUCH_SHIELD)",
    }
    table = "touch_attack_adjustments"
    terms = [
        f"IF(IF(TOUCH_MONSTER=TRUE,{const(table, row_id, 'monsters')},{const(table, row_id, 'characters')}),{value},0)"
        for row_id, value in values.items()
    ]
    ac = f"MAX({min_ac()},{plus(const('touch_attack_ac', 'touch_base_ac'), *terms)})"
    return Section(
        "Touch attack",
        (
            flag_input("The defender is a monster", "TOUCH_MONSTER"),
            Field("Defender's Dex modifier", "TOUCH_DEX", INPUT, 0),
            Field("Magic rings, robes, devices, spells (AC)", "TOUCH_MAGIC", INPUT, 0),
            Field("Armor bonus, magical armor included", "TOUCH_ARMOR", INPUT, 0, help="does not count"),
            Field("Shield bonus", "TOUCH_SHIELD", INPUT, 0, help="does not count"),
            Field(
                "AC against the touch",
                "TOUCH_AC",
                key=True,
                native=ac,
                udf="cnc_touch_ac(TOUCH_DEX,TOUCH_MONSTER,TOUCH_MAGIC,TOUCH_ARMOR,TOUCH_SHIELD)",
            ),
        ),
    )
