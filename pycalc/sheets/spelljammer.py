"""The spelljammer calculators: Strike (attack, odds, outcome, stun, wounds) and Defense & casting.

Every formula mirrors ``pycalc.rulesets.spelljammer_calculator`` and the engine modules; the parity tests
recalculate these sheets in LibreOffice and compare them with the engine.
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook

from pycalc.rulesets.spelljammer_calculator import (
    CHOICE_PICKERS,
    MODIFIER_COLUMNS,
    RANGED_ONLY,
    TOGGLE_PICKERS,
    default_choice,
)
from pycalc.sheets.calculator import (
    BOOLEAN_FORMAT,
    INPUT,
    WORKING,
    Field,
    Section,
    write_calculator,
    write_roll_block_calculator,
)
from pycalc.sheets.common import (
    PERCENT_FORMAT,
    absolute,
    define_name,
    protect,
    put,
    put_formula,
    ruling_name,
    show_chart,
)
from pycalc.sheets.common import table_name as T
from pycalc.sheets.dual import Udfs
from pycalc.sheets.formulas import band, by_label, const, last, plus, round_down, round_up
from pycalc.sheets.roll_entry import die_roll
from pycalc.sheets.situation_cells import Pickers, situation_section, sum_of
from pycalc.sheets.spelljammer_odds import odds_fields, write_damage_workings, write_odds_sheet
from pycalc.tables import Row, RuleSet, Table

STRIKE_SHEET = "Strike calculator"
DEFENSE_SHEET = "Defense & casting"
ODDS_SHEET = "d100 workings"
RANKS = ("miss", "hit", "critical", "grievous")
ROLL_MESSAGE = '"#ROLL? 1 to "&DICE_FACES&" (00 = "&DICE_FACES&")"'


def d100_read(cell: str) -> str:
    """The d100 roll in ``cell`` as read: 00 (typed 0, or empty as 0) is the die's highest face."""
    return f"IF(AND(ISNUMBER({cell}),{cell}=0),DICE_FACES,{cell})"


def rank(outcome_id: str) -> str:
    return f"RANK_{outcome_id.upper()}"


def rank_formula(roll: str) -> str:
    """Outcome rank of one d100 roll against the calculator's STRIKE_MODIFIED_SC (see strike.resolve)."""
    table_rank = (
        f"IF({roll}<=STRIKE_GRIEVOUS_UP_TO,{rank('grievous')},IF({roll}<=STRIKE_CRITICAL_UP_TO,{rank('critical')},"
        f"IF({roll}<=STRIKE_MODIFIED_SC,{rank('hit')},{rank('miss')})))"
    )
    floor = f"IFERROR(INDEX({T('outcomes', 'rank')},MATCH({band('automatic_results', 'at_least', roll)},{T('outcomes', 'id')},0)),0)"
    return f"IF({band('automatic_results', 'always_miss', roll)},{rank('miss')},MAX({floor},{table_rank}))"


def outcome_column(column: str) -> str:
    return f"INDEX({T('outcomes', column)},MATCH(STRIKE_RANK,{T('outcomes', 'rank')},0))"


def situation_terms(rules: RuleSet, column: str) -> str:
    """Sum of one modifier column over every picker and the target's size, ranged-only ones gated."""
    size = rules.table("target_size")
    by_size = by_label(size.id, column, "TARGET_SIZE") if column in size.column_ids else ""
    return plus(sum_of(rules, PICKERS, column), PICKERS.gate(size.id, by_size) if by_size else "")


def choice_words(table: Table) -> tuple[str, str]:
    return table.title, "ranged attacks only" if table.id in RANGED_ONLY else table.note[:90]


def toggle_words(rules: RuleSet, table: Table, row: Row) -> tuple[str, str]:
    """The box's label and its numbers ("SC +2"), with the attacks it counts for."""
    help_text = ", ".join(f"{c.label} {row[c.id]:+}" for c in table.columns if row[c.id])
    return str(row.label), help_text + (" (ranged attacks only)" if table.id in RANGED_ONLY else "")


