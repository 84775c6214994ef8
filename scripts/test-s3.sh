#!/usr/bin/env bash
# S3 integration tests against a real S3 implementation: Debian's radosgw (ceph 16.2.15) on a
# throwaway single-node cluster on 127.0.0.1, unpacked under var/radosgw on first use (no system
# install, no Docker). The cluster is always stopped afterwards; the exit code is the tests'.
# Usage: scripts/test-s3.sh [command …]   (default: every S3 suite, the vitest project s3)
set -euo pipefail
cd "$(dirname "$0")/.."
# up.sh, down.sh and this script must agree on the cluster folder (it holds the env file).
export RGW_DIR=${RGW_DIR:-$PWD/var/radosgw/cluster}

finish() {
  local rc=$?
  trap - EXIT
  bash infra/radosgw/down.sh || { echo "test-s3: stopping radosgw failed" >&2; [ "$rc" -ne 0 ] || rc=1; }
  exit "$rc"
}
trap finish EXIT
# Without these, bash would die on Ctrl-C/SIGTERM without running the EXIT trap's cleanup.
trap 'exit 130' INT
trap 'exit 143' TERM

bash infra/radosgw/install.sh
bash infra/radosgw/up.sh
# shellcheck source=/dev/null
source "$RGW_DIR/env"

[ $# -gt 0 ] || set -- npx vitest run --project s3 --reporter=default --reporter=json --outputFile.json=var/test-reports/s3.json
rc=0
"$@" || rc=$?
exit "$rc"
