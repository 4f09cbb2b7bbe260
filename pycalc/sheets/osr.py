"""The osr calculators: Attack (descending AC, natural 1/20 rules, odds) and the sheet of the Combat
calculators, whose sections come from their own modules (``osr_surprise``, ``osr_mass_combat``,
``osr_normal_men``, ``osr_grappling``, ``osr_saves``: surprise, mass combat, Normal Men, grappling,
level-gap saves, spell interruption).

Every formula mirrors ``pycalc.rulesets.osr`` (whose attacks run on the generic d20 engine,
``pycalc.resolution``); the parity tests recalculate these sheets in
LibreOffice and compare them with the engine. Rule numbers are looked up by name (formulas.py).
"""

from __future__ import annotations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution as generic
from pycalc.resolution_results import fumble_chart
from pycalc.resolution_situation import Situation
from pycalc.rulesets import osr as engine
from pycalc.rulesets.osr import (
    FUMBLE_ROLL_UNUSED,
    ROLL_ON_IT,
    default_choice,
    die_sides,
    picker_tables,
)
from pycalc.sheets import attack_fields
from pycalc.sheets.attack_workings import write_pair_results
from pycalc.sheets.block_formulas import by_choice, literal
from pycalc.sheets.calculator import (
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
from pycalc.sheets.common import (
    absolute,
    define_name,
    put,
    put_formula,
    show_chart,
)
from pycalc.sheets.common import table_name as T
from pycalc.sheets.d20_cells import CHART_EFFECT, NATURAL_CRIT_CHANCE, NATURAL_HIT_CHANCE, Cells
from pycalc.sheets.d20_formulas import Formulas, own_calculator
from pycalc.sheets.d20_pickers import kind_flag, situation_flag, situation_sum
from pycalc.sheets.dual import Udfs
from pycalc.sheets.effect_words import Trial
from pycalc.sheets.formulas import (
    DICE_ERROR,
    const,
    dice_count,
    dice_modifier,
    dice_sides,
    optional_input,
    q,
)
from pycalc.sheets.log_rows import PartsArea
from pycalc.sheets.osr_grappling import grapple_section
from pycalc.sheets.osr_mass_combat import mass_section
from pycalc.sheets.osr_normal_men import kills_section, normal_men_section
from pycalc.sheets.osr_odds import odds_section, write_damage_chart, write_odds_sheet
from pycalc.sheets.osr_saves import save_section, spell_section
from pycalc.sheets.osr_surprise import surprise_section
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
    """The Critical Fumble's words with the GM's fumble table row (ATTACK_CHART_EFFECT, read by the
    block's chart at ATTACK_FUMBLE_ROLL), as ``osr.attack_effect`` says them."""
    said, base = CHART_EFFECT, by_id("attack_outcomes", "effect", '"fumble"')
    return f'IF(LEFT({said},1)="#",{said},{base}&": "&IF({said}="",{q(ROLL_ON_IT)},{said}))'


def fumble_row(rules: RuleSet) -> str:
    """The GM's fumble table row at ATTACK_FUMBLE_ROLL as the generic formulas read a chart (``osr.fumble_effect``)."""
    cells = Cells(chart_roll="ATTACK_FUMBLE_ROLL")
    return Formulas(generic.block(rules), cells).rolled_chart(rules, fumble_chart(rules))


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
            # native in the .xlsm too: osr_attack_effect reads the YAML's fumble table, not the rows the
            # GM types into the workbook's
            attack_fields.effect_field(effect),
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
            working_field("The fumble table's row at the roll", CHART_EFFECT, fumble_row(rules)),
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
