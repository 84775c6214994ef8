#!/usr/bin/env bash
# Starts a throwaway single-node Ceph (monitor + memstore OSD + radosgw) on 127.0.0.1 from the tree
# unpacked by install.sh, creates an S3 user and one bucket, and writes the client environment to
# $RGW_DIR/env (mode 0600: it holds the secret key). Every start is a fresh cluster: the OSD keeps
# objects in memory only.
#   env: RGW_DIR (<repo>/var/radosgw/cluster)  RGW_PORT (7480)  RGW_MON_PORT (6789, or the next
#        free one when not set)  RGW_ACCESS_KEY (racelab)  RGW_SECRET_KEY (random per start)
#        RGW_BUCKET (racelab)  RGW_ROOT (<repo>/var/radosgw/root)  RGW_TCP_NODELAY (1; 0 brings back
#        the ~40 ms stall on every GET and LIST, to measure it)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT=${RGW_PORT:-7480}
ACCESS_KEY=${RGW_ACCESS_KEY:-racelab}
# No fixed secret: a new random one per cluster unless the caller brings its own.
SECRET_KEY=${RGW_SECRET_KEY:-$(head -c 30 /dev/urandom | base64 | tr -d '/+=\n')}
BUCKET=${RGW_BUCKET:-racelab}
NODELAY=${RGW_TCP_NODELAY:-1}
[[ $NODELAY =~ ^[01]$ ]] || rgw_die "RGW_TCP_NODELAY must be 0 or 1, not '$NODELAY'"
CONF=$RGW_DIR/ceph.conf
LOG=$RGW_DIR/log/startup.log
T0=$(rgw_now)

[ -x "$RGW_ROOT/usr/bin/radosgw" ] || rgw_die "nothing unpacked in $RGW_ROOT; run infra/radosgw/install.sh first"
PY=$(rgw_python) || rgw_die "python3 not found (the ceph CLI needs it)"

if rgw_any_alive; then
  echo "radosgw: a cluster from $RGW_DIR is still running; stopping it first"
  bash "$RGW_HERE/down.sh"
fi

rgw_port_busy "$PORT" && rgw_die "127.0.0.1:$PORT is already in use (set RGW_PORT)"
if [ -n "${RGW_MON_PORT:-}" ]; then
  MON_PORT=$RGW_MON_PORT
  rgw_port_busy "$MON_PORT" && rgw_die "127.0.0.1:$MON_PORT is already in use (RGW_MON_PORT)"
else
  # Stay below 6800: the OSD picks its own ports from 6800-7300.
  MON_PORT=""
  for p in 6789 6790 6791 6792 6793 6794 6795 6796 6797 6798 6799; do
    rgw_port_busy "$p" || { MON_PORT=$p; break; }
  done
  [ -n "$MON_PORT" ] || rgw_die "no free monitor port in 6789-6799 (set RGW_MON_PORT)"
fi

# Remove only what this script creates, so a mistyped RGW_DIR can't wipe unrelated files.
mkdir -p "$RGW_DIR"
rm -rf "${RGW_DIR:?}"/{ceph.conf,monmap,keyring,env,mon,osd,run,log,rgw}
mkdir -p "$RGW_DIR"/{mon/ceph-a,osd,run,log,rgw}

