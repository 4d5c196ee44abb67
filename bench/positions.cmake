# Compiles bench/positions.tsv into the program as the string bench_positions_tsv.
file(READ ${SRC} content)
string(REPLACE "\\" "\\\\" content "${content}")
string(REPLACE "\"" "\\\"" content "${content}")
string(REPLACE "\n" "\\n\"\n\"" content "${content}")
file(WRITE ${DST} "/* Generated from bench/positions.tsv; do not edit. */\n#include \"bench/bench.h\"\nconst char bench_positions_tsv[] = \"${content}\";\n")
