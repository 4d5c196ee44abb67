#!/usr/bin/env bash
# Rebuilds the shipped opening books, book/data/book-copenhagen.zst and book-brandubh.zst, with
# hnefi itself (docs/book.md, "Default books"): each is built from the real games of tests/data
# (the moves played in at least 2 games, up to ply 30), then grown by a search expansion (2,000
# positions of 5,000,000 nodes each: about 45 minutes on 2 cores).
# With more than one thread the expansion's order depends on timing, so a rebuild gives a book of
# the same kind but not the same positions; HNEFI_BOOK_THREADS=1 gives the same ones every time.
# Usage: tools/make_books.sh [path to hnefi]   (default: build/release/tools/hnefi)
set -euo pipefail
cd "$(dirname "$0")/.."
hnefi=${1:-build/release/tools/hnefi}
threads=${HNEFI_BOOK_THREADS:-$(nproc)}
nodes=${HNEFI_BOOK_NODES:-5000000}
positions=${HNEFI_BOOK_POSITIONS:-2000}
mkdir -p book/data
for variant in copenhagen brandubh; do
  out=book/data/book-$variant.zst
  rm -f "$out" "$out.journal"
  "$hnefi" book build "$out" --variant "$variant" --max-ply 30 --min-games 2 \
    --from "tests/data/$variant-games.csv.zst"
  "$hnefi" book expand "$out" --nodes "$nodes" --positions "$positions" --threads "$threads"
  "$hnefi" book stats "$out"
done
