/*
 * Checks the engine's fast paths against slow, obviously correct versions on random games of
 * every built-in variant and of variants altered to use the remaining rule options (a throne
 * that blocks slides, custodial king capture, edge escape with the immobile-king rule, ...): the
 * ray tables and single-piece slides (bb_slides, movegen_targets), the many-piece slides
 * (movegen_slide_set), and the sorting of the squares beside the king (rules_king_spots), which the
 * search trusts instead of making each attacker move; also movegen_is_legal against the generated
 * list, and the evaluation against its plain formula with many-piece slides throughout.
 *
 * Games are biased towards attacker moves beside the king and beside defenders, so that king
 * captures, encirclements and immobile kings come up; the test checks that each kind of square was
 * seen. Set HNEFI_QUICK for a reduced run (sanitizer builds).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/threats.h"
#include "engine/variant.h"
#include "engine/variant_text.h"
#include "search/eval.h"

enum { FP_MAX_PLIES = 250 };

/* What the king-spot and encirclement checks saw, over all positions. */
struct fp_stats {
    long positions, spots, captures, maybe, won_maybe, silent;
    long rings, ring_wins; /* ring positions checked, and those with an encirclement in one */
};

/* Advances the splitmix64 state and returns the next pseudo-random number. */
static uint64_t fp_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Walks from sq in direction d through pro; returns the squares passed plus the first stop. */
static bb_t walk(const struct bb_geom *g, int sq, int d, bb_t pro) {
    bb_t t = BB_EMPTY;
    for (int s = g->nb[sq][d]; s >= 0; s = g->nb[s][d]) {
        t |= bb_sq(s);
        if (!bb_has(pro, s)) break;
    }
    return t;
}

/* Checks every ray of a board size against a walk over the neighbour table. */
static void check_rays(int size) {
    struct bb_geom g;
    bb_geom_init(&g, size);
    for (int sq = 0; sq < g.squares; sq++) {
        bb_t lines = BB_EMPTY;
        for (int d = 0; d < DIR_NB; d++) {
            bb_t r = walk(&g, sq, d, g.board);
            CHECK(bb_eq(g.ray[d][sq], r));
            lines |= r;
        }
        CHECK(bb_eq(g.lines[sq], lines));
        CHECK(bb_eq(g.nbrs[sq], bb_neighbours(bb_sq(sq), &g)));
    }
    CHECK(
        bb_eq(g.beside_corners, bb_neighbours(bb_sq(0) | bb_sq(size - 1) |
                                                  bb_sq(size * (size - 1)) | bb_sq(size * size - 1),
                                              &g)));
}

/* Checks movegen_targets, bb_slides and movegen_slide_set in p against walks. */
static void check_slides(const struct position *p, uint64_t *rng) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    bb_t all = pos_occupied(p), gen = BB_EMPTY, pro = empty & ~v->men_block, union_walks = BB_EMPTY;
    uint64_t pick = fp_rand(rng);
    for (int sq = 0; sq < g->squares; sq++) {
        if (!bb_has(all, sq)) continue;
        bool king = sq == p->king_sq;
        bb_t block = king ? v->king_block : v->men_block;
        bb_t forbidden = king ? v->king_forbidden : v->men_forbidden;
        bb_t walks = BB_EMPTY;
        for (int d = 0; d < DIR_NB; d++) walks |= walk(g, sq, d, empty & ~block);
        CHECK(bb_eq(bb_slides(g, sq, empty & ~block), walks));
        CHECK(bb_eq(movegen_targets(p, sq), walks & empty & ~forbidden));
        /* a random group of pieces for the many-piece slide */
        if ((pick >> (sq % 64)) & 1) {
            gen |= bb_sq(sq);
            for (int d = 0; d < DIR_NB; d++) union_walks |= walk(g, sq, d, pro);
        }
    }
    bb_t land = empty & ~v->men_forbidden;
    CHECK(bb_eq(movegen_slide_set(g, gen, pro, land), union_walks & land));
}

/* Checks movegen_is_legal in p against the generated list, on every listed move and random pairs.
 */
