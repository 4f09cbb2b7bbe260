// Load one xlwings Lite bundle in Pyodide under Node and call every case on it.
// Usage: node run_bundle.js PYODIDE_DIR MAIN_PY CASES_JSON OUT_JSON
// PYODIDE_DIR is the installed npm package (scripts/ensure-env.sh: .venv/node/node_modules/pyodide).
// Python runs tests/lite/driver.py with tests/lite/xlwings_standin.py as the `xlwings` package;
// OUT_JSON receives the driver's JSON plus the Pyodide version.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const [pyodideDir, mainPy, casesJson, outJson] = process.argv.slice(2);
  const { loadPyodide } = require(path.join(path.resolve(pyodideDir), "pyodide.js"));
  const started = Date.now();
  const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep });
  const startup = (Date.now() - started) / 1000;
  pyodide.FS.mkdirTree("/bundle/xlwings");
  const here = __dirname;
  pyodide.FS.writeFile("/bundle/xlwings/__init__.py", fs.readFileSync(path.join(here, "xlwings_standin.py")));
  pyodide.FS.writeFile("/bundle/main.py", fs.readFileSync(mainPy));
  pyodide.FS.writeFile("/bundle/cases.json", fs.readFileSync(casesJson));
  const report = JSON.parse(pyodide.runPython(fs.readFileSync(path.join(here, "driver.py"), "utf8")));
  report.pyodide = pyodide.version;
  report.startup_seconds = startup;
  fs.writeFileSync(outJson, JSON.stringify(report));
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
