/*
 * The network trainer behind `hnefi train` (docs/nnue.md): reads training data written by
 * `hnefi selfplay --datagen`, fits the network of search/nnue.h in floating point with Adam on
 * all cores, and writes it quantised.
 *
 * A position's label blends its search score and its game's result, both from the side to move:
 * target = lambda * sigmoid(score / scale) + (1 - lambda) * result, result 1 for a win, 0.5 for a
 * draw, 0 for a loss. The loss is the squared difference between sigmoid(output) and the target,
 * so the network's output times `scale` is an evaluation in centi-men. The default scale, 174
 * (400 / ln 10), makes the network's winning chance sigmoid(output) exactly the chance the
 * protocols print for its score (1 / (1 + 10^(-score / 400))). Where the variant's start and rules
 * are the same under the 8 symmetries of the square, each position is used in a random one of its 8
 * images. Whole games are held out for validation. The training is deterministic for a seed and a
 * number of threads.
 */
#ifndef HNEFI_TOOLS_NNUE_TRAIN_H
#define HNEFI_TOOLS_NNUE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/position.h"
#include "engine/variant.h"

enum { TRAIN_SCALE = 174 }; /* 400 / ln 10: sigmoid(score / 174) = 1 / (1 + 10^(-score/400)) */

/* What a training run does. */
struct train_config {
    const struct variant *v;
    int arch;              /* NNUE_ARCH_PIECES or NNUE_ARCH_KING_REACH (search/nnue.h) */
    int hidden;            /* hidden neurons, a multiple of 32 */
    int buckets;           /* output buckets by the pieces on the board (1: none) */
    int epochs;            /* passes over the training positions */
    int batch;             /* positions per step */
    double lr;             /* Adam's learning rate at the start */
    double lr_drop;        /* the rate is multiplied by this ... */
    int lr_step;           /* ... every lr_step epochs */
    double lambda;         /* weight of the search score in the label */
    double scale;          /* centi-men per unit of output; 0: fit it to the data */
    double val_frac;       /* share of the games held out for validation */
    int threads;           /* worker threads */
    uint64_t seed;         /* initial weights, shuffling, symmetries */
    bool symmetry;         /* use the board's symmetries (if the variant has them) */
    int skip_plies;        /* leave out positions before this ply */
    bool quiet_only;       /* leave out positions with a capture or a win in one at hand */
    int64_t max_positions; /* 0: all */
};

/* One epoch's report. */
struct train_epoch {
    int epoch; /* 0: the starting network (--init), before any step; no training loss */
    double lr;
    double train_loss, val_loss; /* against the blended targets */
    double val_grid_loss;        /* val_loss of the weights rounded as the file stores them */
    double val_result_loss;      /* against the game results alone (the rounded weights) */
    double seconds;
};

struct train_data;
struct nnue_net;

/* Sets the defaults (hidden 256, 20 epochs, batch 16384, lr 0.001, lambda 0.5, ...). */
void train_config_default(struct train_config *c, const struct variant *v);

/* Creates an empty data set for variant v (NULL if out of memory). */
struct train_data *train_data_new(const struct variant *v);

/* Adds the positions of a training-data file; false with the reason in err. */
bool train_data_add_file(struct train_data *d, const char *path, const struct train_config *c,
                         char *err, size_t errlen);

/* Adds the positions of a training-data file, every game of it held out for validation (a
   validation set shared by runs on different training data); false with the reason in err. */
bool train_data_add_val_file(struct train_data *d, const char *path, const struct train_config *c,
                             char *err, size_t errlen);

/* Counts the positions and games loaded, and how many of the games are held out. */
void train_data_counts(const struct train_data *d, int64_t *positions, int64_t *games,
                       int64_t *val_games);

/* Returns how many positions quiet_only left out. */
int64_t train_data_loud(const struct train_data *d);

/*
 * Tells whether p is quiet for training: no berserk turn going on, neither side with a win in
 * one at hand, and no capture for the side to move. Quiescence resolves the other positions,
 * but the search's pruning still reads their static evaluation: a network taught the quiet
 * ones alone lost in play (docs/nnue.md, `cQ`), so this is an option, not the default.
 */
bool train_position_quiet(const struct position *p);

/* Frees a data set. */
void train_data_free(struct train_data *d);

/* What a finished run found. */
struct train_summary {
    double scale;   /* centi-men per unit of output, as used */
    int best_epoch; /* the epoch whose network was kept (lowest validation loss of the weights
                       rounded as the file stores them); 0: the starting network */
    double best_val_loss;
    double quant_error_cp; /* mean |quantised - float| evaluation on validation positions */
};

/*
 * Trains a network on d (from init's weights when init is not NULL, widened to c->hidden neurons
 * if it has fewer, the new neurons starting with no output weight, and split into c->buckets
 * output buckets if it has one, each starting with its two heads); calls report after every
 * epoch (it may be NULL; epoch 0 is the starting network's when init is given) and fills *out
 * with the network of the lowest validation loss once rounded as the file stores it (the
 * starting network itself when no epoch beats it), and *sum. Returns false with the reason in
 * err.
 */
bool train_run(const struct train_config *c, struct train_data *d, const struct nnue_net *init,
               void (*report)(const struct train_epoch *e, void *ctx), void *ctx,
               struct nnue_net *out, struct train_summary *sum, char *err, size_t errlen);

#endif
