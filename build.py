#!/usr/bin/env python3
"""Build the GM workbooks: tables/<ruleset>/*.yaml -> workbook/<ruleset>.xlsx and .xlsm.

With no arguments every ruleset under tables/ is built. A problem in the YAML (or in a house-rule
file) stops the build with ``file:line: what is wrong`` and nothing is written: the previous
workbooks stay untouched. Rebuilding over a workbook keeps what the GM typed into it (the old file
is kept as <id>.bak.xlsx); ``--fresh`` starts from the defaults.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import gc
import hashlib
import importlib.metadata
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.pool import AsyncResult
from pathlib import Path

from openpyxl.workbook.workbook import Workbook

from pycalc.house import apply_house_rules, house_files
from pycalc.libreoffice import LibreOfficeError, convert, find_soffice
from pycalc.lite import ALL as ALL_BUNDLE
from pycalc.lite import bundle_files
from pycalc.oxt import oxt_files
from pycalc.sheets import cached_values
from pycalc.sheets.cheatsheet import build_cheatsheet
from pycalc.sheets.keep import BookInputs, Carried, book_inputs, carry_inputs
from pycalc.sheets.printing import PAPER_SIZES
from pycalc.sheets.workbook import (
    Parts,
    SavedSheet,
    build_both,
    build_workbook,
    check_buildable,
    gc_paused,
    parts_of,
    quickstart_path,
    release,
    tables_version,
    to_macro,
    workbook_bytes,
    workbook_parts,
    write_atomically,
    zipped,
)
from pycalc.table_files import RULESET_IDS, TableProblem
from pycalc.tables import (
    PROJECT_ROOT,
    RuleSet,
    TableError,
    available_rulesets,
    load_folder,
    tables_dir,
    yaml_files,
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="build.py",
        description="Compile the YAML rule tables into spreadsheet workbooks (.xlsx native, .xlsm xlwings).",
    )
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="ID",
        help="build only this ruleset (repeatable); default: every folder under tables/",
    )
    parser.add_argument(
        "--house",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="a house-rule YAML file or folder to apply (repeatable; see tables/README.md)",
    )
    parser.add_argument(
        "--out", type=Path, default=PROJECT_ROOT / "workbook", help="output folder (default: workbook/)"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="do not carry the inputs of the existing workbooks"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when a workbook in the output folder is stale",
    )
    parser.add_argument(
        "--pdf",
        action="store_true",
        help="also write <id>-cheatsheet.pdf/.png and <id>-reference.pdf (needs LibreOffice headless)",
    )
    parser.add_argument(
        "--screen",
        action="store_true",
        help="write only <id>-screen.pdf, the GM screen: the cheat sheet's blocks on landscape pages of"
        " 3 panels to fold or stand up (--pdf writes it too; needs LibreOffice headless)",
    )
    parser.add_argument(
        "--paper", choices=sorted(PAPER_SIZES), default="a4", help="paper size for printing (default a4)"
    )
    parser.add_argument(
        "--watch", action="store_true", help="rebuild whenever a table or house-rule file is saved"
    )
    parser.add_argument(
        "--tables",
        type=Path,
        metavar="DIR",
        help="read the rulesets from DIR (one folder of YAML per ruleset, e.g. your own) instead of tables/",
    )
    parser.add_argument(
        "--lite",
        action="store_true",
        help="write only the xlwings Lite bundles lite/<id>/main.py (and lite/all/ when every ruleset is"
        " built), each with its requirements.txt; every build writes them too",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="build every ruleset, even those whose workbooks were built from these very tables and code",
    )
    parser.add_argument("--quiet", action="store_true", help="print only problems")
    return parser.parse_args(argv)


def ruleset_folders(folder: Path) -> list[str]:
    """Every sub-folder of ``folder`` holding a ruleset.yaml, the shipped ones in their fixed order first."""
    found = sorted(p.parent.name for p in folder.glob("*/ruleset.yaml"))
    return [r for r in RULESET_IDS if r in found] + [r for r in found if r not in RULESET_IDS]


def say(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, flush=True)


def shown(path: Path) -> str:
    return str(path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path)


def load_all(
    ruleset_ids: list[str],
    house: list[Path],
    start: Callable[[RuleSet], None] = lambda rules: None,
    starting: list[str] | None = None,
) -> list[RuleSet]:
    """Every requested ruleset with its house rules (in the order of ``ruleset_ids``), or TableError
    listing every problem found. The rulesets of ``starting`` are read first, in its order, each
    handed to ``start`` as soon as it is read, while no problem is found."""
    starting = starting or []
    problems: dict[str, list[TableProblem]] = {}
    loaded: dict[str, RuleSet] = {}
    for ruleset_id in [*starting, *(r for r in ruleset_ids if r not in starting)]:
        try:
            rules = apply_house_rules(load_folder(tables_dir() / ruleset_id), house)
            check_buildable(rules)
            loaded[ruleset_id] = rules
        except TableError as error:
            problems[ruleset_id] = error.problems
            continue
        if ruleset_id in starting and not problems:
            start(rules)
    if problems:
        raise TableError([problem for r in ruleset_ids for problem in problems.get(r, [])])
    return [loaded[r] for r in ruleset_ids]


@dataclasses.dataclass(frozen=True)
class Built:
    """What one build job made: workbook files of one ruleset, with their cached values when known."""

    files: dict[Path, bytes | Parts]  # parts: an .xlsm built apart, waiting for its .xlsx's values
    values: cached_values.BookValues | None  # of the .xlsx this job built, when known
    unvalued: dict[str, bytes]  # the .xlsx by name, when LibreOffice must work out its values
    kept: list[str]  # what was kept from the files they replace


def workbook_parts_kept(rules: RuleSet, path: Path, args: argparse.Namespace) -> tuple[Parts, str]:
    """The file's parts, built on its own, and what was kept from the workbook it replaces ("" for
    nothing); made with the garbage collector paused (``gc_paused``)."""
    with gc_paused():
        book = build_workbook(rules, macro=path.suffix == ".xlsm", paper=args.paper)
        kept = kept_inputs(book, path, args)
        parts = workbook_parts(book)
        release(book)
        return parts, kept.said


def both_parts_kept(
    rules: RuleSet, paths: list[Path], args: argparse.Namespace
) -> dict[Path, tuple[Parts, str]]:
    """The ruleset's .xlsx and .xlsm (``paths``), saved from one book (``build_both``), each with
    what was kept from the workbook it replaces; made with the garbage collector paused."""
    xlsx, xlsm = paths
    with gc_paused():
        book = build_both(rules, args.paper)
        inputs = None if args.fresh else book_inputs(book)  # the same for both files
        kept = kept_inputs(book, xlsx, args, inputs)
        sheets: dict[str, SavedSheet] = {}  # each sheet as the .xlsm stores it
        made = {xlsx: (workbook_parts(book, kept=sheets), kept.said)}
        kept.carried.undo(book)  # the .xlsm keeps its own
        to_macro(book)
        macro_kept = kept_inputs(book, xlsm, args, inputs)
        changed = kept.carried.changed_sheets() | macro_kept.carried.changed_sheets()
        unchanged = {title: sheet for title, sheet in sheets.items() if title not in changed}
        made[xlsm] = (workbook_parts(book, given=unchanged), macro_kept.said)
        release(book)
        return made


@dataclasses.dataclass(frozen=True)
class Kept:
    """The GM's inputs carried into a book from the file it replaces, and what to tell the GM."""

    carried: Carried
    said: str  # what was kept, for the GM ("" for nothing)


