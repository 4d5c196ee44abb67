/* The 8 symmetries of the square board, and the ones a variant allows. */
#include "engine/symmetry.h"

/* Returns the image of square sq under symmetry k on an n x n board. */
int sym_square(int k, int sq, int n) {
    int r = sq / n, f = sq % n, m = n - 1;
    switch (k & 7) {
    case 0: return r * n + f;
    case 1: return f * n + (m - r);
    case 2: return (m - r) * n + (m - f);
    case 3: return (m - f) * n + r;
    case 4: return r * n + (m - f);
    case 5: return (m - r) * n + f;
    case 6: return f * n + r;
    default: return (m - f) * n + (m - r);
    }
}

/* Returns the symmetry that undoes symmetry k. */
int sym_inverse(int k) {
    return k == 1 ? 3 : k == 3 ? 1 : k;
}

/* Returns the image of a set of squares under symmetry k. */
bb_t sym_set(int k, bb_t b, int n) {
    if (k == 0) return b;
    bb_t r = BB_EMPTY;
    while (bb_any(b)) r |= bb_sq(sym_square(k, bb_pop(&b), n));
    return r;
}

/* Returns the image of a move under symmetry k. */
move_t sym_move(int k, move_t m, int n) {
    return move_make(sym_square(k, move_from(m), n), sym_square(k, move_to(m), n));
}

/* Writes the image of src under symmetry k into dst (special pieces and berserker mapped too). */
void sym_position(int k, const struct position *src, struct position *dst) {
    int n = src->v->size;
    *dst = *src;
    dst->att = sym_set(k, src->att, n);
    dst->def = sym_set(k, src->def, n);
    dst->king = sym_set(k, src->king, n);
    dst->king_sq = (bb_square_t)sym_square(k, src->king_sq, n);
    dst->spec = sym_set(k, src->spec, n);
    if (pos_berserker(src) >= 0) pos_set_berserker(dst, sym_square(k, pos_berserker(src), n));
    dst->key = pos_compute_key(dst);
}

/* Returns the set of symmetries v allows (bit k for symmetry k; bit 0 is always set). */
unsigned sym_variant_allows(const struct variant *v) {
    struct position p;
    pos_init_start(&p, v);
    int n = v->size;
    const bb_t sets[] = {p.att,
                         p.def,
                         p.king,
                         p.spec,
                         v->throne,
                         v->corner_mask,
                         v->escape_mask,
                         v->men_block,
                         v->king_block,
                         v->men_forbidden,
                         v->king_forbidden,
                         v->special_squares};
    unsigned allowed = 1;
    for (int k = 1; k < SYM_NB; k++) {
        bool same = true;
        for (size_t i = 0; i < sizeof sets / sizeof sets[0] && same; i++)
            same = bb_eq(sym_set(k, sets[i], n), sets[i]);
        if (same) allowed |= 1u << k;
    }
    return allowed;
}
