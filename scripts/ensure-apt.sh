#!/usr/bin/env bash
# Installs from Debian's apt what the tests need and this machine lacks; does nothing when all is
# there. Usage: scripts/ensure-apt.sh <command>=<package> … (e.g. chromium=chromium).
set -euo pipefail
missing=()
for pair in "$@"; do
  cmd="${pair%%=*}" pkg="${pair#*=}"
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing from apt: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
