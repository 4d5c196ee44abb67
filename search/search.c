/* The tafl search: iterative deepening, PVS with quiescence, the shared table, Lazy SMP jobs. */
#include "search/search.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/rules.h"
#include "engine/threats.h"
#include "search/movepick.h"
#include "search/nnue.h"
#include "search/threads.h"
#include "search/tt.h"

enum {
    KEYS_MAX = MAX_GAME_PLIES + SEARCH_MAX_PLY + 2,
    QS_THREAT_PLIES = 4,    /* quiescence answers threats of a win this many plies deep */
    QS_CAPTURE_PLIES = 6,   /* and tries captures this many plies deep (qs_captures) */
    CORR_KING_SIZE = 16384, /* correction history (corr_king): king areas per side, a power of 2 */
    CORR_MAT_SIZE = 4096,   /* (corr_mat): attackers x 64 + defenders */
    CORR_GRAIN = 256,       /* a correction is kept in 1/256 centi-men */
    CORR_MAX = 128,         /* and within this many centi-men */
};

/* One search thread's own state. */
struct thread {
    struct search *s;
    int index;
    uint64_t nodes;      /* written by the owner only; read relaxed by the main thread */
    uint64_t last_check; /* nodes at the last look at the clock */
    int seldepth;
    int root_depth;
    /* keys of the game since its last capture and of the current search path */
    uint64_t keys[KEYS_MAX];
    int nkeys;
    int rep_floor;       /* the oldest key a repetition can match: none before a capture can */
    struct history hist; /* move ordering: history and killers */
    /* the continuation-history key (movepick.h) of the move made at each ply of the path */
    int cont_keys[SEARCH_MAX_PLY + 1];
    /* correction history: per side, the mean error of the static evaluation against the search
       by king area (corr_king) and by the count of men (corr_mat), in 1/CORR_GRAIN centi-men */
    int corr_king[SIDE_NB][CORR_KING_SIZE];
    int corr_mat[SIDE_NB][CORR_MAT_SIZE];
    /* the network's accumulator per ply of the search path, computed when first needed from the
       nearest computed one by the moves in between */
    struct nnue_acc acc[SEARCH_MAX_PLY + 1];
    struct acc_step {
        bool done;          /* acc[ply] and reach are computed */
        uint8_t pk, victim; /* enum piece: the piece moved (PIECE_NONE: a pass), men taken */
        uint8_t from, to;
        bb_t caught;
        const struct position *pos; /* the ply's position (alive while it is on the path) */
        struct nnue_reach reach;    /* the king's reach in it, once computed */
    } steps[SEARCH_MAX_PLY + 1];
    move_t pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
    int pv_len[SEARCH_MAX_PLY];
    /* root */
    move_t root_moves[MAX_MOVES];
    int nroot;
    move_t excluded[SEARCH_MAX_MULTIPV];
    int nexcluded;
    /* per ply, the table move a singular-extension test searches the node without (se_depth) */
    move_t se_excluded[SEARCH_MAX_PLY];
    move_t best_move;
    int best_score, completed_depth;
    int root_score;      /* the score of the root's best move so far in the running iteration */
    bool root_prev_done; /* ... in which the last iteration's best move has been searched */
};

/* What the pool threads are woken for. */
enum job { JOB_SEARCH, JOB_CLEAR };

struct search {
    struct tt tt;
    struct thread *threads[SEARCH_MAX_THREADS];
    int nthreads; /* search threads: the caller's (thread 0) and the pool's helpers */
    struct pool pool;
    atomic_bool stop;
    /* the search in progress */
    const struct tafl_game *game;
    struct search_limits limits;
    struct search_options opt;
    const struct search_callbacks *cb;
    struct timeman tm;
};

/* Sums the nodes of every thread. */
static uint64_t total_nodes(const struct search *s) {
    uint64_t n = 0;
    for (int i = 0; i < s->nthreads; i++)
        n += __atomic_load_n(&s->threads[i]->nodes, __ATOMIC_RELAXED);
    return n;
}

/* Counts a node: only its thread writes the count, others read it (relaxed atomics both ways, so
   the increment costs a plain add). */
static inline void count_node(struct thread *t) {
    __atomic_store_n(&t->nodes, t->nodes + 1, __ATOMIC_RELAXED);
}

/* Checks the clock and node limit (main thread only) and raises the stop flag when they run out. */
static void check_limits(struct thread *t) {
    struct search *s = t->s;
    if (t->index != 0 || t->nodes - t->last_check < 512) return;
    t->last_check = t->nodes;
    if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) atomic_store(&s->stop, true);
    if (s->tm.hard_ms > 0 && tm_elapsed_ms(&s->tm) >= s->tm.hard_ms) atomic_store(&s->stop, true);
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
    default: return SCORE_WIN - ply; /* loss for the repeater, or an illegal move (never none) */
    }
}

/* Tells whether the key of the new position (keys[nkeys-1]) repeats one with the same side. */
static bool is_repetition(const struct thread *t) {
    uint64_t key = t->keys[t->nkeys - 1];
    for (int i = t->nkeys - 3; i >= t->rep_floor; i -= 2)
        if (t->keys[i] == key) return true;
    return false;
}

/* Notes the move m (with its captures) that leads from ply's position p to child, the next ply. */
static inline void acc_push(struct thread *t, const struct position *p, move_t m, bb_t caught,
                            const struct position *child, int ply) {
    struct acc_step *st = &t->steps[ply + 1];
    int from = move_from(m);
    st->done = false;
    st->pos = child;
    st->pk = p->side == SIDE_ATTACKERS ? PIECE_ATTACKER
             : from == p->king_sq      ? PIECE_KING
                                       : PIECE_DEFENDER;
    st->victim = p->side == SIDE_ATTACKERS ? PIECE_DEFENDER : PIECE_ATTACKER;
    st->from = (uint8_t)from;
    st->to = (uint8_t)move_to(m);
    st->caught = caught;
}

/* Tells whether the king stands on the edge or one step from it. */
static bool king_by_edge(const struct position *p) {
    return bb_any((p->king | p->v->g.nbrs[p->king_sq]) & p->v->g.edge);
}

