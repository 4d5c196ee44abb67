/* The exact tafl solver: depth-limited AND-OR search with a table of proved bounds. */
#include "search/solver.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/rules.h"
#include "engine/threats.h"

enum {
    SOLVER_UNKNOWN_WIN = 0xff, /* entry.win when no win is proved */
    SOLVER_BUCKET = 4,         /* entries per bucket */
    SOLVER_HUGE_PAGE = 2 << 20,
};

/* One table entry: what is proved about a position for the solving side. */
struct solver_entry {
    uint64_t key;   /* Zobrist key ^ the solving side's salt; 0 = empty */
    move_t move;    /* the move that won (OR node) or refuted (AND node) */
    uint8_t win;    /* the fewest remaining plies proved to hold a win, or SOLVER_UNKNOWN_WIN */
    uint8_t nowin;  /* the most remaining plies proved to hold no win, or 0 */
    uint32_t spare; /* keeps an entry at 16 bytes */
};

struct solver {
    struct solver_entry *table;
    size_t buckets; /* a power of two */
    uint64_t nodes, max_nodes;
    bool aborted;
    int me;                                 /* the solving side */
    move_t killer[SOLVER_MAX_PLIES + 1][2]; /* by remaining plies */
    uint64_t salt[SIDE_NB];                 /* keeps the two solving sides' entries apart */
    struct variant rules;                   /* the rules the table's entries were proved under */
    bool have_rules;
};

