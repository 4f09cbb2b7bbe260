"""The bfrpg calculators: Attack (threat and confirmation, damage, odds) and the Combat maneuvers
sheet, whose calculators come from their own modules (``bfrpg_critical``, ``bfrpg_two_weapon``,
``bfrpg_helpless``, ``bfrpg_joust``, ``bfrpg_parry``, ``bfrpg_firing``, ``bfrpg_surprise``).

Every formula mirrors ``pycalc.rulesets.bfrpg`` (whose attack roll and damage are the generic d20
engine's, ``pycalc.resolution``); the parity tests recalculate these sheets in LibreOffice and compare
them with the engine. Numbers come from the named table columns; the
only literals are 0, 1 and message text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from operator import attrgetter

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_damage
from pycalc.d20 import CRITICAL, HIT, MISS
from pycalc.resolution_calculator import number_name
from pycalc.resolution_situation import stage_round_up_column
from pycalc.rulesets import bfrpg as engine
from pycalc.sheets import attack_fields, bfrpg_odds, d20_cells, d20_damage
from pycalc.sheets.attack_workings import write_pair_results
from pycalc.sheets.bfrpg_critical import critical_section
from pycalc.sheets.bfrpg_firing import firing_section
from pycalc.sheets.bfrpg_formulas import (
    ALWAYS_MIN,
    FACES,
    FACES_LIST,
    FAIL_MAX,
    MARGIN_MIN,
    THREAT_MIN,
    confirm_min,
    dice_fields,
    hits,
    pick_name,
    roll_bad,
    template,
    udf_damage_picks,
)
from pycalc.sheets.bfrpg_helpless import helpless_section
from pycalc.sheets.bfrpg_joust import joust_section
from pycalc.sheets.bfrpg_parry import parry_section
from pycalc.sheets.bfrpg_surprise import surprise_section
from pycalc.sheets.bfrpg_two_weapon import two_weapon_section
from pycalc.sheets.calculator import (
    ATTACK_SHEET,
    BOOLEAN_FORMAT,
    INPUT,
    Field,
    Section,
    chance_field,
    empty_input,
    flag_input,
    rule_field,
    working_field,
    write_attack_sheet,
    write_calculator,
)
from pycalc.sheets.common import (
    absolute,
    define_name,
    ruling_name,
    show_chart,
)
from pycalc.sheets.d20_cells import DICE_MESSAGE, SIT_MULTIPLIER, stage_factor_name, stage_round_up_name
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_pickers import kind_flag, situation_flag, situation_sum, stage_product
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import Trial, scaled
from pycalc.sheets.formulas import (
    DICE_ERROR,
    by_label,
    const,
    optional_input,
    q,
)
from pycalc.sheets.log_rows import PartsArea
from pycalc.sheets.situation_cells import (
    Pickers,
    in_words,
    kind_label,
    picked_field,
    picks_with,
    situation_section,
)
from pycalc.sheets.target_state import said, with_target_state
from pycalc.tables import Row, RuleSet, Table

MANEUVER_SHEET = "Combat maneuvers"
WORKINGS_SHEET = d20_cells.WORKINGS_SHEET  # the hidden sheet of attack_workings.write_pair_results
GRID_NAME = "ATTACK_GRID"
CRITICAL_EXTRA = "ATTACK_CRITICAL_EXTRA"
WATER = "water"  # the multiplier stage whose rounding the picked row says (round_up_water)


def threatens(roll: str) -> str:
    return f"AND({roll}>={THREAT_MIN},{hits(roll, 'ATTACK_NEED')},ATTACK_CRIT_RULE)"


def resolution(rules: RuleSet) -> Formulas:
    """The attack roll as the generic d20 formulas write it from bfrpg's resolution block, over the
    Attack calculator's cells (ATTACK_NEED: target - bonus - mods; blocked and automatic hits are
    decided around it)."""
    return own_calculator(
        rules,
        raw_need="ATTACK_NEED",
        need_basis="ATTACK_NEED",
        faces=FACES,
        level="ATTACK_LEVEL",
        crit_possible="ATTACK_CRIT_RULE",
    )


def damage_fields(rules: RuleSet) -> tuple[Field, ...]:
    """Working cells of what the damage pickers give the generic damage formulas: each multiplier
    stage's factor (the first's is the situation's), the underwater rounding, a critical's extra damage,
    named as the generic calculator names them (``d20_formulas``)."""
    block = generic.block(rules)
    first, *later = block.damage.multipliers
    factors = [
        (first.name, SIT_MULTIPLIER, stage_product(rules, block, first, "damage_multiplier")),
        *((stage.name, stage_factor_name(stage.name), stage_product(rules, block, stage)) for stage in later),
    ]
    round_up = stage_round_up_column(WATER)
    return (
        *(working_field(f"Damage multiplier: {stage}", name, product) for stage, name, product in factors),
        working_field(
            "Underwater halving rounds up",
            stage_round_up_name(WATER),
            situation_flag(rules, block, round_up),
            flag=True,
        ),
        picked_field(
            attack_pickers(rules),
            "A critical adds damage",
            CRITICAL_EXTRA,
            engine.CRITICAL_EFFECT,
            "extra_damage",
            True,
        ),
        working_field("Damage dice: what is wrong", DICE_MESSAGE, f'IF(ATTACK_DICE_OK,"",{DICE_ERROR})'),
    )


def damage_rules(rules: RuleSet) -> Formulas:
    """The damage as the generic d20 formulas write it from bfrpg's block (``resolution.attack_damage``),
    over the Attack calculator's cells: the dice used with what is added (ATTACK_DICE_*), the damage
    pickers (``damage_fields``), a helpless target's automatic hit; the odds' dice grid reads the dice
    used (``pycalc.sheets.bfrpg_odds``)."""
    return own_calculator(
        rules,
        dice_text="ATTACK_DICE_USED",
        extra_roll="ATTACK_EXTRA_DAMAGE_ROLL",
        dice_message=DICE_MESSAGE,
        sit_damage="0",
        damage_bonus="0",
        sit_auto_hit="ATTACK_AUTO_HIT",
        sit_multiplier=SIT_MULTIPLIER,
        stage_multipliers={
            stage.name: stage_factor_name(stage.name) for stage in generic.block(rules).damage.multipliers[1:]
        },
        stage_round_up={WATER: stage_round_up_name(WATER)},
        critical_extra=CRITICAL_EXTRA,
    )


# --------------------------------------------------------------------------- the notes beside the picks

# columns whose effect a note of the numeric columns cannot say (the STR or DEX bonus, dice, subduing)
BEYOND_NUMBERS = {"dex_reduces", "ability", "brawl_dice", "subdual", "can_attack", "usable", "extra_damage"}
NO_CRITICAL_EXTRA = "a critical deals a hit's damage"
HIT_WORDS = "Attack roll"
ABILITY_WORDS = {
    "str": "the STR bonus",
    "dex": "the DEX bonus",
    "better": "the better of the STR and DEX bonus",
}
CRITICAL_DIE_KEPT = "a critical's maximum die not multiplied"
AUTO_HIT = "melee: automatic hit for double maximum damage"
AUTO_MULTIPLIED = {True: "other damage multipliers too", False: "no other damage multiplier"}
NO_ATTACK = "no attack possible"
SUBDUING = "subduing damage"


def only_words(rules: RuleSet) -> dict[str, str]:
    """The tables that count only for ranged or melee attacks, and the note's words for it."""
    return {
        **dict.fromkeys(engine.ranged_only(rules), "ranged attacks only"),
        **dict.fromkeys(engine.melee_only(rules), "melee only"),
    }


