"""The Castles & Crusades calculators: Attack, and the sheet of its other calculators (hit points,
range here; falling, special ACs, movement and subdual from their own modules, ``cnc_falling``...).

Every formula mirrors ``pycalc.rulesets.cnc``; numbers are looked up in the table sheets by name and
rulings are read from the Rulings sheet (``RULING_<ID>``). The parity tests recalculate these sheets
in LibreOffice and compare every output with the engine.
"""

from __future__ import annotations

from operator import attrgetter

from openpyxl.workbook.workbook import Workbook

from pycalc import resolution as generic
from pycalc.d20 import HIT, MISS
from pycalc.grid_limits import beyond_grid_formula
from pycalc.rulesets import cnc as engine
from pycalc.rulesets.cnc import (
    BAD_DICE,
    BAD_DISTANCE,
    BAD_INCREMENT,
    KIND_TABLE,
    OUT_OF_RANGE,
    PRONE_DEFENSELESS_ROW,
    PRONE_HIT,
    PRONE_ROW,
    RANGED_VS_PRONE_ROW,
    default_choice,
    picker_tables,
)
from pycalc.sheets import attack_fields, d20_cells, d20_damage
from pycalc.sheets.attack_workings import write_face_results
from pycalc.sheets.calculator import (
    BOOLEAN_FORMAT,
    INPUT,
    Field,
    Section,
    chance_field,
    empty_input,
    rule_field,
    working_field,
    write_attack_sheet,
    write_calculator,
)
from pycalc.sheets.cnc_falling import falling_section
from pycalc.sheets.cnc_movement import charge_section, movement_section
from pycalc.sheets.cnc_odds import odds_section, write_odds_sheet
from pycalc.sheets.cnc_special_ac import disarm_section, grapple_section, min_ac, touch_section
from pycalc.sheets.cnc_subdual import subdual_normal, subdual_section
from pycalc.sheets.common import (
    protect,
    show_chart,
)
from pycalc.sheets.common import ruling_name as ruling
from pycalc.sheets.common import table_name as T
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_heat import write_face_columns
from pycalc.sheets.d20_pickers import situation_flag, situation_sum
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import Trial
from pycalc.sheets.formulas import (
    band,
    by_label,
    const,
    dice_modifier,
    dice_sides,
    plus,
    q,
    round_up,
)
from pycalc.sheets.situation_cells import (
    Pickers,
    in_words,
    kind_label,
    pick_name,
    picked_field,
    picks_with,
    situation_section,
)
from pycalc.sheets.target_state import said, with_target_state
from pycalc.tables import Row, RuleSet, Table

OTHER_SHEET = "Other calculators"
FACE_RESULTS = "CNC_FACE_RESULTS"
PICKER_TEXT = {  # choice picker -> (label in the calculator, help)
    "attack_types": ("Attack kind", "ranged kinds take the ranged modifiers; sets the effect and damage"),
    "attack_direction": ("Attack direction", "from the rear the defender also loses Dex to AC"),
    "defender_prone": (
        "Defender prone, blind or defenseless",
        "rulings prone_modifiers_stack, ranged_vs_prone",
    ),
    "concealment": ("Concealment", "a to-hit penalty, not an AC change"),
    "two_weapon_fighting": (
        "Two-weapon fighting",
        "with the attacker's Dex modifier (ruling twf_dex_modifier)",
    ),
    "cover": ("Defender's cover", "added to the defender's AC"),
    "defender_maneuver": ("Defender's own action this round", "added to the defender's AC"),
}


# --------------------------------------------------------------------------- attack


def picked(table_id: str, column: str) -> str:
    return by_label(table_id, column, pick_name(table_id))


def prone_hit(rules: RuleSet) -> str:
    table = rules.table("defender_prone")
    row_id = picked("defender_prone", "id")
    first = f"INDEX({T('defender_prone', 'id')},1)"
    stacked = (
        f'IF(AND({row_id}={q(PRONE_DEFENSELESS_ROW)},{ruling("prone_modifiers_stack")}="cumulative"),'
        f"{const(table.id, PRONE_ROW, PRONE_HIT)},0)"
    )
    replaced = (
        f'AND(ATTACK_RANGED,{ruling("ranged_vs_prone")}="ranged_replaces",'
        f"{pick_name('situational_modifiers', RANGED_VS_PRONE_ROW)})"
    )
    return f"IF({row_id}={first},0,IF({replaced},0,{picked('defender_prone', PRONE_HIT)}+{stacked}))"


