/* The learned evaluation: the network file, the accumulator and quantised inference. */
#include "search/nnue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/threats.h"
#include "search/score.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* Returns the CRC-32 (IEEE, as zlib's crc32) of len bytes. */
static uint32_t crc32_of(const uint8_t *p, size_t len) {
    static uint32_t table[256];
    static bool ready;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = true;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* Reads a little-endian 32-bit value. */
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Writes a little-endian 32-bit value. */
static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Returns the size of a network's file. */
size_t nnue_file_size(const struct nnue_net *net) {
    size_t h = (size_t)net->hidden, heads = (size_t)nnue_heads(net);
    return NNUE_HEADER + 2 * ((size_t)net->inputs * h + h + heads * h) + 4 * heads + 4;
}

/* Allocates the weights of net for its inputs and hidden size; false if out of memory. */
static bool alloc_weights(struct nnue_net *net) {
    size_t h = (size_t)net->hidden, n = (size_t)net->inputs * h + h + (size_t)nnue_heads(net) * h;
    size_t bytes = (n * sizeof(int16_t) + 63) / 64 * 64;
    net->mem = aligned_alloc(64, bytes);
    if (!net->mem) return false;
    net->w1 = net->mem;
    net->b1 = net->w1 + (size_t)net->inputs * h;
    net->w2 = net->b1 + h;
    return true;
}

/* Formats an error and returns false. */
static bool fail(char *err, size_t errlen, const char *what) {
    if (err && errlen) snprintf(err, errlen, "%s", what);
    return false;
}

/* Reads a network from the bytes of a file; false with the reason in err (net untouched). */
bool nnue_load(struct nnue_net *net, const void *data, size_t len, char *err, size_t errlen) {
    const uint8_t *b = data;
    char why[160];
    if (len < 8 || memcmp(b, "HNEFINET", 8) != 0)
        return fail(err, errlen, "not a hnefi network (no HNEFINET header)");
    if (len < NNUE_HEADER + 4) {
        snprintf(why, sizeof why, "network file truncated: %zu bytes, its header alone takes %d",
                 len, NNUE_HEADER);
        return fail(err, errlen, why);
    }
    if (get32(b + 8) != NNUE_VERSION) {
        snprintf(why, sizeof why, "network format version %u, this hnefi reads version %d",
                 get32(b + 8), NNUE_VERSION);
        return fail(err, errlen, why);
    }
    uint32_t arch = get32(b + 12);
    if (arch != NNUE_ARCH_PIECES && arch != NNUE_ARCH_KING_REACH) {
        snprintf(why, sizeof why, "network architecture %u, this hnefi knows %d and %d", arch,
                 NNUE_ARCH_PIECES, NNUE_ARCH_KING_REACH);
        return fail(err, errlen, why);
    }
    struct nnue_net r = {0};
    r.arch = (int)arch;
    uint32_t size = get32(b + 16), inputs = get32(b + 20), hidden = get32(b + 24);
    if (size > BB_MAX_SIZE && size <= 19 && size % 2 == 1) {
        snprintf(why, sizeof why,
                 "the network is for a %ux%u board; the game is on a board up to %dx%d (name "
                 "the network's variant, e.g. --variant, to play there)",
                 size, size, BB_MAX_SIZE, BB_MAX_SIZE);
        return fail(err, errlen, why);
    }
    if (size < 3 || size > BB_MAX_SIZE ||
        inputs != (uint32_t)nnue_inputs_of(r.arch, (int)(size * size)))
        return fail(err, errlen, "network board size or input count out of range");
    if (hidden < 32 || hidden > NNUE_MAX_HIDDEN || hidden % 32 != 0)
        return fail(err, errlen, "network hidden size out of range");
    /* two heads, or two per output bucket with the pieces per bucket at 44 (0 without) */
    uint32_t heads = get32(b + 28), per = get32(b + 44);
    if (heads < SIDE_NB || heads > NNUE_MAX_HEADS || heads % SIDE_NB != 0) {
        snprintf(why, sizeof why, "network has %u output heads, this hnefi reads 2 to %d, even",
                 heads, NNUE_MAX_HEADS);
        return fail(err, errlen, why);
    }
    if (heads == SIDE_NB ? per != 0 : per < 1 || per > NNUE_MAX_BUCKET_PIECES) {
        snprintf(why, sizeof why,
                 "network header: %u pieces per output bucket with %u heads (0 with 2 heads, "
                 "else 1 to %d)",
                 per, heads, NNUE_MAX_BUCKET_PIECES);
        return fail(err, errlen, why);
    }
    r.buckets = (int)heads / SIDE_NB;
    r.bucket_pieces = (int)per;
    if (get32(b + 32) != NNUE_QA || get32(b + 36) != NNUE_QB)
        return fail(err, errlen, "network quantisation scales differ from this hnefi's");
    r.size = (int)size;
    r.inputs = (int)inputs;
    r.hidden = (int)hidden;
    r.scale = (int)get32(b + 40);
    if (r.scale < 1 || r.scale > 100000) return fail(err, errlen, "network scale out of range");
    bool reserved_zero = true;
    for (int i = 80; i < NNUE_HEADER; i++) reserved_zero &= b[i] == 0;
    if (!reserved_zero)
        return fail(err, errlen, "network header: bytes 80-127 must be 0 (damaged)");
    memcpy(r.variant, b + 48, sizeof r.variant);
    r.variant[sizeof r.variant - 1] = 0;
    if (!r.variant[0]) return fail(err, errlen, "network names no variant");
    if (len != nnue_file_size(&r)) {
        snprintf(why, sizeof why, "network file has %zu bytes, its header needs %zu", len,
                 nnue_file_size(&r));
        return fail(err, errlen, why);
    }
    r.check = get32(b + len - 4);
    if (crc32_of(b, len - 4) != r.check)
        return fail(err, errlen, "network checksum mismatch (the file is damaged)");
    if (!alloc_weights(&r)) return fail(err, errlen, "out of memory for the network");
    int nheads = nnue_heads(&r);
    size_t n16 = (size_t)r.inputs * r.hidden + r.hidden + (size_t)nheads * r.hidden;
    const uint8_t *w = b + NNUE_HEADER;
    for (size_t i = 0; i < n16; i++) r.w1[i] = (int16_t)(w[2 * i] | w[2 * i + 1] << 8);
    for (int s = 0; s < nheads; s++) r.b2[s] = (int32_t)get32(w + 2 * n16 + 4 * (size_t)s);
    const char *bound = NULL;
    for (size_t i = 0; i < (size_t)r.inputs * r.hidden && !bound; i++)
        if (abs(r.w1[i]) > NNUE_W1_MAX) bound = "a first-layer weight";
    for (int j = 0; j < r.hidden && !bound; j++)
        if (abs(r.b1[j]) > NNUE_B1_MAX) bound = "a first-layer bias";
    for (int j = 0; j < nheads * r.hidden && !bound; j++)
        if (abs(r.w2[j]) > NNUE_W2_MAX) bound = "an output weight";
    if (bound) {
        free(r.mem);
        snprintf(why, sizeof why, "network has %s out of its quantisation bound", bound);
        return fail(err, errlen, why);
    }
    /* a head's output sum must not wrap (possible with more than 256 neurons) */
    for (int side = 0; side < nheads; side++) {
        long sum = 0;
        for (int j = 0; j < r.hidden; j++) sum += abs(r.w2[(size_t)side * r.hidden + j]);
        if (sum > NNUE_W2_SUM_MAX) {
            free(r.mem);
            snprintf(why, sizeof why,
                     "network's output weights of head %d add up to %ld, more than %d (the "
                     "output sum could overflow)",
                     side, sum, NNUE_W2_SUM_MAX);
            return fail(err, errlen, why);
        }
    }
    nnue_free(net);
    *net = r;
    return true;
}

/* Reads a network file; false with the reason (naming the file) in err. */
bool nnue_load_file(struct nnue_net *net, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 20, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap && cap < ((size_t)64 << 20)) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        } else if (len == cap) {
            break; /* larger than any network: let the size check refuse it */
        }
    }
    bool rd_err = ferror(f);
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    char why[200];
    bool ok = !rd_err && nnue_load(net, buf, len, why, sizeof why);
    if (rd_err) snprintf(why, sizeof why, "read error");
    if (!ok) snprintf(err, errlen, "%s: %s", path, why);
    free(buf);
    return ok;
}

