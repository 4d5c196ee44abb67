/*
 * hnefi tactics: tactics suites (bench/tactics.h). `verify` re-proves every line with the exact
 * solver, `run` measures the depth and nodes at which the engine's search shows each win and
 * prints the summary table, and `mine` (tools/tactics_mine.c) builds a suite from game records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/tactics.h"
#include "book/zio.h"
#include "tools/cli.h"
#include "tools/tactics_mine.h"

/* hnefi tactics: the tactics suites (declared for tools/hnefi.c). */
int cmd_tactics(int argc, char **argv);

static const char tactics_usage[] =
    "usage: hnefi tactics verify|run|mine [options]\n"
    "Tactics suites: positions with a forced win, or none, proved by the exact solver\n"
    "(docs/search.md, 'Solver and tactics suite').\n"
    "  hnefi tactics verify FILE   re-prove every line with the solver; exit 1 on any mismatch\n"
    "      --none-plies N   the bound of the 'none' lines (default 7; 5 for tactics.tsv)\n"
    "      --every K        only every K-th line (default 1)\n"
    "      --nodes N        give up on a line after N solver nodes (default: no limit)\n"
    "      --hash MiB       the solver's table (default 64)\n"
    "  hnefi tactics run FILE      search every line with the engine (default options, one\n"
    "                              thread, the table cleared before each line); print one row per\n"
    "                              line with --lines, then the summary table (Markdown)\n"
    "      --nodes N        node budget per line (default 250000000)\n"
    "      --none-plies N   as above\n"
    "      --none-depth D   search the 'none' lines to depth D (default 7)\n"
    "      --lines          also print each line's depth and nodes, and the depth and\n"
    "                       length of the first win the search reported\n"
    "      --hash MiB       the search's table (default 64)\n"
    "      --eval nnue|classic  the evaluation (default classic, as search_options_default)\n"
    "      --param NAME=V   a search parameter (docs/search.md), repeatable\n"
    "  hnefi tactics mine [options]   build a suite from game records: see --help there\n";

/* Returns seconds on a monotonic clock. */
static double tactics_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads a suite file (plain or zstd); false after printing why. */
static bool load_suite(const char *path, struct tactics_suite *suite, char **text) {
    char err[300];
    size_t len;
    *text = zio_read_text(path, &len, err, sizeof err);
    if (!*text) {
        fprintf(stderr, "hnefi tactics: %s\n", err);
        return false;
    }
    if (!tactics_parse(*text, suite, err, sizeof err)) {
        fprintf(stderr, "hnefi tactics: %s: %s\n", path, err);
        free(*text);
        return false;
    }
    if (suite->n == 0) {
        fprintf(stderr, "hnefi tactics: %s: no lines\n", path);
        free(*text);
        return false;
    }
    return true;
}

/* The options of verify and run. */
struct tactics_args {
    const char *path;
    long none_plies, every, hash, none_depth;
    long nodes;
    bool nodes_given, lines, nnue, help;
    struct search_params params; /* run: --param NAME=V */
};

/* Reads the options of verify or run; false after printing an error. */
static bool tactics_args(int argc, char **argv, bool run, struct tactics_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        long *dst = NULL, lo = 1, hi = 1000000000000L;
        if (strcmp(o, "--none-plies") == 0)
            dst = &a->none_plies, hi = SOLVER_MAX_PLIES;
        else if (strcmp(o, "--hash") == 0)
            dst = &a->hash, hi = 65536;
        else if (strcmp(o, "--nodes") == 0)
            dst = &a->nodes, a->nodes_given = true;
        else if (!run && strcmp(o, "--every") == 0)
            dst = &a->every, hi = 1000000;
        else if (run && strcmp(o, "--none-depth") == 0)
            dst = &a->none_depth, hi = SEARCH_MAX_PLY - 8;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            printf("%s", tactics_usage);
            a->help = true;
            return false;
        }
        if (dst) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hnefi tactics: option %s needs a value\n", o);
                return false;
            }
            if (!cli_parse_int(argv[++i], lo, hi, o, dst)) return false;
        } else if (run && strcmp(o, "--lines") == 0) {
            a->lines = true;
        } else if (run && strcmp(o, "--param") == 0) {
            if (!cli_param(argc, argv, &i, &a->params, "hnefi tactics")) return false;
        } else if (run && strcmp(o, "--eval") == 0) {
            if (i + 1 >= argc ||
                (strcmp(argv[i + 1], "nnue") != 0 && strcmp(argv[i + 1], "classic") != 0)) {
                fprintf(stderr, "hnefi tactics: --eval '%s': expected nnue or classic\n",
                        i + 1 < argc ? argv[i + 1] : "");
                return false;
            }
            a->nnue = strcmp(argv[++i], "nnue") == 0;
        } else if (o[0] == '-') {
            fprintf(stderr, "hnefi tactics: unknown option '%s' (try --help)\n", o);
            return false;
        } else if (a->path) {
            fprintf(stderr, "hnefi tactics: more than one file ('%s')\n", o);
            return false;
        } else {
            a->path = o;
        }
    }
    if (!a->path) {
        fprintf(stderr, "hnefi tactics: missing the suite FILE (try --help)\n");
        return false;
    }
    return true;
}

