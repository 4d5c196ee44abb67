/* Move ordering: history and killers, and the picker that hands out a node's moves. */
#include "search/movepick.h"

#include <string.h>

#include "engine/movegen.h"

/* Forgets all history and killers (a new game). */
void history_clear(struct history *h) {
    memset(h, 0, sizeof *h);
}

/* Forgets the killers only (a new search). */
void history_clear_killers(struct history *h) {
    memset(h->killers, 0, sizeof h->killers);
}

/* Records a quiet move m of p's side to move that caused a cutoff at depth, ply. */
void history_update(struct history *h, const struct position *p, move_t m, int depth, int ply) {
    int *v = &h->table[p->side][move_from(m)][move_to(m)];
    *v += depth * depth;
    if (*v > HISTORY_LIMIT) {
        for (int a = 0; a < BB_MAX_SQUARES; a++)
            for (int b = 0; b < BB_MAX_SQUARES; b++) h->table[p->side][a][b] /= 2;
    }
    if (h->killers[ply][0] != m) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = m;
    }
}

/* Moves one history value by bonus (negative: a malus), more slowly as it nears +-limit. */
static inline void history_gravity(int *v, int bonus, int limit) {
    int mag = bonus < 0 ? -bonus : bonus;
    *v += bonus - (int)((long long)*v * mag / limit);
}

/* Records a cutoff by quiet move m and lowers the quiet moves tried before it (gravity). */
void history_update_malus(struct history *h, const struct position *p, move_t m,
                          const move_t *tried, int n, int depth, int ply, const int prev[2]) {
    int(*table)[BB_MAX_SQUARES] = h->table[p->side];
    int bonus = depth * depth < 1200 ? depth * depth * 16 : 1200 * 16;
    history_gravity(&table[move_from(m)][move_to(m)], bonus, HISTORY_LIMIT);
    for (int i = 0; i < n; i++)
        history_gravity(&table[move_from(tried[i])][move_to(tried[i])], -bonus, HISTORY_LIMIT);
    for (int k = 0; k < 2; k++) {
        if (prev[k] == CONT_NONE) continue;
        int *row = h->cont[k][prev[k]];
        history_gravity(&row[cont_key(p, m)], bonus, CONT_LIMIT);
        for (int i = 0; i < n; i++)
            history_gravity(&row[cont_key(p, tried[i])], -bonus, CONT_LIMIT);
    }
    if (h->killers[ply][0] != m) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = m;
    }
}

/* Gathers the ordering knowledge of node p at ply. */
static void order_init(struct order *o, const struct history *h, const struct position *p,
                       move_t tt_move, int ply, const int prev[2]) {
    const struct bb_geom *g = &p->v->g;
    o->history = (const int(*)[BB_MAX_SQUARES])h->table[p->side];
    o->cont[0] = h->cont[0][prev[0]];
    o->cont[1] = h->cont[1][prev[1]];
    o->use_cont = prev[0] != CONT_NONE || prev[1] != CONT_NONE;
    o->side = p->side;
    o->tt_move = tt_move;
    o->killer0 = h->killers[ply][0];
    o->killer1 = h->killers[ply][1];
    o->king_sq = p->king_sq;
    o->escapes = p->v->escape_mask;
    o->contact = bb_neighbours(p->side == SIDE_ATTACKERS ? p->def : p->att, g);
    o->near_king = p->side == SIDE_ATTACKERS ? g->nbrs[p->king_sq] : BB_EMPTY;
}

/* Returns a move's ordering score: table move, escapes, then history, killers, contact. */
static inline int order_score(const struct order *o, move_t m, int from, int to) {
    if (m == o->tt_move) return 1 << 30;
    if (from == o->king_sq && bb_has(o->escapes, to)) return 1 << 29;
    int key = (from == o->king_sq ? 2 : o->side) * BB_MAX_SQUARES + to;
    int sc = o->history[from][to];
    if (o->use_cont) sc += (o->cont[0][key] + o->cont[1][key]) >> 1;
    if (m == o->killer0)
        sc += 1 << 22;
    else if (m == o->killer1)
        sc += 1 << 21;
    if (bb_has(o->contact, to)) sc += 1 << 18;
    if (bb_has(o->near_king, to)) sc += 1 << 20;
    return sc;
}

