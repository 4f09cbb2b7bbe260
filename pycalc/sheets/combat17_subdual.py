"""The 17 Combat non-lethal (subdual) damage and knock-out calculator: native formulas of
``pycalc.rulesets.combat17_subdual``."""

from __future__ import annotations

from pycalc.rulesets import combat17_subdual as engine
from pycalc.sheets.calculator import INPUT, Field, Section, flag_input
from pycalc.sheets.formulas import const, round_down, round_up
from pycalc.sheets.situation_cells import ruling_is


def subdual_section() -> Section:
    factor = const("attack_situation", "flat_of_blade", "damage_multiplier")
    half = f"SUM(SUBDUAL_DAMAGE)*{factor}"
    zero = const("zero_hit_points", "zero_hp_threshold")

    def hp(entry: str, column: str) -> str:
        return const("zero_hit_points", entry, column)

    wake = (
        f'"wakes with "&{hp("wake_hp", "value")}&" "&{hp("wake_hp", "unit")}&" after "&{hp("wake_after", "dice")}'
        f'&" "&{hp("wake_after", "unit")}&", or can be revived after "&{hp("revive_after", "dice")}&" "&{hp("revive_after", "unit")}'
    )
    flat = "SUBDUAL_FLAT=TRUE"
    state = (
        f'IF(SUBDUAL_UNCONSCIOUS=TRUE,IF(SUBDUAL_DAMAGE_DEALT>0,"{engine.DEAD}","{engine.UNCONSCIOUS}"),'
        f'IF(SUBDUAL_HP_AFTER>{zero},"{engine.CONSCIOUS}",IF(OR({flat},SUBDUAL_EARLIER=TRUE),"{engine.UNCONSCIOUS}","{engine.DEAD}")))'
    )
    return Section(
        "Non-lethal (subdual) damage and knock-out",
        (
            Field("Target's hit points now", "SUBDUAL_HP", INPUT, 6),
            Field("Damage rolled (normal damage)", "SUBDUAL_DAMAGE", INPUT, 7),
            flag_input("Flat of the blade (non-lethal)", "SUBDUAL_FLAT", True),
            flag_input("Target has taken non-lethal damage before", "SUBDUAL_EARLIER"),
            flag_input("Target is already unconscious", "SUBDUAL_UNCONSCIOUS"),
            Field(
                "Attack roll modifier",
                "SUBDUAL_HIT_MOD",
                native=f"IF({flat},{const('attack_situation', 'flat_of_blade', 'hit')},0)",
            ),
            Field(
                "Damage dealt",
                "SUBDUAL_DAMAGE_DEALT",
                key=True,
                native=f"IF({flat},IF({ruling_is('subdual_half_rounding', 'down')},{round_down(half)},{round_up(half)}),SUM(SUBDUAL_DAMAGE))",
                udf="IF(SUBDUAL_FLAT=TRUE,combat17_subdual_damage(SUBDUAL_DAMAGE),SUM(SUBDUAL_DAMAGE))",
            ),
            Field("Hit points after", "SUBDUAL_HP_AFTER", native="SUM(SUBDUAL_HP)-SUBDUAL_DAMAGE_DEALT"),
            Field(
                "Target is",
                "SUBDUAL_STATE",
                key=True,
                native=state,
                udf="combat17_subdual_state(SUBDUAL_HP,SUBDUAL_DAMAGE,SUBDUAL_FLAT,SUBDUAL_EARLIER,SUBDUAL_UNCONSCIOUS)",
            ),
            Field("Waking up", "SUBDUAL_WAKE", native=f'IF(SUBDUAL_STATE="{engine.UNCONSCIOUS}",{wake},"")'),
        ),
    )
