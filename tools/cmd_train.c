/* hnefi train: fits a network (the learned evaluation) to training data from self-play. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "search/nnue.h"
#include "selfplay/datagen.h"
#include "tools/chart.h"
#include "tools/cli.h"
#include "tools/nnue_train.h"
#include "tools/proto_session.h"

/* hnefi train (declared for tools/hnefi.c). */
int cmd_train(int argc, char **argv);

enum { TRAIN_FILES = 64, TRAIN_MAX_EPOCHS = 1000 };

static const char train_usage[] =
    "usage: hnefi train --data FILE... --out NET [options]\n"
    "Trains the learned evaluation (docs/nnue.md) on training data written by\n"
    "hnefi selfplay --datagen, and writes the network of the lowest validation loss.\n"
    "  --data FILE        a training-data file (repeatable)\n"
    "  --out NET          the network file to write\n"
    "  --init NET         start from this network's weights (default: random); it may\n"
    "                     be another variant's network on a board of the same size, or\n"
    "                     a smaller one, widened to --hidden neurons\n"
    "  --hidden N         hidden neurons, a multiple of 32 up to 1024 (default: the\n"
    "                     --init network's, else 256)\n"
    "  --buckets N        output buckets by the pieces on the board, 1 to 8 (default:\n"
    "                     the --init network's, else 1); a network of one bucket can\n"
    "                     start a run of more, each bucket starting from its heads\n"
    "  --inputs pieces|reach  the pieces only, or also the king's reach (default reach)\n"
    "  --epochs N         passes over the data (default 20)\n"
    "  --batch N          positions per step (default 16384)\n"
    "  --lr X             Adam's learning rate (default 0.001) ...\n"
    "  --lr-drop X        ... multiplied by X (default 0.3) ...\n"
    "  --lr-step N        ... every N epochs (default 8)\n"
    "  --lambda X         label: X * score + (1 - X) * result (default 0.5)\n"
    "  --scale K          centi-men per output unit (default 174: sigmoid(out) is the\n"
    "                     winning chance the protocols print for the score)\n"
    "  --val X            share of the games held out for validation (default 0.05;\n"
    "                     0 with --val-data)\n"
    "  --val-data FILE    a training-data file held out whole for validation, the same\n"
    "                     set for runs on different --data (repeatable)\n"
    "  --threads N        worker threads (default: the number of cores)\n"
    "  --seed S           weights, shuffling and symmetries (default 1)\n"
    "  --no-symmetry      do not use the board's 8 symmetries\n"
    "  --quiet-only       train on quiet positions only: none where the side to move can\n"
    "                     capture or either side has a win in one\n"
    "  --max-positions N  read at most N positions\n"
    "  --svg FILE         a picture of the losses per epoch\n"
    "The rules of the data (default: the variant the first --data file names):\n";

/* The options, the data and the epochs seen. */
struct train_args {
    struct cli_game g;
    struct train_config cfg;
    const char *files[TRAIN_FILES];
    int nfiles;
    const char *val_files[TRAIN_FILES]; /* --val-data */
    int nval_files;
    bool val_given; /* --val */
    const char *out, *init, *svg;
    bool variant_given; /* else the variant the first data file names */
    bool hidden_given;  /* else the --init network's, or the default */
    bool buckets_given; /* likewise */
    struct train_epoch epochs[TRAIN_MAX_EPOCHS + 1]; /* and epoch 0 */
    int nepochs;
};

/* Reads a number option in [lo, hi]; false after printing why. */
static bool train_double(const char *text, double lo, double hi, const char *what, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "hnefi train: %s '%s': expected a number from %g to %g\n", what, text, lo,
                hi);
        return false;
    }
    *out = v;
    return true;
}

