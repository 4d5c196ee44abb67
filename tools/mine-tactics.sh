#!/usr/bin/env bash
# Rebuilds tests/data/tactics-mined.tsv, the mined tactics suite (docs/search.md, "Solver and
# tactics suite"):
#   1. self-play records for copenhagen, brandubh and linnaeus: two equal players at nodes:2000,
#      and a strong player (nodes:20000) against a weak one (nodes:300), which gives the attackers
#      their wins and lone-king endings; one game at a time, so the files are the same on every run;
#   2. hnefi tactics mine over those records and the real games of tests/data, every line proved
#      by the exact solver, the choice seeded.
# Usage: tools/mine-tactics.sh [SEED]   (env: BUILD=build/release, WORK=build/mine, GAMES=400)
# It takes about an hour on two cores; the solver's answers do not depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-1}
build=${BUILD:-build/release}
work=${WORK:-build/mine}
games=${GAMES:-400}
hnefi=$build/tools/hnefi
[ -x "$hnefi" ] || { echo "mine-tactics.sh: build $hnefi first" >&2; exit 2; }
mkdir -p "$work"

records=()
for v in copenhagen brandubh linnaeus; do
    rm -f "$work/sp-$v.zst" "$work/sp-$v-strong.zst"
    echo "== self-play: $v" >&2
    "$hnefi" selfplay --variant "$v" --games "$games" --tc nodes:2000 --seed "$seed" \
        --concurrency 1 --records "$work/sp-$v.zst" --no-sync --quiet >&2
    "$hnefi" selfplay --variant "$v" --games "$games" --seed "$seed" --concurrency 1 \
        --records "$work/sp-$v-strong.zst" --no-sync --quiet \
        --player name=strong tc=nodes:20000 --player name=weak tc=nodes:300 >&2
    records+=(--games "$work/sp-$v.zst" --games "$work/sp-$v-strong.zst")
done

echo "== mining" >&2
"$hnefi" tactics mine --seed "$seed" --count 450 --lone 2 \
    --real copenhagen:tests/data/copenhagen-games.csv.zst \
    --real brandubh:tests/data/brandubh-games.csv.zst \
    "${records[@]}" --out tests/data/tactics-mined.tsv
echo "== wrote tests/data/tactics-mined.tsv ($(grep -vc '^#' tests/data/tactics-mined.tsv) lines)" >&2
