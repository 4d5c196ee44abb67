/* The network trainer: training data in memory, a float model, Adam on all cores, quantising. */
#include "tools/nnue_train.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/make.h"
#include "engine/rules.h"
#include "engine/symmetry.h"
#include "engine/threats.h"
#include "search/nnue.h"
#include "search/score.h"
#include "selfplay/datagen.h"

enum { SYMMETRIES = SYM_NB, MAX_THREADS = 64 };

/* One training position: its inputs (in feat), side to move, score and result. */
struct tpos {
    uint64_t feat_off;
    uint8_t nfeat, ndyn, side; /* piece inputs, then the king's reach inputs */
    bool val;                  /* held out for validation */
    float score;               /* the side to move's search score, centi-men (wins clamped) */
    float result;              /* the side to move's result: 1 win, 0.5 draw, 0 loss */
};

struct train_data {
    const struct variant *v;
    int squares, inputs; /* inputs: the most any architecture uses */
    struct tpos *pos;
    size_t n, cap;
    uint16_t *feat;
    size_t nfeat, featcap;
    int64_t games, val_games;
    int64_t loud; /* positions left out by quiet_only */
    int files;
    bool symmetric; /* the start, masks and rules look the same under all 8 symmetries */
    uint16_t sym[SYMMETRIES][NNUE_MAX_INPUTS];
    /* while a file is read */
    bool all_val; /* every game of it held out (train_data_add_val_file) */
    const struct train_config *cfg;
    int64_t last_game;
    bool last_val;
    bool oom;
};

/* Returns the next value of a splitmix64 sequence. */
static uint64_t mix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Creates an empty data set for variant v (NULL if out of memory). */
struct train_data *train_data_new(const struct variant *v) {
    struct train_data *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->v = v;
    d->squares = v->size * v->size;
    d->inputs = nnue_inputs_of(NNUE_ARCH_KING_REACH, d->squares);
    d->symmetric = sym_variant_allows(v) == SYM_ALL;
    for (int k = 0; k < SYMMETRIES; k++)
        for (int i = 0; i < d->inputs; i++) {
            int plane = i / d->squares, sq = i % d->squares;
            /* the four square planes map square by square; the reach buckets stay */
            d->sym[k][i] = plane > NNUE_PLANES
                               ? (uint16_t)i
                               : (uint16_t)(plane * d->squares + sym_square(k, sq, v->size));
        }
    return d;
}

/* Frees a data set. */
void train_data_free(struct train_data *d) {
    if (!d) return;
    free(d->pos);
    free(d->feat);
    free(d);
}

/* Counts the positions and games loaded. */
void train_data_counts(const struct train_data *d, int64_t *positions, int64_t *games,
                       int64_t *val_games) {
    *positions = (int64_t)d->n;
    *games = d->games;
    *val_games = d->val_games;
}

/* Returns how many positions quiet_only left out. */
int64_t train_data_loud(const struct train_data *d) {
    return d->loud;
}

/* Tells whether p is quiet for training (see nnue_train.h). */
bool train_position_quiet(const struct position *p) {
    if (pos_berserker(p) >= 0 || p->result != RESULT_NONE) return false;
    if (threat_win_in_one(p) || threat_against(p)) return false;
    bb_t squares = rules_capture_squares(p);
    if (bb_is_empty(squares)) return true;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        if (!bb_has(squares, move_to(moves[i]))) continue;
        struct position child;
        if (bb_any(make_move(&child, p, moves[i]))) return false;
    }
    return true;
}

/* Grows an array to hold at least need items of size sz; false if out of memory. */
static bool grow(void **arr, size_t *cap, size_t need, size_t sz) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 1 << 16;
    while (c < need) c *= 2;
    void *p = realloc(*arr, c * sz);
    if (!p) return false;
    *arr = p;
    *cap = c;
    return true;
}

/* Appends the inputs of the pieces of kind pk on the squares of b. */
static void add_inputs(struct train_data *d, enum piece pk, bb_t b) {
    while (bb_any(b)) d->feat[d->nfeat++] = (uint16_t)nnue_input(d->squares, pk, bb_pop(&b));
}

