#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds hnefi, and runs the main job: an analysis of the
# Copenhagen opening position (10 seconds, one line per depth, the best move, and an SVG picture
# of the best line in build/copenhagen-opening.svg), then its perft to depth 5.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target hnefi
build/release/tools/hnefi analyze --variant copenhagen --time 10 --svg build/copenhagen-opening.svg
build/release/tools/hnefi perft --variant copenhagen 5
