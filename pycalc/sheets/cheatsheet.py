"""The printable cheat sheet and the GM screen: what a GM looks up during a fight, in the order a round
is played, readable at arm's length.

Which tables, and where: a table's ``cheatsheet:`` names its block (``CHEATSHEET_BLOCKS``: initiative,
the attack roll, situational modifiers, criticals and fumbles, damage, hit points, stun, conditions,
morale), its order in the block, optionally the rule in one line (its ``{entry}`` fields filled from
the table's cells) and the columns printed; ``false`` keeps it in the reference PDF only. A picker
table without the key goes to the situational modifiers; any other table without it stays in the
reference PDF. A d20 ruleset whose target is an armour class also gets a grid of the d20 roll needed,
worked out by the engine; an attack block without a rule prints the ruleset's resolution sentence.

Layout, made for paper: body text at 9 pt, table titles at 10 pt and block headings at 12 pt, at 100%
scale (or larger for a sheet that fits one page). The sheet is a grid of narrow columns; each table's
columns are cells merged over as many grid columns as their text needs, measured from the font's
widths, and a long text wraps onto up to ``MAX_ROW_LINES`` lines rather than be cut. The page is split
into side-by-side panels (2 on the portrait cheat sheet, 3 on the landscape GM screen) filled like a
newspaper's columns, down each panel then the next, so the sheet reads in the order of the round. A
table too wide for a panel takes the whole width on the cheat sheet; on the screen it prints stacked
(each row's label, then its values after their columns' names) so nothing crosses a fold. A table too
long for the rest of a panel goes on in the next one, cut between two rows, its header printed again.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import openpyxl
from openpyxl.styles import Alignment, Border, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from pycalc import resolution
from pycalc.sheets.common import (
    ACCENT,
    GRID,
    MUTED,
    OPEN_HIGH,
    OPEN_LOW,
    font,
    put,
    style_header,
)
from pycalc.sheets.gm_text import readable
from pycalc.sheets.printing import set_up_printing
from pycalc.sheets.text_width import text_points, wrapped
from pycalc.table_files import CHEATSHEET_BLOCKS, RULE_FIELD, Column
from pycalc.tables import Row, RuleSet, Table

SHEET_TITLE = "Cheat sheet"
SCREEN_TITLE = "GM screen"
VALUE_COLUMNS = 5  # at most this many value columns of a table
BODY_SIZE = 9.0  # points, printed at 100%: read at arm's length
TITLE_SIZE = 10.0  # a table's title
BLOCK_SIZE = 12.0  # a block's heading
HEADING_FONT = 14.0  # the sheet's title
PIXEL = 0.75  # points: LibreOffice prints a row's height in whole pixels (96 an inch), rounded down
UNIT = 5.25  # points: every sheet row's height (7 pixels), so that the page holds what is laid out
LINE_ROWS = 2  # sheet rows a line of a table's cell takes: 10.5 pt for 9 pt text
LEADING = 1.15  # a line of text takes this many times its font size (LibreOffice sets 1.12)
TEXT_PAD = 1.0  # points: the office's padding above a cell's text
MIN_GAP = 1.5  # points of paper at least between a text's ink and a block's rule or the next block
RULE_HALF = 0.9  # points: half the width of the rule above a block's heading (drawn medium, 1.75 pt)
AFTER_TABLE = 1  # sheet rows of paper below a table's last row, before what follows
WIDE_RATIO = (
    2.0  # on the cheat sheet a table goes across the page when a panel would make it this much taller
)
POINTS_PER_GRID = 7.0  # LibreOffice prints a column of width 1 as 7 points
GRID_WIDTH = 1.0
CELL_PADDING = 6.0  # points of a cell's width its text cannot use (LibreOffice's margins and a safety)
MAX_ROW_LINES = 4  # a long text wraps onto at most this many lines
SCREEN_ROW_LINES = 7  # on the GM screen's narrower panels, before a table prints stacked
GAP = 2  # grid columns between two panels
SCALES = (150, 125, 100)  # print scales tried, largest first: the first that fits one page is used
MARGIN = 0.3  # inches, left and right
TOP, BOTTOM = 0.4, 0.4  # inches, above and below the printed rows (header and footer sit inside)
HEADER_MARGIN = 0.15  # inches from the page's edge to the header and to the footer
PAGE_SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}  # points, portrait (width, height)
SAFETY_ROWS = 2  # a page is filled 10.5 pt short of what fits (the office sets the header a little
# lower than its margin says), so the office never breaks a table
FIRST_ROW = 4  # tables start here (title, introduction and a gap above)
HEADER_FOOTER_SIZE = 9
PORTRAIT_PANELS, SCREEN_PANELS = 2, 3
MIN_SPLIT_ROWS = 4  # a table goes on over the next panel or page with at least this many rows each side
TALL_SPLIT = (16 * LINE_ROWS, 2)  # a table this many sheet rows tall may be cut with 2 rows a side
GRID_BONUSES = range(0, 11, 2)  # the attack bonuses and armour classes of the d20 grid: common cases
GRID_CLASSES = range(10, 23, 2)
MINUS = "\u2212"
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")
BLOCK_TITLES = {
    "initiative": "Initiative",
    "attack": "The attack roll",
    "situation": "Situation: modifiers, cover, range",
    "results": "Criticals, fumbles and special results",
    "damage": "Damage",
    "hit_points": "Hit points",
    "stun": "Stun",
    "conditions": "Conditions and how long they last",
    "morale": "Morale",
}
HEADING_RULE = Border(top=Side(style="medium", color=ACCENT))  # a rule above each block


@dataclass(frozen=True)
class Paper:
    """The printable page: its grid columns across, panels, and table rows per page."""

    panels: int
    columns_across: int
    first: int  # table rows on page 1 (below the sheet's title)
    later: int  # table rows on every later page
    landscape: bool

    @property
    def panel(self) -> int:
        return (self.columns_across - GAP * (self.panels - 1)) // self.panels

    def capacity(self, page: int) -> int:
        return self.first if page == 0 else self.later

    def page_start(self, page: int) -> int:
        """The sheet row a page's tables start on."""
        return FIRST_ROW if page == 0 else FIRST_ROW + self.first + (page - 1) * self.later


