"""The 17 Combat calculators: Attack (with odds, charts and damage), and the sheets of its other
calculators, each from its own module: critical damage and the condition chart
(``combat17_critical``), the critical miss chart (``combat17_fumble``), rate of fire
(``combat17_rate_of_fire``), grenade scatter (``combat17_scatter``), brawling
(``combat17_brawling``) and subdual (``combat17_subdual``); the cells they share with the Attack
calculator come from ``combat17_cells``.

Every native formula mirrors a function of ``pycalc.rulesets.combat17`` (or of its subsystem
module); numbers are looked up in the table sheets by name (T_<TABLE>_<COLUMN>), ruling choices in
the Rulings sheet (RULING_<ID>). The LibreOffice parity tests recalculate these sheets and compare
them with the engine.
"""

from __future__ import annotations

import re

from openpyxl.workbook.workbook import Workbook

from pycalc import pickers, resolution_situation
from pycalc import resolution as generic
from pycalc.d20 import CRITICAL, FUMBLE, HIT
from pycalc.rulesets import combat17 as engine
from pycalc.sheets import attack_fields, d20_workings
from pycalc.sheets.attack_workings import write_face_results
from pycalc.sheets.calculator import (
    INPUT,
    Field,
    Section,
    chance_field,
    empty_input,
    working_field,
    write_attack_sheet,
    write_calculator,
)
from pycalc.sheets.combat17_brawling import brawling_section
from pycalc.sheets.combat17_cells import (
    FACES,
    DiceCells,
    band_check,
    condition_text,
    crit_line_formula,
    d20_check,
)
from pycalc.sheets.combat17_critical import condition_section, critical_section
from pycalc.sheets.combat17_fumble import fumble_section
from pycalc.sheets.combat17_odds import odds_section, write_odds_sheet, write_odds_workings
from pycalc.sheets.combat17_rate_of_fire import rate_of_fire_section
from pycalc.sheets.combat17_scatter import grenade_section
from pycalc.sheets.combat17_subdual import subdual_section
from pycalc.sheets.common import (
    protect,
    show_chart,
)
from pycalc.sheets.d20_cells import FACE_CRIT_KEEPS
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_heat import FUMBLE_CHART
from pycalc.sheets.d20_pickers import kind_flag, picked_terms, situation_sum, stage_product
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import change
from pycalc.sheets.formulas import (
    band,
    const,
    optional_input,
    q,
)
from pycalc.sheets.roll_entry import chart_roll
from pycalc.sheets.ruling_text import by_ruling
from pycalc.sheets.situation_cells import (
    Pickers,
    ruling_is,
    situation_section,
)
from pycalc.sheets.target_state import said, with_target_state
from pycalc.table_files import Row, Table
from pycalc.tables import RuleSet

CHARTS_SHEET = "Damage & charts"
OTHER_SHEET = "Missiles, brawling, subdual"
RULESET = "combat17"
INTRO = (
    "Yellow cells are yours: type the numbers, pick the situation, then enter the rolls. "
    "Green cells are worked out from the rule tables in this workbook."
)


# --------------------------------------------------------------------------- Attack calculator


def non_lethal(rules: RuleSet) -> str:
    """TRUE while a pick that counts for the attack's kind deals non-lethal damage (``engine.non_lethal``)."""
    block = generic.block(rules)
    terms = picked_terms(
        rules, block, "non_lethal", lambda v: f"{v}=TRUE", lambda tick, v: f"AND({tick},{v})"
    )
    return f"OR({','.join(terms)})" if terms else "FALSE"


