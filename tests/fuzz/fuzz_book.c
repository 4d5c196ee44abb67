/*
 * libFuzzer target for the opening book's reader (book/book.c). The first byte picks the form of
 * the rest: 0, a whole book file as it is (zstd frames, checksums and all); 1, a header and a body
 * given raw (a 2-byte length, then the header's bytes, then the body's), which the target wraps in
 * sound zstd frames with both checksums made right, so that the reader's own checks of the header
 * and of the positions are reached.
 * A refused input must leave the book untouched and say why; an accepted one must probe without
 * fault, choose only legal moves, and write back to bytes that read back to the same book.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "book/book.h"
#include "book/zio.h"
#include "engine/movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_BODY = 1 << 20 };

/* Stops the run: a property of the reader was broken. */
static void broken(void) {
    abort();
}

/* Wraps a raw header and body in two sound zstd frames; NULL if out of memory. */
static uint8_t *wrap(const uint8_t *d, size_t n, size_t *len) {
    if (n < 2) return NULL;
    size_t hl = d[0] | (size_t)d[1] << 8;
    if (hl > n - 2) hl = n - 2;
    char err[200];
    size_t l1, l2;
    uint8_t *h = malloc(hl ? hl : 1);
    if (!h) return NULL;
    memcpy(h, d + 2, hl);
    if (hl >= BOOK_HEADER_FIXED + 8) { /* the checksums made right, so the checks behind them run */
        uint64_t body = book_fnv(BOOK_FNV_BASIS, d + 2 + hl, n - 2 - hl), head;
        for (int i = 0; i < 8; i++) h[40 + i] = (uint8_t)(body >> (8 * i));
        head = book_fnv(BOOK_FNV_BASIS, h, hl - 8);
        for (int i = 0; i < 8; i++) h[hl - 8 + i] = (uint8_t)(head >> (8 * i));
    }
    uint8_t *a = zio_compress(h, hl, 1, &l1, err, sizeof err);
    free(h);
    uint8_t *b = zio_compress(d + 2 + hl, n - 2 - hl, 1, &l2, err, sizeof err);
    uint8_t *out = a && b ? malloc(l1 + l2) : NULL;
    if (out) {
        memcpy(out, a, l1);
        memcpy(out + l1, b, l2);
        *len = l1 + l2;
    }
    free(a);
    free(b);
    return out;
}

/* Probes the start position and the positions its book moves lead to; every move must be one
   the position could hold (a square of the board), and a chosen move legal. */
static void probe_some(const struct book *b) {
    struct tafl_game *t = tafl_new(&b->variant);
    struct book_hit *hit = malloc(sizeof *hit);
    if (!t || !hit) {
        tafl_free(t);
        free(hit);
        return;
    }
    struct book_play play = {.variety = BOOK_WEIGHTED};
    for (int ply = 0; ply < 6 && t->result == RESULT_NONE; ply++) {
        int n = book_probe(b, tafl_pos(t), hit);
        for (int i = 0; i < n; i++)
            if (move_from(hit->moves[i]) >= b->size * b->size ||
                move_to(hit->moves[i]) >= b->size * b->size)
                broken();
        move_t m = book_choose(b, t, &play, (uint64_t)ply * 7919, NULL);
        if (m == MOVE_NONE) break;
        if (!tafl_move_legal(t, m, NULL, 0)) broken();
        tafl_play(t, m);
    }
    tafl_free(t);
    free(hit);
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t len = size - 1;
    uint8_t *owned = NULL;
    const uint8_t *file = data + 1;
    if (data[0] & 1) {
        if (!(owned = wrap(data + 1, size - 1, &len))) return 0;
        file = owned;
    }
    struct book b, before;
    memset(&b, 0, sizeof b);
    before = b;
    char err[600] = "";
    if (!book_parse(&b, file, len, FUZZ_MAX_BODY, err, sizeof err)) {
        if (!err[0] || memcmp(&b, &before, sizeof b) != 0) broken();
    } else {
        probe_some(&b);
        size_t elen;
        uint8_t *again = book_encode(&b, 1, &elen, err, sizeof err);
        struct book c;
        memset(&c, 0, sizeof c);
        if (!again || !book_parse(&c, again, elen, FUZZ_MAX_BODY, err, sizeof err) ||
            c.npos != b.npos || c.nmoves != b.nmoves ||
            memcmp(c.pos, b.pos, b.npos * sizeof *b.pos) != 0 ||
            memcmp(c.moves, b.moves, b.nmoves * sizeof *b.moves) != 0 ||
            strcmp(c.rules, b.rules) != 0)
            broken();
        free(again);
        book_free(&c);
        book_free(&b);
    }
    free(owned);
    return 0;
}
