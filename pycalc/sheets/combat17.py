"""The 17 Combat calculators: Attack (with odds, charts and damage), critical damage, the condition
and critical-miss charts, rate of fire, grenade scatter, brawling and subdual.

Every native formula mirrors a function of ``pycalc.rulesets.combat17``; numbers are looked up in
the table sheets by name (T_<TABLE>_<COLUMN>), ruling choices in the Rulings sheet (RULING_<ID>).
The LibreOffice parity tests recalculate these sheets and compare them with the engine.
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
    BOOLEAN_FORMAT,
    INPUT,
    Field,
    Section,
    chance_field,
    empty_input,
    flag_input,
    list_input,
    working_field,
    write_attack_sheet,
    write_calculator,
)
from pycalc.sheets.combat17_odds import odds_section, write_odds_sheet, write_odds_workings
from pycalc.sheets.common import (
    protect,
    ruling_name,
    show_chart,
)
from pycalc.sheets.common import table_name as T
from pycalc.sheets.d20_cells import FACE_CRIT_KEEPS, ChartFormula
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_heat import FUMBLE_CHART
from pycalc.sheets.d20_pickers import kind_flag, picked_terms, situation_sum, stage_product
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import change
from pycalc.sheets.formulas import (
    DICE_ERROR,
    band,
    by_label,
    const,
    list_mistake,
    optional_input,
    q,
    round_down,
    round_up,
)
from pycalc.sheets.roll_entry import attack_roll, chart_roll, follow_roll
from pycalc.sheets.ruling_text import by_ruling
from pycalc.sheets.situation_cells import (
    Pickers,
    by_id,
    ruling_is,
    situation_section,
)
from pycalc.sheets.target_state import said, with_target_state
from pycalc.table_files import Row, Table
from pycalc.tables import RuleSet

CHARTS_SHEET = "Damage & charts"
OTHER_SHEET = "Missiles, brawling, subdual"
RULESET = "combat17"
FACES = "FACE_COUNT"
INTRO = (
    "Yellow cells are yours: type the numbers, pick the situation, then enter the rolls. "
    "Green cells are worked out from the rule tables in this workbook."
)


def empty(expr: str) -> str:
    """TRUE when a looked-up value is an empty (null) cell."""
    return f"LEN({expr})=0"


def d20_check(cell: str, what: str) -> str:
    """'' for an empty cell, 'ok' for 1..20, else the engine's message."""
    message = f'"#{what}? 1 to "&{FACES}'
    return (
        f'IF({cell}="","",IF(NOT(ISNUMBER({cell})),{message},'
        f'IF(OR({cell}<1,{cell}>{FACES},{cell}<>INT({cell})),{message},"ok")))'
    )


def band_check(cell: str, table: str, what: str) -> str:
    low, high = f"MIN({T(table, 'from')})", f"MAX({T(table, 'to')})"
    message = f'"#{what}? "&{low}&" to "&{high}'
    return (
        f'IF({cell}="","",IF(NOT(ISNUMBER({cell})),{message},'
        f'IF(OR({cell}<{low},{cell}>{high}),{message},"ok")))'
    )


# --------------------------------------------------------------------------- dice text


