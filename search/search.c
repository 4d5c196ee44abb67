/* Iterative deepening PVS with a shared table, tafl threat handling, time control, Lazy SMP. */
#include "search/search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/movegen.h"
#include "engine/rules.h"
#include "search/tt.h"

enum { HISTORY_MAX = MAX_GAME_PLIES + SEARCH_MAX_PLY + 2, QS_THREAT_PLIES = 4 };

/* One search thread's own state. */
struct thread {
    struct search *s;
    int index;
    int seen; /* the last job generation this pool thread took */
    pthread_t handle;
    uint64_t nodes;      /* written by the owner only; read relaxed by the main thread */
    uint64_t last_check; /* nodes at the last look at the clock */
    int seldepth;
    int root_depth;
    /* keys of the game since its last capture and of the current search path */
    uint64_t keys[HISTORY_MAX];
    int nkeys;
    int rep_floor; /* the oldest key a repetition can match: none before a capture can */
    move_t killers[SEARCH_MAX_PLY][2];
    int history[SIDE_NB][BB_MAX_SQUARES][BB_MAX_SQUARES];
    move_t pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
    int pv_len[SEARCH_MAX_PLY];
    /* root */
    move_t root_moves[MAX_MOVES];
    int nroot;
    move_t excluded[SEARCH_MAX_MULTIPV];
    int nexcluded;
    move_t best_move;
    int best_score, completed_depth;
};

/* What the pool threads are woken for. */
enum job { JOB_SEARCH, JOB_CLEAR };

struct search {
    struct tt tt;
    struct thread *threads[SEARCH_MAX_THREADS];
    int nthreads; /* pool threads created (helpers) + 1 */
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    int generation; /* bumped to start helpers on a job */
    int job;        /* enum job: what the helpers were started for */
    int running;    /* helpers still working */
    bool quit;
    atomic_bool stop;
    /* the search in progress */
    const struct tafl *game;
    struct search_limits limits;
    struct search_options opt;
    const struct search_callbacks *cb;
    struct timespec start;
    int64_t soft_ms, hard_ms;
};

/* Returns milliseconds since the search started. */
static int64_t elapsed_ms(const struct search *s) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - s->start.tv_sec) * 1000 +
           (now.tv_nsec - s->start.tv_nsec) / 1000000;
}

/* Returns true if score is a forced win or loss; *plies gets its length. */
bool search_score_is_win(int score, int *plies) {
    if (score >= SCORE_WIN_MIN)
        *plies = SCORE_WIN - score;
    else if (score <= -SCORE_WIN_MIN)
        *plies = SCORE_WIN + score;
    else
        return false;
    return true;
}

/* Sums the nodes of every thread. */
static uint64_t total_nodes(const struct search *s) {
    uint64_t n = 0;
    for (int i = 0; i < s->nthreads; i++)
        n += __atomic_load_n(&s->threads[i]->nodes, __ATOMIC_RELAXED);
    return n;
}

/* Checks the clock and node limit (main thread only) and raises the stop flag when they run out. */
static void check_limits(struct thread *t) {
    struct search *s = t->s;
    if (t->index != 0 || t->nodes - t->last_check < 512) return;
    t->last_check = t->nodes;
    if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) atomic_store(&s->stop, true);
    if (s->hard_ms > 0 && elapsed_ms(s) >= s->hard_ms) atomic_store(&s->stop, true);
}

