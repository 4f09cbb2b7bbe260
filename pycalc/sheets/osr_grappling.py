"""The OSR house rules grappling contest calculator: native formulas of
``pycalc.rulesets.osr_grappling``."""

from __future__ import annotations

from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import table_name as T
from pycalc.sheets.formulas import const
from pycalc.tables import RuleSet


def grapple_section(rules: RuleSet) -> Section:
    sides = const("grappling_dice", "grappling_die_sides")

    def check(roll: str, hd: str, per: str, what: str) -> str:
        count = f"SUM({hd})*{const('grappling_dice', per)}"
        return (
            f'IF(SUM({hd})<1,"#{what} HD? 1 or more",'
            f'IF(OR(SUM({roll})<{count},SUM({roll})>{count}*{sides}),"#{what} ROLL? "&{count}&" to "&{count}*{sides},"")) '
        ).strip()

    guard = (
        f'IF({check("GRAPPLE_HERO_ROLL", "GRAPPLE_HERO_HD", "defender_d6_per_hd", "HERO")}<>"",'
        f"{check('GRAPPLE_HERO_ROLL', 'GRAPPLE_HERO_HD', 'defender_d6_per_hd', 'HERO')},"
        f'IF({check("GRAPPLE_GRAPPLERS_ROLL", "GRAPPLE_GRAPPLERS_HD", "grappler_d6_per_hd", "GRAPPLERS")}<>"",'
        f"{check('GRAPPLE_GRAPPLERS_ROLL', 'GRAPPLE_GRAPPLERS_HD', 'grappler_d6_per_hd', 'GRAPPLERS')},{{}}))"
    )
    margin = "SUM(GRAPPLE_HERO_ROLL)-SUM(GRAPPLE_GRAPPLERS_ROLL)"
    band = f"MATCH({margin},{T('grappling_result', 'from')},1)"
    stunned = f"INDEX({T('grappling_result', 'grapplers_stunned')},{band})"
    stun = f"IF({stunned},({margin})*{const('grappling_dice', 'stun_rounds_per_point')},0)"
    example = {r.id: r["value"] for r in rules.table("grappling_example").rows}
    return Section(
        "Grappling contest",
        (
            Field("Grappled hero's HD (XP level)", "GRAPPLE_HERO_HD", INPUT, example["ex_hero_hd"]),
            Field(
                "Grapplers' combined HD (those who hit)",
                "GRAPPLE_GRAPPLERS_HD",
                INPUT,
                example["ex_orcs_grappling"] * example["ex_orc_hd"],
            ),
            Field("Hero's roll (d6 per HD)", "GRAPPLE_HERO_ROLL", INPUT, example["ex_hero_roll"]),
            Field("Grapplers' combined roll", "GRAPPLE_GRAPPLERS_ROLL", INPUT, example["ex_grapplers_total"]),
            Field("Hero's roll minus theirs", "GRAPPLE_MARGIN", native=guard.format(margin)),
            Field(
                "Result",
                "GRAPPLE_OUTCOME",
                key=True,
                native=guard.format(f"INDEX({T('grappling_result', 'result')},{band})"),
                udf=guard.format("osr_grapple_result(GRAPPLE_HERO_ROLL,GRAPPLE_GRAPPLERS_ROLL)"),
            ),
            Field(
                "Rounds the grapplers are stunned",
                "GRAPPLE_STUNNED_ROUNDS",
                key=True,
                native=guard.format(stun),
                udf=guard.format("osr_grapple_stun_rounds(GRAPPLE_HERO_ROLL,GRAPPLE_GRAPPLERS_ROLL)"),
            ),
        ),
    )
