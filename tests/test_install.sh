#!/usr/bin/env bash
# The install target and the data lookup: `cmake --install` puts the program, its data, its
# manual page and its documentation under a prefix; the installed hnefi, run from anywhere,
# finds its data next to itself (also after the whole prefix is moved), HNEFI_DATA overrides
# that, and a name found nowhere is refused naming the directory searched. The manual page
# names every command `hnefi --help` lists.
# Usage: test_install.sh CMAKE BUILD_DIR
set -u
cmake=$1
build=$2
tmp=$(mktemp -d /tmp/hnefi-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# Runs a check (a command); counts it and names it when it fails.
check() {
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED: $*" >&2
  fi
}

# Tells whether text (first argument) contains the string (second argument).
has() {
  [[ "$1" == *"$2"* ]] || { echo "    not found: '$2' in:" >&2; echo "$1" >&2; return 1; }
}

if ! "$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log" >&2
  echo "FAILED: cmake --install" >&2
  exit 1
fi
for f in bin/hnefi share/hnefi/openings-copenhagen.txt.zst share/hnefi/copenhagen-games.csv.zst \
         share/hnefi/endgames-copenhagen.txt.zst \
         share/hnefi/eketorp-rules.txt share/hnefi/book-copenhagen.zst \
         share/hnefi/book-brandubh.zst share/man/man1/hnefi.1 share/doc/hnefi/README.md \
         share/doc/hnefi/protocol.md share/doc/hnefi/book.md share/doc/hnefi/opentafl-engine.ini; do
  check test -e "$tmp/prefix/$f"
done

mkdir "$tmp/work"
cd "$tmp/work" || exit 1
unset HNEFI_DATA
hnefi=$tmp/prefix/bin/hnefi
out=$("$hnefi" --version 2>&1)
check has "$out" "data directory: $tmp/prefix/share/hnefi (next to the program)"
# bare names of data files, from a directory that does not hold them
out=$("$hnefi" selfplay --openings openings-copenhagen.txt.zst --games 2 --tc nodes:50 --quiet 2>&1)
check has "$out" "2 of 2 games counted"
out=$("$hnefi" mc eketorp --data eketorp-rules.txt --games 2 --quiet 2>&1)
check has "$out" "Eketorp, 4 players, 2 games"
out=$("$hnefi" games summary copenhagen-games.csv.zst --rule repetition=none 2>&1)
check has "$out" "1752 games"
# the shipped books, by their bare names and as the default of their variant
out=$("$hnefi" book stats book-brandubh.zst 2>&1)
check has "$out" "variant brandubh"
out=$("$hnefi" analyze --variant brandubh --book default --depth 1 2>&1)
check has "$out" "book: "
out=$(printf 'uci\nsetoption name OwnBook value true\nposition startpos\ngo nodes 100\nquit\n' | "$hnefi" 2>&1)
check has "$out" "info string book move"
out=$("$hnefi" analyze --variant linnaeus --book default --depth 1 2>&1)
check has "$out" "--book: hnefi ships no book for linnaeus"
# a name found nowhere: refused, naming the directory searched
out=$("$hnefi" selfplay --openings nothere.txt --games 2 2>&1)
check test $? -eq 1 # a file that cannot be used (docs/hnefi.1)
check has "$out" "--openings 'nothere.txt': no such file here, nor in hnefi's data directory $tmp/prefix/share/hnefi"
# a file here comes first, also over a data file of the same name
printf 'h1h3 f8i8\n' >local.txt
out=$("$hnefi" selfplay --openings local.txt --games 2 --tc nodes:50 --quiet 2>&1)
check has "$out" "2 of 2 games counted"
printf 'zz\n' >openings-copenhagen.txt.zst
out=$("$hnefi" selfplay --openings openings-copenhagen.txt.zst --games 2 --tc nodes:50 2>&1)
check has "$out" "--openings: openings-copenhagen.txt.zst line 1"
rm openings-copenhagen.txt.zst

# the whole prefix moved elsewhere: the data is found next to the program's new place
mv "$tmp/prefix" "$tmp/moved"
hnefi=$tmp/moved/bin/hnefi
out=$("$hnefi" --version 2>&1)
check has "$out" "data directory: $tmp/moved/share/hnefi (next to the program)"
out=$("$hnefi" selfplay --openings openings-copenhagen.txt.zst --games 2 --tc nodes:50 --quiet 2>&1)
check has "$out" "2 of 2 games counted"

# HNEFI_DATA overrides the place next to the program
mkdir "$tmp/alt"
printf 'g1g2 d6d9\n' >"$tmp/alt/mine.txt"
out=$(HNEFI_DATA=$tmp/alt "$hnefi" --version 2>&1)
check has "$out" "data directory: $tmp/alt (from HNEFI_DATA)"
out=$(HNEFI_DATA=$tmp/alt "$hnefi" selfplay --openings mine.txt --games 2 --tc nodes:50 --quiet 2>&1)
check has "$out" "2 of 2 games counted"
out=$(HNEFI_DATA=$tmp/alt "$hnefi" selfplay --openings openings-copenhagen.txt.zst --games 2 2>&1)
check has "$out" "nor in hnefi's data directory $tmp/alt (HNEFI_DATA)"

# the manual page names every command
man=$(cat "$tmp/moved/share/man/man1/hnefi.1")
commands=$("$hnefi" --help | awk '/^  [a-z]+ / && $1 != "hnefi" {print $1}')
check test -n "$commands"
for c in $commands; do
  check grep -qx ".B $c" "$tmp/moved/share/man/man1/hnefi.1"
done
check has "$man" "HNEFI_DATA"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
