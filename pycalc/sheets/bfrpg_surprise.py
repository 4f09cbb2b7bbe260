"""The Basic Fantasy RPG Surprise calculator: native formulas of ``pycalc.rulesets.bfrpg_surprise``."""

from __future__ import annotations

from pycalc.rulesets import bfrpg as engine  # default_choice: the picker's first row
from pycalc.sheets.bfrpg_formulas import roll_bad
from pycalc.sheets.calculator import PICK, Field, Section, chance_field, empty_input, flag_input, list_input
from pycalc.sheets.formulas import by_label, const, plus
from pycalc.tables import RuleSet


def surprise_tick(row_id: str) -> str:
    return f"SURPRISE_{row_id.upper()}"


def surprise_section(rules: RuleSet) -> Section:
    table = rules.table("surprise_adjustments")
    adjust = plus(
        *(f"IF({surprise_tick(r.id)},{const(table.id, r.id, 'surprised_max')},0)" for r in table.rows)
    )
    die = const("surprise_roll", "surprise_die_faces")
    ticks = [flag_input(str(r.label), surprise_tick(r.id), kind=PICK) for r in table.rows]
    udf_ticks = ",".join(surprise_tick(r.id) for r in table.rows)
    return Section(
        "Surprise (1d6 per side)",
        (
            list_input(
                "Situation",
                "SURPRISE_SITUATION",
                "surprise_range",
                engine.default_choice(rules.table("surprise_range")),
                kind=PICK,
            ),
            *ticks,
            empty_input("Surprise d6 roll", "SURPRISE_ROLL"),
            Field(
                "Surprised on 1 to",
                "SURPRISE_MAX",
                key=True,
                native=f"MAX(0,{by_label('surprise_range', 'surprised_max', 'SURPRISE_SITUATION')}+{adjust})",
                udf=f"bfrpg_surprise_max(SURPRISE_SITUATION,{udf_ticks})",
            ),
            chance_field("Chance of being surprised", "SURPRISE_ODDS", f"MIN(SURPRISE_MAX,{die})/{die}"),
            Field(
                "Surprised",
                "SURPRISED",
                key=True,
                native=f'IF(SURPRISE_ROLL="","",IF({roll_bad("SURPRISE_ROLL", die)},"#ROLL? 1 to "&{die},SURPRISE_ROLL<=SURPRISE_MAX))',
            ),
        ),
    )
