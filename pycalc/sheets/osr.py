"""The osr calculators: Attack (descending AC, natural 1/20 rules, odds) and Combat calculators
(surprise, mass combat, Normal Men, grappling, level-gap saves, spell interruption).

Every formula mirrors ``pycalc.rulesets.osr`` (whose attacks run on the generic d20 engine,
``pycalc.resolution``); the parity tests recalculate these sheets in
LibreOffice and compare them with the engine. Rule numbers are looked up by name (formulas.py).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution as generic
from pycalc.resolution_situation import Situation
from pycalc.rulesets import osr as engine
from pycalc.rulesets.osr import (
    FUMBLE_ROLL_UNUSED,
    SAVE_FAILED,
    SAVE_MADE,
    default_choice,
    die_sides,
    picker_tables,
)
from pycalc.sheets import attack_fields
from pycalc.sheets.attack_workings import write_pair_results
from pycalc.sheets.block_formulas import by_choice, literal
from pycalc.sheets.calculator import (
    BOOLEAN_FORMAT,
    INPUT,
    Field,
    Section,
    chance_field,
    empty_input,
    list_input,
    rule_field,
    working_field,
    write_attack_sheet,
    write_calculator,
)
from pycalc.sheets.common import (
    absolute,
    define_name,
    put,
    put_formula,
    show_chart,
)
from pycalc.sheets.common import table_name as T
from pycalc.sheets.d20_cells import NATURAL_CRIT_CHANCE, NATURAL_HIT_CHANCE
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_pickers import kind_flag, situation_flag, situation_sum
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import Trial
from pycalc.sheets.formulas import (
    DICE_ERROR,
    by_label,
    const,
    dice_count,
    dice_modifier,
    dice_sides,
    list_mistake,
    optional_input,
    q,
    round_up,
)
from pycalc.sheets.log_rows import PartsArea
from pycalc.sheets.osr_odds import odds_section, write_damage_chart, write_odds_sheet
from pycalc.sheets.situation_cells import (
    Pickers,
    by_id,
    in_words,
    picks_with,
    ruling_is,
    situation_section,
)
from pycalc.sheets.target_state import said, with_target_state
from pycalc.tables import Row, RuleSet

COMBAT_SHEET = "Combat calculators"


# --------------------------------------------------------------------------- the notes beside the picks

# columns whose effect a note of the numeric columns cannot say (an input lost, the roll mode, double damage)
BEYOND_NUMBERS = {"attacker_no_dex", "target_no_shield", "target_no_dex_ac", "advantage", "disadvantage"}
BEYOND_NUMBERS |= {"double_damage", "needs_magic", "ac"}  # ac: a ruling may leave it to the GM
HIT_WORDS = "To-hit"
NEED_WORDS = "Number needed"
NOT_COUNTED = "{} not counted: type the number needed for it"
AC_INPUTS = (("target_shield", "target's shield"), ("target_dex", "target's DEX AC"))
MAGIC_WORDS = {
    "cannot_hit": "cannot hit without a magic weapon",
    "no_auto_hit": "no natural-20 hit without a magic weapon",
}


def tried(rules: RuleSet, table_id: str, row: Row | None, **numbers: int) -> engine.AttackInputs:
    """The calculator's inputs with ``row`` picked (None: nothing) and the given inputs (target_shield...)."""
    choices, toggles = picks_with(rules, table_id, row)
    return engine.AttackInputs(bonus=0, target=10, choices=choices, toggles=toggles, **numbers)


def need_of(rules: RuleSet, inputs: engine.AttackInputs) -> int:
    """The number needed after the situation's AC changes, as the engine turns them into it."""
    return generic.target(rules, engine.situated_attack(rules, inputs, engine.situation(rules, inputs)))


def effect_parts(rules: RuleSet, table_id: str, row: Row) -> list[str]:
    """What picking ``row`` changes, as the engine works the attack out under the rulings in force:
    the roll (with the attacker's DEX it drops), the number needed (with the target's shield and DEX
    it drops; none where a ruling leaves AC changes to the GM's matrix), the roll mode, the damage."""
    trial = Trial(lambda picked, numbers: tried(rules, table_id, picked, **numbers), row)

    def situation(inputs: engine.AttackInputs) -> Situation:
        return engine.situation(rules, inputs)

    def ac(inputs: engine.AttackInputs) -> int:
        return situation(inputs).ac

    def need(inputs: engine.AttackInputs) -> int:
        return need_of(rules, inputs)

    parts = trial.following(
        HIT_WORDS, lambda inputs: situation(inputs).hit, "attacker_dex", "attacker's DEX bonus"
    )
    base = trial.changed(need)
    follows = [(words, trial.changed(need, **{name: 1}) - base) for name, words in AC_INPUTS]
    if base or any(step for _, step in follows):
        inputs = "".join(f" {'-' if step < 0 else '+'} {words}" for words, step in follows if step)
        parts.append(f"{NEED_WORDS}{f' {base:+}' if base or not inputs else ''}{inputs}")
    else:
        lost = [f"AC {trial.changed(ac):+}"] if trial.changed(ac) else []
        lost += [words for name, words in AC_INPUTS if trial.changed(ac, **{name: 1}) != trial.changed(ac)]
        parts += [NOT_COUNTED.format(" and ".join(lost))] if lost else []
    unpicked, picked = trial.pair()
    before, after = situation(unpicked), situation(picked)
    parts += [
        word for word in ("advantage", "disadvantage") if getattr(after, word) and not getattr(before, word)
    ]
    if engine.doubles(after) and not engine.doubles(before):
        parts.append(f"damage x{generic.value(rules, engine.double_stage(rules).factor)}")
    if after.needs_magic and not before.needs_magic:
        magic = engine.situated_attack(rules, picked, after)
        parts.append(MAGIC_WORDS[str(generic.effective_needs_magic(rules, magic))])
    return parts