def tried(rules: RuleSet, table_id: str, row: Row | None, **numbers: int) -> engine.AttackInputs:
    """The calculator's inputs with ``row`` picked (None: nothing) on an attack of a kind it applies to."""
    kind = kind_label(rules, "attack_kinds", table_id in engine.ranged_only(rules))
    choices, toggles = picks_with(rules, table_id, row, {"attack_kinds": kind})
    return engine.AttackInputs(bonus=0, target=10, choices=choices, toggles=toggles, **numbers)


def ability_words(rules: RuleSet, row: Row) -> str:
    """Which ability bonus an attack kind adds, as the engine picks it (a ruling for thrown weapons)."""
    pairs = ((1, 2), (2, 1))  # (STR, DEX): STR gives 1 then 2, DEX 2 then 1, the better 2 twice
    found = tuple(engine.ability_bonus(rules, row, strength, dex) for strength, dex in pairs)
    ability = {(1, 2): "str", (2, 1): "dex", (2, 2): "better"}[found]
    return f"adds {ABILITY_WORDS[ability]}"


def hit_damage(rules: RuleSet, inputs: engine.AttackInputs, outcome: str = HIT) -> Callable[[int], int]:
    """The damage of a hit (or critical) as a function of the dice's roll, with the picked damage rows."""
    damage = engine.picked_damage(rules, inputs.choices, dice_module.Dice(1, 8))
    attack = engine.situated_attack(inputs, engine.situation(rules, inputs))
    formula, multiplied = resolution_damage.formula_for(rules, attack, damage, outcome, None) or (None, True)
    assert formula is not None  # a hit's formula needs no chart roll in bfrpg
    return lambda rolled: resolution_damage.amount(rules, formula, damage, rolled, multiplied=multiplied)


