"""A LibreOffice with the extension (``workbook/gmcombat.oxt``) installed: for its tests and benchmark.

``scripts/ensure-lo25.sh`` unpacks LibreOffice 25.2 (Debian bookworm-backports) into
``.venv/lo25/root`` beside the system LibreOffice 7.4, which stays untouched. Here:

- ``find_office(version)``: that soffice ("25.2"), or the system one ("7.4"), with the environment it
  needs (the unpacked one finds its own libraries first);
- ``ExtensionProfile``: a fresh profile with the recalculate-on-load settings of
  ``pycalc.libreoffice``, started once (a first start after ``unopkg add`` would drop the
  registration), then the extension added with ``unopkg add`` (as root too: ``unopkg`` refuses a
  per-user install as root unless told where the profile is, which ``-env:UserInstallation`` does);
- ``convert``: ``soffice --convert-to`` in that profile; the output holds the recalculated values.

Standard library only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pycalc.libreoffice import _RECALC_XCU, _kill_group

ROOT = Path(__file__).resolve().parent.parent
LO25_ROOT = ROOT / ".venv" / "lo25" / "root"
TIMEOUT = 600.0


@dataclass(frozen=True)
class Office:
    version: str
    program: Path  # the folder holding soffice and unopkg
    env: dict[str, str]

    @property
    def soffice(self) -> str:
        return str(self.program / "soffice")

    @property
    def unopkg(self) -> str:
        return str(self.program / "unopkg")


def find_office(version: str) -> Office | None:
    """LibreOffice 25.2 unpacked under .venv/lo25 or the system 7.4; None when it is not there."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV")}
    if version == "25.2":
        program = LO25_ROOT / "usr" / "lib" / "libreoffice" / "program"
        if not (LO25_ROOT / ".complete").exists() or not (program / "soffice").exists():
            return None
        env["LD_LIBRARY_PATH"] = f"{program}:{LO25_ROOT / 'usr' / 'lib' / 'x86_64-linux-gnu'}"
        return Office(version, program, env)
    program = Path("/usr/lib/libreoffice/program")
    return Office(version, program, env) if (program / "soffice").exists() else None


def run(office: Office, args: list[str], timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=office.env,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        stdout, stderr = proc.communicate()
        raise RuntimeError(f"{args[0]} timed out after {timeout:g} s\n{stderr}") from None
    finally:
        if proc.poll() is None:
            _kill_group(proc)
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr)


def as_user() -> list[str]:
    """What to put before ``unopkg`` so that it installs into a profile: as root it refuses to
    unless shared (into the installation, for every user); in a user namespace mapping root to an
    ordinary uid it sees that uid, and its files are still written by root."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return []
    return ["unshare", "--user", "--map-user=1000", "--map-group=1000"]


class ExtensionProfile:
    """A fresh profile of ``office`` with ``oxt`` installed (``oxt`` None: without it)."""

    def __init__(self, office: Office, oxt: Path | None) -> None:
        self.office = office
        self.folder = Path(tempfile.mkdtemp(prefix="pycalc-oxt-profile-"))
        user = self.folder / "user"
        user.mkdir(parents=True)
        version = f'<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>{office.version}</value></prop></item>\n'
        (user / "registrymodifications.xcu").write_text(_RECALC_XCU.format(version=version), encoding="utf-8")
        self.url = f"-env:UserInstallation={self.folder.resolve().as_uri()}"
        started = run(
            office, [office.soffice, "--headless", "--norestore", self.url, "--terminate_after_init"]
        )
        if started.returncode != 0:
            raise RuntimeError(f"soffice {office.version} did not start: {started.stderr.strip()}")
        if oxt is not None:
            added = run(office, [*as_user(), office.unopkg, "add", "--suppress-license", self.url, str(oxt)])
            if added.returncode != 0:
                raise RuntimeError(f"unopkg add failed ({added.returncode}): {added.stderr.strip()}")

    def installed(self) -> str:
        return run(self.office, [*as_user(), self.office.unopkg, "list", self.url]).stdout

    def convert(self, files: list[Path], outdir: Path, fmt: str = "xlsx") -> tuple[list[Path], float]:
        """Recalculate ``files`` on load and save them as ``fmt`` in ``outdir``; the paths and the
        seconds it took (one soffice process)."""
        outdir.mkdir(parents=True, exist_ok=True)
        expected = [outdir / f"{Path(f).stem}.{fmt}" for f in files]
        for out in expected:
            out.unlink(missing_ok=True)
        start = time.perf_counter()
        done = run(
            self.office,
            [self.office.soffice, "--headless", "--norestore", "--nolockcheck", self.url,
             "--convert-to", fmt, "--outdir", str(outdir), *map(str, files)],
        )  # fmt: skip
        seconds = time.perf_counter() - start
        missing = [str(p) for p in expected if not p.is_file()]
        if missing:
            raise RuntimeError(
                f"soffice {self.office.version} did not write {missing}: {done.stderr.strip()}"
            )
        return expected, seconds

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> ExtensionProfile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