PICKERS = Pickers(
    CHOICE_PICKERS,
    TOGGLE_PICKERS,
    default_choice,
    ranged_only=frozenset(RANGED_ONLY),
    ranged="STRIKE_RANGED",
    choice_words=choice_words,
    toggle_words=toggle_words,
    unnoted=frozenset(CHOICE_PICKERS),
    toggle_note=lambda rules, text_of: None,  # the help says the numbers; no ruling changes them
)


def strike_sections(rules: RuleSet) -> list[Section]:
    faces = rules.constant("dice", "strike_die_faces")
    sizes = f"={T('stun_size', 'label')}"
    attackers = (
        f"MAX(0,SUM(STRIKE_ATTACKERS)-{const('multiple_attackers', 'attackers_alone')})"
        f"*{const('multiple_attackers', 'sc_per_extra_attacker')}"
    )
    situation_sc = plus(situation_terms(rules, "sc"), attackers)
    surprise = "PICK_SURPRISE"
    scaled_def = f"STRIKE_DEF*{by_label('surprise', 'def_factor', surprise)}"
    effective_def = (
        f'IF({ruling_name("half_def_rounding")}="down",{round_down(scaled_def)},{round_up(scaled_def)})'
        f"+IF({by_label('surprise', 'keeps_magic_def', surprise)},SUM(TARGET_MAGIC_DEF),0)+STRIKE_SITUATION_DEF"
    )
    roll_check = (
        f"IF(NOT(ISNUMBER(STRIKE_ROLL_READ)),{ROLL_MESSAGE},"
        f"IF(OR(STRIKE_ROLL_READ<1,STRIKE_ROLL_READ>DICE_FACES,STRIKE_ROLL_READ<>INT(STRIKE_ROLL_READ)),{ROLL_MESSAGE},"
        f"{rank_formula('STRIKE_ROLL_READ')}))"
    )
    above = const("stun_rules", "hp_bonus_above")
    hp_bonus = (
        f"IF(SUM(TARGET_MAX_HP)>{above},{round_up(f'(TARGET_MAX_HP-{above})/' + const('stun_rules', 'hp_bonus_step'))}"
        f"*{const('stun_rules', 'hp_bonus_per_step')},0)"
    )
    table_top = f"MAX({T('stun_table', 'to')})"
    threshold = (
        f"IF(TARGET_ADJUSTED_CON<={const('stun_rules', 'human_max_con')},TARGET_ADJUSTED_CON,"
        f"IF(TARGET_ADJUSTED_CON<={table_top},{band('stun_table', 'threshold', 'TARGET_ADJUSTED_CON')},"
        f'IF({ruling_name("stun_above_table")}="cap",{last("stun_table", "threshold")},'
        f"{last('stun_table', 'threshold')}+{const('stun_rules', 'progression_step')}*(TARGET_ADJUSTED_CON-{table_top}))))"
    )

    def wound(hp: str) -> str:
        tier = f"MATCH({hp},{T('wound_tiers', 'from')},1)"
        return (
            f'IF(SUM(TARGET_START_HP)<=0,"#START HP? more than 0",IF({tier}=MATCH(TARGET_START_HP,{T("wound_tiers", "from")},1),0,'
            f"INDEX({T('wound_tiers', 'modifier')},{tier})))"
        )

    mods = "STRIKE_MODS"
    sc_plus = "STRIKE_SC+STRIKE_SITUATION_SC"
    udf_args = f"{sc_plus},STRIKE_DEF_EFFECTIVE"
    rolled = "ISNUMBER(STRIKE_RANK)"
    chance = "COUNTIF(D100_RANKS,{})/DICE_FACES"
    return [
        Section(
            "Attacker and target",
            (
                Field("Attacker's strike chance (SC)", "STRIKE_SC", INPUT, 112),
                Field("Target's DEF", "STRIKE_DEF", INPUT, 40),
                Field(
                    "Target's always-on magical DEF",
                    "TARGET_MAGIC_DEF",
                    INPUT,
                    0,
                    help="only counts when surprised out of combat",
                ),
                Field("Free modifier to SC (house rule, skill...)", "STRIKE_MODS", INPUT, 0),
                Field(
                    "Attackers on this target",
                    "STRIKE_ATTACKERS",
                    INPUT,
                    1,
                    help="+10 SC for each attacker above one; a pair of tentacles is one attacker",
                ),
                Field("Target's size", "TARGET_SIZE", INPUT, "Medium", options=sizes),
                Field("Target's CON", "TARGET_CON", INPUT, 14),
                Field(
                    "Target's maximum HP", "TARGET_MAX_HP", INPUT, 30, help="above 100 adds to CON for stun"
                ),
                Field("Target's hit points now", "TARGET_HP", INPUT, 30),
                Field("Target's starting hit points", "TARGET_START_HP", INPUT, 30),
                Field("Target's PROT", "STRIKE_PROT", INPUT, 3),
                Field(
                    "Attacker's damage dice",
                    "STRIKE_DICE",
                    INPUT,
                    "1d8+4",
                    help="e.g. 2d6+3; for the odds before the roll",
                ),
                Field("Attacks this round", "STRIKE_ATTACKS", INPUT, 1),
            ),
        ),
        situation_section(rules, PICKERS),
        Section(
            "Before the roll",
            (
                Field(
                    "Roll this or less to hit (modified SC)",
                    "STRIKE_MODIFIED_SC",
                    key=True,
                    native=f"{sc_plus}-STRIKE_DEF_EFFECTIVE+SUM({mods})",
                    udf=f"strike_target({udf_args},{mods})",
                ),
                Field(
                    "Critical on 01 to",
                    "STRIKE_CRITICAL_UP_TO",
                    native=f"IFERROR({band('critical_grievous', 'critical_max', 'STRIKE_MODIFIED_SC')},0)",
                    udf="strike_crit_max(STRIKE_MODIFIED_SC)",
                ),
                Field(
                    "Grievous on 01 to",
                    "STRIKE_GRIEVOUS_UP_TO",
                    native=f"IFERROR({band('critical_grievous', 'grievous_max', 'STRIKE_MODIFIED_SC')},0)",
                    udf="strike_grievous_max(STRIKE_MODIFIED_SC)",
                ),
                Field(
                    "Chance to hit",
                    "STRIKE_CHANCE_TO_HIT",
                    key=True,
                    number_format=PERCENT_FORMAT,
                    native=f"1-{chance.format(rank('miss'))}",
                    udf=f"strike_hit_chance({udf_args},{mods})",
                ),
                Field(
                    "Chance of a critical",
                    "STRIKE_CRIT_CHANCE",
                    number_format=PERCENT_FORMAT,
                    native=chance.format(rank("critical")),
                    udf=f'strike_chance({udf_args},"Critical",{mods})',
                ),
                Field(
                    "Chance of a grievous hit",
                    "STRIKE_GRIEVOUS_CHANCE",
                    number_format=PERCENT_FORMAT,
                    native=chance.format(rank("grievous")),
                    udf=f'strike_chance({udf_args},"Grievous",{mods})',
                ),
                Field(
                    "Chance of a plain hit",
                    "STRIKE_PLAIN_HIT_CHANCE",
                    number_format=PERCENT_FORMAT,
                    native=chance.format(rank("hit")),
                    udf=f'strike_chance({udf_args},"Hit",{mods})',
                ),
                Field(
                    "Chance of a miss",
                    "STRIKE_MISS_CHANCE",
                    number_format=PERCENT_FORMAT,
                    native=chance.format(rank("miss")),
                    udf=f'strike_chance({udf_args},"Miss",{mods})',
                ),
                Field(
                    "Stunned by a hit doing more than",
                    "TARGET_STUN_THRESHOLD",
                    native=threshold,
                    udf="stun_threshold(TARGET_CON,TARGET_SIZE,TARGET_MAX_HP)",
                ),
                Field(
                    "Target's wound modifier now",
                    "TARGET_WOUND_MOD",
                    native=wound("TARGET_HP"),
                    udf="wound_modifier(TARGET_HP,TARGET_START_HP)",
                ),
                *odds_fields(),
            ),
        ),
        Section(
            "The roll",
            (
                Field(
                    "d100 roll (00 = 100)",
                    "STRIKE_ROLL",
                    INPUT,
                    None,
                    help="leave empty until rolled",
                    roll=die_roll(faces, zero_reads=True),
                ),
                Field("Damage rolled (with weapon bonuses)", "STRIKE_DAMAGE", INPUT, None),
            ),
        ),
        Section(
            "Outcome",
            (
                Field(
                    "Result",
                    "STRIKE_OUTCOME",
                    key=True,
                    native=f'IF(STRIKE_RANK="","",IF({rolled},{outcome_column("label")},STRIKE_RANK))',
                    udf=f'IF(STRIKE_ROLL="","",strike_result({udf_args},STRIKE_ROLL,{mods}))',
                ),
                Field(
                    "What it does",
                    "STRIKE_OUTCOME_EFFECT",
                    native=f'IF({rolled},{outcome_column("effect")},"")',
                    udf='IF(STRIKE_OUTCOME="","",strike_effect(STRIKE_OUTCOME))',
                ),
                Field(
                    "Damage with situation modifiers",
                    "STRIKE_DAMAGE_TOTAL",
                    native="MAX(0,SUM(STRIKE_DAMAGE)+STRIKE_SITUATION_DAMAGE)",
                ),
                Field(
                    "Hit points lost",
                    "STRIKE_HP_LOST",
                    key=True,
                    native=f"IF({rolled},MAX(0,STRIKE_DAMAGE_TOTAL*{outcome_column('damage_multiplier')}"
                    f'-IF({outcome_column("prot_applies")},SUM(STRIKE_PROT),0)),"")',
                    udf=f'IF({rolled},strike_hp_loss(STRIKE_DAMAGE_TOTAL,STRIKE_PROT,STRIKE_OUTCOME),"")',
                ),
                Field(
                    "Target stunned (loses remaining attacks)",
                    "TARGET_STUNNED",
                    key=True,
                    native=f'IF({rolled},STRIKE_STUN_DAMAGE>TARGET_STUN_THRESHOLD,"")',
                    udf=f'IF({rolled},is_stunned(STRIKE_STUN_DAMAGE,TARGET_CON,TARGET_SIZE,TARGET_MAX_HP),"")',
                ),
                Field(
                    "Target's armour PROT after the hit",
                    "STRIKE_PROT_AFTER",
                    native=f'IF({rolled},SUM(STRIKE_PROT)-{outcome_column("prot_wear")},"")',
                ),
                Field(
                    "Target's hit points after the hit",
                    "TARGET_HP_AFTER",
                    native='IF(ISNUMBER(STRIKE_HP_LOST),TARGET_HP-STRIKE_HP_LOST,"")',
                ),
                Field(
                    "Target's wound modifier after the hit",
                    "TARGET_WOUND_MOD_AFTER",
                    native=f'IF(ISNUMBER(STRIKE_HP_LOST),{wound("TARGET_HP_AFTER")},"")',
                    udf='IF(ISNUMBER(STRIKE_HP_LOST),wound_modifier(TARGET_HP_AFTER,TARGET_START_HP),"")',
                ),
                Field(
                    "In one line",
                    "STRIKE_SUMMARY",
                    key=True,
                    native='IF(STRIKE_OUTCOME="","Enter the d100 roll",IF(LEFT(STRIKE_OUTCOME,1)="#",STRIKE_OUTCOME,'
                    'STRIKE_OUTCOME&": "&STRIKE_OUTCOME_EFFECT&", "&STRIKE_HP_LOST&" HP lost"'
                    '&IF(TARGET_STUNNED=TRUE,", target stunned","")))',
                ),
            ),
        ),
        Section(
            "Workings (how the numbers above are made)",
            (
                Field(
                    "Ranged attack",
                    "STRIKE_RANGED",
                    WORKING,
                    native=by_label("attack_kinds", "ranged", "PICK_ATTACK_KINDS"),
                    number_format=BOOLEAN_FORMAT,
                ),
                Field("SC from the situation", "STRIKE_SITUATION_SC", WORKING, native=situation_sc),
                Field(
                    "DEF from the situation",
                    "STRIKE_SITUATION_DEF",
                    WORKING,
                    native=situation_terms(rules, "def"),
                ),
                Field(
                    "Damage from the situation",
                    "STRIKE_SITUATION_DAMAGE",
                    WORKING,
                    native=situation_terms(rules, "damage"),
                ),
                Field(
                    "Target's DEF after surprise and situation",
                    "STRIKE_DEF_EFFECTIVE",
                    WORKING,
                    native=effective_def,
                ),
                Field(
                    "d100 roll as read (00 = 100)",
                    "STRIKE_ROLL_READ",
                    WORKING,
                    native=d100_read("STRIKE_ROLL"),
                ),
                Field(
                    "Outcome rank of the roll",
                    "STRIKE_RANK",
                    WORKING,
                    native=f'IF(STRIKE_ROLL="","",{roll_check})',
                ),
                Field(
                    "CON for stun (size and HP added)",
                    "TARGET_ADJUSTED_CON",
                    WORKING,
                    native=f"TARGET_CON+{by_label('stun_size', 'con_bonus', 'TARGET_SIZE')}+{hp_bonus}",
                ),
                Field(
                    "Damage compared with the stun threshold",
                    "STRIKE_STUN_DAMAGE",
                    WORKING,
                    native=f'IF({rolled},IF({ruling_name("stun_damage_basis")}="taken",STRIKE_HP_LOST,'
                    f'STRIKE_DAMAGE_TOTAL*(STRIKE_RANK>{rank("miss")})),"")',
                ),
                Field(
                    "Faces of the strike die", "DICE_FACES", WORKING, native=const("dice", "strike_die_faces")
                ),
                *(
                    Field(
                        f"Rank of {o}",
                        rank(o),
                        WORKING,
                        native=f'INDEX({T("outcomes", "rank")},MATCH("{o}",{T("outcomes", "id")},0))',
                    )
                    for o in RANKS
                ),
            ),
        ),
    ]


