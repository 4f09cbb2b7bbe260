"""Names and formula pieces shared by the bfrpg Combat maneuvers calculators (``pycalc.sheets.bfrpg_joust``,
``bfrpg_parry``): the die's faces (the generic Attack calculator's), a roll's
checks, dice cells, message templates."""

from __future__ import annotations

from pycalc.sheets.calculator import Field, working_field
from pycalc.sheets.formulas import dice_count, dice_modifier, dice_sides, q

FACES = "ATTACK_FACES"


def template(text: str, **exprs: str) -> str:
    """A message template of the engine as a formula: placeholders become ``"&expr&"``."""
    formula = q(text)
    for key, expr in exprs.items():
        formula = formula.replace("{" + key + "}", f'"&{expr}&"')
    return formula


def roll_bad(roll: str, faces: str) -> str:
    """TRUE when ``roll`` is not a whole number from 1 to ``faces`` (never an error value)."""
    return f"IF(ISNUMBER({roll}),OR({roll}<1,{roll}>{faces},{roll}<>INT({roll})),TRUE)"


def dice_fields(prefix: str, text: str, added: str = "0") -> tuple[Field, ...]:
    """Working cells <prefix>_COUNT/_SIDES/_MOD/_OK of a dice text (``pycalc.dice.parse``, one die or more)."""
    count, sides, mod = (f"{prefix}_{p}" for p in ("COUNT", "SIDES", "MOD"))
    return (
        working_field("Number of dice", count, f"IFERROR({dice_count(text)},0)"),
        working_field("Sides of each die", sides, f"IFERROR({dice_sides(text)},0)"),
        working_field("Added to the dice", mod, f"IFERROR({dice_modifier(text)}+{added},0)"),
        working_field(
            "Dice readable",
            f"{prefix}_OK",
            f"IF(ISERROR({dice_count(text)}+{dice_sides(text)}+{dice_modifier(text)}),FALSE,"
            f"AND({sides}>=1,{count}>=1))",
            flag=True,
        ),
    )


def damage_roll_check(roll: str, prefix: str, what: str) -> tuple[str, str]:
    """(condition, message) of ``pycalc.resolution_damage.check_damage_roll``."""
    count, sides = f"{prefix}_COUNT", f"{prefix}_SIDES"
    bad = f"OR({roll}<{count},{roll}>{count}*{sides})"
    return bad, f'"#{what}? "&{count}&" to "&{count}*{sides}'