/* Returns the score of the end the board rules decided in p (for the side to move). */
static int end_score(const struct position *p, int ply) {
    if (p->result == RESULT_DRAW) return 0;
    bool mover_to_move_wins = (p->result == RESULT_ATTACKERS) == (p->side == SIDE_ATTACKERS);
    return mover_to_move_wins ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

/* Returns the score of a repeated position for the side to move, by the variant's rule. */
static int repetition_score(const struct position *p, int ply) {
    switch (p->v->repetition) {
    case REP_DRAW: return 0;
    case REP_WIN_REPEATER: return -(SCORE_WIN - ply);
    case REP_LOSS_DEFENDERS:
        return p->side == SIDE_ATTACKERS ? SCORE_WIN - ply : -(SCORE_WIN - ply);
    default: return SCORE_WIN - ply; /* loss for the repeater, or an illegal move */
    }
}

/* Tells whether the key of the new position (keys[nkeys-1]) repeats one with the same side. */
static bool is_repetition(const struct thread *t) {
    uint64_t key = t->keys[t->nkeys - 1];
    for (int i = t->nkeys - 3; i >= t->rep_floor; i -= 2)
        if (t->keys[i] == key) return true;
    return false;
}

/* Returns the escape squares the king reaches in one move (whoever is to move). */
static bb_t escape_squares(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (!(g->lines[p->king_sq] & v->escape_mask)) return 0; /* no escape square in line */
    bb_t empty = g->board & ~pos_occupied(p);
    return bb_slides(g, p->king_sq, empty & ~v->king_block) & empty & ~v->king_forbidden &
           v->escape_mask;
}

/* Returns a move that escapes at once, or MOVE_NONE (defenders to move). */
static move_t escape_in_one(const struct position *p) {
    bb_t t = escape_squares(p);
    return t ? move_make(p->king_sq, bb_lsb(t)) : MOVE_NONE;
}

/*
 * Returns the squares an attacker move must land on to take every escape of the king away
 * (attackers to move, the king able to escape): the path to his only escape square, that square
 * included, or nothing when he has two (they lie on different lines). Emptying a square or
 * capturing a defender never closes a path.
 */
static bb_t escape_blocks(const struct position *p, bb_t escapes) {
    if (bb_several(escapes)) return 0;
    const struct bb_geom *g = &p->v->g;
    int k = p->king_sq, e = bb_lsb(escapes);
    for (int d = 0; d < DIR_NB; d++)
        if (bb_has(g->ray[d][k], e)) return g->ray[d][k] ^ g->ray[d][e];
    return 0;
}

/* Returns an attacker move that captures the king at once, or MOVE_NONE (attackers to move). */
static move_t king_capture_in_one(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t captures, maybe = rules_king_spots(p, &captures);
    bb_t spots = captures | maybe;
    if (!spots) return MOVE_NONE;
    bb_t stop = pos_occupied(p) | v->men_block;
    while (spots) {
        int to = bb_pop(&spots);
        /* the first piece (or blocking square) from `to` in each direction: an attacker there
           can move to `to` */
        for (int d = 0; d < DIR_NB; d++) {
            bb_t first = g->ray[d][to] & stop;
            if (!first) continue;
            int s = d == DIR_NORTH || d == DIR_EAST ? bb_lsb(first) : bb_msb(first);
            if (!bb_has(p->att, s)) continue;
            move_t m = move_make(s, to);
            if (bb_has(captures, to)) return m;
            struct position after;
            pos_make(&after, p, m);
            if (after.result == RESULT_ATTACKERS) return m;
        }
    }
    return MOVE_NONE;
}

/* Tells whether the side not to move threatens to win on its next move. */
static bool threatened(const struct position *p) {
    struct position q = *p;
    q.side = (uint8_t)!p->side;
    return p->side == SIDE_ATTACKERS ? escape_in_one(&q) != MOVE_NONE
                                     : king_capture_in_one(&q) != MOVE_NONE;
}

/* Returns the immediate winning move of the side to move, if it has one. */
static move_t win_in_one(const struct position *p) {
    return p->side == SIDE_DEFENDERS ? escape_in_one(p) : king_capture_in_one(p);
}

/* What a node's move ordering knows, gathered once per node. */
struct order {
    const int (*history)[BB_MAX_SQUARES]; /* the side to move's history, by from and to */
    move_t tt_move, killer0, killer1;
    int king_sq;
    bb_t escapes;   /* escape squares */
    bb_t contact;   /* squares beside an enemy piece: maybe a capture */
    bb_t near_king; /* for the attackers, the squares beside the king */
};

/* Gathers the ordering knowledge of node p at ply. */
static void order_init(struct order *o, const struct thread *t, const struct position *p,
                       move_t tt_move, int ply) {
    const struct bb_geom *g = &p->v->g;
    o->history = (const int(*)[BB_MAX_SQUARES])t->history[p->side];
    o->tt_move = tt_move;
    o->killer0 = t->killers[ply][0];
    o->killer1 = t->killers[ply][1];
    o->king_sq = p->king_sq;
    o->escapes = p->v->escape_mask;
    o->contact = bb_neighbours(p->side == SIDE_ATTACKERS ? p->def : p->att, g);
    o->near_king = p->side == SIDE_ATTACKERS ? g->nbrs[p->king_sq] : 0;
}

/* Returns a move's ordering score: table move, escapes, then history, killers, contact. */
static inline int order_score(const struct order *o, move_t m, int from, int to) {
    if (m == o->tt_move) return 1 << 30;
    if (from == o->king_sq && bb_has(o->escapes, to)) return 1 << 29;
    int sc = o->history[from][to];
    if (m == o->killer0)
        sc += 1 << 22;
    else if (m == o->killer1)
        sc += 1 << 21;
    if (bb_has(o->contact, to)) sc += 1 << 18;
    if (bb_has(o->near_king, to)) sc += 1 << 20;
    return sc;
}

/* Appends the moves from `from` to the squares of one 64-bit half of targets (ascending). */
static inline int add_half(const struct order *o, move_t *moves, int *scores, int n, int from,
                           uint64_t targets, int base, bool special) {
    const int *history = o->history[from];
    uint64_t contact = base ? bb_hi(o->contact) : bb_lo(o->contact);
    uint64_t near_king = base ? bb_hi(o->near_king) : bb_lo(o->near_king);
    for (; targets; targets &= targets - 1) {
        int bit = __builtin_ctzll(targets), to = base + bit;
        move_t m = move_make(from, to);
        moves[n] = m;
        if (special) {
            scores[n++] = order_score(o, m, from, to);
        } else {
            /* order_score without the table move, killers and escapes, none of which start here */
            scores[n++] = history[to] + (int)((contact >> bit) & 1) * (1 << 18) +
                          (int)((near_king >> bit) & 1) * (1 << 20);
        }
    }
    return n;
}

/* Appends the moves from `from` to the squares of targets (ascending) with their scores. */
static inline int add_scored(const struct order *o, move_t *moves, int *scores, int n, int from,
                             bb_t targets) {
    bool special = from == o->king_sq || from == move_from(o->tt_move) ||
                   from == move_from(o->killer0) || from == move_from(o->killer1);
    n = add_half(o, moves, scores, n, from, bb_lo(targets), 0, special);
    return add_half(o, moves, scores, n, from, bb_hi(targets), 64, special);
}

/*
 * Lists the moves of node p with their ordering scores, in gen_moves' order (at the root, the
 * root moves); returns their number. Generation and scoring run piece by piece in one pass.
 */
static int list_moves(const struct thread *t, const struct position *p, const struct order *o,
                      move_t *moves, int *scores, int ply) {
    if (ply == 0) {
        for (int i = 0; i < t->nroot; i++) {
            moves[i] = t->root_moves[i];
            scores[i] = order_score(o, moves[i], move_from(moves[i]), move_to(moves[i]));
        }
        return t->nroot;
    }
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    int n = 0;
    if (p->side == SIDE_DEFENDERS) {
        bb_t kt = bb_slides(g, p->king_sq, empty & ~v->king_block) & empty & ~v->king_forbidden;
        n = add_scored(o, moves, scores, n, p->king_sq, kt);
    }
    bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
    bb_t pro = empty & ~v->men_block, land = empty & ~v->men_forbidden;
    while (men) {
        int from = bb_pop(&men);
        n = add_scored(o, moves, scores, n, from, bb_slides(g, from, pro) & land);
    }
    return n;
}

/*
 * Hands out a node's moves best score first, in exactly the order of a selection sort that
 * swaps each pick into place (ties go to the earlier position in the array as it then stands).
 * The first picks scan the list; later ones use a tournament tree over the positions, so a node
 * that searches every move costs n log n instead of n * n.
 *
 * At depth 1 the table move and the killers are handed out before the list is made, since most
 * such nodes are cut by one of them. This keeps the order exact: their scores outrank every
 * other move (table move 2^30; killers at least 2^22 and 2^21, while history stays within 2^17
 * and the contact and king bonuses add 2^18 + 2^20; escapes, 2^29, never reach the move loop),
 * and below depth 1 only quiescence runs, which leaves history and killers alone, so the list
 * made afterwards scores as it would have before. The picks already handed out are then replayed
 * on the list, so the array stands as it would have.
 */
struct picker {
    const struct thread *t;
    const struct position *p;
    struct order o;
    int ply;
    bool listed;        /* the list is made */
    move_t staged[3];   /* handed out before the list: table move, killers */
    int nstaged, given; /* staged moves, and how many were handed out */
    move_t *moves;
    int *scores;
    int n, next;
    int size; /* leaves of the tree (a power of two), 0 before it is built */
    /* the best key below each tree node: score and position packed so that the larger key is
       the higher score, then the earlier position (leaf of position i at size + i) */
    int64_t key[2 * MAX_MOVES];
};

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
    move_t m = mp->moves[i];
    int sc = mp->scores[i];
    mp->moves[i] = mp->moves[best];
    mp->scores[i] = mp->scores[best];
    mp->moves[best] = m;
    mp->scores[best] = sc;
    if (mp->size) {
        /* position i is handed out; position best now holds what stood at i */
        picker_update(mp, i, PICK_NONE);
        if (best != i) picker_update(mp, best, pick_key(mp->scores[best], best));
    }
    return i;
}

