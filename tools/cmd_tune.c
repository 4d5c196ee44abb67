/* hnefi tune: Texel-style tuning of the evaluation weights on positions of finished games. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/zio.h"
#include "engine/make.h"
#include "search/eval.h"
#include "selfplay/records.h"
#include "tools/cli.h"

/* hnefi tune: fits the evaluation weights to game results (declared for tools/hnefi.c). */
int cmd_tune(int argc, char **argv);

/* The weight names, in table order. */
static const char *const tune_names[] = {
#define TUNE_NAME(name, def) #name,
    EVAL_WEIGHT_LIST(TUNE_NAME)
#undef TUNE_NAME
};
enum { TUNE_NW = sizeof tune_names / sizeof tune_names[0], TUNE_FILES = 16 };

/* One labelled position: the board and the game's result for the defenders (0, 0.5 or 1). */
struct tune_pos {
    struct position pos;
    float result;
};

/* The options and the loaded positions. */
struct tune_args {
    struct cli_game g;
    bool variant_given;
    const char *files[TUNE_FILES];
    int nfiles;
    const char *out_path;
    long skip, passes, limit, every;
    bool fixed[TUNE_NW];
    struct eval_weights w;
    struct tune_pos *pos;
    size_t n, cap;
    long games, seen;
};

static const char tune_usage[] =
    "usage: hnefi tune FILE... [options]\n"
    "Fits the evaluation weights to the results of finished games (record files, as hnefi\n"
    "games reads them) by minimising the squared error of a logistic of the static evaluation.\n"
    "A bare FILE name not found here is looked up in the data directory (hnefi --version),\n"
    "which holds copenhagen-games.csv.zst, the real Copenhagen games.\n"
    "  --weights FILE      start from these weights (name=value pairs; default: built-in)\n"
    "  --fix a,b,...       keep these weights fixed (default: attacker, the scale)\n"
    "  --skip N            leave out the first N plies of each game (default 6)\n"
    "  --every N           use every Nth position of a game (default 1)\n"
    "  --limit N           use at most N positions (default 2000000)\n"
    "  --passes N          at most N passes of coordinate descent (default 20)\n"
    "  --out FILE          write the tuned weights there (default: standard output)\n"
    "The rules to replay the games in (default: the one each record names, or Copenhagen;\n"
    "the real-game files of tests/data need --rule repetition=none):\n";

/* Returns the index of a weight name of len bytes, or -1. */
static int tune_weight_index(const char *name, size_t len) {
    for (int k = 0; k < TUNE_NW; k++)
        if (strlen(tune_names[k]) == len && strncmp(tune_names[k], name, len) == 0) return k;
    return -1;
}

/* Returns a pointer to weight k of w. */
static int *tune_weight(struct eval_weights *w, int k) {
    return (int *)w + k;
}

/* Reads --fix's comma list; false after printing the unknown name. */
static bool tune_parse_fix(struct tune_args *a, const char *list) {
    memset(a->fixed, 0, sizeof a->fixed);
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        int k = tune_weight_index(s, len);
        if (len && k < 0) {
            fprintf(stderr, "hnefi tune: --fix: unknown weight '%.*s'\n", (int)len, s);
            return false;
        }
        if (k >= 0) a->fixed[k] = true;
        s += len + (s[len] == ',');
    }
    return true;
}

/* Reads one option of hnefi tune; returns 1 if used, 0 if unknown, -1 after an error (-2 for a
 * --weights file that cannot be used). */
static int tune_option(struct tune_args *a, int argc, char **argv, int *i) {
    static const char *const num_opts[] = {"--skip", "--every", "--limit", "--passes"};
    const char *o = argv[*i];
    bool known = false;
    for (int k = 0; k < 4; k++) known |= strcmp(o, num_opts[k]) == 0;
    known |= strcmp(o, "--weights") == 0 || strcmp(o, "--fix") == 0 || strcmp(o, "--out") == 0;
    if (!known) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi tune: %s needs a value\n", o);
        return -1;
    }
    const char *val = argv[++*i];
    if (strcmp(o, "--weights") == 0) /* a file that cannot be used: exit status 1 */
        return cli_load_weights(&a->w, val, "hnefi tune: --weights") ? 1 : -2;
    if (strcmp(o, "--fix") == 0) return tune_parse_fix(a, val) ? 1 : -1;
    if (strcmp(o, "--out") == 0) {
        a->out_path = val;
        return 1;
    }
    long *dst = strcmp(o, "--skip") == 0    ? &a->skip
                : strcmp(o, "--every") == 0 ? &a->every
                : strcmp(o, "--limit") == 0 ? &a->limit
                                            : &a->passes;
    long lo = dst == &a->skip ? 0 : 1;
    return cli_parse_int(val, lo, 100000000, o, dst) ? 1 : -1;
}

/* Adds the positions of one finished game; games without a result are left out. */
static bool tune_on_record(const struct record *r, int64_t line, void *ctx) {
    (void)line;
    struct tune_args *a = ctx;
    if (r->result == RESULT_NONE) return true;
    float y = r->result == RESULT_DEFENDERS ? 1.0f : r->result == RESULT_ATTACKERS ? 0.0f : 0.5f;
    a->games++;
    struct position p;
    pos_init_start(&p, r->v);
    for (int i = 0; i < r->n && p.result == RESULT_NONE; i++) {
        if (i >= a->skip && (i - a->skip) % a->every == 0 && a->n < (size_t)a->limit) {
            if (a->n == a->cap) {
                size_t cap = a->cap ? 2 * a->cap : 4096;
                struct tune_pos *np = realloc(a->pos, cap * sizeof *np);
                if (!np) return false;
                a->pos = np;
                a->cap = cap;
            }
            a->pos[a->n++] = (struct tune_pos){p, y};
        }
        struct position next;
        make_move(&next, &p, r->moves[i]);
        p = next;
    }
    return true;
}