/* Creates a solver with a table of about hash_mib MiB; NULL if out of memory. */
struct solver *solver_new(size_t hash_mib) {
    struct solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t bytes = hash_mib << 20, bucket = SOLVER_BUCKET * sizeof(struct solver_entry);
    s->buckets = 1;
    while (s->buckets * 2 * bucket <= bytes) s->buckets *= 2;
    /* tables of whole 2 MiB pages ask for huge pages: fewer page faults and TLB misses */
    size_t size = s->buckets * SOLVER_BUCKET * sizeof *s->table;
    bool huge = size % SOLVER_HUGE_PAGE == 0;
    s->table = aligned_alloc(huge ? SOLVER_HUGE_PAGE : 64, size);
    if (!s->table) {
        free(s);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    if (huge) madvise(s->table, size, MADV_HUGEPAGE);
#endif
    memset(s->table, 0, size);
    s->salt[SIDE_ATTACKERS] = 0x6a09e667f3bcc909ULL;
    s->salt[SIDE_DEFENDERS] = 0xbb67ae8584caa73bULL;
    return s;
}

/* Frees a solver. */
void solver_free(struct solver *s) {
    if (!s) return;
    free(s->table);
    free(s);
}

/* Empties the table and the killer moves. */
void solver_clear(struct solver *s) {
    memset(s->table, 0, s->buckets * SOLVER_BUCKET * sizeof *s->table);
    memset(s->killer, 0, sizeof s->killer);
    s->have_rules = false;
}

/* Starts a solve of p: resets the counters, and empties the table if the rules changed (keys do
   not depend on the variant, results do). */
static void solve_begin(struct solver *s, const struct position *p, uint64_t max_nodes) {
    if (s->have_rules && memcmp(&s->rules, p->v, sizeof s->rules) != 0) solver_clear(s);
    s->rules = *p->v;
    s->have_rules = true;
    s->nodes = 0;
    s->max_nodes = max_nodes;
    s->aborted = false;
    s->me = p->side;
}

/* Returns the entry of key (the salted key), or NULL. */
static struct solver_entry *tt_find(struct solver *s, uint64_t key) {
    struct solver_entry *b = &s->table[(key & (s->buckets - 1)) * SOLVER_BUCKET];
    for (int i = 0; i < SOLVER_BUCKET; i++)
        if (b[i].key == key && key) return &b[i]; /* key 0 marks an empty entry */
    return NULL;
}

/* Returns how much an entry is worth keeping: the deepest fact it holds. */
static int tt_worth(const struct solver_entry *e) {
    int w = e->win == SOLVER_UNKNOWN_WIN ? 0 : e->win;
    return w > e->nowin ? w : e->nowin;
}

/* Records that the position of key wins (win) or does not win within r plies, with its move. */
static void tt_store(struct solver *s, uint64_t key, int r, bool win, move_t m) {
    struct solver_entry *b = &s->table[(key & (s->buckets - 1)) * SOLVER_BUCKET];
    struct solver_entry *e = NULL;
    for (int i = 0; i < SOLVER_BUCKET && !e; i++)
        if (b[i].key == key) e = &b[i];
    if (!e) {
        e = &b[0];
        for (int i = 1; i < SOLVER_BUCKET; i++)
            if (tt_worth(&b[i]) < tt_worth(e)) e = &b[i];
        *e = (struct solver_entry){.key = key, .win = SOLVER_UNKNOWN_WIN};
    }
    if (win && r < e->win) e->win = (uint8_t)r;
    if (!win && r > e->nowin) e->nowin = (uint8_t)r;
    if (m != MOVE_NONE) e->move = m;
}

/* Returns the result that side s wins with. */
static int result_of(int s) {
    return s == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS;
}

/* Tells whether the side to move has a legal move (repetition ignored). */
bool solver_has_move(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
    /* a man or the king next to a square he may stop on can move there */
    if (bb_any(bb_neighbours(men, g) & empty & ~v->men_forbidden)) return true;
    if (p->side == SIDE_DEFENDERS && bb_any(g->nbrs[p->king_sq] & empty & ~v->king_forbidden))
        return true;
    return movegen_count(p) > 0;
}

/*
 * Tells whether the side not to move keeps a legal move whatever move is made now. A move fills
 * one square and captures only men beside it or, by a shieldwall, men on the edge; the king is
 * never removed without the game ending. So two free squares beside the king, or five men off
 * the edge each with a free square beside him, always leave a move.
 */
static bool other_side_keeps_a_move(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int o = !p->side;
    bb_t empty = g->board & ~pos_occupied(p);
    if (o == SIDE_DEFENDERS && bb_several(g->nbrs[p->king_sq] & empty & ~v->king_forbidden))
        return true;
    bb_t men = (o == SIDE_ATTACKERS ? p->att : p->def) & ~g->edge;
    return bb_popcount(men & bb_neighbours(empty & ~v->men_forbidden, g)) >= 5;
}

/* Makes m and counts the node. */
static inline void make(uint64_t *nodes, struct position *dst, const struct position *src,
                        move_t m) {
    make_move(dst, src, m);
    ++*nodes;
}

/* Tells whether the move m just made (giving c) wins at once for the side that made it. */
static bool wins_at_once(const struct position *c, int mover) {
    if (c->result == result_of(mover)) return true;
    return c->result == RESULT_NONE && c->v->no_moves == NO_MOVES_LOSS && !solver_has_move(c);
}

/* Tries every legal move; returns the first that wins at once, or MOVE_NONE. */
static move_t try_all(uint64_t *nodes, const struct position *p) {
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    struct position c;
    for (int i = 0; i < n; i++) {
        make(nodes, &c, p, moves[i]);
        if (wins_at_once(&c, p->side)) return moves[i];
    }
    return MOVE_NONE;
}

/*
 * Tries the moves of the king (king) or of the men of the side to move that land on a square of
 * targets; returns the first that wins at once, or MOVE_NONE.
 */
static move_t try_onto(uint64_t *nodes, const struct position *p, bb_t targets, bool king) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t occ = pos_occupied(p);
    bb_t pieces = king ? p->king : p->side == SIDE_ATTACKERS ? p->att : p->def;
    bb_t stop = occ | (king ? v->king_block : v->men_block);
    targets &= g->board & ~occ & ~(king ? v->king_forbidden : v->men_forbidden);
    struct position c;
    while (bb_any(targets)) {
        int to = bb_pop(&targets);
        /* the first piece or blocking square from `to` in each direction can slide to `to` */
        for (int d = 0; d < DIR_NB; d++) {
            bb_t first = g->ray[d][to] & stop;
            if (bb_is_empty(first)) continue;
            int from = d == DIR_NORTH || d == DIR_EAST ? bb_lsb(first) : bb_msb(first);
            if (!bb_has(pieces, from)) continue;
            move_t m = move_make(from, to);
            make(nodes, &c, p, m);
            if (wins_at_once(&c, p->side)) return m;
        }
    }
    return MOVE_NONE;
}

/*
 * Returns the squares of one shortest path (orthogonal steps through pass) from the square from
 * to the nearest square of goal, both ends included; 0 if goal cannot be reached.
 */
