#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds hnefi, installs it into build/install (the program in
# build/install/bin/hnefi, its data in build/install/share/hnefi, its manual page in
# build/install/share/man/man1), and runs the main job with the installed program: an analysis
# of the Copenhagen opening position (10 seconds, one line per depth, the best move, and an SVG
# picture of the best line in build/copenhagen-opening.svg), then its perft to depth 5.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target hnefi
cmake --install build/release --prefix build/install >/dev/null
hnefi=build/install/bin/hnefi
"$hnefi" analyze --variant copenhagen --time 10 --svg build/copenhagen-opening.svg
"$hnefi" perft --variant copenhagen 5
echo "hnefi is installed as $PWD/$hnefi (add $PWD/build/install/bin to PATH to type hnefi)"
