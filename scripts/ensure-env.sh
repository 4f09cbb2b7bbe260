# Sourced by scripts/build.sh and scripts/test.sh: make sure everything the project needs is here.
# - .venv/ at the project root with pycalc and its test tools (created or refreshed when pyproject changes)
# - LibreOffice (with a window: libreoffice-calc) + python3-uno, Gnumeric, poppler-utils, fonts-liberation,
#   Xvfb, xdotool and ImageMagick for the window tests (through apt, when missing and root)
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

# LibreOffice headless (recalculation, PDFs, UNO), Gnumeric (a second engine checking the formulas),
# poppler (reading the PDFs) and the Liberation fonts (Arial's metrics, as the workbooks use Arial).
missing_system_packages() {
  local missing=()
  { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import uno' 2>/dev/null; } || missing+=(python3-uno)
  command -v pdfinfo >/dev/null 2>&1 || missing+=(poppler-utils)
  command -v ssconvert >/dev/null 2>&1 || missing+=(gnumeric)
  fc-list : family 2>/dev/null | grep -i "Liberation Sans" >/dev/null || missing+=(fonts-liberation)
  # the window tests (tests/test_gui_window.py) type into a real LibreOffice window under Xvfb:
  # a LibreOffice with its gen VCL plugin (libreoffice-calc, not -nogui), Xvfb, xdotool, ImageMagick
  if ! ls "$(dirname "$(readlink -f "$(command -v soffice || echo /nonexistent)")")"/libvclplug_gen* \
       >/dev/null 2>&1; then
    missing+=(libreoffice-calc)
  fi
  command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
  command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)
  command -v import >/dev/null 2>&1 || missing+=(imagemagick)
  echo "${missing[@]}"
}
missing="$(missing_system_packages)"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing $missing (about a minute) ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing fonts-dejavu-core >/dev/null
  else
    echo "warning: missing system packages: $missing. The tests that need them will be skipped" \
         "(or fail under CI). Install them with apt-get install --no-install-recommends $missing." >&2
  fi
fi

# Pyodide (the npm package) for tests/test_lite_bundle.py, which runs the xlwings Lite bundles in it
# under Node: installed into .venv/node (npm install --prefix), once per version.
PYODIDE_VERSION="314.0.7"
NODE_PREFIX="$VENV/node"
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  installed="$NODE_PREFIX/node_modules/pyodide/package.json"
  if [ ! -f "$installed" ] || ! grep -q "\"version\": \"$PYODIDE_VERSION\"" "$installed"; then
    echo "installing pyodide@$PYODIDE_VERSION into $NODE_PREFIX (npm) ..."
    mkdir -p "$NODE_PREFIX"
    npm install --prefix "$NODE_PREFIX" --no-audit --no-fund --silent "pyodide@$PYODIDE_VERSION" ||
      echo "warning: npm could not install pyodide: tests/test_lite_bundle.py will be skipped" \
           "(or fail under CI)" >&2
  fi
else
  echo "warning: Node.js/npm missing: tests/test_lite_bundle.py (xlwings Lite bundles in Pyodide) will be" \
       "skipped (or fail under CI). Install Node.js 20+ (apt-get install nodejs npm)." >&2
fi

# LibreOffice 25.2 (bookworm-backports) unpacked into .venv/lo25 beside the system LibreOffice, for the
# extension's tests (tests/test_oxt_libreoffice.py): scripts/ensure-lo25.sh, once.
# shellcheck source=ensure-lo25.sh
source "$ROOT/scripts/ensure-lo25.sh"
