"""Drive LibreOffice Calc to check the workbooks we generate.

Two tools:

* :func:`convert` runs one ``soffice --convert-to`` process for many files (recalculated xlsx,
  PDF...).
* :class:`CalcSession` keeps one headless soffice and one UNO driver process
  (``pycalc/uno_driver.py`` run by Debian's ``/usr/bin/python3``, the only Python that can
  import ``uno``) alive, to evaluate thousands of input scenarios in seconds.

Every soffice gets its own fresh profile folder (two processes sharing a profile fail silently)
with ``OOXMLRecalcMode``/``ODFRecalcMode`` set to 0, so files that carry cached values are
recalculated on load too, and the installed version recorded as the last one run, so LibreOffice
does not run its graphics self-test at each start (``profile_settings``). This module imports nothing
outside the standard library.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path
from types import TracebackType
from typing import IO, Any

__all__ = [
    "DRIVER_PATH",
    "ERROR_NAMES",
    "SYSTEM_PYTHON",
    "CalcSession",
    "LibreOfficeError",
    "Scalar",
    "Value",
    "convert",
    "find_soffice",
    "typed",
    "uno_available",
]

SYSTEM_PYTHON = "/usr/bin/python3"
DRIVER_PATH = Path(__file__).resolve().with_name("uno_driver.py")
CONVERT_TIMEOUT = 300.0

Scalar = float | int | str | bool | None | dict[str, str]
"""An input value: numbers, text, booleans, None to empty the cell, or ``typed(text)``: an entry
read as the office reads what the keyboard types into a cell."""
Value = float | str | None
"""An output: a number, a text, ``"#ERR:<code>"`` for an error cell, None for an empty cell."""


def typed(text: str) -> dict[str, str]:
    """An input entered as if typed at the keyboard (the office parses it: "01" is 1, "1d8" text)."""
    return {"typed": text}


def is_typed(value: object) -> bool:
    return isinstance(value, dict) and set(value) == {"typed"} and isinstance(value["typed"], str)


# LibreOffice's own error codes, as returned in "#ERR:<code>" (Calc's getError()).
ERROR_NAMES: dict[int, str] = {
    501: "Err:501 invalid character",
    502: "Err:502 invalid argument (#NUM! in Excel)",
    503: "#NUM!",
    504: "Err:504 parameter list error",
    508: "Err:508 missing bracket",
    509: "Err:509 missing operator",
    511: "Err:511 missing variable",
    518: "Err:518 missing variable",
    519: "#VALUE!",
    522: "Err:522 circular reference",
    523: "Err:523 calculation does not converge",
    524: "#REF!",
    525: "#NAME?",
    532: "#DIV/0!",
    32767: "#N/A",
}

_RECALC_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" \
xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
{version}</oor:items>
"""
_LAST_VERSION_XCU = """<item oor:path="/org.openoffice.Setup/Product">\
<prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>{}</value></prop></item>
"""
_SETUP_VERSION = re.compile(r'<prop oor:name="ooSetupVersion">\s*<value>([0-9.]+)</value>')


