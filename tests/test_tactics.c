/*
 * The mined tactics suite, tests/data/tactics-mined.tsv (docs/search.md, "Solver and tactics
 * suite"): its composition (lines, variants, kinds, lengths, the share of 'none' lines); a sample
 * of its lines re-proved by the exact solver (every line with HNEFI_LONG=1); and the engine's
 * search on every line (default options, one thread, the table cleared before each line, node
 * limits only), which must show each win with its exact length, and claim no win on a 'none'
 * line, within a node budget. The summary table (by variant, kind and plies: lines, solved,
 * median and largest depth and nodes, lines needing more than plies + 2 depth) is printed, so
 * progress can be tracked; `hnefi tactics run` prints the same table. Nothing here depends on the
 * machine's speed. HNEFI_QUICK=1 (sanitizer builds) searches every tenth line only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tactics.h"
#include "check.h"
#include "data_file.h"

enum {
    NONE_PLIES = 7,         /* the bound of the suite's 'none' lines */
    VERIFY_EVERY = 12,      /* the sample re-proved by the solver (HNEFI_LONG=1: every line) */
    VERIFY_NODES = 3000000, /* the solver's budget per sampled line */
};

/* The search's budget per line: met by every line today, the slowest (a 7-ply encirclement
   shown at depth 11) needing about 130 M nodes (docs/search.md). */
static const uint64_t search_budget = 250000000;

/* Counts the lines of a suite that match a variant, result, kind and plies (NULL/0: any). */
static int count_lines(const struct tactics_suite *s, const char *variant, int win,
                       const char *kind, int plies) {
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        const struct tactics_line *l = &s->lines[i];
        n += (!variant || strcmp(l->variant, variant) == 0) && (win < 0 || l->win == win) &&
             (!kind || strcmp(l->kind, kind) == 0) && (!plies || l->plies == plies);
    }
    return n;
}

/* Checks what the suite holds: enough lines of every variant, kind and length. */
static void composition(const struct tactics_suite *s) {
    int none = count_lines(s, NULL, 0, NULL, 0);
    printf("suite: %d lines, %d none (%.0f%%)\n", s->n, none, 100.0 * none / (s->n ? s->n : 1));
    CHECK(s->n >= 300 && s->n <= 600);
    CHECK(none * 100 >= s->n * 15 && none * 100 <= s->n * 25);
    static const char *const variants[] = {"copenhagen", "brandubh", "linnaeus"};
    for (int v = 0; v < 3; v++) {
        CHECK(count_lines(s, variants[v], 0, NULL, 0) > 0);
        for (int plies = 1; plies <= 7; plies += 2)
            if (!check_record(count_lines(s, variants[v], 1, NULL, plies) > 0, __FILE__, __LINE__,
                              "wins of every length in every variant"))
                fprintf(stderr, "    no %s win in %d\n", variants[v], plies);
    }
    static const char *const kinds[] = {"escape", "king_captured", "encircled", "exit_fort",
                                        "no_moves"};
    for (int k = 0; k < 5; k++) {
        int n = count_lines(s, NULL, 1, kinds[k], 0);
        if (!check_record(n >= 4, __FILE__, __LINE__, "wins of every kind"))
            fprintf(stderr, "    %d wins by %s\n", n, kinds[k]);
    }
    for (int i = 0; i < s->n; i++) CHECK(s->lines[i].kind[0] && s->lines[i].source[0]);
}

/* Re-proves every k-th line with the solver; returns how many were checked. */
static int verify(const struct tactics_suite *s, int every) {
    struct solver *sv = solver_new(64);
    if (!CHECK(sv != NULL)) return 0;
    int checked = 0;
    uint64_t total = 0;
    for (int i = 0; i < s->n; i += every) {
        char why[TACTICS_MOVES_MAX * 2 + 200];
        uint64_t nodes;
        solver_clear(sv);
        bool ok = tactics_verify(sv, &s->lines[i], NONE_PLIES, every > 1 ? VERIFY_NODES : 0, why,
                                 sizeof why, &nodes);
        /* a sampled line too hard for the quick budget is not a failure: HNEFI_LONG proves it */
        bool gave_up = every > 1 && nodes >= VERIFY_NODES;
        if (!gave_up && !check_record(ok, __FILE__, __LINE__, "a mined line re-proved"))
            fprintf(stderr, "    %s\n", why);
        checked += !gave_up;
        total += nodes;
    }
    printf("solver: %d lines re-proved (every %d), %llu nodes\n", checked, every,
           (unsigned long long)total);
    solver_free(sv);
    return checked;
}