def attack_working_fields(rules: RuleSet) -> tuple[Field, ...]:
    block = generic.block(rules)
    follow_total = (
        f"IF(ISNUMBER(ATTACK_FOLLOW_ROLL),ATTACK_FOLLOW_ROLL+IF({ruling_is('critical_follow_up_roll', 'add_modifiers')},"
        f'ATTACK_TOTAL_MODS,0),"")'
    )
    roll_check = (
        f'IF({d20_check("ATTACK_ROLL", "ROLL")}<>"ok",{d20_check("ATTACK_ROLL", "ROLL")},'
        f'IF({d20_check("ATTACK_FOLLOW_ROLL", "FOLLOW ROLL")}="","ok",{d20_check("ATTACK_FOLLOW_ROLL", "FOLLOW ROLL")}))'
    )
    return (
        attack_fields.kind_id_field(attack_pickers(rules), KIND_TABLE),
        working_field(
            "Roll modifier from the situation", "ATTACK_SITUATION_HIT", situation_sum(rules, block, "hit")
        ),
        working_field(
            "Target AC change from the situation", "ATTACK_SITUATION_AC", situation_sum(rules, block, "ac")
        ),
        working_field(
            "Damage modifier from the situation",
            "ATTACK_SITUATION_DAMAGE",
            situation_sum(rules, block, "damage"),
        ),
        working_field(
            "Damage multiplier",
            "ATTACK_DAMAGE_MULTIPLIER",
            stage_product(rules, block, block.damage.multipliers[0], "damage_multiplier"),
        ),
        working_field("Non-lethal damage", "ATTACK_NON_LETHAL", non_lethal(rules), flag=True),
        working_field(
            "Target cannot be hit", "ATTACK_BARRED", kind_flag(rules, block, "cannot_hit"), flag=True
        ),
        attack_fields.total_mods_field("ATTACK_SITUATION_HIT"),
        attack_fields.situation_ac_field("ATTACK_AC"),
        working_field("Rolls entered correctly", "ATTACK_ROLL_CHECK", roll_check),
        working_field(
            "Natural roll always hits",
            "ATTACK_AUTO_HIT",
            f'IF(ATTACK_ROLL_CHECK="ok",{band("natural_rolls", "auto_hit", "ATTACK_ROLL")},FALSE)',
            flag=True,
        ),
        working_field(
            "Natural roll always misses",
            "ATTACK_AUTO_MISS",
            f'IF(ATTACK_ROLL_CHECK="ok",{band("natural_rolls", "auto_miss", "ATTACK_ROLL")},FALSE)',
            flag=True,
        ),
        working_field("Critical chart total", "ATTACK_FOLLOW_TOTAL", follow_total),
        working_field(
            "Condition roll entered correctly",
            "ATTACK_CONDITION_CHECK",
            band_check("ATTACK_CONDITION_ROLL", "critical_conditions", "CONDITION ROLL"),
        ),
        *ATTACK_DICE.fields(),
        working_field("Faces of the d20", FACES, "ROWS(WORKINGS_FACES)"),
    )


ATTACK_DICE = DiceCells("ATTACK", "ATTACK_DICE")


KIND_TABLE = "attack_kind"


def choice_help(rules: RuleSet, table_id: str, row: Row) -> str:
    """What picking ``row`` changes against the table's first row, as the engine works the situation out
    under the rulings in force (a cover read as concealment, a range added to another)."""
    kind = row.values.get("applies_to")
    kind = "melee" if kind in (None, engine.ANY_ATTACK) else str(kind)
    kind_label = str(rules.table(KIND_TABLE).entry(kind).label)
    before = engine.situation(rules, engine.AttackInputs(choices={KIND_TABLE: kind_label}))
    picked = engine.AttackInputs(choices={KIND_TABLE: kind_label, table_id: str(row.label)})
    after = engine.situation(rules, picked)
    parts = change("Attack roll", before.hit, after.hit) + change("Target AC", before.ac, after.ac)
    parts += ["cannot hit"] if after.barred and not before.barred else []
    if kind != "melee":
        parts.append(f"{kind} only")
    return ", ".join(parts) if parts and parts != [f"{kind} only"] else "No modifier"


RULING_IN_LABEL = re.compile(r"\s*\(ruling \w+\)")