static bb_t shortest_path(const struct bb_geom *g, int from, bb_t pass, bb_t goal) {
    bb_t layer[BB_MAX_SQUARES];
    int k = 0;
    layer[0] = bb_sq(from);
    bb_t seen = layer[0];
    while (bb_is_empty(layer[k] & goal)) {
        bb_t next = bb_neighbours(layer[k], g) & pass & ~seen;
        if (bb_is_empty(next)) return BB_EMPTY;
        seen |= next;
        layer[++k] = next;
    }
    /* walk back from one goal square through the layers */
    int sq = bb_lsb(layer[k] & goal);
    bb_t path = bb_sq(sq);
    for (int j = k - 1; j >= 0; j--) {
        sq = bb_lsb(layer[j] & g->nbrs[sq]);
        path |= bb_sq(sq);
    }
    return path;
}

/* The attackers' wins in one other than by capturing the king beside him. */
static move_t attackers_other_win(uint64_t *nodes, const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (v->immobile_king) return try_all(nodes, p); /* the closing move need not touch the group */
    if (!v->encirclement || bb_has(g->edge, p->king_sq)) return MOVE_NONE;
    /* every ring cuts every path from the king (who stays) to the edge through the squares
       without an attacker; a move off one such path leaves it open (emptying `from` or
       capturing defenders opens, never closes) */
    bb_t path = shortest_path(g, p->king_sq, g->board & ~p->att, g->edge);
    if (bb_is_empty(path))
        return try_all(nodes, p); /* already closed (a loaded position): any move may keep it */
    return try_onto(nodes, p, path, false);
}

/* The defenders' wins in one by an exit fort. */
static move_t defenders_fort_win(uint64_t *nodes, const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    /* a fort needs the king on the edge after the move */
    move_t m = try_onto(nodes, p, g->edge, true);
    if (m || !bb_has(g->edge, p->king_sq)) return m;
    /* a man's move makes a fort only if it cuts the path from the king to the nearest attacker
       through the squares without a defender man, or captures that attacker */
    bb_t pass = g->board & ~p->def;
    bb_t path = shortest_path(g, p->king_sq, pass, p->att);
    if (bb_is_empty(path)) return try_all(nodes, p);
    int a = bb_lsb(path & p->att);
    return try_onto(nodes, p, path | g->nbrs[a], false);
}

/*
 * The wins in one that leave the other side without a legal move. Every piece q of that side with
 * a free square beside it keeps a move unless the move lands there (q's only free square) or
 * captures q, so the move must land beside q (or on the edge, for a shieldwall capture of an edge
 * man); the king is never removed, so with one free square beside him the move must land there,
 * and with two there is no such win.
 */
static move_t stuck_win(uint64_t *nodes, const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (v->no_moves != NO_MOVES_LOSS || other_side_keeps_a_move(p)) return MOVE_NONE;
    int o = !p->side;
    bb_t empty = g->board & ~pos_occupied(p), cand = g->board;
    bool any = false;
    if (o == SIDE_DEFENDERS) {
        bb_t kt = g->nbrs[p->king_sq] & empty & ~v->king_forbidden;
        if (bb_several(kt)) return MOVE_NONE;
        if (bb_any(kt)) cand = kt, any = true;
    }
    bb_t q = (o == SIDE_ATTACKERS ? p->att : p->def) & bb_neighbours(empty & ~v->men_forbidden, g);
    bb_t wall = v->shieldwall ? g->edge : BB_EMPTY;
    while (bb_any(q) && bb_any(cand)) {
        int sq = bb_pop(&q);
        cand &= g->nbrs[sq] | (bb_has(g->edge, sq) ? wall : BB_EMPTY);
        any = true;
    }
    if (!any) return try_all(nodes, p); /* moves over the throne only: no shortcut */
    move_t m = try_onto(nodes, p, cand, false);
    if (!m && p->side == SIDE_DEFENDERS) m = try_onto(nodes, p, cand, true);
    return m;
}

/* The exact win in one of the side to move, counting the trial moves as nodes. */
static move_t win_in_one(uint64_t *nodes, const struct position *p) {
    const struct variant *v = p->v;
    move_t m;
    if (p->side == SIDE_DEFENDERS) {
        if ((m = threat_escape_in_one(p)) != MOVE_NONE) return m;
        if (v->exit_fort && (m = defenders_fort_win(nodes, p)) != MOVE_NONE) return m;
        return stuck_win(nodes, p);
    }
    if ((m = threat_king_capture_in_one(p)) != MOVE_NONE) return m;
    if ((m = attackers_other_win(nodes, p)) != MOVE_NONE) return m;
    return stuck_win(nodes, p);
}

