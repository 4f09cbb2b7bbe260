"""What a GM reads is written for a GM (issue 11): no YAML id, file name, seed file or defined name in any
label, note, help, comment, dropdown message, header or footer of a visible sheet, nor in what a table
cell shows (an id the formulas read shows as words through its number format). Hidden columns are not
text to read."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from pycalc.sheets.gm_text import readable, shown_text
from pycalc.tables import RULESET_IDS, load_ruleset

FORBIDDEN = re.compile(
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case ids
    r"|\.yaml\b|shared/seeds|\b\d{3}_[0-9a-f]{16}\.txt\b"  # file names
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"  # defined names such as STRIKE_ROLL
)


def texts_a_gm_reads(book: openpyxl.Workbook) -> list[tuple[str, str]]:
    found = []
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        hidden = {letter for letter, dimension in sheet.column_dimensions.items() if dimension.hidden}
        for row in sheet.iter_rows():
            for cell in row:
                where = f"{sheet.title}!{cell.coordinate}"
                if cell.comment is not None:
                    found.append((where + " comment", cell.comment.text))
                value = shown_text(cell)
                if (
                    value is not None
                    and not value.startswith("=")
                    and get_column_letter(cell.column) not in hidden
                ):
                    found.append((where, value))
        for check in sheet.data_validations.dataValidation:
            found += [(f"{sheet.title} validation", text or "") for text in (check.prompt, check.error)]
        for part in (
            sheet.oddHeader.left,
            sheet.oddHeader.right,
            sheet.oddFooter.left,
            sheet.oddFooter.right,
        ):
            found.append((f"{sheet.title} header/footer", part.text or ""))
    return found


@pytest.mark.parametrize("ruleset_id", [*RULESET_IDS, "bx"])
def test_no_id_file_name_or_defined_name_reaches_the_gm(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    for suffix in ("xlsx", "xlsm"):
        book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}")
        offending = [
            f"{where}: {match.group(0)!r} in {text[:80]!r}"
            for where, text in texts_a_gm_reads(book)
            for match in [FORBIDDEN.search(text)]
            if match
        ]
        assert not offending, offending[:15]


def test_ids_are_rewritten_as_the_names_a_gm_sees():
    rules = load_ruleset("combat17")
    assert readable("Damage (ruling stumble_penalty_scope)", rules) == (
        f"Damage (ruling “{rules.rulings['stumble_penalty_scope'].label}”)"
    )
    assert readable("see maneuvers.yaml", rules) == "see the Maneuvers tables sheet"
    assert readable("as in target_conditions", rules) == f"as in “{rules.table('target_conditions').title}”"
    assert readable("choice not_combined", rules) == "choice not combined"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_contents_line_says_what_the_sheet_is_for(
    ruleset_id: str, build_ruleset: Callable[[str], Path]
):
    book = openpyxl.load_workbook(build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx")
    contents = book["Contents"]
    listed = {
        row[0].value: row[1].value for row in contents.iter_rows(min_row=7, max_col=2) if row[0].hyperlink
    }
    visible = {s.title for s in book.worksheets if s.sheet_state == "visible"} - {"Contents"}
    assert set(listed) == visible
    purposes = (
        "Resolve one attack",
        "Calculators: ",
        "Tables: ",
        "Printable odds",
        "Where the seed is ambiguous",
    )
    for title, purpose in listed.items():
        assert str(purpose).startswith(purposes), (title, purpose)
    rules = load_ruleset(ruleset_id)
    tables = " ".join(str(p) for p in listed.values())
    for table in rules.tables.values():
        assert readable(table.title, rules) in tables, table.title
