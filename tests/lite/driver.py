"""Run inside Pyodide by tests/lite/run_bundle.js: import the bundle's main.py (with the xlwings
stand-in), call every case of /bundle/cases.json and return the results as JSON text."""

import importlib.util
import json
import sys
import time


def run() -> str:
    sys.path.insert(0, "/bundle")
    yaml_before = importlib.util.find_spec("yaml") is not None
    started = time.perf_counter()
    import main
    import xlwings

    loaded = time.perf_counter() - started
    with open("/bundle/cases.json", encoding="utf-8") as stream:
        cases = json.load(stream)
    results = []
    started = time.perf_counter()
    for case in cases:
        function = getattr(main, case["function"], None)
        if function is None or case["function"] not in xlwings.REGISTERED:
            results.append({"missing": True})
            continue
        try:
            results.append({"value": function(*case["args"])})
        except BaseException as error:
            results.append({"raised": f"{type(error).__name__}: {error}"})
    return json.dumps(
        {
            "python": sys.version.split()[0],
            "yaml_available": yaml_before,
            "yaml_imported": "yaml" in sys.modules,
            "registered": xlwings.REGISTERED,
            "load_seconds": loaded,
            "call_seconds": time.perf_counter() - started,
            "results": results,
        }
    )


run()