/* Appends the moves from `from` to the squares of word w of targets (ascending). */
static inline __attribute__((always_inline)) int add_word(const struct order *o, move_t *moves,
                                                          int *scores, int n, int from,
                                                          uint64_t targets, int w, bool special,
                                                          bool cont, const int *c0, const int *c1) {
    const int *history = o->history[from];
    uint64_t contact = bb_word(o->contact, w);
    uint64_t near_king = bb_word(o->near_king, w);
    for (; targets; targets &= targets - 1) {
        int bit = __builtin_ctzll(targets), to = 64 * w + bit;
        move_t m = move_make(from, to);
        moves[n] = m;
        if (special) {
            scores[n++] = order_score(o, m, from, to);
        } else {
            /* order_score without the table move, killers and escapes, none of which start here */
            scores[n] = history[to] + (int)((contact >> bit) & 1) * (1 << 18) +
                        (int)((near_king >> bit) & 1) * (1 << 20);
            if (cont) scores[n] += (c0[to] + c1[to]) >> 1;
            n++;
        }
    }
    return n;
}

/* Appends the moves from `from` to the squares of targets (ascending) with their scores. */
static inline __attribute__((always_inline)) int
add_scored(const struct order *o, move_t *moves, int *scores, int n, int from, bb_t targets) {
    bool special = from == o->king_sq || from == move_from(o->tt_move) ||
                   from == move_from(o->killer0) || from == move_from(o->killer1);
    /* the continuation history's values of this piece's moves, by target square */
    int base = (from == o->king_sq ? 2 : o->side) * BB_MAX_SQUARES;
    const int *c0 = o->cont[0] + base, *c1 = o->cont[1] + base;
    for (int w = 0; w < BB_WORDS; w++) {
        uint64_t word = bb_word(targets, w);
        n = o->use_cont ? add_word(o, moves, scores, n, from, word, w, special, true, c0, c1)
                        : add_word(o, moves, scores, n, from, word, w, special, false, c0, c1);
    }
    return n;
}

/*
 * Lists the moves of the picker's node with their ordering scores, in movegen_list' order (at the
 * root, the root moves); returns their number. Generation and scoring run piece by piece in one
 * pass.
 */
static int list_moves(const struct picker *mp, move_t *moves, int *scores) {
    const struct position *p = mp->p;
    const struct order *o = &mp->o;
    if (mp->root_moves) {
        for (int i = 0; i < mp->nroot; i++) {
            moves[i] = mp->root_moves[i];
            scores[i] = order_score(o, moves[i], move_from(moves[i]), move_to(moves[i]));
        }
        return mp->nroot;
    }
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    int n = 0;
    if (p->side == SIDE_DEFENDERS) {
        bb_t kt = movegen_king_targets(p);
        n = add_scored(o, moves, scores, n, p->king_sq, kt);
    }
    bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
    bb_t pro = empty & ~v->men_block, land = empty & ~v->men_forbidden;
    bb_t fort_men = men & v->forts; /* men on fortress squares (movegen.h), listed last */
    for (men &= ~v->forts; bb_any(men);) {
        int from = bb_pop(&men);
        n = add_scored(o, moves, scores, n, from, bb_slides(g, from, pro) & land);
    }
    if (bb_is_empty(fort_men)) return n;
    pro = movegen_unfort(v, pro, empty);
    land = movegen_unfort(v, land, empty);
    while (bb_any(fort_men)) {
        int from = bb_pop(&fort_men);
        n = add_scored(o, moves, scores, n, from, bb_slides(g, from, pro) & land);
    }
    return n;
}

enum { PICK_SCANS = 8 }; /* picks made by scanning before the tree is built */

enum { PICK_POS_BITS = 16 };
static const int64_t PICK_NONE = INT64_MIN; /* the key of a position handed out or past n */

/* Returns the tree key of position pos holding score: higher scores, then earlier positions. */
static inline int64_t pick_key(int score, int pos) {
    return (int64_t)score * (1 << PICK_POS_BITS) + ((1 << PICK_POS_BITS) - 1 - pos);
}

/* Returns the position of a tree key. */
static inline int pick_pos(int64_t key) {
    return (1 << PICK_POS_BITS) - 1 - (int)(key & ((1 << PICK_POS_BITS) - 1));
}