def effect_parts(rules: RuleSet, table_id: str, row: Row) -> list[str]:
    """What picking ``row`` changes, as the engine works the attack out under the rulings in force:
    the roll (with the DEX bonus that offsets a two-weapon penalty), the ability bonus an attack kind
    adds, the target's AC, what the damage becomes, and what rules the attack out."""
    trial = Trial(
        lambda picked, numbers: engine.situation(rules, tried(rules, table_id, picked, **numbers)), row
    )
    before, after = trial.pair()
    parts = [ability_words(rules, row)] if table_id == "attack_kinds" else []
    parts += trial.following(HIT_WORDS, attrgetter("picked.hit"), "dex_bonus", "DEX bonus")
    parts += trial.change("Target AC", attrgetter("picked.ac"))
    parts += trial.change("Own AC", attrgetter("picked.own_ac"))
    if after.picked.auto_hit and not before.picked.auto_hit:
        picked = tried(rules, table_id, row)
        multiplied = resolution_damage.formula_for(
            rules, engine.situated_attack(picked, after), engine.situated_damage(rules, picked), HIT, None
        )
        parts += [AUTO_HIT, AUTO_MULTIPLIED[bool(multiplied and multiplied[1])]]
    parts += trial.newly(attrgetter("blocked"), NO_ATTACK)
    parts += dice_parts(rules, table_id, row)
    if rules.table(table_id).picker == "choice":
        plain, picked = tried(rules, table_id, None), tried(rules, table_id, row)
        on_hit = [] if after.blocked else scaled(hit_damage(rules, plain), hit_damage(rules, picked))
        on_critical = scaled(hit_damage(rules, plain, CRITICAL), hit_damage(rules, picked, CRITICAL))
        parts += on_hit + ([CRITICAL_DIE_KEPT] if on_hit and on_critical != on_hit else [])
        if not on_hit and hit_damage(rules, picked, CRITICAL)(1) == hit_damage(rules, picked)(1):
            parts += (
                []
                if hit_damage(rules, plain, CRITICAL)(1) == hit_damage(rules, plain)(1)
                else [NO_CRITICAL_EXTRA]
            )
        parts += (
            [SUBDUING]
            if engine.subdual(rules, picked.choices) and not engine.subdual(rules, plain.choices)
            else []
        )
    only = only_words(rules)
    return [*parts, only[table_id]] if parts and table_id in only else parts