/* Returns the king's distance from the nearest edge (0 on it). */
static int king_edge_distance(const struct position *p) {
    int n = p->v->size, r = p->king_sq / n, f = p->king_sq % n;
    int d = r < f ? r : f;
    if (n - 1 - r < d) d = n - 1 - r;
    if (n - 1 - f < d) d = n - 1 - f;
    return d;
}

/* Tells whether two men beside him would take the king where he stands and he stands by the
   edge. */
static bool king_exposed_by_edge(const struct position *p) {
    return rules_king_mode(p) == KING_CAPTURE_CUSTODIAL && king_by_edge(p);
}

/* Tells whether the king is held: no square beside him to step to, at least two attackers
   beside him and a defender, whose move away may let the last attacker in (a zugzwang the
   evaluation does not see). */
static bool king_held(const struct position *p) {
    const struct variant *v = p->v;
    bb_t nbrs = v->g.nbrs[p->king_sq];
    if (bb_any(nbrs & ~pos_occupied(p) & ~v->king_forbidden)) return false;
    return bb_popcount(nbrs & p->att) >= 2 && bb_any(nbrs & p->def);
}

/* Tells whether the defenders have at most n moves; they are counted only when a cheap lower
   bound (a man or the king beside an empty square he may stop on has a move there) is not
   already above n. */
static bool defenders_stuck(const struct position *p, int n) {
    const struct variant *v = p->v;
    if (!v->special_moves) {
        bb_t empty = v->g.board & ~pos_occupied(p);
        int low = bb_popcount(p->def & bb_neighbours(empty & ~v->men_forbidden, &v->g)) +
                  bb_any(v->g.nbrs[p->king_sq] & empty & ~v->king_forbidden);
        if (low > n) return false;
    }
    return movegen_count_side(p, SIDE_DEFENDERS) <= n;
}

/* Returns the mop-up term for p's side to move: once the defenders are down to a few men, the
   attackers' way to the win, which neither evaluation grades (search_params mop_*): the squares
   still to fill, those of the ring that would enclose the king and the men off the edge, or for
   a king on the edge those beside him (to leave him no move); two for each man on the edge
   (to be taken first); the king's room; and the squares that would seal the corners from him
   (eval_corner_gaps), which the ring must not open; and the attackers' men, which the other
   terms would spend to gain a square. */
static int mop_up(const struct search_params *pr, const struct position *p) {
    if (!pr->mop || bb_popcount(p->def) > pr->mop_men) return 0;
    const struct variant *v = p->v;
    bb_t edge = v->g.edge;
    int gaps = 2 * bb_popcount(p->def & edge);
    if (bb_any(p->king & edge)) {
        gaps += bb_popcount(v->g.nbrs[p->king_sq] & ~(pos_occupied(p) | v->throne));
    } else if (v->encirclement) {
        gaps += eval_ring_gaps(p, (p->def & ~edge) | p->king, pr->mop_cap);
    } else {
        gaps += pr->mop_cap;
    }
    int room = bb_popcount(movegen_targets(p, p->king_sq));
    int att = pr->mop_base - pr->mop_gap * gaps - pr->mop_mob * room;
    if (pr->mop_corner) att -= pr->mop_corner * eval_corner_gaps(p, pr->mop_cap);
    att += pr->mop_man * bb_popcount(p->att);
    return p->side == SIDE_ATTACKERS ? att : -att;
}

/* Returns the squares the attackers must still fill to shut the king and every defender off
   the edge (eval_ring_flow, counted up to cap), or 0 where the encirclement rule does not apply
   or more than ring_men men (besides the king) remain or one stands on the edge; *carried (if
   not NULL) receives the squares where a move may close a gap. */
static int ring_gaps_of(const struct search_params *sp, const struct position *p, int cap,
                        bb_t *carried) {
    const struct variant *v = p->v;
    if (carried) *carried = BB_EMPTY;
    if (!sp->ring_men || !v->encirclement || bb_popcount(p->def) > sp->ring_men) return 0;
    bb_t shut = p->def | p->king;
    if (bb_any(shut & v->g.edge)) return 0;
    return eval_ring_flow(p, shut, cap, carried);
}

/* Returns the gaps of the attackers' ring at p while few enough to matter (ring_gaps; 0 when
   not), counting them at the first ask: *gaps is -1 until then, and *squares receives the
   squares where a move can close one. Most nodes cut off at their first move and never ask. */
static int ring_gaps_lazy(const struct search_params *sp, const struct position *p, int *gaps,
                          bb_t *squares) {
    if (*gaps < 0) {
        *gaps = ring_gaps_of(sp, p, sp->ring_gaps + 1, squares);
        if (*gaps > sp->ring_gaps) *gaps = 0;
    }
    return *gaps;
}

/* Returns whether the attacker move m from p, which made child, closes a gap of p's ring (while
   it has few, ring_gaps_lazy) with squares its flow passed through. */
static bool ring_closes(const struct search_params *sp, const struct position *p, int *gaps,
                        bb_t *squares, const struct position *child, move_t m) {
    int n = ring_gaps_lazy(sp, p, gaps, squares);
    return n && bb_has(*squares, move_to(m)) && ring_gaps_of(sp, child, n, NULL) < n;
}

/* Returns whether the ring that would shut in the defenders at p has at most rfp_ring gaps
   left (ring_gaps_of; the count is dear, so it is asked last, and only of defenders who stand
   below even). */
static bool ring_tight(const struct search_params *sp, const struct position *p) {
    int g = ring_gaps_of(sp, p, sp->rfp_ring + 1, NULL);
    return g > 0 && g <= sp->rfp_ring;
}

/* Returns the squares within `steps` (at least 1) orthogonal steps of p's king. */
static bb_t king_zone(const struct position *p, int steps) {
    bb_t zone = p->v->g.nbrs[p->king_sq];
    for (int k = 1; k < steps; k++) zone |= bb_neighbours(zone, &p->v->g);
    return zone;
}

/* Returns the squares where rfp_edge counts the defenders about an edge king: those beside
   him, or with rfp_edge_zone those within that many steps. */