def odds_dice_message() -> str:
    """What the odds say of the dice before any number: the calculator's message for dice written
    badly, and the grid's for no dice at all (the odds need dice; ``cnc_odds.odds_outputs``)."""
    return f'IF(ATTACK_DICE_TEXT="",{beyond_grid_formula(d20_cells.PREFIX)},IF(ISNUMBER(ATTACK_DICE_MOD),"",ATTACK_DICE_MOD))'


def resolution(rules: RuleSet) -> Formulas:
    """The attack roll, a hit's damage and the damage odds as the generic d20 formulas write them
    from C&C's resolution block, over this calculator's cells: its pickers are its own (``modifiers:
    own``), so it names the situation's damage (charge), the picked kind's least damage and whether
    it deals any, and the dice as the Damage workings' grid reads them."""
    return own_calculator(
        rules,
        bonus="SUM(ATTACK_BONUS)",
        target_now="ATTACK_AC",
        total_mods="ATTACK_TOTAL_MODS",
        raw_need="(ATTACK_AC-SUM(ATTACK_BONUS)-ATTACK_TOTAL_MODS)",
        need="ATTACK_NEED",
        faces="ATTACK_FACES",
        roll="ATTACK_ROLL",
        follow='""',  # C&C has no follow-up roll
        level="0",
        crit_possible="FALSE",  # no critical hits
        crit_chance="0",
        # the hit chance, the situation's damage, the target's HP and the attacks have the generic names
        damage_bonus="0",  # no free damage bonus: the dice's +N says it
        least="ATTACK_LEAST_DAMAGE",
        deals_damage="ATTACK_DEALS_DAMAGE",
        dice_text="ATTACK_DICE_TEXT",
        dice_count=f"{d20_cells.PREFIX}_COUNT",
        dice_sides=f"{d20_cells.PREFIX}_SIDES",
        dice_mod=f"{d20_cells.PREFIX}_DICE_MOD",
        dice_message=odds_dice_message(),
    )


def dice_ok(expr: str) -> str:
    """TRUE when a lower-case, space-free dice text is written plainly (as the engine requires)."""
    prefix = f'LEFT({expr},FIND("d",{expr})-1)'
    count = f'IF({prefix}="",1,VALUE({prefix}))'
    sides, modifier = dice_sides(expr), dice_modifier(expr)
    plain = f'IF({prefix}="","",{count})&"d"&{sides}&IF({modifier}>0,"+"&{modifier},IF({modifier}<0,{modifier},""))'
    return f"IFERROR(AND({plain}={expr},{count}>=1,{sides}>=1),FALSE)"


# --------------------------------------------------------------------------- the notes beside the picks


def hit_words(rules: RuleSet) -> str:
    """What the tables call a modifier to the roll ("To hit"), so a worked-out note reads as the others."""
    return next(str(c.label) for c in rules.table("defender_prone").columns if c.id == PRONE_HIT)


def picked_situation(
    rules: RuleSet,
    table_id: str,
    row: Row | None,
    kind: str,
    dex: int = 0,
    also: dict[str, str] | None = None,
) -> engine.Situation:
    """The situation with ``row`` picked (None: nothing picked) on an attack of ``kind``."""
    choices, toggles = picks_with(rules, table_id, row, {KIND_TABLE: kind, **(also or {})})
    return engine.situation(
        rules, engine.AttackInputs(0, 0, attacker_dex=dex, choices=choices, toggles=toggles)
    )


def effect_parts(rules: RuleSet, table_id: str, row: Row) -> list[str]:
    """What picking ``row`` changes, as the engine works the situation out under the rulings in force,
    on an attack of a ranged kind for a ranged-only row, else of the first kind."""
    ranged = table_id != KIND_TABLE and row.values.get("attack") == "ranged"
    kind = kind_label(rules, KIND_TABLE, ranged)
    trial = Trial(lambda picked, numbers: picked_situation(rules, table_id, picked, kind, **numbers), row)
    hit = attrgetter("hit")
    parts = trial.following(hit_words(rules), hit, "dex", "Dex modifier")
    parts += trial.change("AC", attrgetter("ac")) + trial.change("Damage", attrgetter("damage"))
    parts += trial.newly(attrgetter("loses_dex"), "defender loses Dex to AC")
    attack = row.values.get("attack")
    if table_id != KIND_TABLE and attack not in (None, "any"):
        parts.append(f"{attack} only")
    prone = {"defender_prone": str(rules.table("defender_prone").entry(PRONE_ROW).label)}
    if row.id == RANGED_VS_PRONE_ROW and trial.changed(hit, also=prone) != trial.changed(hit):
        parts.append(PRONE_REPLACED)
    return parts