/* Sets the leaf of position pos to key and recomputes the tree nodes above it. */
static inline void picker_update(struct picker *mp, int pos, int64_t key) {
    int k = mp->size + pos;
    mp->key[k] = key;
    /* the new value climbs in a register; only the siblings are read */
    for (; k > 1; k /= 2) {
        int64_t sibling = mp->key[k ^ 1];
        key = key > sibling ? key : sibling;
        mp->key[k / 2] = key;
    }
}

/* Builds the tree over the positions from first on. */
static void picker_build(struct picker *mp, int first) {
    mp->size = 1;
    while (mp->size < mp->n) mp->size *= 2;
    for (int i = 0; i < mp->size; i++)
        mp->key[mp->size + i] = i >= first && i < mp->n ? pick_key(mp->scores[i], i) : PICK_NONE;
    for (int k = mp->size - 1; k >= 1; k--) {
        int64_t a = mp->key[2 * k], b = mp->key[2 * k + 1];
        mp->key[k] = a > b ? a : b;
    }
}

/* Swaps positions i and j of the list (moves and scores). */
static inline void picker_swap(struct picker *mp, int i, int j) {
    move_t m = mp->moves[i];
    int sc = mp->scores[i];
    mp->moves[i] = mp->moves[j];
    mp->scores[i] = mp->scores[j];
    mp->moves[j] = m;
    mp->scores[j] = sc;
}

/* Moves the best remaining move of the list into place and returns its position. */
static int picker_step(struct picker *mp) {
    int i = mp->next++;
    int best = i;
    if (i < PICK_SCANS) {
        /* the highest score (a loop the compiler vectorises), then its first position */
        int top = mp->scores[i];
        for (int j = i + 1; j < mp->n; j++) top = mp->scores[j] > top ? mp->scores[j] : top;
        while (mp->scores[best] != top) best++;
    } else {
        if (!mp->size) picker_build(mp, i);
        best = pick_pos(mp->key[1]);
    }
    picker_swap(mp, i, best);
    if (mp->size) {
        /* position i is handed out; position best now holds what stood at i */
        picker_update(mp, i, PICK_NONE);
        if (best != i) picker_update(mp, best, pick_key(mp->scores[best], best));
    }
    return i;
}

/* Makes the list and replays on it the picks of the moves already handed out: each is swapped
   into place, as picker_step would have picked it (it outranks every move after it). */
static __attribute__((noinline)) void picker_list(struct picker *mp) {
    mp->n = list_moves(mp, mp->moves, mp->scores);
    mp->listed = true;
    for (int k = 0; k < mp->given; k++) {
        int i = mp->next++, j = i;
        while (j < mp->n && mp->moves[j] != mp->staged[k]) j++;
        if (j < mp->n) picker_swap(mp, i, j); /* always found: a staged move is legal */
    }
}

/* Starts handing out the moves of node p at ply (see movepick.h). */
bool picker_init(struct picker *mp, const struct history *h, const struct position *p,
                 const move_t *root_moves, int nroot, move_t *moves, int *scores, move_t tt_move,
                 bool stage, int ply, const int prev[2]) {
    mp->p = p;
    mp->root_moves = root_moves;
    mp->nroot = nroot;
    order_init(&mp->o, h, p, tt_move, ply, prev);
    mp->moves = moves;
    mp->scores = scores;
    mp->n = mp->next = mp->size = 0;
    mp->nstaged = mp->given = 0;
    mp->listed = false;
    if (stage && !root_moves) {
        move_t cand[3] = {tt_move, mp->o.killer0, mp->o.killer1};
        for (int k = 0; k < 3; k++) {
            bool seen = false;
            for (int j = 0; j < mp->nstaged; j++) seen |= mp->staged[j] == cand[k];
            if (cand[k] && !seen && movegen_is_legal(p, cand[k]))
                mp->staged[mp->nstaged++] = cand[k];
        }
    }
    if (!mp->nstaged) picker_list(mp);
    return !mp->listed || mp->n > 0;
}

/* Returns the next move (MOVE_NONE when done) with its score in *score. */
move_t picker_next(struct picker *mp, int *score) {
    if (!mp->listed) {
        if (mp->given < mp->nstaged) {
            move_t m = mp->staged[mp->given++];
            *score = order_score(&mp->o, m, move_from(m), move_to(m));
            return m;
        }
        picker_list(mp);
    }
    if (mp->next >= mp->n) return MOVE_NONE;
    int i = picker_step(mp);
    *score = mp->scores[i];
    return mp->moves[i];
}
