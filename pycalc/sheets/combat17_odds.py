"""Native odds for the 17 Combat Attack calculator: the damage distribution of one attack over the
shared dice grid, expected damage, kill chance, a bar chart, and the printable "Odds" sheet: the
generic heat map and natural-roll chances of ``pycalc.sheets.d20_heat``, read from the resolution block.
Mirrors ``pycalc.rulesets.combat17_odds``.

Outcome weights: a hit's rolls (d20 workings) x regular damage, a natural 20's rolls x the share of
follow-up faces whose critical chart row gives each damage kind (``natural_roll_outcome`` and
``critical_follow_up_roll`` applied per face). Per dice total, one damage column per outcomes row.
"""

from __future__ import annotations

from openpyxl.chart import ScatterChart
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from pycalc.d20 import CRITICAL, D20_FACES, HIT
from pycalc.grid_limits import beyond_grid_formula
from pycalc.rulesets import combat17_odds as odds_engine
from pycalc.sheets.calculator import INPUT, Field, Section
from pycalc.sheets.common import (
    NOTE,
    PERCENT_FORMAT,
    SUBTITLE,
    TITLE,
    WRAP,
    absolute,
    damage_chart,
    define_name,
    protect,
    put,
    put_formula,
    ruling_name,
)
from pycalc.sheets.d20_heat import critical_formula, fumble_formula, heat_maps, write_face_columns
from pycalc.sheets.dice_grid import HEADER_ROW, write_dice_grid
from pycalc.sheets.formulas import band, const, q, round_down, round_up
from pycalc.sheets.heat_map import write_heat_map
from pycalc.tables import RuleSet

WORKINGS = "Odds workings"
ODDS_SHEET = "Odds"
PREFIX = "ODDS_DMG"
FACES = "FACE_COUNT"
CHART_LARGEST = 60  # layout: the chart's bars are 0..59 damage and "60 or more"
FACE_TITLES = ("d20 face", "Natural 20 + this follow-up gives", "Plain follow-up gives")
HEAT_BONUS = range(-2, 16)  # layout of the printed heat map
HEAT_AC = range(8, 27)


def ruling_is(ruling_id: str, choice: str) -> str:
    return f'{ruling_name(ruling_id)}="{choice}"'


def by_id(column: str, outcome_id: str) -> str:
    return const("outcomes", outcome_id, column)


def outcome_ids(rules: RuleSet) -> list[str]:
    return [str(row.id) for row in rules.table("outcomes").rows]


def weight_name(outcome_id: str) -> str:
    return f"ODDS_W_{outcome_id.upper()}"


def damage_name(outcome_id: str) -> str:
    return f"ODDS_D_{outcome_id.upper()}"


def damage_value(outcome_id: str, shown: str) -> str:
    """engine.damage for a dice total ``shown`` (the cells of the Attack calculator's dice)."""
    dice_part = (
        f"({by_id('rolled_dice', outcome_id)}*{shown}+{by_id('max_dice', outcome_id)}"
        "*ATTACK_DICE_COUNT*ATTACK_DICE_SIDES)"
    )
    modifier_part = f"({by_id('modifier_times', outcome_id)}*(ATTACK_DICE_MOD+ATTACK_SITUATION_DAMAGE))"
    raw = (
        f"IF({ruling_is('double_damage_basis', 'whole_damage')},({dice_part}+{modifier_part})*ATTACK_DAMAGE_MULTIPLIER,"
        f"{dice_part}*ATTACK_DAMAGE_MULTIPLIER+{modifier_part})"
    )
    value = (
        f"MAX({const('damage_rules', 'minimum_damage')},IF({ruling_is('subdual_half_rounding', 'down')},"
        f"{round_down(raw)},{round_up(raw)}))"
    )
    return f"IF({by_id('hits', outcome_id)},{value},0)"


