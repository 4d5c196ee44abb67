/*
 * libFuzzer target for the network loader (search/nnue.c: nnue_load, nnue_load_file), which
 * reads --net and EvalFile files. The first byte picks the form: bit 0 clear, the file as it is;
 * set, the rest is a header and weights that the target makes fit: the length its header asks
 * for (weights cut or padded with the input repeated) and the checksum made right, so that the
 * checks behind them (weight bounds) and inference are reached.
 * A refused file must leave the network untouched and say why. An accepted one must write back
 * to the same bytes, and on a board of its size: the AVX2 and the portable inference agree, and
 * an accumulator updated move by move equals one computed from scratch; a small search with it
 * runs without fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tafl.h"
#include "fuzz_util.h"
#include "search/nnue.h"
#include "search/search.h"

enum { FUZZ_NET_MAX = 4 << 20 };

/* Returns the CRC-32 (IEEE) of len bytes, as the network format asks. */
static uint32_t crc32_ieee(const uint8_t *p, size_t len) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

/* Reads a little-endian 32-bit value. */
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Makes the input fit its header: the length it asks for and a right checksum; NULL if the
   header asks for nothing sensible. */
static uint8_t *make_fit(const uint8_t *d, size_t n, size_t *outlen) {
    if (n < NNUE_HEADER) return NULL;
    struct nnue_net h = {0};
    h.arch = (int)get32(d + 12);
    uint32_t size = get32(d + 16), hidden = get32(d + 24);
    if (size < 3 || size > BB_MAX_SIZE || hidden < 32 || hidden > NNUE_MAX_HIDDEN) return NULL;
    h.inputs = (int)get32(d + 20);
    if (h.inputs < 1 || h.inputs > NNUE_MAX_INPUTS) return NULL;
    h.hidden = (int)hidden;
    uint32_t heads = get32(d + 28);
    h.buckets = heads >= SIDE_NB && heads <= NNUE_MAX_HEADS && heads % SIDE_NB == 0
                    ? (int)heads / SIDE_NB
                    : 1;
    size_t len = nnue_file_size(&h);
    if (len > FUZZ_NET_MAX) return NULL;
    uint8_t *out = malloc(len);
    if (!out) return NULL;
    for (size_t i = 0; i < len; i++)
        out[i] = i < n             ? d[i]
                 : n > NNUE_HEADER ? d[NNUE_HEADER + (i - NNUE_HEADER) % (n - NNUE_HEADER)]
                                   : 0;
    uint32_t c = crc32_ieee(out, len - 4);
    for (int i = 0; i < 4; i++) out[len - 4 + i] = (uint8_t)(c >> (8 * i));
    *outlen = len;
    return out;
}

/* Plays a few moves on a board of the network's size, checking incremental against fresh
   accumulators and the two inference paths against each other; then searches a little. */
static void exercise(const struct nnue_net *net, uint32_t seed) {
    const struct variant *v = NULL;
    for (int i = 0; variant_builtin(i); i++)
        if (variant_builtin(i)->size == net->size) v = variant_builtin(i);
    if (!v) return;
    struct tafl_game *t = tafl_new(v);
    struct nnue_acc *acc = malloc(2 * sizeof *acc);
    if (!t || !acc) goto done;
    nnue_refresh(net, tafl_pos(t), &acc[0]);
    move_t moves[MAX_MOVES];
    for (int ply = 0; ply < 12 && t->result == RESULT_NONE; ply++) {
        const struct position *p = tafl_pos(t);
        for (int s = 0; s < nnue_heads(net); s++)
            if (nnue_evaluate(net, &acc[0], s) != nnue_evaluate_portable(net, &acc[0], s))
                fuzz_broken("the inference paths disagree");
        int n = tafl_legal_moves(t, moves);
        if (n == 0) break;
        seed = seed * 1103515245u + 12345u;
        move_t m = moves[(seed >> 8) % (uint32_t)n];
        enum piece pk = pos_piece_at(p, move_from(m));
        struct nnue_reach before, after;
        nnue_reach_of(p, &before);
        tafl_play(t, m);
        if (t->result != RESULT_NONE) break;
        nnue_reach_of(tafl_pos(t), &after);
        enum piece victim = pk == PIECE_ATTACKER ? PIECE_DEFENDER : PIECE_ATTACKER;
        nnue_update(net, &acc[0], &acc[1], pk, move_from(m), move_to(m), victim,
                    t->captures[t->n - 1], &before, &after);
        nnue_refresh(net, tafl_pos(t), &acc[0]);
        if (memcmp(acc[0].v, acc[1].v, (size_t)net->hidden * sizeof(int16_t)) != 0)
            fuzz_broken("an updated accumulator differs from a fresh one");
    }
    static struct search *s;
    if (!s) s = search_new(1);
    if (s) {
        struct search_options opt;
        search_options_default(&opt);
        opt.net = net;
        struct search_limits lim = {.depth = 3, .nodes = 300, .time_ms = {-1, -1}};
        struct search_result r;
        search_clear(s);
        search_run(s, t, &lim, &opt, NULL, &r);
    }
done:
    free(acc);
    tafl_free(t);
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    uint8_t *owned = NULL;
    if (data[0] & 1) {
        if (!(owned = make_fit(body, len, &len))) return 0;
        body = owned;
    }
    struct nnue_net net = {0}, before = net;
    char err[300] = "";
    bool ok = nnue_load(&net, body, len, err, sizeof err);
    if (!ok && (!err[0] || memcmp(&net, &before, sizeof net) != 0)) fuzz_broken("refused network");
    /* the file reader says the same */
    struct nnue_net again = {0};
    char err2[400] = "";
    if (nnue_load_file(&again, fuzz_file(0, body, len), err2, sizeof err2) != ok)
        fuzz_broken("file and bytes read differently");
    nnue_free(&again);
    if (ok) {
        /* the weights write back to the same bytes (the header's unused bytes may not) */
        uint8_t *out = malloc(nnue_file_size(&net));
        struct nnue_net back = {0};
        if (out && (nnue_write(&net, out) != len ||
                    memcmp(out + NNUE_HEADER, body + NNUE_HEADER, len - NNUE_HEADER - 4) != 0 ||
                    !nnue_load(&back, out, len, err, sizeof err) || back.scale != net.scale ||
                    back.arch != net.arch || strcmp(back.variant, net.variant) != 0))
            fuzz_broken("network does not write back");
        nnue_free(&back);
        free(out);
        exercise(&net, (uint32_t)len);
        nnue_free(&net);
    }
    free(owned);
    return 0;
}