/* Adds one position read from a training-data file. */
static bool on_position(const struct datagen_pos *dp, void *ctx) {
    struct train_data *d = ctx;
    const struct train_config *c = d->cfg;
    if (c->max_positions && (int64_t)d->n >= c->max_positions) return true;
    if (dp->ply < c->skip_plies) return true;
    if (dp->game != d->last_game) {
        /* a new game: held out by a hash of (file, game), so whole games go one way */
        uint64_t h = (uint64_t)dp->game * 0x9E3779B97F4A7C15ULL ^ (uint64_t)d->files << 48;
        h = mix64(&h);
        d->last_game = dp->game;
        d->last_val = d->all_val || (double)(h >> 11) * 0x1.0p-53 < c->val_frac;
        d->games++;
        d->val_games += d->last_val;
    }
    const struct position *p = &dp->pos;
    /* after the game's bookkeeping, so the games held out do not depend on the filter */
    if (c->quiet_only && !train_position_quiet(p)) {
        d->loud++;
        return true;
    }
    int pieces = bb_popcount(p->att | p->def | p->king);
    if (!grow((void **)&d->pos, &d->cap, d->n + 1, sizeof *d->pos) ||
        !grow((void **)&d->feat, &d->featcap, d->nfeat + (size_t)pieces + NNUE_MAX_REACH,
              sizeof *d->feat)) {
        d->oom = true;
        return false;
    }
    struct tpos *t = &d->pos[d->n++];
    t->feat_off = d->nfeat;
    t->nfeat = (uint8_t)pieces;
    t->side = p->side;
    t->val = d->last_val;
    int s = dp->score;
    if (s > SCORE_WIN_MIN) s = SCORE_WIN_MIN;
    if (s < -SCORE_WIN_MIN) s = -SCORE_WIN_MIN;
    t->score = (float)s;
    bool stm_won = (dp->result == RESULT_ATTACKERS) == (p->side == SIDE_ATTACKERS);
    t->result = dp->result == RESULT_DRAW ? 0.5f : stm_won ? 1.0f : 0.0f;
    add_inputs(d, PIECE_ATTACKER, p->att);
    add_inputs(d, PIECE_DEFENDER, p->def);
    add_inputs(d, PIECE_KING, p->king);
    int dyn[NNUE_MAX_REACH];
    int ndyn = nnue_king_inputs(p, dyn);
    for (int i = 0; i < ndyn; i++) d->feat[d->nfeat++] = (uint16_t)dyn[i];
    t->ndyn = (uint8_t)ndyn;
    return true;
}

/* Adds the positions of a training-data file; false with the reason in err. */
bool train_data_add_file(struct train_data *d, const char *path, const struct train_config *c,
                         char *err, size_t errlen) {
    d->cfg = c;
    d->last_game = -1;
    d->oom = false;
    int64_t games, positions;
    bool ok = datagen_read(path, d->v, on_position, d, &games, &positions, err, errlen);
    if (d->oom) snprintf(err, errlen, "%s: out of memory after %zu positions", path, d->n);
    d->files++;
    return ok && !d->oom;
}

/* Adds the positions of a training-data file, every game of it held out for validation; false
   with the reason in err. */
bool train_data_add_val_file(struct train_data *d, const char *path, const struct train_config *c,
                             char *err, size_t errlen) {
    d->all_val = true;
    bool ok = train_data_add_file(d, path, c, err, errlen);
    d->all_val = false;
    return ok;
}

/* The float model: W1 (inputs x hidden), b1, W2 (heads x hidden), b2 (heads), as one flat array;
   two heads per output bucket (search/nnue.h). */
struct model {
    int inputs, hidden;
    int buckets, bucket_pieces, heads;
    size_t n; /* parameters */
    float *p;
    float *w1, *b1, *w2, *b2;
};

/* Points the parts of a flat parameter array p into m. */
static void model_parts(struct model *m, float *p) {
    size_t h = (size_t)m->hidden;
    m->p = p;
    m->w1 = p;
    m->b1 = p + (size_t)m->inputs * h;
    m->w2 = m->b1 + h;
    m->b2 = m->w2 + (size_t)m->heads * h;
}

/* Sizes a model of `buckets` output buckets of `per` pieces; the parameters are allocated by the
   caller as m->n floats. */
static void model_size(struct model *m, int inputs, int hidden, int buckets, int per) {
    m->inputs = inputs;
    m->hidden = hidden;
    m->buckets = buckets;
    m->bucket_pieces = per;
    m->heads = SIDE_NB * buckets;
    m->n = (size_t)inputs * hidden + (size_t)hidden + (size_t)m->heads * hidden + (size_t)m->heads;
}