def toggle_help(rules: RuleSet, table: Table, row: Row) -> str:
    """What ticking ``row`` changes under the rulings in force: its numbers ("Attack roll -1"), its
    damage factor and the attacks it applies to (a column a ruling may switch off only when it is on)."""
    adding = pickers.declared(rules)
    read = pickers.ruled_values(rules, adding, table.id, row)  # a column by the ruling in force
    variants = {
        v for c in table.column_ids for v in pickers.ruled_variants(rules, adding, table.id, c).values()
    }
    parts = [
        f"{RULING_IN_LABEL.sub('', c.label)} {read[c.id]:+}"
        for c in table.columns
        if c.type in ("int", "number") and c.id not in variants and read[c.id] and c.id != "damage_multiplier"
    ]
    if row.values.get("damage_multiplier", 1) != 1:
        parts.append(f"damage x{row['damage_multiplier']}")
    parts += [words for column, words in TOGGLE_FLAGS if row.values.get(column)]
    if row.values.get("applies_to") not in (None, engine.ANY_ATTACK):
        parts.append(f"{row['applies_to']} only")
    return ", ".join(parts)


TOGGLE_FLAGS = (("non_lethal", "non-lethal"), ("cannot_hit", "cannot hit"))


def choice_words(table: Table) -> tuple[str, str]:
    return table.title, "missile attacks only" if "applies_to" in table.column_ids else table.note[:90]


def toggle_words(rules: RuleSet, table: Table, row: Row) -> tuple[str, str]:
    return str(row.label), toggle_help(rules, table, row)


def effect(rules: RuleSet, table_id: str, row: Row) -> str:
    """What picking ``row`` changes: a choice against the table's first row, a toggle's own effect."""
    if rules.table(table_id).picker == "toggle":
        return toggle_help(rules, rules.table(table_id), row)
    return choice_help(rules, table_id, row)


def attack_pickers(rules: RuleSet) -> Pickers:
    """The Attack calculator's pickers: the block's ``modifiers`` tables, the choices first."""
    return Pickers(
        resolution_situation.picker_tables(rules, "choice"),
        resolution_situation.picker_tables(rules, "toggle"),
        engine.default_choice,
        effect=effect,
        choice_words=choice_words,
        toggle_words=toggle_words,
        unnoted=frozenset({KIND_TABLE}),
        toggle_note=by_ruling,
    )


def resolution(rules: RuleSet) -> Formulas:
    """The attack roll and its damage as the generic d20 formulas write them from combat17's
    resolution block (charts read with the follow-up roll), over the Attack calculator's cells: the
    situation its own pickers add up to gives the damage modifier and the ``situation`` multiplier."""
    return own_calculator(
        rules,
        need="ATTACK_NEED",
        total_mods="ATTACK_TOTAL_MODS",
        sit_cannot_hit="ATTACK_BARRED",
        crit_possible="TRUE",  # every critical roll reads the chart
        sit_damage="ATTACK_SITUATION_DAMAGE",
        sit_multiplier="ATTACK_DAMAGE_MULTIPLIER",
        damage_bonus="0",  # the dice text holds the weapon's +N
        dice_count=ATTACK_DICE.count,
        dice_sides=ATTACK_DICE.sides,
        dice_mod=ATTACK_DICE.modifier,
        dice_message=ATTACK_DICE.error,
    )


