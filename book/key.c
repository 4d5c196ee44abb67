/* The book's position key: canonical bytes, FNV-1a 64, the canonical image and move mapping. */
#include "book/key.h"

#include <string.h>

#include "engine/symmetry.h"

/* FNV-1a 64 of len bytes, continuing from h. */
uint64_t book_fnv(uint64_t h, const void *data, size_t len) {
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

enum { SIZES = (BB_MAX_SIZE - 7) / 2 + 1 }; /* the board sizes 7, 9, ... BB_MAX_SIZE */

/* The image of every square under every symmetry, for each board size the build plays. */
static uint16_t sym_table[SIZES][SYM_NB][BB_MAX_SQUARES];

/* Fills the symmetry table before main() runs. */
__attribute__((constructor)) static void sym_table_init(void) {
    for (int s = 0; s < SIZES; s++)
        for (int k = 0; k < SYM_NB; k++)
            for (int sq = 0; sq < (7 + 2 * s) * (7 + 2 * s); sq++)
                sym_table[s][k][sq] = (uint16_t)sym_square(k, sq, 7 + 2 * s);
}

/* Writes the canonical bytes of a position's image under symmetry k (perm: its square table). */
static size_t image_bytes(const struct position *p, const uint16_t *perm, uint8_t *bytes) {
    int n = p->v->size;
    bytes[0] = (uint8_t)n;
    bytes[1] = (uint8_t)p->side;
    memset(bytes + 2, 0, (size_t)(n * n));
    bb_t b = p->att;
    while (bb_any(b)) bytes[2 + perm[bb_pop(&b)]] = 1;
    b = p->def;
    while (bb_any(b)) bytes[2 + perm[bb_pop(&b)]] = 2;
    bytes[2 + perm[p->king_sq]] = 3;
    b = p->spec; /* commanders 4, knights 5 */
    while (bb_any(b)) bytes[2 + perm[bb_pop(&b)]] += 3;
    if (pos_berserker(p) >= 0) bytes[2 + perm[pos_berserker(p)]] |= 8;
    return (size_t)(2 + n * n);
}

/* Returns the key of a position as it stands (no symmetry applied). */
uint64_t book_key_plain(const struct position *p) {
    uint8_t bytes[2 + BB_MAX_SQUARES];
    size_t len = image_bytes(p, sym_table[(p->v->size - 7) / 2][0], bytes);
    return book_fnv(BOOK_FNV_BASIS, bytes, len);
}

/* Finds the canonical image of p among the symmetries in allowed (a bit set, bit 0 set). */
void book_canon(const struct position *p, unsigned allowed, struct book_canon *out) {
    int n = p->v->size;
    uint8_t bytes[SYM_NB][2 + BB_MAX_SQUARES];
    uint64_t keys[SYM_NB];
    size_t len = 0;
    int best = 0;
    allowed |= 1;
    for (int k = 0; k < SYM_NB; k++) {
        if (!(allowed >> k & 1)) continue;
        len = image_bytes(p, sym_table[(n - 7) / 2][k], bytes[k]);
        keys[k] = book_fnv(BOOK_FNV_BASIS, bytes[k], len);
        if (keys[k] < keys[best]) best = k;
    }
    out->key = keys[best];
    out->sym = best;
    out->size = n;
    /* the symmetries that map the canonical image onto itself: g with g(best(p)) = best(p) */
    out->stab = 1;
    if (allowed == 1) return;
    uint8_t img[2 + BB_MAX_SQUARES];
    for (int g = 1; g < SYM_NB; g++) {
        if (!(allowed >> g & 1)) continue;
        const uint16_t *perm = sym_table[(n - 7) / 2][g];
        img[0] = bytes[best][0];
        img[1] = bytes[best][1];
        for (int sq = 0; sq < n * n; sq++) img[2 + perm[sq]] = bytes[best][2 + sq];
        if (memcmp(img, bytes[best], len) == 0) out->stab |= 1u << g;
    }
}

/* Maps a move played in the position to the book move (canonical orientation and form). */
move_t book_move_to_book(const struct book_canon *c, move_t m) {
    move_t on_image = sym_move(c->sym, m, c->size), best = on_image;
    for (int g = 1; g < SYM_NB; g++) {
        if (!(c->stab >> g & 1)) continue;
        move_t alt = sym_move(g, on_image, c->size);
        if (alt < best) best = alt;
    }
    return best;
}

/* Maps a book move back to a move in the position. */
move_t book_move_from_book(const struct book_canon *c, move_t m) {
    return sym_move(sym_inverse(c->sym), m, c->size);
}