/* Makes the list and replays on it the picks of the moves already handed out. */
static void picker_list(struct picker *mp) {
    mp->n = list_moves(mp->t, mp->p, &mp->o, mp->moves, mp->scores, mp->ply);
    mp->listed = true;
    for (int k = 0; k < mp->given; k++) picker_step(mp);
}

/*
 * Starts handing out the moves of node p (into the caller's arrays): at depth 1 the table move
 * and killers that are legal come first, otherwise the list is made at once. Returns false when
 * the node has no move at all.
 */
static bool picker_init(struct picker *mp, const struct thread *t, const struct position *p,
                        move_t *moves, int *scores, move_t tt_move, int depth, int ply) {
    mp->t = t;
    mp->p = p;
    order_init(&mp->o, t, p, tt_move, ply);
    mp->ply = ply;
    mp->moves = moves;
    mp->scores = scores;
    mp->n = mp->next = mp->size = 0;
    mp->nstaged = mp->given = 0;
    mp->listed = false;
    if (depth == 1 && ply > 0) {
        move_t cand[3] = {tt_move, mp->o.killer0, mp->o.killer1};
        for (int k = 0; k < 3; k++) {
            bool seen = false;
            for (int j = 0; j < mp->nstaged; j++) seen |= mp->staged[j] == cand[k];
            if (cand[k] && !seen && move_is_legal(p, cand[k])) mp->staged[mp->nstaged++] = cand[k];
        }
    }
    if (!mp->nstaged) picker_list(mp);
    return !mp->listed || mp->n > 0;
}