@dataclass(frozen=True)
class Shown:
    """A table (or the d20 grid) as the cheat sheet prints it."""

    block: str
    title: str
    rule: str  # the rule in one line, above the rows ("" when none)
    header: list[str]  # [] when only the rule is printed
    rows: list[list[object]]
    spans: list[int]  # grid columns per column, label column first
    width: int  # grid columns of the whole table
    full_width: bool  # across the page, rather than in one panel
    title_lines: int
    rule_lines: int
    header_lines: int
    row_lines: tuple[int, ...]  # lines of text of each body row
    table: Table | None = None  # None: worked out by the engine (the d20 grid)
    heading: str = ""  # a block's heading (then nothing else is printed)
    after: int = AFTER_TABLE  # sheet rows of paper below a table (none when a text follows, see ``spaced``)

    @property
    def title_rows(self) -> int:
        return text_rows(self.title_lines, TITLE_SIZE) if self.title else 0

    @property
    def rule_rows(self) -> int:
        return text_rows(self.rule_lines, BODY_SIZE) if self.rule else 0

    @property
    def header_rows(self) -> int:
        return LINE_ROWS * self.header_lines if self.header else 0

    @property
    def body_rows(self) -> tuple[int, ...]:
        """Sheet rows each body row takes."""
        return tuple(LINE_ROWS * lines for lines in self.row_lines)

    @property
    def height(self) -> int:
        """Sheet rows, with the paper left below a table before what follows."""
        if self.heading:
            return HEADING_ROWS
        after = self.after if self.header else 0
        return self.title_rows + self.rule_rows + self.header_rows + sum(self.body_rows) + after


@dataclass(frozen=True)
class Placed:
    shown: Shown
    page: int  # 0-based
    row: int  # sheet row of its first line
    first_column: int  # 1-based grid column


# --------------------------------------------------------------------------- what is printed


def block_of(table: Table) -> str | None:
    """The table's block, or None when it is in the reference PDF only."""
    if table.cheatsheet is False or not table.rows:
        return None
    if isinstance(table.cheatsheet, str):
        return table.cheatsheet
    return "situation" if table.picker else None


def signed(number: int) -> str:
    return f"{MINUS}{-number}" if number < 0 else str(number)


def band_label(row: Row) -> str:
    """A band as a GM reads it: "−9 to −7", "10 or less", "4 or more", "5"."""
    if row.low is None or row.low <= OPEN_LOW:
        return f"{signed(int(row.high))} or less"
    if row.high is None or row.high >= OPEN_HIGH:
        return f"{signed(row.low)} or more"
    return signed(row.low) if row.low == row.high else f"{signed(row.low)} to {signed(row.high)}"