def follow_id(total: str) -> str:
    """The outcomes row a natural 20 gives for that critical chart total."""
    return (
        f"IF(AND({ruling_is('natural_roll_outcome', 'special_only')},NOT({band('critical_hits', 'special', total)})),"
        f'"regular_damage",{band("critical_hits", "damage", total)})'
    )


def over_outcomes(rules: RuleSet, test: str) -> str:
    """Sum over outcomes of weight x chance that the outcome's damage passes ``test`` ({d})."""
    return "+".join(
        f"{weight_name(o)}*SUMPRODUCT({PREFIX}_P,--({test.format(d=damage_name(o))}))"
        for o in outcome_ids(rules)
    )


def write_odds_workings(book: Workbook, rules: RuleSet) -> ScatterChart:
    """The hidden sheet: dice grid, outcome weights, per-total damage, per-face columns, chart data."""
    sheet = book.create_sheet(WORKINGS)
    grid = write_dice_grid(book, sheet, "ATTACK_DICE_TEXT", PREFIX)
    ids = outcome_ids(rules)
    # --- checks and the outcome weights, in two columns right of everything else (rows 1..)
    header, first = HEADER_ROW, grid.first
    col = grid.free_column
    face_col = col + len(ids) + 1
    chart_col = face_col + len(FACE_TITLES) + 1
    side = chart_col + 4
    label_at, value_at = get_column_letter(side), get_column_letter(side + 1)
    faces = f"${get_column_letter(face_col)}${first}:${get_column_letter(face_col)}${first + D20_FACES - 1}"
    follow_ids = faces.replace(get_column_letter(face_col), get_column_letter(face_col + 1))

    def side_cell(row: int, label: str, formula: str, name: str | None = None) -> str:
        put(sheet[f"{label_at}{row}"], label)
        put_formula(sheet[f"{value_at}{row}"], formula)
        if name:
            define_name(book, name, absolute(sheet, f"{value_at}{row}"))
        return absolute(sheet, f"{value_at}{row}")

    side_cell(
        1,
        "Dice fit the grid and read as the calculator reads them",
        f'AND(ATTACK_DICE_ERROR="",{PREFIX}_OK,{PREFIX}_COUNT=ATTACK_DICE_COUNT,{PREFIX}_SIDES=ATTACK_DICE_SIDES)',
        "ODDS_OK",
    )
    bad = beyond_grid_formula(PREFIX)
    side_cell(2, "Why no odds", f'IF(ATTACK_DICE_ERROR<>"",ATTACK_DICE_ERROR,{bad})', "ODDS_MESSAGE")
    hits = side_cell(3, "Natural rolls that hit", f'COUNTIF(WORKINGS_OUTCOMES,"{HIT}")')
    crits = side_cell(4, "Natural rolls that are a natural 20", f'COUNTIF(WORKINGS_OUTCOMES,"{CRITICAL}")')
    for index, outcome_id in enumerate(ids):
        if outcome_id == "miss":
            formula = f"({FACES}-{hits}-{crits})/{FACES}"
        else:
            regular = f"{hits}*{FACES}+" if outcome_id == "regular_damage" else ""
            formula = f'({regular}{crits}*COUNTIF({follow_ids},"{outcome_id}"))/{FACES}/{FACES}'
        side_cell(5 + index, f"Chance of {outcome_id}", formula, weight_name(outcome_id))
    # --- per dice total: damage of each outcome, and the expected damage column
    for index, outcome_id in enumerate(ids):
        put(sheet.cell(header, col + index), f"Damage on {outcome_id}")
    put(sheet.cell(header, col + len(ids)), "Weighted damage")
    for row in range(grid.first, grid.last + 1):
        for index, outcome_id in enumerate(ids):
            put_formula(sheet.cell(row, col + index), f"IF(ODDS_OK,{damage_value(outcome_id, f'$A{row}')},0)")
        weighted = "+".join(f"{weight_name(o)}*{get_column_letter(col + i)}{row}" for i, o in enumerate(ids))
        put_formula(sheet.cell(row, col + len(ids)), weighted)
    for index, outcome_id in enumerate(ids):
        define_name(book, damage_name(outcome_id), grid.column(col + index))
    define_name(book, "ODDS_WEIGHTED_DAMAGE", grid.column(col + len(ids)))
    # --- per d20 face: follow-up outcome row (with the roll's modifiers), and for the Odds sheet
    titles = FACE_TITLES
    for offset, title in enumerate(titles):
        put(sheet.cell(header, face_col + offset), title)
    follow_mod = f"IF({ruling_is('critical_follow_up_roll', 'add_modifiers')},ATTACK_TOTAL_MODS,0)"
    for face in range(1, D20_FACES + 1):
        row = first + face - 1
        cell = f"${get_column_letter(face_col)}{row}"
        put(sheet.cell(row, face_col), face)
        put_formula(sheet.cell(row, face_col + 1), follow_id(f"{cell}+{follow_mod}"))
        put_formula(sheet.cell(row, face_col + 2), follow_id(cell))
    for offset, name in enumerate(("ODDS_FACES", "ODDS_FOLLOW_IDS", "ODDS_PLAIN_FOLLOW_IDS")):
        letter = get_column_letter(face_col + offset)
        define_name(book, name, absolute(sheet, f"{letter}{first}", f"{letter}{first + D20_FACES - 1}"))
    block = rules.resolution_block
    assert block is not None
    write_face_columns(book, sheet, rules, block, first_col=side + 3)  # the Odds sheet's chances
    # --- the chart's data: chance of each damage 0..CHART_LARGEST-1, then "CHART_LARGEST or more"
    put(sheet.cell(header, chart_col), "Damage")
    put(sheet.cell(header, chart_col + 1), "Chance")
    for x in range(CHART_LARGEST + 1):
        row = first + x
        test = "{d}=" if x < CHART_LARGEST else "{d}>="
        put(sheet.cell(row, chart_col), x if x < CHART_LARGEST else f"{x}+")
        put(sheet.cell(row, chart_col + 2), x)
        amount = f"${get_column_letter(chart_col + 2)}{row}"
        formula = f"IF(ODDS_OK,{over_outcomes(rules, test + amount)},0)"
        put_formula(sheet.cell(row, chart_col + 1), formula).number_format = PERCENT_FORMAT
    last = first + CHART_LARGEST
    letter = get_column_letter(chart_col + 1)
    define_name(book, "ODDS_CHART_CHANCES", absolute(sheet, f"{letter}{first}", f"{letter}{last}"))
    chart = damage_chart(
        sheet,
        "Damage of one attack (before the roll)",
        "damage",
        chart_col,
        header,
        first,
        last,
        8,
        dice_ok=f"{PREFIX}_OK",
    )
    sheet.sheet_state = "hidden"
    protect(sheet)
    return chart