/* Returns the next move (MOVE_NONE when done) with its score in *score. */
static move_t picker_next(struct picker *mp, int *score) {
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

/* Records a quiet move that caused a cutoff. */
static void update_history(struct thread *t, const struct position *p, move_t m, int depth,
                           int ply) {
    int *h = &t->history[p->side][move_from(m)][move_to(m)];
    *h += depth * depth;
    if (*h > (1 << 17)) {
        for (int a = 0; a < BB_MAX_SQUARES; a++)
            for (int b = 0; b < BB_MAX_SQUARES; b++) t->history[p->side][a][b] /= 2;
    }
    if (t->killers[ply][0] != m) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = m;
    }
}

/* Quiescence: immediate wins, replies to a threat of an immediate win, else the evaluation. */
static int qsearch(struct thread *t, const struct position *p, int alpha, int beta, int ply,
                   int qply) {
    if (ply > t->seldepth) t->seldepth = ply;
    if (win_in_one(p)) return SCORE_WIN - ply - 1;
    if (ply >= SEARCH_MAX_PLY - 2) return eval_position(p, &t->s->opt.weights);
    bool threat = qply < QS_THREAT_PLIES && threatened(p);
    if (!threat) {
        int stand = eval_position(p, &t->s->opt.weights);
        return stand;
    }
    /* the opponent wins next move unless we answer: try every move */
    move_t moves[MAX_MOVES];
    int n = gen_moves(p, moves);
    if (n == 0) return p->v->no_moves == NO_MOVES_DRAW ? 0 : -(SCORE_WIN - ply);
    /* against an escape, a move off the squares that block it leaves the king his escape: the
       child's quiescence would find it first thing, so its score is known */
    bb_t blocks = ~(bb_t)0;
    if (p->side == SIDE_ATTACKERS) blocks = escape_blocks(p, escape_squares(p));
    int best = -SCORE_INF;
    struct position child;
    for (int i = 0; i < n; i++) {
        pos_make(&child, p, moves[i]);
        t->nodes++;
        int score;
        if (child.result != RESULT_NONE) {
            score = -end_score(&child, ply + 1);
        } else if (!bb_has(blocks, move_to(moves[i]))) {
            if (ply + 1 > t->seldepth) t->seldepth = ply + 1;
            score = -(SCORE_WIN - (ply + 1) - 1);
        } else {
            score = -qsearch(t, &child, -beta, -alpha, ply + 1, qply + 1);
        }
        if (score > best) {
            best = score;
            if (score > alpha) alpha = score;
            if (alpha >= beta) break;
        }
    }
    return best;
}