def pickers_of(rules: RuleSet) -> Pickers:
    """The Attack calculator's pick cells: the block's ``modifiers``, choices then toggles."""
    return Pickers(
        picker_tables(rules, "choice"),
        picker_tables(rules, "toggle"),
        default_choice,
        effect=in_words(effect_parts),
        beyond_numbers=lambda table: bool(BEYOND_NUMBERS & set(table.column_ids)),
    )


# --------------------------------------------------------------------------- attack: resolution


DICE_READ = "AND(ISNUMBER(ATTACK_DICE_COUNT),ISNUMBER(ATTACK_DICE_SIDES),ISNUMBER(ATTACK_DICE_MOD))"


def resolution(rules: RuleSet) -> Formulas:
    """The attack roll and its damage as the generic d20 formulas write them from osr's resolution
    block, over the Attack calculator's cells (the situation's pickers are osr's own: double damage
    is the first multiplier's factor; no damage bonus)."""
    return own_calculator(
        rules,
        target="SUM(ATTACK_TARGET)",
        sit_ac="ATTACK_AC_CHANGE",
        target_now="ATTACK_TARGET_EFFECTIVE",
        raw_need="ATTACK_NEED",
        need_basis="ATTACK_BASIS",
        crit_possible="NOT(ATTACK_NO_CRIT)",
        level="SUM(ATTACK_LEVEL)",
        faces="ATTACK_SIDES",
        sit_needs_magic="ATTACK_NEEDS_MAGIC",
        sit_multiplier=f"IF(ATTACK_DOUBLE,{by_choice(engine.double_stage(rules).factor, literal)},1)",
        sit_damage="0",
        damage_bonus="0",
        dice_text="ATTACK_DICE",
        dice_message=f'IF({DICE_READ},"",{DICE_ERROR})',
    )


NATURAL_CHANCES = (
    (NATURAL_HIT_CHANCE, "Chance of a hit on the natural 20", "D20_HITS"),
    (NATURAL_CRIT_CHANCE, "Chance of a critical on the natural 20", "D20_CRITS"),
)  # (name, label, outcomes counted): cells of the d20 workings, read by the odds


def natural_chance(outcomes: str) -> str:
    """The chance of the kept roll being the natural 20 with the outcomes counted in ``outcomes``
    (a column of the d20 workings: every fumble check, Advantage weights included)."""
    return f"(SUMPRODUCT({outcomes},D20_WEIGHTS,--(D20_ROLLS=ATTACK_NAT20))/ATTACK_SIDES)"


def result_formula(rules: RuleSet, roll: str, follow: str) -> str:
    """Miss/Hit/Critical/Fumble of one natural roll and fumble check (see pycalc.resolution_results.resolve)."""
    return resolution(rules).result(roll, follow)


def bad_roll(cell: str) -> str:
    return f"OR(NOT(ISNUMBER({cell})),{cell}<1,{cell}>ATTACK_SIDES,{cell}<>INT({cell}))"


def fumble_text() -> str:
    base = by_id("attack_outcomes", "effect", '"fumble"')
    start, end = T("fumble_table", "d20_from"), T("fumble_table", "d20_to")
    roll = "ATTACK_FUMBLE_ROLL"
    cond = f"({start}<={roll})*({end}>={roll})*ISNUMBER({start})*ISNUMBER({end})"
    row = f"SUMPRODUCT({cond}*ROW({start}))-ROW(INDEX({start},1))+1"
    return (
        f'IF(COUNT({start})=0,{base}&": the seed has no fumble table; fill in the fumble table on the Criticals fumbles tables sheet",'
        f'IF(NOT(ISNUMBER({roll})),{base}&": roll on the fumble table",'
        f'IF({bad_roll(roll)},"#FUMBLE ROLL? 1 to "&ATTACK_SIDES,'
        f'IF(SUMPRODUCT({cond})=0,"#ROLL? no row of the fumble table covers "&{roll},'
        f'IF(SUMPRODUCT({cond})>1,"#FUMBLE TABLE? rows overlap at "&{roll},'
        f'{base}&": "&INDEX({T("fumble_table", "effect")},{row}))))))'
    )


