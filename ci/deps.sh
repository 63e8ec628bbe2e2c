#!/usr/bin/env bash
# Installs what tilediff needs to build and test (Debian packages), only if missing.
# Usage: ci/deps.sh [--fuzz] [--browser]
set -euo pipefail
want=(cmake make gcc g++ clang pkg-config libmpfr-dev libgmp-dev libcmocka-dev libclang-rt-14-dev zip)
for a in "$@"; do
  case "$a" in
    --fuzz) want+=(afl++) ;;
    --browser) want+=(chromium) ;;
  esac
done
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "ci/deps.sh: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