/* The principal-variation alpha-beta search of one node. */
static int search_node(struct thread *t, const struct position *p, int alpha, int beta, int depth,
                       int ply, bool pv_node, bool null_ok) {
    struct search *s = t->s;
    t->pv_len[ply] = 0;
    if (depth <= 0) return qsearch(t, p, alpha, beta, ply, 0);
    check_limits(t);
    if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
    if (ply > t->seldepth) t->seldepth = ply;
    if (ply >= SEARCH_MAX_PLY - 2) return eval_position(p, &s->opt.weights);

    /* mate-distance pruning */
    int lo = -(SCORE_WIN - ply), hi = SCORE_WIN - ply - 1;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    if (alpha >= beta) return alpha;

    struct tt_hit hit;
    move_t tt_move = MOVE_NONE;
    if (tt_probe(&s->tt, p->key, &hit)) {
        tt_move = hit.move;
        int sc = tt_score_from(hit.score, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && sc >= beta) ||
             (hit.bound == TT_UPPER && sc <= alpha)))
            return sc;
    }
    move_t win = win_in_one(p);
    for (int k = 0; ply == 0 && win && k < t->nexcluded; k++)
        if (t->excluded[k] == win) win = MOVE_NONE; /* a later MultiPV line: search the rest */
    if (win) {
        t->pv[ply][0] = win;
        t->pv_len[ply] = 1;
        return SCORE_WIN - ply - 1;
    }
    bool threat = threatened(p);

    /* null move: give the opponent a free move; if we still beat beta, cut. The static
       evaluation is needed only here (the table keeps it when known) */
    int static_eval = TT_EVAL_NONE;
    bool try_null = s->opt.null_move && null_ok && !pv_node && depth >= 3 && !threat &&
                    beta > -SCORE_WIN_MIN && beta < SCORE_WIN_MIN;
    if (try_null) static_eval = eval_position(p, &s->opt.weights);
    if (try_null && static_eval >= beta) {
        struct position null = *p;
        null.side = (uint8_t)!p->side;
        null.key ^= zobrist_side;
        /* the reduced search keeps at least one ply, so the opponent's wins in one (forts,
           encirclements) are seen after the pass */
        int r = 2 + depth / 4;
        if (r > depth - 2) r = depth - 2;
        t->keys[t->nkeys++] = null.key;
        int sc = -search_node(t, &null, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
        t->nkeys--;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
        if (sc >= beta && sc < SCORE_WIN_MIN) return sc;
    }

    move_t moves[MAX_MOVES];
    int scores[MAX_MOVES];
    struct picker mp; /* not zero-initialised: the tree is large and filled when built */
    if (!picker_init(&mp, t, p, moves, scores, tt_move, depth, ply))
        return p->v->no_moves == NO_MOVES_DRAW ? 0 : -(SCORE_WIN - ply);

    int best = -SCORE_INF, orig_alpha = alpha, searched = 0;
    move_t best_move = MOVE_NONE, m;
    struct position child;
    int move_score;
    while ((m = picker_next(&mp, &move_score)) != MOVE_NONE) {
        if (ply == 0) {
            bool skip = false;
            for (int k = 0; k < t->nexcluded; k++) skip |= t->excluded[k] == m;
            if (skip) continue;
        }
        bb_t caught = pos_make(&child, p, m);
        t->nodes++;
        if (depth >= 2) tt_prefetch(&s->tt, child.key); /* the child will probe the table */
        t->keys[t->nkeys++] = child.key;
        int floor = t->rep_floor;
        if (caught) t->rep_floor = t->nkeys - 1; /* nothing before a capture can repeat */
        int score;
        if (child.result != RESULT_NONE) {
            score = -end_score(&child, ply + 1);
            t->pv_len[ply + 1] = 0;
        } else if (!caught && is_repetition(t)) {
            score = -repetition_score(&child, ply + 1);
            t->pv_len[ply + 1] = 0;
        } else {
            int new_depth = depth - 1;
            if (searched == 0) {
                score = -search_node(t, &child, -beta, -alpha, new_depth, ply + 1, pv_node, true);
            } else {
                int r = 0;
                /* late quiet moves are reduced, but never king moves or moves beside the king:
                   escapes, forts and captures of the king grow from those */
                bool king_area =
                    move_from(m) == p->king_sq || bb_has(p->v->g.nbrs[p->king_sq], move_to(m));
                if (s->opt.lmr && depth >= 3 && searched >= 4 && !caught && !threat && !king_area &&
                    move_score < (1 << 20))
                    r = 1 + (searched >= 12) + (depth >= 8);
                if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
                score = -search_node(t, &child, -alpha - 1, -alpha, new_depth - r, ply + 1, false,
                                     true);
                if (score > alpha && r > 0)
                    score = -search_node(t, &child, -alpha - 1, -alpha, new_depth, ply + 1, false,
                                         true);
                if (score > alpha && score < beta)
                    score = -search_node(t, &child, -beta, -alpha, new_depth, ply + 1, true, true);
            }
        }
        t->nkeys--;
        t->rep_floor = floor;
        searched++;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                t->pv[ply][0] = m;
                memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)t->pv_len[ply + 1] * sizeof(move_t));
                t->pv_len[ply] = t->pv_len[ply + 1] + 1;
                if (alpha >= beta) {
                    if (!caught) update_history(t, p, m, depth, ply);
                    break;
                }
            }
        }
    }
    if (searched == 0) return alpha; /* every root move excluded */
    enum tt_bound bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store_by(&s->tt, t->index, p->key, best_move, tt_score_to(best, ply), static_eval, depth,
                bound);
    return best;
}

