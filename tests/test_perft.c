/*
 * Perft suites: the start-position tables of docs/rules.md §8 and every vector of
 * perft-midgame.tsv (our FEN) and perft-midgame-opentafl.tsv (OpenTafl records and rules
 * strings, read through the OpenTafl parsers). The number of vectors run is checked. With
 * HNEFI_QUICK set in the environment, depth 4 of the mid-game vectors is skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/perft.h"
#include "check.h"
#include "data_file.h"
#include "engine/notation.h"
#include "engine/opentafl.h"

/* Checks perft of the start position of a built-in variant against expected[1..depth]. */
static void start_table(const char *name, const unsigned long long *expected, int depth) {
    struct position p;
    pos_init_start(&p, variant_by_name(name));
    for (int d = 1; d <= depth; d++) {
        unsigned long long got = perft(&p, d);
        if (got != expected[d]) fprintf(stderr, "%s perft %d: got %llu\n", name, d, got);
        CHECK_EQ_U64(got, expected[d]);
    }
}

/* Splits line at tabs into at most max fields; returns the count. */
static int split_tabs(char *line, char **fields, int max) {
    int n = 0;
    while (n < max) {
        fields[n++] = line;
        char *t = strchr(line, '\t');
        if (!t) break;
        *t = 0;
        line = t + 1;
    }
    return n;
}

/* Runs every vector of one perft file; returns the number of positions checked. */
static int run_file(const char *name, bool opentafl, int max_depth) {
    size_t len;
    char *text = data_file_read(name, &len);
    CHECK(text != NULL);
    if (!text) return 0;
    int positions = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char *f[9];
        int nf = split_tabs(line, f, 9);
        char err[200];
        struct variant v;
        struct position p;
        int first = opentafl ? 4 : 2;
        if (!CHECK(nf >= first + 4)) continue;
        if (opentafl) {
            char rules[512];
            snprintf(rules, sizeof rules, "%s start:%s", f[3], f[1]);
            if (!CHECK(opentafl_read_rules(&v, rules, err, sizeof err))) {
                fprintf(stderr, "%s: %s\n", rules, err);
                continue;
            }
            char fen[FEN_MAX];
            struct position start;
            pos_init_start(&start, &v);
            fen_write(&start, fen);
            fen[strlen(fen) - 1] = strcmp(f[2], "attackers") == 0 ? 'a' : 'd';
            if (!CHECK(fen_parse(&p, &v, fen, err, sizeof err))) continue;
        } else {
            v = *variant_by_name(f[0]);
            if (!CHECK(fen_parse(&p, &v, f[1], err, sizeof err))) {
                fprintf(stderr, "%s: %s\n", f[1], err);
                continue;
            }
        }
        v.repetition = REP_NONE;
        positions++;
        for (int d = 1; d <= max_depth; d++) {
            const char *want = f[first + d - 1];
            if (!*want) continue;
            unsigned long long got = perft(&p, d), expected = strtoull(want, NULL, 10);
            if (got != expected)
                fprintf(stderr, "%s %s d%d: got %llu want %llu\n", name, f[1], d, got, expected);
            CHECK_EQ_U64(got, expected);
        }
    }
    free(text);
    return positions;
}

int main(void) {
    static const unsigned long long copenhagen[] = {1, 116, 6788, 806344, 50456804};
    static const unsigned long long brandubh[] = {1, 40, 960, 39512, 1007392};
    static const unsigned long long linnaeus[] = {1, 80, 4400, 353200};
    static const unsigned long long tablut[] = {1, 72, 3944};
    start_table("copenhagen", copenhagen, 4);
    start_table("fetlar", copenhagen, 4);
    start_table("brandubh", brandubh, 4);
    start_table("linnaeus", linnaeus, 3);
    start_table("tablut", tablut, 2);
    int depth = getenv("HNEFI_QUICK") ? 3 : 4;
    CHECK_EQ_INT(run_file("perft-midgame.tsv", false, depth), 60);
    CHECK_EQ_INT(run_file("perft-midgame-opentafl.tsv", true, depth), 60);
    return check_done();
}