/* Returns the mean squared error of the logistic of the evaluation with scale k. */
static double tune_error(const struct tune_args *a, const struct eval_weights *w, double k) {
    double sum = 0;
    for (size_t i = 0; i < a->n; i++) {
        const struct position *p = &a->pos[i].pos;
        int e = eval_position(p, w);
        if (p->side == SIDE_ATTACKERS) e = -e;
        double s = 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
        double d = a->pos[i].result - s;
        sum += d * d;
    }
    return a->n ? sum / (double)a->n : 0;
}

/* Finds the scale k that fits the starting weights best (a golden-section search). */
static double tune_fit_scale(const struct tune_args *a) {
    double lo = 0.01, hi = 10, r = (sqrt(5.0) - 1) / 2;
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = tune_error(a, &a->w, x1), f2 = tune_error(a, &a->w, x2);
    for (int it = 0; it < 40; it++) {
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = tune_error(a, &a->w, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = tune_error(a, &a->w, x2);
        }
    }
    return (lo + hi) / 2;
}

/* Coordinate descent: steps of 16 down to 1 on each free weight while the error falls. */
static double tune_descend(struct tune_args *a, double k, double best) {
    for (int step = 16; step >= 1; step /= 2) {
        for (long pass = 0; pass < a->passes; pass++) {
            bool better = false;
            for (int j = 0; j < TUNE_NW; j++) {
                if (a->fixed[j]) continue;
                int *wp = tune_weight(&a->w, j), old = *wp;
                for (int dir = 1; dir >= -1; dir -= 2) {
                    *wp = old + dir * step;
                    double e = tune_error(a, &a->w, k);
                    if (e < best) {
                        best = e;
                        better = true;
                        break;
                    }
                    *wp = old;
                }
            }
            fprintf(stderr, "step %d pass %ld: error %.6f\n", step, pass + 1, best);
            if (!better) break;
        }
    }
    return best;
}

/* Writes the weights as name=value lines; false after printing why. */
static bool tune_write(const struct tune_args *a) {
    FILE *f = a->out_path ? fopen(a->out_path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "hnefi tune: cannot write %s: %s\n", a->out_path, strerror(errno));
        return false;
    }
    struct eval_weights w = a->w;
    for (int k = 0; k < TUNE_NW; k++) fprintf(f, "%s=%d\n", tune_names[k], *tune_weight(&w, k));
    bool ok = !ferror(f);
    if (f != stdout) ok &= fclose(f) == 0;
    if (!ok) fprintf(stderr, "hnefi tune: write error\n");
    return ok;
}

/* Reads the arguments; returns -1 to go on, else the exit status. */
static int tune_args_read(struct tune_args *a, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            printf("%s%s", tune_usage, cli_rules_usage);
            return 0;
        }
        int r = cli_game_option(&a->g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) {
            a->variant_given = true;
            continue;
        }
        r = tune_option(a, argc, argv, &i);
        if (r < 0) return r == -2 ? 1 : 2;
        if (r > 0) continue;
        if (argv[i][0] == '-' || a->nfiles == TUNE_FILES) {
            fprintf(stderr, "hnefi tune: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
        a->files[a->nfiles++] = argv[i];
    }
    if (!a->nfiles) {
        fprintf(stderr, "hnefi tune: a record file is needed (try --help)\n");
        return 2;
    }
    if (a->g.fen || a->g.moves) {
        fprintf(stderr, "hnefi tune: --fen and --moves do not apply to record files\n");
        return 2;
    }
    if (a->out_path && !cli_check_writable(a->out_path, "hnefi tune: --out")) return 1; /* first */
    return cli_game_finish(&a->g) ? -1 : 2;
}

/* Loads the positions, tunes and writes the weights. */
static int tune_run(struct tune_args *a) {
    char err[800];
    for (int f = 0; f < a->nfiles; f++) {
        char path[4096];
        if (!cli_data_file(a->files[f], "record file", path, sizeof path)) return 1;
        if (!records_scan(path, a->variant_given ? &a->g.variant : NULL, false, tune_on_record, a,
                          NULL, NULL, err, sizeof err)) {
            fprintf(stderr, "hnefi tune: %s\n", err);
            return 1;
        }
    }
    if (a->n == 0) {
        fprintf(stderr, "hnefi tune: no positions (no finished games past --skip)\n");
        return 1;
    }
    double k = tune_fit_scale(a), start = tune_error(a, &a->w, k);
    fprintf(stderr, "%ld games, %zu positions, scale %.4f, error %.6f\n", a->games, a->n, k, start);
    double end = tune_descend(a, k, start);
    fprintf(stderr, "error %.6f -> %.6f\n", start, end);
    return tune_write(a) ? 0 : 1;
}

/* hnefi tune: fits the evaluation weights to game results. */
int cmd_tune(int argc, char **argv) {
    struct tune_args *a = calloc(1, sizeof *a);
    if (!a) return 1;
    cli_game_init(&a->g);
    a->skip = 6;
    a->every = 1;
    a->limit = 2000000;
    a->passes = 20;
    a->w = eval_default_weights;
    a->fixed[tune_weight_index("attacker", 8)] = true;
    int rc = tune_args_read(a, argc, argv);
    if (rc < 0) rc = tune_run(a);
    cli_game_free(&a->g);
    free(a->pos);
    free(a);
    return rc;
}