/* Returns the model's output head for a position of side to move `side` and `pieces` pieces. */
static inline int model_head(const struct model *m, int side, int pieces) {
    return nnue_bucket_head(m->buckets, m->bucket_pieces, side, pieces);
}

/* Returns the logistic function. */
static inline double sigmoid(double x) {
    return 1.0 / (1.0 + exp(-x));
}

/* The bounds that keep the quantised weights within the network format's limits. */
static const float W1_LIM = (float)NNUE_W1_MAX / NNUE_QA - 0.01f;
static const float B1_LIM = (float)NNUE_B1_MAX / NNUE_QA - 0.01f;
static const float W2_LIM = (float)NNUE_W2_MAX / NNUE_QB - 0.01f;

/* Forward pass of one position (inputs f, output head s); writes acc; returns the output. */
static float forward(const struct model *m, const uint16_t *f, int nf, int s, float *acc) {
    int h = m->hidden;
    memcpy(acc, m->b1, (size_t)h * sizeof *acc);
    for (int i = 0; i < nf; i++) {
        const float *w = m->w1 + (size_t)f[i] * h;
        for (int j = 0; j < h; j++) acc[j] += w[j];
    }
    const float *w2 = m->w2 + (size_t)s * h;
    float out = m->b2[s];
    for (int j = 0; j < h; j++) {
        float c = acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j];
        out += c * c * w2[j];
    }
    return out;
}

/* Adds the gradient of one position's loss (given dL/dout = g) into grad. */
static void backward(const struct model *m, const uint16_t *f, int nf, int s, const float *acc,
                     float g, struct model *grad, float *dacc) {
    int h = m->hidden;
    const float *w2 = m->w2 + (size_t)s * h;
    float *gw2 = grad->w2 + (size_t)s * h;
    for (int j = 0; j < h; j++) {
        float a = acc[j], c = a < 0 ? 0 : a > 1 ? 1 : a;
        gw2[j] += g * c * c;
        dacc[j] = a > 0 && a < 1 ? 2 * g * w2[j] * c : 0;
        grad->b1[j] += dacc[j];
    }
    grad->b2[s] += g;
    for (int i = 0; i < nf; i++) {
        float *gw = grad->w1 + (size_t)f[i] * h;
        for (int j = 0; j < h; j++) gw[j] += dacc[j];
    }
}

/* What one worker does in a step: a slice of a batch (gradients) or of the validation set. */
struct work {
    const struct train_data *d;
    const struct model *m;
    bool reach;          /* the model has the king's reach inputs */
    const uint32_t *idx; /* the positions */
    size_t from, to;
    uint64_t sym_seed; /* picks each position's symmetry; 0: none */
    double lambda, scale;
    struct model grad; /* NULL parameters: forward only */
    double loss, result_loss;
};

/* Returns the label of position t. */
static inline double target_of(const struct tpos *t, double lambda, double scale) {
    return lambda * sigmoid(t->score / scale) + (1 - lambda) * t->result;
}

/* Runs a worker's slice: the loss, and the gradients when grad has parameters. */
static void *work_run(void *arg) {
    struct work *w = arg;
    const struct train_data *d = w->d;
    int h = w->m->hidden;
    float *acc = malloc(2 * (size_t)h * sizeof *acc), *dacc = acc + h;
    uint16_t f[NNUE_MAX_INPUTS];
    w->loss = w->result_loss = 0;
    if (!acc) return NULL;
    for (size_t i = w->from; i < w->to; i++) {
        uint32_t k = w->idx[i];
        const struct tpos *t = &d->pos[k];
        const uint16_t *src = d->feat + t->feat_off;
        int sym = 0;
        if (w->sym_seed) {
            uint64_t s = w->sym_seed ^ (uint64_t)k * 0xD1B54A32D192ED03ULL;
            sym = (int)(mix64(&s) & 7);
        }
        int nf = t->nfeat + (w->reach ? t->ndyn : 0);
        for (int j = 0; j < nf; j++) f[j] = d->sym[sym][src[j]];
        int head = model_head(w->m, t->side, t->nfeat); /* nfeat: the pieces */
        float out = forward(w->m, f, nf, head, acc);
        double pred = sigmoid(out), tgt = target_of(t, w->lambda, w->scale);
        double diff = pred - tgt, rdiff = pred - t->result;
        w->loss += diff * diff;
        w->result_loss += rdiff * rdiff;
        if (w->grad.p)
            backward(w->m, f, nf, head, acc, (float)(2 * diff * pred * (1 - pred)), &w->grad, dacc);
    }
    free(acc);
    return NULL;
}

