"""The 17 Combat critical miss DEX check (the check a row of the chart after a natural 1 calls for, and
what follows; the chart's row itself is the Attack calculator's): native formulas of
``pycalc.rulesets.combat17_fumble``."""

from __future__ import annotations

from pycalc.rulesets import combat17_fumble as engine
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, working_field
from pycalc.sheets.combat17_cells import d20_check, empty
from pycalc.sheets.formulas import band, optional_input
from pycalc.sheets.roll_entry import attack_roll, follow_roll
from pycalc.sheets.situation_cells import by_id
from pycalc.tables import RuleSet


def fumble_section(rules: RuleSet) -> Section:
    check, dc = "FUMBLE_INPUT_CHECK", "FUMBLE_DEX_DC"

    def shown(expr: str) -> str:
        return f'IF({check}<>"ok",{check},{expr})'

    def row(column: str) -> str:
        return band("critical_misses", column, "FUMBLE_ROLL")

    dice = row("penalty_rounds")
    d = f'FIND("d",LOWER({dice}))'
    low = f"IF({d}=1,1,VALUE(LEFT({dice},{d}-1)))"
    high = f"{low}*VALUE(MID({dice},{d}+1,LEN({dice})))"
    condition = row("failed_check_condition")
    rounds = f'IF(FUMBLE_ROUNDS_ROLL="",{dice},IF(OR(FUMBLE_ROUNDS_ROLL<{low},FUMBLE_ROUNDS_ROLL>{high}),"#",FUMBLE_ROUNDS_ROLL))'
    failed = (
        f'IF({empty(condition)},IF({row("failed_check_free_attack")},"DEX check failed: the opponent gets a free attack",'
        f'"DEX check failed"),IF(FUMBLE_ROUNDS_TEXT="#","#ROUNDS ROLL? "&{low}&" to "&{high},'
        f'"DEX check failed: "&{by_id("attacker_conditions", "hit", condition)}&" to hit for "&FUMBLE_ROUNDS_TEXT&" rounds"))'
    )
    consequence = (
        f'IF({dc}="",{row("effect")},IF(FUMBLE_CHECK="","DEX check DC "&{dc}&" needed",'
        f'IF(FUMBLE_CHECK="{engine.CHECK_PASSED}","DEX check passed: just a miss",{failed})))'
    )
    dex_check = d20_check("FUMBLE_DEX_ROLL", "DEX ROLL")
    input_check = (
        f'IF({d20_check("FUMBLE_ROLL", "FOLLOW ROLL")}<>"ok",{d20_check("FUMBLE_ROLL", "FOLLOW ROLL")},'
        f'IF({dex_check}="","ok",{dex_check}))'
    )
    return Section(
        "DEX check after a critical miss (the chart row: Attack calculator)",
        (
            empty_input("Follow-up d20 on the critical miss chart", "FUMBLE_ROLL", roll=follow_roll(rules)),
            Field("Attacker's DEX bonus", "FUMBLE_DEX_BONUS", INPUT, 0),
            empty_input("d20 for the DEX check", "FUMBLE_DEX_ROLL", roll=attack_roll(rules)),
            empty_input("Rounds rolled for the penalty (1d2)", "FUMBLE_ROUNDS_ROLL"),
            Field(
                "DEX check DC", dc, native=shown(f'IF({empty(row("dex_check_dc"))},"",{row("dex_check_dc")})')
            ),
            Field(
                "DEX check",
                "FUMBLE_CHECK",
                native=shown(
                    f'IF(OR({dc}="",FUMBLE_DEX_ROLL=""),"",IF(FUMBLE_DEX_ROLL+SUM(FUMBLE_DEX_BONUS)>={dc},'
                    f'"{engine.CHECK_PASSED}","{engine.CHECK_FAILED}"))'
                ),
            ),
            Field(
                "What happens",
                "FUMBLE_CONSEQUENCE",
                key=True,
                native=shown(consequence),
                udf=(
                    'IF(FUMBLE_ROLL="","",combat17_fumble_outcome(FUMBLE_ROLL,FUMBLE_DEX_BONUS,'
                    f"{optional_input('FUMBLE_DEX_ROLL')},{optional_input('FUMBLE_ROUNDS_ROLL')}))"
                ),
            ),
            working_field("Rolls entered correctly", check, f'IF(FUMBLE_ROLL="","",{input_check})'),
            working_field(
                "Penalty rounds", "FUMBLE_ROUNDS_TEXT", f'IF({check}<>"ok","",IF({empty(dice)},"",{rounds}))'
            ),
        ),
    )