PRONE_REPLACED = "replaces the prone bonus"
DEX_PENALTY_TABLE = "two_weapon_fighting"


def choice_words(table: Table) -> tuple[str, str]:
    return PICKER_TEXT.get(table.id, (table.title, ""))


def toggle_words(rules: RuleSet, table: Table, row: Row) -> tuple[str, str]:
    return str(row.label), str(row.values.get("note") or "")


def pickers_of(rules: RuleSet) -> Pickers:
    """The Attack calculator's pick cells: the block's ``modifiers``, choices then toggles."""
    return Pickers(
        picker_tables(rules, "choice"),
        picker_tables(rules, "toggle"),
        default_choice,
        effect=in_words(effect_parts),
        choice_words=choice_words,
        toggle_words=toggle_words,
        # a penalty the attacker's Dex offsets, or a loss of the defender's Dex
        beyond_numbers=lambda table: table.id == DEX_PENALTY_TABLE or "loses_dex" in table.column_ids,
    )


def attack_sections(rules: RuleSet) -> list[Section]:
    block, pickers = generic.block(rules), pickers_of(rules)
    result = "ATTACK_RESULT"
    rolled = f'OR({result}="{HIT}",{result}="{MISS}")'
    kind = "PICK_ATTACK_TYPES"
    # the roll is taken as typed, not checked against the dice (an empty one counts 0), as the engine does
    hit_damage = resolution(rules).damage_of(result, "SUM(ATTACK_DAMAGE_ROLL)")
    damage = (
        f'IF({rolled},IF(ISNUMBER(ATTACK_DICE_MOD),IF({result}="{HIT}",{hit_damage},0),ATTACK_DICE_MOD),"")'
    )
    effect = (
        f'IF({rolled},IF({result}="{HIT}",{by_label(KIND_TABLE, "on_hit", kind)},'
        f'{by_label(KIND_TABLE, "on_miss", kind)}),"")'
    )
    dice_text = "ATTACK_DICE_TEXT"
    args = "ATTACK_BONUS,ATTACK_AC"
    return [
        Section(
            "Attacker and defender",
            (
                Field(
                    "Attacker's bonus (BtH + Str melee / Dex ranged)",
                    "ATTACK_BONUS",
                    INPUT,
                    3,
                    help="monsters: BtH = hit dice; add magic weapon and racial bonuses",
                ),
                Field(
                    "Defender's armor class (AC)",
                    "ATTACK_TARGET",
                    INPUT,
                    15,
                    help="with armor, shield and Dex",
                ),
                attack_fields.free_mods_field(
                    help_text="the Castle Keeper's call (the range band is worked out below)"
                ),
                attack_fields.level_field("not used by C&C's attack roll"),
                *attack_fields.typed_number_fields(block),
            ),
        ),
        odds_section(rules, resolution(rules)),
        situation_section(rules, pickers_of(rules)),
        attack_range_section(),
        Section(
            "Before the roll",
            (
                Field(
                    "Defender's AC in this situation",
                    "ATTACK_AC",
                    native=f"MAX({min_ac()},SUM(ATTACK_TARGET)+ATTACK_SITUATION_AC)",
                ),
                Field(
                    "Roll this or more on the d20",
                    "ATTACK_NEED",
                    key=True,
                    native=resolution(rules).need(),
                    udf=f"cnc_attack_need({args},ATTACK_TOTAL_MODS)",
                ),
                chance_field(
                    "Chance to hit",
                    "ATTACK_HIT_CHANCE",
                    f'COUNTIF({FACE_RESULTS},"{HIT}")/ATTACK_FACES',
                    f"cnc_hit_chance({args},ATTACK_TOTAL_MODS)",
                    key=True,
                ),
            ),
        ),
        Section(
            "The roll",
            (
                attack_fields.attack_roll_field(rules, "d20 roll (natural)"),
                attack_fields.follow_roll_field(
                    rules,
                    "Second d20",
                    "not used: C&C has no confirmation, critical or fumble roll",
                    checked=False,
                ),
                Field("Damage dice", "ATTACK_DICE", INPUT, "1d8", help="e.g. 1d8+2; the +2 is added for you"),
                attack_fields.damage_roll_field(
                    "Damage rolled (the dice only)", "the sum on the dice, without the +modifier"
                ),
            ),
        ),
        attack_fields.outcome_section(
            attack_fields.result_field(
                f'IF(ATTACK_RANGE_STOP<>"",ATTACK_RANGE_STOP,{resolution(rules).checked_result()})',
                'IF(ATTACK_RANGE_STOP<>"",ATTACK_RANGE_STOP,'
                f'IF(ATTACK_ROLL="","",cnc_attack_result(ATTACK_ROLL,{args},ATTACK_TOTAL_MODS)))',
            ),
            attack_fields.effect_field(effect, f'IF({rolled},cnc_attack_effect({result},ATTACK_KIND_ID),"")'),
            attack_fields.damage_field(
                damage,
                f"IF({rolled},cnc_attack_damage({result},ATTACK_DICE,ATTACK_DAMAGE_ROLL,"
                'ATTACK_SITUATION_DAMAGE,ATTACK_KIND_ID),"")',
                "Damage dealt",
            ),
            summary=resolution(rules).summary(said(rules)),
        ),
        attack_fields.workings_section(
            attack_fields.kind_id_field(pickers, KIND_TABLE),
            attack_fields.ranged_field(pickers, KIND_TABLE),
            working_field(
                "To hit from the situation",
                "ATTACK_SITUATION_HIT",
                plus(situation_sum(rules, block, "hit"), prone_hit(rules), "ATTACK_RANGE_HIT"),
            ),
            attack_fields.total_mods_field("ATTACK_SITUATION_HIT"),
            working_field(
                "AC from the situation (cover, defender's action, Dex lost)",
                "ATTACK_SITUATION_AC",
                situation_sum(rules, block, "ac"),
            ),
            working_field(
                "Defender loses Dex to AC",
                "ATTACK_LOSES_DEX",
                situation_flag(rules, block, "loses_dex"),
                flag=True,
            ),
            working_field(
                "Damage from the situation (charge)",
                "ATTACK_SITUATION_DAMAGE",
                situation_sum(rules, block, "damage"),
            ),
            picked_field(
                pickers,
                "The attack kind deals damage",
                "ATTACK_DEALS_DAMAGE",
                KIND_TABLE,
                "deals_damage",
                True,
            ),
            picked_field(
                pickers,
                "Least damage of a hit (attack kind)",
                "ATTACK_LEAST_DAMAGE",
                KIND_TABLE,
                "min_damage",
            ),
            working_field(
                "Damage dice as read",
                "ATTACK_DICE_TEXT",
                'IF(ISTEXT(ATTACK_DICE),LOWER(SUBSTITUTE(ATTACK_DICE," ","")),IF(ATTACK_DICE="","","#"))',
            ),
            working_field(
                "Modifier of the damage dice",
                "ATTACK_DICE_MOD",
                f'IF({dice_text}="",0,IF({dice_ok(dice_text)},{dice_modifier(dice_text)},"{BAD_DICE}"))',
            ),
            rule_field("Faces of the attack die", "ATTACK_FACES", "attack_roll", "attack_die_faces"),
            *range_workings(),
        ),
    ]