/* Searches every k-th line with the engine and prints the table. */
static void search_suite(const struct tactics_suite *s, int every) {
    struct search *se = search_new(64); /* as hnefi tactics run */
    struct tactics_run *runs = calloc((size_t)s->n, sizeof *runs);
    struct tactics_suite part = {malloc((size_t)s->n * sizeof *part.lines), 0};
    if (!CHECK(se && runs && part.lines)) return;
    struct search_options opt;
    search_options_default(&opt);
    uint64_t total = 0;
    for (int i = 0; i < s->n; i += every) {
        const struct tactics_line *l = &s->lines[i];
        struct tactics_run *r = &runs[part.n];
        char err[300];
        part.lines[part.n++] = *l;
        if (!CHECK(tactics_search(se, l, &opt, search_budget, NONE_PLIES, NONE_PLIES, r, err,
                                  sizeof err))) {
            fprintf(stderr, "    %s\n", err);
            continue;
        }
        total += r->nodes;
        if (!check_record(r->solved && !r->wrong, __FILE__, __LINE__,
                          "the search shows the win (or no false win) within the budget"))
            fprintf(stderr, "    line %d %s %s %s %d: depth %d, %llu nodes, first win %d plies\n",
                    l->lineno, l->variant, l->fen, l->win ? "win" : "none", l->plies, r->depth,
                    (unsigned long long)r->nodes, r->first_plies);
    }
    printf("search: %d lines, %llu nodes in all, budget %llu a line\n", part.n,
           (unsigned long long)total, (unsigned long long)search_budget);
    tactics_table(stdout, &part, runs);
    int wins, early;
    tactics_won_early(&part, runs, &wins, &early);
    printf("%d of %d win lines show a forced win (of any length) by plies + 2\n", early, wins);
    free(part.lines);
    free(runs);
    search_free(se);
}

/* Checks the count of win lines with a win of any length shown by plies + 2. */
static void won_early(void) {
    struct tactics_line lines[5] = {{.win = true, .plies = 7},
                                    {.win = true, .plies = 7},
                                    {.win = true, .plies = 7},
                                    {.win = true, .plies = 5},
                                    {.win = false}};
    struct tactics_run runs[5] = {
        {.first_depth = 7, .first_plies = 9},                /* a longer win, early: counts */
        {.first_depth = 10, .first_plies = 7},               /* the win, too late */
        {.first_depth = 5, .first_plies = 5, .wrong = true}, /* a false win does not count */
        {.first_depth = 0},                                  /* no win reported */
        {.first_depth = 3, .first_plies = 3},                /* a none line is not counted */
    };
    struct tactics_suite s = {lines, 5};
    int wins = -1, early = -1;
    tactics_won_early(&s, runs, &wins, &early);
    CHECK(wins == 4 && early == 1);
    runs[1].first_depth = 9; /* plies + 2 exactly */
    tactics_won_early(&s, runs, &wins, &early);
    CHECK(wins == 4 && early == 2);
}

/* Runs the suite's tests. */
int main(void) {
    bool quick = getenv("HNEFI_QUICK") != NULL, full = getenv("HNEFI_LONG") != NULL;
    size_t len;
    char *text = data_file_read("tactics-mined.tsv", &len);
    if (!CHECK(text != NULL)) return check_done();
    struct tactics_suite suite;
    char err[300];
    if (!CHECK(tactics_parse(text, &suite, err, sizeof err))) {
        fprintf(stderr, "    %s\n", err);
        return check_done();
    }
    won_early();
    composition(&suite);
    int every = full ? 1 : quick ? 4 * VERIFY_EVERY : VERIFY_EVERY;
    int checked = verify(&suite, every), sample = (suite.n + every - 1) / every;
    CHECK(checked * 4 >= sample * 3); /* the quick budget proves most of the sample */
    search_suite(&suite, quick ? 10 : 1);
    tactics_suite_free(&suite);
    free(text);
    return check_done();
}