def odds_section(rules: RuleSet) -> Section:
    """The odds panel of the Attack calculator (inputs and outputs)."""

    def guarded(formula: str) -> str:
        return f"IF(ODDS_OK,{formula},ODDS_MESSAGE)"

    expected = f"SUMPRODUCT({PREFIX}_P,ODDS_WEIGHTED_DAMAGE)"
    udf_head = "ATTACK_BONUS,ATTACK_AC,ATTACK_DICE"
    udf_tail = "ATTACK_TOTAL_MODS,ATTACK_SITUATION_DAMAGE,ATTACK_BARRED,ATTACK_DAMAGE_MULTIPLIER"
    attacks_bad = q(odds_engine.ATTACKS_MESSAGE)
    return Section(
        "Odds before the roll (every d20, chart roll and damage die weighed)",
        (
            Field(
                "Attacks this round", "ATTACK_ATTACKS", INPUT, 1, help="independent attacks, same situation"
            ),
            Field("Target's hit points now", "ATTACK_TARGET_HP", INPUT, 10),
            Field(
                "Expected damage per attack",
                "ATTACK_EXPECTED_DAMAGE",
                key=True,
                number_format="0.00",
                native=guarded(expected),
                udf=f"combat17_expected_damage({udf_head},1,{udf_tail})",
            ),
            Field(
                "Expected damage per round",
                "ATTACK_EXPECTED_DAMAGE_ROUND",
                number_format="0.00",
                native=(
                    "IF(ISTEXT(ATTACK_EXPECTED_DAMAGE),ATTACK_EXPECTED_DAMAGE,"
                    f"IF(SUM(ATTACK_ATTACKS)<0,{attacks_bad},SUM(ATTACK_ATTACKS)*ATTACK_EXPECTED_DAMAGE))"
                ),
                udf=f"combat17_expected_damage({udf_head},ATTACK_ATTACKS,{udf_tail})",
            ),
            Field(
                "Chance one attack drops the target",
                "ATTACK_KILL_CHANCE",
                key=True,
                number_format=PERCENT_FORMAT,
                native=guarded(over_outcomes(rules, "{d}>=SUM(ATTACK_TARGET_HP)")),
                udf=f"combat17_kill_chance({udf_head},ATTACK_TARGET_HP,1,{udf_tail})",
            ),
            Field(
                "Chance the round's attacks drop the target",
                "ATTACK_KILL_CHANCE_ROUND",
                number_format=PERCENT_FORMAT,
                native=(
                    "IF(ISTEXT(ATTACK_KILL_CHANCE),ATTACK_KILL_CHANCE,IF(SUM(ATTACK_ATTACKS)=1,ATTACK_KILL_CHANCE,"
                    f"IF(SUM(ATTACK_ATTACKS)=0,IF(SUM(ATTACK_TARGET_HP)<=0,1,0),{q(odds_engine.SEVERAL_ATTACKS)})))"
                ),
                udf=f"combat17_kill_chance({udf_head},ATTACK_TARGET_HP,ATTACK_ATTACKS,{udf_tail})",
            ),
        ),
    )