def formula_labels(rules: RuleSet, table: Table, column: Column) -> dict[str, str]:
    """The damage formulas' names by id when the column is the critical chart's ``formula`` column
    (its rows name a row of the damage formulas table), else none."""
    block = rules.resolution_block
    if block is None or block.damage.formulas is None:
        return {}
    chart = block.critical.chart
    if chart is None or (chart.table, chart.formula) != (table.id, column.id):
        return {}
    return {str(row.id): str(row.label) for row in rules.table(block.damage.formulas.table).rows}


def shown_value(value: object, table: Table, column: Column, rules: RuleSet) -> object:
    """A value as a GM reads it: a flag as "yes" or "no", nothing as a dash, a row's, outcome's or
    damage formula's name rather than its id."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    formulas = formula_labels(rules, table, column)
    if isinstance(value, str) and value in formulas:
        return formulas[value]
    if isinstance(value, str) and (IDENTIFIER.match(value) or column.type == "outcome"):
        labels = {row.id: row.label for row in table.rows}
        return labels.get(value, value.replace("_", " ").capitalize())
    if isinstance(value, str):
        return readable(value, rules)
    return value


def rule_text(table: Table, rules: RuleSet) -> str:
    """The table's rule in one line, each {entry} / {entry.column} replaced by that cell's value."""

    def cell(match: re.Match[str]) -> str:
        column_id = match.group(2) or "value"
        value = table.value(match.group(1), column_id)
        column = next(c for c in table.columns if c.id == column_id)
        shown = shown_value(value, table, column, rules)
        return signed(shown) if isinstance(shown, int) else str(shown)

    return readable(RULE_FIELD.sub(cell, table.cheatsheet_rule), rules)


def has_values(table: Table) -> bool:
    """Whether any row says something: a table of dashes and "no" says nothing (0 says something)."""
    columns = shown_columns(table)
    return any(row[c.id] is not None and row[c.id] is not False for row in table.rows for c in columns)


# --------------------------------------------------------------------------- measuring


def text_rows(lines: int, size: float) -> int:
    """Sheet rows a text of that many lines takes, set at the top of its cell, with room below its
    last line for a block's rule and a gap (its ink never touches what follows)."""
    return math.ceil((TEXT_PAD + lines * LEADING * size + RULE_HALF + MIN_GAP) / UNIT)


HEADING_ROWS = math.ceil((BLOCK_SIZE * LEADING + 2 * (RULE_HALF + MIN_GAP)) / UNIT)  # a block's heading:
# centred between its rule and its first table, a gap either side


def wrapped_lines(text: str, grid_columns: int, size: float = BODY_SIZE, bold: bool = False) -> int:
    """Lines a text takes when wrapped at spaces into that many grid columns (a word too long: 99)."""
    room = grid_columns * POINTS_PER_GRID - CELL_PADDING
    lines = wrapped(text, room, size, bold)
    return 99 if any(text_points(line, size, bold) > room for line in lines) else len(lines)


def span(text: str, lines: int = 1, size: float = BODY_SIZE, bold: bool = False) -> int:
    """The fewest grid columns that hold the text in that many lines."""
    return next(width for width in range(1, 400) if wrapped_lines(text, width, size, bold) <= lines)


def columns_needed(header: list[str], rows: list[list[object]], header_lines: int) -> list[int]:
    """Grid columns each column needs for its values on one line and its header on that many."""
    return [
        max(span(text, header_lines, bold=True), *(span(str(values[index])) for values in rows))
        for index, text in enumerate(header)
    ]


def longest_word(header: str, values: list[object]) -> int:
    """Grid columns the column's longest word needs (bold in the header): its narrowest wrapped width."""
    words = [(word, True) for word in header.split()] + [
        (word, False) for value in values for word in str(value).split()
    ]
    return max(span(word, 1, bold=bold) for word, bold in words)


Fitted = tuple[list[int], int, tuple[int, ...]]  # spans, header lines, lines of each row