/* Runs one iteration for one MultiPV slot with an aspiration window around prev. */
static int aspiration(struct thread *t, const struct position *root, int depth, int prev) {
    int delta = 25, alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= 5 && prev > -SCORE_WIN_MIN && prev < SCORE_WIN_MIN) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        int score = search_node(t, root, alpha, beta, depth, 0, true, false);
        if (atomic_load_explicit(&t->s->stop, memory_order_relaxed)) return score;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
        } else if (score >= beta) {
            beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
        } else {
            return score;
        }
        delta *= 2;
        if (delta > 1000) alpha = -SCORE_INF, beta = SCORE_INF;
    }
}

/* Iterative deepening for one thread; the main thread reports and decides when to stop. */
static void iterate(struct thread *t) {
    struct search *s = t->s;
    const struct position *root = tafl_pos(s->game);
    /* helpers search on past the depth limit until the main thread stops them, rather than
       idle while it finishes its last iteration */
    int max_depth = s->limits.depth > 0 && t->index == 0 ? s->limits.depth : SEARCH_MAX_PLY - 8;
    int multipv = t->index == 0 ? s->opt.multipv : 1;
    if (multipv > t->nroot) multipv = t->nroot;
    int prev[SEARCH_MAX_MULTIPV] = {0};
    t->completed_depth = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        /* helpers skip some depths so the threads spread over the tree */
        if (t->index > 0 && depth > 1 && (depth + t->index) % 3 == 0) continue;
        t->root_depth = depth;
        t->nexcluded = 0;
        struct search_line lines[SEARCH_MAX_MULTIPV];
        int done = 0;
        for (int k = 0; k < multipv; k++) {
            t->seldepth = 0;
            int score = aspiration(t, root, depth, prev[k]);
            if (atomic_load_explicit(&s->stop, memory_order_relaxed) && depth > 1) break;
            prev[k] = score;
            struct search_line *l = &lines[k];
            l->multipv = k + 1;
            l->depth = depth;
            l->seldepth = t->seldepth;
            l->score = score;
            l->pv_len = t->pv_len[0];
            memcpy(l->pv, t->pv[0], (size_t)l->pv_len * sizeof(move_t));
            if (l->pv_len == 0) break;
            t->excluded[t->nexcluded++] = l->pv[0];
            done++;
        }
        if (done == 0) break;
        /* sort this iteration's lines by score, best first */
        for (int a = 1; a < done; a++)
            for (int b = a; b > 0 && lines[b].score > lines[b - 1].score; b--) {
                struct search_line tmp = lines[b];
                lines[b] = lines[b - 1];
                lines[b - 1] = tmp;
            }
        t->best_move = lines[0].pv[0];
        t->best_score = lines[0].score;
        t->completed_depth = depth;
        memcpy(t->pv[0], lines[0].pv, (size_t)lines[0].pv_len * sizeof(move_t));
        t->pv_len[0] = lines[0].pv_len;
        if (t->index != 0) {
            if (atomic_load_explicit(&s->stop, memory_order_relaxed)) break;
            continue;
        }
        int64_t ms = elapsed_ms(s);
        uint64_t nodes = total_nodes(s);
        int hashfull = tt_hashfull(&s->tt);
        for (int k = 0; k < done; k++) {
            lines[k].multipv = k + 1;
            lines[k].nodes = nodes;
            lines[k].time_ms = ms;
            lines[k].nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes * 1000;
            lines[k].hashfull = hashfull;
            if (s->cb && s->cb->on_iteration) s->cb->on_iteration(&lines[k], s->cb->ctx);
        }
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) break;
        int plies;
        if (!s->limits.infinite && search_score_is_win(lines[0].score, &plies) && plies <= depth)
            break; /* a forced result was proved */
        if (!s->limits.infinite && s->soft_ms > 0 && ms >= s->soft_ms) break;
        if (t->nroot == 1 && !s->limits.infinite && (s->soft_ms > 0 || s->hard_ms > 0)) break;
    }
}

