/*
 * Solver tests (search/solver.h): the exact win-in-one test against making every move, on every
 * position of every real game (each side to move) and on random games of all five variants; the
 * solver's fewest plies and winning first moves against a naive brute force (no table, no
 * ordering, every move made) on positions near the end of the real games; the 60 lines of
 * tests/data/tactics.tsv (plies and move sets exactly); a tiny table giving the same answers; the
 * node limit; and the principal line ending in the win it names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tactics.h"
#include "check.h"
#include "data_file.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/rules.h"
#include "search/solver.h"
#include "selfplay/records.h"

/* Returns the result that side s wins with. */
static int win_for(int s) {
    return s == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS;
}

/* Tells whether the move m wins at once from p, by the plainest reading of the rules. */
static bool naive_wins_at_once(const struct position *p, move_t m) {
    struct position c;
    make_move(&c, p, m);
    if (c.result == win_for(p->side)) return true;
    return c.result == RESULT_NONE && movegen_count(&c) == 0 && p->v->no_moves == NO_MOVES_LOSS;
}

/* Brute force: does the side to move in p force a win within r plies? Every move is made. */
static bool naive_wins(const struct position *p, int r, uint64_t *nodes) {
    if (r < 1) return false;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        ++*nodes;
        if (naive_wins_at_once(p, moves[i])) return true;
    }
    if (r < 3) return false;
    for (int i = 0; i < n; i++) {
        struct position c;
        make_move(&c, p, moves[i]);
        if (c.result != RESULT_NONE) continue;
        move_t replies[MAX_MOVES];
        int m = movegen_list(&c, replies);
        bool all = m > 0;
        for (int j = 0; j < m && all; j++) {
            struct position d;
            make_move(&d, &c, replies[j]);
            ++*nodes;
            if (d.result != RESULT_NONE)
                all = d.result == win_for(p->side);
            else
                all = naive_wins(&d, r - 2, nodes);
        }
        if (all) return true;
    }
    return false;
}

/* Brute force: the fewest plies (odd, up to maxr) of a forced win and its first moves, or 0. */
static int naive_solve(const struct position *p, int maxr, move_t *first, int *nfirst,
                       uint64_t *nodes) {
    *nfirst = 0;
    int d = 1;
    while (d <= maxr && !naive_wins(p, d, nodes)) d += 2;
    if (d > maxr) return 0;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        bool win = naive_wins_at_once(p, moves[i]);
        if (!win && d >= 3) {
            struct position c;
            make_move(&c, p, moves[i]);
            if (c.result == RESULT_NONE) {
                move_t replies[MAX_MOVES];
                int m = movegen_list(&c, replies);
                win = m > 0;
                for (int j = 0; j < m && win; j++) {
                    struct position e;
                    make_move(&e, &c, replies[j]);
                    win = e.result != RESULT_NONE ? e.result == win_for(p->side)
                                                  : naive_wins(&e, d - 2, nodes);
                }
            }
        }
        if (win) first[(*nfirst)++] = moves[i];
    }
    return d;
}

/* Counts of the win-in-one comparison. */
struct one_stats {
    long positions, wins, mismatches;
    long kinds[8]; /* positions with a win in one of each kind (enum end_reason) */
};

/* Returns the kind of the win that m makes from p at once, or END_NONE. */
static int naive_kind(const struct position *p, move_t m) {
    struct position c;
    make_move(&c, p, m);
    if (c.result == win_for(p->side)) return c.reason;
    if (c.result == RESULT_NONE && movegen_count(&c) == 0 && p->v->no_moves == NO_MOVES_LOSS)
        return END_NO_MOVES;
    return END_NONE;
}

/* Compares solver_win_in_one with making every move, on p as it is. */
static void check_win_in_one(const struct position *p, struct one_stats *st) {
    if (p->result != RESULT_NONE) return;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    bool any = false, kinds[8] = {false};
    for (int i = 0; i < n; i++) {
        int k = naive_kind(p, moves[i]);
        any |= k != END_NONE;
        kinds[k] = true;
    }
    for (int k = 1; k < 8; k++) st->kinds[k] += kinds[k];
    move_t w = solver_win_in_one(p);
    bool ok = any == (w != MOVE_NONE) && (w == MOVE_NONE || naive_wins_at_once(p, w));
    st->positions++;
    st->wins += any;
    if (!ok && st->mismatches++ < 10) {
        char fen[FEN_MAX];
        fen_write(p, fen);
        fprintf(stderr, "    win in one: %s %s: naive %d, solver %d\n", p->v->name, fen, any,
                w != MOVE_NONE);
    }
    CHECK(ok);
}

