"""UNO driver: run by Debian's /usr/bin/python3 (the only Python that can import ``uno``).

It connects to one headless soffice listening on 127.0.0.1 and answers JSON requests, one per
line on stdin, with one JSON response per line on stdout. Nothing else is ever written to stdout;
logs go to stderr.

Requests::

    {"cmd": "evaluate", "path": "/abs/book.xlsx",
     "scenarios": [{"IN_A": 1, "IN_TEXT": "x"}, ...], "outputs": ["OUT_SUM", ...]}
    {"cmd": "cells", "path": "/abs/book.xlsx", "cells": [["Odds", "B7"], ...]}
    {"cmd": "cells", "path": "/abs/book.xlsx", "cells": [...], "scenarios": [{"IN_A": 1}, ...]}
    {"cmd": "hard", "path": "/abs/book.xlsx", "saved_as": "/abs/filled.xlsx", "typed": false,
     "scenarios": [{"NAMED_COLUMN": ["entry", ...]}, ...], "outputs": ["NAMED_COLUMN", ...]}
    {"cmd": "formulas", "path": "/abs/book.xlsx", "scenarios": [{"IN_A": 1}, ...]}
    {"cmd": "ping"}
    {"cmd": "quit", "terminate": true}

Responses: ``{"ok": true, "results": [...]}`` or ``{"ok": false, "error": "..."}``. The first
line written after start-up is ``{"ok": true, "ready": true}`` (or an error, then exit code 1).

Only the standard library and ``uno`` may be imported here: this file is not run by the
project's virtual environment.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

# com.sun.star.table.CellContentType / com.sun.star.sheet.FormulaResult / CellFlags values.
_TYPE_EMPTY = "EMPTY"
_TYPE_VALUE = "VALUE"
_TYPE_TEXT = "TEXT"
_TYPE_FORMULA = "FORMULA"
_RESULT_VALUE = 1
_RESULT_STRING = 2
_RESULT_ERROR = 4
_CLEAR_FLAGS = 1 | 2 | 4 | 16  # VALUE | DATETIME | STRING | FORMULA
_FORMULA_CELLS = 16  # FORMULA

_OFFICE: dict[str, Any] = {}  # the soffice's component context, once connected

_OUT = sys.stdout
sys.stdout = sys.stderr  # anything printed by accident goes to stderr, never to the protocol


class RequestError(Exception):
    """A problem with one request (bad name, missing file...): reported, the driver goes on."""


def log(message: str) -> None:
    print(f"uno_driver: {message}", file=sys.stderr, flush=True)


def send(obj: dict[str, Any]) -> None:
    _OUT.write(json.dumps(obj) + "\n")
    _OUT.flush()


def prop(name: str, value: Any) -> PropertyValue:
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def connect(port: int, timeout: float) -> Any:
    """Return the Desktop of the soffice on 127.0.0.1:port, polling until ``timeout`` s."""
    local = uno.getComponentContext()
    smgr = local.ServiceManager
    resolver = smgr.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            ctx = resolver.resolve(url)
        except NoConnectException as exc:
            last = exc
            time.sleep(0.1)
            continue
        _OFFICE["context"] = ctx
        return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    raise RuntimeError(f"no soffice answered on 127.0.0.1:{port} within {timeout:g} s ({last})")


class Document:
    """One spreadsheet opened hidden, with a cache of the cell behind each defined name."""

    def __init__(self, desktop: Any, path: str) -> None:
        if not os.path.isfile(path):
            raise RequestError(f"no such workbook: {path}")
        url = uno.systemPathToFileUrl(os.path.abspath(path))
        args = (prop("Hidden", True), prop("MacroExecutionMode", 0))
        doc = desktop.loadComponentFromURL(url, "_blank", 0, args)
        if doc is None:
            raise RequestError(f"LibreOffice could not open {path}")
        if not hasattr(doc, "NamedRanges") or not hasattr(doc, "calculateAll"):
            self._close(doc)
            raise RequestError(f"{path} did not open as a spreadsheet")
        self.doc = doc
        self.path = path
        self._cells: dict[str, Any] = {}
        self._ranges: dict[str, Any] = {}

    @staticmethod
    def _close(doc: Any) -> None:
        try:
            doc.close(True)
        except Exception:  # fall back to dispose whatever went wrong
            doc.dispose()

    def close(self) -> None:
        self._close(self.doc)

    def named_cell(self, name: str) -> Any:
        cell = self._cells.get(name)
        if cell is not None:
            return cell
        ranges = self.doc.NamedRanges
        if not ranges.hasByName(name):
            raise RequestError(f"no defined name {name!r} in {self.path}")
        cells = ranges.getByName(name).getReferredCells()
        if cells is None:
            raise RequestError(f"defined name {name!r} does not refer to cells in {self.path}")
        addr = cells.getRangeAddress()
        if addr.StartColumn != addr.EndColumn or addr.StartRow != addr.EndRow:
            raise RequestError(f"defined name {name!r} refers to more than one cell")
        cell = cells.getCellByPosition(0, 0)
        self._cells[name] = cell
        return cell

    def named_range(self, name: str) -> Any:
        """The cells a defined name refers to, looked up once (each look-up is several UNO calls)."""
        found = self._ranges.get(name)
        if found is not None:
            return found
        ranges = self.doc.NamedRanges
        if not ranges.hasByName(name):
            raise RequestError(f"no defined name {name!r} in {self.path}")
        found = self._ranges[name] = ranges.getByName(name).getReferredCells()
        return found

    def sheet_cell(self, sheet: str, ref: str) -> Any:
        sheets = self.doc.Sheets
        if not sheets.hasByName(sheet):
            raise RequestError(f"no sheet {sheet!r} in {self.path}")
        try:
            rng = sheets.getByName(sheet).getCellRangeByName(ref)
        except Exception as exc:  # UNO raises RuntimeException for a bad ref
            raise RequestError(f"bad cell reference {sheet}!{ref}: {exc}") from exc
        return rng.getCellByPosition(0, 0)


def set_input(cell: Any, value: Any) -> None:
    if value is None:
        cell.clearContents(_CLEAR_FLAGS)
    elif isinstance(value, bool):
        cell.setFormula("=TRUE()" if value else "=FALSE()")
    elif isinstance(value, (int, float)):
        cell.setValue(float(value))
    elif isinstance(value, str):
        cell.setString(value)
    elif isinstance(value, dict) and set(value) == {"typed"}:
        cell.setFormula(str(value["typed"]))  # read as the keyboard's entry is: "01" is the number 1
    else:
        raise RequestError(f"unsupported input value {value!r}")


def snapshot(cell: Any) -> tuple[str, Any]:
    kind = cell.getType().value
    if kind == _TYPE_VALUE:
        return kind, cell.getValue()
    if kind == _TYPE_TEXT:
        return kind, cell.getString()
    if kind == _TYPE_FORMULA:
        return kind, cell.getFormula()
    return _TYPE_EMPTY, None


def restore(cell: Any, saved: tuple[str, Any]) -> None:
    kind, value = saved
    if kind == _TYPE_VALUE:
        cell.setValue(value)
    elif kind == _TYPE_TEXT:
        cell.setString(value)
    elif kind == _TYPE_FORMULA:
        cell.setFormula(value)
    else:
        cell.clearContents(_CLEAR_FLAGS)


def read_cell(cell: Any) -> float | str | None:
    ((value,),) = cell.getDataArray()  # a number in one call, where the steps below take four
    if isinstance(value, float):
        return number(value)
    kind = cell.getType().value
    if kind == _TYPE_EMPTY:
        return None
    if kind == _TYPE_VALUE:
        return number(cell.getValue())
    if kind == _TYPE_TEXT:
        return cell.getString()
    err = cell.getError()
    if err:
        return f"#ERR:{err}"
    result = cell.FormulaResultType2
    if result == _RESULT_STRING:
        return cell.getString()
    if result == _RESULT_ERROR:  # getError() said 0, should not happen
        return "#ERR:?"
    return number(cell.getValue())


def number(value: float) -> float | str:
    # JSON has no NaN/Infinity; LibreOffice turns those into errors anyway.
    return value if math.isfinite(value) else f"#ERR:{value}"


class Inputs:
    """Sets each scenario's named inputs; a name an earlier scenario set but this one omits gets its
    workbook value back, so that every scenario is applied to the workbook as it was saved. An input
    that already holds the entry it is given (the scenario before set the same) is left as it is, as
    a GM does not retype it: the cells are the same, with fewer calls to the office."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.originals: dict[str, tuple[str, Any]] = {}
        self.current: dict[str, Any] = {}

    def apply(self, scenario: dict[str, Any]) -> None:
        for name in self.current.keys() - scenario.keys():
            restore(self.doc.named_cell(name), self.originals[name])
        for name, value in scenario.items():
            held = self.current.get(name)
            if name in self.current and type(held) is type(value) and held == value:
                continue
            cell = self.doc.named_cell(name)
            if name not in self.originals:
                self.originals[name] = snapshot(cell)
            set_input(cell, value)
        self.current = dict(scenario)


