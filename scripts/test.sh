#!/usr/bin/env bash
# Run every check: lint, the committed workbooks are current, the whole test suite (LibreOffice included).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ensure-env.sh"
cd "$ROOT"
echo "== ruff"
"$VENV/bin/ruff" check pycalc tests bench build.py
"$VENV/bin/ruff" format --check pycalc tests bench build.py
echo "== committed workbooks are current (build.py --check)"
"$PY" build.py --check
echo "== pytest"
exec "$PY" -m pytest -q -n auto --dist worksteal "$@"  # worksteal: an idle worker takes tests queued on a busy one