static void check_legality(const struct position *p, uint64_t *rng) {
    static uint8_t listed[128][128];
    memset(listed, 0, sizeof listed);
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        listed[move_from(moves[i])][move_to(moves[i])] = 1;
        CHECK(movegen_is_legal(p, moves[i]));
    }
    bb_t own = pos_side_pieces(p, p->side);
    for (int k = 0; k < 300; k++) {
        uint64_t r = fp_rand(rng);
        /* half the pairs start on an own piece, so that most reach the line test */
        int from = (int)(r % 128), to = (int)((r >> 8) % 128);
        if (k % 2 && bb_any(own)) {
            int skip = (int)((r >> 16) % (uint64_t)bb_popcount(own));
            bb_t o = own;
            while (skip--) bb_pop(&o);
            from = bb_lsb(o);
        }
        if (!check_record(movegen_is_legal(p, move_make(from, to)) == listed[from][to], __FILE__,
                          __LINE__, "movegen_is_legal agrees with movegen_list"))
            return;
    }
}

/* Checks rules_king_spots in p (attackers to move) by making every attacker move beside the king.
 */
static void check_king_spots(const struct position *p, struct fp_stats *st) {
    bb_t captures, maybe = rules_king_spots(p, &captures);
    CHECK(bb_is_empty(captures & maybe));
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    bb_t won = BB_EMPTY, reached = BB_EMPTY;
    for (int i = 0; i < n; i++) {
        int to = move_to(moves[i]);
        if (!bb_has(p->v->g.nbrs[p->king_sq], to)) continue;
        struct position after;
        make_move(&after, p, moves[i]);
        reached |= bb_sq(to);
        bool win = after.result == RESULT_ATTACKERS;
        if (bb_has(captures, to)) CHECK(win && after.reason == END_KING_CAPTURED);
        if (win) {
            won |= bb_sq(to);
            if (!check_record(bb_has(captures | maybe, to), __FILE__, __LINE__,
                              "a winning square is neither a capture nor a maybe"))
                return;
            if (bb_has(maybe, to)) st->won_maybe++;
        }
    }
    /* every square reached is sorted; squares nobody reaches may be in any set */
    st->spots += bb_popcount(reached);
    st->captures += bb_popcount(reached & captures);
    st->maybe += bb_popcount(reached & maybe);
    st->silent += bb_popcount(reached & ~(captures | maybe) & ~won);
}

/* Checks threat_encircle_in_one in p (attackers to move) against making every attacker move:
   a move it finds wins, and where a move encircles without capturing, it finds one. */
static void check_encircle(const struct position *p, struct fp_stats *st) {
    move_t found = threat_encircle_in_one(p), moves[MAX_MOVES];
    bool exists = false;
    int n = movegen_list(p, moves);
    for (int i = 0; i < n && !exists; i++) {
        struct position after;
        bb_t caught = make_move(&after, p, moves[i]);
        exists = bb_is_empty(caught) && after.result == RESULT_ATTACKERS &&
                 after.reason == END_ENCIRCLED;
    }
    if (found) {
        struct position after;
        make_move(&after, p, found);
        CHECK(after.result == RESULT_ATTACKERS);
    }
    if (!check_record(!exists || found, __FILE__, __LINE__, "an encirclement in one is missed")) {
        char fen[FEN_MAX];
        fen_write(p, fen);
        fprintf(stderr, "    %s %s\n", p->v->name, fen);
    }
    st->rings++;
    st->ring_wins += exists;
}

/* Builds positions of a ring of attackers around defenders, with gaps and loose attackers, and
   checks the encirclement test in each. */