def fit_columns(
    header: list[str], rows: list[list[object]], width: int, max_lines: int = MAX_ROW_LINES
) -> Fitted | None:
    """(spans, header lines, lines of each row) of the table in ``width`` grid columns: on one line
    each if it can, else with its widest columns wrapped (each keeping its longest word whole, at most
    ``MAX_ROW_LINES`` lines a row); None when it cannot be."""
    for header_lines in (1, 2, 3):
        spans = columns_needed(header, rows, header_lines)
        if sum(spans) <= width:
            return [spans[0] + width - sum(spans), *spans[1:]], header_lines, (1,) * len(rows)
    needs = columns_needed(header, rows, 3)
    by_need = sorted(range(len(header)), key=lambda index: -needs[index])
    for count in range(1, len(header) + 1):
        wrapping = by_need[:count]
        fixed = sum(needs[i] for i in range(len(header)) if i not in wrapping)
        room = width - fixed
        wanted = sum(needs[i] for i in wrapping)
        spans = list(needs)
        for index in wrapping:
            spans[index] = max(
                longest_word(header[index], [r[index] for r in rows]), room * needs[index] // wanted
            )
        spans[wrapping[0]] += width - sum(spans)
        if spans[wrapping[0]] < longest_word(header[wrapping[0]], [r[wrapping[0]] for r in rows]):
            continue
        header_lines = max(wrapped_lines(text, s, bold=True) for text, s in zip(header, spans, strict=True))
        lines = tuple(
            max(wrapped_lines(str(value), s) for value, s in zip(values, spans, strict=True))
            for values in rows
        )
        if header_lines <= max_lines and max(lines, default=1) <= max_lines:
            return spans, header_lines, lines
    return None


def stacked(header: list[str], rows: list[list[object]]) -> tuple[list[str], list[list[object]]]:
    """A table too wide for a panel of the GM screen as two columns: each row's label, then its values
    in one text, each after its column's name ("Damage: Maximum damage; ..."), a dash left out."""
    body: list[list[object]] = [
        [
            values[0],
            "; ".join(
                f"{name}: {value}" for name, value in zip(header[1:], values[1:], strict=True) if value != "—"
            ),
        ]
        for values in rows
    ]
    return [header[0], ""], body