/* Returns a move of the side to move that wins at once, or MOVE_NONE (exact). */
move_t solver_win_in_one(const struct position *p) {
    uint64_t nodes = 0;
    return win_in_one(&nodes, p);
}

/*
 * The moves of a node in the order they are tried: first the table move and the killers, each
 * checked for legality and tried before anything is listed (most nodes end there), then the
 * listed moves, the best few by a cheap score (near the king, king moves), the rest as listed.
 */
struct picker {
    move_t first[3]; /* the table move and the killers, legal and distinct */
    int nfirst, stage;
    bool listed;
    move_t moves[MAX_MOVES];
    int score[MAX_MOVES];
    int n, next;
};

enum { PICK_SORTED = 8 }; /* how many listed moves are handed out by score */

/* Starts loading the table bucket of the position after m (its key as if m captured nothing). */
static inline void prefetch_child(const struct solver *s, const struct position *p, move_t m) {
    int from = move_from(m), to = move_to(m);
    enum piece kind = p->side == SIDE_ATTACKERS ? PIECE_ATTACKER
                      : from == p->king_sq      ? PIECE_KING
                                                : PIECE_DEFENDER;
    uint64_t key = p->key ^ zobrist_piece[kind][from] ^ zobrist_piece[kind][to] ^ zobrist_side ^
                   s->salt[s->me];
    __builtin_prefetch(&s->table[(key & (s->buckets - 1)) * SOLVER_BUCKET]);
}

/* Starts the moves of p: the table move and the killers of r that are legal there. */
static void picker_init(struct picker *pk, const struct solver *s, const struct position *p,
                        move_t tt_move, int r) {
    const move_t cand[3] = {tt_move, s->killer[r][0], s->killer[r][1]};
    pk->nfirst = pk->stage = pk->n = pk->next = 0;
    pk->listed = false;
    for (int i = 0; i < 3; i++) {
        move_t m = cand[i];
        bool seen = m == MOVE_NONE;
        for (int j = 0; j < pk->nfirst && !seen; j++) seen = pk->first[j] == m;
        if (!seen && movegen_is_legal(p, m)) {
            pk->first[pk->nfirst++] = m;
            prefetch_child(s, p, m);
        }
    }
}

/* Lists and scores the moves of p (the second stage), and prefetches their children's buckets. */
static void picker_list(struct picker *pk, const struct solver *s, const struct position *p) {
    const struct bb_geom *g = &p->v->g;
    pk->n = movegen_list(p, pk->moves);
    pk->next = 0;
    pk->listed = true;
    int kf = p->king_sq % g->size, kr = p->king_sq / g->size;
    for (int i = 0; i < pk->n; i++) {
        move_t m = pk->moves[i];
        int to = move_to(m), df = to % g->size - kf, dr = to / g->size - kr;
        int sc = -(abs(df) + abs(dr));
        if (move_from(m) == p->king_sq) sc += 8;
        prefetch_child(s, p, m);
        for (int j = 0; j < pk->nfirst; j++)
            if (m == pk->first[j]) sc = -1000; /* tried already: skipped */
        pk->score[i] = sc;
    }
}

/* Returns the next move of the first stage, or MOVE_NONE when it is over. */
static move_t picker_first(struct picker *pk) {
    return pk->stage < pk->nfirst ? pk->first[pk->stage++] : MOVE_NONE;
}

/* Returns the next listed move not tried yet, or MOVE_NONE at the end. */
static move_t picker_next(struct picker *pk) {
    while (pk->next < pk->n) {
        int best = pk->next;
        if (pk->next < PICK_SORTED)
            for (int i = pk->next + 1; i < pk->n; i++)
                if (pk->score[i] > pk->score[best]) best = i;
        move_t m = pk->moves[best];
        int sc = pk->score[best];
        pk->moves[best] = pk->moves[pk->next];
        pk->score[best] = pk->score[pk->next];
        pk->moves[pk->next] = m;
        pk->score[pk->next] = sc;
        pk->next++;
        if (sc != -1000) return m;
    }
    return MOVE_NONE;
}

/* Returns the next move of either stage (listing the moves when the first is over). */
static move_t picker_get(struct picker *pk, const struct solver *s, const struct position *p) {
    move_t m = picker_first(pk);
    if (m != MOVE_NONE) return m;
    if (!pk->listed) picker_list(pk, s, p);
    return picker_next(pk);
}

