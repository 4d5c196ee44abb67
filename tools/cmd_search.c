/* The search commands: analyze (human-readable analysis, SVG) and bench (the node signature). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "engine/notation.h"
#include "search/search.h"
#include "tools/cli.h"
#include "tools/cli_book.h"
#include "tools/score_text.h"
#include "tools/svg.h"

/* Prints large counts compactly (12.3M). */
static void count_text(uint64_t n, char *out, size_t len) {
    if (n >= 10000000)
        snprintf(out, len, "%.1fM", (double)n / 1e6);
    else if (n >= 10000)
        snprintf(out, len, "%.1fk", (double)n / 1e3);
    else
        snprintf(out, len, "%llu", (unsigned long long)n);
}

struct analyze_ctx {
    const struct tafl_game *game;
    struct search_line best; /* the last line 1 */
};

/* Prints one iteration line of hnefi analyze. */
static void analyze_line(const struct search_line *l, void *arg) {
    struct analyze_ctx *c = arg;
    const struct position *root = tafl_pos(c->game);
    char score[96], nodes[24], nps[24], pv[SEARCH_MAX_PLY * 7] = "", mv[MOVE_TEXT_MAX];
    score_text_human(c->game, l, score, sizeof score);
    count_text(l->nodes, nodes, sizeof nodes);
    count_text(l->nps, nps, sizeof nps);
    for (int i = 0; i < l->pv_len && i < 24; i++) {
        move_write(l->pv[i], root->v->size, mv);
        strcat(pv, mv);
        if (i + 1 < l->pv_len) strcat(pv, " ");
    }
    if (l->multipv > 1)
        printf("  #%d ", l->multipv);
    else
        printf("depth %2d/%-2d ", l->depth, l->seldepth);
    printf("%-32s nodes %-7s nps %-7s time %6.2fs  %s\n", score, nodes, nps,
           (double)l->time_ms / 1000.0, pv);
    fflush(stdout);
    if (l->multipv == 1) c->best = *l;
}

/* Reads a number-valued option. */
static bool num_option(int argc, char **argv, int *i, long lo, long hi, long *out) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi: option %s needs a value\n", argv[*i]);
        return false;
    }
    const char *name = argv[*i];
    return cli_parse_int(argv[++*i], lo, hi, name, out);
}

/* Writes the SVG picture of a position and a line, then says so; false after printing why. */
static bool write_svg(const char *path, const struct position *root, const move_t *line, int n,
                      const char *title) {
    FILE *f = fopen(path, "w");
    bool ok = f && svg_write(f, root, line, n, SVG_DEFAULT_ARROWS, title);
    if (f && fclose(f) != 0) ok = false;
    if (ok)
        printf("wrote %s\n", path);
    else
        fprintf(stderr, "hnefi analyze: cannot write %s%s%s\n", path, f ? "" : ": ",
                f ? "" : strerror(errno));
    return ok;
}

