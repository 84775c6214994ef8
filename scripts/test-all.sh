#!/usr/bin/env bash
# Every test of the repository, from a fresh clone after `npm ci`: lint and format, type checks,
# unit and integration tests of every package, and the apps' builds. It installs what the tests
# need when it is missing: the pinned Python side from PyPI (npm run setup:python), and from Debian's
# apt Chromium for the dashboard, strace for the durability tests, radosgw's packages (unpacked under
# var/radosgw, not installed) for the S3 tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1

# The dashboard's end-to-end tests drive Debian's Chromium (never a downloaded browser); the
# durability tests read a real writer's fsyncs with strace; the Spark suite runs Delta Spark on Java 17.
bash scripts/ensure-apt.sh chromium=chromium strace=strace java=openjdk-17-jre-headless

rm -rf var/test-reports
# The pinned Python side (the real delta-rs, pyiceberg and Delta Spark with its jars), installed once per
# lock file outside the clone, and its own checks.
npm run -s setup:python
bash scripts/test-python.sh
# The real Delta Spark (one Spark host, one JVM) races its writers: a few minutes.
bash scripts/test-spark.sh
npx biome check --error-on-warnings .
npx turbo run typecheck test build --output-logs=errors-only --concurrency=1
# The S3 suites need a real S3 server: radosgw from Debian's packages, started and stopped around them.
npm run test:s3
node scripts/test-summary.mjs var/test-reports