static bb_t edge_zone(const struct search_params *sp, const struct position *p) {
    return sp->rfp_edge_zone ? king_zone(p, sp->rfp_edge_zone) : p->v->g.nbrs[p->king_sq];
}

/* Returns whether the move that led to p (at ply >= 1) landed within `steps` orthogonal steps of
   the king (a pass or an unknown move: no). A move that closes on the king may start a slow
   capture, shut him in or open his way (rfp_near). */
static bool last_move_near_king(const struct thread *t, const struct position *p, int ply,
                                int steps) {
    int key = t->cont_keys[ply - 1];
    if (key == CONT_NONE) return false;
    return bb_has(king_zone(p, steps), key % BB_MAX_SQUARES);
}

/* Tells whether reverse futility must not stand on p's evaluation because a slow threat may lie
   behind it, one the evaluation does not see (the search parameters rfp_edge, rfp_king,
   rfp_men_pct, rfp_held, rfp_mob, rfp_near and rfp_ring). The cheap tests come first; the
   ring's count, the dearest, last. */
static bool rfp_slow_threat(const struct thread *t, const struct search_params *sp,
                            const struct position *p, int ply, int static_eval) {
    int side_bit = 1 << p->side;
    bool defenders = p->side == SIDE_DEFENDERS;
    /* an exit fort coming (rfp_edge: at the attackers' nodes, the defenders' or either): the
       king on the edge (rfp_edge_near: or a step from it) with rfp_edge_def defenders beside him
       (rfp_edge_zone: within that many steps) */
    if (sp->rfp_edge & side_bit &&
        (sp->rfp_edge_near ? king_by_edge(p) : bb_any(p->king & p->v->g.edge)) &&
        bb_popcount(edge_zone(sp, p) & p->def) >= sp->rfp_edge_def)
        return true;
    /* where two men take the king (Brandubh), slow captures of him by the edge and escapes */
    if (sp->rfp_king & side_bit && king_exposed_by_edge(p)) return true;
    /* the defenders down to few men for the variant (a share of those they start with), each of
       whose moves may let the king be taken or the ring close */
    if (sp->rfp_men_pct && sp->rfp_men_side & side_bit &&
        bb_popcount(p->def) * 100 < sp->rfp_men_pct * bb_popcount(p->v->start.def))
        return true;
    /* the defenders' king held: a zugzwang */
    if (sp->rfp_held && defenders && king_held(p)) return true;
    /* a squeeze of the defenders to no moves, while they have few */
    if (sp->rfp_mob && p->v->no_moves == NO_MOVES_LOSS && defenders_stuck(p, sp->rfp_mob))
        return true;
    /* the last move landed near the king (rfp_near_edge: a king near the edge) */
    if (sp->rfp_near && ply >= 1 && sp->rfp_near_side & side_bit &&
        (!sp->rfp_near_edge || king_edge_distance(p) < sp->rfp_near_edge) &&
        last_move_near_king(t, p, ply, sp->rfp_near))
        return true;
    /* the defenders, below even, a gap or two from being shut in */
    return sp->rfp_ring && defenders && static_eval < 0 && ring_tight(sp, p);
}

/* Returns whether the attacker move m from p takes a move from the defenders while they have
   few (sq_mob: at most that many, where a side left without a move loses): it lands where one
   of them could move. The squares are found at the first ask (*state -1 until then, then 1 if
   the rule applies, with them in *squares, else 0). A squeeze to no moves is quiet moves far
   from the king, which the reductions and pruning would otherwise pass over. */
static bool squeezes(const struct search_params *sp, const struct position *p, int *state,
                     bb_t *squares, move_t m) {
    if (*state < 0) {
        *state = 0;
        *squares = BB_EMPTY;
        if (p->v->no_moves == NO_MOVES_LOSS && defenders_stuck(p, sp->sq_mob)) {
            bb_t men = p->def | p->king;
            while (bb_any(men)) *squares |= movegen_targets(p, bb_pop(&men));
            *state = bb_any(*squares);
        }
    }
    return *state > 0 && bb_has(*squares, move_to(m));
}

/* Evaluates p at ply for its side to move: the network when the search has one, else the
   classical evaluation; and the mop-up term. */
static int evaluate(struct thread *t, const struct position *p, int ply) {
    const struct nnue_net *net = t->s->opt.net;
    int mop = mop_up(&t->s->opt.params, p);
    if (!net) return score_clamp_eval(eval_position(p, &t->s->opt.weights) + mop);
    int k = ply;
    while (!t->steps[k].done) k--; /* the root is always computed */
    for (k++; k <= ply; k++) {
        struct acc_step *st = &t->steps[k];
        if (net->arch == NNUE_ARCH_KING_REACH) nnue_reach_of(st->pos, &st->reach);
        nnue_update(net, &t->acc[k - 1], &t->acc[k], st->pk, st->from, st->to, st->victim,
                    st->caught, &t->steps[k - 1].reach, &st->reach);
        st->done = true;
    }
    return score_clamp_eval(nnue_evaluate(net, &t->acc[ply], nnue_head_of(net, p)) + mop);
}

/* Returns the correction-history key of p's king area: the king's square and the men within two
   steps of him (corr_king), within CORR_KING_SIZE. */
static unsigned corr_king_index(const struct position *p) {
    bb_t zone = king_zone(p, 2);
    uint64_t key = zobrist_piece[PIECE_KING][p->king_sq];
    bb_t a = p->att & zone, d = p->def & zone;
    while (bb_any(a)) key ^= zobrist_piece[PIECE_ATTACKER][bb_pop(&a)];
    while (bb_any(d)) key ^= zobrist_piece[PIECE_DEFENDER][bb_pop(&d)];
    return (unsigned)(key >> 32) & (CORR_KING_SIZE - 1);
}

/* Returns the correction-history index of p's count of men (corr_mat). */
static unsigned corr_mat_index(const struct position *p) {
    return ((unsigned)bb_popcount(p->att) * 64u + (unsigned)bb_popcount(p->def)) &
           (CORR_MAT_SIZE - 1);
}