/* Checks the win-in-one test on p and on p with the other side to move. */
static void check_both_sides(const struct position *p, struct one_stats *st) {
    check_win_in_one(p, st);
    struct position q = *p;
    q.side = (uint8_t)!p->side;
    q.key = pos_compute_key(&q);
    check_win_in_one(&q, st);
}

/* The state of a scan of real games: every position's win-in-one test, and the end positions. */
struct games_scan {
    struct one_stats one;
    struct position near_end[4096]; /* positions 1..6 plies before a rule-decided last ply */
    int near_ply[4096];             /* how many plies before */
    int n_near;
    int decided;
};

/* Checks every position of one game, and keeps those near a rule-decided end. */
static bool scan_game(const struct record *r, int64_t line, void *ctx) {
    (void)line;
    struct games_scan *g = ctx;
    struct position *pos = malloc((size_t)(r->n + 1) * sizeof *pos);
    if (!pos) return false;
    pos_init_start(&pos[0], r->v);
    for (int i = 0; i < r->n; i++) make_move(&pos[i + 1], &pos[i], r->moves[i]);
    for (int i = 0; i <= r->n; i++) check_both_sides(&pos[i], &g->one);
    /* decided by the rules: a board-rule end, or the side to move without a move */
    const struct position *last = &pos[r->n];
    bool decided = r->n > 0 && (last->result != RESULT_NONE ||
                                (movegen_count(last) == 0 && last->v->no_moves == NO_MOVES_LOSS));
    if (decided) {
        g->decided++;
        for (int k = 1; k <= 6 && k <= r->n; k++)
            if (g->n_near < (int)(sizeof g->near_end / sizeof g->near_end[0])) {
                g->near_end[g->n_near] = pos[r->n - k];
                g->near_ply[g->n_near++] = k;
            }
    }
    free(pos);
    return true;
}