def defense_sections(rules: RuleSet) -> list[Section]:
    faces = rules.constant("dice", "strike_die_faces")
    per_def = const("defense_options", "sc_per_def")
    max_sacrifice = f"INT(DEFENSE_RANK*{const('defense_options', 'max_sacrifice_per_rank')})"
    max_bonus = round_up(f"DEFENSE_RANK*{const('defense_options', 'max_def_per_rank')}")
    rank_check = 'IF(SUM(DEFENSE_RANK)<0,"#RANK? 0 or more",{})'
    cast_from, cast_to = T("mage_casting_time", "from"), T("mage_casting_time", "to")
    cast_band = f"MATCH(CAST_RANK,{cast_from},1)"
    cast_time = (
        f'IF(OR(CAST_RANK<MIN({cast_from}),CAST_RANK>MAX({cast_to})),"#RANK? "&MIN({cast_from})&" to "&MAX({cast_to}),'
        f'IF(UPPER(CAST_KIND)="GK",INDEX({T("mage_casting_time", "gk")},{cast_band}),'
        f'IF(UPPER(CAST_KIND)="SK",INDEX({T("mage_casting_time", "sk")},{cast_band}),"#KIND? use GK or SK")))'
    )
    goes_off = (
        f"IF(NOT(ISNUMBER(CAST_SEGMENTS)),CAST_SEGMENTS,IF(CAST_INITIATIVE-CAST_SEGMENTS>{const('initiative_rules', 'lost_at_or_below')},"
        f'CAST_INITIATIVE-CAST_SEGMENTS,IF({ruling_name("late_spell")}="lost","Lost",'
        f'"Next round on "&({const("initiative_rules", "round_start_for_long_spells")}-CAST_SEGMENTS))))'
    )
    training = "SHOOT_TRAINING"
    total = (
        f"{d100_read('SHOOT_ROLL')}+SUM(SHOOT_WEAPON_RANK)+{const('shooting_constants', 'master_bowman_rank_multiplier')}*SUM(SHOOT_MASTER_RANK)"
        f"+{by_label('shooter_training', 'roll_bonus', training)}"
    )
    target = (
        f"IF(OR({d100_read('SHOOT_ROLL')}<={by_label('shooter_training', 'always_friend_on', training)},"
        f'SHOOT_TOTAL<={by_label("shooting_into_melee", "friend_on", "SHOOT_SITUATION")}),"Friend","Foe")'
    )
    situation_friends = by_label("shooting_into_melee", "friends", "SHOOT_SITUATION")
    situation_opponents = by_label("shooting_into_melee", "opponents", "SHOOT_SITUATION")
    return [
        Section(
            "Defending, Full Defense, Desperate Defense",
            (
                Field("Defender's normal DEF", "DEFENSE_DEF", INPUT, 30),
                Field("Defender's weapon rank", "DEFENSE_RANK", INPUT, 5),
                Field(
                    "SC sacrificed for Defending",
                    "DEFENSE_SC_SACRIFICED",
                    INPUT,
                    20,
                    help="2 SC for 1 DEF, fractions down; at most rank x 5",
                ),
                Field(
                    "Most SC that may be sacrificed",
                    "DEFENSE_MAX_SACRIFICE",
                    native=rank_check.format(max_sacrifice),
                ),
                Field(
                    "DEF gained by Defending",
                    "DEFENDING_DEF_BONUS",
                    key=True,
                    native=rank_check.format(
                        'IF(SUM(DEFENSE_SC_SACRIFICED)<0,"#SC? 0 or more",IF(DEFENSE_SC_SACRIFICED>DEFENSE_MAX_SACRIFICE,'
                        f'"#MAX? rank "&DEFENSE_RANK&" sacrifices at most "&DEFENSE_MAX_SACRIFICE&" SC",'
                        f"INT(DEFENSE_SC_SACRIFICED/{per_def})))"
                    ),
                    udf="defending_bonus(DEFENSE_SC_SACRIFICED,DEFENSE_RANK)",
                ),
                Field(
                    "DEF in Full Defense (no attack)",
                    "FULL_DEFENSE_DEF",
                    key=True,
                    native=rank_check.format(
                        f"DEFENSE_DEF+{const('defense_options', 'full_defense_bonus')}+{max_bonus}"
                    ),
                    udf="full_defense(DEFENSE_DEF,DEFENSE_RANK)",
                ),
                Field(
                    "DEF in Desperate Defense (no other action)",
                    "DESPERATE_DEFENSE_DEF",
                    key=True,
                    native=rank_check.format(
                        f"DEFENSE_DEF+{const('defense_options', 'desperate_defense_bonus')}+{max_bonus}"
                    ),
                    udf="desperate_defense(DEFENSE_DEF,DEFENSE_RANK)",
                ),
            ),
        ),
        Section(
            "Mage spell casting",
            (
                Field("Spell rank", "CAST_RANK", INPUT, 8),
                Field("Spell kind", "CAST_KIND", INPUT, "SK", options="GK,SK"),
                Field("Initiative rolled (with modifiers)", "CAST_INITIATIVE", INPUT, 9),
                Field(
                    "Casting time",
                    "CAST_SEGMENTS",
                    key=True,
                    native=cast_time,
                    udf="cast_time(CAST_RANK,CAST_KIND)",
                ),
                Field(
                    "Spell goes off on initiative",
                    "CAST_GOES_OFF",
                    key=True,
                    native=goes_off,
                    udf="spell_goes_off(CAST_INITIATIVE,CAST_SEGMENTS)",
                    help="-6 or later: see the late_spell ruling",
                ),
            ),
        ),
        Section(
            "Shooting into melee",
            (
                Field("d100 roll (00 = 100)", "SHOOT_ROLL", INPUT, 50, roll=die_roll(faces, zero_reads=True)),
                Field("Weapon rank", "SHOOT_WEAPON_RANK", INPUT, 5),
                Field("Master Bowman rank", "SHOOT_MASTER_RANK", INPUT, 0),
                Field(
                    "Training",
                    "SHOOT_TRAINING",
                    INPUT,
                    default_choice(rules.table("shooter_training")),
                    options=f"={T('shooter_training', 'label')}",
                ),
                Field(
                    "Friends and opponents in the melee",
                    "SHOOT_SITUATION",
                    INPUT,
                    default_choice(rules.table("shooting_into_melee")),
                    options=f"={T('shooting_into_melee', 'label')}",
                ),
                Field("Total (roll + rank + 2 x Master Bowman + training)", "SHOOT_TOTAL", native=total),
                Field(
                    "The shot targets",
                    "SHOOT_TARGET",
                    key=True,
                    native=target,
                    udf=f"shooting_target(SHOOT_ROLL,SHOOT_WEAPON_RANK,SHOOT_MASTER_RANK,SHOOT_TRAINING,{situation_friends},{situation_opponents})",
                ),
            ),
        ),
    ]