/* Reads one option; returns 1 if used, 0 if unknown, -1 after an error. */
static int train_option(struct train_args *a, int argc, char **argv, int *i) {
    const char *o = argv[*i];
    struct train_config *c = &a->cfg;
    if (strcmp(o, "--quiet-only") == 0) {
        c->quiet_only = true;
        return 1;
    }
    if (strcmp(o, "--no-symmetry") == 0) {
        c->symmetry = false;
        return 1;
    }
    static const char *const with_value[] = {
        "--inputs",        "--data",  "--out",      "--init",    "--hidden",
        "--epochs",        "--batch", "--lr",       "--lr-drop", "--lr-step",
        "--lambda",        "--scale", "--val",      "--threads", "--seed",
        "--max-positions", "--svg",   "--val-data", "--buckets"};
    bool known = false;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
        known |= strcmp(o, with_value[k]) == 0;
    if (!known) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi train: %s needs a value\n", o);
        return -1;
    }
    const char *v = argv[++*i];
    long n;
    if (strcmp(o, "--data") == 0) {
        if (a->nfiles == TRAIN_FILES) {
            fprintf(stderr, "hnefi train: at most %d --data files\n", TRAIN_FILES);
            return -1;
        }
        a->files[a->nfiles++] = v;
    } else if (strcmp(o, "--val-data") == 0) {
        if (a->nval_files == TRAIN_FILES) {
            fprintf(stderr, "hnefi train: at most %d --val-data files\n", TRAIN_FILES);
            return -1;
        }
        a->val_files[a->nval_files++] = v;
    } else if (strcmp(o, "--out") == 0) {
        a->out = v;
    } else if (strcmp(o, "--init") == 0) {
        a->init = v;
    } else if (strcmp(o, "--svg") == 0) {
        a->svg = v;
    } else if (strcmp(o, "--inputs") == 0) {
        if (strcmp(v, "pieces") != 0 && strcmp(v, "reach") != 0) {
            fprintf(stderr, "hnefi train: --inputs '%s': expected pieces or reach\n", v);
            return -1;
        }
        c->arch = strcmp(v, "pieces") == 0 ? NNUE_ARCH_PIECES : NNUE_ARCH_KING_REACH;
    } else if (strcmp(o, "--hidden") == 0) {
        if (!cli_parse_int(v, 32, NNUE_MAX_HIDDEN, o, &n)) return -1;
        if (n % 32) {
            fprintf(stderr, "hnefi train: --hidden '%s': a multiple of 32\n", v);
            return -1;
        }
        c->hidden = (int)n;
        a->hidden_given = true;
    } else if (strcmp(o, "--buckets") == 0) {
        if (!cli_parse_int(v, 1, NNUE_MAX_BUCKETS, o, &n)) return -1;
        c->buckets = (int)n;
        a->buckets_given = true;
    } else if (strcmp(o, "--epochs") == 0) {
        if (!cli_parse_int(v, 1, TRAIN_MAX_EPOCHS, o, &n)) return -1;
        c->epochs = (int)n;
    } else if (strcmp(o, "--batch") == 0) {
        if (!cli_parse_int(v, 1, 1 << 24, o, &n)) return -1;
        c->batch = (int)n;
    } else if (strcmp(o, "--lr-step") == 0) {
        if (!cli_parse_int(v, 1, TRAIN_MAX_EPOCHS, o, &n)) return -1;
        c->lr_step = (int)n;
    } else if (strcmp(o, "--threads") == 0) {
        if (!cli_parse_int(v, 1, 64, o, &n)) return -1;
        c->threads = (int)n;
    } else if (strcmp(o, "--seed") == 0) {
        if (!cli_parse_int(v, 0, 1L << 62, o, &n)) return -1;
        c->seed = (uint64_t)n;
    } else if (strcmp(o, "--max-positions") == 0) {
        if (!cli_parse_int(v, 1, 1L << 40, o, &n)) return -1;
        c->max_positions = n;
    } else {
        double *dst = strcmp(o, "--lr") == 0        ? &c->lr
                      : strcmp(o, "--lr-drop") == 0 ? &c->lr_drop
                      : strcmp(o, "--lambda") == 0  ? &c->lambda
                      : strcmp(o, "--scale") == 0   ? &c->scale
                                                    : &c->val_frac;
        double lo = dst == &c->scale ? 1 : dst == &c->lr ? 1e-9 : 0;
        a->val_given |= dst == &c->val_frac;
        double hi = dst == &c->scale ? 100000 : dst == &c->val_frac ? 0.5 : 1;
        if (!train_double(v, lo, hi, o, dst)) return -1;
    }
    return 1;
}

/* Prints an epoch's line and keeps it for the picture. */
static void train_report(const struct train_epoch *e, void *ctx) {
    struct train_args *a = ctx;
    if (a->nepochs <= TRAIN_MAX_EPOCHS) a->epochs[a->nepochs++] = *e;
    if (e->epoch == 0)
        printf("epoch   0  the starting network  validation loss %.6f (as stored %.6f, against "
               "results %.6f)  %.1f s\n",
               e->val_loss, e->val_grid_loss, e->val_result_loss, e->seconds);
    else
        printf("epoch %3d  lr %.6f  train loss %.6f  validation loss %.6f (as stored %.6f, "
               "against results %.6f)  %.1f s\n",
               e->epoch, e->lr, e->train_loss, e->val_loss, e->val_grid_loss, e->val_result_loss,
               e->seconds);
    fflush(stdout);
}