/* Scans a real-game file of tests/data; returns the number of games with a rule-decided end. */
static int scan_file(const char *name, const struct variant *v, struct games_scan *g) {
    char path[512], err[300];
    snprintf(path, sizeof path, "%s/%s", HNEFI_TEST_DATA, name);
    int before = g->decided;
    if (!records_scan(path, v, false, scan_game, g, NULL, NULL, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", name, err);
        CHECK(!"the real games are read");
    }
    return g->decided - before;
}

/* Compares the solver with the brute force on p within maxr plies; returns the fewest plies. */
static int compare_with_naive(struct solver *sv, const struct position *p, int maxr,
                              uint64_t *naive_nodes) {
    move_t first[MAX_MOVES];
    int nfirst;
    int d = naive_solve(p, maxr, first, &nfirst, naive_nodes);
    struct solve_result *r = malloc(sizeof *r);
    if (!r) return 0;
    struct solve_limits lim = {.plies = maxr, .want_line = true};
    solver_solve(sv, p, &lim, r);
    char want[TACTICS_MOVES_MAX], got[TACTICS_MOVES_MAX];
    tactics_moves_text(first, nfirst, p->v->size, want, sizeof want);
    tactics_moves_text(r->moves, r->nmoves, p->v->size, got, sizeof got);
    bool ok = d ? r->status == SOLVE_WIN && r->plies == d && strcmp(want, got) == 0
                : r->status == SOLVE_NO_WIN && r->proved == maxr;
    if (!check_record(ok, __FILE__, __LINE__, "solver against brute force")) {
        char fen[FEN_MAX];
        fen_write(p, fen);
        fprintf(stderr, "    %s %s within %d: naive %d {%s}, solver %s %d {%s}\n", p->v->name, fen,
                maxr, d, want, r->status == SOLVE_WIN ? "win" : "no", r->plies, got);
    }
    /* the principal line is legal, alternates, and its last move wins as the kind says */
    if (d && r->status == SOLVE_WIN) {
        struct position cur = *p;
        bool legal = r->line_len == d;
        for (int i = 0; i < r->line_len && legal; i++) {
            legal = movegen_is_legal(&cur, r->line[i]);
            struct position next;
            make_move(&next, &cur, r->line[i]);
            if (i + 1 == r->line_len) {
                int kind = next.result == win_for(p->side) ? next.reason : END_NO_MOVES;
                legal = legal && naive_wins_at_once(&cur, r->line[i]) && kind == r->kind;
            } else {
                legal = legal && next.result == RESULT_NONE;
            }
            cur = next;
        }
        CHECK(legal);
    }
    free(r);
    return d;
}

/* A small seeded generator (splitmix64). */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Random games of every variant, attackers favoured late (they move towards the king), checking
   the win-in-one test at every position. */
static void random_games(struct one_stats *st, struct solver *sv, uint64_t *naive_nodes,
                         int games) {
    uint64_t seed = 12345;
    int compared = 0;
    for (int vi = 0; variant_builtin(vi); vi++) {
        struct variant v = *variant_builtin(vi);
        v.repetition = REP_NONE;
        for (int gi = 0; gi < games; gi++) {
            struct position p;
            pos_init_start(&p, &v);
            for (int ply = 0; ply < 400 && p.result == RESULT_NONE; ply++) {
                check_both_sides(&p, st);
                move_t moves[MAX_MOVES];
                int n = movegen_list(&p, moves);
                if (n == 0) break;
                /* prefer captures, and attacker moves next to the king, so games get sparse */
                move_t m = moves[rng_next(&seed) % (uint64_t)n];
                for (int t = 0; t < 6; t++) {
                    move_t c = moves[rng_next(&seed) % (uint64_t)n];
                    struct position q;
                    if (bb_any(make_move(&q, &p, c)) ||
                        (p.side == SIDE_ATTACKERS && bb_has(v.g.nbrs[p.king_sq], move_to(c))))
                        m = c;
                }
                struct position next;
                make_move(&next, &p, m);
                /* now and then, compare with the brute force on a sparse position */
                if (ply > 60 && bb_popcount(pos_occupied(&p)) <= 14 && rng_next(&seed) % 23 == 0 &&
                    compared < 60 * (vi + 1)) {
                    compare_with_naive(sv, &p, v.size <= 7 ? 5 : 3, naive_nodes);
                    compared++;
                }
                p = next;
            }
        }
    }
    printf("random games: %d brute-force comparisons\n", compared);
}

/* Random sparse positions of every variant (a king, up to four defenders, two to twelve
   attackers): the win-in-one test on each side to move, and now and then the brute force. */
static void random_sparse(struct one_stats *st, struct solver *sv, uint64_t *naive_nodes,
                          int count) {
    uint64_t seed = 777;
    int compared = 0;
    for (int vi = 0; variant_builtin(vi); vi++) {
        struct variant v = *variant_builtin(vi);
        v.repetition = REP_NONE;
        const struct bb_geom *g = &v.g;
        for (int made = 0, tries = 0; made < count && tries < 100 * count; tries++) {
            struct position p = {.v = &v};
            int k = (int)(rng_next(&seed) % (uint64_t)g->squares);
            if (bb_has(v.king_forbidden | v.escape_mask, k)) continue;
            p.king = bb_sq(k);
            p.king_sq = (int8_t)k;
            int nd = (int)(rng_next(&seed) % 5), na = 2 + (int)(rng_next(&seed) % 11);
            for (int i = 0; i < nd + na; i++) {
                int sq = (int)(rng_next(&seed) % (uint64_t)g->squares);
                /* men near the king more often, so that the king is shut in now and then */
                if (rng_next(&seed) % 2) {
                    bb_t near = bb_neighbours(bb_neighbours(p.king, g) | p.king, g);
                    int pick = (int)(rng_next(&seed) % (uint64_t)bb_popcount(near));
                    while (pick--) near = bb_without_lowest(near);
                    sq = bb_lsb(near);
                }
                if (bb_has(pos_occupied(&p) | v.men_forbidden, sq)) continue;
                if (i < nd)
                    p.def |= bb_sq(sq);
                else
                    p.att |= bb_sq(sq);
            }
            p.side = (uint8_t)(rng_next(&seed) % 2);
            p.key = pos_compute_key(&p);
            rules_decide_loaded(&p);
            if (p.result != RESULT_NONE) continue;
            made++;
            check_both_sides(&p, st);
            if (rng_next(&seed) % 8 == 0) {
                compare_with_naive(sv, &p, 3, naive_nodes);
                compared++;
            }
        }
    }
    printf("random sparse positions: %d brute-force comparisons\n", compared);
}

/* The 60 lines of tactics.tsv: plies and move sets exactly, 'none' within 5 plies. */
static void tactics_tsv(struct solver *sv) {
    size_t len;
    char *text = data_file_read("tactics.tsv", &len);
    if (!CHECK(text != NULL)) return;
    struct tactics_suite suite;
    char err[300];
    if (!CHECK(tactics_parse(text, &suite, err, sizeof err))) {
        fprintf(stderr, "    %s\n", err);
        free(text);
        return;
    }
    CHECK_EQ_INT(suite.n, 60);
    int ok = 0;
    for (int i = 0; i < suite.n; i++) {
        char why[TACTICS_MOVES_MAX * 2 + 200];
        if (check_record(tactics_verify(sv, &suite.lines[i], 5, 0, why, sizeof why, NULL), __FILE__,
                         __LINE__, "tactics.tsv line"))
            ok++;
        else
            fprintf(stderr, "    %s\n", why);
    }
    printf("tactics.tsv: %d of %d lines proved as written\n", ok, suite.n);
    tactics_suite_free(&suite);
    free(text);
}

/* The example: the only winning move encircles in 5; a tiny table gives the same. */
static void known_positions(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct position p;
    char err[200];
    CHECK(fen_parse(&p, v,
                    "3aa1a4/2a4aa2/1a2d1a4/a3dd2a2/a3d2d1a1/a2d3k2a/1a2d1d2a1/2a2ddaa2/3aa1a4/"
                    "5a5/5a5 a",
                    err, sizeof err));
    struct solver *tiny = solver_new(0), *big = solver_new(16);
    struct solve_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!CHECK(tiny && big && a && b)) return;
    struct solve_limits lim = {.plies = 7, .want_line = true};
    solver_solve(big, &p, &lim, a);
    solver_solve(tiny, &p, &lim, b);
    CHECK_EQ_INT(a->status, SOLVE_WIN);
    CHECK_EQ_INT(a->plies, 5);
    CHECK_EQ_INT(a->nmoves, 1);
    char text[MOVE_TEXT_MAX];
    move_write(a->moves[0], 11, text);
    CHECK_EQ_STR(text, "g11f11");
    CHECK_EQ_INT(a->kind, END_ENCIRCLED);
    CHECK_EQ_INT(b->status, a->status);
    CHECK_EQ_INT(b->plies, a->plies);
    CHECK_EQ_INT(b->nmoves, a->nmoves);
    CHECK_EQ_INT(b->kind, a->kind);
    /* within 3 plies there is no win; with a node limit the answer is unknown */
    CHECK_EQ_INT(solver_wins_within(big, &p, 3, 0, NULL), SOLVE_NO_WIN);
    CHECK_EQ_INT(solver_wins_within(big, &p, 5, 0, NULL), SOLVE_WIN);
    CHECK_EQ_INT(solver_wins_within(big, &p, 6, 0, NULL), SOLVE_WIN);
    solver_clear(big);
    CHECK_EQ_INT(solver_wins_within(big, &p, 5, 1000, NULL), SOLVE_UNKNOWN);
    solver_clear(big);
    lim.max_nodes = 1000;
    solver_solve(big, &p, &lim, a);
    CHECK_EQ_INT(a->status, SOLVE_UNKNOWN);
    CHECK(a->proved >= 1 && a->proved < 5);
    /* a finished position has nothing to solve */
    CHECK(fen_parse(&p, v, "11/11/11/11/11/11/11/11/11/11/k10 a", err, sizeof err));
    lim.max_nodes = 0;
    solver_solve(big, &p, &lim, a);
    CHECK(a->game_over && a->status == SOLVE_NO_WIN);
    /* rules §7: the lone king on the edge left without a move is a win in one for the attackers
       (no_moves), and only a draw under no_moves=draw */
    CHECK(fen_parse(&p, v, "11/11/11/11/11/11/11/11/4a6/11/3aka5 a", err, sizeof err));
    solver_solve(big, &p, &lim, a);
    CHECK(a->status == SOLVE_WIN && a->plies == 1 && a->kind == END_NO_MOVES);
    struct variant drawn = *v;
    drawn.no_moves = NO_MOVES_DRAW;
    CHECK(fen_parse(&p, &drawn, "11/11/11/11/11/11/11/11/4a6/11/3aka5 a", err, sizeof err));
    solver_solve(big, &p, &lim, a);
    CHECK(a->status != SOLVE_WIN || a->plies > 1);
    free(a);
    free(b);
    solver_free(tiny);
    solver_free(big);
}