class DiceCells:
    """Working cells that read a dice expression such as 1d6+2 (count, sides, modifier, error)."""

    def __init__(self, prefix: str, source: str) -> None:
        self.prefix, self.source = prefix, source
        self.text, self.d = f"{prefix}_DICE_TEXT", f"{prefix}_DICE_D"
        self.count, self.sides = f"{prefix}_DICE_COUNT", f"{prefix}_DICE_SIDES"
        self.modifier, self.error = f"{prefix}_DICE_MOD", f"{prefix}_DICE_ERROR"

    def fields(self) -> tuple[Field, ...]:
        text, d = self.text, self.d
        rest = f"MID({text},{d}+1,LEN({text}))"
        sign = f'IFERROR(FIND("+",{rest}),IFERROR(FIND("-",{rest}),0))'
        count = f"IF({d}=0,0,IF({d}=1,1,VALUE(LEFT({text},{d}-1))))"
        sides = f"IF({d}=0,0,IF({sign}=0,VALUE({rest}),VALUE(LEFT({rest},{sign}-1))))"
        modifier = f"IF({d}=0,VALUE({text}),IF({sign}=0,0,VALUE(MID({rest},{sign},LEN({rest})))))"
        plain = (
            f'AND(ISERROR(FIND(".",{text})),ISERROR(FIND("e",LOWER({text}))),ISERROR(FIND(",",{text})),'
            f"{self.count}=INT({self.count}),{self.sides}=INT({self.sides}),{self.modifier}=INT({self.modifier}),"
            f'{self.count}>=0,{self.sides}>=0,{text}<>"")'
        )
        error = (
            f"IF(IFERROR(NOT({plain}),TRUE),{DICE_ERROR},"
            f'IF(AND({d}>0,OR({self.count}<1,{self.sides}<1)),"#DICE? 1 to 1000 dice of at least 1 side",""))'
        )
        return (
            working_field("Dice text", self.text, f'SUBSTITUTE(TRIM({self.source}&"")," ","")'),
            working_field("Position of the d", self.d, f'IFERROR(FIND("d",LOWER({text})),0)'),
            working_field("Number of dice", self.count, f'IFERROR({count},"x")'),
            working_field("Sides of a die", self.sides, f'IFERROR({sides},"x")'),
            working_field("Modifier", self.modifier, f'IFERROR({modifier},"x")'),
            working_field("Dice problem", self.error, error),
        )


def damage_formula(
    rules: RuleSet, outcome: str | ChartFormula, roll: str, dice: DiceCells, extra: str = "0"
) -> str:
    """engine.damage after the roll check ('' when the dice roll is still needed): the generic damage
    formula of an outcomes row (its id, or the row the critical chart names) over the dice cells,
    ``extra`` added to the dice's modifier."""
    rolls = own_calculator(
        rules,
        dice_count=dice.count,
        dice_sides=dice.sides,
        dice_mod=dice.modifier,
        sit_damage=extra,
        damage_bonus="0",
    )
    value = rolls.least_of(rolls.formula_amount(outcome, f"SUM({roll})"))
    rolled = rolls.coefficient(outcome, "dice_rolled")
    high = f"{dice.count}*{dice.sides}"
    checked = (
        f'IF({rolled}>0,IF(AND({dice.count}>0,{roll}=""),"",IF(OR(SUM({roll})<{dice.count},SUM({roll})>{high}),'
        f'"#DAMAGE ROLL? "&{dice.count}&" to "&{high},{value})),{value})'
    )
    outcome_id = q(outcome) if isinstance(outcome, str) else band("critical_hits", "damage", outcome.key)
    return f"IF({by_id('outcomes', 'hits', outcome_id)},{checked},0)"


def crit_line_formula(total: str, condition_check: str, condition_roll: str) -> str:
    label = by_id("outcomes", "label", band("critical_hits", "damage", total))
    text = condition_text(condition_roll)
    return (
        f'IF({band("critical_hits", "condition_roll", total)},IF({condition_check}="",{label}&"; "&{q(engine.CONDITION_PENDING)},'
        f'IF({condition_check}="ok",{label}&"; "&{text},{condition_check})),{label})'
    )