def recalculate(doc: Document, first: bool) -> None:
    """The whole document after it is loaded; after that, what the changes made dirty, as LibreOffice
    does while a GM types (automatic calculation is on). A value that only a full recalculation would
    put right is then a mismatch, as it would be at the table."""
    if first:
        doc.doc.calculateAll()
    else:
        doc.doc.calculate()


def per_scenario(doc: Document, scenarios: list[dict[str, Any]], read: Callable[[], Any]) -> list[Any]:
    """For each scenario: its named inputs set (``Inputs``), the document recalculated, ``read()``."""
    inputs = Inputs(doc)
    results = []
    for number, scenario in enumerate(scenarios):
        inputs.apply(scenario)
        recalculate(doc, first=number == 0)
        results.append(read())
    return results


def evaluate(desktop: Any, req: dict[str, Any]) -> list[dict[str, Any]]:
    scenarios = req.get("scenarios", [])
    outputs = req.get("outputs", [])
    doc = Document(desktop, req["path"])
    try:
        out_cells = [(name, doc.named_cell(name)) for name in outputs]
        return per_scenario(doc, scenarios, lambda: {name: read_cell(cell) for name, cell in out_cells})
    finally:
        doc.close()


class FormulaReader:
    """Reads [row, column, value] (from 0) of every formula cell of a sheet, its value as ``read_cell``
    gives it: a block of cells per call. An error cell, which the block leaves out, is asked for its
    error code alone; its cell object is kept, so that a later scenario asks it in one call, not three."""

    def __init__(self) -> None:
        self._cells: dict[tuple[str, int, int], Any] = {}

    def one_cell(self, name: str, sheet: Any, row: int, column: int) -> float | str | None:
        key = (name, row, column)
        cell = self._cells.get(key)
        if cell is None:
            cell = self._cells[key] = sheet.getCellByPosition(column, row)
        err = cell.getError()
        return f"#ERR:{err}" if err else read_cell(cell)

    def sheet(self, name: str, sheet: Any) -> list[list[Any]]:
        found = []
        for where in sheet.queryContentCells(_FORMULA_CELLS).getRangeAddresses():
            block = sheet.getCellRangeByPosition(
                where.StartColumn, where.StartRow, where.EndColumn, where.EndRow
            )
            for r, row in enumerate(block.getDataArray(), start=where.StartRow):
                for c, value in enumerate(row, start=where.StartColumn):
                    if isinstance(value, float):
                        value = number(value)
                    elif not isinstance(value, str):
                        value = self.one_cell(name, sheet, r, c)
                    found.append([r, c, value])
        return found


