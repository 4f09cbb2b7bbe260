"""LibreOffice Calc in a real window, typed into as a GM types: Xvfb (a display it picks itself, 1366x768),
soffice with the VCL ``gen`` plugin and a fresh profile (AutoInput on, as LibreOffice ships), xdotool for
the keys, ImageMagick's ``import`` for screenshots. Values are read back from the file the window saves
(Ctrl+S, Keep format), which holds LibreOffice's own results.

Every process it starts is in its own process group and ended on close, even when a test fails."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import openpyxl

from pycalc.libreoffice import find_soffice, profile_settings

SCREEN = "1366x768x24"
TOOLS = ("Xvfb", "xdotool", "import")
START_TIMEOUT = 180.0  # seconds for the window to show the workbook on a busy two-core machine
NAME_BOX = ("60", "88")  # x, y in the 1366x768 window with LibreOffice 7.4's default toolbars
KEY_DELAY_MS = 40  # between typed characters: LibreOffice's AutoInput sees each key as a GM's


def missing_tools() -> list[str]:
    """What a window test needs and this machine lacks (a LibreOffice with a window included)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    soffice = find_soffice()
    if soffice is None:
        missing.append("soffice")
    else:
        program = Path(os.path.realpath(soffice)).parent
        if not any(program.glob("libvclplug_gen*")):
            missing.append("libreoffice-calc (a LibreOffice with a window: the gen VCL plugin)")
    return missing


def _end(proc: subprocess.Popen[Any]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=5)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _start_display() -> tuple[subprocess.Popen[Any], str]:
    """Xvfb on a free display it picks (-displayfd), so parallel runs never share one."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write,),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        _end(proc)
        raise RuntimeError("Xvfb did not report a display")
    return proc, f":{number}"


class CalcWindow:
    """One workbook open in one LibreOffice Calc window on its own display."""

    def __init__(self, workbook: Path, folder: Path, shots: Path) -> None:
        self.folder, self.shots = folder, shots
        self.path = folder / workbook.name
        shutil.copyfile(workbook, self.path)
        self.procs: list[subprocess.Popen[Any]] = []
        self.display = ""
        self.window = ""

    # ---- start and stop

    def __enter__(self) -> CalcWindow:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if error is not None:
            self.screenshot("failed")
        self.close()

    def start(self) -> None:
        xvfb, self.display = _start_display()
        self.procs.append(xvfb)
        profile = self.folder / "profile"
        (profile / "user").mkdir(parents=True, exist_ok=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_window_settings(), encoding="utf-8")
        soffice = find_soffice()
        assert soffice is not None
        env = dict(os.environ, DISPLAY=self.display, SAL_USE_VCLPLUGIN="gen")
        self.procs.append(
            subprocess.Popen(
                [soffice, "--calc", "--norestore", "--nologo", "--nolockcheck",
                 f"-env:UserInstallation={profile.resolve().as_uri()}", str(self.path)],
                env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        )  # fmt: skip
        self.window = self._wait_window(self.path.name)
        self.xdotool("windowsize", self.window, "1366", "768")
        self.xdotool("windowmove", self.window, "0", "0")
        self.focus()
        time.sleep(1.0)  # the first paint and the cursor's cell

    def close(self) -> None:
        for proc in reversed(self.procs):
            _end(proc)
        self.procs.clear()

    def _wait_window(self, title: str) -> str:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            found = self.xdotool("search", "--onlyvisible", "--name", title, check=False).split()
            if found:
                return found[-1]
            time.sleep(0.5)
        raise RuntimeError(f"no LibreOffice window showing {title} after {START_TIMEOUT:.0f} s")

    # ---- keys

    def xdotool(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["xdotool", *args],
            env=dict(os.environ, DISPLAY=self.display),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def focus(self) -> None:
        self.xdotool("windowfocus", "--sync", self.window, check=False)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--delay", str(KEY_DELAY_MS), *keys)

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", str(KEY_DELAY_MS), "--", text)

    def goto(self, cell: str) -> None:
        """The cursor to ``cell`` ("Encounter.M7" or "M7") through the Name Box, clicked as a GM does."""
        self.xdotool("mousemove", "--window", self.window, *NAME_BOX, "click", "--repeat", "3", "1")
        time.sleep(0.2)
        self.type(cell)
        self.key("Return")
        time.sleep(0.2)

    def enter(self, cell: str, text: str) -> None:
        """Type ``text`` into ``cell`` key by key and press Enter, as a GM does."""
        self.goto(cell)
        self.type(text)
        self.key("Return")

    def save(self) -> None:
        """Ctrl+S (the profile saves .xlsx without asking), then wait for the file."""
        before = self.path.stat().st_mtime_ns
        self.key("ctrl+s")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if self.path.stat().st_mtime_ns != before:
                time.sleep(1.5)  # the file written whole
                return
        raise RuntimeError("the window did not save the workbook")

    def values(self, sheet: str) -> Any:
        """The saved workbook's sheet with LibreOffice's values (``save`` first)."""
        return openpyxl.load_workbook(self.path, data_only=True)[sheet]

    def screenshot(self, name: str) -> Path | None:
        if not self.display:
            return None
        self.shots.mkdir(parents=True, exist_ok=True)
        shot = self.shots / f"{name}.png"
        subprocess.run(
            ["import", "-window", "root", str(shot)],
            env=dict(os.environ, DISPLAY=self.display),
            capture_output=True,
            timeout=60,
        )
        return shot


_TIP_OFF = """<item oor:path="/org.openoffice.Office.Common/Misc">\
<prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc">\
<prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document">\
<prop oor:name="WarnAlienFormat" oor:op="fuse"><value>false</value></prop></item>
"""


def _window_settings() -> str:
    """The test profile: as LibreOffice ships (AutoInput on, threaded calculation on), without the
        first start's Tip of the Day dialog, which would take the first keys, and without the Keep format
    question on saving an .xlsx."""
    return profile_settings().replace("</oor:items>", _TIP_OFF + "</oor:items>")
