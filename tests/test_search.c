/*
 * Search tests: every line of tests/data/tactics.tsv (forced wins in 1, 3 and 5 plies found with
 * the exact length and a listed move; no false win where none exists within 5 plies), the
 * project's own positions for fetlar, tablut and linnaeus checked against an exhaustive
 * minimax inside the test, a side without a move seen in quiescence, a fort beside the edge,
 * determinism, limits, MultiPV, threads, and the TT's mate-score conversion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "data_file.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/nnue.h"
#include "search/search.h"
#include "search/tt.h"

/* Searches a FEN of a variant (NULL: its start) to a depth with the search parameters params
   (NULL: the defaults) and the network net (NULL: the classical evaluation); returns the
   result. */
static struct search_result run_net(struct search *s, const struct variant *v, const char *fen,
                                    int depth, uint64_t nodes, int threads,
                                    const struct search_params *params,
                                    const struct nnue_net *net) {
    struct position p;
    char err[200];
    struct search_result r = {0};
    if (!fen) {
        pos_init_start(&p, v);
    } else if (!fen_parse(&p, v, fen, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", fen, err);
        CHECK(!"FEN parses");
        return r;
    }
    struct tafl_game *t = tafl_new(v);
    tafl_reset(t, &p);
    struct search_options opt;
    search_options_default(&opt);
    opt.threads = threads;
    if (params) opt.params = *params;
    opt.net = net;
    struct search_limits lim = {.depth = depth, .nodes = nodes, .time_ms = {-1, -1}};
    search_clear(s);
    search_run(s, t, &lim, &opt, NULL, &r);
    tafl_free(t);
    return r;
}

/* run_net with the classical evaluation. */
static struct search_result run_params(struct search *s, const struct variant *v, const char *fen,
                                       int depth, uint64_t nodes, int threads,
                                       const struct search_params *params) {
    return run_net(s, v, fen, depth, nodes, threads, params, NULL);
}

/* run_params with the default search parameters. */
static struct search_result run(struct search *s, const struct variant *v, const char *fen,
                                int depth, uint64_t nodes, int threads) {
    return run_params(s, v, fen, depth, nodes, threads, NULL);
}

/* Exhaustive minimax: can the side to move force a win within plies? (repetition off) */
static bool forced_win(const struct position *p, int plies) {
    if (plies <= 0) return false;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    struct position c;
    int me = p->side == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS;
    for (int i = 0; i < n; i++) {
        make_move(&c, p, moves[i]);
        if (c.result == me) return true;
        if (c.result != RESULT_NONE) continue;
        move_t replies[MAX_MOVES];
        int m = movegen_list(&c, replies);
        if (m == 0) {
            if (c.v->no_moves == NO_MOVES_LOSS) return true;
            continue;
        }
        if (plies < 3) continue;
        bool all = true;
        struct position d;
        for (int j = 0; j < m && all; j++) {
            make_move(&d, &c, replies[j]);
            if (d.result != RESULT_NONE)
                all = d.result == me;
            else
                all = forced_win(&d, plies - 2);
        }
        if (all) return true;
    }
    return false;
}

/* Runs tactics.tsv; returns the number of lines checked. */
static int tactics(struct search *s) {
    size_t len;
    char *text = data_file_read("tactics.tsv", &len);
    CHECK(text != NULL);
    if (!text) return 0;
    int lines = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char *f[6] = {0};
        int nf = 0;
        for (char *c = line; nf < 6; nf++) {
            f[nf] = c;
            c = strchr(c, '\t');
            if (!c) {
                nf++;
                break;
            }
            *c++ = 0;
        }
        if (!CHECK(nf >= 3)) continue;
        struct variant v = *variant_by_name(f[0]);
        v.repetition = REP_NONE;
        lines++;
        if (strcmp(f[2], "win") == 0) {
            int plies = atoi(f[3]);
            struct search_result r = run(s, &v, f[1], plies + 2, 0, 1);
            char mv[MOVE_TEXT_MAX];
            move_write(r.best, v.size, mv);
            bool listed = false;
            char moves[256];
            snprintf(moves, sizeof moves, "%s", f[4]);
            for (char *sv = NULL, *m = strtok_r(moves, " ", &sv); m; m = strtok_r(NULL, " ", &sv))
                listed |= strcmp(m, mv) == 0;
            if (!check_record(listed && r.score == SCORE_WIN - plies, __FILE__, __LINE__,
                              "tactics win"))
                fprintf(stderr, "    %s %s: want win in %d by {%s}, got %s score %d\n", f[0], f[1],
                        plies, f[4], mv, r.score);
        } else {
            struct search_result r = run(s, &v, f[1], 5, 0, 1);
            int plies;
            bool win = score_is_win(r.score, &plies) && r.score > 0 && plies <= 5;
            if (!check_record(!win, __FILE__, __LINE__, "tactics none"))
                fprintf(stderr, "    %s %s: reported a win, score %d\n", f[0], f[1], r.score);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("tactics: %d lines in %.2f s\n", lines,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    free(text);
    return lines;
}

/* Our own positions for fetlar, tablut and linnaeus, each checked by exhaustive minimax. */
static void own_positions(struct search *s) {
    static const struct {
        const char *variant, *fen;
        int plies; /* the shortest forced win for the side to move; 0 = none within 5 */
    } cases[] = {
        /* fetlar: escape in 1; a double threat wins in 3; the edge king cannot be taken; four
           attackers take the king; an empty throne beside him counts as one */
        {"fetlar", "11/11/11/11/11/11/11/11/5a5/11/2k5a2 d", 1},
        {"fetlar", "11/11/11/11/11/11/11/11/11/3k7/6a4 d", 3},
        {"fetlar", "11/11/11/11/11/11/11/5a5/11/11/3aka5 a", 0},
        {"fetlar", "11/11/11/11/11/11/11/11/4a6/3aka5/6a4 a", 1},
        {"fetlar", "11/11/11/11/11/11/4aka4/11/5a5/11/11 a", 1},
        /* tablut: edge capture by three; corner-side capture by two; immobile king */
        {"tablut", "9/9/9/9/9/9/3a5/9/2aka4 a", 1},
        {"tablut", "9/9/9/9/1a7/9/9/9/1ka6 a", 1},
        {"tablut", "9/9/9/9/9/9/7a1/3ada3/3aka3 a", 1},
        {"tablut", "4a4/9/9/9/9/9/9/2k6/9 d", 3},
        /* linnaeus: edge escape in 1; captured by two away from the castle */
        {"linnaeus", "9/9/9/9/9/9/3k5/9/9 d", 1},
        {"linnaeus", "9/9/9/9/9/9/9/2aka4/9 a", 0},
        {"linnaeus", "9/9/a8/9/9/9/9/1aka5/9 a", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct variant v = *variant_by_name(cases[i].variant);
        v.repetition = REP_NONE;
        struct position p;
        char err[200];
        if (!CHECK(fen_parse(&p, &v, cases[i].fen, err, sizeof err))) {
            fprintf(stderr, "%s: %s\n", cases[i].fen, err);
            continue;
        }
        /* the truth, by exhaustive search */
        int truth = 0;
        for (int d = 1; d <= 5 && !truth; d += 2)
            if (forced_win(&p, d)) truth = d;
        struct search_result r = run(s, &v, cases[i].fen, 7, 0, 1);
        int plies = 0;
        bool win = score_is_win(r.score, &plies) && r.score > 0;
        int got = win && plies <= 5 ? plies : 0;
        if (!check_record(got == truth, __FILE__, __LINE__, "own position"))
            fprintf(stderr, "    %s %s: exhaustive %d, search %d (score %d)\n", cases[i].variant,
                    cases[i].fen, truth, got, r.score);
        if (cases[i].plies &&
            !check_record(truth == cases[i].plies, __FILE__, __LINE__, "own position as designed"))
            fprintf(stderr, "    %s %s: designed %d, exhaustive %d\n", cases[i].variant,
                    cases[i].fen, cases[i].plies, truth);
    }
}

/*
 * With repetition off a repeated position is searched on like any other: it was scored as a
 * loss for the repeater, which gave a false escape in 5 here (the attackers' defence c10k10
 * repeats the start); the exhaustive solver and a brute force say 7 (tactics-mined.tsv).
 */
static void repetition_none(struct search *s) {
    struct variant v = *variant_by_name("copenhagen");
    v.repetition = REP_NONE;
    const char *fen = "1a2aaaa3/1d8a/a9k/5d4a/6d3a/aa1d2dd1aa/2a2dd3a/a9a/4d1a4/3add2a2/4aa1a3 d";
    struct search_result r = run(s, &v, fen, 5, 0, 1);
    int plies;
    CHECK(!score_is_win(r.score, &plies) || plies >= 7);
    r = run(s, &v, fen, 7, 0, 1);
    CHECK_EQ_INT(r.score, SCORE_WIN - 7);
    /* under the variant's own rule (loss_defenders) the repetition still counts */
    r = run(s, variant_by_name("copenhagen"), fen, 5, 0, 1);
    CHECK(r.score != SCORE_WIN - 5);
}

/*
 * Searches fen (the variant called name, repetition off) to depth with *on and with *off: with on
 * it must show the win in plies by move, with off not at that depth (so the test can fail).
 */
static void win_needs_in(struct search *s, const char *name, const char *fen, int plies, int depth,
                         const char *move, const struct search_params *on,
                         const struct search_params *off, bool nnue) {
    struct variant v = *variant_by_name(name);
    v.repetition = REP_NONE;
    const struct nnue_net *net = nnue ? nnue_builtin(&v) : NULL;
    CHECK(!nnue || net);
    struct search_result r = run_net(s, &v, fen, depth, 0, 1, on, net);
    char text[MOVE_TEXT_MAX];
    CHECK_EQ_INT(r.score, SCORE_WIN - plies);
    move_write(r.best, v.size, text);
    CHECK_EQ_STR(text, move);
    r = run_net(s, &v, fen, depth, 0, 1, off, net);
    CHECK(r.score < SCORE_WIN - plies);
}

/* win_needs_in in Copenhagen. */
static void win_needs(struct search *s, const char *fen, int plies, int depth, const char *move,
                      const struct search_params *on, const struct search_params *off) {
    win_needs_in(s, "copenhagen", fen, plies, depth, move, on, off, false);
}

/*
 * A side left without a move has lost (Copenhagen's no_moves): quiescence sees it, so the move
 * that takes the last defender's last square is a win in one at depth 1, and a squeeze in 3 at
 * depth 3 (tactics-mined.tsv lines 285 and 291; without the test, qs_no_moves=0, depths 4 and 6).
 */
static void no_moves_in_quiescence(struct search *s) {
    struct search_params off = search_default_params;
    off.qs_no_moves = 0;
    win_needs(s, "5aaaka1/1aa5a2/a10/11/10a/10a/5a4a/a9a/5a5/8aa1/3adaa4 a", 1, 1, "i2e2",
              &search_default_params, &off);
    win_needs(s, "3a4a2/1aa6a1/aa9/11/11/11/11/a8d1/1a7aa/1a4aa1a1/5a1ka2 a", 3, 3, "j10j5",
              &search_default_params, &off);
}

/*
 * An exit fort the king completes by stepping onto the edge: reverse futility must not prune the
 * attackers' nodes while he stands one step from it (rfp_edge_near), or the fort in 3 of
 * tactics-mined.tsv line 253 shows only at depth 6; with it, at depth 3.
 */
static void fort_near_edge(struct search *s) {
    struct search_params off = search_default_params;
    off.rfp_edge_near = 0;
    win_needs(s, "3aad1d3/3a1dk1da1/1a3dd1a2/7a1a1/1a1a2a4/a7d2/11/2a8/6d3a/9a1/5a2a2 d", 3, 3,
              "i10h10", &search_default_params, &off);
}

/*
 * An exit fort in 7 whose first move is a quiet defender move three squares from the king on the
 * edge: reduced at the root, it shows only at depth 12 (tactics-mined.tsv line 270); with no
 * reductions at the defenders' root while the king stands by the edge (lmr_root_edge 2), at
 * depth 9, the plies it needs plus two.
 */
static void fort_at_root(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.lmr_root_edge = 2;
    off.lmr_root_edge = 0;
    win_needs(s, "1a3aaa3/a4a5/dda8/2daa5a/k1d7a/9a1/d5d3a/11/daa5a2/9d1/2d1a2a3 d", 7, 9, "a5b5",
              &on, &off);
}

/*
 * An exit fort in 7 begun by a long move of a far man to a square three steps from the king on
 * the edge (tactics-mined.tsv line 269, f4k4): reduced near the root it shows only at depth 10;
 * with no reduction of the defenders' moves landing within three steps of an edge king at plies
 * 0 and 2 (lmr_fort 3, lmr_fort_ply 2), at depth 7.
 */
static void fort_start_unreduced(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.lmr_fort = 3;
    on.lmr_fort_ply = 2;
    off.lmr_fort = 0;
    win_needs(s, "2a1a3a2/1a8a/a9d/5d2d2/9dk/3dd2a3/11/5d5/a9a/1a7a1/2a8 d", 7, 7, "f4k4", &on,
              &off);
}

/*
 * Brandubh, where two men take the king away from the throne: a capture of the king by the edge
 * in 7 plies (tactics-mined.tsv line 87, c2c5) shows at depth 12 while reverse futility prunes
 * the defenders' nodes by their evaluation; with rfp_king 2, which keeps those nodes from it
 * while the king stands by the edge, at depth 7.
 */
static void king_capture_unpruned(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_king = 2;
    off.rfp_king = 0;
    win_needs_in(s, "brandubh", "3a3/a1k3a/3d1a1/1a4a/3d3/1aa1d2/7 a", 7, 9, "c2c5", &on, &off,
                 false);
}

/* Line 313 of tactics-mined.tsv: the attackers leave the defenders no move in 7 plies (c5b5). */
static const char *const squeeze_313 = "5a5/11/11/aa9/daa8/ddaa3a2a/k1aa7/ddaa7/aa9/1a7a1/6a4 a";

/*
 * A squeeze to no moves in 7 (Copenhagen, tactics-mined.tsv line 313, c5b5): with the built-in
 * network the defenders' nodes, far behind but above a beta as low, stand on their evaluation
 * and the win shows only at depth 11 (generation 12; 12 with generations 14, 15 and 16); with
 * rfp_mob 5, no reverse futility while the defenders have five moves or fewer, at depth 6
 * (generation 12; the test asks for it by depth 8).
 */
static void squeeze_unpruned(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_mob = 5;
    off.rfp_mob = 0;
    win_needs_in(s, "copenhagen", squeeze_313, 7, 8, "c5b5", &on, &off, true);
}

/*
 * Lines 176 and 182 of tactics-mined.tsv (Copenhagen, the network): the captures of a king held
 * by three attackers and one man, in 3 (b10b1) and in 5 (c2b2), must show by depths 3 and 5
 * with *on and not with *off.
 */
static void held_captures_need(struct search *s, const struct search_params *on,
                               const struct search_params *off) {
    win_needs_in(s, "copenhagen", "4aa1a3/1a7a1/5a5/a3dka4/3a1a1a2a/a9a/10a/a7a1a/3a7/11/2daa1a4 a",
                 3, 3, "b10b1", on, off, true);
    win_needs_in(s, "copenhagen", "11/11/11/11/1a9/11/1a9/10a/a3aa1a3/d1aakaa4/1daad1d1a2 a", 5, 5,
                 "c2b2", on, off, true);
}

/*
 * A side with few men is squeezed: capturing the defenders' last free man (line 176 of
 * tactics-mined.tsv, b10b1) leaves them only moves of the man beside the king, each of which lets
 * him be taken. The network scores that node 3.4 men down for them, yet above their beta (the
 * attackers' better line), so reverse futility stood on it until depth 7; with rfp_men_pct 40 (no
 * such pruning while the defenders have fewer than 40% of their twelve men, that is four or
 * fewer) the capture in 3 shows at depth 3, and line 182's in 5 at depth 5.
 */
static void few_men_unpruned(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_men_pct = 40;
    off.rfp_men_pct = 0;
    held_captures_need(s, &on, &off);
}

/*
 * A king held in zugzwang: in line 176 (b10b1 takes the defenders' last free man) the king has
 * no move, three attackers and one defender beside him, and every move of that man lets the
 * fourth attacker in; in line 182 (c2b2) the same, five plies deep. The network scores the
 * defenders' node above their beta, so reverse futility stood on it until depths 7 and 8; with
 * rfp_held (no such pruning at the defenders' nodes while their king is held) the captures show
 * by depths 3 and 5 (the tactics runner, deepening, sees them at 2 and 4), and Brandubh's
 * captures of the king held against the edge come nearer too (docs/search.md, "The king held").
 */
static void king_held_unpruned(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_held = 1;
    off.rfp_held = 0;
    held_captures_need(s, &on, &off);
}

/*
 * An encirclement in 7 (tactics-mined.tsv line 228, f2d2) leaves the defenders' eleven men a
 * ring of one or two gaps, which they cannot keep open; the network scores their nodes above
 * their beta and reverse futility stood on them, so the win showed only at depth 10. With
 * rfp_ring 2 (no such pruning at the defenders' nodes while the ring has two gaps or fewer) it
 * shows at depth 7.
 */
static void ring_unpruned(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_ring = 2;
    off.rfp_ring = 0;
    win_needs_in(
        s, "copenhagen",
        "5aa4/4a2a3/3a1d2a2/2a3d1a2/2a4d1a1/aa1d3d1aa/a3dk1da2/2ad2d1a2/3addaa3/5a5/4aa5 a", 7, 7,
        "f2d2", &on, &off, true);
}

/*
 * An exit fort in 7 built by a king alone on the edge (tactics-mined.tsv line 270, a5b5): no
 * man stands beside him until the fort is half built, so rfp_edge_def 1 lets reverse futility
 * prune the attackers' nodes, and with rfp_held, rfp_mob, rfp_ring and lmr_fort the fort shows
 * only at depth 10; counting two men within two steps of him instead (rfp_edge_zone 2,
 * rfp_edge_def 2), at depth 9.
 */
static void fort_zone_unpruned(struct search *s) {
    struct search_params on = search_default_params;
    on.rfp_held = 1;
    on.rfp_mob = 5;
    on.rfp_ring = 2;
    on.lmr_fort = 3;
    on.lmr_fort_ply = 1;
    struct search_params off = on;
    on.rfp_edge_zone = 2;
    on.rfp_edge_def = 2;
    win_needs_in(s, "copenhagen",
                 "1a3aaa3/a4a5/dda8/2daa5a/k1d7a/9a1/d5d3a/11/daa5a2/9d1/2d1a2a3 d", 7, 9, "a5b5",
                 &on, &off, true);
}

/*
 * rfp_held and rfp_ring act only where a king is held or a ring nearly closed: from the
 * Copenhagen start (the king among his men, the ring far from closing) a depth-6 search with
 * the network is the same tree with them as without, node for node.
 */
static void held_ring_quiet(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_held = 1;
    on.rfp_ring = 2;
    off.rfp_held = 0;
    off.rfp_ring = 0;
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result a = run_net(s, v, NULL, 6, 0, 1, &on, nnue_builtin(v));
    struct search_result b = run_net(s, v, NULL, 6, 0, 1, &off, nnue_builtin(v));
    CHECK_EQ_U64(a.nodes, b.nodes);
    CHECK(a.best == b.best && a.score == b.score);
}

/*
 * rfp_men_pct is a share of the men the variant starts with: at 40 it stops reverse futility at
 * one defender of Brandubh's four (another tree) but not at four, and at three of Tablut's eight.
 * From Brandubh's start no main-search node of a depth-4 search has fewer than three defenders,
 * so the two trees are the same; a share of a fixed twelve men (Copenhagen's start) would act
 * there and change the tree (tried: 4,009 nodes against 3,998).
 */
static void few_men_share(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_men_pct = 40;
    off.rfp_men_pct = 0;
    const struct variant *brandubh = variant_by_name("brandubh");
    const struct variant *tablut = variant_by_name("tablut");
    struct search_result a = run_params(s, brandubh, NULL, 4, 0, 1, &on);
    struct search_result b = run_params(s, brandubh, NULL, 4, 0, 1, &off);
    CHECK_EQ_U64(a.nodes, b.nodes);
    a = run_params(s, brandubh, "7/1a5/a6/kaa4/a1d4/7/3a3 a", 5, 0, 1, &on);
    b = run_params(s, brandubh, "7/1a5/a6/kaa4/a1d4/7/3a3 a", 5, 0, 1, &off);
    CHECK(a.nodes != b.nodes);
    a = run_params(s, tablut, "3aaa3/4a4/9/a3d3a/aa2kd1aa/a7a/4d4/4a4/3aaa3 a", 5, 0, 1, &on);
    b = run_params(s, tablut, "3aaa3/4a4/9/a3d3a/aa2kd1aa/a7a/4d4/4a4/3aaa3 a", 5, 0, 1, &off);
    CHECK(a.nodes != b.nodes);
}

/*
 * Searches the Copenhagen start to depth with *on, *off and *on again: the change moves the
 * node count, and the search with it is deterministic (nodes, move and score). Returns the
 * first search with it.
 */
static struct search_result changes_search(struct search *s, int depth,
                                           const struct search_params *on,
                                           const struct search_params *off) {
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result a = run_params(s, v, NULL, depth, 0, 1, on);
    struct search_result b = run_params(s, v, NULL, depth, 0, 1, off);
    struct search_result c = run_params(s, v, NULL, depth, 0, 1, on);
    CHECK(a.nodes != b.nodes);
    CHECK_EQ_U64(a.nodes, c.nodes);
    CHECK_EQ_INT(a.best, c.best);
    CHECK_EQ_INT(a.score, c.score);
    return a;
}

/*
 * The continuation history (cont_hist) orders the quiet moves by what followed the last two
 * moves: the search changes, stays deterministic, and finds the exit fort in 7 of
 * tactics-mined.tsv line 269 (f4k4) at depth 7 with the classical evaluation, where without it
 * the order hides the fort until depth 9. (The classical evaluation keeps the test from moving
 * with each new network: with generation 12's network it found line 273's fort at depth 7 against
 * 12, with generation 14's at 12 against 9.)
 */
static void cont_hist_orders(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.cont_hist = 1;
    off.cont_hist = 0;
    changes_search(s, 7, &on, &off);
    win_needs_in(s, "copenhagen", "2a1a3a2/1a8a/a9d/5d2d2/9dk/3dd2a3/11/5d5/a9a/1a7a1/2a8 d", 7, 7,
                 "f4k4", &on, &off, false);
}

/*
 * lmr_hist reduces a late quiet move less when its history (with the continuation history, that
 * too) is high and more when it is low: the search changes and stays deterministic, and off it
 * is the default search.
 */
static void lmr_hist_adjusts(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.lmr_hist = 16384;
    off.lmr_hist = 0;
    changes_search(s, 8, &on, &off);
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result b = run_params(s, v, NULL, 8, 0, 1, &off);
    struct search_result d = run_params(s, v, NULL, 8, 0, 1, &search_default_params);
    CHECK_EQ_U64(b.nodes, d.nodes);
}

/*
 * The correction history (corr_king, corr_mat) moves the static evaluation by the error the
 * search found at nodes of the same king area or count of men, and with corr_qs quiescence's
 * evaluations too: each changes the search and stays deterministic (the tables are cleared with
 * the search's), and off (corr_qs alone corrects by nothing) it is the default search.
 */
static void corr_hist_corrects(struct search *s) {
    struct search_params king = search_default_params, mat = search_default_params;
    struct search_params off = search_default_params;
    king.corr_king = 100;
    mat.corr_mat = 100;
    off.corr_king = off.corr_mat = 0;
    changes_search(s, 8, &king, &off);
    changes_search(s, 8, &mat, &off);
    changes_search(s, 8, &mat, &king);
    struct search_params qs = king;
    qs.corr_qs = 1;
    changes_search(s, 8, &qs, &king);
    off.corr_qs = 1; /* nothing to correct by */
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result b = run_params(s, v, NULL, 8, 0, 1, &off);
    struct search_result d = run_params(s, v, NULL, 8, 0, 1, &search_default_params);
    CHECK_EQ_U64(b.nodes, d.nodes);
}

/*
 * Singular extensions (se_depth): the node searched without its table move leaves the table and
 * the search deterministic, changes the tree, and two threads with it still give a legal move of
 * the full depth.
 */
static void singular_extends(struct search *s) {
    struct search_params on = search_default_params;
    on.se_depth = 6;
    changes_search(s, 9, &on, &search_default_params);
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result d = run_params(s, v, NULL, 8, 0, 2, &on);
    CHECK_EQ_INT(d.depth, 8);
    struct position p;
    pos_init_start(&p, v);
    CHECK(movegen_is_legal(&p, d.best));
}

/*
 * partial_root: a search stopped by its node limit in the middle of an iteration plays a root
 * move that beat the last iteration's best there. The tree is the same (same nodes); only the
 * move played may differ, and over a sweep of limits it does at least once, always for a legal
 * move; a search that ends on its depth is untouched.
 */
static void partial_root_plays(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.partial_root = 1;
    off.partial_root = 0;
    const struct variant *v = variant_by_name("copenhagen");
    struct position p;
    pos_init_start(&p, v);
    int differ = 0;
    for (uint64_t nodes = 20000; nodes <= 400000; nodes += 20000) {
        struct search_result a = run_params(s, v, NULL, 0, nodes, 1, &on);
        struct search_result b = run_params(s, v, NULL, 0, nodes, 1, &off);
        CHECK_EQ_U64(a.nodes, b.nodes);
        CHECK_EQ_INT(a.depth, b.depth);
        CHECK(movegen_is_legal(&p, a.best));
        differ += a.best != b.best;
    }
    CHECK(differ > 0);
    struct search_result a = run_params(s, v, NULL, 7, 0, 1, &on);
    struct search_result b = run_params(s, v, NULL, 7, 0, 1, &off);
    CHECK(a.nodes == b.nodes && a.best == b.best && a.score == b.score);
}

/*
 * sq_mob: while the defenders have few moves, an attacker move landing where one of them could
 * go is neither reduced nor pruned, so a squeeze is seen sooner: the encirclement in 7 of a king
 * and one man, tactics-mined.tsv line 227 (e1g1), at depth 7 with the classical evaluation (at 9
 * without). (Classical, so that a new network does not move the test: with generation 12's
 * network line 313's squeeze to no moves showed at depth 11 against 12, with generation 14's at
 * 12 either way.)
 */
static void squeeze_not_reduced(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.sq_mob = 12;
    off.sq_mob = 0;
    win_needs_in(s, "copenhagen", "11/11/5aa4/4a2a3/3a3kaa1/2a7a/2a8/3a3d2a/4a4a1/4a3a2/4a2a3 a", 7,
                 7, "e1g1", &on, &off, false);
    /* in the opening the rule has nothing to do: the defenders have many moves */
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result a = run_params(s, v, NULL, 7, 0, 1, &on);
    struct search_result b = run_params(s, v, NULL, 7, 0, 1, &off);
    CHECK(a.nodes == b.nodes && a.best == b.best);
}

/*
 * rfp_size: reverse futility's margin grows with the evaluation's size, so a defenders' node
 * several men down is not left standing on its evaluation while a slow win closes in: the
 * squeeze to no moves in 7 of tactics-mined.tsv line 313 (c5b5) at depth 7 with Copenhagen's
 * network (generation 16; at 12 without). With generation 15 the encirclement in 5 of line 225
 * served (depth 4 with it, 8 without); generation 16 finds that one at 4 either way.
 */
static void rfp_size_widens(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_size = 50;
    off.rfp_size = 0;
    win_needs_in(s, "copenhagen", squeeze_313, 7, 7, "c5b5", &on, &off, true);
}

/*
 * rfp_near: no reverse futility at a node reached by a move that landed near the king, so a
 * slow capture of him is not left standing on the evaluation: Brandubh's capture of the king in
 * 5 of tactics-mined.tsv line 67 at depth 6 with Brandubh's network (at 11 without); and its
 * narrower forms, by the side to move (rfp_near_side) and the king's distance from the edge
 * (rfp_near_edge).
 */
static void rfp_near_king(struct search *s) {
    struct search_params on = search_default_params, off = search_default_params;
    on.rfp_near = 3;
    off.rfp_near = 0;
    win_needs_in(s, "brandubh", "7/7/7/a3a2/2a4/1d1aa2/2akd2 a", 5, 6, "e4b4", &on, &off, true);
    /* the capture needs the defenders' nodes kept (rfp_near_side 2), not the attackers' (1);
       the king stands on the edge, so rfp_near_edge 1 keeps it */
    on.rfp_near_side = 2;
    on.rfp_near_edge = 1;
    off = on;
    off.rfp_near_side = 1;
    win_needs_in(s, "brandubh", "7/7/7/a3a2/2a4/1d1aa2/2akd2 a", 5, 6, "e4b4", &on, &off, true);
    /* line 41, an escape in 9 by a king two squares from the edge: found at depth 6 with
       rfp_near_edge 3, not with 2 (12 without rfp_near) */
    on = search_default_params;
    on.rfp_near = 3;
    on.rfp_near_edge = 3;
    off = on;
    off.rfp_near_edge = 2;
    win_needs_in(s, "brandubh", "7/3a1a1/3k1a1/aa2da1/2d1da1/3a3/7 d", 9, 6, "c3c6", &on, &off,
                 true);
}

/* The same search twice gives the same nodes and move (one thread). */
static void determinism(struct search *s) {
    const struct variant *v = variant_by_name("copenhagen");
    struct search_result a = run(s, v, NULL, 6, 0, 1);
    struct search_result b = run(s, v, NULL, 6, 0, 1);
    CHECK(a.nodes > 0);
    CHECK_EQ_U64(a.nodes, b.nodes);
    CHECK_EQ_INT(a.best, b.best);
    CHECK_EQ_INT(a.score, b.score);
    /* a node limit is honoured within a small margin */
    struct search_result c = run(s, v, NULL, 0, 20000, 1);
    CHECK(c.nodes >= 20000 && c.nodes < 20000 + 5000);
    CHECK(c.best != MOVE_NONE);
    /* two threads reach the same depth and give a legal move */
    struct search_result d = run(s, v, NULL, 6, 0, 2);
    CHECK_EQ_INT(d.depth, 6);
    struct position p;
    pos_init_start(&p, v);
    CHECK(movegen_is_legal(&p, d.best));
}

/*
 * Time limits: a fixed move time is used whole (the move overhead is for clocks only), so the
 * search returns no sooner than it; a clock's search returns with a move. Only lower bounds are
 * checked: how much later a loaded machine lets the search see its clock is not the search's
 * doing, so no upper bound on time is asserted (a search that never stopped would hang the test).
 */
static void time_limit(struct search *s) {
    const struct variant *v = variant_by_name("copenhagen");
    struct tafl_game *t = tafl_new(v);
    struct search_options opt;
    search_options_default(&opt);
    opt.move_overhead_ms = 150;
    struct search_limits lim = {.movetime_ms = 200, .time_ms = {-1, -1}};
    struct search_result r;
    search_run(s, t, &lim, &opt, NULL, &r);
    CHECK(r.time_ms >= 200);
    CHECK(r.best != MOVE_NONE);
    /* a clock: 1 s left with no increment */
    struct search_limits clock = {.time_ms = {1000, 1000}, .inc_ms = {0, 0}};
    search_run(s, t, &clock, &opt, NULL, &r);
    CHECK(r.best != MOVE_NONE && r.depth >= 1);
    /* the plain share (tm_stable off) on a clock still plays */
    opt.params.tm_stable = 0;
    search_run(s, t, &clock, &opt, NULL, &r);
    CHECK(r.best != MOVE_NONE && r.depth >= 1);
    tafl_free(t);
}

/*
 * The clock's plan: a share of the time left (30 moves to go unless told) plus three quarters of
 * the increment, a hard deadline of four shares within four fifths of the clock; and tm_stable's
 * scaling of the soft deadline, from 70% (a settled move) up to 250%.
 */
static void time_plan(void) {
    struct timeman tm;
    struct search_limits clock = {.time_ms = {30030, 60030}, .inc_ms = {1000, 0}};
    tm_start(&tm, &clock, 30, SIDE_ATTACKERS);
    CHECK_EQ_INT(tm.soft_ms, 1000 + 750);
    CHECK_EQ_INT(tm.hard_ms, 7000);
    tm_start(&tm, &clock, 30, SIDE_DEFENDERS);
    CHECK_EQ_INT(tm.soft_ms, 2000);
    CHECK_EQ_INT(tm.hard_ms, 8000);
    struct search_limits low = {.time_ms = {100, 100}, .inc_ms = {0, 0}, .movestogo = 1};
    tm_start(&tm, &low, 30, SIDE_ATTACKERS);
    CHECK_EQ_INT(tm.hard_ms, 56);
    CHECK_EQ_INT(tm.soft_ms, 56);
    tm.soft_ms = 1000;
    CHECK_EQ_INT(tm_soft_scaled(&tm, 0, 0), 700);
    CHECK_EQ_INT(tm_soft_scaled(&tm, 0, -40), 700);
    CHECK_EQ_INT(tm_soft_scaled(&tm, 100, 0), 1300);
    CHECK_EQ_INT(tm_soft_scaled(&tm, 50, 30), 1300);
    CHECK_EQ_INT(tm_soft_scaled(&tm, 200, 100), 2500);
    CHECK_EQ_INT(tm_soft_scaled(&tm, 200, 5000), 2500);
    tm.soft_ms = 0;
    CHECK_EQ_INT(tm_soft_scaled(&tm, 100, 0), 0);
}

/* The first move and score of each MultiPV line, as the callbacks report them. */
static int lines_seen;
static move_t first_moves[8];
static int line_scores[8];

/* Keeps the depth-4 line of every MultiPV slot. */
static void on_line(const struct search_line *l, void *ctx) {
    (void)ctx;
    if (l->depth == 4 && l->multipv <= 8) {
        first_moves[l->multipv - 1] = l->pv[0];
        line_scores[l->multipv - 1] = l->score;
        lines_seen++;
    }
}

/* MultiPV gives distinct first moves, best first. */
static void multipv(struct search *s) {
    const struct variant *v = variant_by_name("brandubh");
    struct tafl_game *t = tafl_new(v);
    struct search_options opt;
    search_options_default(&opt);
    opt.multipv = 3;
    struct search_limits lim = {.depth = 4, .time_ms = {-1, -1}};
    struct search_callbacks cb = {.on_iteration = on_line};
    struct search_result r;
    search_clear(s);
    search_run(s, t, &lim, &opt, &cb, &r);
    CHECK_EQ_INT(lines_seen, 3);
    CHECK(first_moves[0] != first_moves[1] && first_moves[1] != first_moves[2] &&
          first_moves[0] != first_moves[2]);
    CHECK(line_scores[0] >= line_scores[1] && line_scores[1] >= line_scores[2]);
    CHECK_EQ_INT(r.best, first_moves[0]);
    tafl_free(t);
}

/* Keeps the latest line of every MultiPV slot, whatever its depth. */
static void on_any_line(const struct search_line *l, void *ctx) {
    (void)ctx;
    if (l->multipv <= 8) {
        first_moves[l->multipv - 1] = l->pv[0];
        line_scores[l->multipv - 1] = l->score;
        lines_seen = l->multipv > lines_seen ? l->multipv : lines_seen;
    }
}

/* MultiPV with two wins in one lists each once, then a third, different move. */
static void multipv_wins(struct search *s) {
    const struct variant *v = variant_by_name("copenhagen");
    struct position p;
    char err[200];
    CHECK(fen_parse(&p, v,
                    "2a2a5/5a5/7a3/1a1d2a2a1/4aa4a/3ak2d1aa/2aa2d1a2/4adda2a/1a4a4/11/4aa5 a", err,
                    sizeof err));
    struct tafl_game *t = tafl_new(v);
    tafl_reset(t, &p);
    struct search_options opt;
    search_options_default(&opt);
    opt.multipv = 3;
    struct search_limits lim = {.depth = 4, .time_ms = {-1, -1}};
    struct search_callbacks cb = {.on_iteration = on_any_line};
    struct search_result r;
    lines_seen = 0;
    search_clear(s);
    search_run(s, t, &lim, &opt, &cb, &r);
    CHECK_EQ_INT(lines_seen, 3);
    CHECK(first_moves[0] != first_moves[1] && first_moves[1] != first_moves[2] &&
          first_moves[0] != first_moves[2]);
    CHECK_EQ_INT(line_scores[0], SCORE_WIN - 1);
    CHECK_EQ_INT(line_scores[1], SCORE_WIN - 1);
    CHECK(line_scores[2] < SCORE_WIN - 1);
    tafl_free(t);
}

/* Growing the pool after a table clear starts the new threads idle (they once redid the clear). */
static void pool_growth(struct search *s) {
    const struct variant *v = variant_by_name("brandubh");
    for (int round = 0; round < 4; round++)
        for (int threads = 1; threads <= 8; threads++) {
            search_clear(s); /* a job for the pool of the previous size */
            struct search_result r = run(s, v, NULL, 3, 0, threads);
            CHECK(r.best != MOVE_NONE);
            CHECK_EQ_INT(r.depth, 3);
        }
    struct search_result r = run(s, v, NULL, 3, 0, 1);
    CHECK(r.best != MOVE_NONE);
}

/* Counts its calls in *(int *)ctx (a resize hook). */
static void count_call(void *ctx) {
    ++*(int *)ctx;
}

/* Mate scores are stored relative to the node and read back at any ply. */
static void tt_scores(void) {
    for (int ply = 0; ply < 60; ply += 7)
        for (int plies = 1; plies < 40; plies += 3) {
            int win = SCORE_WIN - plies - ply, loss = -win;
            CHECK_EQ_INT(tt_score_from(tt_score_to(win, ply), ply), win);
            CHECK_EQ_INT(tt_score_from(tt_score_to(loss, ply), ply), loss);
            /* the stored value is the distance from the node */
            CHECK_EQ_INT(tt_score_to(win, ply), SCORE_WIN - plies);
        }
    CHECK_EQ_INT(tt_score_to(123, 9), 123);
    struct tt tt = {0};
    CHECK(tt_resize(&tt, 1));
    tt_new_search(&tt);
    tt_store(&tt, 0x1234567890abcdefULL, move_make(3, 25), -456, 77, 9, TT_LOWER);
    struct tt_hit h;
    CHECK(tt_probe(&tt, 0x1234567890abcdefULL, &h));
    CHECK(h.move == move_make(3, 25) && h.score == -456 && h.eval == 77 && h.depth == 9 &&
          h.bound == TT_LOWER);
    CHECK(!tt_probe(&tt, 0x1234567890abcdeeULL, &h));
    CHECK(tt_hashfull(&tt) >= 0);
    tt_clear(&tt);
    CHECK(!tt_probe(&tt, 0x1234567890abcdefULL, &h));
    /* a resize is found first, then the hook runs (a protocol stops its search there); a table
       larger than any address space is refused with the old one kept and no hook called */
    int calls = 0;
    CHECK(tt_resize_then(&tt, 2, count_call, &calls));
    CHECK_EQ_INT(calls, 1);
    tt_store(&tt, 0x1234567890abcdefULL, move_make(3, 25), -456, 77, 9, TT_LOWER);
    size_t buckets = tt.buckets;
    CHECK(!tt_resize_then(&tt, (size_t)1 << 27, count_call, &calls));
    CHECK_EQ_INT(calls, 1);
    CHECK(tt.buckets == buckets && tt_probe(&tt, 0x1234567890abcdefULL, &h) && h.score == -456);
    tt_free(&tt);
}

/* Tells whether every entry of the table is zero. */
static bool table_empty(const struct tt *tt) {
    for (size_t i = 0; i < tt->buckets * 4; i++)
        if (tt->entries[i].check || tt->entries[i].data) return false;
    return true;
}

/*
 * Checks that clearing empties the table after few stores, many stores, and in slices, with one
 * map of written buckets and with several (four writers, some sharing a map), also when the
 * number of maps changes between the stores and the clear.
 */
static void tt_clearing(void) {
    struct tt tt = {0};
    CHECK(tt_resize(&tt, 1));
    CHECK(table_empty(&tt));
    uint64_t key = 0x9e3779b97f4a7c15ULL;
    const int counts[] = {100, 60000, 3000, 3000, 60000};
    for (int round = 0; round < 5; round++) {
        tt_new_search(&tt);
        for (int i = 0; i < counts[round]; i++) {
            key = key * 6364136223846793005ULL + 1442695040888963407ULL;
            tt_store_by(&tt, i % 4, key, move_make(i % 100, 100), i % 1000, 0, 1 + i % 20,
                        TT_EXACT);
        }
        CHECK(!table_empty(&tt));
        CHECK(tt_probe(&tt, key, &(struct tt_hit){0}));
        if (round == 2) {
            /* in slices; then three maps for the next round */
            for (int part = 0; part < 3; part++) tt_clear_part(&tt, part, 3);
            CHECK(tt_set_writers(&tt, 3));
        } else if (round == 3) {
            /* marks in three maps, kept when the maps become two, then cleared in slices */
            CHECK(tt_set_writers(&tt, 2));
            for (int part = 0; part < 2; part++) tt_clear_part(&tt, part, 2);
        } else {
            tt_clear(&tt); /* few written buckets, or more than a quarter of them */
        }
        CHECK(table_empty(&tt));
        CHECK(!tt_probe(&tt, key, &(struct tt_hit){0}));
    }
    tt_free(&tt);
}

/* Runs every search test. */
/* Tells whether the attackers, standing also on `extra`, shut every defender and the king away
   from the edge (the encirclement's flood). */
static bool shut_in(const struct position *p, bb_t extra) {
    const struct bb_geom *g = &p->v->g;
    return !bb_flood_reaches(g, p->def | p->king, g->board & ~(p->att | extra), g->edge);
}

/* Tells whether the attackers, standing also on `extra`, shut the king away from every corner. */
static bool sealed(const struct position *p, bb_t extra) {
    const struct bb_geom *g = &p->v->g;
    return !bb_flood_reaches(g, p->king, g->board & ~(p->att | extra), p->v->corner_mask);
}

/* Returns the fewest fillable squares (0, 1 or 2) the attackers must also stand on for `done`
   to hold, by trying every set, or 3 for more. */
static int fill_brute(const struct position *p, bool (*done)(const struct position *, bb_t)) {
    const struct variant *v = p->v;
    if (done(p, BB_EMPTY)) return 0;
    bb_t fill = v->g.board & ~(p->att | p->def | p->king | v->throne | v->corner_mask);
    for (bb_t a = fill; bb_any(a);) {
        int x = bb_pop(&a);
        if (done(p, bb_sq(x))) return 1;
    }
    for (bb_t a = fill; bb_any(a);) {
        int x = bb_pop(&a);
        for (bb_t b = a; bb_any(b);) {
            int y = bb_pop(&b);
            if (done(p, bb_sq(x) | bb_sq(y))) return 2;
        }
    }
    return 3;
}

/* The ring's gaps (a minimum cut by augmenting paths) against trying every set of up to two
   squares, on random crowded boards of Copenhagen and Brandubh, and on hand-made rings. */
static void ring_gaps(void) {
    const char *names[] = {"copenhagen", "brandubh"};
    uint64_t rng = 12345;
    int seen[4] = {0}, closing = 0, seen_corner[4] = {0};
    for (int vi = 0; vi < 2; vi++) {
        const struct variant *v = variant_by_name(names[vi]);
        int n = v->size, mid = n / 2;
        for (int round = 0; round < 3000; round++) {
            char fen[400], *f = fen;
            int king = 0, men = 0;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            int kr = 1 + (int)((rng >> 33) % (uint64_t)(n - 2));
            int kf = 1 + (int)((rng >> 45) % (uint64_t)(n - 2));
            int density = 25 + (int)((rng >> 20) % 40);
            for (int r = n - 1; r >= 0; r--) {
                int empty = 0;
                for (int c = 0; c < n; c++) {
                    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                    int roll = (int)((rng >> 33) % 100);
                    bool corner = (r == 0 || r == n - 1) && (c == 0 || c == n - 1);
                    char piece = 0;
                    if (r == kr && c == kf) {
                        piece = 'k';
                        king++;
                    } else if (corner || (r == mid && c == mid)) {
                        piece = 0;
                    } else if (roll < density) {
                        piece = 'a';
                    } else if (roll < density + 3 && men < 2 && r > 0 && r < n - 1 && c > 0 &&
                               c < n - 1) {
                        piece = 'd';
                        men++;
                    }
                    if (!piece) {
                        empty++;
                        continue;
                    }
                    if (empty) f += sprintf(f, "%d", empty);
                    empty = 0;
                    *f++ = piece;
                }
                if (empty) f += sprintf(f, "%d", empty);
                *f++ = r ? '/' : ' ';
            }
            strcpy(f, "a");
            struct position p;
            char err[200];
            if (!fen_parse(&p, v, fen, err, sizeof err)) continue; /* e.g. a king already taken */
            int want = fill_brute(&p, shut_in), got = eval_ring_gaps(&p, p.def | p.king, 3);
            seen[want]++;
            if (got != want) fprintf(stderr, "ring gaps %s: %d, brute force %d\n", fen, got, want);
            CHECK_EQ_INT(got, want);
            /* the corners' seal: the same cut, from the king to the corners, men kept */
            int want_c = fill_brute(&p, sealed), got_c = eval_corner_gaps(&p, 3);
            seen_corner[want_c]++;
            if (got_c != want_c)
                fprintf(stderr, "corner gaps %s: %d, brute force %d\n", fen, got_c, want_c);
            CHECK_EQ_INT(got_c, want_c);
            /* the squares the flow passes through hold every square whose filling closes a
               gap (the search's ring_men looks only there) */
            bb_t carried;
            CHECK_EQ_INT(eval_ring_flow(&p, p.def | p.king, 3, &carried), got);
            bb_t fillable = v->g.board & ~(pos_occupied(&p) | v->throne | v->corner_mask);
            for (bb_t e = got > 0 && got < 3 ? fillable : BB_EMPTY; bb_any(e);) {
                int sq = bb_pop(&e);
                struct position q = p;
                q.att |= bb_sq(sq);
                if (eval_ring_gaps(&q, q.def | q.king, 3) < got) {
                    closing++;
                    CHECK(bb_has(carried, sq));
                }
            }
        }
    }
    /* every count is met often enough to mean something */
    for (int k = 0; k < 4; k++) CHECK(seen[k] > 50);
    fprintf(stderr, "corner gaps seen: %d %d %d %d\n", seen_corner[0], seen_corner[1],
            seen_corner[2], seen_corner[3]);
    for (int k = 0; k < 4; k++) CHECK(seen_corner[k] > 50);
    CHECK(closing > 100);
    /* hand-made: a closed ring, one gap (d6), a defender in the ring's wall (c6 and e4 to
       fill), two gaps (d6, e4), and a man on the edge */
    const struct variant *cop = variant_by_name("copenhagen");
    static const struct {
        const char *fen;
        int gaps;
    } rings[] = {
        {"11/11/11/3aaa5/2a3a4/3ak1a4/2a3a4/3aaa5/11/11/11 a", 0},
        {"11/11/11/3aaa5/2a3a4/4k1a4/2a3a4/3aaa5/11/11/11 a", 1},
        {"11/11/11/3aaa5/2a3a4/3dk1a4/2a3a4/3a1a5/11/11/11 a", 2},
        {"11/11/11/3aaa5/2a3a4/4k1a4/2a3a4/3a1a5/11/11/11 a", 2},
        {"11/11/11/3aaa5/2a3a4/4k1a4/2a3a4/3a1a5/11/11/1d9 a", 3},
    };
    for (size_t i = 0; i < sizeof rings / sizeof *rings; i++) {
        struct position p;
        char err[200];
        if (!CHECK(fen_parse(&p, cop, rings[i].fen, err, sizeof err))) continue;
        CHECK_EQ_INT(eval_ring_gaps(&p, p.def | p.king, 3), rings[i].gaps);
    }
}

/* The mop-up term: off by default; on, it applies only with the defenders down to mop_men men,
   adds mop_man for each attacker, and reads the same from either side to move. */
static void mop_up_term(void) {
    const struct variant *cop = variant_by_name("copenhagen");
    struct search_options opt;
    search_options_default(&opt);
    opt.net = NULL;
    struct position lone, lone_d, many;
    char err[200];
    if (!CHECK(fen_parse(&lone, cop, "2d1k3a2/7a3/a4a5/2a8/6a3a/a10/4a6/1a9/7a3/11/3a7 a", err,
                         sizeof err)) ||
        !CHECK(fen_parse(&lone_d, cop, "2d1k3a2/7a3/a4a5/2a8/6a3a/a10/4a6/1a9/7a3/11/3a7 d", err,
                         sizeof err)) ||
        !CHECK(fen_parse(&many, cop, "2d1k3a2/7a3/a4a5/2a8/6a3a/a1ddd6/4a6/1a9/7a3/11/3a7 a", err,
                         sizeof err)))
        return;
    CHECK_EQ_INT(opt.params.mop, 0);
    CHECK_EQ_INT(opt.params.mop_man, 0);
    int plain = search_evaluate(&opt, &lone), plain_d = search_evaluate(&opt, &lone_d);
    int plain_many = search_evaluate(&opt, &many);
    opt.params.mop = 1;
    int on = search_evaluate(&opt, &lone), on_d = search_evaluate(&opt, &lone_d);
    CHECK(on != plain);
    CHECK_EQ_INT(on - plain, -(on_d - plain_d));
    CHECK_EQ_INT(search_evaluate(&opt, &many), plain_many); /* four men: no term */
    opt.params.mop_man = 100;
    CHECK_EQ_INT(search_evaluate(&opt, &lone) - on, 100 * bb_popcount(lone.att));
    CHECK_EQ_INT(search_evaluate(&opt, &lone_d) - on_d, -100 * bb_popcount(lone.att));
    CHECK_EQ_INT(search_evaluate(&opt, &many), plain_many);
}

int main(void) {
    struct search *s = search_new(16);
    ring_gaps();
    mop_up_term();
    CHECK(s != NULL);
    tt_scores();
    tt_clearing();
    CHECK_EQ_INT(tactics(s), 60);
    own_positions(s);
    repetition_none(s);
    no_moves_in_quiescence(s);
    fort_near_edge(s);
    fort_at_root(s);
    fort_start_unreduced(s);
    king_capture_unpruned(s);
    squeeze_unpruned(s);
    few_men_unpruned(s);
    king_held_unpruned(s);
    ring_unpruned(s);
    held_ring_quiet(s);
    fort_zone_unpruned(s);
    few_men_share(s);
    cont_hist_orders(s);
    lmr_hist_adjusts(s);
    corr_hist_corrects(s);
    singular_extends(s);
    partial_root_plays(s);
    squeeze_not_reduced(s);
    rfp_size_widens(s);
    rfp_near_king(s);
    determinism(s);
    time_limit(s);
    time_plan();
    multipv(s);
    multipv_wins(s);
    pool_growth(s);
    search_free(s);
    return check_done();
}