def formula_values(desktop: Any, req: dict[str, Any]) -> list[dict[str, list[list[Any]]]]:
    """Each scenario sets named inputs as ``evaluate`` does, recalculates, and reads every formula cell
    of every sheet: {sheet name: [[row, column, value], ...]}."""
    doc = Document(desktop, req["path"])
    try:
        sheets = doc.doc.Sheets
        every = [(sheet.getName(), sheet) for sheet in map(sheets.getByIndex, range(sheets.getCount()))]
        reader = FormulaReader()
        return per_scenario(
            doc, req.get("scenarios", []), lambda: {name: reader.sheet(name, sheet) for name, sheet in every}
        )
    finally:
        doc.close()


def cells(desktop: Any, req: dict[str, Any]) -> list[Any]:
    """Recalculate and read sheet cells; with "scenarios", once per scenario (named inputs set as in
    ``evaluate``), one list of values each."""
    doc = Document(desktop, req["path"])
    try:
        targets = [doc.sheet_cell(sheet, ref) for sheet, ref in req.get("cells", [])]
        if "scenarios" not in req:
            doc.doc.calculateAll()
            return [read_cell(cell) for cell in targets]
        return per_scenario(doc, req["scenarios"], lambda: [read_cell(cell) for cell in targets])
    finally:
        doc.close()