def write_odds_sheet(book: Workbook, rules: RuleSet) -> None:
    """Printable: chance to hit by attack bonus x target AC, and the natural-roll chances."""
    sheet = book.create_sheet(ODDS_SHEET)
    put(sheet["A1"], f"{rules.name}: chance to hit by attack bonus and Armor Class").font = TITLE
    note = put(
        sheet["A2"],
        "Exact chances with the natural rolls (a natural 20 always hits, a natural 1 always misses); "
        "no situation modifiers. d20 + attack bonus >= AC.",
    )
    note.font, note.alignment = NOTE, WRAP
    block = rules.resolution_block
    assert block is not None
    row = 3
    for heat in heat_maps(block, "Bonus \\ AC", HEAT_BONUS, HEAT_AC):
        row = write_heat_map(book, sheet, row, heat)
    row -= 1
    put(sheet.cell(row, 1), "Natural rolls (any bonus, plain follow-up d20)").font = SUBTITLE
    lines = [  # a target every roll reaches: only the natural roll counts
        ("Chance of a critical", "ODDS_CRIT", critical_formula(block, "0", "0")),
        ("Chance of a fumble", "ODDS_FUMBLE", fumble_formula(block, "0")),
    ]
    for outcome_id in outcome_ids(rules):
        if outcome_id == "miss":
            continue
        label = rules.table("outcomes").entry(outcome_id).label
        lines.append(
            (
                f"After a natural 20: {label}",
                f"ODDS_N20_{outcome_id.upper()}",
                f'COUNTIF(ODDS_PLAIN_FOLLOW_IDS,"{outcome_id}")/{FACES}',
            )
        )
    for offset, (label, name, formula) in enumerate(lines, start=1):
        put(sheet.cell(row + offset, 1), label)
        put_formula(sheet.cell(row + offset, 2), formula).number_format = PERCENT_FORMAT
        define_name(book, name, absolute(sheet, f"B{row + offset}"))
    sheet.column_dimensions["A"].width = 34
    for j in range(2, 2 + len(HEAT_AC)):
        sheet.column_dimensions[get_column_letter(j)].width = 6
    protect(sheet)