/* hnefi analyze: searches a position and prints one line per depth, then the best move. */
int cmd_analyze(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    struct search_options opt;
    search_options_default(&opt);
    struct search_limits limits = {.time_ms = {-1, -1}};
    long hash = 64, val;
    const char *svg = NULL, *net_path = NULL, *book_name = NULL;
    struct cli_eval ev = {0};
    double seconds = -1;
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "--depth") == 0) {
            if (!num_option(argc, argv, &i, 1, SEARCH_MAX_PLY - 8, &val)) return 2;
            limits.depth = (int)val;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!num_option(argc, argv, &i, 1, 1000000000000L, &val)) return 2;
            limits.nodes = (uint64_t)val;
        } else if (strcmp(a, "--time") == 0) {
            char *end;
            if (i + 1 >= argc) {
                fprintf(stderr, "hnefi: option --time needs a value\n");
                return 2;
            }
            if (!((seconds = strtod(argv[i + 1], &end)) > 0) || *end || seconds > 1e6) {
                fprintf(stderr, "hnefi: --time '%s': expected seconds, a number above 0\n",
                        argv[i + 1]);
                return 2;
            }
            i++;
            limits.movetime_ms = seconds * 1000 >= 1 ? (int64_t)(seconds * 1000) : 1;
        } else if (strcmp(a, "--multipv") == 0) {
            if (!num_option(argc, argv, &i, 1, SEARCH_MAX_MULTIPV, &val)) return 2;
            opt.multipv = (int)val;
        } else if (strcmp(a, "--threads") == 0) {
            if (!num_option(argc, argv, &i, 1, SEARCH_MAX_THREADS, &val)) return 2;
            opt.threads = (int)val;
        } else if (strcmp(a, "--hash") == 0) {
            if (!num_option(argc, argv, &i, 1, 65536, &val)) return 2;
            hash = val;
        } else if (strcmp(a, "--svg") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hnefi: option --svg needs a file name\n");
                return 2;
            }
            svg = argv[++i];
        } else if (strcmp(a, "--weights") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                fprintf(stderr, "hnefi: option --weights needs a file or \"name=value ...\"\n");
                return 2;
            }
            const char *w = argv[++i];
            char err[160];
            /* a file (as match and tune read), or the pairs themselves if there is no such file */
            if (strchr(w, '=') && access(w, F_OK) != 0) {
                if (!eval_weights_parse(&opt.weights, w, err, sizeof err)) {
                    fprintf(stderr, "hnefi: --weights: %s\n", err);
                    return 2;
                }
            } else if (!cli_load_weights(&opt.weights, w, "hnefi: --weights")) {
                return 1; /* a file that cannot be used */
            }
        } else if (strcmp(a, "--eval") == 0) {
            if (i + 1 >= argc || !cli_eval_set_kind(&ev, argv[i + 1])) {
                fprintf(stderr, "hnefi: --eval '%s': expected nnue or classic\n",
                        i + 1 < argc ? argv[i + 1] : "");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--net") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hnefi: option --net needs a file name\n");
                return 2;
            }
            net_path = argv[++i];
        } else if (strcmp(a, "--book") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                fprintf(stderr, "hnefi: option --book needs a book file (or default)\n");
                return 2;
            }
            book_name = argv[++i];
        } else if (strcmp(a, "--param") == 0) {
            if (!cli_param(argc, argv, &i, &opt.params, "hnefi")) return 2;
        } else if (strcmp(a, "--null-move") == 0) {
            opt.null_move = true;
        } else if (strcmp(a, "--no-lmr") == 0) {
            opt.lmr = false;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: hnefi analyze [options]\n"
                   "Analyzes a position: the board, one line per depth (score, nodes, nodes/s, "
                   "time, best line), the best move.\n%s"
                   "  --depth N        search N plies (default: 10 seconds)\n"
                   "  --time S         search S seconds\n"
                   "  --nodes N        search about N nodes\n"
                   "  --multipv K      show the K best moves\n"
                   "  --threads T      search threads (default 1)\n"
                   "  --hash MiB       transposition table size (default 64)\n"
                   "  --svg FILE       draw the position and the best line (its first 8 moves as\n"
                   "                   numbered arrows, all of them as text); checked before the\n"
                   "                   search; a finished game's position is drawn alone\n"
                   "  --weights FILE   classical evaluation weights: a file of name=value pairs "
                   "(plain or\n"
                   "                   zstd), or the pairs themselves: --weights \"edge_king=50 "
                   "...\"\n"
                   "%s"
                   "  --book FILE      list the book's moves for the position (games, results,\n"
                   "                   score, weight) above the search; 'default': the shipped\n"
                   "                   book of the variant (docs/book.md)\n"
                   "  --null-move      switch null-move pruning on (off by default)\n"
                   "  --no-lmr         switch late-move reductions off\n"
                   "  --param NAME=V   set a search parameter (docs/search.md), repeatable\n",
                   cli_game_usage, cli_eval_usage);
            return 0;
        } else {
            fprintf(stderr, "hnefi analyze: unknown argument '%s' (try --help)\n", a);
            return 2;
        }
    }
    /* the help offers the limits as alternatives: one of them, not a mix */
    const char *limit_names[3] = {"--depth", "--time", "--nodes"};
    bool limit_given[3] = {limits.depth > 0, limits.movetime_ms > 0, limits.nodes > 0};
    for (int x = 0; x < 3; x++)
        for (int y = x + 1; y < 3; y++)
            if (limit_given[x] && limit_given[y]) {
                fprintf(stderr, "hnefi analyze: %s and %s are alternatives: give one of them\n",
                        limit_names[x], limit_names[y]);
                cli_game_free(&g);
                return 2;
            }
    if (!limits.depth && !limits.nodes && !limits.movetime_ms) limits.movetime_ms = 10000;
    if (!cli_game_finish(&g)) {
        cli_game_free(&g);
        return 2;
    }
    char err[400];
    if (net_path && !cli_eval_load(&ev, net_path, &g.variant, err, sizeof err)) {
        fprintf(stderr, "hnefi: --net: %s\n", err);
        cli_game_free(&g);
        return 1;
    }
    if (cli_eval_missing(&ev, &g.variant)) {
        fprintf(stderr,
                "hnefi analyze: --eval nnue: no network for %s; use --net FILE or --eval "
                "classic\n",
                g.variant.name);
        cli_game_free(&g);
        cli_eval_free(&ev);
        return 2;
    }
    opt.net = cli_eval_net(&ev, &g.variant);
    struct book book;
    memset(&book, 0, sizeof book);
    if (book_name && !cli_book_load(&book, book_name, &g.variant, err, sizeof err)) {
        fprintf(stderr, "hnefi analyze: --book: %s\n", err);
        cli_game_free(&g);
        cli_eval_free(&ev);
        return 1;
    }
    if (svg && !cli_check_writable(svg, "hnefi analyze --svg")) { /* before the search, not after */
        cli_game_free(&g);
        book_free(&book);
        return 1;
    }
    struct search *s = search_new((size_t)hash);
    if (!s) {
        fprintf(stderr, "hnefi: out of memory for a %ld MiB table\n", hash);
        cli_game_free(&g);
        book_free(&book);
        return 1;
    }
    const struct tafl_game *game = g.game;
    const struct position *root = tafl_pos(game);
    char fen[FEN_MAX], status[96];
    cli_print_board(root);
    fen_write(root, fen);
    printf("fen %s\n%s to move\n", fen, root->side == SIDE_ATTACKERS ? "attackers" : "defenders");
    printf("evaluation: %s\n", cli_eval_describe(&ev, &g.variant, err, sizeof err));
    if (book_name) cli_book_print(stdout, &book, game);
    if (game->result != RESULT_NONE) {
        char title[160];
        tafl_status_text(game->result, game->reason, status, sizeof status);
        printf("the game is over: %s\n", status);
        snprintf(title, sizeof title, "%s: the game is over: %s", root->v->name, status);
        int rc = svg && !write_svg(svg, root, NULL, 0, title) ? 1 : 0;
        search_free(s);
        cli_game_free(&g);
        cli_eval_free(&ev);
        book_free(&book);
        return rc;
    }
    struct analyze_ctx ctx = {.game = game};
    struct search_callbacks cb = {.on_iteration = analyze_line, .ctx = &ctx};
    struct search_result res;
    search_run(s, game, &limits, &opt, &cb, &res);
    char best[MOVE_TEXT_MAX] = "(none)";
    if (res.best) move_write(res.best, root->v->size, best);
    printf("bestmove %s  (depth %d, %llu nodes, %.2f s)\n", best, res.depth,
           (unsigned long long)res.nodes, (double)res.time_ms / 1000.0);
    int rc = 0;
    if (svg) {
        char title[160], score[96];
        score_text_human(game, &ctx.best, score, sizeof score);
        snprintf(title, sizeof title, "%s, %s to move: %s (depth %d)", root->v->name,
                 root->side == SIDE_ATTACKERS ? "attackers" : "defenders", score, res.depth);
        if (!write_svg(svg, root, ctx.best.pv, ctx.best.pv_len, title)) rc = 1;
    }
    search_free(s);
    cli_game_free(&g);
    cli_eval_free(&ev);
    book_free(&book);
    return rc;
}

