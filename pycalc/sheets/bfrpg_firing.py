"""The Basic Fantasy RPG Firing into melee calculator: native formulas of
``pycalc.rulesets.bfrpg_firing``."""

from __future__ import annotations

from pycalc.rulesets import bfrpg_firing as engine
from pycalc.sheets.bfrpg_formulas import FACES, hits, roll_bad
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, list_input
from pycalc.sheets.formulas import by_label, const, q
from pycalc.tables import RuleSet


def firing_section(rules: RuleSet) -> Section:
    roll, shot = "FIRE_ROLL", "FIRE_SHOT"
    stray = (
        f'AND({by_label("firing_into_melee", "near_miss", shot)}&""<>"",FIRE_MARGIN>=1,'
        f"FIRE_MARGIN<={const('ranged_rules', 'stray_hit_max_miss')})"
    )
    return Section(
        "Firing into melee",
        (
            list_input(
                "The shot", shot, "firing_into_melee", str(rules.table("firing_into_melee").rows[2].label)
            ),
            Field("Attack bonus (with DEX)", "FIRE_BONUS", INPUT, 2),
            Field("Target's AC", "FIRE_TARGET", INPUT, 14),
            Field("Other modifiers", "FIRE_MODS", INPUT, 0),
            empty_input("d20 roll", roll),
            Field(
                "Natural roll needed",
                "FIRE_NEED",
                native=f"SUM(FIRE_TARGET)-SUM(FIRE_BONUS)-(SUM(FIRE_MODS)+{by_label('firing_into_melee', 'hit', shot)})",
            ),
            Field(
                "Missed by",
                "FIRE_MARGIN",
                native=f'IF({roll}="","",IF({roll_bad(roll, FACES)},"",FIRE_NEED-{roll}))',
            ),
            Field(
                "Outcome",
                "FIRE_OUTCOME",
                key=True,
                native=f'IF({roll}="","",IF({roll_bad(roll, FACES)},"#ROLL? 1 to "&{FACES},IF({hits(roll, "FIRE_NEED")},'
                f"{q(engine.FIRE_HIT)},IF({stray},{q(engine.FIRE_STRAY)},{q(engine.FIRE_MISS)}))))",
                udf=f'IF({roll}="","",bfrpg_firing_outcome({shot},FIRE_BONUS,FIRE_TARGET,FIRE_MODS,{roll}))',
            ),
        ),
    )