/* hnefi tactics verify: re-proves the lines of a suite with the solver. */
static int tactics_verify_cmd(int argc, char **argv) {
    struct tactics_args a = {.none_plies = 7, .every = 1, .hash = 64};
    if (!tactics_args(argc, argv, false, &a)) return a.help ? 0 : 2;
    struct tactics_suite suite;
    char *text;
    if (!load_suite(a.path, &suite, &text)) return 1; /* a file problem */
    struct solver *sv = solver_new((size_t)a.hash);
    if (!sv) {
        fprintf(stderr, "hnefi tactics: out of memory for the solver's table\n");
        return 1;
    }
    int checked = 0, bad = 0, slowest = -1;
    uint64_t total = 0, most = 0;
    double t0 = tactics_now(), worst = 0;
    for (int i = 0; i < suite.n; i += (int)a.every) {
        char why[TACTICS_MOVES_MAX * 2 + 200];
        uint64_t nodes;
        double t1 = tactics_now();
        solver_clear(sv);
        bool ok = tactics_verify(sv, &suite.lines[i], (int)a.none_plies,
                                 a.nodes_given ? (uint64_t)a.nodes : 0, why, sizeof why, &nodes);
        double dt = tactics_now() - t1;
        checked++;
        total += nodes;
        if (nodes > most) most = nodes;
        if (dt > worst) worst = dt, slowest = i;
        if (!ok) {
            bad++;
            printf("MISMATCH %s\n", why);
        }
    }
    double dt = tactics_now() - t0;
    printf("verified %d lines of %s: %d mismatches; %llu solver nodes in %.1f s (%.0f nodes/s); "
           "most nodes on one line %llu; slowest line %d (%.2f s)\n",
           checked, a.path, bad, (unsigned long long)total, dt, dt > 0 ? (double)total / dt : 0.0,
           (unsigned long long)most, slowest >= 0 ? suite.lines[slowest].lineno : 0, worst);
    solver_free(sv);
    tactics_suite_free(&suite);
    free(text);
    return bad ? 1 : 0;
}

/* hnefi tactics run: searches every line and prints the summary table. */
static int tactics_run_cmd(int argc, char **argv) {
    struct tactics_args a = {.none_plies = 7,
                             .hash = 64,
                             .none_depth = 7,
                             .nodes = 250000000,
                             .params = search_default_params};
    if (!tactics_args(argc, argv, true, &a)) return a.help ? 0 : 2;
    struct tactics_suite suite;
    char *text;
    if (!load_suite(a.path, &suite, &text)) return 1; /* a file problem */
    struct search *s = search_new((size_t)a.hash);
    struct tactics_run *runs = calloc((size_t)suite.n, sizeof *runs);
    if (!s || !runs) {
        fprintf(stderr, "hnefi tactics: out of memory\n");
        return 1;
    }
    struct search_options opt;
    search_options_default(&opt);
    opt.params = a.params;
    struct cli_eval ev = {.classic = !a.nnue};
    int status = 0;
    double t0 = tactics_now();
    if (a.lines)
        printf("line\tvariant\tresult\tplies\tkind\tsolved\twrong\tdepth\tnodes\tfirst_"
               "depth\tfirst_plies\n");
    for (int i = 0; i < suite.n; i++) {
        const struct tactics_line *l = &suite.lines[i];
        char err[300];
        opt.net = cli_eval_net(&ev, variant_by_name(l->variant));
        if (!tactics_search(s, l, &opt, (uint64_t)a.nodes, (int)a.none_plies, (int)a.none_depth,
                            &runs[i], err, sizeof err)) {
            fprintf(stderr, "hnefi tactics: %s: %s\n", a.path, err);
            status = 2;
            break;
        }
        if (a.lines)
            printf("%d\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%llu\t%d\t%d\n", l->lineno, l->variant,
                   l->win ? "win" : "none", l->plies, l->kind[0] ? l->kind : "-",
                   runs[i].solved ? "yes" : "no", runs[i].wrong ? "yes" : "no", runs[i].depth,
                   (unsigned long long)runs[i].nodes, runs[i].first_depth, runs[i].first_plies);
    }
    if (!status) {
        tactics_table(stdout, &suite, runs);
        int wins, early;
        tactics_won_early(&suite, runs, &wins, &early);
        printf("%d of %d win lines show a forced win (of any length) by plies + 2\n", early, wins);
        printf("%d lines, node budget %ld per line, %.1f s\n", suite.n, a.nodes,
               tactics_now() - t0);
    }
    free(runs);
    search_free(s);
    tactics_suite_free(&suite);
    free(text);
    return status;
}

/* hnefi tactics: dispatches to verify, run or mine. */
int cmd_tactics(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "hnefi tactics: missing the subcommand: verify, run or mine (try --help)\n");
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("%s", tactics_usage);
        return 0;
    }
    if (strcmp(argv[1], "verify") == 0) return tactics_verify_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "run") == 0) return tactics_run_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "mine") == 0) return tactics_mine(argc - 1, argv + 1);
    fprintf(stderr, "hnefi tactics: unknown subcommand '%s' (verify, run or mine)\n", argv[1]);
    return 2;
}
