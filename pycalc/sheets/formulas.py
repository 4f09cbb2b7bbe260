"""Small builders of spreadsheet formula text over the named table columns.

Only functions that exist in Excel 2007 and LibreOffice 7.4 are used (INDEX, MATCH, IF, IFERROR,
COUNTIF, SUMPRODUCT, INT, ROUNDUP, MAX, N...). Numbers are never typed in: they are looked up.
"""

from __future__ import annotations

from pycalc.errors import list_message
from pycalc.odds import ALREADY_DOWN
from pycalc.sheets.common import table_name
from pycalc.tables import RuleSet


def q(text: str) -> str:
    """A text literal for a formula."""
    return '"' + text.replace('"', '""') + '"'


DICE_ERROR = q("#DICE? write it like 2d4+2")  # what the calculators say of dice they cannot read


def list_mistake(rules: RuleSet, name: str, table: str) -> str:
    """The text a picker shows for a word that is not among ``table``'s labels, as the engine says it."""
    return q(list_message(name, (row.label for row in rules.table(table).rows)))


def by_label(table: str, column: str, label_expr: str) -> str:
    """The value in ``column`` of the entry whose label is ``label_expr``."""
    return f"INDEX({table_name(table, column)},MATCH({label_expr},{table_name(table, 'label')},0))"


def const(table: str, entry_id: str, column: str = "value") -> str:
    """The value in ``column`` of the entry with id ``entry_id``."""
    return f'INDEX({table_name(table, column)},MATCH("{entry_id}",{table_name(table, "id")},0))'


def band(table: str, column: str, key_expr: str) -> str:
    """The value in ``column`` of the band containing ``key_expr`` (#N/A below the first band)."""
    return f"INDEX({table_name(table, column)},MATCH({key_expr},{table_name(table, 'from')},1))"


def last(table: str, column: str) -> str:
    name = table_name(table, column)
    return f"INDEX({name},ROWS({name}))"


def round_down(expr: str) -> str:
    """Towards minus infinity, as Python's math.floor."""
    return f"INT({expr})"


def round_up(expr: str) -> str:
    """Towards plus infinity, as Python's math.ceil."""
    return f"-INT(-({expr}))"


def plus(*terms: str) -> str:
    return "+".join(t for t in terms if t) or "0"


def _dice_after_d(expr: str) -> str:
    return f'MID({expr},FIND("d",LOWER({expr}))+1,LEN({expr}))'


def _dice_sign_at(expr: str) -> str:
    rest = _dice_after_d(expr)
    return f'IFERROR(FIND("+",{rest}),IFERROR(FIND("-",{rest}),0))'


def dice_count(expr: str) -> str:
    """Number of dice in a cell holding text like ``2d4+2`` (``d8`` counts one die)."""
    return f'IFERROR(VALUE(LEFT({expr},FIND("d",LOWER({expr}))-1)),1)'


def dice_sides(expr: str) -> str:
    rest, sign = _dice_after_d(expr), _dice_sign_at(expr)
    return f"IF({sign}=0,VALUE({rest}),VALUE(LEFT({rest},{sign}-1)))"


def dice_modifier(expr: str) -> str:
    rest, sign = _dice_after_d(expr), _dice_sign_at(expr)
    return f"IF({sign}=0,0,VALUE(MID({rest},{sign},LEN({rest}))))"


def round_kill_formula(attacks: str, one_attack: str, hp: str, several: str) -> str:
    """``pycalc.odds.round_kill`` over the calculator's cells, shown as ``unless_down``."""
    chance = f"IF(SUM({attacks})=1,{one_attack},IF(SUM({attacks})=0,0,{q(several)}))"
    return unless_down(hp, chance)


def unless_down(hp: str, chance: str) -> str:
    """A chance to drop the target as shown (``pycalc.odds.down_already``): against a target at 0 hit
    points or below, that it is down already."""
    return f"IF(SUM({hp})<=0,{q(ALREADY_DOWN)},{chance})"


def optional_input(ref: str) -> str:
    """An input cell handed to a Python function (the .xlsm) for an optional argument (one that
    defaults to None: a roll not yet made, a mode not chosen): an empty cell passed as "", which every
    function reads as not given. Excel with xlwings hands an empty cell as None already; LibreOffice
    hands it to an add-in as 0 (a roll of 0, a bad pick), so it cannot go as a bare reference."""
    return f'IF(ISBLANK({ref}),"",{ref})'