/* Writes the picture of the losses per epoch; false after printing why. */
static bool train_write_svg(const struct train_args *a, const char *title) {
    FILE *f = fopen(a->svg, "w");
    if (!f) {
        fprintf(stderr, "hnefi train: cannot write %s: %s\n", a->svg, strerror(errno));
        return false;
    }
    /* the starting network (epoch 0) has validation losses only */
    double x[TRAIN_MAX_EPOCHS + 1], tr[TRAIN_MAX_EPOCHS + 1], va[TRAIN_MAX_EPOCHS + 1],
        vg[TRAIN_MAX_EPOCHS + 1];
    int first = a->nepochs > 0 && a->epochs[0].epoch == 0 ? 1 : 0;
    struct chart_panel p = {40, first ? 0 : 1, a->nepochs > 1 ? a->epochs[a->nepochs - 1].epoch : 2,
                            1e9, -1e9};
    for (int i = 0; i < a->nepochs; i++) {
        x[i] = a->epochs[i].epoch;
        tr[i] = a->epochs[i].train_loss;
        va[i] = a->epochs[i].val_loss;
        vg[i] = a->epochs[i].val_grid_loss;
        double lo = va[i] < vg[i] ? va[i] : vg[i], hi = va[i] > vg[i] ? va[i] : vg[i];
        if (i >= first) lo = tr[i] < lo ? tr[i] : lo, hi = tr[i] > hi ? tr[i] : hi;
        if (lo < p.lo) p.lo = lo;
        if (hi > p.hi) p.hi = hi;
    }
    double pad = (p.hi - p.lo) * 0.1 + 1e-6;
    p.lo -= pad;
    p.hi += pad;
    chart_begin(f, 40 + CHART_PANEL_H + 40, title);
    chart_frame(f, &p, "loss (mean squared error) per epoch", 4);
    chart_line(f, &p, x + first, tr + first, a->nepochs - first, "#1f4fa8");
    chart_line(f, &p, x, va, a->nepochs, "#b5541c");
    chart_line(f, &p, x, vg, a->nepochs, "#2e8b3a");
    chart_legend(f, &p, 0, "training", "#1f4fa8");
    chart_legend(f, &p, 1, "validation", "#b5541c");
    chart_legend(f, &p, 2, "validation, weights as stored", "#2e8b3a");
    bool ok = chart_end(f);
    ok &= fclose(f) == 0;
    if (!ok) fprintf(stderr, "hnefi train: write error on %s\n", a->svg);
    return ok;
}

/* Writes the network file; false after printing why. */
static bool train_write_net(const struct nnue_net *net, const char *path) {
    size_t len = nnue_file_size(net);
    uint8_t *buf = malloc(len);
    FILE *f = buf ? fopen(path, "wb") : NULL;
    if (!f) {
        fprintf(stderr, "hnefi train: cannot write %s: %s\n", path,
                buf ? strerror(errno) : "out of memory");
        free(buf);
        return false;
    }
    nnue_write(net, buf);
    bool ok = fwrite(buf, 1, len, f) == len;
    ok &= fclose(f) == 0;
    free(buf);
    if (!ok) fprintf(stderr, "hnefi train: write error on %s\n", path);
    return ok;
}

/* Checks that the output files can be written before the long work starts. */
static bool train_check_outputs(const struct train_args *a) {
    const char *paths[2] = {a->out, a->svg};
    for (int k = 0; k < 2; k++) {
        if (!paths[k]) continue;
        bool existed = access(paths[k], F_OK) == 0;
        FILE *f = fopen(paths[k], "ab");
        if (!f) {
            fprintf(stderr, "hnefi train: cannot write %s: %s\n", paths[k], strerror(errno));
            return false;
        }
        fclose(f);
        if (!existed) remove(paths[k]);
    }
    return true;
}

/* Reads the arguments; returns -1 to go on, else the exit status. */
static int train_args_read(struct train_args *a, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s%s", train_usage, cli_rules_usage);
            return 0;
        }
        int r = cli_game_option(&a->g, argc, argv, &i);
        if (r > 0) a->variant_given = true;
        if (r == 0) r = train_option(a, argc, argv, &i);
        if (r < 0) return 2;
        if (r == 0) {
            fprintf(stderr, "hnefi train: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (!a->nfiles || !a->out) {
        fprintf(stderr, "hnefi train: --data and --out are needed (try --help)\n");
        return 2;
    }
    if (a->nval_files && !a->val_given) a->cfg.val_frac = 0; /* the --val-data files alone */
    if (a->cfg.val_frac == 0 && !a->nval_files) {
        fprintf(stderr, "hnefi train: --val 0 holds out no games: give --val-data FILE\n");
        return 2;
    }
    if (a->g.fen || a->g.moves) {
        fprintf(stderr, "hnefi train: --fen and --moves do not apply to training data\n");
        return 2;
    }
    if (!a->variant_given) {
        int rc = cli_data_variant("train", a->files[0], &a->g.variant, &hnefi_shared_handoff);
        if (rc) return rc;
    }
    if (!cli_game_finish(&a->g)) return 2;
    if (!train_check_outputs(a)) return 1;
    a->cfg.v = &a->g.variant;
    return -1;
}