def dice_parts(rules: RuleSet, table_id: str, row: Row) -> list[str]:
    """The damage dice a pick rolls instead of the weapon's, with what it adds to them (brawling)."""

    def dice(**numbers: object) -> tuple[str, int]:
        return engine.attack_dice_text(rules, tried(rules, table_id, row, **numbers))  # type: ignore[arg-type]

    if dice()[0] == engine.attack_dice_text(rules, tried(rules, table_id, None))[0]:
        return []
    strength = " + STR bonus" if dice(str_bonus=1)[1] != dice()[1] else ""
    specialist = dice(shield_specialist=True)[1] - dice()[1]
    return [f"damage {dice()[0]}{strength}"] + ([f"{SPECIALIST} {specialist:+}"] if specialist else [])


SPECIALIST = "shield specialist damage"


def choice_words(ranged_only: frozenset[str], table: Table) -> tuple[str, str]:
    where = " (ranged attacks only)" if table.id in ranged_only else ""
    return table.title, (table.note[:90] + where) if table.note else where.strip()


def toggle_words(rules: RuleSet, table: Table, row: Row) -> tuple[str, str]:
    return f"{table.title}: {row.label}", str(row.values.get("note") or "")


def attack_pickers(rules: RuleSet) -> Pickers:
    """The Attack calculator's pickers, gated by attack kind as the ``situation:`` declaration says."""
    ranged, only = engine.ranged_only(rules), only_words(rules)
    return Pickers(
        engine.picker_tables(rules, "choice"),
        engine.picker_tables(rules, "toggle"),
        engine.default_choice,
        ranged_only=ranged,
        melee_only=engine.melee_only(rules),
        effect=in_words(effect_parts),
        choice_words=partial(choice_words, ranged),
        toggle_words=toggle_words,
        beyond_numbers=lambda table: bool(BEYOND_NUMBERS & set(table.column_ids)) or table.id in only,
    )