/* Runs every solver test. */
int main(void) {
    bool quick = getenv("HNEFI_QUICK") != NULL;
    struct solver *sv = solver_new(16);
    if (!CHECK(sv != NULL)) return check_done();
    known_positions();
    tactics_tsv(sv);

    struct games_scan *g = calloc(1, sizeof *g);
    if (!CHECK(g != NULL)) return check_done();
    struct variant cph = *variant_by_name("copenhagen"), bra = *variant_by_name("brandubh");
    cph.repetition = bra.repetition = REP_NONE;
    int n_bra = scan_file("brandubh-games.csv.zst", &bra, g);
    int bra_near = g->n_near;
    int n_cph = quick ? 0 : scan_file("copenhagen-games.csv.zst", &cph, g);
    printf(
        "real games: %d brandubh and %d copenhagen games end by a rule; win in one checked "
        "on %ld positions (%ld wins: escape %ld, king captured %ld, encircled %ld, exit fort %ld, "
        "no moves %ld)\n",
        n_bra, n_cph, g->one.positions, g->one.wins, g->one.kinds[END_ESCAPE],
        g->one.kinds[END_KING_CAPTURED], g->one.kinds[END_ENCIRCLED], g->one.kinds[END_EXIT_FORT],
        g->one.kinds[END_NO_MOVES]);
    CHECK_EQ_INT(n_bra, 107);
    if (!quick) CHECK_EQ_INT(n_cph, 372);
    CHECK_EQ_INT(g->one.mismatches, 0);

    /* near the end: brandubh within 5 plies, copenhagen within 3 */
    uint64_t naive_nodes = 0;
    int found[16] = {0};
    for (int i = 0; i < g->n_near; i++) {
        bool brandubh = i < bra_near;
        if (quick && i % 4) continue;
        int d = compare_with_naive(sv, &g->near_end[i], brandubh ? 5 : 3, &naive_nodes);
        found[d]++;
    }
    printf("near the end of real games: %d positions, wins in 1/3/5: %d/%d/%d, none: %d; brute "
           "force %llu nodes\n",
           g->n_near, found[1], found[3], found[5], found[0], (unsigned long long)naive_nodes);
    CHECK(found[1] > 0 && found[3] > 0 && found[5] > 0 && found[0] > 0);

    struct one_stats rnd = {0};
    random_games(&rnd, sv, &naive_nodes, quick ? 3 : 12);
    printf("random games: win in one checked on %ld positions (%ld wins)\n", rnd.positions,
           rnd.wins);
    CHECK_EQ_INT(rnd.mismatches, 0);
    CHECK(rnd.wins > 100);

    struct one_stats sparse = {0};
    random_sparse(&sparse, sv, &naive_nodes, quick ? 300 : 3000);
    printf("random sparse positions: win in one checked on %ld positions (%ld wins: escape %ld, "
           "king captured %ld, immobile king %ld, encircled %ld, exit fort %ld, no moves %ld)\n",
           sparse.positions, sparse.wins, sparse.kinds[END_ESCAPE], sparse.kinds[END_KING_CAPTURED],
           sparse.kinds[END_IMMOBILE_KING], sparse.kinds[END_ENCIRCLED],
           sparse.kinds[END_EXIT_FORT], sparse.kinds[END_NO_MOVES]);
    CHECK_EQ_INT(sparse.mismatches, 0);
    for (int k = END_ESCAPE; k <= END_NO_MOVES && !quick; k++) /* too few positions when quick */
        if (k != END_REPETITION) CHECK(sparse.kinds[k] > 0);
    free(g);
    solver_free(sv);
    return check_done();
}
