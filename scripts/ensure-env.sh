# Sourced by scripts/build.sh and scripts/test.sh: make sure everything the project needs is here.
# - .venv/ at the project root with pycalc and its test tools (created or refreshed when pyproject changes)
# - LibreOffice headless + python3-uno + poppler-utils (through apt, when missing and root)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "error: Python 3.11 or newer is needed" >&2; return 1
}

if [ ! -x "$PY" ]; then
  echo "setting up $VENV ..."
  "$(pick_python)" -m venv "$VENV"
fi
stamp="$VENV/.pycalc-installed"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
  "$PY" -m pip install --quiet --disable-pip-version-check -e "$ROOT[test]"
  touch "$stamp"
fi

have_libreoffice() {
  command -v soffice >/dev/null 2>&1 && [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import uno' 2>/dev/null &&
    command -v pdfinfo >/dev/null 2>&1
}
if ! have_libreoffice; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing LibreOffice headless (about 20 s) ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends \
      libreoffice-calc-nogui python3-uno poppler-utils fonts-dejavu-core >/dev/null
  else
    echo "warning: LibreOffice headless is missing and this is not root: the LibreOffice tests will" \
         "be skipped (or fail under CI). Install libreoffice-calc-nogui python3-uno poppler-utils." >&2
  fi
fi