def attack_sections(rules: RuleSet) -> list[Section]:
    kinds = pick_name("attack_kinds")
    ability = by_label("attack_kinds", "ability", kinds)
    block = generic.block(rules)
    stance, water = pick_name("defense_stance"), pick_name("underwater_weapons")
    blocked = (
        f"IF(NOT({by_label('defense_stance', 'can_attack', stance)}),{by_label('defense_stance', 'label', stance)},"
        f'IF(NOT({by_label("underwater_weapons", "usable", water)}),{by_label("underwater_weapons", "label", water)},""))'
    )
    unarmed = pick_name("unarmed_attacks")
    unarmed_dice = by_label("unarmed_attacks", "brawl_dice", unarmed)
    dice_used = f'IF({unarmed_dice}="",ATTACK_DICE,{unarmed_dice})'
    dice_added = (
        f'IF({unarmed_dice}="",0,IF({by_label("unarmed_attacks", "str_to_damage", unarmed)},SUM(ATTACK_STR_BONUS),0)'
        f"+IF(ATTACK_SHIELD_SPECIALIST,{by_label('unarmed_attacks', 'specialist_damage', unarmed)},0))"
    )
    roll, follow = "ATTACK_ROLL", "ATTACK_FOLLOW_ROLL"
    check = (
        f'IF({roll}="","",IF({roll_bad(roll, FACES)},"#ROLL? 1 to "&{FACES},'
        f'IF(AND({follow}<>"",{roll_bad(follow, FACES)}),"#FOLLOW ROLL? 1 to "&{FACES},"ok")))'
    )
    result = (
        f'IF(ATTACK_CHECK<>"ok",ATTACK_CHECK,IF(ATTACK_BLOCKED<>"","{MISS}",IF(ATTACK_AUTO_HIT,"{HIT}",'
        f"{resolution(rules).result(roll, follow)})))"
    )
    udf_result = (
        f'IF(ATTACK_CHECK<>"ok",ATTACK_CHECK,IF(ATTACK_BLOCKED<>"","{MISS}",IF(ATTACK_AUTO_HIT,"{HIT}",'
        f'd20_result("bfrpg",{roll},ATTACK_BONUS,ATTACK_TARGET_AC,ATTACK_TOTAL_MODS,ATTACK_LEVEL,{optional_input(follow)}))))'
    )
    subdual = (
        f"IF(OR({by_label('damage_mode', 'subdual', pick_name('damage_mode'))},"
        f'{by_label("unarmed_attacks", "subdual", unarmed)}),{q(engine.EFFECT_SUBDUAL)},"")'
    )
    shot = pick_name("firing_into_melee")
    margin = f"(ATTACK_NEED-{roll})"
    stray = (
        f"AND(ATTACK_RANGED,{by_label('firing_into_melee', 'stray_hits_ally', shot)},{margin}>=1,"
        f"{margin}<={const('ranged_rules', 'stray_hit_max_miss')})"
    )
    crit_label = by_label("critical_effect", "label", pick_name("critical_effect"))
    effect = (
        f'IF({attack_fields.NO_RESULT},"",'
        f'IF(ATTACK_BLOCKED<>"",{template(engine.EFFECT_NO_ATTACK, label="ATTACK_BLOCKED")},'
        f"IF(ATTACK_AUTO_HIT,{q(engine.EFFECT_AUTO_HIT)}&{subdual},"
        f'IF(ATTACK_RESULT="{MISS}",IF({stray},{template(engine.EFFECT_STRAY, margin=margin)},'
        f"IF({roll}<={FAIL_MAX},{template(engine.EFFECT_NATURAL_MISS, roll=roll)},{q(engine.EFFECT_MISS)})),"
        f'IF(ATTACK_RESULT="{CRITICAL}",{template(engine.EFFECT_CRITICAL, label=crit_label)}&{subdual},'
        f'IF({threatens(roll)},IF({follow}="",{template(engine.EFFECT_THREAT, confirm="ATTACK_CONFIRM_MIN")},'
        f"{q(engine.EFFECT_UNCONFIRMED)})&{subdual},"
        f"IF({roll}>={THREAT_MIN},{template(engine.EFFECT_NO_CRITICAL, roll=roll)},{q(engine.EFFECT_HIT)})&{subdual}"
        "))))))"
    )
    droll, extra = "ATTACK_DAMAGE_ROLL", "ATTACK_EXTRA_DAMAGE_ROLL"
    picks = udf_damage_picks()
    udf_damage = (
        f'IF({attack_fields.NO_RESULT},"",bfrpg_attack_damage(ATTACK_RESULT,ATTACK_DICE_USED,'
        f"{optional_input(droll)},ATTACK_DICE_ADDED,{picks},ATTACK_AUTO_HIT,{optional_input(extra)}))"
    )
    square = f"({FACES}*{FACES})"
    mods = "ATTACK_TOTAL_MODS"
    return [
        Section(
            "Attacker and target",
            (
                Field("Attack bonus (AB, from the Attack Bonus table)", "ATTACK_BONUS", INPUT, 3),
                Field("Target's Armor Class", "ATTACK_TARGET", INPUT, 15),
                attack_fields.free_mods_field("Free modifier to the roll (magic, house rule...)"),
                Field(
                    "Strength bonus", "ATTACK_STR_BONUS", INPUT, 0, help="added to melee and thrown attacks"
                ),
                Field(
                    "Dexterity bonus",
                    "ATTACK_DEX_BONUS",
                    INPUT,
                    0,
                    help="added to missile, light weapon and touch attacks; reduces two-weapon penalties",
                ),
                attack_fields.level_field("no bfrpg attack rule uses it"),
                Field(
                    "Weapon damage (e.g. 1d8+2)", "ATTACK_DICE", INPUT, "1d8", help="include STR and magic"
                ),
                flag_input("Shield specialist (shield bash +1 damage)", "ATTACK_SHIELD_SPECIALIST"),
            ),
        ),
        situation_section(rules, attack_pickers(rules)),
        Section(
            "Before the roll",
            (
                attack_fields.need_field(
                    "bfrpg",
                    "Natural d20 roll needed (before the natural 1 and 20 rules)",
                    "ATTACK_TARGET_AC",
                    mods,
                ),
                chance_field(
                    "Chance to hit",
                    "ATTACK_HIT_CHANCE",
                    f'IF(ATTACK_BLOCKED<>"",0,IF(ATTACK_AUTO_HIT,1,1-COUNTIF({GRID_NAME},"{MISS}")/{square}))',
                    f'IF(ATTACK_BLOCKED<>"",0,IF(ATTACK_AUTO_HIT,1,d20_hit_chance("bfrpg",ATTACK_BONUS,ATTACK_TARGET_AC,{mods})))',
                    key=True,
                ),
                chance_field(
                    "Chance of a confirmed critical",
                    "ATTACK_CRIT_CHANCE",
                    f'IF(OR(ATTACK_BLOCKED<>"",ATTACK_AUTO_HIT),0,COUNTIF({GRID_NAME},"{CRITICAL}")/{square})',
                    f'IF(OR(ATTACK_BLOCKED<>"",ATTACK_AUTO_HIT),0,bfrpg_crit_chance(ATTACK_BONUS,ATTACK_TARGET_AC,{mods}))',
                ),
                Field(
                    "A natural 20 can be a critical",
                    "ATTACK_CRIT_POSSIBLE",
                    native='AND(ATTACK_BLOCKED="",NOT(ATTACK_AUTO_HIT),ATTACK_CRIT_RULE)',
                    help="no critical when only a natural 20 can hit (ruling only_natural_20_hits)",
                    number_format=BOOLEAN_FORMAT,
                ),
                Field(
                    "Confirmation roll needed",
                    "ATTACK_CONFIRM_MIN",
                    native=confirm_min("ATTACK_NEED"),
                    udf=f"bfrpg_confirm_min(ATTACK_BONUS,ATTACK_TARGET_AC,{mods})",
                ),
                Field(
                    "Your own AC change this round",
                    "ATTACK_OWN_AC_CHANGE",
                    native=situation_sum(rules, block, "own_ac"),
                    help="charge -2 for the round; off-hand weapon as a shield +1 against one attacker",
                ),
            ),
        ),
        Section(
            "Odds before the roll (exact, every d20, confirmation and damage roll)",
            bfrpg_odds.odds_fields(rules, damage_rules(rules)),
        ),
        Section(
            "The roll",
            (
                attack_fields.attack_roll_field(rules, "d20 roll"),
                attack_fields.follow_roll_field(
                    rules,
                    "Confirmation d20 (after a natural 20)",
                    "empty until rolled: a threat shows as Hit until confirmed",
                ),
                attack_fields.damage_roll_field(
                    "Damage dice rolled (without the +modifier)", "1d8+2 rolling 5: enter 5"
                ),
                empty_input(
                    "Second damage roll (critical, ruling normal_plus_max_plus_roll only)",
                    "ATTACK_EXTRA_DAMAGE_ROLL",
                ),
            ),
        ),
        attack_fields.outcome_section(
            attack_fields.result_field(result, udf_result),
            attack_fields.effect_field(effect, key=True),
            attack_fields.damage_field(damage_rules(rules).attack_damage(), udf_damage),
            summary=resolution(rules).summary(said(rules)),
        ),
        attack_fields.workings_section(
            rule_field("Faces of the attack die", FACES, "attack_roll", "attack_die_faces"),
            rule_field(
                "Natural roll that always fails, up to", FAIL_MAX, "attack_roll", "natural_always_fails"
            ),
            rule_field(
                "Natural roll that always hits, from", ALWAYS_MIN, "attack_roll", "natural_always_hits"
            ),
            rule_field("Total minus AC needed to hit", MARGIN_MIN, "attack_roll", "hit_margin_min"),
            rule_field("Threat on a natural", THREAT_MIN, "critical_hits", "threat_natural"),
            attack_fields.ranged_field(attack_pickers(rules), "attack_kinds"),
            working_field(
                "Ability used",
                "ATTACK_ABILITY",
                f'IF({ability}="ruling",{ruling_name("thrown_attack_ability")},{ability})',
            ),
            working_field(
                "Ability bonus added",
                "ATTACK_ABILITY_BONUS",
                'IF(ATTACK_ABILITY="better",MAX(SUM(ATTACK_STR_BONUS),SUM(ATTACK_DEX_BONUS)),'
                'IF(ATTACK_ABILITY="dex",SUM(ATTACK_DEX_BONUS),SUM(ATTACK_STR_BONUS)))',
            ),
            working_field(  # the block's typed number is the DEX bonus typed above
                "DEX bonus against a two-weapon penalty",
                number_name(engine.DEX_NUMBER),
                "SUM(ATTACK_DEX_BONUS)",
            ),
            working_field(
                "Roll modifier from the situation",
                "ATTACK_SITUATION_HIT",
                situation_sum(rules, block, "hit"),
            ),
            working_field(
                "AC change from the situation", "ATTACK_SITUATION_AC", situation_sum(rules, block, "ac")
            ),
            attack_fields.situation_ac_field("ATTACK_TARGET_AC"),
            attack_fields.total_mods_field("ATTACK_ABILITY_BONUS", "ATTACK_SITUATION_HIT", name=mods),
            working_field(
                "Automatic melee hit (helpless target)",
                "ATTACK_AUTO_HIT",
                kind_flag(rules, block, "auto_hit"),
                flag=True,
            ),
            working_field("No attack possible because of", "ATTACK_BLOCKED", blocked),
            working_field(
                "Critical allowed by the need",
                "ATTACK_CRIT_RULE",
                resolution(rules).crit_possible(),
                flag=True,
            ),
            working_field("Roll check", "ATTACK_CHECK", check),
            working_field("Damage dice used", "ATTACK_DICE_USED", dice_used),
            working_field("Added to the damage dice (STR, specialist)", "ATTACK_DICE_ADDED", dice_added),
            *dice_fields("ATTACK_DICE", "ATTACK_DICE_USED", "ATTACK_DICE_ADDED"),
            *damage_fields(rules),
        ),
    ]