def attack_sections(rules: RuleSet) -> list[Section]:
    block = generic.block(rules)
    advantage, disadvantage = (
        kind_flag(rules, block, "advantage"),
        kind_flag(rules, block, "disadvantage"),
    )
    mode = (
        f"IF(AND({advantage},{disadvantage}),IF({ruling_is('advantage_meets_disadvantage', 'cancel')},0,-1),"
        f"IF({advantage},1,IF({disadvantage},-1,0)))"
    )
    target = resolution(rules).target_now()
    no_crit = f"NOT({resolution(rules).crit_possible()})"
    check = (
        'IF(SUM(ATTACK_LEVEL)<0,"#LEVEL? 0 or more",'
        f'IF({bad_roll("ATTACK_ROLL")},"#ROLL? 1 to "&ATTACK_SIDES,'
        f'IF(AND(ATTACK_FOLLOW_ROLL<>"",{bad_roll("ATTACK_FOLLOW_ROLL")}),"#FOLLOW ROLL? 1 to "&ATTACK_SIDES,'
        f"{result_formula(rules, 'ATTACK_ROLL', 'ATTACK_FOLLOW_ROLL')})))"
    )
    penalty = resolution(rules).roll_penalty("ATTACK_ROLL")
    no_result = attack_fields.NO_RESULT
    is_hit = 'OR(ATTACK_RESULT="Hit",ATTACK_RESULT="Critical")'
    # a hit waits for the damage roll before its dice are read; then the generic damage
    damage = (
        f'IF({no_result},ATTACK_RESULT,IF(AND({is_hit},NOT(ISNUMBER(ATTACK_DAMAGE_ROLL))),"",'
        f"{resolution(rules).attack_damage('ATTACK_NAT20_PENALTY')}))"
    )
    unused_start, unused_end = FUMBLE_ROLL_UNUSED.split("{}")
    effect = (
        f"IF({no_result},ATTACK_RESULT,"
        f'IF(ATTACK_RESULT="Fumble",{fumble_text()},'
        f"INDEX({T('attack_outcomes', 'effect')},MATCH(ATTACK_RESULT,{T('attack_outcomes', 'result')},0))&"
        f'IF(ISNUMBER(ATTACK_FUMBLE_ROLL),{q(unused_start)}&ATTACK_FUMBLE_ROLL&{q(unused_end)},"")))'
    )
    mode_text = 'IF(ATTACK_MODE=1,"Advantage",IF(ATTACK_MODE=0,"Normal","Disadvantage"))'
    udf_attack = "ATTACK_BONUS,ATTACK_TARGET_EFFECTIVE,ATTACK_MODS_TOTAL,ATTACK_LEVEL"
    follow, damage_roll = optional_input("ATTACK_FOLLOW_ROLL"), optional_input("ATTACK_DAMAGE_ROLL")

    def chance(column: str, outcome: str) -> Field:
        name = {"Hit": "HIT", "Critical": "CRIT", "Fumble": "FUMBLE"}[outcome]
        return chance_field(
            f"Chance of {'any hit' if outcome == 'Hit' else 'a ' + outcome.lower()}",
            f"ATTACK_{name}_CHANCE",
            f"SUMPRODUCT({column},D20_WEIGHTS)/ATTACK_SIDES",
            f'osr_chance({udf_attack},"{outcome}",{mode_text},ATTACK_NEEDS_MAGIC)',
            key=outcome == "Hit",
        )

    default_dice = rules.table("damage_dice").value("normal_weapon", "dice")
    return [
        Section(
            "Attacker and target",
            (
                Field("Attacker's to-hit bonus (STR/DEX, magic...)", "ATTACK_BONUS", INPUT, 0),
                Field(
                    "Number needed (GM's attack matrix, defender's AC)",
                    "ATTACK_TARGET",
                    INPUT,
                    10,
                    help="the seed has no matrix: tables/osr attack_matrix is yours to fill",
                ),
                attack_fields.free_mods_field(),
                attack_fields.level_field(
                    "a natural 1 fumbles when the follow d20 rolls higher (ruling fumble_level_of_monsters)",
                    "Attacker's XP level (monsters: HD)",
                ),
                Field(
                    "Weapon damage", "ATTACK_DICE", INPUT, default_dice, help="e.g. 1d6+1 (normal weapons)"
                ),
                *attack_fields.typed_number_fields(generic.block(rules)),
            ),
        ),
        odds_section(rules, resolution(rules)),
        situation_section(rules, pickers_of(rules)),
        Section(
            "Before the roll",
            (
                attack_fields.need_field(
                    "osr",
                    "Natural d20 needed",
                    "ATTACK_TARGET_EFFECTIVE",
                    "ATTACK_MODS_TOTAL",
                    "before the natural 1 and natural 20 rules",
                ),
                chance("D20_HITS", "Hit"),
                chance("D20_CRITS", "Critical"),
                chance("D20_FUMBLES", "Fumble"),
            ),
        ),
        Section(
            "The roll",
            (
                attack_fields.attack_roll_field(rules, "Natural d20 (with Advantage: the die kept)"),
                attack_fields.follow_roll_field(
                    rules,
                    "Fumble check d20 (after a natural 1)",
                    "Critical Fumble when higher than the level",
                ),
                empty_input(
                    "Roll on your fumble table",
                    "ATTACK_FUMBLE_ROLL",
                    help_text="only once fumble_table is filled",
                ),
                attack_fields.damage_roll_field("Damage dice shown (without the +modifier)"),
            ),
        ),
        attack_fields.outcome_section(
            attack_fields.result_field(
                f'IF(ATTACK_ROLL="","",{check})',
                f'IF(ATTACK_ROLL="","",osr_attack_result(ATTACK_ROLL,{udf_attack},{follow},ATTACK_NEEDS_MAGIC))',
            ),
            attack_fields.effect_field(
                effect,
                f"IF({no_result},ATTACK_RESULT,osr_attack_effect(ATTACK_RESULT,{optional_input('ATTACK_FUMBLE_ROLL')}))",
            ),
            Field(
                "Natural-20 damage penalty",
                "ATTACK_NAT20_PENALTY",
                native=f'IF({no_result},"",IF({is_hit},{penalty},0))',
                udf=f'IF({no_result},"",IF({is_hit},osr_nat20_penalty(ATTACK_ROLL,ATTACK_NEED,ATTACK_TARGET_EFFECTIVE),0))',
                help="1 point per point needed over 20 (ruling nat20_penalty_applies_to)",
            ),
            attack_fields.damage_field(
                damage,
                f"IF({no_result},ATTACK_RESULT,osr_damage(ATTACK_RESULT,ATTACK_DICE,{damage_roll},ATTACK_NAT20_PENALTY,ATTACK_DOUBLE))",
            ),
            summary=resolution(rules).summary(said(rules)),
        ),
        attack_fields.workings_section(
            working_field(
                "To-hit from the situation", "ATTACK_SITUATION_HIT", situation_sum(rules, block, "hit")
            ),
            attack_fields.total_mods_field(
                "ATTACK_SITUATION_HIT", name="ATTACK_MODS_TOTAL", label="All roll modifiers"
            ),
            working_field(
                "Change of the defender's AC (descending)",
                "ATTACK_AC_CHANGE",
                situation_sum(rules, block, "ac"),
            ),
            working_field("Number needed after AC changes", "ATTACK_TARGET_EFFECTIVE", target),
            working_field(
                "Number the natural-20 rules look at", "ATTACK_BASIS", resolution(rules).need_basis()
            ),
            working_field("A natural 20 is only a normal hit", "ATTACK_NO_CRIT", no_crit, flag=True),
            working_field("Roll mode (1 Advantage, -1 Disadvantage)", "ATTACK_MODE", mode),
            working_field(
                "Double damage",
                "ATTACK_DOUBLE",
                situation_flag(rules, block, str(engine.double_stage(rules).when)),
                flag=True,
            ),
            working_field(
                "Needs magic weapons it lacks",
                "ATTACK_NEEDS_MAGIC",
                kind_flag(rules, block, "needs_magic"),
                flag=True,
            ),
            rule_field("Faces of the d20", "ATTACK_SIDES", "to_hit_roll", "to_hit_die_sides"),
            rule_field(
                "Natural roll that always misses", "ATTACK_NAT1", "natural_1_fumble", "natural_miss_roll"
            ),
            rule_field("Natural roll that always hits", "ATTACK_NAT20", "natural_20_hit", "natural_hit_roll"),
            rule_field(
                "Natural roll that is a Critical HIT",
                "ATTACK_CRIT_ROLL",
                "natural_20_critical",
                "critical_natural_roll",
            ),
            working_field("Damage dice", "ATTACK_DICE_COUNT", f'IFERROR({dice_count("ATTACK_DICE")},"")'),
            working_field(
                "Damage die sides", "ATTACK_DICE_SIDES", f'IFERROR({dice_sides("ATTACK_DICE")},"")'
            ),
            working_field(
                "Damage modifier", "ATTACK_DICE_MOD", f'IFERROR({dice_modifier("ATTACK_DICE")},"")'
            ),
        ),
    ]


