"""A note that changes with the rulings in force: the text worked out under every choice of each ruling
that changes it, picked by formula from the ruling's choice on the Rulings sheet, so a note beside a pick
says what the workings apply whatever the GM picks there."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from pycalc.sheets.common import ruling_name, table_name
from pycalc.sheets.formulas import q
from pycalc.table_files import Row
from pycalc.tables import RuleSet


def under(rules: RuleSet, ruling_id: str, choice: str) -> RuleSet:
    """The rules with one ruling's choice in force."""
    return dataclasses.replace(rules, chosen={**rules.chosen, ruling_id: choice})


def by_ruling(rules: RuleSet, text_of: Callable[[RuleSet], str]) -> str | None:
    """``text_of`` as a formula that follows the rulings in force, or None when no ruling changes it."""
    formula = ruling_formula(rules, lambda r: q(text_of(r)))
    return None if formula == q(text_of(rules)) else formula


def ruling_formula(
    rules: RuleSet, formula_of: Callable[[RuleSet], str], fixed: frozenset[str] = frozenset()
) -> str:
    """``formula_of`` (a formula expression worked out from the rules) as one formula: itself when no
    ruling changes it, else an IF over the choices of the first ruling that does (each branch worked
    out the same way for the other rulings)."""
    for ruling_id, ruling in rules.rulings.items():
        if ruling_id in fixed:
            continue
        formulas = {choice: formula_of(under(rules, ruling_id, choice)) for choice in ruling.choices}
        if len(set(formulas.values())) > 1:
            *firsts, last = ruling.choices
            formula = ruling_formula(under(rules, ruling_id, last), formula_of, fixed | {ruling_id})
            for choice in reversed(firsts):
                branch = ruling_formula(under(rules, ruling_id, choice), formula_of, fixed | {ruling_id})
                if branch != formula:  # choices that read alike share the last branch
                    formula = f'IF({ruling_name(ruling_id)}="{choice}",{branch},{formula})'
            return formula
    return formula_of(rules)


def ruled_choice_note(
    rules: RuleSet,
    table_id: str,
    pick: str,
    help_of: Callable[[RuleSet, Row], str],
    beyond_numbers: bool = False,
) -> str | None:
    """The note beside a choice pick where a ruling changes what its rows do, or where they do more than
    their numeric columns say (``beyond_numbers``: a Dex that offsets a penalty, a flag, other dice):
    ``help_of`` the row picked under the ruling in force. None otherwise: the note then reads the
    table's numeric cells (``pick_notes``), so it follows an edit of the tables sheet too."""
    note = choice_note(table_id, pick, help_of)
    formula = ruling_formula(rules, note)
    return None if formula == note(rules) and not beyond_numbers else formula


def choice_note(table_id: str, pick: str, help_of: Callable[[RuleSet, Row], str]) -> Callable[[RuleSet], str]:
    """The note beside a choice pick, under given rules: ``help_of`` the row picked."""

    def formula(rules: RuleSet) -> str:
        texts = ",".join(q(help_of(rules, row)) for row in rules.table(table_id).rows)
        return f'IFERROR(CHOOSE(MATCH({pick},{table_name(table_id, "label")},0),{texts}),"")'

    return formula


def toggle_note(rules: RuleSet, text_of: Callable[[RuleSet], str]) -> str:
    """The note beside a toggle: ``text_of`` under the rulings in force (a text when no ruling changes it)."""
    return by_ruling(rules, text_of) or q(text_of(rules))


def ruling_words(rules: RuleSet, ruling_id: str, lead: str = "") -> str:
    """A help formula that says what the ruling in force does, in its own words on the Rulings sheet
    (after ``lead``), for a note beside an input whose effect a ruling decides."""

    def words(rules: RuleSet) -> str:
        return f"{lead}{rules.rulings[ruling_id].choices[rules.ruling(ruling_id)]}"

    return by_ruling(rules, words) or q(words(rules))