def write_workings(book: Workbook, rules: RuleSet) -> None:
    """The attack outcome for every (roll, confirmation roll) pair, named for the odds that count it;
    then the face columns of the Odds sheet's heat maps (``attack_workings.write_pair_results``)."""
    count = engine.faces(rules)

    def names(sheet: Worksheet, parts: PartsArea) -> None:
        last = sheet.cell(count + 1, count + 1).coordinate
        define_name(book, GRID_NAME, absolute(sheet, "B2", last))
        define_name(book, FACES_LIST, absolute(sheet, "A2", f"A{count + 1}"))

    # (the formulas worked out once for every cell of the grid)
    write_pair_results(book, rules, resolution(rules), "Roll \\ confirmation roll", (0, names))


# --------------------------------------------------------------------------- Combat maneuvers


def maneuver_sections(rules: RuleSet) -> list[Section]:
    return [
        critical_section(),
        two_weapon_section(rules),
        helpless_section(),
        joust_section(),
        parry_section(rules),
        firing_section(rules),
        surprise_section(rules),
    ]


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    write_attack_sheet(
        book,
        rules,
        "Yellow cells are yours: type AB, AC and bonuses, pick the situation, then enter the d20, the "
        "confirmation d20 after a natural 20, and the damage dice. Green cells come from the rule tables.",
        with_target_state(rules, attack_sections(rules)),
        with_udfs,
    )
    damage = damage_rules(rules)
    show_chart(
        book[ATTACK_SHEET],
        d20_damage.write_damage_chart(book, rules, damage.block, damage.c, d20_damage.DOUBLED_CHART_DAMAGE),
    )
    write_calculator(
        book,
        MANEUVER_SHEET,
        f"{rules.name}: criticals, two weapons, helpless foes, jousting, parry, firing into melee, surprise",
        "Yellow cells are yours; green cells are worked out from the rule tables.",
        maneuver_sections(rules),
        with_udfs,
    )
    write_workings(book, rules)
    bfrpg_odds.write_odds_sheet(book, rules)