/* Tells whether the correction history is on (corr_king or corr_mat). */
static inline bool corr_on(const struct search_params *sp) {
    return sp->corr_king || sp->corr_mat;
}

/* Returns the correction to p's static evaluation, for its side to move, that the correction
   history holds (corr_king, corr_mat; 0 when both are off). */
static int corr_of(const struct thread *t, const struct search_params *sp,
                   const struct position *p) {
    int sum = 0;
    if (sp->corr_king) sum += t->corr_king[p->side][corr_king_index(p)] * sp->corr_king;
    if (sp->corr_mat) sum += t->corr_mat[p->side][corr_mat_index(p)] * sp->corr_mat;
    return sum / (100 * CORR_GRAIN);
}

/* Moves one correction entry towards err (centi-men, clamped) by a weight that grows with the
   depth of the search that found it. */
static void corr_move(int *entry, int err, int depth) {
    if (err > CORR_MAX) err = CORR_MAX;
    if (err < -CORR_MAX) err = -CORR_MAX;
    int w = depth + 1 < 16 ? depth + 1 : 16;
    *entry = (*entry * (256 - w) + err * CORR_GRAIN * w) / 256;
}

/* Teaches the correction history that the search found p worth err centi-men more (for its side
   to move) than its corrected static evaluation, at depth. */
static void corr_update(struct thread *t, const struct search_params *sp, const struct position *p,
                        int err, int depth) {
    if (sp->corr_king) corr_move(&t->corr_king[p->side][corr_king_index(p)], err, depth);
    if (sp->corr_mat) corr_move(&t->corr_mat[p->side][corr_mat_index(p)], err, depth);
}

static int qsearch(struct thread *t, const struct position *p, int alpha, int beta, int ply,
                   int qply);

/* Returns the quiescence score of child c for the side to move at p: negated when the turn
   passes, as it is when a berserk turn goes on (the same side moves again). */
static inline int qsearch_child(struct thread *t, const struct position *p,
                                const struct position *c, int alpha, int beta, int ply, int qply) {
    if (__builtin_expect(c->side == p->side, 0)) return qsearch(t, c, alpha, beta, ply, qply);
    return -qsearch(t, c, -beta, -alpha, ply, qply);
}

/* The quiet end of quiescence: the evaluation (with corr_qs, corrected by the correction
   history), or with qs_captures the better of it and the captures of the side to move (a
   capture ends in quiescence again). */
static int qsearch_captures(struct thread *t, const struct position *p, int alpha, int beta,
                            int ply, int qply) {
    int stand = evaluate(t, p, ply);
    const struct search_params *sp = &t->s->opt.params;
    if (sp->corr_qs && corr_on(sp)) stand = score_clamp_eval(stand + corr_of(t, sp, p));
    if (!sp->qs_captures || qply >= QS_CAPTURE_PLIES || stand >= beta) return stand;
    bb_t squares = rules_capture_squares(p);
    if (bb_is_empty(squares)) return stand;
    if (stand > alpha) alpha = stand;
    int best = stand;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    struct position child;
    for (int i = 0; i < n; i++) {
        if (!bb_has(squares, move_to(moves[i]))) continue;
        bb_t caught = make_move(&child, p, moves[i]);
        count_node(t);
        if (bb_is_empty(caught)) continue; /* the king cannot capture, or a piece left the anvil */
        if (t->s->opt.net) acc_push(t, p, moves[i], caught, &child, ply);
        int score = child.result != RESULT_NONE
                        ? -end_score(&child, ply + 1)
                        : qsearch_child(t, p, &child, alpha, beta, ply + 1, qply + 1);
        if (score > best) {
            best = score;
            if (score > alpha) alpha = score;
            if (alpha >= beta) break;
        }
    }
    return best;
}

/* Quiescence: immediate wins, replies to a threat of an immediate win, captures (with
   qs_captures), else the evaluation. */
static int qsearch(struct thread *t, const struct position *p, int alpha, int beta, int ply,
                   int qply) {
    if (ply > t->seldepth) t->seldepth = ply;
    if (threat_win_in_one(p)) return SCORE_WIN - ply - 1;
    /* a side left without a move has lost (or drawn): a squeeze's last move is a win in one */
    if (t->s->opt.params.qs_no_moves && !movegen_has_move(p))
        return p->v->no_moves == NO_MOVES_DRAW ? 0 : -(SCORE_WIN - ply);
    if (ply >= SEARCH_MAX_PLY - 2) return evaluate(t, p, ply);
    bool threat = qply < QS_THREAT_PLIES && threat_against(p);
    if (!threat) return qsearch_captures(t, p, alpha, beta, ply, qply);
    /* the opponent wins next move unless we answer: try every move */
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    if (n == 0) return p->v->no_moves == NO_MOVES_DRAW ? 0 : -(SCORE_WIN - ply);
    /* against an escape, a move off the squares that block it leaves the king his escape: the
       child's quiescence would find it first thing, so its score is known */
    bb_t blocks = bb_all();
    if (p->side == SIDE_ATTACKERS) blocks = threat_escape_blocks(p, threat_escape_squares(p));
    int best = -SCORE_INF;
    struct position child;
    for (int i = 0; i < n; i++) {
        bb_t caught = make_move(&child, p, moves[i]);
        count_node(t);
        if (t->s->opt.net) acc_push(t, p, moves[i], caught, &child, ply);
        int score;
        if (child.result != RESULT_NONE) {
            score = -end_score(&child, ply + 1);
        } else if (!bb_has(blocks, move_to(moves[i])) && child.side != p->side) {
            if (ply + 1 > t->seldepth) t->seldepth = ply + 1;
            score = -(SCORE_WIN - (ply + 1) - 1);
        } else {
            score = qsearch_child(t, p, &child, alpha, beta, ply + 1, qply + 1);
        }
        if (score > best) {
            best = score;
            if (score > alpha) alpha = score;
            if (alpha >= beta) break;
        }
    }
    return best;
}

/* Returns the log-formula reduction of the searched-th move at depth: 3/4 + ln(depth) x
   ln(searched) / (div / 100), in whole plies. */
