# Sourced by scripts/ensure-env.sh: LibreOffice 25.2 (Debian bookworm-backports) unpacked into
# .venv/lo25/root beside the system LibreOffice, which stays untouched (others may be running it): a
# private apt state under .venv/lo25/apt, `apt-get download` and `dpkg -x`. Done once; the marker
# .venv/lo25/root/.complete makes a second run cost nothing. The extension's tests (tests/test_oxt_*.py)
# run .venv/lo25/root/usr/lib/libreoffice/program/soffice with its own profile.
LO25="$VENV/lo25"
LO25_SUITE="bookworm-backports"
# What Calc with the Python loader needs from the backports; apt works out the rest of the closure.
LO25_WANTED="libreoffice-calc-nogui python3-uno libreoffice-script-provider-python"
# Backported base-system packages the unpacked LibreOffice does not need from there.
LO25_SKIP="sysvinit-utils libcom-err2 usrmerge lsb-base"

LO25_APT=(-o "Dir::Etc::SourceList=$LO25/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$LO25/apt/lists" -o "Dir::Cache=$LO25/apt/cache"
          -o "Dir::State::status=$LO25/apt/empty-status" -o "APT::Default-Release=$LO25_SUITE")

ensure_lo25() {
  [ -f "$LO25/root/.complete" ] && return 0
  command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || {
    echo "warning: apt-get/dpkg missing: LibreOffice 25.2 not fetched; the extension tests will be skipped" \
         "(or fail under CI)" >&2; return 0; }
  echo "fetching LibreOffice 25.2 from $LO25_SUITE into $LO25 (once, about 150 MB) ..."
  rm -rf "$LO25/root" "$LO25/debs" "$LO25/sdk" "$LO25/sdkdebs"
  mkdir -p "$LO25/apt/lists/partial" "$LO25/apt/cache/archives/partial" "$LO25/debs" "$LO25/root"
  printf 'deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian %s main\n' \
    "$LO25_SUITE" >"$LO25/apt/sources.list"
  : >"$LO25/apt/empty-status"
  local opts=("${LO25_APT[@]}")
  apt-get -qq "${opts[@]}" update || return 1
  # Against an empty dpkg status, apt lists the whole closure; take what the backports give and what
  # this system lacks (the rest, e.g. libc, is the system's own).
  local pkgs=() name version
  # shellcheck disable=SC2086
  while read -r name version; do
    case " $LO25_SKIP " in *" $name "*) continue ;; esac
    if [[ "$version" == *bpo* ]] || ! dpkg -s "$name" >/dev/null 2>&1; then pkgs+=("$name=$version"); fi
  done < <(apt-get "${opts[@]}" -s install --no-install-recommends $LO25_WANTED |
           awk '/^Inst /{gsub(/[()]/,"",$3); print $2, $3}')
  [ "${#pkgs[@]}" -gt 0 ] || return 1
  (cd "$LO25/debs" && apt-get -qq "${opts[@]}" download "${pkgs[@]}") || return 1
  local deb
  for deb in "$LO25"/debs/*.deb; do dpkg -x "$deb" "$LO25/root" || return 1; done
  # The SDK's unoidl-write (scripts/oxt-rdb.sh, tests/test_oxt_package.py): the type library's check.
  mkdir -p "$LO25/sdkdebs" "$LO25/sdk"
  (cd "$LO25/sdkdebs" && apt-get -qq "${opts[@]}" download "libreoffice-dev/$LO25_SUITE") || return 1
  for deb in "$LO25"/sdkdebs/*.deb; do dpkg -x "$deb" "$LO25/sdk" || return 1; done
  # Debian's absolute links (e.g. share/registry/main.xcd -> /etc/libreoffice/...) would reach the
  # system LibreOffice 7.4's files: point them into the unpacked tree (created empty when missing).
  # main.xcd is the one postinst would copy to /etc.
  local link target
  while IFS= read -r link; do
    target="$(readlink "$link")"
    case "$target" in
      /etc/libreoffice/registry/main.xcd) ln -sfn ../.registry/main.xcd "$link"; continue ;;
      *.conf) mkdir -p "$(dirname "$LO25/root$target")" ;;
      *) mkdir -p "$LO25/root$target" ;;
    esac
    ln -sfn "$LO25/root$target" "$link"
  done < <(find "$LO25/root" -type l -lname '/*')
  # Its bootstrap files name /usr/lib/libreoffice and /etc/libreoffice (the system's 7.4) by URL.
  sed -i -e "s|file:///usr/lib/libreoffice|file://$LO25/root/usr/lib/libreoffice|g" \
         -e "s|file:///etc/libreoffice|file://$LO25/root/etc/libreoffice|g" \
    "$LO25"/root/usr/lib/libreoffice/program/*rc
  touch "$LO25/root/.complete"
}
ensure_lo25 || echo "warning: LibreOffice 25.2 could not be fetched: the extension tests will be skipped" \
                    "(or fail under CI)" >&2