def write_odds_workings(book: Workbook, rules: RuleSet) -> None:
    """One row per face of the d100 with that roll's outcome rank: the odds count these."""
    sheet = book.create_sheet(ODDS_SHEET)
    put(sheet["A1"], "Roll")
    put(sheet["B1"], "Outcome rank for the Strike calculator")
    put(sheet["C1"], "Always a miss")
    put(sheet["D1"], "At least (rank)")
    faces = rules.constant("dice", "strike_die_faces")
    for roll in range(1, faces + 1):
        row = roll + 1
        put(sheet.cell(row, 1), roll)
        put_formula(sheet.cell(row, 2), rank_formula(f"A{row}"))
        put_formula(sheet.cell(row, 3), f"IF({band('automatic_results', 'always_miss', f'A{row}')},1,0)")
        at_least = band("automatic_results", "at_least", f"A{row}")
        put_formula(
            sheet.cell(row, 4),
            f"IFERROR(INDEX({T('outcomes', 'rank')},MATCH({at_least},{T('outcomes', 'id')},0)),0)",
        )
    for name, column in (
        ("D100_ROLLS", "A"),
        ("D100_RANKS", "B"),
        ("D100_AUTO_MISS", "C"),
        ("D100_AUTO_FLOOR", "D"),
    ):
        define_name(book, name, absolute(sheet, f"{column}2", f"{column}{faces + 1}"))
    sheet.column_dimensions["B"].width = 36
    sheet.sheet_state = "hidden"
    protect(sheet)


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    write_roll_block_calculator(
        book,
        STRIKE_SHEET,
        f"{rules.name}: strike calculator",
        "Yellow cells are yours: type the numbers, pick the situation, then enter the d100 roll and damage. "
        "Green cells are worked out from the rule tables in this workbook.",
        strike_sections(rules),
        with_udfs,
    )
    write_calculator(
        book,
        DEFENSE_SHEET,
        f"{rules.name}: defense, casting, shooting into melee",
        "Yellow cells are yours; green cells are worked out from the rule tables.",
        defense_sections(rules),
        with_udfs,
    )
    write_odds_workings(book, rules)
    show_chart(book[STRIKE_SHEET], write_damage_workings(book))
    write_odds_sheet(book, rules)


__all__ = ["MODIFIER_COLUMNS", "write_calculators"]