/* Frees a network's weights. */
void nnue_free(struct nnue_net *net) {
    free(net->mem);
    net->mem = NULL;
    net->w1 = net->b1 = net->w2 = NULL;
}

/* Writes a network in the file format; returns the bytes written. */
size_t nnue_write(const struct nnue_net *net, uint8_t *out) {
    size_t len = nnue_file_size(net);
    memset(out, 0, NNUE_HEADER);
    memcpy(out, "HNEFINET", 8);
    put32(out + 8, NNUE_VERSION);
    put32(out + 12, (uint32_t)net->arch);
    put32(out + 16, (uint32_t)net->size);
    put32(out + 20, (uint32_t)net->inputs);
    put32(out + 24, (uint32_t)net->hidden);
    put32(out + 28, (uint32_t)nnue_heads(net));
    put32(out + 32, NNUE_QA);
    put32(out + 36, NNUE_QB);
    put32(out + 40, (uint32_t)net->scale);
    put32(out + 44, net->buckets > 1 ? (uint32_t)net->bucket_pieces : 0);
    memcpy(out + 48, net->variant, strnlen(net->variant, sizeof net->variant - 1));
    int nheads = nnue_heads(net);
    size_t n16 = (size_t)net->inputs * net->hidden + net->hidden + (size_t)nheads * net->hidden;
    uint8_t *w = out + NNUE_HEADER;
    for (size_t i = 0; i < n16; i++) {
        uint16_t u = (uint16_t)net->w1[i];
        w[2 * i] = (uint8_t)u;
        w[2 * i + 1] = (uint8_t)(u >> 8);
    }
    for (int s = 0; s < nheads; s++) put32(w + 2 * n16 + 4 * (size_t)s, (uint32_t)net->b2[s]);
    put32(out + len - 4, crc32_of(out, len - 4));
    return len;
}

