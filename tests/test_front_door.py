"""The README is a GM's front door: its links lead somewhere, its GM part speaks the table's words, and
its two commands (build, test) are the ones CI runs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", "DEVELOPING.md")
BUILD_COMMAND, TEST_COMMAND = "bash scripts/build.sh", "bash scripts/test.sh"
GM_PART_END = "## Build it yourself"
FIRST_SCREEN_LINES = 70  # the first screen: what it is, a picture, the games, which file and which app
DEVELOPER_WORDS = (
    "seed",
    "yaml",
    "udf",
    "xlwings",
    "pyodide",
    "uno",
    "pythonpath",
    "pip",
    "apt",
    ".venv",
    "bash",
    "ruleset id",
    "named cell",
    "resolution",
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
MADE_BY_A_BUILD = {"workbook/built-from.json"}  # written by every build, not committed
CODE_PATH = re.compile(r"`([A-Za-z0-9_.][A-Za-z0-9_./-]*/[A-Za-z0-9_./-]+)`")


def text_of(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def gm_part() -> str:
    readme = text_of("README.md")
    assert GM_PART_END in readme, f"README has no '{GM_PART_END}' section"
    return readme.split(GM_PART_END)[0]


def anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("doc", DOCS)
def test_every_link_leads_to_a_file_or_heading(doc: str) -> None:
    markdown = text_of(doc)
    broken = []
    for target in LINK.findall(markdown):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        page = (ROOT / path) if path else ROOT / doc
        if not page.exists() or (anchor and anchor not in anchors(page.read_text(encoding="utf-8"))):
            broken.append(target)
    assert not broken, f"{doc}: links that lead nowhere: {broken}"


@pytest.mark.parametrize("doc", DOCS)
def test_every_project_path_named_exists(doc: str) -> None:
    """A path in backticks under one of the project's own folders names a file or folder that exists
    (paths with a placeholder such as `<id>` or a glob, and examples outside the project, are left)."""
    missing = []
    for path in CODE_PATH.findall(text_of(doc)):
        first = path.split("/")[0]
        if any(c in path for c in "<>*{}") or not (ROOT / first).exists() or path in MADE_BY_A_BUILD:
            continue
        if not (ROOT / path.rstrip("/")).exists():
            missing.append(path)
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def test_the_two_commands_are_in_the_readme_and_ci_runs_the_test_command() -> None:
    readme = text_of("README.md")
    blocks = "\n".join(re.findall(r"```bash\n(.*?)```", readme, flags=re.DOTALL))
    assert BUILD_COMMAND in blocks and TEST_COMMAND in blocks
    ci = text_of(".ci/run")
    assert "scripts/test.sh" in ci
    assert (ROOT / "scripts/build.sh").exists() and (ROOT / "scripts/test.sh").exists()


def test_the_gm_part_speaks_the_tables_words() -> None:
    text = " ".join(gm_part().lower().split())
    found = [w for w in DEVELOPER_WORDS if re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", text)]
    assert not found, f"the README's GM part uses developer words: {found}"


def test_the_first_screen_shows_the_games_and_a_picture() -> None:
    first_screen = "\n".join(text_of("README.md").splitlines()[:FIRST_SCREEN_LINES])
    assert "![" in first_screen, "no picture on the first screen"
    for game in ("cnc", "osr", "combat17", "spelljammer", "bfrpg"):
        assert f"workbook/{game}.xlsx" in first_screen, f"{game}'s workbook is not on the first screen"
        assert f"workbook/{game}-cheatsheet" in first_screen, (
            f"{game}'s cheat sheet is not on the first screen"
        )


@pytest.mark.parametrize("game", ("cnc", "osr", "combat17", "spelljammer", "bfrpg"))
def test_the_committed_sheets_print_on_a4_and_on_letter_in_two_pages(game: str):
    """The cheat sheet and the GM screen a GM downloads: two pages each, on A4 and on US Letter."""
    sizes = {"": "A4", "-letter": "letter"}
    for sheet in ("cheatsheet", "screen"):
        for suffix, paper in sizes.items():
            pdf = ROOT / "workbook" / f"{game}-{sheet}{suffix}.pdf"
            info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
            assert re.search(r"^Pages:\s+[12]$", info, flags=re.MULTILINE), (pdf.name, info)
            assert f"({paper})" in info, (pdf.name, info)