static void check_rings(const struct variant *v, int count, uint64_t seed, struct fp_stats *st) {
    int n = v->size;
    uint64_t rng = seed;
    for (int i = 0; i < count; i++) {
        struct position p = {0};
        p.v = v;
        p.side = SIDE_ATTACKERS;
        int r0 = 2 + (int)(fp_rand(&rng) % (uint64_t)(n - 5)),
            c0 = 2 + (int)(fp_rand(&rng) % (uint64_t)(n - 5));
        int r1 = r0 + (int)(fp_rand(&rng) % (uint64_t)(n - 2 - r0)),
            c1 = c0 + (int)(fp_rand(&rng) % (uint64_t)(n - 2 - c0));
        bool cut = fp_rand(&rng) % 2; /* leave the ring's corners out: a diagonal closes too */
        for (int r = r0 - 1; r <= r1 + 1; r++)
            for (int c = c0 - 1; c <= c1 + 1; c++) {
                bool border = r == r0 - 1 || r == r1 + 1 || c == c0 - 1 || c == c1 + 1;
                bool corner = (r == r0 - 1 || r == r1 + 1) && (c == c0 - 1 || c == c1 + 1);
                if (border && !(cut && corner)) p.att |= bb_sq(r * n + c);
            }
        for (int gaps = (int)(fp_rand(&rng) % 3); gaps > 0; gaps--) {
            bb_t a = p.att;
            for (int k = (int)(fp_rand(&rng) % (uint64_t)bb_popcount(a)); k > 0; k--)
                a = bb_without_lowest(a);
            p.att &= ~bb_sq(bb_lsb(a));
        }
        for (int r = r0; r <= r1; r++)
            for (int c = c0; c <= c1; c++)
                if (fp_rand(&rng) % 3 == 0) p.def |= bb_sq(r * n + c);
        int k = (r0 + (int)(fp_rand(&rng) % (uint64_t)(r1 - r0 + 1))) * n + c0 +
                (int)(fp_rand(&rng) % (uint64_t)(c1 - c0 + 1));
        p.def &= ~bb_sq(k);
        p.king = bb_sq(k);
        p.king_sq = (int8_t)k;
        for (int extra = 2 + (int)(fp_rand(&rng) % 5); extra > 0; extra--)
            p.att |= bb_sq((int)(fp_rand(&rng) % (uint64_t)(n * n)));
        p.att &= ~(p.def | p.king | v->men_forbidden);
        p.def &= ~v->men_forbidden;
        p.key = pos_compute_key(&p);
        rules_decide_loaded(&p);
        if (p.result == RESULT_NONE) check_encircle(&p, st);
    }
}

/* The corner terms written plainly: square by square, the king's region by a search. */
static int plain_corner_terms(const struct position *p, const struct eval_weights *w) {
    const struct bb_geom *g = &p->v->g;
    int n = g->size - 1, score = 0, best = 4 * n;
    for (int sq = 0; sq < g->squares; sq++) {
        int r = sq / g->size, f = sq % g->size;
        int dr = r < n - r ? r : n - r, df = f < n - f ? f : n - f;
        if (sq == p->king_sq) {
            for (int c = 0; c < 4; c++) {
                int d = abs(r - (c & 1) * n) + abs(f - (c >> 1) * n);
                best = d < best ? d : best;
            }
        }
        if (!bb_has(p->att, sq) || g->size < 9) continue;
        if (dr == 1 && df == 1) score -= w->corner_diag;
        if (dr + df == 2 && (dr == 0 || df == 0)) score -= w->corner_edge2;
        if (dr + df == 3 && dr && df) score -= w->corner_ring3;
    }
    score -= w->king_corner_dist * best;
    int stack[BB_MAX_SQUARES], top = 0, edges = 0;
    bool seen[BB_MAX_SQUARES] = {false}, corner = false;
    stack[top++] = p->king_sq;
    seen[p->king_sq] = true;
    while (top) {
        int sq = stack[--top];
        edges += bb_has(g->edge, sq);
        corner |= bb_has(p->v->corner_mask, sq);
        for (int d = 0; d < DIR_NB; d++) {
            int t = g->nb[sq][d];
            if (t >= 0 && !seen[t] && !bb_has(p->att, t)) {
                seen[t] = true;
                stack[top++] = t;
            }
        }
    }
    return score + w->king_edge_reach * edges - (corner ? 0 : w->king_sealed);
}

/* The evaluation's formula written plainly: every slide a many-piece slide, no shortcut. */
static int plain_eval(const struct position *p, const struct eval_weights *w) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    int score = w->defender * bb_popcount(p->def) - w->attacker * bb_popcount(p->att);
    bb_t kpro = empty & ~v->king_block, kland = empty & ~v->king_forbidden;
    bb_t one = movegen_slide_set(g, p->king, kpro, kland);
    score += w->king_mobility * bb_popcount(one);
    bb_t two = movegen_slide_set(g, one & ~v->escape_mask, kpro, kland) & v->escape_mask & ~one;
    if (bb_any(two)) {
        score += w->escape_in_two + w->escape_routes_two * (bb_popcount(two) - 1);
    } else {
        bb_t reach2 = movegen_slide_set(g, one, kpro, kland);
        if (bb_any(movegen_slide_set(g, reach2, kpro, kland) & v->escape_mask))
            score += w->escape_in_three;
    }
    bb_t around = bb_neighbours(p->king, g);
    score -= w->king_attackers * bb_popcount(around & p->att);
    score += w->king_guards * bb_popcount(around & p->def);
    if (v->escape == ESCAPE_CORNER) {
        int guard = g->size < 9 ? w->small_corner_guard : w->corner_guard;
        score -= guard * bb_popcount(bb_neighbours(v->escape_mask, g) & p->att);
        if (bb_any(p->king & g->edge)) score += w->edge_king;
        score += plain_corner_terms(p, w);
    }
    score = p->side == SIDE_DEFENDERS ? score : -score;
    return score + w->tempo;
}