/* Runs workers 1..n-1 on threads and worker 0 here; waits for all. */
static void run_workers(struct work *w, int n) {
    pthread_t th[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int i = 1; i < n; i++) started[i] = pthread_create(&th[i], NULL, work_run, &w[i]) == 0;
    work_run(&w[0]);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            work_run(&w[i]); /* no thread: do its share here */
    }
}

/* Splits positions idx[0..n) among the workers. */
static void split(struct work *w, int workers, size_t n) {
    for (int i = 0; i < workers; i++) {
        w[i].from = n * (size_t)i / (size_t)workers;
        w[i].to = n * (size_t)(i + 1) / (size_t)workers;
    }
}

/* Returns the mean loss over the positions idx[0..n) (and the result loss in *rl). */
static double evaluate_set(struct work *w, int workers, const uint32_t *idx, size_t n, double *rl) {
    if (!n) {
        *rl = 0;
        return 0;
    }
    for (int i = 0; i < workers; i++) {
        w[i].idx = idx;
        w[i].sym_seed = 0;
        w[i].grad.p = NULL;
    }
    split(w, workers, n);
    run_workers(w, workers);
    double loss = 0, r = 0;
    for (int i = 0; i < workers; i++) loss += w[i].loss, r += w[i].result_loss;
    *rl = r / (double)n;
    return loss / (double)n;
}

/* Quantises the float model into net (variant, size and scale from the arguments). */
static void quantise(const struct model *m, const struct variant *v, double scale,
                     struct nnue_net *net) {
    size_t h = (size_t)m->hidden;
    for (size_t i = 0; i < (size_t)m->inputs * h; i++)
        net->w1[i] = (int16_t)lrintf(m->w1[i] * NNUE_QA);
    for (size_t j = 0; j < h; j++) net->b1[j] = (int16_t)lrintf(m->b1[j] * NNUE_QA);
    for (size_t j = 0; j < (size_t)m->heads * h; j++)
        net->w2[j] = (int16_t)lrintf(m->w2[j] * NNUE_QB);
    for (int s = 0; s < m->heads; s++)
        net->b2[s] = (int32_t)lrint((double)m->b2[s] * NNUE_QA * NNUE_QB);
    net->buckets = m->buckets;
    net->bucket_pieces = m->bucket_pieces;
    snprintf(net->variant, sizeof net->variant, "%s", v->name);
    net->arch = m->inputs == nnue_inputs_of(NNUE_ARCH_KING_REACH, v->size * v->size)
                    ? NNUE_ARCH_KING_REACH
                    : NNUE_ARCH_PIECES;
    net->size = v->size;
    net->inputs = m->inputs;
    net->hidden = m->hidden;
    net->scale = (int)lrint(scale);
}

/* Keeps every parameter within the bounds the quantised format allows. */
static void clamp_model(struct model *m) {
    size_t h = (size_t)m->hidden;
    for (size_t i = 0; i < (size_t)m->inputs * h; i++)
        m->w1[i] = fmaxf(-W1_LIM, fminf(W1_LIM, m->w1[i]));
    for (size_t j = 0; j < h; j++) m->b1[j] = fmaxf(-B1_LIM, fminf(B1_LIM, m->b1[j]));
    for (size_t j = 0; j < (size_t)m->heads * h; j++)
        m->w2[j] = fmaxf(-W2_LIM, fminf(W2_LIM, m->w2[j]));
    /* each head's sum of |W2| within the format's bound, rounding included (only a head of more
       than 256 neurons can reach it): scaled down if beyond */
    double lim = (NNUE_W2_SUM_MAX - (double)h / 2 - 1) / NNUE_QB;
    for (int s = 0; s < m->heads; s++) {
        float *w = m->w2 + (size_t)s * h;
        double sum = 0;
        for (size_t j = 0; j < h; j++) sum += fabsf(w[j]);
        if (sum > lim)
            for (size_t j = 0; j < h; j++) w[j] = (float)(w[j] * (lim / sum));
    }
}