def write_odds_workings(book: Workbook, rules: RuleSet) -> None:
    """Every (kept roll, fumble check) pair with its result; right of them the weights of the kept roll
    and the outcomes counted; below, the chances on the natural 20 the odds read; then the face
    columns of the Odds sheet's heat maps (``attack_workings.write_pair_results``)."""
    faces = die_sides(rules)
    heads = ("Weight of the kept roll", "Hits", "Criticals", "Fumbles")

    def beside(sheet: Worksheet, parts: PartsArea) -> None:
        for offset, text in enumerate(heads):
            put(sheet.cell(1, faces + 2 + offset), text)
        na, nd = const("to_hit_roll", "advantage_d20s"), const("to_hit_roll", "disadvantage_d20s")
        last_col = sheet.cell(1, faces + 1).column_letter
        sides = "ATTACK_SIDES"
        weight = parts.column_formula(
            lambda k: (
                f"IF(ATTACK_MODE=1,({k}^{na}-({k}-1)^{na})/{sides}^{na},IF(ATTACK_MODE=0,1/{sides},"
                f"(({sides}+1-{k})^{nd}-({sides}-{k})^{nd})/{sides}^{nd}))"
            )
        )
        for r in range(2, faces + 2):
            row_range = f"B{r}:{last_col}{r}"
            put_formula(sheet.cell(r, faces + 2), weight(f"$A{r}"))
            put_formula(
                sheet.cell(r, faces + 3), f'COUNTIF({row_range},"Hit")+COUNTIF({row_range},"Critical")'
            )
            put_formula(sheet.cell(r, faces + 4), f'COUNTIF({row_range},"Critical")')
            put_formula(sheet.cell(r, faces + 5), f'COUNTIF({row_range},"Fumble")')
        define_name(book, "D20_ROLLS", absolute(sheet, "A2", f"A{faces + 1}"))
        for offset, name in enumerate(("D20_WEIGHTS", "D20_HITS", "D20_CRITS", "D20_FUMBLES")):
            letter = sheet.cell(1, faces + 2 + offset).column_letter
            define_name(book, name, absolute(sheet, f"{letter}2", f"{letter}{faces + 1}"))
        for row, (name, label, outcomes) in enumerate(NATURAL_CHANCES, start=faces + 3):
            put(sheet.cell(row, 1), label)
            put_formula(sheet.cell(row, 2), natural_chance(outcomes))
            define_name(book, name, absolute(sheet, f"B{row}"))

    # (the formulas worked out once for every cell of the grid)
    write_pair_results(book, rules, resolution(rules), "Roll \\ follow", (len(heads), beside))