def attack_sections(rules: RuleSet) -> list[Section]:
    counts = {o: f'COUNTIF(WORKINGS_OUTCOMES,"{o}")' for o in (HIT, CRITICAL, FUMBLE)}
    result = (
        'IF(ATTACK_ROLL_CHECK<>"ok",ATTACK_ROLL_CHECK,'
        f"{resolution(rules).result('ATTACK_ROLL', 'ATTACK_FOLLOW_ROLL')})"
    )
    crit_line = crit_line_formula("ATTACK_FOLLOW_TOTAL", "ATTACK_CONDITION_CHECK", "ATTACK_CONDITION_ROLL")
    effect = (
        'IF(ATTACK_ROLL_CHECK<>"ok","",'
        f'IF(ATTACK_AUTO_MISS,IF(ATTACK_FOLLOW_ROLL="",{q(engine.FUMBLE_PENDING)},{band("critical_misses", "effect", "ATTACK_FOLLOW_ROLL")}),'
        f"IF(ATTACK_BARRED,{q(engine.BARRED_EFFECT)},"
        f'IF(ATTACK_AUTO_HIT,IF(ATTACK_FOLLOW_ROLL="",{q(engine.CRIT_PENDING)},{crit_line}),'
        f"IF(ATTACK_ROLL>=ATTACK_NEED,{const('outcomes', 'regular_damage', 'effect')},{const('outcomes', 'miss', 'effect')})))))"
    )
    unused = f"{q(engine.CONDITION_UNUSED_START)}&ATTACK_CONDITION_ROLL&{q(engine.CONDITION_UNUSED_END)}"
    condition = (
        'IF(ATTACK_ROLL_CHECK<>"ok","",IF(ATTACK_CONDITION_ROLL="","",'
        f'IF(OR(ATTACK_BARRED,NOT(ATTACK_AUTO_HIT)),{unused},IF(ATTACK_FOLLOW_ROLL="","",'
        f"IF(NOT({band('critical_hits', 'condition_roll', 'ATTACK_FOLLOW_TOTAL')}),{unused},"
        f'IF(ATTACK_CONDITION_CHECK="ok",{condition_text("ATTACK_CONDITION_ROLL")},ATTACK_CONDITION_CHECK))))))'
    )
    udf_attack = "ATTACK_BONUS,ATTACK_AC,ATTACK_TOTAL_MODS"
    chance_udf = "combat17_chance(ATTACK_BONUS,ATTACK_AC,{},ATTACK_TOTAL_MODS,ATTACK_BARRED)"
    rolled = 'IF(OR(ATTACK_ROLL="",LEFT(ATTACK_RESULT,1)="#"),"",{})'
    follow, condition_roll = optional_input("ATTACK_FOLLOW_ROLL"), optional_input("ATTACK_CONDITION_ROLL")
    damage_roll = optional_input("ATTACK_DAMAGE_ROLL")
    return [
        Section(
            "Attacker and target",
            (
                Field("Attack bonus (AB + STR or DEX bonus)", "ATTACK_BONUS", INPUT, 3),
                Field("Target's Armor Class", "ATTACK_TARGET", INPUT, 15),
                attack_fields.free_mods_field("Free modifier to the roll (magic, house rule...)"),
                attack_fields.level_field("17 Combat has no level rule for attacks"),
                Field(
                    "Weapon damage (e.g. 1d8+2)", "ATTACK_DICE", INPUT, "1d6+2", help="dice + STR and magic"
                ),
            ),
        ),
        situation_section(rules, attack_pickers(rules)),
        Section(
            "Before the roll",
            (
                attack_fields.need_field(
                    RULESET, "Natural d20 needed (before natural 1 / 20)", "ATTACK_AC", "ATTACK_TOTAL_MODS"
                ),
                chance_field(
                    "Chance to hit",
                    "ATTACK_HIT_CHANCE",
                    f"({counts[HIT]}+{counts[CRITICAL]})/{FACES}",
                    f"combat17_hit_chance({udf_attack},ATTACK_BARRED)",
                    key=True,
                ),
                chance_field(
                    "Chance of a critical",
                    "ATTACK_CRIT_CHANCE",
                    f"{counts[CRITICAL]}/{FACES}*SUM({FACE_CRIT_KEEPS})/{FACES}",
                    chance_udf.format(f'"{CRITICAL}"'),
                ),
                chance_field(
                    "Chance of a fumble",
                    "ATTACK_FUMBLE_CHANCE",
                    f"{counts[FUMBLE]}/{FACES}*SUM({FUMBLE_CHART})/{FACES}",
                    chance_udf.format(f'"{FUMBLE}"'),
                ),
                Field(
                    "Damage is",
                    "ATTACK_DAMAGE_KIND",
                    native=f"IF(ATTACK_NON_LETHAL,{q(engine.NON_LETHAL)},{q(engine.LETHAL)})",
                ),
            ),
        ),
        odds_section(rules, resolution(rules)),
        Section(
            "The rolls",
            (
                attack_fields.attack_roll_field(rules, "Natural d20 roll"),
                attack_fields.follow_roll_field(
                    rules,
                    "Follow-up d20 (after a natural 1 or 20)",
                    "critical hit chart after a 20, critical miss chart after a 1",
                ),
                empty_input(
                    "1d4 condition roll (chart 20 only)",
                    "ATTACK_CONDITION_ROLL",
                    roll=chart_roll(rules, "critical_conditions"),
                ),
                attack_fields.damage_roll_field(
                    "Damage dice shown (without the +modifier)",
                    "the calculator adds the modifier, maximum and doubling",
                ),
            ),
        ),
        attack_fields.outcome_section(
            attack_fields.result_field(
                result,
                f'IF(ATTACK_ROLL="","",combat17_attack_result(ATTACK_ROLL,{udf_attack},{follow},ATTACK_BARRED))',
            ),
            attack_fields.effect_field(
                effect,
                rolled.format(
                    f"combat17_attack_effect(ATTACK_ROLL,{udf_attack},{follow},{condition_roll},ATTACK_BARRED)"
                ),
            ),
            Field(
                "Condition on the enemy",
                "ATTACK_CONDITION",
                native=condition,
                udf=rolled.format(
                    f"combat17_attack_condition(ATTACK_ROLL,{udf_attack},{follow},{condition_roll},ATTACK_BARRED)"
                ),
            ),
            attack_fields.damage_field(
                resolution(rules).attack_damage(),
                rolled.format(
                    f"combat17_attack_damage(ATTACK_RESULT,ATTACK_DICE,{damage_roll},{follow},"
                    "ATTACK_TOTAL_MODS,ATTACK_DAMAGE_MULTIPLIER,ATTACK_SITUATION_DAMAGE)"
                ),
            ),
            summary=with_condition(resolution(rules).summary(said(rules))),
        ),
        attack_fields.workings_section(*attack_working_fields(rules)),
    ]


