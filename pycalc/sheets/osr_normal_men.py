"""The OSR house rules Normal Men calculator (the attacks per round against them, and how many those
attacks kill by the seed's shortcut): native formulas of ``pycalc.rulesets.osr_normal_men``."""

from __future__ import annotations

from pycalc.pickers import default_choice
from pycalc.sheets.calculator import INPUT, Field, Section, chance_field, list_input, working_field
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import (
    DICE_ERROR,
    by_label,
    const,
    dice_count,
    dice_modifier,
    dice_sides,
    list_mistake,
    optional_input,
    round_up,
)
from pycalc.sheets.situation_cells import by_id, ruling_is
from pycalc.tables import RuleSet


def normal_men_section(rules: RuleSet) -> Section:
    table = "attacker_kinds_vs_normal_men"
    kind_id = f"{by_label(table, 'id', 'NORMAL_MEN_KIND')}"
    row_id = f'IF(AND({kind_id}="other_pc",{ruling_is("normal_men_multiple_attacks", "all_pcs")}),"fighter_type",{kind_id})'
    level, attacks = "NORMAL_MEN_LEVEL", "NORMAL_MEN_ATTACKS"
    attacks_native = (
        f"IF(ISNA(MATCH(NORMAL_MEN_KIND,{T(table, 'label')},0)),{list_mistake(rules, 'kind', table)},"
        f'IF(SUM({level})<0,"#LEVEL? 0 or more",'
        f"IF(SUM({level})>{by_label(table, 'more_than', 'NORMAL_MEN_ROW')},"
        f"MAX({by_label(table, 'otherwise', 'NORMAL_MEN_ROW')},SUM({level})*{by_label(table, 'per_level_or_hd', 'NORMAL_MEN_ROW')}),"
        f"{by_label(table, 'otherwise', 'NORMAL_MEN_ROW')})))"
    )
    faces = const("to_hit_roll", "to_hit_die_sides")
    nat1, nat20 = const("natural_1_fumble", "natural_miss_roll"), const("natural_20_hit", "natural_hit_roll")
    hitting_faces = f"(1+MAX(0,{nat20}-MAX(KILLS_NEED,{nat1}+1)))"

    def mean(cell: str) -> str:
        return f"AVERAGE({dice_count(cell)},{dice_count(cell)}*{dice_sides(cell)})+{dice_modifier(cell)}"

    damage, hp = "KILLS_AVG_DAMAGE", "KILLS_AVG_HP"
    capped = f"{attacks}*{hitting_faces}*MIN({hp},{damage})/({faces}*{hp})"
    plain = f"{attacks}*{hitting_faces}*{damage}/({faces}*{hp})"
    kills = f"IF({ruling_is('expected_kills_method', 'one_per_hit_capped')},{capped},{plain})"
    kills = f"IF({ruling_is('expected_kills_rounding', 'up')},{round_up(kills)},{kills})"

    def guarded(expr: str) -> str:
        """The attacks' own mistake first (a kind or a level), then the dice's."""
        return (
            f"IF(NOT(ISNUMBER({attacks})),{attacks},IF(NOT(ISNUMBER({damage})),{DICE_ERROR},"
            f'IF(NOT(ISNUMBER({hp})),{DICE_ERROR},IF({hp}<=0,"#HP DICE? average hit points must be above 0",{expr}))))'
        )

    kills_udf = (
        f"osr_expected_kills({attacks},KILLS_NEED,KILLS_DAMAGE_DICE,{optional_input('KILLS_HP_DICE')})"
    )
    return Section(
        "Normal Men: attacks and kills per round (the seed's shortcut)",
        (
            list_input("Attacker", "NORMAL_MEN_KIND", table, default_choice(rules.table(table))),
            Field("XP level (monsters: whole HD)", level, INPUT, 8),
            Field("Natural d20 needed to hit them", "KILLS_NEED", INPUT, 7),
            Field(
                "Damage per hit",
                "KILLS_DAMAGE_DICE",
                INPUT,
                rules.table("damage_dice").value("normal_weapon", "dice"),
            ),
            Field(
                "Their hit points",
                "KILLS_HP_DICE",
                INPUT,
                rules.table("normal_men").value("normal_man_hit_points", "dice"),
            ),
            working_field(
                "Row used (ruling normal_men_multiple_attacks)",
                "NORMAL_MEN_ROW",
                f'IFERROR({by_id(table, "label", row_id)},"")',
            ),
            working_field("Average damage", damage, f'IFERROR({mean("KILLS_DAMAGE_DICE")},"")'),
            working_field("Average hit points", hp, f'IFERROR({mean("KILLS_HP_DICE")},"")'),
            Field(
                "Attacks per round",
                attacks,
                key=True,
                native=attacks_native,
                udf=f"osr_attacks_vs_normal_men(NORMAL_MEN_KIND,{level})",
            ),
            chance_field("Chance to hit", "KILLS_HIT_CHANCE", guarded(f"{hitting_faces}/{faces}")),
            Field("Hits per round", "KILLS_HITS", native=guarded(f"{attacks}*{hitting_faces}/{faces}")),
            Field(
                "Normal Men killed per round",
                "KILLS_PER_ROUND",
                key=True,
                native=guarded(kills),
                udf=f"IF(ISNUMBER({attacks}),{kills_udf},{attacks})",
                help="rulings expected_kills_method and expected_kills_rounding",
            ),
        ),
    )