@functools.cache
def office_version() -> str | None:
    """The installed LibreOffice's version as a profile records it ("7.4"), read from its
    ``share/registry/main.xcd``; None when that cannot be read."""
    soffice = find_soffice()
    if soffice is None:
        return None
    xcd = Path(os.path.realpath(soffice)).parent.parent / "share" / "registry" / "main.xcd"
    try:
        found = _SETUP_VERSION.search(xcd.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return found.group(1) if found else None


def profile_settings() -> str:
    """A fresh profile's settings: recalculate every file on load, and this LibreOffice's version
    recorded as the last one run. A profile without it is one LibreOffice was upgraded into, and it
    runs its graphics self-test at each start (about 0.5 s of CPU on these machines, more than
    loading most workbooks), which a GM's LibreOffice runs once."""
    version = office_version()
    return _RECALC_XCU.format(version=_LAST_VERSION_XCU.format(version) if version else "")


DEAD_OFFICE = ("illegal object given", "DisposedException", "Binary URP bridge disposed")


class LibreOfficeError(RuntimeError):
    """LibreOffice could not be started, did not produce a file, or refused a request."""


def find_soffice() -> str | None:
    """Return the path of the soffice executable, or None when LibreOffice is not installed."""
    for name in ("soffice", "libreoffice"):
        found = shutil.which(name)
        if found:
            return found
    for candidate in ("/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


@functools.cache
def uno_available() -> bool:
    """True when soffice is installed and Debian's /usr/bin/python3 can ``import uno``."""
    if find_soffice() is None:
        return False
    try:
        proc = subprocess.run(
            [SYSTEM_PYTHON, "-c", "import uno"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            env=_system_python_env(),
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


def _require_soffice() -> str:
    soffice = find_soffice()
    if soffice is None:
        raise LibreOfficeError("soffice not found: apt-get install libreoffice-calc-nogui")
    return soffice


def _system_python_env() -> dict[str, str]:
    """The environment for /usr/bin/python3: without this virtual environment's settings."""
    env = dict(os.environ)
    for key in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__"):
        env.pop(key, None)
    return env


def _make_profile(folder: Path) -> str:
    """Create a fresh LibreOffice profile in ``folder``; return its file URL for -env:."""
    user = folder / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / "registrymodifications.xcu").write_text(profile_settings(), encoding="utf-8")
    return folder.resolve().as_uri()


def _kill_group(proc: subprocess.Popen[Any], grace: float = 5.0) -> None:
    """End ``proc`` and its process group (started with start_new_session=True)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
        # oosplash has gone; make sure soffice.bin (same group) has too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        return


def convert(files: list[Path], outdir: Path, fmt: str) -> list[Path]:
    """Convert ``files`` with one soffice process; return the output paths, in order.

    ``fmt`` is what ``--convert-to`` takes: ``"xlsx"``, ``"pdf"``, or with a filter,
    ``"pdf:calc_pdf_Export"``; the output is named ``<stem>.<extension>`` in ``outdir``.
    Workbooks are recalculated on load, even when they carry cached values.
    """
    if not files:
        return []
    soffice = _require_soffice()
    ext = fmt.split(":", 1)[0]
    outdir = Path(outdir).resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    sources = [Path(f).resolve() for f in files]
    expected = [outdir / f"{src.stem}.{ext}" for src in sources]
    missing = [str(src) for src in sources if not src.is_file()]
    if missing:
        raise LibreOfficeError(f"no such file(s) to convert: {', '.join(missing)}")
    if len(set(expected)) != len(expected):
        raise ValueError(f"two inputs would write the same output file in {outdir}")
    clobbered = [str(src) for src, out in zip(sources, expected, strict=True) if src == out]
    if clobbered:
        raise ValueError(f"converting would overwrite the input(s): {', '.join(clobbered)}")
    for out in expected:  # so that a stale output cannot pass for a fresh one
        out.unlink(missing_ok=True)

    with tempfile.TemporaryDirectory(prefix="pycalc-lo-convert-") as tmp:
        cmd = [
            soffice,
            "--headless",
            "--norestore",
            "--nolockcheck",
            f"-env:UserInstallation={_make_profile(Path(tmp) / 'profile')}",
            "--convert-to",
            fmt,
            "--outdir",
            str(outdir),
            *map(str, sources),
        ]
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = proc.communicate(timeout=CONVERT_TIMEOUT)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            stdout, stderr = proc.communicate()
            raise LibreOfficeError(
                f"soffice --convert-to {fmt} timed out after {CONVERT_TIMEOUT:g} s\n{stderr}"
            ) from None
        finally:
            if proc.poll() is None:
                _kill_group(proc)
    not_made = [str(out) for out in expected if not out.is_file()]
    if not_made:
        raise LibreOfficeError(
            f"soffice --convert-to {fmt} (exit code {proc.returncode}) did not write: "
            f"{', '.join(not_made)}\nstderr: {stderr.strip()}\nstdout: {stdout.strip()}"
        )
    return expected


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pump(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    for line in stream:
        sink.put(line)
    sink.put(None)


def _collect(stream: IO[str], sink: collections.deque[str]) -> None:
    for line in stream:
        sink.append(line)


def _shutdown(procs: dict[str, subprocess.Popen[Any]], root: Path) -> None:
    """Stop the driver (asking it to terminate soffice), then soffice, then delete the profile."""
    driver = procs.pop("driver", None)
    soffice = procs.pop("soffice", None)
    try:
        graceful = False  # did the driver ask soffice to terminate?
        if driver is not None:
            if driver.poll() is None:
                try:
                    assert driver.stdin is not None
                    driver.stdin.write(json.dumps({"cmd": "quit", "terminate": True}) + "\n")
                    driver.stdin.flush()
                    driver.stdin.close()
                except (OSError, ValueError):
                    pass
                try:
                    graceful = driver.wait(timeout=10) == 0
                except subprocess.TimeoutExpired:
                    driver.kill()
                    driver.wait()
            for stream in (driver.stdin, driver.stdout, driver.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if soffice is not None:
            if graceful:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    soffice.wait(timeout=15)
            _kill_group(soffice)
    finally:
        shutil.rmtree(root, ignore_errors=True)


class CalcSession:
    """One headless soffice + one UNO driver, reused for many workbook evaluations.

    Use as a context manager::

        with CalcSession() as calc:
            rows = calc.evaluate(path, [{"IN_A": 1, "IN_B": 2}], ["OUT_SUM"])

    Every session has its own temporary profile, port and processes; they are removed by
    :meth:`close` (also on errors, and at interpreter exit for a session never closed).
    """

    def __init__(self, startup_timeout: float = 60.0, request_timeout: float | None = 900) -> None:
        self.startup_timeout = startup_timeout
        self.request_timeout = request_timeout
        self.port: int | None = None
        self._procs: dict[str, subprocess.Popen[Any]] = {}
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=200)
        self._root: Path | None = None
        self._finalizer: weakref.finalize | None = None  # type: ignore[type-arg]
        self._lock = threading.Lock()

    # -- life cycle ---------------------------------------------------------------------------

    def __enter__(self) -> CalcSession:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._finalizer is not None and self._finalizer.alive

    def start(self) -> CalcSession:
        """Start soffice and the driver; wait until the driver is connected. Idempotent."""
        if self.running:
            return self
        soffice = _require_soffice()
        if not os.access(SYSTEM_PYTHON, os.X_OK):
            raise LibreOfficeError(f"{SYSTEM_PYTHON} not found: it is needed to import uno")
        root = Path(tempfile.mkdtemp(prefix="pycalc-lo-session-"))
        self._root = root
        self._procs = {}
        self._finalizer = weakref.finalize(self, _shutdown, self._procs, root)
        try:
            self._launch(soffice, root)
        except BaseException:
            driver = self._procs.get("driver")
            if driver is not None and driver.poll() is None:
                driver.kill()  # still polling for soffice: it would not read "quit"
            self.close()
            raise
        return self

    def _launch(self, soffice: str, root: Path) -> None:
        profile = _make_profile(root / "profile")
        self.port = port = _free_port()
        log = open(root / "soffice.log", "wb")  # noqa: SIM115 - the child keeps it open
        try:
            self._procs["soffice"] = soffice_proc = subprocess.Popen(
                [
                    soffice,
                    "--headless",
                    "--invisible",
                    "--nologo",
                    "--nodefault",
                    "--norestore",
                    "--nolockcheck",
                    f"-env:UserInstallation={profile}",
                    f"--accept=socket,host=127.0.0.1,port={port};urp;",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        self._procs["driver"] = driver = subprocess.Popen(
            [
                SYSTEM_PYTHON,
                str(DRIVER_PATH),
                "--port",
                str(port),
                "--timeout",
                str(self.startup_timeout),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            env=_system_python_env(),
        )
        self._lines = queue.Queue()
        self._stderr.clear()
        assert driver.stdout is not None and driver.stderr is not None
        threading.Thread(target=_pump, args=(driver.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_collect, args=(driver.stderr, self._stderr), daemon=True).start()

        deadline = time.monotonic() + self.startup_timeout + 10
        while True:
            try:
                line = self._lines.get(timeout=0.2)
            except queue.Empty:
                if soffice_proc.poll() is not None:
                    raise LibreOfficeError(
                        f"soffice exited with code {soffice_proc.returncode} before accepting "
                        f"a UNO connection\n{self._diagnostics()}"
                    ) from None
                if time.monotonic() > deadline:
                    raise LibreOfficeError(
                        f"soffice did not accept a UNO connection on 127.0.0.1:{port} within "
                        f"{self.startup_timeout:g} s\n{self._diagnostics()}"
                    ) from None
                continue
            if line is None:
                raise LibreOfficeError(
                    f"the UNO driver exited during start-up (code {driver.wait()}); "
                    f"is python3-uno installed for {SYSTEM_PYTHON}?\n{self._diagnostics()}"
                )
            reply = self._decode(line)
            if not reply.get("ok"):
                raise LibreOfficeError(
                    f"UNO driver could not connect: {reply.get('error')}\n{self._diagnostics()}"
                )
            return

    def close(self) -> None:
        """Stop the driver and soffice and delete the profile. Safe to call more than once."""
        if self._finalizer is not None:
            self._finalizer()

    def _diagnostics(self) -> str:
        parts = []
        if self._stderr:
            parts.append("driver stderr:\n" + "".join(self._stderr).rstrip())
        if self._root is not None:
            try:
                text = (self._root / "soffice.log").read_text(errors="replace").strip()
            except OSError:
                text = ""
            if text:
                parts.append("soffice output:\n" + text[-4000:])
        return "\n".join(parts) or "(no output from the driver or soffice)"

    @staticmethod
    def _decode(line: str) -> dict[str, Any]:
        try:
            reply = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LibreOfficeError(f"UNO driver wrote a line that is not JSON: {line!r}") from exc
        if not isinstance(reply, dict):
            raise LibreOfficeError(f"UNO driver wrote an unexpected reply: {line!r}")
        return reply

    # -- requests -----------------------------------------------------------------------------

    def _request(self, request: dict[str, Any]) -> Any:
        """Send one request; when LibreOffice itself has gone bad under it (a disposed or dead
        office: UNO's 'illegal object' / DisposedException), start a fresh office and try once more."""
        try:
            return self._request_once(request)
        except LibreOfficeError as error:
            if not any(sign in str(error) for sign in DEAD_OFFICE):
                raise
            self.close()
            return self._request_once(request)

    def _request_once(self, request: dict[str, Any]) -> Any:
        with self._lock:
            self.start()
            driver = self._procs.get("driver")
            assert driver is not None and driver.stdin is not None
            try:
                driver.stdin.write(json.dumps(request) + "\n")
                driver.stdin.flush()
            except OSError as exc:
                gone = f"the UNO driver is gone ({exc})\n{self._diagnostics()}"
                raise LibreOfficeError(gone) from exc
            try:
                line = self._lines.get(timeout=self.request_timeout)
            except queue.Empty:
                self.close()  # the driver is stuck; a late answer would be read as the next one
                wait = self.request_timeout
                raise LibreOfficeError(f"no UNO driver answer within {wait:g} s; closed") from None
            if line is None:
                diagnostics = self._diagnostics()
                self.close()
                raise LibreOfficeError(f"the UNO driver exited unexpectedly\n{diagnostics}")
            reply = self._decode(line)
            if not reply.get("ok"):
                raise LibreOfficeError(str(reply.get("error", "unknown UNO driver error")))
            return reply.get("results")

    def evaluate(
        self, xlsx: Path, scenarios: list[dict[str, Scalar]], outputs: list[str]
    ) -> list[dict[str, Value]]:
        """Open ``xlsx`` once, and for each scenario set its inputs, recalculate, read outputs.

        Keys of a scenario and ``outputs`` are workbook-level defined names of single cells.
        Inputs: str -> text, bool -> TRUE()/FALSE(), int/float -> number, None -> emptied,
        ``typed(text)`` -> parsed as a keyboard entry.
        An input that an earlier scenario set but this one omits gets its saved value back.
        Outputs: number -> float (a boolean result comes back as 1.0/0.0), text -> str,
        error -> ``"#ERR:<code>"`` (see :data:`ERROR_NAMES`), empty cell -> None.
        The document is closed at the end of the call; the file is never saved.
        """
        for scenario in scenarios:
            for name, value in scenario.items():
                if (
                    value is not None
                    and not isinstance(value, (int, float, str, bool))
                    and not is_typed(value)
                ):
                    raise TypeError(f"input {name}: unsupported value {value!r}")
        request = {
            "cmd": "evaluate",
            "path": str(Path(xlsx).resolve()),
            "scenarios": scenarios,
            "outputs": list(outputs),
        }
        results: list[dict[str, Value]] = self._request(request)
        return results

    def evaluate_columns(
        self, xlsx: Path, scenarios: list[dict[str, list[str]]], outputs: list[str]
    ) -> list[dict[str, list[Value]]]:
        """Open ``xlsx`` once; for each scenario fill whole named columns (each entry as if typed,
        "" empties the cell), recalculate, and read whole named columns (values as in ``evaluate``)."""
        request = {
            "cmd": "ranges",
            "path": str(Path(xlsx).resolve()),
            "scenarios": scenarios,
            "outputs": outputs,
        }
        results: list[dict[str, list[Value]]] = self._request(request)
        return results

    def hard_recalculations(
        self,
        xlsx: Path,
        scenarios: list[dict[str, list[str]]],
        outputs: list[str],
        saved_as: Path,
        typed: bool = False,
    ) -> tuple[bool, list[list[dict[str, list[Value]]]]]:
        """Each scenario's named columns entered into ``xlsx`` (typed cell by cell, or filled as
        ``evaluate_columns`` fills them, saved to ``saved_as`` and opened again) and read three times:
        as entered, after a Recalculate Hard, after a second one. Returns whether the office calculates
        on several threads (its default) and the readings."""
        request = {
            "cmd": "hard",
            "path": str(Path(xlsx).resolve()),
            "saved_as": str(Path(saved_as).resolve()),
            "typed": typed,
            "scenarios": scenarios,
            "outputs": outputs,
        }
        found: dict[str, Any] = self._request(request)
        return bool(found["threaded"]), found["readings"]

    def formula_values(
        self, xlsx: Path, scenarios: list[dict[str, Scalar]]
    ) -> list[dict[str, list[tuple[int, int, Value]]]]:
        """Open ``xlsx`` once; for each scenario set its named inputs (as ``evaluate`` does), recalculate,
        and read every formula cell of every sheet: {sheet name: [(row, column, value), ...]}, rows and
        columns from 0, values as in ``evaluate``. One load for many input sets, where saving a copy per
        set (``convert``) loads and writes the whole workbook each time."""
        request = {"cmd": "formulas", "path": str(Path(xlsx).resolve()), "scenarios": scenarios}
        results: list[dict[str, list[list[Any]]]] = self._request(request)
        return [
            {
                sheet: [(int(row), int(column), value) for row, column, value in cells]
                for sheet, cells in found.items()
            }
            for found in results
        ]

    def keystrokes(
        self, xlsx: Path, edits: list[tuple[str, int, str]], answer: tuple[str, int]
    ) -> list[float]:
        """Open ``xlsx``, recalculate it, then time each edit (the ``index``-th cell of a defined name,
        typed as at the keyboard) with the recalculation it makes and the reading of ``answer``:
        seconds per edit, measured inside the office's process."""
        request = {
            "cmd": "keystrokes",
            "path": str(Path(xlsx).resolve()),
            "edits": [list(edit) for edit in edits],
            "answer": list(answer),
        }
        results: list[float] = self._request(request)
        return results

    def evaluate_cells(self, xlsx: Path, sheet_cells: list[tuple[str, str]]) -> list[Value]:
        """Open ``xlsx``, recalculate once, and read ``(sheet name, "B7")`` cells, in order."""
        request = {
            "cmd": "cells",
            "path": str(Path(xlsx).resolve()),
            "cells": [[sheet, ref] for sheet, ref in sheet_cells],
        }
        results: list[Value] = self._request(request)
        return results

    def evaluate_cells_per_scenario(
        self, xlsx: Path, scenarios: list[dict[str, Scalar]], sheet_cells: list[tuple[str, str]]
    ) -> list[list[Value]]:
        """Open ``xlsx`` once; for each scenario set its named inputs (as ``evaluate`` does), recalculate
        and read ``(sheet name, "B7")`` cells, in order: one list per scenario."""
        request = {
            "cmd": "cells",
            "path": str(Path(xlsx).resolve()),
            "cells": [[sheet, ref] for sheet, ref in sheet_cells],
            "scenarios": scenarios,
        }
        results: list[list[Value]] = self._request(request)
        return results