def kept_inputs(
    book: Workbook, path: Path, args: argparse.Namespace, inputs: BookInputs | None = None
) -> Kept:
    """The GM's inputs of the workbook at ``path`` carried into ``book`` (none with ``--fresh``)."""
    if not path.exists() or args.fresh:
        return Kept(Carried([], [], []), "")
    carried = carry_inputs(path, book, inputs)
    said = carried.said
    if not said or args.check:
        return Kept(carried, "")
    return Kept(carried, f"kept in {path.name}: " + "; ".join(said[:6]) + (" ..." if len(said) > 6 else ""))


def build_files(rules: RuleSet, paths: list[Path], args: argparse.Namespace) -> Built:
    """The ruleset's files at ``paths`` (both, or one of them). Cached values come from the previous
    build when the .xlsx's formulas and inputs are unchanged (see pycalc.sheets.cached_values);
    otherwise the .xlsx is handed back to be recalculated in LibreOffice. An .xlsm built without its
    .xlsx is handed back as parts, to take the values the .xlsx's job finds."""
    if len(paths) == 2:
        built = both_parts_kept(rules, paths, args)
    else:
        built = {path: workbook_parts_kept(rules, path, args) for path in paths}
    kept = [said for _, said in built.values() if said]
    xlsx = args.out / f"{rules.id}.xlsx"
    if xlsx not in built:
        return Built({path: parts for path, (parts, _) in built.items()}, None, {}, kept)
    values = cached_values.known_values(built[xlsx][0], xlsx.read_bytes() if xlsx.exists() else None)
    write = valued(values)
    files: dict[Path, bytes | Parts] = {
        path: file_bytes(write(parts), path) for path, (parts, _) in built.items()
    }
    return Built(files, values, {rules.id: files[xlsx]} if values is None else {}, kept)  # type: ignore[dict-item]


