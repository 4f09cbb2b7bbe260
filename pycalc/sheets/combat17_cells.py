"""Working cells 17 Combat's own calculators share (``pycalc.sheets.combat17``): the check of a typed
band roll, the cells that read a dice text such as 1d6+2, and the damage of an outcome over
those cells (``pycalc.rulesets.combat17``'s ``damage``).
"""

from __future__ import annotations

from pycalc.sheets.calculator import Field, working_field
from pycalc.sheets.common import table_name as T
from pycalc.sheets.d20_formulas import own_calculator
from pycalc.sheets.formulas import DICE_ERROR, q
from pycalc.sheets.situation_cells import by_id
from pycalc.tables import RuleSet


def empty(expr: str) -> str:
    """TRUE when a looked-up value is an empty (null) cell."""
    return f"LEN({expr})=0"


def band_check(cell: str, table: str, what: str) -> str:
    low, high = f"MIN({T(table, 'from')})", f"MAX({T(table, 'to')})"
    message = f'"#{what}? "&{low}&" to "&{high}'
    return (
        f'IF({cell}="","",IF(NOT(ISNUMBER({cell})),{message},'
        f'IF(OR({cell}<{low},{cell}>{high}),{message},"ok")))'
    )


# --------------------------------------------------------------------------- dice text


class DiceCells:
    """Working cells that read a dice expression such as 1d6+2 (count, sides, modifier, error)."""

    def __init__(self, prefix: str, source: str) -> None:
        self.prefix, self.source = prefix, source
        self.text, self.d = f"{prefix}_DICE_TEXT", f"{prefix}_DICE_D"
        self.count, self.sides = f"{prefix}_DICE_COUNT", f"{prefix}_DICE_SIDES"
        self.modifier, self.error = f"{prefix}_DICE_MOD", f"{prefix}_DICE_ERROR"

    def fields(self) -> tuple[Field, ...]:
        text, d = self.text, self.d
        rest = f"MID({text},{d}+1,LEN({text}))"
        sign = f'IFERROR(FIND("+",{rest}),IFERROR(FIND("-",{rest}),0))'
        count = f"IF({d}=0,0,IF({d}=1,1,VALUE(LEFT({text},{d}-1))))"
        sides = f"IF({d}=0,0,IF({sign}=0,VALUE({rest}),VALUE(LEFT({rest},{sign}-1))))"
        modifier = f"IF({d}=0,VALUE({text}),IF({sign}=0,0,VALUE(MID({rest},{sign},LEN({rest})))))"
        plain = (
            f'AND(ISERROR(FIND(".",{text})),ISERROR(FIND("e",LOWER({text}))),ISERROR(FIND(",",{text})),'
            f"{self.count}=INT({self.count}),{self.sides}=INT({self.sides}),{self.modifier}=INT({self.modifier}),"
            f'{self.count}>=0,{self.sides}>=0,{text}<>"")'
        )
        error = (
            f"IF(IFERROR(NOT({plain}),TRUE),{DICE_ERROR},"
            f'IF(AND({d}>0,OR({self.count}<1,{self.sides}<1)),"#DICE? 1 to 1000 dice of at least 1 side",""))'
        )
        return (
            working_field("Dice text", self.text, f'SUBSTITUTE(TRIM({self.source}&"")," ","")'),
            working_field("Position of the d", self.d, f'IFERROR(FIND("d",LOWER({text})),0)'),
            working_field("Number of dice", self.count, f'IFERROR({count},"x")'),
            working_field("Sides of a die", self.sides, f'IFERROR({sides},"x")'),
            working_field("Modifier", self.modifier, f'IFERROR({modifier},"x")'),
            working_field("Dice problem", self.error, error),
        )


def damage_formula(rules: RuleSet, outcome: str, roll: str, dice: DiceCells, extra: str = "0") -> str:
    """engine.damage after the roll check ('' when the dice roll is still needed): the generic damage
    formula of an outcomes row (its id) over the dice cells, ``extra`` added to the dice's modifier."""
    rolls = own_calculator(
        rules,
        dice_count=dice.count,
        dice_sides=dice.sides,
        dice_mod=dice.modifier,
        sit_damage=extra,
        damage_bonus="0",
    )
    value = rolls.least_of(rolls.formula_amount(outcome, f"SUM({roll})"))
    rolled = rolls.coefficient(outcome, "dice_rolled")
    high = f"{dice.count}*{dice.sides}"
    checked = (
        f'IF({rolled}>0,IF(AND({dice.count}>0,{roll}=""),"",IF(OR(SUM({roll})<{dice.count},SUM({roll})>{high}),'
        f'"#DAMAGE ROLL? "&{dice.count}&" to "&{high},{value})),{value})'
    )
    return f"IF({by_id('outcomes', 'hits', q(outcome))},{checked},0)"
