#!/usr/bin/env bash
# The Spark suite: python/tests marked `spark`, which race writers in the real Delta Spark (pyspark 4.2.0,
# delta-spark 4.4.0 and the jars of python/spark-jars.lock) through one Spark host, so one JVM, for the module.
# It runs in the environment `npm run setup:python` installed; the counts go to var/test-reports/spark.json.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(node scripts/setup-python.mjs --where)
cd python
SPARK_LOCAL_IP=127.0.0.1 RACELAB_PYTEST_REPORT="$PWD/../var/test-reports/spark.json" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider -m spark
