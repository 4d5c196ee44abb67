/*
 * The learned evaluation: an efficiently updatable neural network (NNUE) for tafl, with
 * quantised integer inference. docs/nnue.md gives the architecture, the reasons for it and the
 * file format; in short:
 *
 *   inputs   3 planes of one bit per square: attacker men, defender men, the king
 *            (input = plane * squares + square, squares = size * size); and, in architecture 2,
 *            the king's reach: a fourth plane of the squares the king can move to, and 4
 *            inputs for how many escape squares he reaches in two moves (0, 1, 2, 3 or more)
 *   hidden   H neurons (a multiple of 32, at most NNUE_MAX_HIDDEN): acc = b1 + the columns of
 *            W1 of the set inputs, kept as int16 in an accumulator that a move updates by the
 *            moved piece, its captures, and the squares that came into or left the king's reach
 *   output   one head per side to move (the sides are not alike), and per output bucket when
 *            the network has several (by the number of pieces on the board, a game's phase):
 *            out = b2[h] + the sum over the hidden neurons of crelu(acc)^2 * W2[h], crelu
 *            clamping to [0, QA], h = bucket * 2 + side (nnue_head)
 *   score    out * scale, in centi-men for the side to move
 *
 * Quantisation: W1 and b1 are int16 at scale QA = 255, W2 int16 at scale QB = 256 with |W2| <=
 * 127 so that v * W2 (v <= 255) fits in int16, b2 int32 at scale QA * QB. The dot product
 * sum(v * (v * W2)) then fits in int32 whatever the position, and integer sums do not depend on
 * their order, so the AVX2 path and the portable path give the same bits. The bounds on W1 and
 * b1 keep the accumulator within int16 for up to 48 pieces and 21 reach inputs. A loaded network is
 * refused, with the reason, when its header, size, checksum or weight bounds are wrong.
 */
#ifndef HNEFI_SEARCH_NNUE_H
#define HNEFI_SEARCH_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/position.h"

enum {
    NNUE_PLANES = 3,        /* the piece planes, kept in the accumulator */
    NNUE_REACH_BUCKETS = 4, /* escapes in two: 0, 1, 2, 3 or more */
    NNUE_MAX_INPUTS = (NNUE_PLANES + 1) * BB_MAX_SQUARES + NNUE_REACH_BUCKETS,
    NNUE_MAX_REACH = 2 * (BB_MAX_SIZE - 1) + 1, /* the king's reach inputs set at once */
    NNUE_MAX_HIDDEN = 1024,
    NNUE_MAX_BUCKETS = 8,                        /* output buckets by the number of pieces */
    NNUE_MAX_HEADS = SIDE_NB * NNUE_MAX_BUCKETS, /* one per side to move and bucket */
    NNUE_MAX_BUCKET_PIECES = 64,                 /* pieces per bucket, at most */
    NNUE_QA = 255,
    NNUE_QB = 256,
    NNUE_W2_MAX = 127,       /* |W2| bound that keeps v * W2 in int16 */
    NNUE_W1_MAX = 400,       /* |W1| bound: 48 pieces and 21 reach inputs cannot overflow int16 */
    NNUE_B1_MAX = 5000,      /* |b1| bound, likewise */
    NNUE_W2_SUM_MAX = 33025, /* bound of a head's sum of |W2|: 255 * 255 * 33025 < 2^31 */
    NNUE_HEADER = 128,       /* bytes of the file header */
    NNUE_VERSION = 1,
    NNUE_ARCH_PIECES = 1,     /* the piece planes only */
    NNUE_ARCH_KING_REACH = 2, /* the piece planes and the king's reach */
};

/* A network: its header fields and its weights (W1 row-major by input: input * hidden + j). */
struct nnue_net {
    char variant[32]; /* the variant it was trained for */
    int size;         /* board side */
    int arch;         /* NNUE_ARCH_PIECES or NNUE_ARCH_KING_REACH */
    int inputs;       /* 3 * squares, or 4 * squares + 4 with the king's reach */
    int hidden;
    int buckets;       /* output buckets (1: none, two heads) */
    int bucket_pieces; /* pieces on the board per bucket (0 with one bucket) */
    int scale;         /* centi-men per unit of the output */
    uint32_t check;    /* the file's checksum: names the network in records */
    int16_t *w1, *b1, *w2;
    int32_t b2[NNUE_MAX_HEADS];
    void *mem; /* the weights' aligned allocation */
};

/* The hidden layer of one position, before the activation. */
struct nnue_acc {
    _Alignas(64) int16_t v[NNUE_MAX_HIDDEN];
};

/*
 * Reads a network from the bytes of a file; false with the reason in err (net untouched). The
 * variant name and board size are read from the file; the caller checks them against its game.
 */
