# shellcheck shell=bash
# Shared by install.sh, up.sh and down.sh (sourced, not run). Paths are derived from this file's
# location so the scripts behave the same whatever the caller's working directory is.

RGW_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RGW_REPO=$(cd "$RGW_HERE/../.." && pwd)
# Absolute, because daemons are recognised by the config path on their command line (see below).
RGW_ROOT=$(realpath -m "${RGW_ROOT:-$RGW_REPO/var/radosgw/root}")
RGW_DIR=$(realpath -m "${RGW_DIR:-$RGW_REPO/var/radosgw/cluster}")

rgw_die() { echo "radosgw: $*" >&2; exit 1; }

# Microsecond clock; EPOCHREALTIME avoids forking `date` in the poll loops.
rgw_now() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
rgw_secs_since() { local d=$(($(rgw_now) - $1)); printf '%d.%01d' $((d / 1000000)) $((d % 1000000 / 100000)); }

# The binaries are unpacked, not installed, so the dynamic loader, PATH and Python must be pointed
# into the tree. Scoped to one command so Node and the tests never see these variables.
rgw_exec() {
  local r=$RGW_ROOT
  env -u CEPH_ARGS -u CEPH_CONF \
    LD_LIBRARY_PATH="$r/usr/lib/x86_64-linux-gnu:$r/usr/lib/x86_64-linux-gnu/ceph:$r/lib/x86_64-linux-gnu:$r/usr/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    PYTHONPATH="$r/usr/lib/python3/dist-packages" \
    PATH="$r/usr/bin:$r/usr/sbin:$PATH" \
    "$@"
}

# The `ceph` CLI is Python and imports Debian's compiled rados binding (built for Debian's 3.11), so
# Debian's own interpreter is preferred over whatever python3 (pyenv, venv) is first on PATH.
rgw_python() {
  if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3
  elif [ -x "$RGW_ROOT/usr/bin/python3" ]; then echo "$RGW_ROOT/usr/bin/python3"
  elif command -v python3 >/dev/null 2>&1; then command -v python3
  else return 1
  fi
}

# Something accepts connections on 127.0.0.1:$1 (bash's /dev/tcp: no ss/netstat dependency).
rgw_port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A PID counts as ours only if it is alive and was started with this cluster's ceph.conf, so a stale
# pid file whose number was reused by an unrelated process never gets that process killed.
rgw_is_ours() {
  local pid=$1 a argv=()
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  mapfile -d '' argv <"/proc/$pid/cmdline" 2>/dev/null || return 1
  for a in "${argv[@]}"; do [ "$a" = "$RGW_DIR/ceph.conf" ] && return 0; done
  return 1
}

# Pid files in stop order: the gateway first (it is a client of the OSD), the monitor last.
rgw_pidfiles() {
  local f
  for f in "$RGW_DIR/run/ceph-client.rgw.a.pid" "$RGW_DIR"/run/ceph-osd.*.pid "$RGW_DIR/run/ceph-mon.a.pid"; do
    [ -f "$f" ] && echo "$f"
  done
  return 0
}

rgw_any_alive() {
  local f
  while read -r f; do
    rgw_is_ours "$(cat "$f" 2>/dev/null)" && return 0
  done < <(rgw_pidfiles)
  return 1
}