/* Does thread t's share of a job: its slice of the table and its own history, or a search. */
static void do_job(struct thread *t, int job) {
    struct search *s = t->s;
    if (job == JOB_CLEAR) {
        tt_clear_part(&s->tt, t->index, s->nthreads);
        memset(t->history, 0, sizeof t->history);
        memset(t->killers, 0, sizeof t->killers);
    } else {
        iterate(t);
    }
}

/* Body of a pool thread: wait for a job, do its share, report done. */
static void *worker(void *arg) {
    struct thread *t = arg;
    struct search *s = t->s;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->quit && s->generation == t->seen) pthread_cond_wait(&s->wake, &s->lock);
        if (s->quit) break;
        t->seen = s->generation;
        int job = s->job;
        pthread_mutex_unlock(&s->lock);
        do_job(t, job);
        pthread_mutex_lock(&s->lock);
        if (--s->running == 0) pthread_cond_broadcast(&s->done);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/*
 * Runs a job on every thread, the caller being thread 0, and returns when all are done; after
 * its own search the caller raises the stop flag for the helpers.
 */
static void run_job(struct search *s, int job) {
    pthread_mutex_lock(&s->lock);
    s->job = job;
    s->running = s->nthreads - 1;
    s->generation++;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    do_job(s->threads[0], job);
    if (job == JOB_SEARCH) atomic_store(&s->stop, true);
    pthread_mutex_lock(&s->lock);
    while (s->running > 0) pthread_cond_wait(&s->done, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

/* Sets the default options: one thread, one line, 30 ms overhead, default weights. */
void search_options_default(struct search_options *o) {
    memset(o, 0, sizeof *o);
    o->threads = 1;
    o->multipv = 1;
    o->move_overhead_ms = 30;
    o->weights = eval_default_weights;
    o->null_move = false; /* off: it hides slow threats (forts), see docs/search.md */
    o->lmr = true;
}

/* Creates a search context with a table of hash_mib MiB (NULL if out of memory). */
struct search *search_new(size_t hash_mib) {
    struct search *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->threads[0] = calloc(1, sizeof(struct thread));
    if (!s->threads[0] || !tt_resize(&s->tt, hash_mib)) {
        free(s->threads[0]);
        free(s);
        return NULL;
    }
    s->threads[0]->s = s;
    s->nthreads = 1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->done, NULL);
    atomic_init(&s->stop, false);
    return s;
}

/* Makes the pool hold n threads in all (the caller's thread is thread 0). */
static void set_threads(struct search *s, int n) {
    if (n < 1) n = 1;
    if (n > SEARCH_MAX_THREADS) n = SEARCH_MAX_THREADS;
    if (n == s->nthreads) return;
    /* stop every helper, then start the wanted number */
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    for (int i = 1; i < s->nthreads; i++) {
        pthread_join(s->threads[i]->handle, NULL);
        free(s->threads[i]);
    }
    s->quit = false;
    s->nthreads = 1;
    for (int i = 1; i < n; i++) {
        struct thread *t = calloc(1, sizeof *t);
        if (!t) break;
        t->s = s;
        t->index = i;
        t->seen = s->generation; /* a new thread waits for the next job, never redoes the last */
        if (pthread_create(&t->handle, NULL, worker, t) != 0) {
            free(t);
            break;
        }
        s->threads[s->nthreads++] = t;
    }
    tt_set_writers(&s->tt, s->nthreads); /* if out of memory, threads share the maps */
}

/* Stops and joins the threads and frees everything. */
void search_free(struct search *s) {
    if (!s) return;
    set_threads(s, 1);
    free(s->threads[0]);
    tt_free(&s->tt);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->done);
    free(s);
}