# --------------------------------------------------------------------------- other calculators


def surprise_section(rules: RuleSet) -> Section:
    sides = const("surprise_rules", "surprise_die_sides")
    normal = const("surprise_rules", "normal_surprise_max")

    def top_face(surprises_on: str, surprised_on: str) -> str:
        shift = f"({normal}-SUM({surprised_on}))"
        shift = f"IF({ruling_is('surprise_range_adjustment', 'reduce_only')},MAX(0,{shift}),{shift})"
        return (
            f'IF(OR(SUM({surprises_on})<0,SUM({surprises_on})>{sides}),"#SURPRISES ON? 0 to "&{sides},'
            f'IF(OR(SUM({surprised_on})<0,SUM({surprised_on})>{sides}),"#SURPRISED ON? 0 to "&{sides},'
            f"MIN({sides},MAX(0,SUM({surprises_on})-{shift}))))"
        )

    def chance(top: str) -> str:
        return f"IF(ISNUMBER({top}),{top}/{sides},{top})"

    a_on_b, b_on_a = "SURPRISE_A_ON_B", "SURPRISE_B_ON_A"
    b_hit, a_hit = f"SURPRISE_ROLL_FOR_B<={a_on_b}", f"SURPRISE_ROLL_FOR_A<={b_on_a}"
    entry = (
        f'IF(AND({a_hit},{b_hit}),"both_surprised",IF({b_hit},"a_surprises_b",'
        f'IF({a_hit},"b_surprises_a","no_surprise")))'
    )
    outcome = (
        'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
        f"IF(NOT(ISNUMBER({a_on_b})),{a_on_b},IF(NOT(ISNUMBER({b_on_a})),{b_on_a},"
        f'IF(OR(SURPRISE_ROLL_FOR_B<1,SURPRISE_ROLL_FOR_B>{sides}),"#ROLL FOR B? 1 to "&{sides},'
        f'IF(OR(SURPRISE_ROLL_FOR_A<1,SURPRISE_ROLL_FOR_A>{sides}),"#ROLL FOR A? 1 to "&{sides},'
        f"{by_id('surprise_outcomes', 'result', entry)})))))"
    )
    normal_value = rules.constant("surprise_rules", "normal_surprise_max")
    return Section(
        "Surprise (d6 for each side)",
        (
            Field("Party A surprises others on 1 to", "SURPRISE_A_SURPRISES_ON", INPUT, normal_value),
            Field("Party A is normally surprised on 1 to", "SURPRISE_A_SURPRISED_ON", INPUT, normal_value),
            Field("Party B surprises others on 1 to", "SURPRISE_B_SURPRISES_ON", INPUT, normal_value),
            Field("Party B is normally surprised on 1 to", "SURPRISE_B_SURPRISED_ON", INPUT, normal_value),
            Field(
                "A surprises B on 1 to",
                a_on_b,
                key=True,
                native=top_face("SURPRISE_A_SURPRISES_ON", "SURPRISE_B_SURPRISED_ON"),
                udf="surprise_range(SURPRISE_A_SURPRISES_ON,SURPRISE_B_SURPRISED_ON)",
            ),
            Field(
                "B surprises A on 1 to",
                b_on_a,
                key=True,
                native=top_face("SURPRISE_B_SURPRISES_ON", "SURPRISE_A_SURPRISED_ON"),
                udf="surprise_range(SURPRISE_B_SURPRISES_ON,SURPRISE_A_SURPRISED_ON)",
            ),
            chance_field("Chance A surprises B", "SURPRISE_A_CHANCE", chance(a_on_b)),
            chance_field("Chance B surprises A", "SURPRISE_B_CHANCE", chance(b_on_a)),
            empty_input(
                "d6 rolled for A",
                "SURPRISE_ROLL_FOR_A",
                help_text="A is surprised when it is within B's range",
            ),
            empty_input("d6 rolled for B", "SURPRISE_ROLL_FOR_B"),
            Field(
                "Result",
                "SURPRISE_RESULT",
                key=True,
                native=outcome,
                udf=(
                    'IF(OR(SURPRISE_ROLL_FOR_A="",SURPRISE_ROLL_FOR_B=""),"",'
                    f"osr_surprise_outcome({a_on_b},{b_on_a},SURPRISE_ROLL_FOR_B,SURPRISE_ROLL_FOR_A))"
                ),
            ),
        ),
    )