def write_face_workings(book: Workbook, rules: RuleSet) -> None:
    """One row per face of the d20 with its result for the Attack calculator: the odds count these."""
    rolls = resolution(rules)
    sheet = write_face_results(
        book, rules, rolls, (FACE_RESULTS, "Result for the Attack calculator", 34), "Natural roll"
    )
    write_face_columns(book, sheet, rules, rolls.block, first_col=4)
    protect(sheet)


# --------------------------------------------------------------------------- other calculators


def hp_section() -> Section:
    hp = "HP_NOW"
    bad = f"NOT(ISNUMBER({hp}))"

    def column(name: str) -> str:
        return f'IF({bad},"#HP? a number is needed",{band("hit_point_states", name, hp)})'

    return Section(
        "Hit point state",
        (
            Field("Current hit points", hp, INPUT, 0),
            Field("State", "HP_STATE_NOW", key=True, native=column("state"), udf=f'hp_state("cnc",{hp})'),
            Field("Can act", "HP_CAN_ACT", native=column("can_act"), number_format=BOOLEAN_FORMAT),
            Field("Hit points lost per round", "HP_LOSS_PER_ROUND", native=column("hp_loss_per_round")),
        ),
    )


RANGE_INCREMENTS = "ATTACK_RANGE_INCREMENTS"


def attack_range_section() -> Section:
    """The range band of a ranged attack kind from its weapon's increment and the distance, both typed
    (either empty, or a melee kind: no band, no modifier)."""
    increment, distance, increments = "ATTACK_RANGE_INCREMENT", "ATTACK_DISTANCE", RANGE_INCREMENTS
    return Section(
        "Range (a ranged attack: both typed, the band's modifier is added)",
        (
            empty_input("Weapon's range increment (ft)", increment, help_text="empty: no range band"),
            empty_input("Distance to the target (ft)", distance, help_text="empty: no range band"),
            Field(
                "Range band",
                "ATTACK_RANGE_BAND",
                native=f"IF(ISNUMBER({increments}),{band('range_bands', 'band', increments)},{increments})",
            ),
        ),
    )