/* Loads the data and the starting network, trains, and writes the results. */
static int train_main(struct train_args *a) {
    char err[600];
    struct train_data *d = train_data_new(&a->g.variant);
    struct nnue_net init = {0}, out = {0};
    int rc = 1;
    if (!d) {
        fprintf(stderr, "hnefi train: out of memory\n");
        return 1;
    }
    for (int f = 0; f < a->nfiles; f++) {
        if (!train_data_add_file(d, a->files[f], &a->cfg, err, sizeof err)) {
            fprintf(stderr, "hnefi train: %s\n", err);
            goto done;
        }
    }
    /* after the --data files, so that their games are held out as without --val-data */
    for (int f = 0; f < a->nval_files; f++) {
        if (!train_data_add_val_file(d, a->val_files[f], &a->cfg, err, sizeof err)) {
            fprintf(stderr, "hnefi train: --val-data: %s\n", err);
            goto done;
        }
    }
    if (a->init) {
        /* another variant's network on the same board is a fair start (docs/nnue.md) */
        if (!nnue_load_file(&init, a->init, err, sizeof err) ||
            !nnue_fits_board(&init, &a->g.variant, err, sizeof err)) {
            fprintf(stderr, "hnefi train: --init: %s\n", err);
            goto done;
        }
        if (strcasecmp(init.variant, a->g.variant.name) != 0)
            printf("starting from %s's network; the one written is %s's\n", init.variant,
                   a->g.variant.name);
        if (!a->hidden_given) a->cfg.hidden = init.hidden;
        if (!a->buckets_given) a->cfg.buckets = init.buckets;
        if (init.buckets == 1 && a->cfg.buckets > 1)
            printf("splitting the starting network's output into %d buckets\n", a->cfg.buckets);
        if (init.hidden < a->cfg.hidden)
            printf("widening the starting network from %d to %d hidden neurons\n", init.hidden,
                   a->cfg.hidden);
    }
    int64_t positions, games, val_games;
    train_data_counts(d, &positions, &games, &val_games);
    printf("%s: %lld positions of %lld games, %lld of them held out for validation\n",
           a->g.variant.name, (long long)positions, (long long)games, (long long)val_games);
    if (a->cfg.quiet_only)
        printf("--quiet-only left out %lld positions with a capture or a win in one at hand\n",
               (long long)train_data_loud(d));
    struct train_summary sum;
    if (!train_run(&a->cfg, d, a->init ? &init : NULL, train_report, a, &out, &sum, err,
                   sizeof err)) {
        fprintf(stderr, "hnefi train: %s\n", err);
        goto done;
    }
    printf("kept epoch %d%s (validation loss as stored %.6f); scale %.1f centi-men per unit; "
           "quantised evaluation within %.2f centi-men of the float one on average\n",
           sum.best_epoch, sum.best_epoch == 0 ? ", the starting network: no epoch did better" : "",
           sum.best_val_loss, sum.scale, sum.quant_error_cp);
    if (!train_write_net(&out, a->out)) goto done;
    printf("wrote %s\n", a->out);
    if (a->svg) {
        char title[160];
        snprintf(title, sizeof title, "hnefi train: %s, %lld positions, hidden %d, lambda %.2f",
                 a->g.variant.name, (long long)positions, a->cfg.hidden, a->cfg.lambda);
        if (!train_write_svg(a, title)) goto done;
        printf("wrote %s\n", a->svg);
    }
    rc = 0;
done:
    nnue_free(&init);
    nnue_free(&out);
    train_data_free(d);
    return rc;
}

/* hnefi train: fits a network to training data. */
int cmd_train(int argc, char **argv) {
    struct train_args *a = calloc(1, sizeof *a);
    if (!a) return 1;
    cli_game_init(&a->g);
    train_config_default(&a->cfg, &a->g.variant);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->cfg.threads = cores > 0 ? (int)(cores > 64 ? 64 : cores) : 1;
    int rc = train_args_read(a, argc, argv);
    if (rc < 0) rc = train_main(a);
    cli_game_free(&a->g);
    free(a);
    return rc;
}
