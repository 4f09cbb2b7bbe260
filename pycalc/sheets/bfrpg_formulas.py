"""Names and formula pieces shared by the bfrpg Combat maneuvers calculators (``pycalc.sheets.bfrpg_critical``,
``bfrpg_joust``, ``bfrpg_parry``...): the die's names (its faces the generic Attack calculator's, the
rest written on the maneuvers sheet by ``pycalc.sheets.bfrpg``), a roll's checks, dice cells, message
templates."""

from __future__ import annotations

from pycalc.sheets.calculator import Field, working_field
from pycalc.sheets.common import ruling_name
from pycalc.sheets.formulas import dice_count, dice_modifier, dice_sides, q, round_up

FACES_LIST = "D20W_FACE"  # the faces of the die, one per row of the generic d20 workings (d20_heat.FACE)

FACES = "ATTACK_FACES"
FAIL_MAX = "ATTACK_FAIL_MAX"
ALWAYS_MIN = "ATTACK_ALWAYS_MIN"
MARGIN_MIN = "ATTACK_MARGIN_MIN"
THREAT_MIN = "ATTACK_THREAT_MIN"


def crit_rule(need: str) -> str:
    """See engine.critical_possible."""
    return f'IF({ruling_name("only_natural_20_hits")}="no_critical",{need}<{ALWAYS_MIN},{need}<={ALWAYS_MIN})'


def multiplied(
    value: str, fixed: str, double: str, mode: str = "1", water: str = "1", water_up: str = "FALSE"
) -> str:
    """The block's multiplier stages (``pycalc.resolution_damage.amount``): doubling (ruling
    critical_with_double_damage), then the two halvings."""
    doubled = (
        f'IF({ruling_name("critical_with_double_damage")}="double_roll_only",'
        f"(({value})-{fixed})*{double}+{fixed},({value})*{double})"
    )
    halved = f'IF({ruling_name("subdual_half_rounding")}="up",{round_up(f"({doubled})*{mode}")},INT(({doubled})*{mode}))'
    watered = f"IF({water_up},{round_up(f'({halved})*{water}')},INT(({halved})*{water}))"
    return f"MAX(0,{watered})"


def template(text: str, **exprs: str) -> str:
    """A message template of the engine as a formula: placeholders become ``"&expr&"``."""
    formula = q(text)
    for key, expr in exprs.items():
        formula = formula.replace("{" + key + "}", f'"&{expr}&"')
    return formula


def roll_bad(roll: str, faces: str) -> str:
    """TRUE when ``roll`` is not a whole number from 1 to ``faces`` (never an error value)."""
    return f"IF(ISNUMBER({roll}),OR({roll}<1,{roll}>{faces},{roll}<>INT({roll})),TRUE)"


def hits(roll: str, need: str) -> str:
    """A hit: the generic engine's ``resolve`` for bfrpg's block (natural 1 fails, natural 20 hits)."""
    return f"AND({roll}>{FAIL_MAX},OR({roll}-{need}>={MARGIN_MIN},{roll}>={ALWAYS_MIN}))"


def confirm_min(need: str) -> str:
    return f'MAX({need}+{MARGIN_MIN},IF({ruling_name("confirmation_natural_1")}="fails",{FAIL_MAX}+1,1))'


def dice_fields(prefix: str, text: str, added: str = "0") -> tuple[Field, ...]:
    """Working cells <prefix>_COUNT/_SIDES/_MOD/_OK of a dice text (``pycalc.rulesets.bfrpg.damage_dice``)."""
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