def valued(values: cached_values.BookValues | None) -> Callable[[Parts], Parts]:
    """A file's parts -> the same with these cached values written in (none when unknown)."""
    return (lambda parts: parts) if values is None else cached_values.value_writer(values)


def file_bytes(parts: Parts, path: Path) -> bytes:
    """The file of these parts: the one at ``path`` as it is when it holds exactly them (a workbook
    built again unchanged is left as it was), else the parts zipped."""
    try:
        old = path.read_bytes()
        if list(parts_of(old).items()) == list(parts.items()):
            return old
    except Exception:  # a file that cannot be read, however it fails, does not hold these parts
        pass
    return zipped(parts)


Job = tuple[RuleSet, list[Path], argparse.Namespace]


def cores() -> int:
    """Processes to build with: one per core, forked from this one, only while this process runs a
    single thread (forking beside other threads is unsafe) and where fork exists."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    forkable = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    return count if forkable else 1


def previous_size(paths: list[Path]) -> int:
    """Bytes of the files a job replaces: how long it will take, as far as is known beforehand."""
    return sum(p.stat().st_size for p in paths if p.exists())


class Builds:
    """The rulesets' build jobs on every core, in processes forked before any table is read: each
    ruleset is handed over as soon as it is read (``start``), the largest previous workbooks first.
    A job builds a ruleset's two files from one book (``both_parts_kept``); with fewer rulesets than
    cores (one, in watch mode), each file is a job of its own, built on its own, so the two end on two
    cores. The bytes do not depend on which process built a file."""

    def __init__(self, ruleset_ids: list[str], args: argparse.Namespace):
        self.args = args
        count = cores()
        self.halved = count > 1 and len(ruleset_ids) < count
        jobs = len(ruleset_ids) * (2 if self.halved else 1)
        # one process more than cores: the rulesets do not share out evenly among the cores (five on
        # two), and this process is busy too while they start (the Lite bundles); the system shares
        # the cores among them all, so no core is left idle while another builds the last ruleset
        processes = min(count + 1, jobs)
        context = multiprocessing.get_context("fork")
        # no garbage collection in the builders: each walks every object alive, some million while a
        # book is built, for the few cycles a build leaves behind, freed when the process ends
        self.pool = context.Pool(processes, initializer=gc.disable) if count > 1 < jobs else None
        self.jobs: dict[str, list[Job]] = {}
        self.pending: dict[str, list[AsyncResult]] = {}

    def order(self, ruleset_ids: list[str]) -> list[str]:
        """The order to start the rulesets in: the largest previous workbooks first."""
        return sorted(ruleset_ids, key=lambda r: -previous_size(self.paths(r)))

    def paths(self, ruleset_id: str) -> list[Path]:
        return [self.args.out / f"{ruleset_id}.xlsx", self.args.out / f"{ruleset_id}.xlsm"]

    def start(self, rules: RuleSet) -> None:
        paths = self.paths(rules.id)
        jobs = [(rules, [path], self.args) for path in paths] if self.halved else [(rules, paths, self.args)]
        self.jobs[rules.id] = jobs
        if self.pool is not None:
            self.pending[rules.id] = [self.pool.apply_async(build_files, job) for job in jobs]

    def cancel(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def wait(self, ruleset_ids: list[str]) -> list[Built]:
        """The jobs' results, in the order of ``ruleset_ids`` (the .xlsx first); built here, in this
        process, with no other to build in."""
        try:
            if self.pool is None:
                return [build_files(*job) for r in ruleset_ids for job in self.jobs[r]]
            return [result.get() for r in ruleset_ids for result in self.pending[r]]
        finally:
            if self.pool is not None:
                self.pool.close()
                self.pool.join()


def built_files(built: list[Built], args: argparse.Namespace) -> tuple[dict[Path, bytes], dict[str, bytes]]:
    """(every file, with the values known; the .xlsx files whose values LibreOffice must work out);
    kept inputs are reported in order."""
    files: dict[Path, bytes] = {}
    unvalued: dict[str, bytes] = {}
    values: dict[Path, cached_values.BookValues | None] = {}
    for one in built:
        for said in one.kept:
            say(args, said)
        for path, made in one.files.items():
            values.setdefault(path.with_suffix(".xlsx"), one.values)
            if not isinstance(made, bytes):
                made = file_bytes(valued(values[path.with_suffix(".xlsx")])(made), path)
            files[path] = made
        unvalued.update(one.unvalued)
    return files, unvalued


def recalculated_values(
    to_recalculate: dict[str, bytes], args: argparse.Namespace
) -> dict[Path, cached_values.BookValues]:
    """The values of the changed workbooks from one LibreOffice recalculation (none without it)."""
    if find_soffice() is None:
        print(
            "build.py: LibreOffice headless is missing: formula cells carry no cached values "
            "(Excel and LibreOffice still calculate them on opening; previews show them empty)",
            file=sys.stderr,
        )
        return {}
    try:
        found = cached_values.recalculate(to_recalculate)
    except LibreOfficeError as error:
        print(f"build.py: cached values not written: {error}", file=sys.stderr)
        return {}
    return {args.out / f"{stem}.xlsx": found[stem] for stem in found}


def with_cached_values(
    files: dict[Path, bytes], values: dict[Path, cached_values.BookValues]
) -> dict[Path, bytes]:
    return {
        path: cached_values.with_values(data, values[path.with_suffix(".xlsx")])
        if path.with_suffix(".xlsx") in values
        else data
        for path, data in files.items()
    }


def backup_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.bak{path.suffix}")


def write_workbooks(files: dict[Path, bytes]) -> list[Path]:
    """Write each changed file atomically, keeping the previous one as <name>.bak.<ext>."""
    written = []
    for path, data in files.items():
        if path.exists():
            if path.read_bytes() == data:
                continue
            shutil.copy2(path, backup_path(path))
        write_atomically(path, data)
        written.append(path)
    return written


def pdf_sources(rules: RuleSet, workbook: bytes, args: argparse.Namespace) -> dict[str, bytes]:
    """Workbooks to print, by the PDF name they become: the cheat sheet, the full reference and the
    GM screen (``--screen``: the GM screen only); on A4, the cheat sheet and the screen on Letter too."""
    version = tables_version(rules.id)
    papers = {
        "": args.paper,
        **({LETTER_SUFFIX: "letter"} if args.paper == "a4" else {}),
    }  # A4 also on Letter
    screen = {
        f"{rules.id}-screen{suffix}": workbook_bytes(build_cheatsheet(rules, version, paper, screen=True))
        for suffix, paper in papers.items()
    }
    if not args.pdf:
        return screen
    cheatsheets = {
        f"{rules.id}-cheatsheet{suffix}": workbook_bytes(build_cheatsheet(rules, version, paper))
        for suffix, paper in papers.items()
    }
    return {**cheatsheets, f"{rules.id}-reference": workbook, **screen}


LETTER_SUFFIX = "-letter"  # the cheat sheet and the screen printed on US Letter beside the A4 ones
PRINTED = "printed-from.json"  # in the output folder: each PDF's source workbook, by its SHA-256


def unprinted(sources: dict[str, bytes], out: Path) -> dict[str, bytes]:
    """The sources whose PDF is missing or was printed from other bytes: only these are printed again,
    so an unchanged workbook keeps its PDF byte for byte (LibreOffice stamps each PDF with the time)."""
    record = out / PRINTED
    printed = json.loads(record.read_text()) if record.exists() else {}
    return {
        stem: data
        for stem, data in sources.items()
        if printed.get(stem) != hashlib.sha256(data).hexdigest() or not (out / f"{stem}.pdf").exists()
    }


def record_printed(sources: dict[str, bytes], out: Path) -> None:
    record = out / PRINTED
    printed = json.loads(record.read_text()) if record.exists() else {}
    printed.update({stem: hashlib.sha256(data).hexdigest() for stem, data in sources.items()})
    write_atomically(record, (json.dumps(dict(sorted(printed.items())), indent=1) + "\n").encode())


def write_pdfs(sources: dict[str, bytes], out: Path) -> list[Path]:
    """Print every changed source workbook to PDF with one LibreOffice call; move each PDF into place."""
    sources = unprinted(sources, out)
    if not sources:
        return []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        books = []
        for stem, data in sources.items():
            books.append(work / f"{stem}.xlsx")
            books[-1].write_bytes(data)
        written = []
        for pdf in convert(books, work / "pdf", "pdf"):
            write_atomically(out / pdf.name, pdf.read_bytes())
            written.append(out / pdf.name)
            if pdf.stem.endswith(("-cheatsheet", "-screen")) and shutil.which("pdftoppm"):
                preview = work / pdf.stem
                command = [
                    "pdftoppm",
                    "-r",
                    "80",
                    "-png",
                    "-singlefile",
                    "-f",
                    "1",
                    "-l",
                    "1",
                    str(pdf),
                    str(preview),
                ]
                subprocess.run(command, check=True)
                write_atomically(out / f"{pdf.stem}.png", preview.with_suffix(".png").read_bytes())
                written.append(out / f"{pdf.stem}.png")
        record_printed(sources, out)
        return written


def lite_files(rulesets: list[RuleSet], args: argparse.Namespace) -> dict[Path, bytes]:
    """The xlwings Lite bundles (pycalc.lite); the all-rulesets one only when every ruleset of the
    tables folder is built."""
    every = ruleset_folders(tables_dir())
    ordered = sorted(rulesets, key=lambda r: every.index(r.id) if r.id in every else len(every))
    complete = [r.id for r in ordered] == every
    # The LibreOffice extension (pycalc.oxt) carries the same engine and tables as the all-rulesets bundle.
    return bundle_files(ordered, args.out, complete) | (oxt_files(ordered, args.out) if complete else {})


def write_changed(files: dict[Path, bytes]) -> list[Path]:
    """Write each changed file atomically (no backup: the bundles are generated, never edited)."""
    written = []
    for path, data in files.items():
        if not path.exists() or path.read_bytes() != data:
            write_atomically(path, data)
            written.append(path)
    return written


BUILT_FROM = "built-from.json"  # in the output folder: what each ruleset's files were built from


@functools.cache
def code_digest() -> str:
    """A hash of what the build runs: this file, pycalc's sources and the extension's type library
    (``pycalc/oxt_types``), the xlwings template and the libraries' versions."""
    import openpyxl
    import yaml

    # (importing xlwings would take longer than the build's start)
    xlwings = importlib.metadata.version("xlwings")
    digest = hashlib.sha256(f"{sys.version} {openpyxl.__version__} {yaml.__version__} {xlwings}".encode())
    for path in [
        Path(__file__).resolve(),
        *sorted((PROJECT_ROOT / "pycalc").rglob("*.py")),
        *sorted((PROJECT_ROOT / "pycalc" / "oxt_types").glob("*")),
        quickstart_path(),
    ]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def source_digest(ruleset_id: str, args: argparse.Namespace) -> str:
    """A hash of everything a ruleset's workbooks are built from: the code, its tables folder, the
    house rules and the paper size."""
    digest = hashlib.sha256(f"{code_digest()} {args.paper}".encode())
    folder = tables_dir() / ruleset_id
    for path in sorted(p for p in folder.rglob("*") if p.is_file()) + house_files(args.house):
        digest.update(str(path.relative_to(folder) if path.is_relative_to(folder) else path).encode())
        digest.update(b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def source_digests(args: argparse.Namespace, ruleset_ids: list[str]) -> dict[str, str]:
    """``source_digest`` of every ruleset of the tables folder (and of those asked for), worked out
    before the tables are read: the files are recorded as built from what the build read, even when
    a table is saved again while it runs (watch mode: the next change must build)."""
    return {r: source_digest(r, args) for r in dict.fromkeys([*ruleset_folders(tables_dir()), *ruleset_ids])}


def digests(files: dict[Path, bytes], out: Path) -> dict[str, str]:
    """SHA-256 of each file's bytes, by its path in the output folder."""
    return {
        path.relative_to(out).as_posix(): hashlib.sha256(data).hexdigest() for path, data in files.items()
    }


def file_digests(paths: list[Path], out: Path) -> dict[str, str]:
    """``digests`` of the files as they are on disk (those that exist)."""
    return digests({path: path.read_bytes() for path in paths if path.exists()}, out)


def read_built_from(out: Path) -> dict[str, dict]:
    try:
        return json.loads((out / BUILT_FROM).read_text())
    except (OSError, ValueError):
        return {}


def up_to_date(
    ruleset_id: str, args: argparse.Namespace, record: dict[str, dict], sources: dict[str, str]
) -> bool:
    """Whether the ruleset's two files are exactly what a build from these tables and this code wrote
    (building again would give them byte for byte: the GM's inputs are carried from them)."""
    entry = record.get(ruleset_id, {})
    paths = [args.out / f"{ruleset_id}.xlsx", args.out / f"{ruleset_id}.xlsm"]
    return (
        entry.get("from") == sources[ruleset_id]
        and entry.get("files") == file_digests(paths, args.out)
        and len(entry["files"]) == len(paths)
    )


LITE = "lite"  # the Lite bundles' entry in BUILT_FROM


def lite_digest(sources: dict[str, str]) -> str:
    every = ruleset_folders(tables_dir())
    return hashlib.sha256(" ".join(sources[r] for r in every).encode()).hexdigest()


def lite_current(args: argparse.Namespace, record: dict[str, dict], sources: dict[str, str]) -> bool:
    entry = record.get(LITE, {})
    names = entry.get("files", {})
    return (
        bool(names)
        and entry.get("from") == lite_digest(sources)
        and names == file_digests([args.out / name for name in names], args.out)
    )


def record_built_from(
    ruleset_ids: list[str],
    args: argparse.Namespace,
    files: dict[Path, bytes],
    lite: dict[Path, bytes],
    sources: dict[str, str],
) -> None:
    """Note what these rulesets' files (as built, with their cached values) and the Lite bundles were
    built from (``sources``: read before the tables were). The bytes built are noted, not those on
    disk: a file changed since does not pass."""
    record = read_built_from(args.out)
    for ruleset_id in ruleset_ids:
        paths = [args.out / f"{ruleset_id}.xlsx", args.out / f"{ruleset_id}.xlsm"]
        built = digests({path: files[path] for path in paths}, args.out)
        record[ruleset_id] = {"from": sources[ruleset_id], "files": built}
    if any(path.parent.name == ALL_BUNDLE for path in lite):  # every ruleset's bundles were made
        record[LITE] = {"from": lite_digest(sources), "files": digests(lite, args.out)}
    write_atomically(
        args.out / BUILT_FROM, (json.dumps(dict(sorted(record.items())), indent=1) + "\n").encode()
    )


@gc_paused()  # what is read and made here (tables, bundles, files) lives to the end: nothing to collect
def build_once(args: argparse.Namespace, ruleset_ids: list[str], values_after: bool = False) -> int:
    """Build and write the workbooks and the Lite bundles; 0 when done. ``values_after`` (watch mode,
    no PDFs): write each workbook at once and add the cached values LibreOffice must work out afterwards.
    A ruleset whose files were built from these very tables and code is not built again (``--force``
    does; ``--check`` always builds)."""
    started = time.perf_counter()
    record = {} if args.force or args.fresh or args.check or args.lite else read_built_from(args.out)
    sources = source_digests(args, ruleset_ids)
    current = [r for r in ruleset_ids if not up_to_date(r, args, record, sources)]
    lite_done = lite_current(args, record, sources)
    if not current and lite_done and not (args.pdf or args.screen):
        say(args, f"nothing to build: {len(ruleset_ids)} ruleset(s) up to date (--force builds them again)")
        return 0
    building_ids = [] if args.lite else current
    builds = Builds(building_ids, args)
    try:
        rulesets = load_all(ruleset_ids, args.house, builds.start, builds.order(building_ids))
    except TableError as error:
        builds.cancel()
        return table_problems(error)
    building = [rules for rules in rulesets if rules.id in building_ids]
    workbooks_first = values_after and not args.check and not (args.pdf or args.screen) and not args.lite
    lite = {} if lite_done or workbooks_first else lite_files(rulesets, args)  # while the workbooks are built
    try:  # a problem only the sheet writers find (a log pick the calculator cannot take)
        files, unvalued = built_files(builds.wait(building_ids), args)
    except TableError as error:
        return table_problems(error)
    if workbooks_first:  # the Lite bundles follow the workbooks, as their cached values do
        bundles = (lambda: None) if lite_done else (lambda: write_changed(lite_files(rulesets, args)))
        return write_then_add_values(args, files, unvalued, building, started, sources, bundles)
    values = recalculated_values(unvalued, args) if unvalued and not args.check else {}
    files = with_cached_values(files, values)
    if args.check:
        stale = [p for p, data in {**files, **lite}.items() if not p.exists() or p.read_bytes() != data]
        for path in stale:
            print(f"stale: {shown(path)} (run build.py)", file=sys.stderr)
        return 1 if stale else 0
    written = write_workbooks(files) + write_changed(lite)
    if not args.lite:
        record_built_from(with_values(building, unvalued, values, args), args, files, lite, sources)
    if (args.pdf or args.screen) and not args.lite:
        if find_soffice() is None:
            print(
                "build.py: --pdf needs LibreOffice headless (soffice); run scripts/build.sh", file=sys.stderr
            )
            return 1
        sources = {}
        for rules in rulesets:
            xlsx = args.out / f"{rules.id}.xlsx"
            sources.update(pdf_sources(rules, files.get(xlsx) or xlsx.read_bytes(), args))
        written += write_pdfs(sources, args.out)
    for path in written:
        say(args, f"wrote {shown(path)}")
    unchanged = f"; {len(rulesets) - len(building)} up to date" if len(building) < len(rulesets) else ""
    say(args, f"built {len(building)} ruleset(s) in {time.perf_counter() - started:.2f} s{unchanged}")
    return 0


def write_then_add_values(
    args: argparse.Namespace,
    files: dict[Path, bytes],
    to_recalculate: dict[str, bytes],
    building: list[RuleSet],
    started: float,
    sources: dict[str, str],
    bundles: Callable[[], object],
) -> int:
    """Write the workbooks now (with the values known from the previous build), then the Lite
    ``bundles``, then recalculate the changed workbooks in LibreOffice and write them again with their
    values (no second backup)."""
    for path in write_workbooks(files):
        say(args, f"wrote {shown(path)}")
    later = f"; cached values of {len(to_recalculate)} workbook(s) follow" if to_recalculate else ""
    say(args, f"built {len(building)} ruleset(s) in {time.perf_counter() - started:.2f} s{later}")
    bundles()
    found = recalculated_values(to_recalculate, args) if to_recalculate else {}
    valued = with_cached_values(files, found)
    if to_recalculate:
        for path, data in valued.items():
            if path.with_suffix(".xlsx") in found and path.read_bytes() == files[path]:
                write_atomically(path, data)
        say(args, f"cached values written in {time.perf_counter() - started:.2f} s")
    record_built_from(with_values(building, to_recalculate, found, args), args, valued, {}, sources)
    return 0


def with_values(
    building: list[RuleSet],
    unvalued: dict[str, bytes],
    found: dict[Path, cached_values.BookValues],
    args: argparse.Namespace,
) -> list[str]:
    """The rulesets built whose files carry their cached values (known before, or just worked out)."""
    return [r.id for r in building if r.id not in unvalued or args.out / f"{r.id}.xlsx" in found]


def affected_rulesets(changed: list[Path], ruleset_ids: list[str], house: list[Path]) -> list[str]:
    """The rulesets a change touches: the one whose folder holds the file; every one for a house rule."""
    folders = {ruleset_id: (tables_dir() / ruleset_id).resolve() for ruleset_id in ruleset_ids}
    touched = set()
    for path in changed:
        owners = [r for r, folder in folders.items() if path.resolve().is_relative_to(folder)]
        if not owners:
            return ruleset_ids
        touched.update(owners)
    return [r for r in ruleset_ids if r in touched]


def watched_files(ruleset_ids: list[str], house: list[Path]) -> dict[Path, tuple[float, int]]:
    paths = [
        p for r in ruleset_ids for p in [tables_dir() / r / "ruleset.yaml", *yaml_files(tables_dir() / r)]
    ]
    stamps = {}
    for path in paths + house_files(house):
        try:
            stat = path.stat()
            stamps[path] = (stat.st_mtime, stat.st_size)
        except OSError:
            stamps[path] = (0.0, -1)
    return stamps


def watch(
    args: argparse.Namespace,
    ruleset_ids: list[str],
    interval: float = 0.5,
    keep_going: Callable[[], bool] = lambda: True,
) -> int:
    """Rebuild on every saved change; print what changed and how long the rebuild took. Ctrl+C stops.

    Only the rulesets whose files changed are rebuilt (all of them for a house-rule file); each
    workbook is written at once and its cached values follow (``build_once(values_after=True)``)."""
    build_once(args, ruleset_ids, values_after=True)
    seen = watched_files(ruleset_ids, args.house)
    print(f"watching {len(seen)} file(s); Ctrl+C to stop", flush=True)
    try:
        while keep_going():
            time.sleep(interval)
            now = watched_files(ruleset_ids, args.house)
            changed = sorted(
                (p for p in now.keys() | seen.keys() if now.get(p) != seen.get(p)), key=lambda p: shown(p)
            )
            seen = now
            if changed:
                print(f"changed: {', '.join(shown(p) for p in changed)}", flush=True)
                started = time.perf_counter()
                status = build_once(
                    args, affected_rulesets(changed, ruleset_ids, args.house), values_after=True
                )
                print(
                    f"rebuilt in {time.perf_counter() - started:.2f} s" if status == 0 else "not rebuilt",
                    flush=True,
                )
    except KeyboardInterrupt:
        pass
    return 0


def tables_folder_problem(folder: Path) -> str | None:
    """What is wrong with a --tables folder, which holds one sub-folder per ruleset (None: nothing)."""
    if not folder.is_dir():
        return f"no tables folder {folder}"
    if (folder / "ruleset.yaml").exists():
        return (
            f"{folder} is a ruleset's own folder: --tables takes the folder that holds ruleset folders "
            f"(--tables {folder.resolve().parent})"
        )
    if not ruleset_folders(folder):
        return f"no ruleset under {folder}: --tables takes a folder holding one sub-folder per ruleset, each with a ruleset.yaml"
    return None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.tables is not None:
        problem = tables_folder_problem(args.tables)
        if problem:
            print(f"build.py: {problem}", file=sys.stderr)
            return 2
        previous = os.environ.get("PYCALC_TABLES")
        os.environ["PYCALC_TABLES"] = str(args.tables.resolve())  # the loader and the engine read it
        try:
            return build_rulesets(args, ruleset_folders(tables_dir()))
        finally:
            if previous is None:
                del os.environ["PYCALC_TABLES"]
            else:
                os.environ["PYCALC_TABLES"] = previous
    return build_rulesets(args, list(available_rulesets()))


def table_problems(error: TableError) -> int:
    """Say what is wrong in the tables (``file:line: ...``), having written nothing: exit status 1."""
    print(error, file=sys.stderr)
    print(f"build.py: {len(error.problems)} problem(s) in the tables; nothing was written", file=sys.stderr)
    return 1


def build_rulesets(args: argparse.Namespace, found: list[str]) -> int:
    ruleset_ids = args.ruleset or found
    missing = [r for r in ruleset_ids if not (tables_dir() / r / "ruleset.yaml").exists()]
    if missing:
        print(f"build.py: no tables for {', '.join(missing)} under {tables_dir()}", file=sys.stderr)
        return 2
    absent = [str(p) for p in args.house if not p.exists()]
    if absent:
        print(f"build.py: no house-rule file {', '.join(absent)}", file=sys.stderr)
        return 2
    if args.watch:
        return watch(args, ruleset_ids)
    return build_once(args, ruleset_ids)


if __name__ == "__main__":
    sys.exit(main())