/* Sets the defaults. */
void train_config_default(struct train_config *c, const struct variant *v) {
    memset(c, 0, sizeof *c);
    c->v = v;
    c->arch = NNUE_ARCH_KING_REACH;
    c->hidden = 256;
    c->buckets = 1;
    c->epochs = 20;
    c->batch = 16384;
    c->lr = 0.001;
    c->lr_drop = 0.3;
    c->lr_step = 8;
    c->lambda = 0.5;
    c->scale = TRAIN_SCALE;
    c->val_frac = 0.05;
    c->threads = 1;
    c->seed = 1;
    c->symmetry = true;
}

/* Returns seconds on a monotonic clock. */
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Measures the mean |quantised - float| evaluation, in centi-men, on up to 2000 positions. */
static double quant_error(const struct train_data *d, const struct model *m,
                          const struct nnue_net *net, const uint32_t *idx, size_t n) {
    float *acc = malloc((size_t)m->hidden * sizeof *acc);
    struct nnue_acc *qacc = aligned_alloc(64, sizeof *qacc);
    double sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; acc && qacc && i < n && cnt < 2000; i++, cnt++) {
        const struct tpos *t = &d->pos[idx[i]];
        const uint16_t *f = d->feat + t->feat_off;
        struct position p = {0};
        p.v = d->v;
        p.side = t->side;
        for (int j = 0; j < t->nfeat; j++) { /* the pieces; the reach follows from them */
            int plane = f[j] / d->squares, sq = f[j] % d->squares;
            bb_t *b = plane == 0 ? &p.att : plane == 1 ? &p.def : &p.king;
            *b |= bb_sq(sq);
            if (plane == 2) p.king_sq = (bb_square_t)sq;
        }
        nnue_refresh(net, &p, qacc);
        int q = nnue_evaluate(net, qacc, nnue_head_of(net, &p));
        int nf = t->nfeat + (net->arch == NNUE_ARCH_KING_REACH ? t->ndyn : 0);
        double fl = forward(m, f, nf, model_head(m, t->side, t->nfeat), acc) * (double)net->scale;
        sum += fabs(q - fl);
    }
    free(acc);
    free(qacc);
    return cnt ? sum / (double)cnt : 0;
}

/* Returns a starting weight, uniform in [-0.1, 0.1). */
static float small_random(uint64_t *rng) {
    return (float)(0.1 * ((double)(mix64(rng) >> 11) * 0x1.0p-53 * 2 - 1));
}

/*
 * Sets m's weights from net's; a network of fewer neurons is widened: its neurons first, the new
 * ones with small random input weights (from rng) and no output weight, so the model computes
 * the same function. A network of one bucket gives its two heads to every bucket of m (the same
 * function again); otherwise net has m's buckets.
 */
static void model_from_net(struct model *m, const struct nnue_net *net, uint64_t *rng) {
    size_t h = (size_t)m->hidden, hi = (size_t)net->hidden;
    for (size_t i = 0; i < (size_t)m->inputs; i++)
        for (size_t j = 0; j < h; j++)
            m->w1[i * h + j] = j < hi ? net->w1[i * hi + j] / (float)NNUE_QA : small_random(rng);
    for (size_t j = 0; j < h; j++) m->b1[j] = j < hi ? net->b1[j] / (float)NNUE_QA : 0.25f;
    int from_heads = nnue_heads(net);
    for (int s = 0; s < m->heads; s++) {
        int k = s % from_heads;
        for (size_t j = 0; j < h; j++)
            m->w2[s * h + j] = j < hi ? net->w2[k * hi + j] / (float)NNUE_QB : 0;
        m->b2[s] = (float)(net->b2[k] / ((double)NNUE_QA * NNUE_QB));
    }
}

/*
 * Returns the validation loss of m, and fills e's loss of r (m as the file stores it: quantised
 * into q and read back) and r's loss against the results; the workers point at m again after.
 * A refinement at a small learning rate moves the weights by less than half the file's step, and
 * the rounding takes such moves back: r's loss says what the written network keeps of them.
 */
static double validate(struct work *w, int workers, const struct model *m, struct model *r,
                       struct nnue_net *q, const struct variant *v, double scale,
                       const uint32_t *idx, size_t n, struct train_epoch *e) {
    double rl;
    for (int i = 0; i < workers; i++) w[i].grad.p = NULL;
    double loss = evaluate_set(w, workers, idx, n, &rl);
    quantise(m, v, scale, q);
    model_from_net(r, q, NULL);
    for (int i = 0; i < workers; i++) w[i].m = r;
    e->val_grid_loss = evaluate_set(w, workers, idx, n, &e->val_result_loss);
    for (int i = 0; i < workers; i++) w[i].m = m;
    return loss;
}

