"""The cells every shipped ruleset's d20 Attack calculator shows under the same names: the rolls, the
number needed, the outcome (result, what it does, damage, the target's hit points after it, the one
line) and the workings' section with its cells of the attack kind, the modifiers and the AC. The log,
the roster, the target state and the odds read these names; a ruleset's calculator
(``pycalc.sheets.cnc``, ``osr``, ``combat17``, ``bfrpg``) gives each cell its labels and formulas and
adds the cells that are its own.
"""

from __future__ import annotations

from pycalc.resolution_block import Resolution, typed_cells
from pycalc.sheets.calculator import INPUT, Field, Section, empty_input, working_field
from pycalc.sheets.d20_cells import number_name
from pycalc.sheets.roll_entry import attack_roll, follow_roll
from pycalc.sheets.situation_cells import Pickers, picked_field
from pycalc.tables import RuleSet

WORKINGS_TITLE = "Workings (how the numbers above are made)"


# --------------------------------------------------------------------------- inputs


def free_mods_field(label: str = "Free modifier to the roll", help_text: str = "") -> Field:
    """The GM's own modifier to the roll (ATTACK_MODS), added to the situation's."""
    return Field(label, "ATTACK_MODS", INPUT, 0, help=help_text)


def level_field(help_text: str, label: str = "Attacker's level") -> Field:
    """The attacker's level (ATTACK_LEVEL; ``help_text`` says what, if anything, reads it)."""
    return Field(label, "ATTACK_LEVEL", INPUT, 1, help=help_text)


def attack_roll_field(rules: RuleSet, label: str) -> Field:
    """The d20 calculators' attack roll, checked against the attack die."""
    return empty_input(label, "ATTACK_ROLL", "leave empty until rolled", attack_roll(rules))


def follow_roll_field(rules: RuleSet, label: str, help_text: str, checked: bool = True) -> Field:
    """The follow-up roll (fumble check, confirmation, chart roll), checked against its die unless
    the ruleset never reads it (``checked`` False)."""
    roll = follow_roll(rules) if checked else None
    return empty_input(label, "ATTACK_FOLLOW_ROLL", help_text, roll)


def damage_roll_field(label: str, help_text: str = "") -> Field:
    """What the damage dice show, without their modifier."""
    return empty_input(label, "ATTACK_DAMAGE_ROLL", help_text)


# --------------------------------------------------------------------------- before the roll


def need_field(ruleset_id: str, label: str, target: str, mods: str, help_text: str = "") -> Field:
    """ATTACK_NEED, the natural roll needed: the ``target`` cell (the target's AC or number needed in
    this situation) less the bonus and the ``mods`` cell, as the d20_need UDF works it out."""
    return Field(
        label,
        "ATTACK_NEED",
        key=True,
        native=f"{target}-SUM(ATTACK_BONUS)-{mods}",
        udf=f'd20_need("{ruleset_id}",ATTACK_BONUS,{target},{mods})',
        help=help_text,
    )


# --------------------------------------------------------------------------- outcome


NO_RESULT = 'OR(ATTACK_RESULT="",LEFT(ATTACK_RESULT,1)="#")'  # no roll yet, or what is wrong with it


def result_field(native: str, udf: str) -> Field:
    """ATTACK_RESULT: Hit, Miss, Critical, Fumble, or what is wrong with the rolls."""
    return Field("Result", "ATTACK_RESULT", key=True, native=native, udf=udf)


def effect_field(native: str, udf: str | None = None, key: bool = False) -> Field:
    """ATTACK_EFFECT: what the result does, in the tables' words."""
    return Field("What it does", "ATTACK_EFFECT", key=key, native=native, udf=udf)


def damage_field(native: str, udf: str, label: str = "Damage") -> Field:
    """ATTACK_DAMAGE: the damage the hit deals (the log and the target state read it)."""
    return Field(label, "ATTACK_DAMAGE", key=True, native=native, udf=udf)


def hit_point_fields(summary: str) -> tuple[Field, ...]:
    """The d20 calculators' last outcome lines: the target's hit points after the damage
    (ATTACK_TARGET_HP - ATTACK_DAMAGE), and the outcome in one line (``summary``: the generic
    formulas' ``Formulas.summary()`` over the calculator's cells, naming the follow-up roll used)."""
    return (
        Field(
            "Target's hit points after the hit",
            "ATTACK_HP_AFTER",
            native='IF(ISNUMBER(ATTACK_DAMAGE),SUM(ATTACK_TARGET_HP)-ATTACK_DAMAGE,"")',
        ),
        Field("In one line", "ATTACK_SUMMARY", key=True, native=summary),
    )


def outcome_section(*fields: Field, summary: str) -> Section:
    """The outcome: the ruleset's fields (result, effect, damage...), then the hit points and one line."""
    return Section("Outcome", (*fields, *hit_point_fields(summary)))


# --------------------------------------------------------------------------- workings


def workings_section(*fields: Field) -> Section:
    return Section(WORKINGS_TITLE, fields)


def total_mods_field(
    *added: str, name: str = "ATTACK_TOTAL_MODS", label: str = "All modifiers to the roll"
) -> Field:
    """Every modifier to the roll: the GM's free one (ATTACK_MODS) and the cells ``added``."""
    return working_field(label, name, "+".join(("SUM(ATTACK_MODS)", *added)))


def situation_ac_field(name: str, label: str = "Target's AC in this situation") -> Field:
    """The target's AC as typed (ATTACK_TARGET) with the situation's change (ATTACK_SITUATION_AC)."""
    return working_field(label, name, "SUM(ATTACK_TARGET)+ATTACK_SITUATION_AC")


def kind_id_field(pickers: Pickers, kind_table: str) -> Field:
    """ATTACK_KIND_ID: the id of the attack kind picked."""
    return picked_field(pickers, "Attack kind (id)", "ATTACK_KIND_ID", kind_table, "id")


def ranged_field(
    pickers: Pickers, kind_table: str, label: str = "Ranged attack", column: str = "ranged"
) -> Field:
    """The picked attack kind's ranged (or melee) flag, which gates the tables that count for one."""
    return picked_field(pickers, label, f"ATTACK_{column.upper()}", kind_table, column, flag=True)


def typed_number_fields(block: Resolution) -> list[Field]:
    """An input per number typed beside the picks (``situation.numbers``: osr's shield and DEX, cnc's
    Dex modifiers), under the name the generic situation's formulas read."""
    return [Field(n.label, number_name(n.id), INPUT, 0, help=n.help) for n in typed_cells(block)]
