#!/usr/bin/env bash
# Recompiles python/requirements.lock from python/requirements.in with every distribution's hash, so that
# `npm run setup:python` installs exactly these files (`pip install --require-hashes`). pip-tools runs from a
# throwaway virtual environment under /tmp; nothing it downloads lands in the repository. PyPI alone is asked
# (PIP_FIND_LINKS is unset), so the hashes are PyPI's.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(mktemp -d /tmp/racelab-pip-tools.XXXXXX)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
env -u PIP_FIND_LINKS "$tools/bin/pip" install --quiet pip-tools==7.7.0
env -u PIP_FIND_LINKS CUSTOM_COMPILE_COMMAND="bash scripts/lock-python.sh" "$tools/bin/pip-compile" --quiet \
  --generate-hashes --allow-unsafe --strip-extras --no-emit-find-links --no-emit-index-url \
  -o python/requirements.lock python/requirements.in
