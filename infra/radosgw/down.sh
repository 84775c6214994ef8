#!/usr/bin/env bash
# Stops the cluster started by up.sh in $RGW_DIR, by its pid files: gateway, then OSD, then
# monitor, each waited for before the next so none is left retrying against a peer that is gone.
# Safe to run when nothing is running. Logs stay in $RGW_DIR/log for post-mortems.
#   env: RGW_DIR (<repo>/var/radosgw/cluster)  RGW_STOP_TIMEOUT (seconds before SIGKILL, 10)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TIMEOUT=${RGW_STOP_TIMEOUT:-10}

[ -d "$RGW_DIR/run" ] || exit 0

# An exited daemon stays a zombie until init reaps it; give init a moment so that a `pgrep` right
# after this script finds nothing, but don't depend on it (some container inits never reap).
reaped() { local i; for i in $(seq 1 20); do [ -e "/proc/$1" ] || return 0; sleep 0.05; done; }

# Returns once $1 is gone; polls because these daemons are not our children (they daemonize), so
# `wait` can't be used.
stop_pid() {
  local pid=$1 name=$2 t0 i
  t0=$(rgw_now)
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 $((TIMEOUT * 10))); do
    rgw_is_ours "$pid" || { STOPPED+=("$pid"); echo "radosgw: stopped $name (pid $pid) in $(rgw_secs_since "$t0") s"; return 0; }
    sleep 0.1
  done
  echo "radosgw: $name (pid $pid) ignored SIGTERM for $TIMEOUT s; sending SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do rgw_is_ours "$pid" || { STOPPED+=("$pid"); return 0; }; sleep 0.1; done
  echo "radosgw: $name (pid $pid) is still alive" >&2
  return 1
}

failed=0
STOPPED=()
while read -r f; do
  pid=$(cat "$f" 2>/dev/null || true)
  name=$(basename "$f" .pid)
  if rgw_is_ours "$pid"; then stop_pid "$pid" "$name" || failed=1; fi
  rm -f "$f"
done < <(rgw_pidfiles)

# A daemon that died before writing its pid file (an interrupted up.sh) is still recognisable by the
# exact config path on its command line; nothing else on the machine is matched.
for d in /proc/[0-9]*; do
  pid=${d#/proc/}
  [ "$pid" != $$ ] && rgw_is_ours "$pid" || continue
  mapfile -d '' argv <"$d/cmdline" 2>/dev/null || continue
  stop_pid "$pid" "${argv[0]##*/} (no pid file)" || failed=1
done

for pid in "${STOPPED[@]}"; do reaped "$pid"; done
exit "$failed"