/* Trains a network on d; see nnue_train.h. */
bool train_run(const struct train_config *c, struct train_data *d, const struct nnue_net *init,
               void (*report)(const struct train_epoch *e, void *ctx), void *ctx,
               struct nnue_net *out, struct train_summary *sum, char *err, size_t errlen) {
    if (c->hidden < 32 || c->hidden > NNUE_MAX_HIDDEN || c->hidden % 32) {
        snprintf(err, errlen, "hidden size %d: a multiple of 32 up to %d", c->hidden,
                 NNUE_MAX_HIDDEN);
        return false;
    }
    int inputs = nnue_inputs_of(c->arch, d->squares);
    if (init && (init->inputs != inputs || init->hidden > c->hidden)) {
        snprintf(err, errlen,
                 "the starting network has %d inputs and %d hidden neurons, this run %d and %d "
                 "(the same inputs and at least as many neurons are needed)",
                 init->inputs, init->hidden, inputs, c->hidden);
        return false;
    }
    /* output buckets: the pieces of the start split evenly (rounded up) */
    int buckets = c->buckets < 1 ? 1 : c->buckets, per = 0;
    if (buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, errlen, "%d output buckets: at most %d", buckets, NNUE_MAX_BUCKETS);
        return false;
    }
    if (buckets > 1) {
        const struct variant_start *st = &d->v->start;
        int pieces = bb_popcount(st->att) + bb_popcount(st->def) + 1;
        per = (pieces + buckets - 1) / buckets;
    }
    if (init && init->buckets != 1 && (init->buckets != buckets || init->bucket_pieces != per)) {
        snprintf(err, errlen,
                 "the starting network has %d output buckets of %d pieces, this run %d of %d "
                 "(a network of one bucket can start any run)",
                 init->buckets, init->bucket_pieces, buckets, per);
        return false;
    }
    size_t ntrain = 0, nval = 0;
    for (size_t i = 0; i < d->n; i++) d->pos[i].val ? nval++ : ntrain++;
    if (ntrain == 0 || nval == 0) {
        snprintf(err, errlen, "%zu training and %zu validation positions: both are needed", ntrain,
                 nval);
        return false;
    }
    int workers = c->threads < 1 ? 1 : c->threads > MAX_THREADS ? MAX_THREADS : c->threads;
    struct model m, best, rounded, grads[MAX_THREADS];
    model_size(&m, inputs, c->hidden, buckets, per);
    best = rounded = m;
    size_t np = m.n;
    /* parameters, best parameters, Adam's moments, one gradient per worker, the rounded copy */
    float *mem = calloc(np * (size_t)(5 + workers), sizeof(float));
    uint32_t *train_idx = malloc(ntrain * sizeof *train_idx),
             *val_idx = malloc(nval * sizeof *val_idx);
    struct nnue_net q = {0};
    q.inputs = inputs;
    q.hidden = c->hidden;
    q.buckets = buckets;
    q.bucket_pieces = per;
    bool ok = mem && train_idx && val_idx;
    if (ok) {
        size_t h = (size_t)c->hidden, n16 = (size_t)inputs * h + h + (size_t)m.heads * h;
        q.mem = aligned_alloc(64, (n16 * sizeof(int16_t) + 63) / 64 * 64);
        ok = q.mem != NULL;
        if (ok) {
            q.w1 = q.mem;
            q.b1 = q.w1 + (size_t)inputs * h;
            q.w2 = q.b1 + h;
        }
    }
    if (!ok) {
        free(mem);
        free(train_idx);
        free(val_idx);
        free(q.mem);
        snprintf(err, errlen, "out of memory for the model");
        return false;
    }
    model_parts(&m, mem);
    model_parts(&best, mem + np);
    float *adam_m = mem + 2 * np, *adam_v = mem + 3 * np;
    for (int i = 0; i < workers; i++) {
        model_size(&grads[i], inputs, c->hidden, buckets, per);
        model_parts(&grads[i], mem + (4 + (size_t)i) * np);
    }
    model_parts(&rounded, mem + (4 + (size_t)workers) * np);
    size_t a = 0, b = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->pos[i].val)
            val_idx[b++] = (uint32_t)i;
        else
            train_idx[a++] = (uint32_t)i;
    }
    /* the starting weights: the given network, or small random ones */
    uint64_t rng = c->seed * 0x2545F4914F6CDD1DULL + 1;
    size_t h = (size_t)c->hidden;
    if (init) {
        model_from_net(&m, init, &rng);
    } else {
        for (size_t i = 0; i < np; i++) mem[i] = small_random(&rng);
        for (size_t j = 0; j < h; j++) m.b1[j] = 0.25f;
        for (int s = 0; s < m.heads; s++) m.b2[s] = 0;
    }
    double scale = c->scale;
    struct work w[MAX_THREADS];
    for (int i = 0; i < workers; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].d = d;
        w[i].m = &m;
        w[i].reach = c->arch == NNUE_ARCH_KING_REACH;
        w[i].lambda = c->lambda;
        w[i].scale = scale;
    }
    double best_val = INFINITY;
    int best_epoch = 0, step = 0;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    if (init) { /* epoch 0: the starting network, kept if no epoch does better */
        double t0 = now_s();
        struct train_epoch e = {0, 0, 0, 0, 0, 0, 0};
        e.val_loss = validate(w, workers, &m, &rounded, &q, d->v, scale, val_idx, nval, &e);
        e.seconds = now_s() - t0;
        best_val = e.val_grid_loss;
        memcpy(best.p, m.p, np * sizeof(float));
        if (report) report(&e, ctx);
    }
    for (int epoch = 1; epoch <= c->epochs; epoch++) {
        double t0 = now_s();
        double lr = c->lr * pow(c->lr_drop, (epoch - 1) / (c->lr_step > 0 ? c->lr_step : 1));
        /* shuffle the training positions (Fisher-Yates, seeded) */
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(mix64(&rng) % (i + 1));
            uint32_t tmp = train_idx[i];
            train_idx[i] = train_idx[j];
            train_idx[j] = tmp;
        }
        uint64_t sym_seed = d->symmetric && c->symmetry ? mix64(&rng) | 1 : 0;
        double train_loss = 0;
        for (size_t start = 0; start < ntrain; start += (size_t)c->batch) {
            size_t n = ntrain - start < (size_t)c->batch ? ntrain - start : (size_t)c->batch;
            for (int i = 0; i < workers; i++) {
                w[i].idx = train_idx + start;
                w[i].sym_seed = sym_seed;
                w[i].grad = grads[i];
                memset(grads[i].p, 0, np * sizeof(float));
            }
            split(w, workers, n);
            run_workers(w, workers);
            for (int i = 0; i < workers; i++) train_loss += w[i].loss;
            /* sum the gradients in a fixed order, then one Adam step on the mean */
            float *g = grads[0].p;
            for (int i = 1; i < workers; i++)
                for (size_t k = 0; k < np; k++) g[k] += grads[i].p[k];
            step++;
            double c1 = 1 - pow(b1, step), c2 = 1 - pow(b2, step), inv = 1.0 / (double)n;
            for (size_t k = 0; k < np; k++) {
                double gk = g[k] * inv;
                adam_m[k] = (float)(b1 * adam_m[k] + (1 - b1) * gk);
                adam_v[k] = (float)(b2 * adam_v[k] + (1 - b2) * gk * gk);
                mem[k] -= (float)(lr * (adam_m[k] / c1) / (sqrt(adam_v[k] / c2) + eps));
            }
            clamp_model(&m);
        }
        struct train_epoch e = {epoch, lr, train_loss / (double)ntrain, 0, 0, 0, 0};
        e.val_loss = validate(w, workers, &m, &rounded, &q, d->v, scale, val_idx, nval, &e);
        e.seconds = now_s() - t0;
        if (e.val_grid_loss < best_val) {
            best_val = e.val_grid_loss;
            best_epoch = epoch;
            memcpy(best.p, m.p, np * sizeof(float));
        }
        if (report) report(&e, ctx);
    }
    quantise(&best, d->v, scale, &q);
    sum->scale = scale;
    sum->best_epoch = best_epoch;
    sum->best_val_loss = best_val;
    sum->quant_error_cp = quant_error(d, &best, &q, val_idx, nval);
    nnue_free(out);
    *out = q;
    free(mem);
    free(train_idx);
    free(val_idx);
    return true;
}