def fill_columns(doc: Document, scenario: dict[str, list[Any]]) -> None:
    """Fill each named column with its entries (typed as at the keyboard). Named columns side by side
    on one sheet, over the same rows, are filled in one call: the same cells get the same entries, but
    the office takes one change (working out the rows it touches once) instead of one per column."""
    columns = [(name, doc.named_range(name), entries) for name, entries in scenario.items()]
    blocks: dict[tuple[int, int, int], dict[int, list[Any]]] = {}
    for _, cells, entries in columns:
        where = cells.getRangeAddress()
        block = blocks.setdefault((where.Sheet, where.StartRow, where.EndRow), {})
        if (
            where.StartColumn != where.EndColumn
            or len(entries) != where.EndRow - where.StartRow + 1
            or where.StartColumn in block
        ):  # not one whole column each: one call per name, as given (a wrong size is refused)
            for _, one, values in columns:
                one.setFormulaArray(tuple((str(v),) for v in values))
            return
        block[where.StartColumn] = entries
    sheets = doc.doc.Sheets
    for (sheet, first_row, last_row), block in blocks.items():
        runs: list[list[int]] = []
        for col in sorted(block):
            if runs and runs[-1][-1] == col - 1:
                runs[-1].append(col)
            else:
                runs.append([col])
        for run in runs:
            target = sheets.getByIndex(sheet).getCellRangeByPosition(run[0], first_row, run[-1], last_row)
            rows = zip(*(block[col] for col in run), strict=True)
            target.setFormulaArray(tuple(tuple(str(v) for v in row) for row in rows))


def evaluate_ranges(desktop: Any, req: dict[str, Any]) -> list[dict[str, Any]]:
    """Each scenario fills whole named columns (one entry per cell, typed as at the keyboard; ""
    empties the cell), recalculates, and reads whole named columns. A column that already holds the
    entries it is given (an earlier scenario filled it so) is left as it is."""
    doc = Document(desktop, req["path"])
    try:
        outputs = [(name, doc.named_range(name)) for name in req.get("outputs", [])]
        held: dict[str, list[str]] = {}
        results = []
        for number, scenario in enumerate(req.get("scenarios", [])):
            entries = {name: [str(v) for v in values] for name, values in scenario.items()}
            fill_columns(doc, {name: typed for name, typed in entries.items() if held.get(name) != typed})
            held |= entries
            recalculate(doc, first=number == 0)
            # getDataArray: numbers (TRUE/FALSE as 1/0) and texts in one call; an error reads as ""
            results.append({name: [row[0] for row in cells.getDataArray()] for name, cells in outputs})
        return results
    finally:
        doc.close()


def keystrokes(desktop: Any, req: dict[str, Any]) -> list[float]:
    """What a GM waits for at each keystroke: for each edit [name, index, entry] (the index-th cell of
    a defined name, typed as at the keyboard), the edit, the recalculation of what it made dirty and
    the reading of the answer cell [name, index], timed here in seconds."""
    doc = Document(desktop, req["path"])
    try:
        doc.doc.calculateAll()
        answer_name, answer_index = req["answer"]
        answer = doc.named_range(answer_name).getCellByPosition(0, int(answer_index))
        times = []
        for name, index, entry in req["edits"]:
            cell = doc.named_range(name).getCellByPosition(0, int(index))
            start = time.perf_counter()
            cell.setFormula(str(entry))
            doc.doc.calculate()
            read_cell(answer)
            times.append(time.perf_counter() - start)
        return times
    finally:
        doc.close()