def range_workings() -> tuple[Field, ...]:
    """The range band's increments, its modifier, and what refuses the attack (out of range, or an
    increment or distance that cannot be: ``engine.range_stop``, read from the situation)."""
    increment, distance, increments = "ATTACK_RANGE_INCREMENT", "ATTACK_DISTANCE", RANGE_INCREMENTS
    typed = f"AND(ATTACK_RANGED,ISNUMBER({increment}),ISNUMBER({distance}))"
    counted = f'IF({typed},{increments_counted(increment, distance)},"")'
    hit = band("range_bands", "hit", increments)
    within = band("range_bands", "in_range", increments)
    return (
        working_field("Range increments (rounded up)", increments, counted),
        working_field(
            "To hit from the range band",
            "ATTACK_RANGE_HIT",
            f'IF(ISNUMBER({increments}),IF({hit}="",0,{hit}),0)',
        ),
        working_field(
            "What stops the attack (range)",
            "ATTACK_RANGE_STOP",
            f'IF(ISNUMBER({increments}),IF({within},"",{q(OUT_OF_RANGE)}),{increments})',
        ),
    )


def increments_counted(increment: str, distance: str) -> str:
    """The range increments of ``distance`` (rounded up), or why it cannot be (``engine.range_increments``)."""
    return (
        f"IF({increment}<=0,{q(BAD_INCREMENT)},IF({distance}<0,{q(BAD_DISTANCE)},"
        f"{round_up(f'{distance}/{increment}')}))"
    )


def range_section() -> Section:
    counted = increments_counted("RANGE_INCREMENT", "SUM(RANGE_DISTANCE)")
    increments = f"IF(NOT(ISNUMBER(RANGE_INCREMENT)),{q(BAD_INCREMENT)},{counted})"
    hit = band("range_bands", "hit", "RANGE_INCREMENTS")
    return Section(
        "Range",
        (
            Field("Weapon's range increment (ft)", "RANGE_INCREMENT", INPUT, 50),
            Field("Distance to the target (ft)", "RANGE_DISTANCE", INPUT, 80),
            Field("Range increments (rounded up)", "RANGE_INCREMENTS", native=increments),
            Field(
                "Range",
                "RANGE_BAND",
                key=True,
                native=f"IF(ISNUMBER(RANGE_INCREMENTS),{band('range_bands', 'band', 'RANGE_INCREMENTS')},RANGE_INCREMENTS)",
                udf="cnc_range_band(RANGE_INCREMENT,RANGE_DISTANCE)",
            ),
            Field(
                "To hit",
                "RANGE_HIT",
                key=True,
                native=f'IF(ISNUMBER(RANGE_INCREMENTS),IF({hit}="","",{hit}),RANGE_INCREMENTS)',
                udf="cnc_range_modifier(RANGE_INCREMENT,RANGE_DISTANCE)",
                help="empty: out of range",
            ),
        ),
    )


def other_sections(rules: RuleSet) -> list[Section]:
    return [
        falling_section(),
        hp_section(),
        disarm_section(rules),
        grapple_section(rules),
        touch_section(rules),
        movement_section(rules),
        charge_section(),
        range_section(),
        subdual_section(),
    ]


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    attack_sheet = write_attack_sheet(
        book,
        rules,
        "Yellow cells are yours: type the bonus and AC, pick the situation, then enter the d20 and the damage "
        "rolled. Green cells are worked out from the rule tables in this workbook.",
        with_target_state(
            rules,
            attack_sections(rules),
            subdual_normal(f"MAX({const('subdual_damage', 'weapon_subdual_min_damage')},ATTACK_DAMAGE)"),
        ),
        with_udfs,
    )
    write_calculator(
        book,
        OTHER_SHEET,
        f"{rules.name}: falling, hit points, special ACs, movement, range, subdual",
        "Yellow cells are yours; green cells are worked out from the rule tables. Rulings in force: Rulings sheet.",
        other_sections(rules),
        with_udfs,
    )
    write_face_workings(book, rules)
    formulas = resolution(rules)
    show_chart(attack_sheet, d20_damage.write_damage_chart(book, rules, formulas.block, formulas.c))
    write_odds_sheet(book, rules)


__all__ = ["pick_name", "write_calculators"]
