#!/usr/bin/env bash
# Installs what tilediff needs to build and test (Debian packages), only if missing.
# Usage: ci/deps.sh [--fuzz] [--browser] [--triton]
#   --fuzz: AFL++, and lld (the linker of ci/test.sh's sanitizer/libFuzzer build)
#   --triton: python3-dev (CPython's embedding library, for the Triton bridge) and a
#   virtual environment .venv-triton in the repository root (git-ignored) with the
#   pinned triton and numpy below; recreated when the pins change.  Triton's interpreter
#   needs neither torch nor a GPU.  About 1.1 GB installed, ~1 min from PyPI.
set -euo pipefail
triton=0
want=(cmake make gcc g++ clang pkg-config libmpfr-dev libgmp-dev libcmocka-dev libclang-rt-14-dev zip)
for a in "$@"; do
  case "$a" in
    --fuzz) want+=(afl++ lld) ;;  # lld: ci/test.sh links the 245 sanitizer fuzz targets with it
    --browser) want+=(chromium) ;;
    --triton) want+=(python3-dev python3-venv); triton=1 ;;
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

if ((triton)); then
  # Pinned: the bridge and the interpreter probes are tested against exactly these.
  pins=(triton==3.9.0 numpy==2.4.6)
  venv="$(cd "$(dirname "$0")/.." && pwd)/.venv-triton"
  stamp="$venv/.tilediff-pins"
  if [ "$(cat "$stamp" 2>/dev/null)" != "${pins[*]}" ]; then
    echo "ci/deps.sh: creating $venv with ${pins[*]}"
    rm -rf "$venv"
    # the system interpreter: the bridge embeds its libpython (python3-embed)
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --retries 5 --timeout 60 "${pins[@]}"
    echo "${pins[*]}" >"$stamp"
  fi
fi