static int lmr_reduction(int depth, int searched, int div) {
    return (int)(0.75f + logf((float)depth) * logf((float)searched) * 100.0f / (float)div);
}

static int search_node(struct thread *t, const struct position *p, int alpha, int beta, int depth,
                       int ply, bool pv_node, bool null_ok);

/* Returns the score of child c searched in the window (alpha, beta) of the side to move at p:
   negated when the turn passes, as it is when a berserk turn goes on. */
static inline int search_child(struct thread *t, const struct position *p, const struct position *c,
                               int alpha, int beta, int depth, int ply, bool pv_node) {
    if (__builtin_expect(c->side == p->side, 0))
        return search_node(t, c, alpha, beta, depth, ply, pv_node, true);
    return -search_node(t, c, -beta, -alpha, depth, ply, pv_node, true);
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
    if (ply >= SEARCH_MAX_PLY - 2) return evaluate(t, p, ply);

    /* mate-distance pruning */
    int lo = -(SCORE_WIN - ply), hi = SCORE_WIN - ply - 1;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    if (alpha >= beta) return alpha;

    /* a singular-extension test searches this node without its table move (se_depth): the
       table neither cuts nor keeps it, and nothing prunes it */
    move_t se_excluded = t->se_excluded[ply];
    if (ply == 0) t->root_prev_done = false;
    struct tt_hit hit;
    move_t tt_move = MOVE_NONE;
    int tt_score = 0;
    bool tt_hit = tt_probe(&s->tt, p->key, &hit);
    if (tt_hit) {
        tt_move = tt_unpack_move(hit.move, p->v->size);
        tt_score = tt_score_from(hit.score, ply);
        if (!pv_node && !se_excluded && hit.depth >= depth &&
            (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && tt_score >= beta) ||
             (hit.bound == TT_UPPER && tt_score <= alpha)))
            return tt_score;
    }
    move_t win = threat_win_in_one(p);
    for (int k = 0; ply == 0 && win && k < t->nexcluded; k++)
        if (t->excluded[k] == win) win = MOVE_NONE; /* a later MultiPV line: search the rest */
    if (win) {
        t->pv[ply][0] = win;
        t->pv_len[ply] = 1;
        return SCORE_WIN - ply - 1;
    }
    bool threat = threat_against(p);
    const struct search_params *sp = &s->opt.params;

    /* a quiet node (not on the principal variation, no win threatened, no forced result in the
       window) may be pruned by its static evaluation, which is computed only for that (the
       table keeps it when known) */
    int static_eval = TT_EVAL_NONE, raw_eval = TT_EVAL_NONE;
    bool quiet_node =
        !pv_node && !threat && !se_excluded && beta > -SCORE_WIN_MIN && beta < SCORE_WIN_MIN;
    /* with the king on the edge (or a move from it), slow wins grow: exit forts, escapes, the
       king shut in against the edge; prune_guard keeps such nodes from the pruning below */
    bool guarded = false;
    if (quiet_node && sp->prune_guard) {
        bb_t edge = p->v->g.edge;
        guarded = bb_any(p->king & edge) ||
                  (sp->prune_guard == 2 && bb_any(movegen_king_targets(p) & edge));
    }
    bool try_null = s->opt.null_move && null_ok && quiet_node && depth >= 3 && pos_berserker(p) < 0;
    if (quiet_node && (try_null || depth <= sp->rfp_depth || depth <= sp->fut_depth)) {
        raw_eval = tt_hit && hit.eval != TT_EVAL_NONE ? hit.eval : evaluate(t, p, ply);
        /* the correction history moves it by the error the search found at similar nodes */
        static_eval = corr_on(sp) ? score_clamp_eval(raw_eval + corr_of(t, sp, p)) : raw_eval;
    }

    /* reverse futility: far enough above beta, a shallow search would not fall below it; but
       not in a game already decided (rfp_max: either side far ahead), where the forced end is
       to be found, not the evaluation, nor where a slow threat may lie (rfp_slow_threat) */
    if (quiet_node && !guarded && depth <= sp->rfp_depth &&
        (!sp->rfp_max || abs(static_eval) < sp->rfp_max) &&
        static_eval - sp->rfp_margin * depth - abs(static_eval) * sp->rfp_size / 100 >= beta &&
        !rfp_slow_threat(t, sp, p, ply, static_eval))
        return static_eval;

    /* null move: give the opponent a free move; if we still beat beta, cut */
    if (try_null && static_eval >= beta) {
        struct position null = *p;
        null.side = (uint8_t)!p->side;
        null.key ^= zobrist_side;
        /* the reduced search keeps at least one ply, so the opponent's wins in one (forts,
           encirclements) are seen after the pass */
        int r = 2 + depth / 4;
        if (r > depth - 2) r = depth - 2;
        t->keys[t->nkeys++] = null.key;
        t->steps[ply + 1].done = false;
        t->steps[ply + 1].pk = PIECE_NONE;
        t->steps[ply + 1].pos = &null;
        t->cont_keys[ply] = CONT_NONE;
        int sc = -search_node(t, &null, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
        t->nkeys--;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
        if (sc >= beta && sc < SCORE_WIN_MIN) return sc;
    }

    /* internal iterative reduction: a node the table knows nothing of is searched a ply less */
    if (sp->iir_depth && depth >= sp->iir_depth && !tt_move) depth--;

    move_t moves[MAX_MOVES];
    int scores[MAX_MOVES];
    struct picker mp; /* not zero-initialised: the tree is large and filled when built */
    /* the last move and the one before, for the continuation history (cont_hist) */
    int prev[2] = {CONT_NONE, CONT_NONE};
    if (sp->cont_hist) {
        if (ply >= 1) prev[0] = t->cont_keys[ply - 1];
        if (ply >= 2) prev[1] = t->cont_keys[ply - 2];
    }
    if (!picker_init(&mp, &t->hist, p, ply == 0 ? t->root_moves : NULL, t->nroot, moves, scores,
                     tt_move, depth <= sp->stage_depth, ply, prev))
        return p->v->no_moves == NO_MOVES_DRAW ? 0 : -(SCORE_WIN - ply);

    /* late-move pruning and futility skip quiet moves of a quiet node, once one move is searched */
    int lmp_moves = sp->lmp_base + depth * depth * sp->lmp_scale / 8;
    bool lmp = quiet_node && !guarded && depth <= sp->lmp_depth;
    bool futile = quiet_node && !guarded && depth <= sp->fut_depth &&
                  static_eval + sp->fut_margin * depth <= alpha;
    bb_t near_king = BB_EMPTY; /* squares at most two steps from the king (prune_filter) */
    bb_t fort_zone = BB_EMPTY; /* where a defender move may complete an exit fort (fort_filter) */
    if ((lmp || futile) && sp->prune_filter) {
        near_king = king_zone(p, 2);
        if (sp->fort_filter && p->side == SIDE_DEFENDERS && p->v->exit_fort && king_by_edge(p))
            fort_zone = near_king;
    }
    /* the gaps of the attackers' ring (ring_men), while few enough to matter (0 when not), and
       the squares where a move can close one: counted at the first move that asks (-1 until
       then; ring_gaps_lazy) */
    bb_t ring_squares = BB_EMPTY;
    int ring_gaps = p->side == SIDE_ATTACKERS && depth >= 3 ? -1 : 0;
    /* the squares where an attacker move takes one of the defenders' few moves (sq_mob): found
       at the first move that asks (-1 until then; squeezes) */
    bb_t squeeze_squares = BB_EMPTY;
    int squeeze = p->side == SIDE_ATTACKERS && sp->sq_mob ? -1 : 0;
    /* near the root, the squares where a defender move may start an exit fort: those within
       lmr_fort steps of a king on or beside the edge (lmr_fort_ply) */
    bb_t fort_start = BB_EMPTY;
    if (sp->lmr_fort && ply <= sp->lmr_fort_ply && p->side == SIDE_DEFENDERS && p->v->exit_fort &&
        king_by_edge(p)) {
        fort_start = p->king;
        for (int k = 0; k < sp->lmr_fort; k++) fort_start |= bb_neighbours(fort_start, &p->v->g);
    }
    move_t tried[MAX_MOVES]; /* quiet moves searched without a cutoff, for the history malus */
    int ntried = 0;

    int best = -SCORE_INF, orig_alpha = alpha, searched = 0;
    bool best_captures = false; /* the best move takes men: no lesson for the correction history */
    move_t best_move = MOVE_NONE, m;
    struct position child;
    int move_score;
    while ((m = picker_next(&mp, &move_score)) != MOVE_NONE) {
        if (ply == 0) {
            bool skip = false;
            for (int k = 0; k < t->nexcluded; k++) skip |= t->excluded[k] == m;
            if (skip) continue;
        }
        if (m == se_excluded) continue;
        /* singular extension: a table move that beats every other by a margin (a search of the
           rest at half depth stays below its stored score less se_margin a ply) is searched a
           ply deeper; if the rest beat beta too, the node is cut (several moves hold) */
        int ext = 0;
        if (sp->se_depth && m == tt_move && ply > 0 && !se_excluded && depth >= sp->se_depth &&
            ply < 2 * t->root_depth && (hit.bound == TT_LOWER || hit.bound == TT_EXACT) &&
            hit.depth >= depth - 3 && tt_score > -SCORE_WIN_MIN && tt_score < SCORE_WIN_MIN) {
            int se_beta = tt_score - sp->se_margin * depth;
            t->se_excluded[ply] = m;
            int sc = search_node(t, p, se_beta - 1, se_beta, (depth - 1) / 2, ply, false, false);
            t->se_excluded[ply] = MOVE_NONE;
            if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
            if (sc < se_beta)
                ext = 1;
            else if (!pv_node && se_beta >= beta)
                return se_beta;
        }
        /* a quiet move: no capture possible (it lands beside no enemy), not beside the king, not
           the king's, not the table move or a killer */
        bool king_area = move_from(m) == p->king_sq || bb_has(p->v->g.nbrs[p->king_sq], move_to(m));
        bool quiet_move = move_score < (1 << 18) && !king_area;
        bool prune = quiet_move && searched > 0 && best > -SCORE_WIN_MIN &&
                     (futile || (lmp && searched >= lmp_moves));
        /* with prune_filter, a move that cannot threaten a win next move is pruned unmade: a
           defender man off the king's lines opens no line for him, an attacker landing three or
           more squares from him sets up no capture (a ring closed far away is the exception:
           while the ring has few gaps, ring_men, every attacker move is made and tested; so is,
           with fort_filter, a defender move near a king on or beside the edge, which may
           complete an exit fort) */
        if (prune && sp->prune_filter &&
            (p->side == SIDE_DEFENDERS
                 ? !bb_has(p->v->g.lines[p->king_sq], move_from(m)) &&
                       !bb_has(fort_zone, move_to(m))
                 : !bb_has(near_king, move_to(m)) &&
                       !ring_gaps_lazy(sp, p, &ring_gaps, &ring_squares) &&
                       !(squeeze && squeezes(sp, p, &squeeze, &squeeze_squares, m))))
            continue;
        bb_t caught = make_move(&child, p, m);
        /* a pruned move must not threaten a win (a line opened for the king, a ring closing) nor
           fill a gap of the ring; it is made to see that, but not searched, so it is no node */
        if (prune && bb_is_empty(caught) && child.result == RESULT_NONE &&
            !threat_against(&child) && !ring_closes(sp, p, &ring_gaps, &ring_squares, &child, m) &&
            !(squeeze && squeezes(sp, p, &squeeze, &squeeze_squares, m)))
            continue;
        count_node(t);
        t->cont_keys[ply] = cont_key(p, m);
        if (s->opt.net) acc_push(t, p, m, caught, &child, ply);
        if (depth >= 2) tt_prefetch(&s->tt, child.key); /* the child will probe the table */
        t->keys[t->nkeys++] = child.key;
        int floor = t->rep_floor;
        if (bb_any(caught)) t->rep_floor = t->nkeys - 1; /* nothing before a capture can repeat */
        int score;
        if (child.result != RESULT_NONE) {
            score = -end_score(&child, ply + 1);
            t->pv_len[ply + 1] = 0;
        } else if (bb_is_empty(caught) && p->v->repetition != REP_NONE && is_repetition(t)) {
            score = -repetition_score(&child, ply + 1);
            t->pv_len[ply + 1] = 0;
        } else {
            int new_depth = depth - 1 + ext;
            if (searched == 0) {
                score = search_child(t, p, &child, alpha, beta, new_depth, ply + 1, pv_node);
            } else {
                int r = 0;
                /* late quiet moves are reduced, but never king moves or moves beside the king:
                   escapes, forts and captures of the king grow from those */
                if (s->opt.lmr && depth >= 3 && searched >= 4 && bb_is_empty(caught) && !threat &&
                    !king_area && move_score < (1 << 20)) {
                    if (sp->lmr_log)
                        r = lmr_reduction(depth, searched, sp->lmr_div) - pv_node;
                    else
                        r = 1 + (searched >= 12) + (depth >= 8);
                    /* a move that has often cut (its history) is reduced less, one that has
                       often failed more (lmr_hist) */
                    if (sp->lmr_hist) r -= picker_history(&mp, m) / sp->lmr_hist;
                    /* nor a root move of the side lmr_root_edge names while the king stands
                       on or beside the edge: a fort's first quiet move may lie far from him */
                    if (ply == 0 && sp->lmr_root_edge & (1 << p->side) && king_by_edge(p)) r = 0;
                    /* nor, near the root, a defender move that may start a fort (lmr_fort) */
                    if (bb_has(fort_start, move_to(m))) r = 0;
                }
                /* nor a move that threatens to win next move (it opens a king's escape line,
                   or sets up a capture of the king or a closing of the ring beside him) */
                if (r > 0 && threat_against(&child)) r = 0;
                /* nor, with few defenders left, an attacker move that closes a gap of the ring
                   that would shut them all in: encirclements take several quiet moves */
                if (r > 0 && ring_closes(sp, p, &ring_gaps, &ring_squares, &child, m)) r = 0;
                /* nor one that takes a move from defenders with few (sq_mob): a squeeze */
                if (r > 0 && squeeze && squeezes(sp, p, &squeeze, &squeeze_squares, m)) r = 0;
                if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
                if (r < 0) r = 0;
                score = search_child(t, p, &child, alpha, alpha + 1, new_depth - r, ply + 1, false);
                if (score > alpha && r > 0)
                    score = search_child(t, p, &child, alpha, alpha + 1, new_depth, ply + 1, false);
                if (score > alpha && score < beta)
                    score = search_child(t, p, &child, alpha, beta, new_depth, ply + 1, true);
            }
        }
        t->nkeys--;
        t->rep_floor = floor;
        searched++;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return 0;
        if (ply == 0 && m == t->best_move) t->root_prev_done = true;
        if (score > best) {
            best = score;
            best_move = m;
            best_captures = bb_any(caught);
            if (score > alpha) {
                alpha = score;
                if (ply == 0) t->root_score = score;
                t->pv[ply][0] = m;
                memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)t->pv_len[ply + 1] * sizeof(move_t));
                t->pv_len[ply] = t->pv_len[ply + 1] + 1;
                if (alpha >= beta) {
                    if (bb_is_empty(caught)) {
                        if (sp->hist_malus)
                            history_update_malus(&t->hist, p, m, tried, ntried, depth, ply, prev);
                        else
                            history_update(&t->hist, p, m, depth, ply);
                    }
                    break;
                }
            }
        }
        if (bb_is_empty(caught)) tried[ntried++] = m;
    }
    if (searched == 0) return alpha; /* every root move excluded, or the only move (se_depth) */
    if (se_excluded) return best;
    enum tt_bound bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    /* the correction history learns where the search's bound says the static evaluation was
       wrong: above it at a cutoff, below it where every move failed; not from a capture (the
       evaluation is not asked to see those) nor a decided score */
    if (static_eval != TT_EVAL_NONE && corr_on(sp) && !best_captures && best > -SCORE_WIN_MIN &&
        best < SCORE_WIN_MIN && !(bound == TT_LOWER && best <= static_eval) &&
        !(bound == TT_UPPER && best >= static_eval))
        corr_update(t, sp, p, best - static_eval, depth);
    tt_store_by(&s->tt, t->index, p->key, tt_pack_move(best_move, p->v->size),
                tt_score_to(best, ply), raw_eval, depth, bound);
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
        if (alpha <= -SCORE_INF && beta >= SCORE_INF) return score; /* no wider window */
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
    /* how settled the search is, for the soft deadline (tm_stable): best-move changes, each
       halved at every later iteration, in hundredths; the last iteration's move and score */
    int instability = 0, last_score = 0;
    move_t last_best = MOVE_NONE;
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
            if (atomic_load_explicit(&s->stop, memory_order_relaxed) && depth > 1) {
                /* partial_root: a move that beat the last iteration's best in the one cut short
                   (both searched in full) is the better move */
                if (s->opt.params.partial_root && multipv == 1 && t->root_prev_done &&
                    t->pv_len[0] > 0 && t->pv[0][0] != t->best_move) {
                    t->best_move = t->pv[0][0];
                    t->best_score = t->root_score;
                }
                break;
            }
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
        int64_t ms = tm_elapsed_ms(&s->tm);
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
        if (!s->limits.infinite && score_is_win(lines[0].score, &plies) && plies <= depth)
            break; /* a forced result was proved */
        int64_t soft = s->tm.soft_ms;
        if (s->opt.params.tm_stable && soft > 0) {
            instability /= 2;
            if (last_best != MOVE_NONE && lines[0].pv[0] != last_best) instability += 100;
            int drop = last_best != MOVE_NONE ? last_score - lines[0].score : 0;
            last_best = lines[0].pv[0];
            last_score = lines[0].score;
            soft = tm_soft_scaled(&s->tm, instability, drop);
        }
        if (!s->limits.infinite && soft > 0 && ms >= soft) break;
        if (t->nroot == 1 && !s->limits.infinite && (s->tm.soft_ms > 0 || s->tm.hard_ms > 0)) break;
    }
}

