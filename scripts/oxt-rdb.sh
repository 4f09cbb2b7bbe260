#!/usr/bin/env bash
# Rebuild pycalc/oxt_types/gmcombat.rdb (the extension's type library) from pycalc/oxt_types/gmcombat.idl with
# unoidl-write from the LibreOffice SDK (Debian libreoffice-dev). Run after the UDF signatures change
# (`python build.py` rewrites the IDL; tests/test_oxt_types.py says when the two disagree). Uses the
# SDK and LibreOffice 25.2 unpacked under .venv/lo25 (scripts/ensure-lo25.sh) or a system SDK.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
LO25="$VENV/lo25"
WRITE="$LO25/sdk/usr/lib/libreoffice/sdk/bin/unoidl-write.bin"
PROGRAM="$LO25/root/usr/lib/libreoffice/program"
# shellcheck source=ensure-lo25.sh
source "$ROOT/scripts/ensure-lo25.sh"
if [ ! -x "$WRITE" ]; then
  mkdir -p "$LO25/sdkdebs" "$LO25/sdk"
  (cd "$LO25/sdkdebs" && apt-get -qq "${LO25_APT[@]}" download "libreoffice-dev/$LO25_SUITE")
  for deb in "$LO25"/sdkdebs/*.deb; do dpkg -x "$deb" "$LO25/sdk"; done
fi
LD_LIBRARY_PATH="$PROGRAM:$LO25/root/usr/lib/x86_64-linux-gnu" \
  "$WRITE" "$PROGRAM/types.rdb" "$ROOT/pycalc/oxt_types/gmcombat.idl" "$ROOT/pycalc/oxt_types/gmcombat.rdb"
echo "wrote pycalc/oxt_types/gmcombat.rdb"
