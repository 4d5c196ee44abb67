#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds hnefi, and runs the main job: the Copenhagen opening
# position, its legal moves and its perft to depth 5 with nodes per second.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target hnefi
build/release/tools/hnefi show --variant copenhagen
build/release/tools/hnefi perft --variant copenhagen 5