def condition_text(roll: str) -> str:
    return (
        f'{band("critical_conditions", "condition", roll)}&": "&{band("critical_conditions", "effect", roll)}'
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


# --------------------------------------------------------------------------- critical damage, condition, fumble


CRIT_DICE = DiceCells("CRIT", "CRIT_DICE")


def critical_section(rules: RuleSet) -> Section:
    def variant(outcome_id: str) -> str:
        return f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,{damage_formula(rules, outcome_id, "CRIT_DAMAGE_ROLL", CRIT_DICE)})'

    follow_ok = d20_check("CRIT_FOLLOW_ROLL", "FOLLOW ROLL")
    total = "CRIT_FOLLOW_TOTAL"
    chart = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok",CRIT_FOLLOW_CHECK,'
        f"{crit_line_formula(total, 'CRIT_CONDITION_CHECK', 'CRIT_CONDITION_ROLL')}))"
    )
    damage = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok","",'
        f"{damage_formula(rules, ChartFormula(total), 'CRIT_DAMAGE_ROLL', CRIT_DICE)}))"
    )
    condition = (
        f'IF(CRIT_DICE_ERROR<>"",CRIT_DICE_ERROR,IF(CRIT_FOLLOW_CHECK<>"ok","",IF(CRIT_CONDITION_CHECK="","",'
        f"IF(NOT({band('critical_hits', 'condition_roll', total)}),"
        f"{q(engine.CONDITION_UNUSED_START)}&CRIT_CONDITION_ROLL&{q(engine.CONDITION_UNUSED_END)},"
        f'IF(CRIT_CONDITION_CHECK="ok",{condition_text("CRIT_CONDITION_ROLL")},CRIT_CONDITION_CHECK)))))'
    )
    return Section(
        "Critical damage (natural 20: regular, maximum, critical)",
        (
            Field("Weapon damage (e.g. 1d6+2)", "CRIT_DICE", INPUT, "1d6+2"),
            Field("Damage dice shown (without the +modifier)", "CRIT_DAMAGE_ROLL", INPUT, 3),
            empty_input("Follow-up d20 on the critical chart", "CRIT_FOLLOW_ROLL", roll=follow_roll(rules)),
            Field(
                "Roll modifiers (ruling critical_follow_up_roll: add_modifiers)",
                "CRIT_MODS",
                INPUT,
                0,
                help="counted only under that ruling",
            ),
            empty_input("1d4 condition roll (chart 20 only)", "CRIT_CONDITION_ROLL"),
            Field(
                "Regular damage",
                "CRIT_REGULAR",
                key=True,
                native=variant("regular_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"regular_damage")',
            ),
            Field(
                "Maximum damage",
                "CRIT_MAXIMUM",
                key=True,
                native=variant("maximum_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"maximum_damage")',
            ),
            Field(
                "Critical damage",
                "CRIT_CRITICAL",
                key=True,
                native=variant("critical_damage"),
                udf='combat17_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,"critical_damage")',
            ),
            Field(
                "The chart gives",
                "CRIT_CHART",
                native=chart,
                udf=f'IF(CRIT_FOLLOW_ROLL="","",combat17_crit_line(CRIT_FOLLOW_ROLL,CRIT_MODS,{optional_input("CRIT_CONDITION_ROLL")}))',
            ),
            Field(
                "Damage by the chart",
                "CRIT_DAMAGE",
                key=True,
                native=damage,
                udf='IF(CRIT_FOLLOW_ROLL="","",combat17_crit_damage(CRIT_DICE,CRIT_DAMAGE_ROLL,CRIT_FOLLOW_ROLL,CRIT_MODS))',
            ),
            Field("Condition on the enemy", "CRIT_CONDITION", native=condition),
            working_field("Follow-up roll entered correctly", "CRIT_FOLLOW_CHECK", follow_ok),
            working_field(
                "Critical chart total",
                total,
                f'IF(CRIT_FOLLOW_CHECK="ok",CRIT_FOLLOW_ROLL+IF({ruling_is("critical_follow_up_roll", "add_modifiers")},SUM(CRIT_MODS),0),"")',
            ),
            working_field(
                "Condition roll entered correctly",
                "CRIT_CONDITION_CHECK",
                band_check("CRIT_CONDITION_ROLL", "critical_conditions", "CONDITION ROLL"),
            ),
            *CRIT_DICE.fields(),
        ),
    )


def with_condition(summary: str) -> str:
    """The outcome in one line, then the chart 20's condition: rolled, awaited, or a 1d4 the roll
    does not use (so that a log row, which shows this line, says it too)."""
    pending = q(engine.CONDITION_PENDING)
    awaited = f'IF(RIGHT(ATTACK_EFFECT,LEN({pending}))={pending},"; "&{pending},"")'
    return f'({summary})&IF(ATTACK_CONDITION<>"","; "&ATTACK_CONDITION,{awaited})'


def condition_section(rules: RuleSet) -> Section:
    check = "CONDITION_CHECK"

    def shown(expr: str) -> str:
        return f'IF({check}="ok",{expr},{check})'

    fields = [
        empty_input("1d4 roll", "CONDITION_ROLL", roll=chart_roll(rules, "critical_conditions")),
        Field(
            "Condition",
            "CONDITION_NAME",
            key=True,
            native=shown(band("critical_conditions", "condition", "CONDITION_ROLL")),
            udf='IF(CONDITION_ROLL="","",combat17_condition(CONDITION_ROLL))',
        ),
        Field(
            "Effect (as printed)",
            "CONDITION_EFFECT",
            native=shown(band("critical_conditions", "effect", "CONDITION_ROLL")),
        ),
        Field(
            "Primary weapon knocked away",
            "CONDITION_DISARMED",
            native=shown(band("critical_conditions", "disarmed", "CONDITION_ROLL")),
        ),
    ]
    labels = {
        "CONDITION_HIT": "Its attack rolls",
        "CONDITION_SAVES": "Its saving throws",
        "CONDITION_DC_CHECKS": "Its DC checks",
        "CONDITION_INIT": "Its initiative",
        "CONDITION_AC_MELEE": "Its AC against melee",
        "CONDITION_AC_RANGED": "Its AC against missiles",
    }
    for name, (table, link, column) in engine.CONDITION_COLUMNS.items():
        linked = band("critical_conditions", link, "CONDITION_ROLL")
        fields.append(
            Field(
                labels[name],
                name,
                native=shown(f"IF({empty(linked)},0,{by_id(table, column, linked)})"),
                udf=f'IF(CONDITION_ROLL="","",combat17_condition_modifier(CONDITION_ROLL,"{column}"))',
            )
        )
    fields.append(
        working_field(
            "Roll entered correctly",
            check,
            band_check("CONDITION_ROLL", "critical_conditions", "CONDITION ROLL"),
        )
    )
    return Section("Critical condition chart (1d4 after a chart 20)", tuple(fields))


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
    penalty = (
        f'IF(FUMBLE_CHECK<>"{engine.CHECK_FAILED}",0,IF({empty(condition)},0,IF(FUMBLE_ROUNDS_TEXT="#",0,'
        f"{by_id('attacker_conditions', 'hit', condition)})))"
    )
    dex_check = d20_check("FUMBLE_DEX_ROLL", "DEX ROLL")
    input_check = (
        f'IF({d20_check("FUMBLE_ROLL", "FOLLOW ROLL")}<>"ok",{d20_check("FUMBLE_ROLL", "FOLLOW ROLL")},'
        f'IF({dex_check}="","ok",{dex_check}))'
    )
    return Section(
        "Critical miss chart (natural 1) and its DEX check",
        (
            empty_input("Follow-up d20 on the critical miss chart", "FUMBLE_ROLL", roll=follow_roll(rules)),
            Field("Attacker's DEX bonus", "FUMBLE_DEX_BONUS", INPUT, 0),
            empty_input("d20 for the DEX check", "FUMBLE_DEX_ROLL", roll=attack_roll(rules)),
            empty_input("Rounds rolled for the penalty (1d2)", "FUMBLE_ROUNDS_ROLL"),
            Field(
                "Effect (as printed)",
                "FUMBLE_CHART_EFFECT",
                key=True,
                native=shown(row("effect")),
                udf='IF(FUMBLE_ROLL="","",fumble_effect("combat17",FUMBLE_ROLL))',
            ),
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
                "No attack next round",
                "FUMBLE_NO_ATTACK_NEXT_ROUND",
                native=shown(row("no_attack_next_round")),
            ),
            Field("Attack roll penalty that follows", "FUMBLE_PENALTY", native=shown(penalty)),
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


# --------------------------------------------------------------------------- rate of fire, grenade, brawling, subdual


def rate_of_fire_section(rules: RuleSet) -> Section:
    weapon = "ROF_WEAPON"
    every = by_label("rate_of_fire", "rounds_per_shot", weapon)
    reload = by_label("rate_of_fire", "reload_rounds", weapon)
    check = (
        f"IF(ISNA(MATCH({weapon},{T('rate_of_fire', 'label')},0)),{list_mistake(rules, 'weapon', 'rate_of_fire')},"
        f'IF(AND({empty(every)},OR(ROF_SIEGE_RATE="",SUM(ROF_SIEGE_RATE)<1)),"#RATE? fires once every how many rounds (1 or more)",'
        f'IF(SUM(ROF_ROUNDS)<0,"#ROUNDS? 0 or more","ok")))'
    )

    def shown(expr: str) -> str:
        return f'IF(ROF_CHECK<>"ok",ROF_CHECK,{expr})'

    return Section(
        "Missile rate of fire over N rounds",
        (
            list_input("Weapon", weapon, "rate_of_fire", "Light crossbow"),
            Field("Rounds of shooting", "ROF_ROUNDS", INPUT, 6),
            empty_input(
                "Siege weapon: fires once every N rounds", "ROF_SIEGE_RATE", help_text="e.g. 6 for 1/6"
            ),
            Field(
                "Fires once every (rounds)",
                "ROF_ROUNDS_PER_SHOT",
                native=shown(f"IF({empty(every)},SUM(ROF_SIEGE_RATE),{every})"),
            ),
            Field(
                "First shot in round",
                "ROF_FIRST_SHOT_ROUND",
                native=shown(
                    f"IF({ruling_is('rate_of_fire_start', 'loaded')},1,1+IF({empty(every)},SUM(ROF_SIEGE_RATE)-1,{reload}))"
                ),
            ),
            Field(
                "Shots",
                "ROF_SHOTS",
                key=True,
                native=shown(
                    "IF(SUM(ROF_ROUNDS)<ROF_FIRST_SHOT_ROUND,0,INT((SUM(ROF_ROUNDS)-ROF_FIRST_SHOT_ROUND)/ROF_ROUNDS_PER_SHOT)+1)"
                ),
                udf=f"combat17_shots(ROF_WEAPON,ROF_ROUNDS,{optional_input('ROF_SIEGE_RATE')})",
            ),
            Field(
                "Last shot in round",
                "ROF_LAST_SHOT_ROUND",
                native=shown('IF(ROF_SHOTS=0,"",ROF_FIRST_SHOT_ROUND+(ROF_SHOTS-1)*ROF_ROUNDS_PER_SHOT)'),
            ),
            working_field("Inputs entered correctly", "ROF_CHECK", check),
        ),
    )


def grenade_section() -> Section:
    def column(name: str) -> str:
        return band("grenade_scatter", name, "GRENADE_ROLL")

    square = const("grenade_missiles", "scatter_square_ft")
    again = f"AND({column('reinterpreted')},{ruling_is('grenade_missing_ten', 'reroll_ten')})"

    def shown(direct: str, value: str, rolled_again: str) -> str:
        return (
            f'IF(GRENADE_HIT=TRUE,{direct},IF(GRENADE_SCATTER_CHECK<>"ok",GRENADE_SCATTER_CHECK,'
            f"IF({again},{rolled_again},{value})))"
        )

    return Section(
        "Grenade-like missile: where it lands",
        (
            flag_input("The attack roll hit (direct hit)", "GRENADE_HIT"),
            empty_input("1d10 scatter roll (on a miss)", "GRENADE_ROLL"),
            Field(
                "Lands",
                "GRENADE_LANDS",
                key=True,
                native=shown(q(engine.DIRECT_HIT), column("direction"), q(engine.ROLL_AGAIN)),
                udf='IF(GRENADE_HIT=TRUE,"Direct hit",IF(GRENADE_ROLL="","",combat17_scatter(GRENADE_ROLL)))',
            ),
            Field(
                "Feet toward the thrower (negative: beyond)",
                "GRENADE_TOWARD_FT",
                native=shown("0", f"{column('toward_thrower')}*{square}", '""'),
            ),
            Field(
                "Feet to the thrower's right (negative: left)",
                "GRENADE_RIGHT_FT",
                native=shown("0", f"{column('to_right')}*{square}", '""'),
            ),
            Field(
                "Distance from the target (ft)",
                "GRENADE_DISTANCE_FT",
                native=shown(
                    "0", f"MAX(ABS({column('toward_thrower')}),ABS({column('to_right')}))*{square}", '""'
                ),
                udf='IF(GRENADE_HIT=TRUE,0,IF(GRENADE_ROLL="","",combat17_scatter_feet(GRENADE_ROLL,"distance")))',
            ),
            working_field(
                "Roll entered correctly",
                "GRENADE_SCATTER_CHECK",
                band_check("GRENADE_ROLL", "grenade_scatter", "SCATTER ROLL"),
            ),
        ),
    )


BRAWL_DICE_CELLS = DiceCells("BRAWL", "BRAWL_DICE")


def brawling_section(rules: RuleSet) -> Section:
    kind = "BRAWL_KIND"

    def value(column: str) -> str:
        found = by_label("brawling", column, kind)
        return (
            f"IF({empty(found)},{by_id('kick_damage_readings', column, ruling_name('kick_damage'))},{found})"
        )

    armour = f'IF(BRAWL_ARMOUR="",INDEX({T("brawling_armour", "label")},1),BRAWL_ARMOUR)'
    check = (
        f"IF(ISNA(MATCH({kind},{T('brawling', 'label')},0)),{list_mistake(rules, 'brawl', 'brawling')},"
        f'IF(ISNA(MATCH({armour},{T("brawling_armour", "label")},0)),{list_mistake(rules, "armour", "brawling_armour")},"ok"))'
    )

    def shown(expr: str) -> str:
        return f'IF(BRAWL_CHECK<>"ok",BRAWL_CHECK,{expr})'

    damage = damage_formula(
        rules,
        "regular_damage",
        "BRAWL_DAMAGE_ROLL",
        BRAWL_DICE_CELLS,
        extra=f"IF({value('adds_strength')},SUM(BRAWL_STR),0)",
    )
    return Section(
        "Brawling (punch or kick)",
        (
            list_input("Punch or kick", kind, "brawling", engine.default_choice(rules.table("brawling"))),
            Field("Attack bonus", "BRAWL_BONUS", INPUT, 2),
            Field("Target's Armor Class", "BRAWL_AC", INPUT, 12),
            Field("Other modifiers to the roll", "BRAWL_MODS", INPUT, 0),
            Field("Attacker's STR modifier", "BRAWL_STR", INPUT, 1),
            list_input(
                "Armour",
                "BRAWL_ARMOUR",
                "brawling_armour",
                engine.default_choice(rules.table("brawling_armour")),
            ),
            empty_input("Damage die shown", "BRAWL_DAMAGE_ROLL"),
            Field("Attack roll modifier", "BRAWL_HIT_MOD", native=shown(by_label("brawling", "hit", kind))),
            Field(
                "Natural d20 needed",
                "BRAWL_NEED",
                key=True,
                native=shown("SUM(BRAWL_AC)-SUM(BRAWL_BONUS)-SUM(BRAWL_MODS)-BRAWL_HIT_MOD"),
            ),
            Field("Damage dice", "BRAWL_DICE", native=shown(by_label("brawling", "damage", kind))),
            Field(
                "Non-lethal",
                "BRAWL_NON_LETHAL",
                native=shown(value("non_lethal")),
                number_format=BOOLEAN_FORMAT,
            ),
            Field(
                "Who takes the damage",
                "BRAWL_TAKES_DAMAGE",
                native=shown(
                    f"IF({by_label('brawling_armour', 'backfires', armour)},{q(engine.ATTACKER)},{q(engine.TARGET)})"
                ),
            ),
            Field(
                "Damage",
                "BRAWL_DAMAGE",
                key=True,
                native=shown(f'IF(BRAWL_DAMAGE_ROLL="","",{damage})'),
                udf='IF(BRAWL_DAMAGE_ROLL="","",combat17_brawl_damage(BRAWL_KIND,BRAWL_DAMAGE_ROLL,BRAWL_STR))',
            ),
            working_field("Inputs entered correctly", "BRAWL_CHECK", check),
            *BRAWL_DICE_CELLS.fields(),
        ),
    )


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
