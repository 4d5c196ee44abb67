#!/usr/bin/env bash
# Installs the Debian packages hnefi needs to build and test, if any are missing.
# Usage: tools/setup.sh [--fuzz] [--mpi]
set -euo pipefail
pkgs=(cmake gcc make pkg-config libzstd-dev zstd clang-format)
for arg in "$@"; do
  case "$arg" in
    --fuzz) pkgs+=(clang libclang-rt-14-dev) ;;
    --mpi) pkgs+=(openmpi-bin libopenmpi-dev) ;;
    *) echo "setup.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