/* Does thread t's share of a job: its slice of the table and its own history, or a search. */
static void do_job(void *ctx, int job) {
    struct thread *t = ctx;
    struct search *s = t->s;
    if (job == JOB_CLEAR) {
        tt_clear_part(&s->tt, t->index, s->nthreads);
        history_clear(&t->hist);
        memset(t->corr_king, 0, sizeof t->corr_king);
        memset(t->corr_mat, 0, sizeof t->corr_mat);
    } else {
        iterate(t);
    }
}

/*
 * Runs a job on every thread, the caller being thread 0, and returns when all are done; after
 * its own search the caller raises the stop flag for the helpers.
 */
static void run_job(struct search *s, int job) {
    pool_begin(&s->pool, job);
    do_job(s->threads[0], job);
    if (job == JOB_SEARCH) atomic_store(&s->stop, true);
    pool_wait(&s->pool);
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
    o->params = search_default_params;
}

/* Allocates a zeroed search thread, aligned for the network's accumulators (NULL if no memory). */
static struct thread *thread_new(struct search *s, int index) {
    size_t size = (sizeof(struct thread) + 63) / 64 * 64;
    struct thread *t = aligned_alloc(64, size);
    if (!t) return NULL;
    memset(t, 0, size);
    t->s = s;
    t->index = index;
    return t;
}