def mass_section(rules: RuleSet) -> Section:
    die = by_id("mass_combat", "dice", '"unit_damage_die"')
    sides = dice_sides(die)
    times = (
        f"IF({ruling_is('mass_combat_damage_multiplier', 'men_in_unit')},MASS_MEN,"
        f"{const('mass_combat', 'unit_damage_multiplier')})"
    )
    damage = (
        'IF(MASS_DAMAGE_ROLL="","",'
        f'IF(OR(MASS_DAMAGE_ROLL<1,MASS_DAMAGE_ROLL>{sides}),"#DAMAGE ROLL? 1 to "&{sides},'
        f'IF(AND({ruling_is("mass_combat_damage_multiplier", "men_in_unit")},SUM(MASS_MEN)<1),"#MEN? 1 or more",'
        f"MASS_DAMAGE_ROLL*{times})))"
    )
    survivors = (
        'IF(SUM(MASS_MEN)<1,"#MEN? 1 or more",IF(SUM(MASS_ORIGINAL_HP)<1,"#ORIGINAL HP? 1 or more",'
        'IF(MASS_HP_AFTER>MASS_ORIGINAL_HP,"#REMAINING HP? at most the original hit points",'
        f"IF(MASS_HP_AFTER<=0,0,{round_up('MASS_HP_AFTER*MASS_MEN/MASS_ORIGINAL_HP')}))))"
    )
    men = rules.constant("mass_combat", "unit_men")
    return Section(
        "Mass combat (a unit fought as one man)",
        (
            Field("Men in the unit", "MASS_MEN", INPUT, men, help="unit hit points: one d6 per man"),
            Field("Unit's original hit points", "MASS_ORIGINAL_HP", INPUT, 40),
            Field("Unit's hit points before this hit", "MASS_HP_BEFORE", INPUT, 40),
            empty_input(
                "d6 thrown for the hit", "MASS_DAMAGE_ROLL", help_text="one hit throw per unit per round"
            ),
            Field(
                "Hit points lost",
                "MASS_DAMAGE_DEALT",
                key=True,
                native=damage,
                udf=f'IF(MASS_DAMAGE_ROLL="","",osr_mass_damage(MASS_DAMAGE_ROLL,{optional_input("MASS_MEN")}))',
            ),
            Field(
                "Unit's hit points now",
                "MASS_HP_AFTER",
                native="IF(ISNUMBER(MASS_DAMAGE_DEALT),MAX(0,SUM(MASS_HP_BEFORE)-MASS_DAMAGE_DEALT),SUM(MASS_HP_BEFORE))",
            ),
            Field("Slain to a man", "MASS_SLAIN", native="MASS_HP_AFTER<=0", number_format=BOOLEAN_FORMAT),
            Field(
                "Men left alive",
                "MASS_SURVIVORS_LEFT",
                key=True,
                native=survivors,
                udf=f"mass_survivors(MASS_ORIGINAL_HP,MASS_HP_AFTER,{optional_input('MASS_MEN')})",
                help="one per tenth of the original hit points left, fractions up",
            ),
        ),
    )


def kills_section(rules: RuleSet) -> Section:
    faces = const("to_hit_roll", "to_hit_die_sides")
    nat1, nat20 = const("natural_1_fumble", "natural_miss_roll"), const("natural_20_hit", "natural_hit_roll")
    hitting_faces = f"(1+MAX(0,{nat20}-MAX(KILLS_NEED,{nat1}+1)))"

    def mean(cell: str) -> str:
        return f"AVERAGE({dice_count(cell)},{dice_count(cell)}*{dice_sides(cell)})+{dice_modifier(cell)}"

    damage, hp = "KILLS_AVG_DAMAGE", "KILLS_AVG_HP"
    capped = f"KILLS_ATTACKS*{hitting_faces}*MIN({hp},{damage})/({faces}*{hp})"
    plain = f"KILLS_ATTACKS*{hitting_faces}*{damage}/({faces}*{hp})"
    kills = f"IF({ruling_is('expected_kills_method', 'one_per_hit_capped')},{capped},{plain})"
    kills = f"IF({ruling_is('expected_kills_rounding', 'up')},{round_up(kills)},{kills})"

    def guarded(expr: str) -> str:
        return (
            f'IF(SUM(KILLS_ATTACKS)<0,"#ATTACKS? 0 or more",IF(NOT(ISNUMBER({damage})),{DICE_ERROR},'
            f'IF(NOT(ISNUMBER({hp})),{DICE_ERROR},IF({hp}<=0,"#HP DICE? average hit points must be above 0",{expr}))))'
        )

    return Section(
        "Normal Men killed per round (the seed's shortcut)",
        (
            Field("Attacks per round", "KILLS_ATTACKS", INPUT, 8),
            Field("Natural d20 needed to hit them", "KILLS_NEED", INPUT, 7),
            Field(
                "Damage per hit",
                "KILLS_DAMAGE_DICE",
                INPUT,
                rules.table("damage_dice").value("normal_weapon", "dice"),
            ),
            Field(
                "Their hit points",
                "KILLS_HP_DICE",
                INPUT,
                rules.table("normal_men").value("normal_man_hit_points", "dice"),
            ),
            working_field("Average damage", damage, f'IFERROR({mean("KILLS_DAMAGE_DICE")},"")'),
            working_field("Average hit points", hp, f'IFERROR({mean("KILLS_HP_DICE")},"")'),
            chance_field("Chance to hit", "KILLS_HIT_CHANCE", guarded(f"{hitting_faces}/{faces}")),
            Field("Hits per round", "KILLS_HITS", native=guarded(f"KILLS_ATTACKS*{hitting_faces}/{faces}")),
            Field(
                "Normal Men killed per round",
                "KILLS_PER_ROUND",
                key=True,
                native=guarded(kills),
                udf=f"osr_expected_kills(KILLS_ATTACKS,KILLS_NEED,KILLS_DAMAGE_DICE,{optional_input('KILLS_HP_DICE')})",
                help="rulings expected_kills_method and expected_kills_rounding",
            ),
        ),
    )