# On any failure: show why, and don't leave half a cluster running. An EXIT trap rather than ERR:
# with `set -e`, a failure inside a function exits from there, where an ERR trap doesn't run.
STARTED=""
on_exit() {
  local rc=$?
  [ -n "$STARTED" ] && return 0
  [ "$rc" -ne 0 ] || rc=1
  echo "radosgw: start failed (exit $rc); last lines of the logs in $RGW_DIR/log:" >&2
  tail -n 5 "$RGW_DIR"/log/*.log >&2 2>/dev/null || true
  bash "$RGW_HERE/down.sh" >&2 || true
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Daemons write their pid file after forking into the background; later steps and down.sh rely on it.
wait_pidfile() {
  local f=$RGW_DIR/run/$1.pid i
  for i in $(seq 1 100); do
    [ -s "$f" ] && rgw_is_ours "$(cat "$f")" && return 0
    sleep 0.1
  done
  echo "radosgw: $1 did not start (no live pid in $f)" >&2
  return 1
}

FSID=$(cat /proc/sys/kernel/random/uuid)
R=$RGW_ROOT
# Why these settings:
# - auth none: loopback-only throwaway cluster, so no keyrings to create and hand to every client;
# - msgr v1 only, public/cluster addr 127.0.0.1: a single port per daemon, nothing on other interfaces;
# - memstore: no block device or file-backed store to prepare, and nothing to clean up on disk;
# - pool size 1 / 8 PGs / no autoscaler: one OSD must be enough for every pool radosgw creates;
# - paxos propose interval 0.1 (default 1 s): radosgw creates its pools one after another at first
#   start and each waits for a monitor proposal; this takes the start from ~15 s to ~3 s;
# - plugin/class dirs: compiled-in paths point at /usr/lib, which this unpacked tree is not;
# - cluster log into $RGW_DIR/log: the monitor would otherwise try /var/log/ceph;
# - no lifecycle threads: no test needs expiry rules, and their 5 s lock-retry sleeps held up the
#   gateway's shutdown by up to ~10 s;
# - beast tcp_nodelay=1: without it every GET and LIST took ~48 ms against 3-5 ms for HEAD and PUT,
#   the answers without a body: a body sent in a second write waits, under Nagle's algorithm, for
#   the client's delayed ACK of the first (~40 ms on Linux). With it, LIST and GET take 2-4 ms.
cat >"$CONF" <<CONF
[global]
fsid = $FSID
mon host = v1:127.0.0.1:$MON_PORT
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
run dir = $RGW_DIR/run
admin socket = $RGW_DIR/run/\$cluster-\$name.asok
log file = $RGW_DIR/log/\$cluster-\$name.log
pid file = $RGW_DIR/run/\$cluster-\$name.pid
erasure code dir = $R/usr/lib/x86_64-linux-gnu/ceph/erasure-code
plugin dir = $R/usr/lib/x86_64-linux-gnu/ceph
osd class dir = $R/usr/lib/x86_64-linux-gnu/rados-classes
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon max pg per osd = 1000
osd crush chooseleaf type = 0
paxos propose interval = 0.1
mon cluster log file = $RGW_DIR/log/\$cluster.\$channel.log

[mon]
mon data = $RGW_DIR/mon/\$cluster-\$id

[osd]
osd data = $RGW_DIR/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = 1073741824

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT tcp_nodelay=$NODELAY
rgw data = $RGW_DIR/rgw
rgw enable lc threads = false
CONF

# Monitor.
rgw_exec monmaptool --create --fsid "$FSID" --add a "v1:127.0.0.1:$MON_PORT" "$RGW_DIR/monmap" >>"$LOG" 2>&1
rgw_exec ceph-authtool --create-keyring "$RGW_DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >>"$LOG" 2>&1
rgw_exec ceph-mon -c "$CONF" --mkfs -i a --monmap "$RGW_DIR/monmap" --keyring "$RGW_DIR/keyring" >>"$LOG" 2>&1
rgw_exec ceph-mon -c "$CONF" -i a </dev/null >>"$LOG" 2>&1
wait_pidfile ceph-mon.a

# OSD: registering it with the monitor needs the Python `ceph` CLI (there is no C++ equivalent).
OSD_UUID=$(cat /proc/sys/kernel/random/uuid)
OSD_ID=$(rgw_exec timeout 60 "$PY" "$R/usr/bin/ceph" -c "$CONF" --connect-timeout 30 osd new "$OSD_UUID" 2>>"$LOG")
mkdir -p "$RGW_DIR/osd/ceph-$OSD_ID"
rgw_exec ceph-osd -c "$CONF" -i "$OSD_ID" --mkfs --osd-uuid "$OSD_UUID" </dev/null >>"$LOG" 2>&1
# In roughly 1 start in 7 here, the OSD's first command to the monitor (sent within ~0.3 s of
# `osd new`) carries a zero fsid; the monitor answers "wrong fsid" and the OSD exits during init.
# The condition is transient: immediate restarts hit it again, restarts 0.5-1 s later got through.
for delay in 0.5 1 2 4 8 ""; do
  rgw_exec ceph-osd -c "$CONF" -i "$OSD_ID" </dev/null >>"$LOG" 2>&1 && break
  [ -n "$delay" ] || { echo "radosgw: the OSD kept failing during init" >&2; false; }
  echo "radosgw: the OSD exited during init; starting it again in $delay s" | tee -a "$LOG" >&2
  sleep "$delay"
done
wait_pidfile "ceph-osd.$OSD_ID"

# Gateway. It opens its HTTP port only after creating its pools, which needs a working OSD, so the
# port answering is the readiness signal for the whole stack (curl, when present, also checks that
# it speaks HTTP).
rgw_exec radosgw -c "$CONF" -n client.rgw.a </dev/null >>"$LOG" 2>&1
wait_pidfile ceph-client.rgw.a
RGW_PID=$(cat "$RGW_DIR/run/ceph-client.rgw.a.pid")
ready=""
for i in $(seq 1 240); do
  if rgw_port_busy "$PORT"; then
    ! command -v curl >/dev/null || curl -s -o /dev/null -m 2 "http://127.0.0.1:$PORT/" && { ready=1; break; }
  fi
  rgw_is_ours "$RGW_PID" || { echo "radosgw: the gateway exited during startup" >&2; false; }
  sleep 0.25
done
[ -n "$ready" ] || { echo "radosgw: 127.0.0.1:$PORT did not answer within 60 s" >&2; false; }

rgw_exec radosgw-admin -c "$CONF" user create --uid=racelab --display-name=racelab \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >>"$LOG" 2>&1

# radosgw-admin can't create buckets (only link/unlink them), so use a signed S3 request; the SDK
# is already a dependency of the repository, which keeps curl-based SigV4 signing out of here.
(cd "$RGW_REPO" && RGW_PORT=$PORT RGW_ACCESS_KEY=$ACCESS_KEY RGW_SECRET_KEY=$SECRET_KEY RGW_BUCKET=$BUCKET \
  node --input-type=module -e '
    const { S3Client, CreateBucketCommand } = await import("@aws-sdk/client-s3");
    const e = process.env;
    const s3 = new S3Client({ endpoint: `http://127.0.0.1:${e.RGW_PORT}`, region: "us-east-1", forcePathStyle: true,
      credentials: { accessKeyId: e.RGW_ACCESS_KEY, secretAccessKey: e.RGW_SECRET_KEY } });
    try { await s3.send(new CreateBucketCommand({ Bucket: e.RGW_BUCKET })); }
    catch (err) { if (err.name !== "BucketAlreadyOwnedByYou") throw err; }
  ') >>"$LOG" 2>&1

ENDPOINT=http://127.0.0.1:$PORT
( umask 077
{
  echo "# Written by infra/radosgw/up.sh for the cluster in $RGW_DIR; source it."
  printf 'export AWS_ENDPOINT_URL=%q\n' "$ENDPOINT"
  printf 'export AWS_ACCESS_KEY_ID=%q\n' "$ACCESS_KEY"
  printf 'export AWS_SECRET_ACCESS_KEY=%q\n' "$SECRET_KEY"
  printf 'export AWS_REGION=%q\n' us-east-1
  printf 'export LAB_S3_BUCKET=%q\n' "$BUCKET"
} >"$RGW_DIR/env" )
PIDS=()
for f in "$RGW_DIR"/run/ceph-mon.a.pid "$RGW_DIR"/run/ceph-osd.*.pid "$RGW_DIR"/run/ceph-client.rgw.a.pid; do
  n=${f##*/ceph-}; PIDS+=("${n%.pid}=$(cat "$f")")
done
echo "radosgw: up in $(rgw_secs_since "$T0") s on $ENDPOINT (monitor 127.0.0.1:$MON_PORT; pids: ${PIDS[*]})"
echo "radosgw: bucket '$BUCKET' ready; client env (also in $RGW_DIR/env):"
echo "AWS_ENDPOINT_URL=$ENDPOINT AWS_ACCESS_KEY_ID=$ACCESS_KEY AWS_SECRET_ACCESS_KEY=(in the env file) AWS_REGION=us-east-1 LAB_S3_BUCKET=$BUCKET"
STARTED=1
