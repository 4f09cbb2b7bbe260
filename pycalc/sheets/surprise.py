"""The Surprise calculator (a die for each side) of a ruleset whose encounter block has ``surprise:``:
native formulas of ``pycalc.surprise``."""

from __future__ import annotations

from pycalc import surprise as engine
from pycalc.pickers import default_choice
from pycalc.sheets.block_formulas import expr
from pycalc.sheets.calculator import (
    INPUT,
    PICK,
    Field,
    Section,
    chance_field,
    empty_input,
    flag_input,
    list_input,
)
from pycalc.sheets.calculator import working_field as working
from pycalc.sheets.common import name_part
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import by_label, const, list_mistake, plus, q
from pycalc.tables import RuleSet


def surprises_on(side: str) -> str:
    return f"SURPRISE_{side}_SURPRISES_ON"


def surprised_on(side: str) -> str:
    return f"SURPRISE_{side}_SURPRISED_ON"


def pick(side: str) -> str:
    return f"SURPRISE_{side}_PICK"


def tick(side: str, row_id: str) -> str:
    return f"SURPRISE_{side}_{name_part(row_id)}"


def side_fields(rules: RuleSet, side: str) -> list[Field]:
    """A side's inputs: typed ranges, or a row picked and rows ticked (with the ranges they give)."""
    block = engine.block(rules)
    normally = engine.normally(rules)
    fields: list[Field] = []
    if block.surprises_on is None:
        fields.append(Field(f"Party {side} surprises others on 1 to", surprises_on(side), INPUT, normally))
    else:
        table_id, column = block.surprises_on
        fields.append(
            list_input(
                f"Party {side}", pick(side), table_id, default_choice(rules.table(table_id)), kind=PICK
            )
        )
        found = f"ISNA(MATCH({pick(side)},{T(table_id, 'label')},0))"
        title = str(rules.table(table_id).title)
        fields.append(
            working(
                f"Party {side} surprises others on 1 to",
                surprises_on(side),
                f"IF({found},{list_mistake(rules, title, table_id)},{by_label(table_id, column, pick(side))})",
            )
        )
    if block.adjustments is None:
        fields.append(
            Field(f"Party {side} is normally surprised on 1 to", surprised_on(side), INPUT, normally)
        )
    else:
        table_id, column = block.adjustments
        rows = rules.table(table_id).rows
        fields += [flag_input(f"Party {side}: {row.label}", tick(side, row.id), kind=PICK) for row in rows]
        ticked = (f"IF({tick(side, row.id)},{const(table_id, str(row.id), column)},0)" for row in rows)
        fields.append(
            working(
                f"Party {side} is surprised on 1 to (against a normal approach)",
                surprised_on(side),
                plus(expr(block.normally), *ticked),
            )
        )
    return fields


def top_face(rules: RuleSet, other: str, side: str) -> str:
    """The highest roll on which ``other`` surprises ``side`` (``pycalc.surprise.surprise_range``)."""
    block = engine.block(rules)
    die, raises = expr(block.die), expr(block.raises)
    on, by = f"SUM({surprises_on(other)})", f"SUM({surprised_on(side)})"
    easier = f"({by}-{expr(block.normally)})"
    easier = easier if raises == "TRUE" else f"IF({raises},{easier},MIN(0,{easier}))"
    checked = (
        f'IF(OR({on}<0,{on}>{die}),"#SURPRISES ON? 0 to "&{die},'
        f'IF(OR({by}<0,{by}>{die}),"#SURPRISED ON? 0 to "&{die},MIN({die},MAX(0,{on}+{easier}))))'
    )
    if block.surprises_on is None:
        return checked
    return f"IF(NOT(ISNUMBER({surprises_on(other)})),{surprises_on(other)},{checked})"


def outcome_text(rules: RuleSet, key: str) -> str:
    texts = engine.block(rules).outcomes
    return q(engine.OUTCOME_WORDS[key]) if texts is None else expr(texts[key])


def result(rules: RuleSet) -> str:
    die = expr(engine.block(rules).die)
    a_hit, b_hit = "SURPRISE_ROLL_FOR_A<=SURPRISE_B_ON_A", "SURPRISE_ROLL_FOR_B<=SURPRISE_A_ON_B"
    said = (
        f"IF(AND({a_hit},{b_hit}),{outcome_text(rules, 'both_surprised')},"
        f"IF({b_hit},{outcome_text(rules, 'a_surprises_b')},"
        f"IF({a_hit},{outcome_text(rules, 'b_surprises_a')},{outcome_text(rules, 'no_surprise')})))"
    )
    return (
        'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
        "IF(NOT(ISNUMBER(SURPRISE_A_ON_B)),SURPRISE_A_ON_B,IF(NOT(ISNUMBER(SURPRISE_B_ON_A)),SURPRISE_B_ON_A,"
        f'IF(OR(SURPRISE_ROLL_FOR_B<1,SURPRISE_ROLL_FOR_B>{die}),"#ROLL FOR B? 1 to "&{die},'
        f'IF(OR(SURPRISE_ROLL_FOR_A<1,SURPRISE_ROLL_FOR_A>{die}),"#ROLL FOR A? 1 to "&{die},{said})))))'
    )


def surprise_section(rules: RuleSet) -> Section:
    die = expr(engine.block(rules).die)

    def chance(top: str) -> str:
        return f"IF(ISNUMBER({top}),{top}/{die},{top})"

    def udf(other: str, side: str) -> str:
        return f'surprise_range("{rules.id}",{surprises_on(other)},{surprised_on(side)})'

    faces = engine.die(rules)
    return Section(
        f"Surprise (d{faces} for each side)",
        (
            *side_fields(rules, "A"),
            *side_fields(rules, "B"),
            Field(
                "A surprises B on 1 to",
                "SURPRISE_A_ON_B",
                key=True,
                native=top_face(rules, "A", "B"),
                udf=udf("A", "B"),
            ),
            Field(
                "B surprises A on 1 to",
                "SURPRISE_B_ON_A",
                key=True,
                native=top_face(rules, "B", "A"),
                udf=udf("B", "A"),
            ),
            chance_field("Chance A surprises B", "SURPRISE_A_CHANCE", chance("SURPRISE_A_ON_B")),
            chance_field("Chance B surprises A", "SURPRISE_B_CHANCE", chance("SURPRISE_B_ON_A")),
            empty_input(
                f"d{faces} rolled for A",
                "SURPRISE_ROLL_FOR_A",
                help_text="A is surprised when it is within B's range",
            ),
            empty_input(f"d{faces} rolled for B", "SURPRISE_ROLL_FOR_B"),
            Field(
                "Result",
                "SURPRISE_RESULT",
                key=True,
                native=result(rules),
                udf=(
                    'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
                    f'surprise_outcome("{rules.id}",SURPRISE_A_ON_B,SURPRISE_B_ON_A,SURPRISE_ROLL_FOR_A,SURPRISE_ROLL_FOR_B))'
                ),
            ),
        ),
    )
