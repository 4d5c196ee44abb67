/* Positions: Zobrist keys, the start position, the invariants. */
#include "engine/position.h"

#include <stdio.h>

uint64_t zobrist_piece[4][BB_MAX_SQUARES];
uint64_t zobrist_side;
uint64_t zobrist_special[BB_MAX_SQUARES];
uint64_t zobrist_berserker[BB_MAX_SQUARES];

/* Returns the next value of a splitmix64 sequence. */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Fills the Zobrist tables from a fixed seed before main() runs, so keys never change. */
__attribute__((constructor)) static void zobrist_init(void) {
    uint64_t s = 0x686E656669ULL; /* "hnefi" */
    for (int k = 0; k < 4; k++)
        for (int sq = 0; sq < BB_MAX_SQUARES; sq++) zobrist_piece[k][sq] = k ? splitmix64(&s) : 0;
    zobrist_side = splitmix64(&s);
    /* drawn after the others, which stay as they were */
    for (int sq = 0; sq < BB_MAX_SQUARES; sq++) zobrist_special[sq] = splitmix64(&s);
    for (int sq = 0; sq < BB_MAX_SQUARES; sq++) zobrist_berserker[sq] = splitmix64(&s);
}

/* Computes the Zobrist key of p from scratch. */
uint64_t pos_compute_key(const struct position *p) {
    uint64_t key = p->side == SIDE_DEFENDERS ? zobrist_side : 0;
    bb_t b = p->att;
    while (bb_any(b)) key ^= zobrist_piece[PIECE_ATTACKER][bb_pop(&b)];
    b = p->def;
    while (bb_any(b)) key ^= zobrist_piece[PIECE_DEFENDER][bb_pop(&b)];
    b = p->king;
    while (bb_any(b)) key ^= zobrist_piece[PIECE_KING][bb_pop(&b)];
    b = p->spec;
    while (bb_any(b)) key ^= zobrist_special[bb_pop(&b)];
    if (pos_berserker(p) >= 0) key ^= zobrist_berserker[pos_berserker(p)];
    return key;
}

/* Sets p to the start position of variant v (a start is never a finished game). */
void pos_init_start(struct position *p, const struct variant *v) {
    const struct variant_start *s = &v->start;
    *p = (struct position){.att = s->att,
                           .def = s->def,
                           .king = bb_sq(s->king_sq),
                           .spec = s->spec,
                           .v = v,
                           .king_sq = (bb_square_t)s->king_sq,
                           .side = (uint8_t)s->side,
                           .result = RESULT_NONE,
                           .reason = END_NONE,
                           .berserk = 0};
    p->key = pos_compute_key(p);
}

/* Plays m from src into dst with its captures already known; decides no end. */
void pos_play_known(struct position *dst, const struct position *src, move_t m, bb_t captures) {
    int from = move_from(m), to = move_to(m), mover = src->side;
    enum piece kind = pos_piece_at(src, from);
    enum piece victim = mover == SIDE_ATTACKERS ? PIECE_DEFENDER : PIECE_ATTACKER;
    struct position p = *src;
    bb_t fromto = bb_sq(from) | bb_sq(to);
    if (kind == PIECE_ATTACKER) {
        p.att ^= fromto;
    } else if (kind == PIECE_DEFENDER) {
        p.def ^= fromto;
    } else {
        p.king = bb_sq(to);
        p.king_sq = (bb_square_t)to;
    }
    p.key ^= zobrist_piece[kind][from] ^ zobrist_piece[kind][to] ^ zobrist_side;
    for (bb_t c = captures; bb_any(c);) p.key ^= zobrist_piece[victim][bb_pop(&c)];
    if (mover == SIDE_ATTACKERS)
        p.def &= ~captures;
    else
        p.att &= ~captures;
    p.side = (uint8_t)!mover;
    p.result = RESULT_NONE;
    p.reason = END_NONE;
    *dst = p;
}

/* Checks the invariants of a position; returns false with a reason in err. */
bool pos_valid(const struct position *p, char *err, size_t errlen) {
    const struct variant *v = p->v;
    const char *why = NULL;
    if (bb_any((p->att | p->def | p->king) & ~v->g.board))
        why = "a piece off the board";
    else if (bb_any(p->att & p->def) || bb_any((p->att | p->def) & p->king))
        why = "two pieces on one square";
    else if (bb_popcount(p->king) != 1)
        why = "not exactly one king";
    else if (!bb_eq(p->king, bb_sq(p->king_sq)))
        why = "king square out of step";
    else if (bb_any(p->spec & ~(p->att | p->def)))
        why = "a commander or knight mark on no man";
    else if (pos_berserker(p) >= 0 && !bb_has(pos_side_pieces(p, p->side), pos_berserker(p)))
        why = "a berserker that is not a piece of the side to move";
    else if (bb_any((p->att | p->def) & v->men_forbidden & ~v->forts))
        why = "a man on a square only the king may hold";
    else if (p->key != pos_compute_key(p))
        why = "Zobrist key out of step";
    if (why && err && errlen) snprintf(err, errlen, "%s", why);
    return why == NULL;
}
