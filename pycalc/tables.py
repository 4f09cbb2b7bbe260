"""Load a ruleset: ``tables/<ruleset>/ruleset.yaml`` (with its ``resolution:`` block) and the table
files beside it, checked together, with the GM's house rules applied.

Every problem is reported as ``tables/<id>/<file>.yaml:LINE: what is wrong``. The table files are
read by ``pycalc.table_files``, whose names are available here too. See ``tables/README.md``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from pycalc.block_parser import Uses
from pycalc.encounter_block import EncounterRules, parse_encounter
from pycalc.house import apply_house_rules
from pycalc.resolution_block import Resolution
from pycalc.resolution_parse import parse_block
from pycalc.resolution_refs import check_references
from pycalc.table_files import (
    OUTCOME_TABLE,
    PICKERS,
    PROJECT_ROOT,
    RULESET_IDS,
    Column,
    LocatedDict,
    LocatedList,
    Row,
    RuleSet,
    Ruling,
    Table,
    TableError,
    TableProblem,
    _Checker,
    _cross_checks,
    display_path,
    parse_tables_file,
    read_yaml,
    tables_dir,
    yaml_files,
)

__all__ = [
    "OUTCOME_TABLE",
    "PICKERS",
    "PROJECT_ROOT",
    "RULESET_IDS",
    "Column",
    "LocatedDict",
    "LocatedList",
    "Row",
    "RuleSet",
    "Ruling",
    "Table",
    "TableError",
    "TableProblem",
    "available_rulesets",
    "load_folder",
    "load_ruleset",
    "parse_tables_file",
    "tables_dir",
    "yaml_files",
]


Header = tuple[dict[str, str], Resolution | None, EncounterRules | None, list[Uses], list[TableProblem]]


def _ruleset_header(path: Path) -> Header:
    check = _Checker(display_path(path))
    top = check.mapping(read_yaml(path), 1, "ruleset.yaml")
    if top is None:
        return {}, None, None, [], check.problems
    check.keys(top, {"ruleset", "resolution", "encounter"}, {"ruleset"}, "ruleset.yaml")
    body = check.mapping(top.get("ruleset"), top.value_lines.get("ruleset", 1), "ruleset") or LocatedDict()
    fields = {"id", "name", "seed", "resolution"}
    check.keys(body, fields | {"source"}, fields, "ruleset")
    fields |= {"source"} & set(body)
    header = {key: check.text(body, key, "ruleset") for key in fields if key in body}
    if header.get("id") != path.parent.name:
        check.fail(
            body.value_lines.get("id", 1),
            f"ruleset id {header.get('id')!r} must be the folder name {path.parent.name!r}",
        )
    block, fight, uses = None, None, []
    if "resolution" in top:
        block, found = parse_block(check, top["resolution"], top.value_lines["resolution"])
        uses.append(found)
    if "encounter" in top:
        fight, found = parse_encounter(check, top["encounter"], top.value_lines["encounter"])
        uses.append(found)
    return header, block, fight, uses, check.problems


def load_folder(folder: Path) -> RuleSet:
    """Load one ruleset folder; raise TableError listing every problem found."""
    header_path = folder / "ruleset.yaml"
    if not header_path.exists():
        raise TableError(
            [TableProblem(display_path(header_path), 1, "missing: every ruleset folder needs a ruleset.yaml")]
        )
    problems: list[TableProblem] = []
    header, block, fight, uses, header_problems = _ruleset_header(header_path)
    problems += header_problems
    tables: dict[str, Table] = {}
    rulings: dict[str, Ruling] = {}
    for path in yaml_files(folder):
        try:
            file_tables, file_rulings, file_problems = parse_tables_file(path)
        except TableError as exc:
            problems += exc.problems
            continue
        problems += file_problems
        for into, found, what in ((tables, file_tables, "table"), (rulings, file_rulings, "ruling")):
            for item_id, item in found.items():
                if item_id in into:
                    problems.append(
                        TableProblem(
                            item.file,
                            item.line,
                            f"duplicate {what} id {item_id!r} (also in {into[item_id].file}:{into[item_id].line})",
                        )
                    )
                into[item_id] = item
    problems += _cross_checks(tables)
    for found in uses:
        problems += check_references(display_path(header_path), found, tables, rulings)
    if problems:
        raise TableError(problems)
    return RuleSet(
        id=header["id"],
        name=header["name"],
        seed=header["seed"],
        source=header.get("source", header["name"]),
        resolution=header["resolution"],
        tables=tables,
        rulings=rulings,
        resolution_block=block,
        encounter_block=fight,
    )


@cache
def load_ruleset(ruleset_id: str) -> RuleSet:
    """The ruleset in ``tables/<id>/`` with the house rules named by ``PYCALC_HOUSE`` (files or
    folders separated by the path separator) applied. Cached: the engine calls this per cell."""
    rules = load_folder(tables_dir() / ruleset_id)
    house = [Path(p) for p in os.environ.get("PYCALC_HOUSE", "").split(os.pathsep) if p]
    return apply_house_rules(rules, house) if house else rules


def available_rulesets() -> Iterator[str]:
    """Ruleset ids that have a folder under tables/, in the fixed project order."""
    folder = tables_dir()
    for ruleset_id in RULESET_IDS:
        if (folder / ruleset_id / "ruleset.yaml").exists():
            yield ruleset_id