/* Prints one bench position's result. */
static void bench_line(int index, const char *variant, const char *fen, uint64_t nodes,
                       const char *best, void *ctx) {
    (void)ctx;
    fprintf(stderr, "%2d %-10s %-12llu %-6s %s\n", index, variant, (unsigned long long)nodes, best,
            fen);
}

/* hnefi bench [depth] [threads] [hash] [--param NAME=V]...: the search bench and its node
   signature. */
int cmd_bench(int argc, char **argv) {
    long depth = 6, threads = 1, hash = 16;
    struct search_params params = search_default_params;
    const char *pos[3];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(
                "usage: hnefi bench [depth (6)] [threads (1)] [hash MiB (16)] [--param NAME=V]\n"
                "Searches the %s positions of bench/positions.tsv to a fixed depth, the table\n"
                "cleared before each; the last line is 'N nodes M nps', N the same on every run.\n"
                "  --param NAME=V   a search parameter (docs/search.md), repeatable: the\n"
                "                   signature of a changed search\n",
                "33");
            return 0;
        }
        if (strcmp(argv[i], "--param") == 0) {
            if (!cli_param(argc, argv, &i, &params, "hnefi bench")) return 2;
        } else if (npos == 3) {
            fprintf(stderr, "hnefi bench: too many arguments (try --help)\n");
            return 2;
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos > 0 && !cli_parse_int(pos[0], 1, 64, "bench depth", &depth)) return 2;
    if (npos > 1 && !cli_parse_int(pos[1], 1, SEARCH_MAX_THREADS, "bench threads", &threads))
        return 2;
    if (npos > 2 && !cli_parse_int(pos[2], 1, 65536, "bench hash", &hash)) return 2;
    struct bench_result r;
    char err[200];
    if (!bench_run((int)depth, (int)threads, (size_t)hash, &params, bench_line, NULL, &r, err,
                   sizeof err)) {
        fprintf(stderr, "hnefi bench: %s\n", err);
        return 1;
    }
    fprintf(stderr, "%d positions, %.2f s\n", r.positions, r.seconds);
    printf("%llu nodes %.0f nps\n", (unsigned long long)r.nodes,
           r.seconds > 0 ? (double)r.nodes / r.seconds : 0.0);
    return 0;
}