def normal_men_section(rules: RuleSet) -> Section:
    table = "attacker_kinds_vs_normal_men"
    kind_id = f"{by_label(table, 'id', 'NORMAL_MEN_KIND')}"
    row_id = f'IF(AND({kind_id}="other_pc",{ruling_is("normal_men_multiple_attacks", "all_pcs")}),"fighter_type",{kind_id})'
    level = "NORMAL_MEN_LEVEL"
    attacks = (
        f"IF(ISNA(MATCH(NORMAL_MEN_KIND,{T(table, 'label')},0)),{list_mistake(rules, 'kind', table)},"
        f'IF(SUM({level})<0,"#LEVEL? 0 or more",'
        f"IF(SUM({level})>{by_label(table, 'more_than', 'NORMAL_MEN_ROW')},"
        f"MAX({by_label(table, 'otherwise', 'NORMAL_MEN_ROW')},SUM({level})*{by_label(table, 'per_level_or_hd', 'NORMAL_MEN_ROW')}),"
        f"{by_label(table, 'otherwise', 'NORMAL_MEN_ROW')})))"
    )
    return Section(
        "Attacks per round against Normal Men",
        (
            list_input("Attacker", "NORMAL_MEN_KIND", table, default_choice(rules.table(table))),
            Field("XP level (monsters: whole HD)", level, INPUT, 3),
            working_field(
                "Row used (ruling normal_men_multiple_attacks)",
                "NORMAL_MEN_ROW",
                f'IFERROR({by_id(table, "label", row_id)},"")',
            ),
            Field(
                "Attacks per round",
                "NORMAL_MEN_ATTACKS",
                key=True,
                native=attacks,
                udf=f"osr_attacks_vs_normal_men(NORMAL_MEN_KIND,{level})",
            ),
        ),
    )


def grapple_section(rules: RuleSet) -> Section:
    sides = const("grappling_dice", "grappling_die_sides")

    def check(roll: str, hd: str, per: str, what: str) -> str:
        count = f"SUM({hd})*{const('grappling_dice', per)}"
        return (
            f'IF(SUM({hd})<1,"#{what} HD? 1 or more",'
            f'IF(OR(SUM({roll})<{count},SUM({roll})>{count}*{sides}),"#{what} ROLL? "&{count}&" to "&{count}*{sides},"")) '
        ).strip()

    guard = (
        f'IF({check("GRAPPLE_HERO_ROLL", "GRAPPLE_HERO_HD", "defender_d6_per_hd", "HERO")}<>"",'
        f"{check('GRAPPLE_HERO_ROLL', 'GRAPPLE_HERO_HD', 'defender_d6_per_hd', 'HERO')},"
        f'IF({check("GRAPPLE_GRAPPLERS_ROLL", "GRAPPLE_GRAPPLERS_HD", "grappler_d6_per_hd", "GRAPPLERS")}<>"",'
        f"{check('GRAPPLE_GRAPPLERS_ROLL', 'GRAPPLE_GRAPPLERS_HD', 'grappler_d6_per_hd', 'GRAPPLERS')},{{}}))"
    )
    margin = "SUM(GRAPPLE_HERO_ROLL)-SUM(GRAPPLE_GRAPPLERS_ROLL)"
    band = f"MATCH({margin},{T('grappling_result', 'from')},1)"
    stunned = f"INDEX({T('grappling_result', 'grapplers_stunned')},{band})"
    stun = f"IF({stunned},({margin})*{const('grappling_dice', 'stun_rounds_per_point')},0)"
    example = {r.id: r["value"] for r in rules.table("grappling_example").rows}
    return Section(
        "Grappling contest",
        (
            Field("Grappled hero's HD (XP level)", "GRAPPLE_HERO_HD", INPUT, example["ex_hero_hd"]),
            Field(
                "Grapplers' combined HD (those who hit)",
                "GRAPPLE_GRAPPLERS_HD",
                INPUT,
                example["ex_orcs_grappling"] * example["ex_orc_hd"],
            ),
            Field("Hero's roll (d6 per HD)", "GRAPPLE_HERO_ROLL", INPUT, example["ex_hero_roll"]),
            Field("Grapplers' combined roll", "GRAPPLE_GRAPPLERS_ROLL", INPUT, example["ex_grapplers_total"]),
            Field("Hero's roll minus theirs", "GRAPPLE_MARGIN", native=guard.format(margin)),
            Field(
                "Result",
                "GRAPPLE_OUTCOME",
                key=True,
                native=guard.format(f"INDEX({T('grappling_result', 'result')},{band})"),
                udf=guard.format("osr_grapple_result(GRAPPLE_HERO_ROLL,GRAPPLE_GRAPPLERS_ROLL)"),
            ),
            Field(
                "Rounds the grapplers are stunned",
                "GRAPPLE_STUNNED_ROUNDS",
                key=True,
                native=guard.format(stun),
                udf=guard.format("osr_grapple_stun_rounds(GRAPPLE_HERO_ROLL,GRAPPLE_GRAPPLERS_ROLL)"),
            ),
        ),
    )