/* Remembers m as a killer of remaining depth r. */
static void add_killer(struct solver *s, int r, move_t m) {
    if (s->killer[r][0] == m) return;
    s->killer[r][1] = s->killer[r][0];
    s->killer[r][0] = m;
}

static bool and_node(struct solver *s, const struct position *p, int r);

/* Tells whether the solving side's move m from p wins within r plies (the child is an AND
   node; wins at once were found before). */
static bool or_try(struct solver *s, const struct position *p, move_t m, int r) {
    struct position c;
    make(&s->nodes, &c, p, m);
    if (c.result != RESULT_NONE) return c.result == result_of(s->me);
    return and_node(s, &c, r - 1);
}

/* OR node: the solving side to move; tells whether it wins within r plies (r odd). */
static bool or_node(struct solver *s, const struct position *p, int r) {
    if (s->max_nodes && s->nodes >= s->max_nodes) s->aborted = true;
    if (s->aborted) return false;
    if (r < 3) return win_in_one(&s->nodes, p) != MOVE_NONE;
    uint64_t key = p->key ^ s->salt[s->me];
    struct solver_entry *e = tt_find(s, key);
    move_t tt_move = MOVE_NONE;
    if (e) {
        if (e->win <= r) return true;
        if (e->nowin >= r) return false;
        tt_move = e->move;
    }
    if (win_in_one(&s->nodes, p) != MOVE_NONE) return true;
    struct picker pk;
    picker_init(&pk, s, p, tt_move, r);
    for (move_t m; (m = picker_get(&pk, s, p)) != MOVE_NONE;) {
        bool win = or_try(s, p, m, r);
        if (s->aborted) return false;
        if (win) {
            tt_store(s, key, r, true, m);
            add_killer(s, r, m);
            return true;
        }
    }
    tt_store(s, key, r, false, MOVE_NONE);
    return false;
}

/* Tells whether the other side's reply m from p refutes: the solving side then has no win
   within r - 1 plies. */
static bool and_try(struct solver *s, const struct position *p, move_t m, int r) {
    struct position c;
    make(&s->nodes, &c, p, m);
    if (c.result != RESULT_NONE) return c.result != result_of(s->me);
    return !or_node(s, &c, r - 1);
}

/* AND node: the other side to move; tells whether the solving side wins within r plies (r even). */
static bool and_node(struct solver *s, const struct position *p, int r) {
    if (s->aborted) return false;
    uint64_t key = p->key ^ s->salt[s->me];
    struct solver_entry *e = tt_find(s, key);
    move_t tt_move = MOVE_NONE;
    if (e) {
        if (e->win <= r) return true;
        if (e->nowin >= r) return false;
        tt_move = e->move;
    }
    struct picker pk;
    picker_init(&pk, s, p, tt_move, r);
    /* the replies that refuted before */
    for (move_t m; (m = picker_first(&pk)) != MOVE_NONE;) {
        bool refuted = and_try(s, p, m, r);
        if (s->aborted) return false;
        if (refuted) {
            tt_store(s, key, r, false, m);
            add_killer(s, r, m);
            return false;
        }
    }
    /* the other side's own win in one refutes everything */
    move_t w = win_in_one(&s->nodes, p);
    if (w != MOVE_NONE) {
        tt_store(s, key, r, false, w);
        return false;
    }
    picker_list(&pk, s, p);
    if (pk.n == 0) return p->v->no_moves == NO_MOVES_LOSS;
    for (move_t m; (m = picker_next(&pk)) != MOVE_NONE;) {
        bool refuted = and_try(s, p, m, r);
        if (s->aborted) return false;
        if (refuted) {
            tt_store(s, key, r, false, m);
            add_killer(s, r, m);
            return false;
        }
    }
    tt_store(s, key, r, true, MOVE_NONE);
    return true;
}

/* Tells whether the solving side, to move in p, wins within r plies (r odd; no limit hit). */
static bool wins_within(struct solver *s, const struct position *p, int r) {
    return or_node(s, p, r) && !s->aborted;
}

/* Returns the smallest odd d <= r in which the side to move in p wins, or 0 (no limit hit). */
static int fastest_win(struct solver *s, const struct position *p, int r) {
    for (int d = 1; d <= r; d += 2)
        if (wins_within(s, p, d)) return d;
    return 0;
}