def threaded_calculation() -> bool:
    """Whether the soffice calculates formula groups on several threads (Tools > Options >
    LibreOffice Calc > Calculate, "Enable multi-threaded calculation"; on by default)."""
    ctx = _OFFICE["context"]
    config = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx
    )
    node = config.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess",
        (prop("nodepath", "/org.openoffice.Office.Calc/Formula/Calculation"),),
    )
    return bool(node.getByName("UseThreadedCalculationForFormulaGroups"))


def type_columns(doc: Document, scenario: dict[str, list[Any]]) -> None:
    """Each named column's entries typed one cell at a time, as a GM types them (automatic
    calculation on: each entry recalculates what it made dirty). A cell already holding its entry is
    left alone."""
    for name, entries in scenario.items():
        column = doc.named_range(name)
        for k, entry in enumerate(entries):
            cell = column.getCellByPosition(0, k)
            if cell.getFormula() != str(entry):
                cell.setFormula(str(entry))


def hard_readings(desktop: Any, req: dict[str, Any]) -> dict[str, Any]:
    """Each scenario read three times: as entered, after a Recalculate Hard (Ctrl+Shift+F9), after a
    second one. Entered: typed cell by cell ("typed"), or filled as ``evaluate_ranges`` fills, saved
    to "saved_as" and that file opened again (LibreOffice recalculates it on loading)."""
    readings = []
    for scenario in req.get("scenarios", []):
        doc = Document(desktop, req["path"])
        try:
            if req.get("typed"):
                type_columns(doc, scenario)
            else:
                fill_columns(doc, {name: [str(v) for v in values] for name, values in scenario.items()})
                saved = uno.systemPathToFileUrl(os.path.abspath(req["saved_as"]))
                doc.doc.storeToURL(saved, (prop("FilterName", "Calc MS Excel 2007 XML"),))
                doc.close()
                doc = Document(desktop, req["saved_as"])
            outputs = [(name, doc.named_range(name)) for name in req.get("outputs", [])]
            found = []
            for hard in range(3):
                if hard:
                    doc.doc.calculateAll()
                found.append({name: [row[0] for row in cells.getDataArray()] for name, cells in outputs})
            readings.append(found)
        finally:
            doc.close()
    return {"threaded": threaded_calculation(), "readings": readings}


def terminate(desktop: Any) -> None:
    try:
        desktop.terminate()
    except Exception as exc:  # the bridge drops as soffice exits
        log(f"terminate: {exc}")


def serve(desktop: Any) -> None:
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            cmd = req.get("cmd")
            if cmd == "quit":
                send({"ok": True, "results": []})
                if req.get("terminate", True):
                    terminate(desktop)
                return
            if cmd == "evaluate":
                send({"ok": True, "results": evaluate(desktop, req)})
            elif cmd == "ranges":
                send({"ok": True, "results": evaluate_ranges(desktop, req)})
            elif cmd == "hard":
                send({"ok": True, "results": hard_readings(desktop, req)})
            elif cmd == "formulas":
                send({"ok": True, "results": formula_values(desktop, req)})
            elif cmd == "cells":
                send({"ok": True, "results": cells(desktop, req)})
            elif cmd == "keystrokes":
                send({"ok": True, "results": keystrokes(desktop, req)})
            elif cmd == "ping":
                send({"ok": True, "results": []})
            else:
                send({"ok": False, "error": f"unknown command {cmd!r}"})
        except RequestError as exc:
            send({"ok": False, "error": str(exc)})
        except Exception as exc:  # report, keep serving
            log(f"request failed: {exc!r}")
            send({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
    # stdin closed without "quit": the parent is gone, do not leave soffice behind.
    terminate(desktop)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for soffice")
    args = parser.parse_args(argv)
    try:
        desktop = connect(args.port, args.timeout)
    except Exception as exc:
        send({"ok": False, "error": str(exc)})
        return 1
    send({"ok": True, "ready": True})
    serve(desktop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