def save_section(rules: RuleSet) -> Section:
    table = "special_maneuvers"
    found = f"ISNA(MATCH(SAVE_MANEUVER,{T(table, 'label')},0))"
    saver = by_label(table, "saver", "SAVE_MANEUVER")
    row_error = f'IF({found},{list_mistake(rules, "maneuver", table)},IF({saver}="","#MANEUVER? no save for this one",""))'
    gap = (
        'IF(OR(SUM(SAVE_SAVER_LEVEL)<0,SUM(SAVE_ATTACKER_LEVEL)<0),"#LEVEL? 0 or more",'
        f"INT(MAX(0,SUM(SAVE_SAVER_LEVEL)-SUM(SAVE_ATTACKER_LEVEL))/{const('level_gap_save_bonus', 'levels_per_step')})"
        f"*{const('level_gap_save_bonus', 'save_bonus_per_step')})"
    )
    modifier = (
        f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,'
        f"IF({by_label(table, 'level_gap_bonus', 'SAVE_MANEUVER')},SAVE_LEVEL_GAP_BONUS,0)"
        f"-IF({by_label(table, 'minus_target_str_bonus', 'SAVE_MANEUVER')},SUM(SAVE_TARGET_STR_BONUS),0))"
    )
    modifier = (
        f'IF(AND(SAVE_ROW_ERROR="",NOT(ISNUMBER(SAVE_LEVEL_GAP_BONUS))),SAVE_LEVEL_GAP_BONUS,{modifier})'
    )
    default = next(str(r.label) for r in rules.table(table).rows if r["level_gap_bonus"])
    return Section(
        "Save vs Paralysis after a maneuver (level-gap bonus)",
        (
            list_input("Maneuver", "SAVE_MANEUVER", table, default),
            Field("Level of the one saving", "SAVE_SAVER_LEVEL", INPUT, 7),
            Field("Attacker's level", "SAVE_ATTACKER_LEVEL", INPUT, 1),
            Field(
                "Whip target's STR bonus",
                "SAVE_TARGET_STR_BONUS",
                INPUT,
                0,
                help="subtracted from the whip wielder's save",
            ),
            working_field("Maneuver check", "SAVE_ROW_ERROR", row_error),
            Field(
                "Level-gap bonus (+1 per 3 levels above)",
                "SAVE_LEVEL_GAP_BONUS",
                native=gap,
                udf="osr_level_gap_save_bonus(SAVE_SAVER_LEVEL,SAVE_ATTACKER_LEVEL)",
            ),
            Field("Who saves", "SAVE_WHO", native=f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,{saver})'),
            Field(
                "Added to the save",
                "SAVE_MODIFIER",
                key=True,
                native=modifier,
                udf="osr_maneuver_save_modifier(SAVE_MANEUVER,SAVE_SAVER_LEVEL,SAVE_ATTACKER_LEVEL,SAVE_TARGET_STR_BONUS)",
            ),
            Field(
                "What the maneuver does",
                "SAVE_EFFECT",
                native=f'IF(SAVE_ROW_ERROR<>"",SAVE_ROW_ERROR,{by_label(table, "effect", "SAVE_MANEUVER")})',
            ),
        ),
    )


def spell_section(rules: RuleSet) -> Section:
    table = "spell_interruption"
    low, high = (
        f"MIN({T('spell_interruption_failure', 'from')})",
        f"MAX({T('spell_interruption_failure', 'to')})",
    )

    def col(column: str) -> str:
        return by_label(table, column, "SPELL_SITUATION")

    band = f"INDEX({T('spell_interruption_failure', 'outcome')},MATCH(SPELL_D6,{T('spell_interruption_failure', 'from')},1))"
    outcome = (
        f"IF(ISNA(MATCH(SPELL_SITUATION,{T(table, 'label')},0)),{list_mistake(rules, 'situation', table)},"
        f'IF(OR(NOT({col("save_vs_paralysis")}),SPELL_SAVE=""),{col("result")},'
        f'IF(UPPER(SPELL_SAVE)=UPPER("{SAVE_MADE}"),{col("if_save_made")},'
        f'IF(UPPER(SPELL_SAVE)<>UPPER("{SAVE_FAILED}"),"#SAVE? {SAVE_MADE} or {SAVE_FAILED}",'
        f'IF(SPELL_D6="",{col("if_save_failed")},'
        f'IF(OR(SPELL_D6<{low},SPELL_D6>{high}),"#D6? "&{low}&" to "&{high},{band}))))))'
    )
    return Section(
        "Spellcaster hit while casting",
        (
            list_input(
                "Situation",
                "SPELL_SITUATION",
                table,
                str(rules.table(table).entry("simultaneous_initiative").label),
            ),
            Field(
                "Save vs Paralysis (add PSY bonus)",
                "SPELL_SAVE",
                INPUT,
                None,
                options=f"{SAVE_MADE},{SAVE_FAILED}",
            ),
            empty_input("d6 after a failed save", "SPELL_D6"),
            Field(
                "What happens",
                "SPELL_OUTCOME",
                key=True,
                native=outcome,
                udf=f"osr_spell_interruption(SPELL_SITUATION,{optional_input('SPELL_SAVE')},{optional_input('SPELL_D6')})",
            ),
        ),
    )


def write_calculators(book: Workbook, rules: RuleSet, with_udfs: Udfs) -> None:
    attack_sheet = write_attack_sheet(
        book,
        rules,
        "Yellow cells are yours: the number needed from your attack matrix, the bonus, the situation, then the "
        "natural d20 and the damage dice. Green cells are worked out from the rule tables in this workbook.",
        with_target_state(rules, attack_sections(rules)),
        with_udfs,
    )
    write_calculator(
        book,
        COMBAT_SHEET,
        f"{rules.name}: surprise, mass combat, Normal Men, grappling, saves, spells",
        "Yellow cells are yours; green cells are worked out from the rule tables.",
        [
            surprise_section(rules),
            mass_section(rules),
            kills_section(rules),
            normal_men_section(rules),
            grapple_section(rules),
            save_section(rules),
            spell_section(rules),
        ],
        with_udfs,
    )
    write_odds_workings(book, rules)
    show_chart(attack_sheet, write_damage_chart(book, rules, resolution(rules)))
    write_odds_sheet(book, rules)
