"""The OSR house rules surprise calculator (a d6 for each side): native formulas of
``pycalc.rulesets.osr_surprise``."""

from __future__ import annotations

from pycalc.sheets.calculator import INPUT, Field, Section, chance_field, empty_input
from pycalc.sheets.formulas import const
from pycalc.sheets.situation_cells import by_id, ruling_is
from pycalc.tables import RuleSet


def surprise_section(rules: RuleSet) -> Section:
    sides = const("surprise_rules", "surprise_die_sides")
    normal = const("surprise_rules", "normal_surprise_max")

    def top_face(surprises_on: str, surprised_on: str) -> str:
        shift = f"({normal}-SUM({surprised_on}))"
        shift = f"IF({ruling_is('surprise_range_adjustment', 'reduce_only')},MAX(0,{shift}),{shift})"
        return (
            f'IF(OR(SUM({surprises_on})<0,SUM({surprises_on})>{sides}),"#SURPRISES ON? 0 to "&{sides},'
            f'IF(OR(SUM({surprised_on})<0,SUM({surprised_on})>{sides}),"#SURPRISED ON? 0 to "&{sides},'
            f"MIN({sides},MAX(0,SUM({surprises_on})-{shift}))))"
        )

    def chance(top: str) -> str:
        return f"IF(ISNUMBER({top}),{top}/{sides},{top})"

    a_on_b, b_on_a = "SURPRISE_A_ON_B", "SURPRISE_B_ON_A"
    b_hit, a_hit = f"SURPRISE_ROLL_FOR_B<={a_on_b}", f"SURPRISE_ROLL_FOR_A<={b_on_a}"
    entry = (
        f'IF(AND({a_hit},{b_hit}),"both_surprised",IF({b_hit},"a_surprises_b",'
        f'IF({a_hit},"b_surprises_a","no_surprise")))'
    )
    outcome = (
        'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
        f"IF(NOT(ISNUMBER({a_on_b})),{a_on_b},IF(NOT(ISNUMBER({b_on_a})),{b_on_a},"
        f'IF(OR(SURPRISE_ROLL_FOR_B<1,SURPRISE_ROLL_FOR_B>{sides}),"#ROLL FOR B? 1 to "&{sides},'
        f'IF(OR(SURPRISE_ROLL_FOR_A<1,SURPRISE_ROLL_FOR_A>{sides}),"#ROLL FOR A? 1 to "&{sides},'
        f"{by_id('surprise_outcomes', 'result', entry)})))))"
    )
    normal_value = rules.constant("surprise_rules", "normal_surprise_max")
    return Section(
        "Surprise (d6 for each side)",
        (
            Field("Party A surprises others on 1 to", "SURPRISE_A_SURPRISES_ON", INPUT, normal_value),
            Field("Party A is normally surprised on 1 to", "SURPRISE_A_SURPRISED_ON", INPUT, normal_value),
            Field("Party B surprises others on 1 to", "SURPRISE_B_SURPRISES_ON", INPUT, normal_value),
            Field("Party B is normally surprised on 1 to", "SURPRISE_B_SURPRISED_ON", INPUT, normal_value),
            Field(
                "A surprises B on 1 to",
                a_on_b,
                key=True,
                native=top_face("SURPRISE_A_SURPRISES_ON", "SURPRISE_B_SURPRISED_ON"),
                udf="surprise_range(SURPRISE_A_SURPRISES_ON,SURPRISE_B_SURPRISED_ON)",
            ),
            Field(
                "B surprises A on 1 to",
                b_on_a,
                key=True,
                native=top_face("SURPRISE_B_SURPRISES_ON", "SURPRISE_A_SURPRISED_ON"),
                udf="surprise_range(SURPRISE_B_SURPRISES_ON,SURPRISE_A_SURPRISED_ON)",
            ),
            chance_field("Chance A surprises B", "SURPRISE_A_CHANCE", chance(a_on_b)),
            chance_field("Chance B surprises A", "SURPRISE_B_CHANCE", chance(b_on_a)),
            empty_input(
                "d6 rolled for A",
                "SURPRISE_ROLL_FOR_A",
                help_text="A is surprised when it is within B's range",
            ),
            empty_input("d6 rolled for B", "SURPRISE_ROLL_FOR_B"),
            Field(
                "Result",
                "SURPRISE_RESULT",
                key=True,
                native=outcome,
                udf=(
                    'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
                    f"osr_surprise_outcome({a_on_b},{b_on_a},SURPRISE_ROLL_FOR_B,SURPRISE_ROLL_FOR_A))"
                ),
            ),
        ),
    )