/* Resizes the transposition table; false if out of memory (the old table stays). */
bool search_set_hash(struct search *s, size_t mib) {
    return tt_resize(&s->tt, mib);
}

/* Clears the table and the move-ordering history (a new game); the threads share the work. */
void search_clear(struct search *s) {
    run_job(s, JOB_CLEAR);
}

/* Asks a running search to stop as soon as it can (safe from any thread). */
void search_stop(struct search *s) {
    atomic_store(&s->stop, true);
}

/*
 * Sets the soft and hard time limits from the limits and options. A fixed move time is used
 * whole, as a GUI that gives one expects; the move overhead is kept back from clocks only.
 */
static void plan_time(struct search *s, int side) {
    const struct search_limits *l = &s->limits;
    int64_t overhead = s->opt.move_overhead_ms;
    s->soft_ms = s->hard_ms = 0;
    if (l->infinite) return;
    if (l->movetime_ms > 0) {
        s->hard_ms = l->movetime_ms;
        return;
    }
    if (l->time_ms[side] >= 0 && (l->time_ms[side] > 0 || l->inc_ms[side] > 0)) {
        int64_t left = l->time_ms[side], inc = l->inc_ms[side] > 0 ? l->inc_ms[side] : 0;
        int togo = l->movestogo > 0 ? l->movestogo : 30;
        int64_t usable = left - overhead;
        if (usable < 1) usable = 1;
        int64_t soft = usable / togo + inc * 3 / 4;
        int64_t hard = soft * 4;
        int64_t cap = usable * 4 / 5 > 1 ? usable * 4 / 5 : 1;
        if (hard > cap) hard = cap;
        if (soft > hard) soft = hard;
        s->soft_ms = soft > 0 ? soft : 1;
        s->hard_ms = hard > 0 ? hard : 1;
    }
}

/*
 * Searches the current position of game within the limits, blocking until done; reports through
 * cb and fills *out.
 */
void search_run(struct search *s, const struct tafl *game, const struct search_limits *limits,
                const struct search_options *opt, const struct search_callbacks *cb,
                struct search_result *out) {
    memset(out, 0, sizeof *out);
    clock_gettime(CLOCK_MONOTONIC, &s->start);
    set_threads(s, opt->threads);
    s->game = game;
    s->limits = *limits;
    s->opt = *opt;
    if (s->opt.multipv < 1) s->opt.multipv = 1;
    if (s->opt.multipv > SEARCH_MAX_MULTIPV) s->opt.multipv = SEARCH_MAX_MULTIPV;
    s->cb = cb;
    atomic_store(&s->stop, false);
    tt_new_search(&s->tt);
    const struct position *root = tafl_pos(game);
    plan_time(s, root->side);

    /* every thread gets the root moves and the game's keys since its last capture */
    move_t root_moves[MAX_MOVES];
    int nroot = tafl_legal_moves(game, root_moves);
    int first = game->n;
    while (first > 0 && !game->captures[first - 1] && game->n - first < MAX_GAME_PLIES) first--;
    for (int i = 0; i < s->nthreads; i++) {
        struct thread *t = s->threads[i];
        t->nodes = t->last_check = 0;
        t->nroot = nroot;
        memcpy(t->root_moves, root_moves, (size_t)nroot * sizeof(move_t));
        t->nkeys = t->rep_floor = 0;
        for (int j = first; j <= game->n; j++) t->keys[t->nkeys++] = game->pos[j].key;
        t->best_move = nroot ? root_moves[0] : MOVE_NONE;
        t->best_score = 0;
        t->completed_depth = 0;
        memset(t->killers, 0, sizeof t->killers);
    }
    if (nroot > 0 && game->result == RESULT_NONE) run_job(s, JOB_SEARCH);
    struct thread *main_thread = s->threads[0];
    out->best = nroot ? main_thread->best_move : MOVE_NONE;
    out->ponder = main_thread->pv_len[0] > 1 && main_thread->pv[0][0] == out->best
                      ? main_thread->pv[0][1]
                      : MOVE_NONE;
    out->score = main_thread->best_score;
    out->depth = main_thread->completed_depth;
    out->nodes = total_nodes(s);
    out->time_ms = elapsed_ms(s);
    if (cb && cb->on_bestmove) cb->on_bestmove(out->best, out->ponder, cb->ctx);
}