/* Tells whether net was trained on v's board size (a start for training); if not, err says why. */
bool nnue_fits_board(const struct nnue_net *net, const struct variant *v, char *err,
                     size_t errlen) {
    if (net->size == v->size) return true;
    snprintf(err, errlen, "the network is for a %dx%d board (%s), the game is %dx%d", net->size,
             net->size, net->variant, v->size, v->size);
    return false;
}

/* Tells whether net fits variant v (same name and board size); if not, err says why. */
bool nnue_fits(const struct nnue_net *net, const struct variant *v, char *err, size_t errlen) {
    if (!nnue_fits_board(net, v, err, errlen)) return false;
    if (strcasecmp(net->variant, v->name) != 0) {
        snprintf(err, errlen, "the network is for %s, the game is %s", net->variant, v->name);
        return false;
    }
    return true;
}

/* Adds (sign 1) or subtracts (sign -1) column `input` of W1 to acc. */
static inline void add_column(const struct nnue_net *net, int16_t *acc, int input, int sign) {
    const int16_t *w = net->w1 + (size_t)input * net->hidden;
    int h = net->hidden;
    if (sign > 0)
        for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] + w[j]);
    else
        for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] - w[j]);
}

/* Adds the columns of every piece of kind pk on the squares of b. */
static void add_plane(const struct nnue_net *net, int16_t *acc, enum piece pk, bb_t b) {
    int squares = net->size * net->size;
    while (bb_any(b)) add_column(net, acc, nnue_input(squares, pk, bb_pop(&b)), 1);
}

/* Computes the king's reach in p. */
void nnue_reach_of(const struct position *p, struct nnue_reach *r) {
    struct king_reach k;
    threat_king_reach(p, &k);
    int two = bb_popcount(k.two_escapes);
    r->one = k.one;
    r->bucket = two < NNUE_REACH_BUCKETS ? two : NNUE_REACH_BUCKETS - 1;
}

/* Writes the king's reach inputs of p (architecture 2) into out; returns their number. */
int nnue_king_inputs(const struct position *p, int *out) {
    int squares = p->v->size * p->v->size, n = 0;
    struct nnue_reach r;
    nnue_reach_of(p, &r);
    for (bb_t b = r.one; bb_any(b);) out[n++] = NNUE_PLANES * squares + bb_pop(&b);
    out[n++] = (NNUE_PLANES + 1) * squares + r.bucket;
    return n;
}

/* Adds (sign 1) or subtracts (sign -1) the reach columns of the squares of b and of a bucket. */
static void add_reach(const struct nnue_net *net, int16_t *acc, bb_t b, int bucket, int sign) {
    int squares = net->size * net->size;
    while (bb_any(b)) add_column(net, acc, NNUE_PLANES * squares + bb_pop(&b), sign);
    if (bucket >= 0) add_column(net, acc, (NNUE_PLANES + 1) * squares + bucket, sign);
}