/* Tells whether the move m from p (giving c) wins in at most d plies for the side to move. */
static bool move_wins(struct solver *s, const struct position *c, int mover, int d) {
    if (wins_at_once(c, mover)) return true;
    return d >= 3 && c->result == RESULT_NONE && and_node(s, c, d - 1) && !s->aborted;
}

/* Follows the principal line of a win in d plies from p; fills the line and the kind. */
static void principal_line(struct solver *s, const struct position *p, int d,
                           struct solve_result *out) {
    struct position cur = *p;
    out->line_len = 0;
    out->kind = END_NONE;
    while (d >= 1 && out->line_len < SOLVER_MAX_PLIES) {
        move_t moves[MAX_MOVES];
        int n = movegen_list(&cur, moves);
        struct position c;
        int i = 0;
        for (; i < n; i++) {
            make(&s->nodes, &c, &cur, moves[i]);
            if (move_wins(s, &c, cur.side, d)) break;
        }
        if (i == n || s->aborted) return; /* cannot happen for a proved win */
        out->line[out->line_len++] = moves[i];
        if (wins_at_once(&c, cur.side)) {
            out->kind = c.result != RESULT_NONE ? c.reason : END_NO_MOVES;
            return;
        }
        /* the loser's reply that holds out longest */
        int replies = movegen_list(&c, moves), best_d = 0;
        move_t best = MOVE_NONE;
        struct position cc, best_pos = c;
        for (int j = 0; j < replies; j++) {
            make(&s->nodes, &cc, &c, moves[j]);
            if (cc.result != RESULT_NONE) continue;
            int dd = fastest_win(s, &cc, d - 2);
            if (dd > best_d) {
                best_d = dd;
                best = moves[j];
                best_pos = cc;
            }
        }
        if (best == MOVE_NONE || out->line_len >= SOLVER_MAX_PLIES) return;
        out->line[out->line_len++] = best;
        cur = best_pos;
        d = best_d;
    }
}

/* Solves p within lim (see solver.h). */
void solver_solve(struct solver *s, const struct position *p, const struct solve_limits *lim,
                  struct solve_result *out) {
    memset(out, 0, offsetof(struct solve_result, moves));
    out->proved = -1;
    out->kind = END_NONE;
    out->line_len = 0;
    solve_begin(s, p, lim->max_nodes);
    int maxd = lim->plies < 1 ? 1 : lim->plies > SOLVER_MAX_PLIES ? SOLVER_MAX_PLIES : lim->plies;
    if (p->result != RESULT_NONE) {
        out->game_over = true;
        out->status = SOLVE_NO_WIN;
        return;
    }
    int d = 1;
    for (; d <= maxd; d += 2) {
        if (wins_within(s, p, d)) break;
        if (s->aborted) {
            out->status = SOLVE_UNKNOWN;
            out->nodes = s->nodes;
            return;
        }
        out->proved = d;
    }
    if (d > maxd) {
        out->status = SOLVE_NO_WIN;
        out->nodes = s->nodes;
        return;
    }
    /* every first move that wins this fast */
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    struct position c;
    for (int i = 0; i < n && !s->aborted; i++) {
        make(&s->nodes, &c, p, moves[i]);
        if (move_wins(s, &c, p->side, d)) out->moves[out->nmoves++] = moves[i];
    }
    if (lim->want_line && !s->aborted) principal_line(s, p, d, out);
    out->status = s->aborted ? SOLVE_UNKNOWN : SOLVE_WIN;
    out->plies = d;
    out->nodes = s->nodes;
}

/* Tells whether the side to move forces a win within plies (see solver.h). */
enum solve_status solver_wins_within(struct solver *s, const struct position *p, int plies,
                                     uint64_t max_nodes, uint64_t *nodes) {
    solve_begin(s, p, max_nodes);
    if (plies > SOLVER_MAX_PLIES) plies = SOLVER_MAX_PLIES;
    bool win = p->result == RESULT_NONE && plies >= 1 && wins_within(s, p, plies - !(plies & 1));
    if (nodes) *nodes = s->nodes;
    return s->aborted ? SOLVE_UNKNOWN : win ? SOLVE_WIN : SOLVE_NO_WIN;
}

/* Returns the record word of an end reason ("escape", "king_captured", ...). */
const char *solver_kind_name(int kind) {
    static const char *const names[] = {"none",      "escape",    "king_captured", "immobile_king",
                                        "encircled", "exit_fort", "repetition",    "no_moves"};
    return kind >= 0 && kind < (int)(sizeof names / sizeof *names) ? names[kind] : "unknown";
}