def with_condition(summary: str) -> str:
    """The outcome in one line, then the chart 20's condition: rolled, awaited, or a 1d4 the roll
    does not use (so that a log row, which shows this line, says it too)."""
    pending = q(engine.CONDITION_PENDING)
    awaited = f'IF(RIGHT(ATTACK_EFFECT,LEN({pending}))={pending},"; "&{pending},"")'
    return f'({summary})&IF(ATTACK_CONDITION<>"","; "&ATTACK_CONDITION,{awaited})'


# --------------------------------------------------------------------------- workings and assembly


def write_workings(book: Workbook, rules: RuleSet) -> None:
    """One row per d20 face: the attack's result for that natural roll, and the critical chart row
    that follow-up roll reads (``d20_workings.crit_chart_columns``: does it keep the critical, which damage
    formula). The odds count these rows."""
    rolls = resolution(rules)
    result = ("WORKINGS_OUTCOMES", "Attack result on this natural roll", 30)
    more = d20_workings.crit_chart_columns(rolls.block, rolls)
    protect(write_face_results(book, rules, rolls, result, "d20", more, "WORKINGS_FACES"))


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    attack_sheet = write_attack_sheet(
        book,
        rules,
        INTRO,
        with_target_state(rules, attack_sections(rules)),
        with_udfs,
    )
    write_calculator(
        book,
        CHARTS_SHEET,
        f"{rules.name}: critical damage, condition and critical miss charts",
        INTRO,
        [critical_section(rules), condition_section(rules), fumble_section(rules)],
        with_udfs,
    )
    write_calculator(
        book,
        OTHER_SHEET,
        f"{rules.name}: rate of fire, grenade scatter, brawling, subdual",
        INTRO,
        [rate_of_fire_section(rules), grenade_section(), brawling_section(rules), subdual_section()],
        with_udfs,
    )
    write_workings(book, rules)
    show_chart(attack_sheet, write_odds_workings(book, rules, resolution(rules)))
    write_odds_sheet(book, rules)