/* Computes the accumulator of p from scratch. */
void nnue_refresh(const struct nnue_net *net, const struct position *p, struct nnue_acc *acc) {
    memcpy(acc->v, net->b1, (size_t)net->hidden * sizeof(int16_t));
    add_plane(net, acc->v, PIECE_ATTACKER, p->att);
    add_plane(net, acc->v, PIECE_DEFENDER, p->def);
    add_plane(net, acc->v, PIECE_KING, p->king);
    if (net->arch == NNUE_ARCH_KING_REACH) {
        struct nnue_reach r;
        nnue_reach_of(p, &r);
        add_reach(net, acc->v, r.one, r.bucket, 1);
    }
}

/* Computes the accumulator after a move from the parent's (see nnue.h). */
void nnue_update(const struct nnue_net *net, const struct nnue_acc *parent, struct nnue_acc *acc,
                 enum piece pk, int from, int to, enum piece victim, bb_t caught,
                 const struct nnue_reach *before, const struct nnue_reach *after) {
    int squares = net->size * net->size, h = net->hidden;
    if (pk == PIECE_NONE) {
        memmove(acc->v, parent->v, (size_t)h * sizeof(int16_t));
    } else {
        const int16_t *wf = net->w1 + (size_t)nnue_input(squares, pk, from) * h;
        const int16_t *wt = net->w1 + (size_t)nnue_input(squares, pk, to) * h;
        /* one pass for the moved piece, then one per captured man (rare) */
        for (int j = 0; j < h; j++) acc->v[j] = (int16_t)(parent->v[j] - wf[j] + wt[j]);
        while (bb_any(caught))
            add_column(net, acc->v, nnue_input(squares, victim, bb_pop(&caught)), -1);
    }
    if (net->arch == NNUE_ARCH_KING_REACH) {
        /* only the squares that came into or left the king's reach */
        bool same_bucket = before->bucket == after->bucket;
        add_reach(net, acc->v, before->one & ~after->one, same_bucket ? -1 : before->bucket, -1);
        add_reach(net, acc->v, after->one & ~before->one, same_bucket ? -1 : after->bucket, 1);
    }
}

/*
 * Returns the output sum of the hidden layer for one head, in plain C. The sum wraps modulo 2^32
 * as the vector adds do, so any order of adding gives the same bits.
 */
static int32_t dot_portable(const int16_t *acc, const int16_t *w2, int h) {
    uint32_t sum = 0;
    for (int j = 0; j < h; j++) {
        int32_t v = acc[j] < 0 ? 0 : acc[j] > NNUE_QA ? NNUE_QA : acc[j];
        sum += (uint32_t)((int32_t)(int16_t)(v * w2[j]) * v);
    }
    return (int32_t)sum;
}

#if defined(__AVX2__)
/* Returns the output sum of the hidden layer for one head, with AVX2 (the same integers). */
static int32_t dot_avx2(const int16_t *acc, const int16_t *w2, int h) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < h; j += 16) {
        __m256i v = _mm256_load_si256((const __m256i *)(acc + j));
        v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
        __m256i w = _mm256_loadu_si256((const __m256i *)(w2 + j));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
#endif

/* Turns an output sum into centi-men for head `head`. */
static int finish(const struct nnue_net *net, int32_t sum, int head) {
    int64_t out = sum / NNUE_QA + net->b2[head];
    /* within an evaluation's range (search/score.h) even for a file of extreme weights */
    return score_clamp_eval(out * net->scale / (NNUE_QA * NNUE_QB));
}

/* Evaluates an accumulator with output head `head`, in centi-men (the fastest path built in). */
int nnue_evaluate(const struct nnue_net *net, const struct nnue_acc *acc, int head) {
    const int16_t *w2 = net->w2 + (size_t)head * net->hidden;
#if defined(__AVX2__)
    return finish(net, dot_avx2(acc->v, w2, net->hidden), head);
#else
    return finish(net, dot_portable(acc->v, w2, net->hidden), head);
#endif
}

/* The same with plain C arithmetic only. */
int nnue_evaluate_portable(const struct nnue_net *net, const struct nnue_acc *acc, int head) {
    return finish(net, dot_portable(acc->v, net->w2 + (size_t)head * net->hidden, net->hidden),
                  head);
}