/* Picks a move, preferring for the attackers moves beside the king or beside a defender. */
static move_t choose(const struct position *p, const move_t *moves, int n, uint64_t *rng) {
    if (p->side == SIDE_ATTACKERS && fp_rand(rng) % 4 != 0) {
        const struct bb_geom *g = &p->v->g;
        bb_t near = g->nbrs[p->king_sq] | bb_neighbours(p->def, g);
        int start = (int)(fp_rand(rng) % (uint64_t)n);
        for (int k = 0; k < n; k++) {
            move_t m = moves[(start + k) % n];
            if (bb_has(near, move_to(m))) return m;
        }
    }
    return moves[fp_rand(rng) % (uint64_t)n];
}

/* Plays random games of variant v, checking each position. */
static void run_variant(const struct variant *v, int games, uint64_t seed, struct fp_stats *st) {
    uint64_t rng = seed;
    for (int game = 0; game < games; game++) {
        struct position p, next;
        pos_init_start(&p, v);
        for (int ply = 0; ply < FP_MAX_PLIES && p.result == RESULT_NONE; ply++) {
            st->positions++;
            check_slides(&p, &rng);
            check_legality(&p, &rng);
            CHECK_EQ_INT(eval_position(&p, &eval_default_weights),
                         plain_eval(&p, &eval_default_weights));
            if (p.side == SIDE_ATTACKERS) check_king_spots(&p, st);
            if (p.side == SIDE_ATTACKERS && v->encirclement) check_encircle(&p, st);
            move_t moves[MAX_MOVES];
            int n = movegen_list(&p, moves);
            if (n == 0) break;
            make_move(&next, &p, choose(&p, moves, n, &rng));
            p = next;
        }
    }
}

/* Variants with the options no built-in variant uses: base name, then key/value pairs. */
static const char *const fp_altered[][7] = {
    {"copenhagen", "throne_pass", "nobody", "throne_stop", "nobody", "sw_flank_only", "no"},
    {"tablut", "throne_pass", "king", "king_capture", "custodial", "hostile_edge_king", "yes"},
    {"brandubh", "escape", "edge", "immobile_king", "yes", "encirclement", "yes"},
    {"fetlar", "king_capture", "custodial", "shieldwall", "yes", "sw_corner", "yes"},
};

/* Runs every fast-path comparison. */
int main(void) {
    bool quick = getenv("HNEFI_QUICK") != NULL;
    check_rays(7);
    check_rays(9);
    check_rays(11);
    struct fp_stats st = {0};
    for (int i = 0; variant_builtin(i); i++)
        run_variant(variant_builtin(i), quick ? 20 : 150, 0x5eed0000u + (uint64_t)i, &st);
    for (size_t i = 0; i < sizeof fp_altered / sizeof fp_altered[0]; i++) {
        struct variant v = *variant_by_name(fp_altered[i][0]);
        char err[160];
        for (int k = 1; k < 7; k += 2)
            CHECK(variant_set_option(&v, fp_altered[i][k], fp_altered[i][k + 1], err, sizeof err));
        run_variant(&v, quick ? 20 : 150, 0xa17e0000u + (uint64_t)i, &st);
        if (v.encirclement) check_rings(&v, quick ? 2000 : 20000, 0x41e90000u + (uint64_t)i, &st);
    }
    check_rings(variant_by_name("copenhagen"), quick ? 2000 : 20000, 0x41e9c0u, &st);
    printf("%ld positions; squares beside the king reached: %ld (%ld captures, %ld maybe of "
           "which %ld won, %ld no win); encirclement tests %ld (%ld with one in one move)\n",
           st.positions, st.spots, st.captures, st.maybe, st.won_maybe, st.silent, st.rings,
           st.ring_wins);
    /* the random games must have exercised every kind of square */
    CHECK(st.captures > 0);
    CHECK(st.won_maybe > 0);
    CHECK(st.silent > 0);
    CHECK(st.ring_wins > 100 && st.ring_wins < st.rings / 2);
    return check_done();
}