def stacked_columns(header: list[str], rows: list[list[object]], width: int) -> Fitted:
    """A stacked table's spans, header lines and row lines: the labels take what they need up to a
    third of the panel (their longest word at least), the text the rest."""
    labels = [header[0], *(str(values[0]) for values in rows)]
    label = max(
        longest_word(header[0], [values[0] for values in rows]), min(width // 3, max(map(span, labels)))
    )
    spans = [label, width - label]
    header_lines = wrapped_lines(header[0], label, bold=True)
    lines = tuple(
        max(wrapped_lines(str(v), s) for v, s in zip(values, spans, strict=True)) for values in rows
    )
    return spans, header_lines, lines


def shown_table(
    block: str,
    title: str,
    rule: str,
    header: list[str],
    rows: list[list[object]],
    paper: Paper,
    table: Table | None = None,
) -> Shown:
    """Lay the table out in a panel if it fits one, else across the page on the cheat sheet (there also
    when wrapping in a panel makes it ``WIDE_RATIO`` times as tall), stacked in a panel on the GM screen (a table
    across a fold would read as two)."""
    screen = paper.panels == SCREEN_PANELS

    def laid(width: int, head: list[str], body: list[list[object]], fit: Fitted) -> Shown:
        spans, header_lines, row_lines = fit
        title_lines = wrapped_lines(title, width, TITLE_SIZE, bold=True) if title else 0
        rule_lines = wrapped_lines(rule, width) if rule else 0
        full = width > paper.panel
        return Shown(
            block, title, rule, head, body, spans, width, full, title_lines, rule_lines, header_lines,
            row_lines, table,
        )  # fmt: skip

    found = []
    for width in (paper.panel, paper.columns_across):
        lines = SCREEN_ROW_LINES if screen and width == paper.panel else MAX_ROW_LINES
        fit = fit_columns(header, rows, width, lines) if header else ([width], 0, ())
        if fit is not None:
            found.append(laid(width, header, rows, fit))
    if screen and header and (not found or found[0].full_width):
        head, body = stacked(header, rows)
        return laid(paper.panel, head, body, stacked_columns(head, body, paper.panel))
    if not found:
        where = f"{table.file}:{table.line}: table {table.id!r}" if table else title
        raise ValueError(f"{where} is too wide for the cheat sheet")
    wide = found[-1].full_width and found[0].height > WIDE_RATIO * found[-1].height and not screen
    return found[-1] if wide else found[0]


def shown_columns(table: Table) -> list[Column]:
    """The value columns printed: those the table's ``cheatsheet: columns`` names, else the first
    ``VALUE_COLUMNS`` that hold a value in some row."""
    if table.cheatsheet_columns:
        return [next(c for c in table.columns if c.id == i) for i in table.cheatsheet_columns]
    return [c for c in table.columns if any(row[c.id] is not None for row in table.rows)][:VALUE_COLUMNS]


def show(table: Table, block: str, rules: RuleSet, paper: Paper) -> Shown:
    columns = shown_columns(table)
    title = readable(table.title, rules)
    rule = rule_text(table, rules) if table.cheatsheet_rule else ""
    if not table.cheatsheet_rows:
        return shown_table(block, title, rule, [], [], paper, table)
    titled = table.kind == "entries" and not rule  # the title heads the label column, saving a line
    label = title if titled else table.key_label if table.kind == "bands" else "Entry"
    header = [label] + [readable(c.label, rules) for c in columns]
    rows = [
        [band_label(row) if table.kind == "bands" else readable(row.label, rules)]
        + [shown_value(row[c.id], table, c, rules) for c in columns]
        for row in table.rows
    ]
    return shown_table(block, "" if titled else title, rule, header, rows, paper, table)


def d20_grid(rules: RuleSet) -> tuple[list[str], list[list[object]]] | None:
    """The natural d20 roll needed by attack bonus (rows) and armour class (columns), from the engine;
    None for a ruleset whose target is not an armour class."""
    block = rules.resolution_block
    if block is None or block.target != "armor_class":
        return None
    header = ["Attack bonus", *(f"AC {ac}" for ac in GRID_CLASSES)]
    rows: list[list[object]] = [
        [f"+{bonus}", *(max(1, resolution.need(rules, resolution.Attack(bonus, ac))) for ac in GRID_CLASSES)]
        for bonus in GRID_BONUSES
    ]
    return header, rows


def d20_grid_shown(rules: RuleSet, paper: Paper) -> Shown | None:
    grid = d20_grid(rules)
    if grid is None:
        return None
    die = int(resolution.get(rules, resolution.block(rules).die))
    title = f"d{die} roll needed to hit"
    return shown_table("attack", title, "", *grid, paper)


def cheatsheet_tables(rules: RuleSet, paper: Paper | None = None) -> list[Shown]:
    """Everything on the cheat sheet, block by block in the order of the round (within a block by
    ``order``, then in YAML order), each block under its heading."""
    paper = paper or paper_for("a4")
    chosen = [
        (CHEATSHEET_BLOCKS.index(block), table.cheatsheet_order, position, table, block)
        for position, table in enumerate(rules.tables.values())
        for block in [block_of(table)]
        if block is not None and (has_values(table) or table.cheatsheet_rule)
    ]
    chosen.sort(key=lambda item: item[:3])
    shown = [show(table, block, rules, paper) for *_, table, block in chosen]
    attack = [index for index, item in enumerate(shown) if item.block == "attack"]
    if not any(shown[index].rule for index in attack):  # the ruleset's own sentence says how
        at = attack[0] if attack else blocks_before(shown, "attack")
        shown.insert(at, shown_table("attack", "", rules.resolution, [], [], paper))
        attack = [at, *(index + 1 for index in attack)]
    grid = d20_grid_shown(rules, paper)
    if grid is not None:  # after the attack roll's rule
        shown.insert(attack[0] + 1, grid)
    headed: list[Shown] = []
    for index, item in enumerate(shown):
        if index == 0 or shown[index - 1].block != item.block:
            headed.append(block_heading(item.block, paper, item.full_width))
        if item.title == BLOCK_TITLES[item.block]:  # said by the block's heading
            item = dataclasses.replace(item, title="", title_lines=0)
        headed.append(item)
    return spaced(headed)


def spaced(shown: list[Shown]) -> list[Shown]:
    """Paper below a table when what follows opens with a line (a block's rule, a table's header);
    a title or a rule that follows starts below its own top padding and needs none. A table across
    the page keeps it: any panel's first table may follow it."""
    following = [*shown[1:], None]
    return [
        item
        if item.full_width or nxt is None or nxt.heading or not (nxt.title or nxt.rule)
        else dataclasses.replace(item, after=0)
        for item, nxt in zip(shown, following, strict=True)
    ]


def padded(shown: Shown) -> Shown:
    """``shown`` with the paper below a table that ``spaced`` may have taken away."""
    return dataclasses.replace(shown, after=AFTER_TABLE)


def blocks_before(shown: list[Shown], block: str) -> int:
    """Where a block's first table goes: after every table of the blocks before it."""
    rank = CHEATSHEET_BLOCKS.index(block)
    return next((i for i, item in enumerate(shown) if CHEATSHEET_BLOCKS.index(item.block) > rank), len(shown))


def block_heading(block: str, paper: Paper, across: bool) -> Shown:
    """A block's heading, as wide as a panel (its tables follow it down the panels), or ``across`` the
    page above a first table that is."""
    width = paper.columns_across if across else paper.panel
    return Shown(block, "", "", [], [], [width], width, across, 0, 0, 0, (), heading=BLOCK_TITLES[block])


# --------------------------------------------------------------------------- placing


def paper_for(paper: str, panels: int = PORTRAIT_PANELS, scale: int = 100, heading_rows: float = 0) -> Paper:
    """The page of that paper size: portrait with 2 panels, or landscape with 3 (the GM screen)."""
    width, height = PAGE_SIZES[paper]
    landscape = panels == SCREEN_PANELS
    if landscape:
        width, height = height, width
    across = int((width - 2 * 72 * MARGIN) * 100 / scale // POINTS_PER_GRID) - 1
    usable = (height - 72 * (TOP + BOTTOM)) * 100 / scale
    later = int(usable // UNIT) - SAFETY_ROWS
    first = int((usable - heading_rows - UNIT) // UNIT) - SAFETY_ROWS  # row 3: a gap below the introduction
    return Paper(panels, across, first, later, landscape)


def fill_columns(
    run: list[Shown], height: int, panels: int, cut: bool = True
) -> tuple[list[tuple[Shown, int, int]], int, Shown | None]:
    """Fill panels of that height down, in order: (table or part of one, panel, row) of what fits, how
    many tables of ``run`` fit whole, and the part of the next one left over (a table that does not fit
    the rest of a panel goes on in the next, cut between rows, when ``cut`` and ``split`` may cut it)."""
    spots: list[tuple[Shown, int, int]] = []
    queue = list(run)
    panel, used, whole = 0, 0, 0
    while queue and panel < panels:
        item = queue[0]
        if item.heading and len(queue) > 1 and not fits_below(queue[1], height - used - item.height, cut):
            panel, used = panel + 1, 0  # a heading stays with the first rows of its block's first table
            continue
        if used + item.height <= height:
            spots.append((item, panel, used))
            used += item.height
            queue.pop(0)
            whole += 1
            continue
        parts = split(item, height - used) if cut else None
        if parts is not None:
            spots.append((parts[0], panel, used))
            queue[0] = parts[1]
        panel, used = panel + 1, 0
    left = queue[0] if queue and queue[0] is not run[whole] else None  # a part of run[whole]
    return spots, whole, left


def fits_below(shown: Shown, room: int, cut: bool) -> bool:
    """Whether the table, or its first part when it may be cut, fits in ``room`` rows."""
    return shown.height <= room or (cut and split(shown, room) is not None)


def split(shown: Shown, room: int) -> tuple[Shown, Shown] | None:
    """A long table cut between two rows so that its first part fills ``room`` rows, the rest going on
    under its header again; None when fewer than ``MIN_SPLIT_ROWS`` rows would fit or stay."""
    above = shown.height - sum(shown.body_rows)
    fitting = 0
    while fitting < len(shown.rows) and above + sum(shown.body_rows[: fitting + 1]) <= room:
        fitting += 1
    least = least_rows(shown)
    fitting = min(fitting, len(shown.rows) - least)  # at least as many go on
    if fitting < least:
        return None
    first = dataclasses.replace(shown, rows=shown.rows[:fitting], row_lines=shown.row_lines[:fitting])
    rest = dataclasses.replace(
        shown,
        rows=shown.rows[fitting:],
        row_lines=shown.row_lines[fitting:],
        heading="",
        rule="",
        rule_lines=0,
        title=f"{shown.title} (continued)" if shown.title else "",
    )
    return first, rest


def least_part(shown: Shown) -> int:
    """Rows the first part of a table takes at the least: all of it, or its head and
    ``MIN_SPLIT_ROWS`` rows when it may go on over the next panel or page."""
    least = least_rows(shown)
    if len(shown.rows) < 2 * least:
        return shown.height
    return shown.height - sum(shown.body_rows[least:])


def least_rows(shown: Shown) -> int:
    """The fewest rows of a table on either side of a cut."""
    tall, rows = TALL_SPLIT
    return rows if shown.height >= tall else MIN_SPLIT_ROWS


def place(tables: list[Shown], paper: Paper) -> list[Placed]:
    """Newspaper order: each run of panel-wide tables reads down the first panel, then the next, its
    panels as even as the order allows; a table across the page starts below the run before it. A
    run that does not fit the rest of a page goes on over the next."""
    placed: list[Placed] = []
    page, top, index = 0, 0, 0
    while index < len(tables):
        room = paper.capacity(page) - top
        shown = tables[index]
        if shown.full_width:
            following = least_part(tables[index + 1]) if shown.heading and index + 1 < len(tables) else 0
            if shown.heading and shown.height + following > room and top > 0:  # never alone at a page's foot
                page, top = page + 1, 0
                continue
            if shown.height > room:
                parts = split(shown, room)
                if parts is not None:
                    tables = [*tables[:index], *parts, *tables[index + 1 :]]
                    continue
                if top == 0:
                    raise ValueError(f"{shown.title!r} is taller than a page")
                page, top = page + 1, 0
                continue
            placed.append(Placed(shown, page, paper.page_start(page) + top, 1))
            top, index = top + shown.height, index + 1
            continue
        end = next((i for i in range(index, len(tables)) if tables[i].full_width), len(tables))
        run = tables[index:end]
        spots, whole, left = fill_columns(run, room, paper.panels)
        if not spots:
            if top == 0:
                raise ValueError(f"{shown.title!r} is taller than a page")
            page, top = page + 1, 0
            continue
        if whole == len(run):  # the whole run fits: the shortest panels that still hold it
            cut = fill_columns(run, room, paper.panels, cut=False)[1] < len(run)  # cut only when it must
            height = next(
                h for h in range(1, room + 1) if fill_columns(run, h, paper.panels, cut)[1] == len(run)
            )
            spots, whole, left = fill_columns(run, height, paper.panels, cut)
        for item, panel, row in spots:
            column = 1 + panel * (paper.panel + GAP)
            placed.append(Placed(item, page, paper.page_start(page) + top + row, column))
        if whole == len(run):
            # a table across the page opens with a line: a panel's last table keeps its paper below,
            # even where ``spaced`` gave it to a text that went on to the next panel
            below = end < len(tables)
            top += max(row + (padded(item) if below else item).height for item, _, row in spots)
            index += whole
        else:
            index += whole
            if left is not None:
                tables = [*tables[:index], left, *tables[index + 1 :]]
            page, top = page + 1, 0
    return placed


# --------------------------------------------------------------------------- writing


def write_cell(
    sheet: Worksheet, row: int, column: int, size: tuple[int, int], value: object, header: bool
) -> None:
    """One value in a block of (rows, grid columns) merged into one cell, with the grid drawn round it."""
    height, width = size
    cell = put(sheet.cell(row, column), value)
    if header:
        style_header(cell)
    cell.font = font(BODY_SIZE, bold=header)
    horizontal = "left" if isinstance(value, str) else "center"
    cell.alignment = Alignment(horizontal=horizontal, vertical="top", wrap_text=True)
    for row_offset in range(height):
        for column_offset in range(width):
            sheet.cell(row + row_offset, column + column_offset).border = GRID
    if height > 1 or width > 1:
        sheet.merge_cells(
            start_row=row, start_column=column, end_row=row + height - 1, end_column=column + width - 1
        )


def write_text(
    sheet: Worksheet,
    row: int,
    column: int,
    size: tuple[int, int],
    text: str,
    style: tuple[float, bool, str],
    vertical: str = "top",
) -> None:
    height, width = size
    points, bold, colour = style
    cell = put(sheet.cell(row, column), text)
    cell.font = font(points, bold=bold, colour=colour)
    cell.alignment = Alignment(vertical=vertical, wrap_text=True)
    sheet.merge_cells(
        start_row=row, start_column=column, end_row=row + height - 1, end_column=column + width - 1
    )


def write_table(sheet: Worksheet, placed: Placed) -> None:
    shown, row, column = placed.shown, placed.row, placed.first_column
    if shown.heading:  # centred below its rule: room above it and below
        style = (BLOCK_SIZE, True, ACCENT)
        write_text(sheet, row, column, (HEADING_ROWS, shown.width), shown.heading, style, "center")
        for offset in range(shown.width):
            sheet.cell(row, column + offset).border = HEADING_RULE
        return
    if shown.title:
        style = (TITLE_SIZE, True, ACCENT)  # centred: nearer its table than what is above it
        write_text(sheet, row, column, (shown.title_rows, shown.width), shown.title, style, "center")
        row += shown.title_rows
    if shown.rule:
        write_text(
            sheet, row, column, (shown.rule_rows, shown.width), shown.rule, (BODY_SIZE, False, "000000")
        )
        row += shown.rule_rows
    if not shown.header:
        return
    lines = [(shown.header, shown.header_rows, True)] + [
        (values, height, False) for values, height in zip(shown.rows, shown.body_rows, strict=True)
    ]
    for values, height, header in lines:
        left = column
        for value, width in zip(values, shown.spans, strict=True):
            write_cell(sheet, row, left, (height, width), value, header)
            left += width
        row += height


def heading(
    rules: RuleSet, columns_across: int, screen: bool = False
) -> tuple[tuple[str, float, float], ...]:
    """The sheet's title and introduction as (text, font size, row height) for rows 1 and 2."""
    what = "GM screen" if screen else "combat cheat sheet"
    title = f"{rules.name}: {what}"
    intro = f"Source: {rules.source}. Every table in full: the reference PDF and the workbook."
    return tuple(
        (text, size, printed_height(wrapped_lines(text, columns_across, size, bold) * size * 1.25))
        for text, size, bold in ((title, HEADING_FONT, True), (intro, BODY_SIZE, False))
    )


def printed_height(points: float) -> float:
    """A row's height the office prints as it is: whole pixels, rounded up."""
    return math.ceil(points / PIXEL - 1e-9) * PIXEL


@dataclass(frozen=True)
class Layout:
    """The cheat sheet laid out at one print scale."""

    scale: int  # percent
    paper: Paper
    heading: tuple[tuple[str, float, float], ...]
    placed: list[Placed]

    @property
    def pages(self) -> int:
        return 1 + max(item.page for item in self.placed)


def layout(rules: RuleSet, paper: str, panels: int = PORTRAIT_PANELS) -> Layout:
    """At the largest of ``SCALES`` that fits one page (a table too wide for it tries the next), else
    at 100% on as many pages as it takes. The GM screen is printed at 100%."""
    scales = SCALES if panels == PORTRAIT_PANELS else (100,)
    for scale in scales:
        across = paper_for(paper, panels, scale).columns_across
        lines = heading(rules, across, panels == SCREEN_PANELS)
        page = paper_for(paper, panels, scale, sum(height for _, _, height in lines))
        try:
            placed = place(cheatsheet_tables(rules, page), page)
        except ValueError:
            if scale == scales[-1]:
                raise
            continue
        if scale == scales[-1] or max(item.page for item in placed) == 0:
            return Layout(scale, page, lines, placed)
    raise AssertionError("SCALES ends with 100")


def build_cheatsheet(rules: RuleSet, version: str, paper: str = "a4", screen: bool = False) -> Workbook:
    """The cheat sheet (portrait, 2 panels) or the GM screen (landscape, 3 panels) as a workbook to print."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = SCREEN_TITLE if screen else SHEET_TITLE
    laid = layout(rules, paper, SCREEN_PANELS if screen else PORTRAIT_PANELS)
    across = laid.paper.columns_across
    (title, title_size, title_height), (intro, intro_size, intro_height) = laid.heading
    put(sheet["A1"], title).font = font(title_size, bold=True, colour=ACCENT)
    put(sheet["A2"], intro).font = font(intro_size, italic=True, colour=MUTED)
    for row in (1, 2):
        sheet[f"A{row}"].alignment = Alignment(wrap_text=True, vertical="top")
        sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=across)
    for item in laid.placed:
        write_table(sheet, item)
    last_row = max(item.row + item.shown.height - 1 for item in laid.placed)
    for row_number in range(3, last_row + 1):
        sheet.row_dimensions[row_number].height = UNIT
    sheet.row_dimensions[1].height, sheet.row_dimensions[2].height = title_height, intro_height
    for column in range(1, across + 1):
        sheet.column_dimensions[get_column_letter(column)].width = GRID_WIDTH
    for page in range(1, laid.pages):
        sheet.row_breaks.append(Break(id=laid.paper.page_start(page) - 1))
    set_up_printing(sheet, rules.name, version, paper)
    for part in (sheet.oddHeader.left, sheet.oddHeader.right, sheet.oddFooter.left, sheet.oddFooter.right):
        part.size = HEADER_FOOTER_SIZE
    sheet.print_area = f"A1:{get_column_letter(across)}{last_row}"
    sheet.page_setup.orientation = "landscape" if screen else "portrait"
    sheet.page_setup.fitToWidth = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = False
    sheet.page_setup.scale = laid.scale
    sheet.print_options.horizontalCentered = False
    sheet.page_margins.left = sheet.page_margins.right = MARGIN
    sheet.page_margins.top, sheet.page_margins.bottom = TOP, BOTTOM
    sheet.page_margins.header = sheet.page_margins.footer = HEADER_MARGIN
    return book
