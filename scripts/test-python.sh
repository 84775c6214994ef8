#!/usr/bin/env bash
# The Python side's checks in the virtual environment `npm run setup:python` installed: ruff (lint and
# format), mypy --strict (python/pyproject.toml), and pytest against the real deltalake and pyiceberg. The
# Spark suite (tests marked `spark`) runs on its own: scripts/test-spark.sh. The test counts go to
# var/test-reports/python.json for scripts/test-summary.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(node scripts/setup-python.mjs --where)
python="$venv/bin/python"
cd python
"$python" -m ruff check .
"$python" -m ruff format --check .
"$python" -m mypy
RACELAB_PYTEST_REPORT="$PWD/../var/test-reports/python.json" "$python" -m pytest -q -p no:cacheprovider -m "not spark"
