#!/usr/bin/env bash
# Build every workbook and its PDFs: tables/*/ -> workbook/. Extra arguments go to build.py (see --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ensure-env.sh"
cd "$ROOT"
exec "$PY" build.py --pdf "$@"
