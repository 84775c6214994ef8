#!/usr/bin/env bash
# Unpacks Debian 12's radosgw, ceph-mon and ceph-osd (ceph 16.2.15) with their missing dependencies
# into ROOT, without installing anything system-wide: `apt-get install` would run maintainer scripts,
# create a ceph user and enable systemd units, none of which a throwaway test cluster wants.
# Usage: infra/radosgw/install.sh [ROOT]   (default <repo>/var/radosgw/root; a no-op when done)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=${1:-$RGW_ROOT}
PKGS=(radosgw ceph-mon ceph-osd)

[ -x "$ROOT/usr/bin/radosgw" ] && { echo "radosgw: already unpacked in $ROOT"; exit 0; }

T0=$(rgw_now)
rgw_python >/dev/null || rgw_die "python3 not found; the ceph CLI used by up.sh needs it (apt-get install python3)"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || rgw_die "needs apt-get and dpkg-deb (Debian 12)"

mkdir -p "$(dirname "$ROOT")"
# Two test runs starting together must not unpack over each other; the loser waits, then sees the
# finished tree and leaves.
exec 9>"$ROOT.lock"
flock 9
[ -x "$ROOT/usr/bin/radosgw" ] && { echo "radosgw: already unpacked in $ROOT"; exit 0; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/radosgw-debs.XXXXXX")
STAGE="$ROOT.partial.$$"
trap 'rm -rf "$TMP" "$STAGE"' EXIT
# apt drops to the _apt user to download; give it the folder so it doesn't fall back to root
# with a warning.
[ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1 && chown _apt "$TMP"

# The simulation lists exactly what this machine lacks; pinning name=version keeps the download
# consistent with it. Packages already installed system-wide are used from the system.
resolve() {
  apt-get install -s "${PKGS[@]}" 2>/dev/null | awk '/^Inst /{ v = $3; sub(/^\(/, "", v); print $2 "=" v }'
}
LIST=""
fetch() {
  LIST=$(resolve) && [ -n "$LIST" ] || return 1
  # shellcheck disable=SC2086
  (cd "$TMP" && apt-get download -q $LIST >"$TMP/download.log" 2>&1)
}

# The package lists are usually fresh enough; refreshing costs time and needs root, so only do it
# when resolving or downloading fails (lists missing, or versions gone from the mirror).
if ! fetch; then
  echo "radosgw: download from the current package lists failed; running apt-get update"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  # Unreachable third-party sources make update exit non-zero even when Debian's lists were refreshed.
  $SUDO apt-get update -qq || echo "radosgw: apt-get update reported errors (continuing)"
  rm -f "$TMP"/*.deb
  if ! fetch; then
    [ -n "$(resolve)" ] || rgw_die "apt-get install -s ${PKGS[*]} lists nothing to fetch (already installed system-wide, or unknown to apt)"
    cat "$TMP/download.log" >&2; rgw_die "apt-get download failed"
  fi
fi
shopt -s nullglob; DEBS=("$TMP"/*.deb); shopt -u nullglob
T1=$(rgw_now)
echo "radosgw: downloaded ${#DEBS[@]} packages ($(du -sm "$TMP" | cut -f1) MB) in $(rgw_secs_since "$T0") s"

# Unpack into a staging folder and move it into place at the end, so an interrupted run never
# leaves a ROOT that has usr/bin/radosgw (the "done" marker) but lacks libraries. Packages never
# share files, so unpacking them in parallel is safe and roughly halves the time (xz-bound).
mkdir -p "$STAGE"
printf '%s\0' "${DEBS[@]}" | xargs -0 -I{} -P "$(nproc)" dpkg-deb -x {} "$STAGE"
echo "$LIST" >"$STAGE/.racelab-packages"
[ -x "$STAGE/usr/bin/radosgw" ] || rgw_die "unpacked tree has no usr/bin/radosgw"
if [ -d "$ROOT" ] && [ -n "$(ls -A "$ROOT")" ]; then
  cp -a "$STAGE/." "$ROOT/"
else
  rmdir "$ROOT" 2>/dev/null || true
  mv "$STAGE" "$ROOT"
fi

# Catch an interpreter/binding mismatch here rather than as an obscure failure inside up.sh.
PY=$(rgw_python)
RGW_ROOT=$ROOT rgw_exec "$PY" -c 'import rados' \
  || rgw_die "$PY cannot import Debian's rados binding from $ROOT (needs Debian's python 3.11)"

echo "radosgw: unpacked into $ROOT ($(du -sm "$ROOT" | cut -f1) MB) in $(rgw_secs_since "$T1") s; total $(rgw_secs_since "$T0") s"