/* Creates a search context with a table of hash_mib MiB (NULL if out of memory). */
struct search *search_new(size_t hash_mib) {
    struct search *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->threads[0] = thread_new(s, 0);
    if (!s->threads[0] || !tt_resize(&s->tt, hash_mib)) {
        free(s->threads[0]);
        free(s);
        return NULL;
    }
    s->nthreads = 1;
    pool_init(&s->pool, do_job);
    atomic_init(&s->stop, false);
    return s;
}

/* Makes the search use n threads in all (the caller's thread is thread 0). */
static void set_threads(struct search *s, int n) {
    if (n < 1) n = 1;
    if (n > SEARCH_MAX_THREADS) n = SEARCH_MAX_THREADS;
    if (n == s->nthreads) return;
    /* stop every helper, then start the wanted number */
    pool_stop_helpers(&s->pool);
    for (int i = 1; i < s->nthreads; i++) free(s->threads[i]);
    s->nthreads = 1;
    for (int i = 1; i < n; i++) {
        struct thread *t = thread_new(s, i);
        if (!t) break;
        if (!pool_add(&s->pool, t)) {
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
    pool_destroy(&s->pool);
    free(s->threads[0]);
    tt_free(&s->tt);
    free(s);
}

/* Resizes the transposition table; false if out of memory (the old table stays). */
bool search_set_hash(struct search *s, size_t mib, void (*ready)(void *ctx), void *ctx) {
    return tt_resize_then(&s->tt, mib, ready, ctx);
}

/* Clears the table and the move-ordering history (a new game); the threads share the work. */
void search_clear(struct search *s) {
    run_job(s, JOB_CLEAR);
}

/* Returns the static evaluation of p for its side to move with the evaluation of opt. */
int search_evaluate(const struct search_options *opt, const struct position *p) {
    int mop = mop_up(&opt->params, p);
    if (!opt->net || opt->net->size != p->v->size)
        return score_clamp_eval(eval_position(p, &opt->weights) + mop);
    struct nnue_acc acc;
    nnue_refresh(opt->net, p, &acc);
    return score_clamp_eval(nnue_evaluate(opt->net, &acc, nnue_head_of(opt->net, p)) + mop);
}

/* Asks a running search to stop as soon as it can (safe from any thread). */
void search_stop(struct search *s) {
    atomic_store(&s->stop, true);
}

/*
 * Searches the current position of game within the limits, blocking until done; reports through
 * cb and fills *out.
 */
void search_run(struct search *s, const struct tafl_game *game, const struct search_limits *limits,
                const struct search_options *opt, const struct search_callbacks *cb,
                struct search_result *out) {
    memset(out, 0, sizeof *out);
    set_threads(s, opt->threads);
    s->game = game;
    s->limits = *limits;
    s->opt = *opt;
    if (s->opt.multipv < 1) s->opt.multipv = 1;
    if (s->opt.multipv > SEARCH_MAX_MULTIPV) s->opt.multipv = SEARCH_MAX_MULTIPV;
    s->cb = cb;
    if (s->opt.net && s->opt.net->size != game->v->size) s->opt.net = NULL; /* never misread */
    atomic_store(&s->stop, false);
    tt_new_search(&s->tt);
    const struct position *root = tafl_pos(game);
    tm_start(&s->tm, limits, s->opt.move_overhead_ms, root->side);

    /* every thread gets the root moves and the game's keys since its last capture */
    move_t root_moves[MAX_MOVES];
    int nroot = tafl_legal_moves(game, root_moves);
    int first = game->n;
    while (first > 0 && bb_is_empty(game->captures[first - 1]) && game->n - first < MAX_GAME_PLIES)
        first--;
    for (int i = 0; i < s->nthreads; i++) {
        struct thread *t = s->threads[i];
        __atomic_store_n(&t->nodes, 0, __ATOMIC_RELAXED);
        t->last_check = 0;
        t->nroot = nroot;
        memcpy(t->root_moves, root_moves, (size_t)nroot * sizeof(move_t));
        t->nkeys = t->rep_floor = 0;
        for (int j = first; j <= game->n; j++) t->keys[t->nkeys++] = game->pos[j].key;
        if (s->opt.net) {
            nnue_refresh(s->opt.net, root, &t->acc[0]);
            nnue_reach_of(root, &t->steps[0].reach);
        }
        t->steps[0].done = true;
        t->best_move = nroot ? root_moves[0] : MOVE_NONE;
        t->best_score = 0;
        t->completed_depth = 0;
        history_clear_killers(&t->hist);
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
    out->time_ms = tm_elapsed_ms(&s->tm);
    if (cb && cb->on_bestmove) cb->on_bestmove(out->best, out->ponder, cb->ctx);
}
