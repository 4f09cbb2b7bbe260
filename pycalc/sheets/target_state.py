"""The Attack calculator's target state after the hit (``pycalc.hit_point_states.state_after_hit``), which its
one line names: the kind of damage (empty: normal, or the ruleset's subdual kind, which the picks that
deal subdual damage set too), the subdual damage the target has taken so far, and the state the
hit-point states table gives (knocked out rather than dying where the subdual damage keeps the target
above 0). A log row feeds the same cells: its Kind and the target's subdual damage before the row.
"""

from __future__ import annotations

from pycalc.damage_kinds import labels
from pycalc.encounter_block import SUBDUAL, encounter
from pycalc.resolution_calculator import TARGET_STATE
from pycalc.sheets.calculator import Field
from pycalc.sheets.common import name_part, table_name
from pycalc.sheets.formulas import band, last
from pycalc.sheets.kind_formulas import normal_part, subdual_picked, typed_kind
from pycalc.tables import RuleSet

STATE = TARGET_STATE  # the engine's name (pycalc.resolution_calculator)
KIND = "ATTACK_SUBDUAL_KIND"  # the kind of damage: empty (normal) or the subdual kind
SUBDUAL_TAKEN = "ATTACK_TARGET_SUBDUAL"
PART = "ATTACK_SUBDUAL_PART"  # the subdual damage of this hit (a working cell)
DAMAGE, HP_BEFORE, HP_AFTER = "ATTACK_DAMAGE", "ATTACK_TARGET_HP", "ATTACK_HP_AFTER"


def said(rules: RuleSet) -> str:
    """The one line's words after '... the target is at N HP': ': Dying', none while it can still act
    (the states table's last band)."""
    rule = encounter(rules).hit_points
    return f'&IF(OR({STATE}="",{STATE}={last(rule.table, rule.state)}),"",": "&{STATE})'


KIND_HELP = "empty: normal damage; {label}: as the log's Kind column (the picks that deal it set it too)"
TAKEN_HELP = (
    "inside the hit points lost so far (the roster's when the target is picked); for its state after the hit"
)


def has_subdual(rules: RuleSet) -> bool:
    """The ruleset's encounter block names a subdual kind of damage that knocks out (the calculator then
    asks for it)."""
    kinds = None if rules.encounter_block is None else rules.encounter_block.damage_kinds
    return kinds is not None and SUBDUAL in labels(rules) and bool(kinds.knocked_out)


def state_formulas(rules: RuleSet, picked: str) -> tuple[str | None, str]:
    """(the formula of this hit's subdual part, None where the ruleset has no subdual kind; the state
    after the hit, unguarded); ``picked``: TRUE where a pick deals subdual damage
    (``kind_formulas.subdual_picked``); a subdual hit's normal part (``kind_formulas.normal_part``)
    is not part of it."""
    rule, kinds = encounter(rules).hit_points, encounter(rules).damage_kinds
    after = f"SUM({HP_BEFORE})-{DAMAGE}"
    if kinds is None or not has_subdual(rules):
        return None, state_band(rules, after)
    typed, normal = typed_kind(rules, KIND, SUBDUAL), normal_part(rules, DAMAGE)
    is_sub = f'OR({typed},AND({KIND}="",{picked}))'
    # where further damage kills, a hit on a target already down is never subdual
    not_down = (f"NOT(SUM({HP_BEFORE})<=0)",) if kinds.further_damage_lethal else ()
    part = f"IF(AND({','.join((is_sub, f'{DAMAGE}>0', *not_down))}),{DAMAGE}-({normal}),0)"
    subs = f"(N({SUBDUAL_TAKEN})+{PART})"
    lethal = f"({after}+{subs})"
    struck = (f"NOT(AND(SUM({HP_BEFORE})<=0,{DAMAGE}>0))",) if kinds.further_damage_lethal else ()
    knocked_out = f"AND({','.join((f'{subs}>0', f'{after}<=0', f'{lethal}>0', *struck))})"
    state = (
        f"IF({knocked_out},{band(rule.table, kinds.knocked_out, after)},"
        f"{state_band(rules, f'IF({lethal}<=0,{lethal},{after})')})"
    )
    return f"IF(ISNUMBER({DAMAGE}),{part},0)", state


def state_band(rules: RuleSet, hp: str) -> str:
    """The state of the band ``hp`` lies in; with ``start_band_exempt``, the last band's while it is the
    band of the hit points before the hit (``hit_point_states.hit_point_state``)."""
    rule = encounter(rules).hit_points
    found = band(rule.table, rule.state, hp)
    if not rule.start_band_exempt:
        return found
    starts = table_name(rule.table, "from")
    before = f"IFERROR(MATCH(SUM({HP_BEFORE}),{starts},1),0)"
    return f"IF(MATCH({hp},{starts},1)={before},{last(rule.table, rule.state)},{found})"


def guarded(state: str) -> str:
    """The state once the damage and the target's hit points are numbers; else empty."""
    return f'IF(AND(ISNUMBER({DAMAGE}),ISNUMBER({HP_BEFORE})),IFERROR({state},""),"")'


def picked(rules: RuleSet, fields: list[Field]) -> str:
    """TRUE where a pick of the calculator deals subdual damage, as the log's Kind reads the same picks."""

    def toggle_cell(table_id: str, row_id: str) -> str | None:
        end = f"_{name_part(table_id)}_{name_part(row_id)}"
        return next((f.name for f in fields if f.name and f.name.endswith(end)), None)

    def choice_cell(table_id: str) -> str | None:
        options = f"={table_name(table_id, 'label')}"
        return next((f.name for f in fields if f.name and f.options == options), None)

    return subdual_picked(rules, toggle_cell, choice_cell)