bool nnue_load(struct nnue_net *net, const void *data, size_t len, char *err, size_t errlen);

/* Reads a network file; false with the reason (naming the file) in err. */
bool nnue_load_file(struct nnue_net *net, const char *path, char *err, size_t errlen);

/* Frees a network's weights. */
void nnue_free(struct nnue_net *net);

/*
 * Writes a network in the file format; returns the bytes written into out (room for
 * nnue_file_size bytes), computing the checksum.
 */
size_t nnue_write(const struct nnue_net *net, uint8_t *out);

/* Returns the size of a network's file. */
size_t nnue_file_size(const struct nnue_net *net);

/* Tells whether net was trained on v's board size (a start for training); if not, err says why. */
bool nnue_fits_board(const struct nnue_net *net, const struct variant *v, char *err, size_t errlen);

/* Tells whether net fits variant v (same name and board size); if not, err says why. */
bool nnue_fits(const struct nnue_net *net, const struct variant *v, char *err, size_t errlen);

/* Returns the number of output heads of net: one per side to move and bucket. */
static inline int nnue_heads(const struct nnue_net *net) {
    return SIDE_NB * net->buckets;
}

/* Returns the head, of `buckets` output buckets of `per` pieces, that scores a position with
   `pieces` pieces (the king included) and side to move `side`: bucket (pieces - 1) / per, the
   last bucket taking any more. */
static inline int nnue_bucket_head(int buckets, int per, int side, int pieces) {
    if (buckets <= 1) return side;
    int b = (pieces - 1) / per;
    if (b >= buckets) b = buckets - 1;
    if (b < 0) b = 0;
    return b * SIDE_NB + side;
}

/* Returns net's head for a position with `pieces` pieces and side to move `side`. */
static inline int nnue_head(const struct nnue_net *net, int side, int pieces) {
    return nnue_bucket_head(net->buckets, net->bucket_pieces, side, pieces);
}

/* Returns the head that scores p (nnue_head of its side to move and pieces). */
static inline int nnue_head_of(const struct nnue_net *net, const struct position *p) {
    if (net->buckets == 1) return p->side;
    return nnue_head(net, p->side, bb_popcount(p->att) + bb_popcount(p->def) + 1);
}

/* Returns the input of a piece of kind pk (PIECE_ATTACKER..PIECE_KING) on sq. */
static inline int nnue_input(int squares, enum piece pk, int sq) {
    return (pk - PIECE_ATTACKER) * squares + sq;
}

/* Returns the number of inputs of an architecture on a board of `squares` squares. */
static inline int nnue_inputs_of(int arch, int squares) {
    return arch == NNUE_ARCH_KING_REACH ? (NNUE_PLANES + 1) * squares + NNUE_REACH_BUCKETS
                                        : NNUE_PLANES * squares;
}

/* The king's reach in a position: the squares he can move to, his escapes-in-two bucket. */
struct nnue_reach {
    bb_t one;
    int bucket; /* how many escapes he reaches in two moves, not one, at most 3 */
};

/* Computes the king's reach in p. */
void nnue_reach_of(const struct position *p, struct nnue_reach *r);

/*
 * Writes the king's reach inputs of p (architecture 2) into out (room for NNUE_MAX_REACH);
 * returns their number.
 */
int nnue_king_inputs(const struct position *p, int *out);

/* Computes the accumulator of p from scratch. */
void nnue_refresh(const struct nnue_net *net, const struct position *p, struct nnue_acc *acc);

/*
 * Computes the accumulator after a move from the parent's: the piece of kind pk moved from
 * `from` to `to`, the enemy men of kind victim on the squares of `caught` were taken, and the
 * king's reach went from *before to *after (read only in architecture 2). pk PIECE_NONE is a
 * pass: the pieces stay.
 */
void nnue_update(const struct nnue_net *net, const struct nnue_acc *parent, struct nnue_acc *acc,
                 enum piece pk, int from, int to, enum piece victim, bb_t caught,
                 const struct nnue_reach *before, const struct nnue_reach *after);

/* Evaluates an accumulator with output head `head` (nnue_head; with one bucket, the side to
   move), in centi-men for the side to move (the fastest path built in). */
int nnue_evaluate(const struct nnue_net *net, const struct nnue_acc *acc, int head);

/* The same with plain C arithmetic only; gives the same result as nnue_evaluate, bit for bit. */
int nnue_evaluate_portable(const struct nnue_net *net, const struct nnue_acc *acc, int head);

/* Returns the built-in network for variant v, or NULL when it has none. */
const struct nnue_net *nnue_builtin(const struct variant *v);

#endif
