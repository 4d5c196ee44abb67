/*
 * Cross-checks the bitboard rules engine against the naive mailbox reference of
 * reference_mailbox.c on random games of every built-in variant and of the OpenTafl variants whose
 * rules go beyond them (loaded from the rules strings the OpenTafl host sends).
 *
 * At every position of every game both implementations list the legal moves; then every legal
 * move is played by both, and the captured squares, the resulting placement, the side to move,
 * the board-rule end (§4.10 checks 1-4) and the no-legal-move end (§4.9) must agree, and the
 * engine's incremental Zobrist key must equal a key computed from scratch. Where the variant has
 * commanders, knights and berserk turns (OpenTafl's Berserk), which pieces are commanders or
 * knights and the berserker (who keeps the move) are compared with the placement. The played move
 * goes through struct tafl_game as well, whose status (with repetition switched off) must match.
 * Games are partly biased (captures, jumps, attackers next to the king, king to the edge, shutting
 * the defenders in, forts) so that the rare rules fire; the test counts and prints how often each
 * rule fired.
 * Set HNEFI_QUICK for a reduced run (sanitizer builds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/perft.h"
#include "check.h"
#include "data_file.h"
#include "engine/bitboard.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/position.h"
#include "engine/tafl.h"
#include "engine/variant.h"
#include "reference_mailbox.h"

enum { REF_MAX_PLIES = 300, REF_MAX_REPORTS = 12 };

/* Rule-firing counters, over every legal move examined (children) and over games' ends. */
enum ref_counter {
    CNT_ESCAPE,
    CNT_KING_CAPTURED,
    CNT_IMMOBILE_KING,
    CNT_ENCIRCLED,
    CNT_EXIT_FORT,
    CNT_NO_MOVES,
    CNT_SHIELDWALL,
    CNT_LINNAEAN,
    CNT_CAPTURE,
    CNT_JUMP,
    CNT_KING_JUMP,
    CNT_BERSERK,
    CNT_NB
};

static const char *const ref_counter_names[CNT_NB] = {
    "escape",     "king captured", "immobile king", "encirclement", "exit fort", "no moves",
    "shieldwall", "linnaean",      "any capture",   "jump",         "king jump", "berserk turn",
};

struct ref_stats {
    long positions, std_positions, children, games, thinned_games, plies, mismatches;
    long fired[CNT_NB]; /* over every child examined */
    long ended[CNT_NB]; /* games ended by the rule (board and no-move ends only) */
};

static long ref_reports;

/* Advances the splitmix64 state and returns the next pseudo-random number. */
static uint64_t ref_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Returns a pseudo-random number below n (n > 0). */
static int ref_below(uint64_t *state, int n) {
    return (int)(ref_rand(state) % (uint64_t)n);
}

/* Orders moves ascending for qsort. */
static int ref_cmp_move(const void *a, const void *b) {
    return (int)*(const move_t *)a - (int)*(const move_t *)b;
}

/* Builds the engine's bitboards of a reference board (spec: its commanders and knights). */
static void ref_to_bb(const struct ref_board *b, bb_t *att, bb_t *def, bb_t *king, bb_t *spec) {
    *att = *def = *king = *spec = BB_EMPTY;
    for (int s = 0; s < b->n * b->n; s++) {
        if (b->spec[s]) *spec |= bb_sq(s);
        if (b->cell[s] == REF_ATT)
            *att |= bb_sq(s);
        else if (b->cell[s] == REF_DEF)
            *def |= bb_sq(s);
        else if (b->cell[s] == REF_KING)
            *king |= bb_sq(s);
    }
}

/* Tells whether an engine position and a reference board hold the same placement (commanders and
   knights included), side to move and berserker. */
static bool ref_same_board(const struct position *p, const struct ref_board *b) {
    bb_t att, def, king, spec;
    ref_to_bb(b, &att, &def, &king, &spec);
    return bb_eq(p->att, att) && bb_eq(p->def, def) && bb_eq(p->king, king) &&
           bb_eq(p->spec, spec) && p->side == b->side && pos_berserker(p) == b->berserker;
}

/* Prints a disagreement (the first few only) and counts it. */
static void ref_report(struct ref_stats *st, const struct position *p, move_t m, const char *what,
                       long eng, long ref) {
    st->mismatches++;
    if (ref_reports++ >= REF_MAX_REPORTS) return;
    char fen[FEN_MAX], mv[MOVE_TEXT_MAX] = "-";
    fen_write(p, fen);
    if (m != MOVE_NONE) move_write(m, p->v->size, mv);
    fprintf(stderr, "MISMATCH %s: %s\n    fen %s\n    move %s: engine %ld, reference %ld\n",
            p->v->name, what, fen, mv, eng, ref);
}

/* Counts the rule-firing of one move's reference outcome into counters c (child: the board after
   it, whose berserker tells a berserk turn going on). */
static void ref_count(long *c, const struct ref_board *child, move_t m,
                      const struct ref_move_info *info, int result, int reason) {
    if (info->ncapt) c[CNT_CAPTURE]++;
    if (info->jump) c[CNT_JUMP]++;
    if (info->jump && child->cell[move_to(m)] == REF_KING) c[CNT_KING_JUMP]++;
    if (child->berserker >= 0) c[CNT_BERSERK]++;
    if (info->shieldwall) c[CNT_SHIELDWALL]++;
    if (info->linnaean) c[CNT_LINNAEAN]++;
    if (result == RESULT_NONE) return;
    switch (reason) {
    case END_ESCAPE: c[CNT_ESCAPE]++; break;
    case END_KING_CAPTURED: c[CNT_KING_CAPTURED]++; break;
    case END_IMMOBILE_KING: c[CNT_IMMOBILE_KING]++; break;
    case END_ENCIRCLED: c[CNT_ENCIRCLED]++; break;
    case END_EXIT_FORT: c[CNT_EXIT_FORT]++; break;
    case END_NO_MOVES: c[CNT_NO_MOVES]++; break;
    default: break;
    }
}

/* Returns the reference board's king square. */
static int ref_king(const struct ref_board *b) {
    for (int s = 0; s < b->n * b->n; s++)
        if (b->cell[s] == REF_KING) return s;
    return -1;
}

/* Returns the Chebyshev distance between two squares of a board of side n. */
static int ref_dist(int a, int b, int n) {
    int dr = abs(a / n - b / n), df = abs(a % n - b % n);
    return dr > df ? dr : df;
}

/* Returns the distance of sq from the nearest edge of a board of side n. */
static int ref_edge_dist(int sq, int n) {
    int r = sq / n, f = sq % n, d = r;
    if (n - 1 - r < d) d = n - 1 - r;
    if (f < d) d = f;
    if (n - 1 - f < d) d = n - 1 - f;
    return d;
}

/* Per-child data the move pickers use. */
struct ref_child {
    move_t m;
    struct ref_board b;
    struct ref_move_info info;
    int result, reason; /* with §4.9 */
};

/* Game styles that bias the random move choice. */
enum ref_style {
    STYLE_UNIFORM,
    STYLE_TACTICAL,
    STYLE_ENCIRCLE,
    STYLE_FORT,
    STYLE_SMOTHER,
    STYLE_WALL,
    STYLE_NB
};

/* Picks a uniformly random index among the children for which keep[i] holds, else any. */
static int ref_pick_among(uint64_t *rng, const bool *keep, int n) {
    int idx[REF_MAX_MOVES], k = 0;
    for (int i = 0; i < n; i++)
        if (keep[i]) idx[k++] = i;
    return k ? idx[ref_below(rng, k)] : ref_below(rng, n);
}

/* Picks a random index among the children with the lowest score. */
static int ref_pick_min(uint64_t *rng, const int *score, int n) {
    int idx[REF_MAX_MOVES], k = 0, best = 1 << 30;
    for (int i = 0; i < n; i++) {
        if (score[i] < best) best = score[i], k = 0;
        if (score[i] == best) idx[k++] = i;
    }
    return idx[ref_below(rng, k)];
}

/* Writes the orthogonal neighbours of sq on a board of side n into out; returns how many. */
static int ref_nbrs(int sq, int n, int *out) {
    int r = sq / n, f = sq % n, k = 0;
    if (r + 1 < n) out[k++] = sq + n;
    if (r > 0) out[k++] = sq - n;
    if (f + 1 < n) out[k++] = sq + 1;
    if (f > 0) out[k++] = sq - 1;
    return k;
}

/* Scores how closed the squares round the king's group (king and adjacent men) are. */
static int ref_smother_score(const struct ref_board *b) {
    int n = b->n, k = ref_king(b), g[5], ng = 0, score = 0, nb[4], nb2[4];
    bool seen[REF_MAX_SQUARES] = {false};
    g[ng++] = k;
    seen[k] = true;
    for (int i = 0, c = ref_nbrs(k, n, nb); i < c; i++)
        if (b->cell[nb[i]] == REF_DEF) g[ng++] = nb[i], seen[nb[i]] = true;
    for (int j = 0; j < ng; j++)
        for (int i = 0, c = ref_nbrs(g[j], n, nb2); i < c; i++) {
            int s = nb2[i];
            if (seen[s]) continue;
            seen[s] = true;
            score += b->cell[s] == REF_ATT ? 2 : b->cell[s] == REF_EMPTY ? 0 : 1;
        }
    /* Beyond one, the king's neighbours have to be taken first. */
    return ng > 2 ? score - 6 * (ng - 2) : score;
}

/* Returns the Manhattan distance of sq from the centre of a board of side n. */
static int ref_ring_dist(int sq, int n) {
    return abs(sq / n - n / 2) + abs(sq % n - n / 2);
}

/* Counts the attackers on the diamond ring at Manhattan distance n/2 from the centre. */
static int ref_ring_count(const struct ref_board *b) {
    int c = 0;
    for (int s = 0; s < b->n * b->n; s++)
        if (b->cell[s] == REF_ATT && ref_ring_dist(s, b->n) == b->n / 2) c++;
    return c;
}

/* Counts the enemy edge pieces of side s that have a piece of s on their inward square. */
static int ref_wall_score(const struct ref_board *b, int s) {
    int n = b->n, c = 0;
    for (int sq = 0; sq < n * n; sq++) {
        int r = sq / n, f = sq % n, cell = b->cell[sq];
        if (r > 0 && r < n - 1 && f > 0 && f < n - 1) continue;
        if (cell == REF_EMPTY || (cell == REF_ATT) == (s == SIDE_ATTACKERS)) continue;
        int in = r == 0 ? sq + n : r == n - 1 ? sq - n : f == 0 ? sq + 1 : f == n - 1 ? sq - 1 : -1;
        if (in < 0 || b->cell[in] == REF_EMPTY) continue;
        if ((b->cell[in] == REF_ATT) == (s == SIDE_ATTACKERS)) c++;
    }
    return c;
}

/* Chooses the next move of a game of the given style among the n children of b. */
static int ref_choose(uint64_t *rng, int style, const struct ref_board *b,
                      const struct ref_child *ch, int n) {
    bool keep[REF_MAX_MOVES];
    int score[REF_MAX_MOVES];
    int king = ref_king(b), sz = b->n;
    bool att = b->side == SIDE_ATTACKERS;
    /* Where a piece can jump (Berserk), a quarter of the moves is one of the jumps, at random. */
    bool any_jump = false;
    for (int i = 0; i < n; i++) any_jump |= keep[i] = ch[i].info.jump;
    if (any_jump && ref_below(rng, 4) == 0) return ref_pick_among(rng, keep, n);
    int roll = ref_below(rng, 100);
    switch (style) {
    case STYLE_TACTICAL:
        if (roll < 40) {
            for (int i = 0; i < n; i++) keep[i] = ch[i].info.ncapt > 0 || ch[i].result;
            return ref_pick_among(rng, keep, n);
        }
        if (att && roll < 75) {
            for (int i = 0; i < n; i++) keep[i] = ref_dist(move_to(ch[i].m), king, sz) == 1;
            return ref_pick_among(rng, keep, n);
        }
        if (!att && roll < 70) {
            for (int i = 0; i < n; i++)
                keep[i] = move_from(ch[i].m) == king &&
                          ref_edge_dist(move_to(ch[i].m), sz) < ref_edge_dist(king, sz);
            return ref_pick_among(rng, keep, n);
        }
        break;
    case STYLE_ENCIRCLE:
        /* Attackers build the diamond ring |dr| + |df| = n/2 round the throne; the defenders
           stay inside it and capture nothing. */
        if (att && roll < 85) {
            for (int i = 0; i < n; i++)
                score[i] = ch[i].result == RESULT_ATTACKERS ? -1000 : -ref_ring_count(&ch[i].b);
            return ref_pick_min(rng, score, n);
        }
        if (!att && roll < 95) {
            for (int i = 0; i < n; i++)
                keep[i] = ref_ring_dist(move_to(ch[i].m), sz) < sz / 2 && ch[i].info.ncapt == 0;
            return ref_pick_among(rng, keep, n);
        }
        break;
    case STYLE_FORT:
        if (!att && roll < 85) {
            bool king_edge = ref_edge_dist(king, sz) == 0;
            for (int i = 0; i < n; i++) {
                int from = move_from(ch[i].m), to = move_to(ch[i].m);
                if (ch[i].result == RESULT_DEFENDERS && ch[i].reason == END_ESCAPE)
                    keep[i] = false;
                else if (!king_edge)
                    keep[i] = from == king ? ref_edge_dist(to, sz) == 0
                                           : ref_dist(to, king, sz) <= 2 && roll < 30;
                else
                    keep[i] = from != king && ref_dist(to, king, sz) <= 2;
            }
            return ref_pick_among(rng, keep, n);
        }
        break;
    case STYLE_SMOTHER:
        /* Attackers close the squares around the king's group; the king stays put. */
        if (att && roll < 85) {
            for (int i = 0; i < n; i++)
                score[i] = ch[i].result == RESULT_ATTACKERS ? -1000 : -ref_smother_score(&ch[i].b);
            return ref_pick_min(rng, score, n);
        }
        if (!att && roll < 20 && ref_edge_dist(king, sz) > 0) {
            /* Sometimes the king goes to the edge, where he cannot be captured in some
               variants but can be shut in. */
            for (int i = 0; i < n; i++)
                keep[i] = move_from(ch[i].m) == king && ref_edge_dist(move_to(ch[i].m), sz) == 0 &&
                          ch[i].result == RESULT_NONE;
            return ref_pick_among(rng, keep, n);
        }
        if (!att) {
            for (int i = 0; i < n; i++)
                keep[i] = move_from(ch[i].m) != king && ch[i].result == RESULT_NONE &&
                          ch[i].info.ncapt == 0 && ref_dist(move_from(ch[i].m), king, sz) >= 2;
            return ref_pick_among(rng, keep, n);
        }
        break;
    case STYLE_WALL:
        /* Each side stands in front of enemy edge pieces, or lines up its own on the edge. */
        if (roll < 45) {
            for (int i = 0; i < n; i++)
                score[i] = ch[i].info.shieldwall ? -1000 : -ref_wall_score(&ch[i].b, b->side);
            return ref_pick_min(rng, score, n);
        }
        if (roll < 80) {
            for (int i = 0; i < n; i++) {
                int to = move_to(ch[i].m);
                keep[i] = move_from(ch[i].m) != king && ref_edge_dist(to, sz) == 0;
                bool next_own = false;
                int nb[4];
                for (int k = 0, c = ref_nbrs(to, sz, nb); k < c; k++)
                    if (ref_edge_dist(nb[k], sz) == 0 && b->cell[nb[k]] != REF_EMPTY &&
                        (b->cell[nb[k]] == REF_ATT) == att && nb[k] != move_from(ch[i].m))
                        next_own = true;
                keep[i] = keep[i] && next_own;
            }
            return ref_pick_among(rng, keep, n);
        }
        break;
    default: break;
    }
    return ref_below(rng, n);
}

static struct ref_child ref_children[REF_MAX_MOVES];

/* Compares one position and all its children; returns the number of legal moves (or -1). */
static int ref_compare_position(struct ref_stats *st, const struct position *p,
                                const struct ref_board *b) {
    move_t em[MAX_MOVES], rm[REF_MAX_MOVES];
    int ne = movegen_list(p, em), nr = ref_gen_moves(b, rm);
    st->positions++;
    if (ne != nr) {
        ref_report(st, p, MOVE_NONE, "number of legal moves", ne, nr);
        return -1;
    }
    int cm = movegen_count(p);
    if (cm != nr) ref_report(st, p, MOVE_NONE, "movegen_count", cm, nr);
    if (movegen_has_move(p) != (nr > 0))
        ref_report(st, p, MOVE_NONE, "movegen_has_move", movegen_has_move(p), nr > 0);
    qsort(em, (size_t)ne, sizeof em[0], ref_cmp_move);
    qsort(rm, (size_t)nr, sizeof rm[0], ref_cmp_move);
    for (int i = 0; i < nr; i++)
        if (em[i] != rm[i]) {
            ref_report(st, p, rm[i], "legal move lists differ here (engine move)", em[i], rm[i]);
            return -1;
        }
    bb_t patt, pdef, pking, pspec;
    ref_to_bb(b, &patt, &pdef, &pking, &pspec);
    if (!ref_same_board(p, b)) {
        ref_report(st, p, MOVE_NONE, "placement", 0, 1);
        return -1;
    }
    for (int i = 0; i < nr; i++) {
        struct ref_child *c = &ref_children[i];
        struct position child;
        c->m = rm[i];
        ref_make(b, &c->b, rm[i], &c->info);
        bb_t eng_capt = make_move(&child, p, rm[i]);
        st->children++;
        bb_t ref_capt = BB_EMPTY;
        for (int k = 0; k < c->info.ncapt; k++) ref_capt |= bb_sq(c->info.capt[k]);
        if (!bb_eq(eng_capt, ref_capt))
            ref_report(st, p, rm[i], "captured squares (count)", bb_popcount(eng_capt),
                       c->info.ncapt);
        /* The child's placement: the parent's, with the piece moved and the captures gone; a
           commander or knight stays one. */
        bb_t ea = patt & ~ref_capt, ed = pdef & ~ref_capt, ek = pking, es = pspec & ~ref_capt;
        bb_t fb = bb_sq(move_from(rm[i])), tb = bb_sq(move_to(rm[i]));
        if (bb_any(patt & fb))
            ea = (ea & ~fb) | tb;
        else if (bb_any(pdef & fb))
            ed = (ed & ~fb) | tb;
        else
            ek = tb;
        if (bb_any(pspec & fb)) es = (es & ~fb) | tb;
        if (!bb_eq(child.att, ea) || !bb_eq(child.def, ed) || !bb_eq(child.king, ek) ||
            !bb_eq(child.spec, es))
            ref_report(st, p, rm[i], "placement after the move", 0, 1);
        if (child.side != c->b.side)
            ref_report(st, p, rm[i], "side to move after the move", child.side, c->b.side);
        if (pos_berserker(&child) != c->b.berserker)
            ref_report(st, p, rm[i], "berserker after the move (square)", pos_berserker(&child),
                       c->b.berserker);
        if (child.key != pos_compute_key(&child))
            ref_report(st, p, rm[i], "incremental key differs from scratch key", 0, 1);
        if (child.result != c->info.result || child.reason != c->info.reason)
            ref_report(st, p, rm[i], "board-rule end (result*10+reason)",
                       child.result * 10 + child.reason, c->info.result * 10 + c->info.reason);
        c->result = c->info.result;
        c->reason = c->info.reason;
        if (c->result == RESULT_NONE) {
            /* §4.9 for every child: the engine's move count of the child must match. */
            ref_no_moves_end(&c->b, &c->result, &c->reason);
            int ec = movegen_count(&child);
            if (movegen_has_move(&child) != (ec > 0))
                ref_report(st, p, rm[i], "child: movegen_has_move against movegen_count",
                           movegen_has_move(&child), ec > 0);
            if ((ec == 0) != (c->reason == END_NO_MOVES))
                ref_report(st, p, rm[i], "child has no legal move (engine movegen_count)", ec,
                           c->reason == END_NO_MOVES);
        }
        ref_count(st->fired, &c->b, c->m, &c->info, c->result, c->reason);
    }
    return nr;
}

/* Writes a reference board as a TaflZero FEN into out (FEN_MAX bytes), with its commanders and
   knights and the berserker after the side to move. */
static void ref_write_fen(const struct ref_board *b, char *out) {
    int len = 0;
    for (int r = b->n - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < b->n; f++) {
            int c = b->cell[r * b->n + f];
            if (c == REF_EMPTY) {
                empty++;
                continue;
            }
            if (empty) len += sprintf(out + len, "%d", empty), empty = 0;
            bool spec = b->spec[r * b->n + f];
            out[len++] = c == REF_ATT   ? (spec ? 'c' : 'a')
                         : c == REF_DEF ? (spec ? 'n' : 'd')
                                        : 'k';
        }
        if (empty) len += sprintf(out + len, "%d", empty);
        if (r) out[len++] = '/';
    }
    len += sprintf(out + len, " %c", b->side == SIDE_ATTACKERS ? 'a' : 'd');
    if (b->berserker >= 0)
        sprintf(out + len, " %c%d", 'a' + b->berserker % b->n, b->berserker / b->n + 1);
}

/*
 * Plays one random game of variant v in the given style, comparing at every position. A thinned
 * game starts from the start position with some pieces removed at random (never the king), which
 * makes the king's endings and the rare captures come up more often.
 */
static void ref_play_game(struct ref_stats *st, const struct variant *v, struct tafl_game *t,
                          uint64_t *rng, int style, bool thin) {
    struct position p;
    struct ref_board b;
    pos_init_start(&p, v);
    char start[FEN_MAX];
    fen_write_start(v, start);
    if (!ref_from_fen(&b, v, start) || !ref_same_board(&p, &b)) {
        ref_report(st, &p, MOVE_NONE, "start position", 0, 1);
        return;
    }
    if (thin) {
        int keep_def = style == STYLE_SMOTHER ? ref_below(rng, 40) : 20 + ref_below(rng, 60);
        int keep_att = style == STYLE_TACTICAL ? 5 + ref_below(rng, 30) : 50 + ref_below(rng, 50);
        for (int s = 0; s < b.n * b.n; s++)
            if ((b.cell[s] == REF_DEF && ref_below(rng, 100) >= keep_def) ||
                (b.cell[s] == REF_ATT && ref_below(rng, 100) >= keep_att))
                b.cell[s] = REF_EMPTY, b.spec[s] = false;
        char fen[FEN_MAX], err[128];
        ref_write_fen(&b, fen);
        if (!fen_parse(&p, v, fen, err, sizeof err) || !ref_same_board(&p, &b)) {
            ref_report(st, &p, MOVE_NONE, "thinned start position", 0, 1);
            return;
        }
        st->thinned_games++;
    }
    tafl_reset(t, &p);
    st->games++;
    for (int ply = 0; ply < REF_MAX_PLIES; ply++) {
        const struct position *tp = tafl_pos(t);
        int n = ref_compare_position(st, tp, &b);
        if (n <= 0) return;
        if (!thin) st->std_positions++;
        int i = ref_choose(rng, style, &b, ref_children, n);
        struct ref_child *c = &ref_children[i];
        if (!tafl_play(t, c->m)) return;
        st->plies++;
        b = c->b;
        if (!ref_same_board(tafl_pos(t), &b)) {
            /* the engine's child was checked above; this is the reference's own board */
            ref_report(st, tp, c->m, "placement after the played move (engine, reference)", 0, 1);
            return;
        }
        /* Both write the same FEN (commanders, knights, the berserker), which the reference reads
           back. */
        char efen[FEN_MAX], rfen[FEN_MAX];
        static struct ref_board back;
        fen_write(tafl_pos(t), efen);
        ref_write_fen(&b, rfen);
        if (strcmp(efen, rfen) != 0 || !ref_from_fen(&back, v, efen) ||
            !ref_same_board(tafl_pos(t), &back))
            ref_report(st, tp, c->m, "FEN after the played move (engine's read by the reference)",
                       0, 1);
        if (t->result != c->result || t->reason != c->reason)
            ref_report(st, tp, c->m, "game status after the played move (result*10+reason)",
                       t->result * 10 + t->reason, c->result * 10 + c->reason);
        if (c->result != RESULT_NONE || t->result != RESULT_NONE) {
            ref_count(st->ended, &c->b, c->m, &c->info, c->result, c->reason);
            return;
        }
    }
}

/* Expected option values of one variant, transcribed from rules.md §5. */
struct ref_expect {
    const char *name;
    int size;
    const char *fen;
    enum escape_rule escape;
    bool corners;
    enum throne_who stop, pass;
    unsigned hc, hte, htk;
    bool hek;
    enum king_armed armed;
    enum king_capture kc;
    bool sw, fort, enc, immobile, linn;
    enum repetition_rule rep;
    enum no_moves_rule nm;
};

#define REF_CPH "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a"
#define REF_TAB "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a"
#define REF_ADK (KIND_A | KIND_D | KIND_K)

static const struct ref_expect ref_expects[] = {
    {"copenhagen",       11,           REF_CPH, ESCAPE_CORNER, true,  THRONE_KING,
     THRONE_ALL,         REF_ADK,      REF_ADK, KIND_A,        false, KING_ARMED_YES,
     KING_CAPTURE_FOUR,  true,         true,    true,          false, false,
     REP_LOSS_DEFENDERS, NO_MOVES_LOSS},
    {"fetlar",
     11,
     REF_CPH,
     ESCAPE_CORNER,
     true,
     THRONE_KING,
     THRONE_ALL,
     KIND_A | KIND_D,
     REF_ADK,
     KIND_A,
     false,
     KING_ARMED_YES,
     KING_CAPTURE_FOUR,
     false,
     false,
     false,
     false,
     false,
     REP_DRAW,
     NO_MOVES_DRAW},
    {"tablut", 9,      REF_TAB, ESCAPE_CORNER, true,           THRONE_KING,       THRONE_ALL,
     REF_ADK,  KIND_K, KIND_A,  true,          KING_ARMED_YES, KING_CAPTURE_FOUR, false,
     false,    false,  true,    false,         REP_DRAW,       NO_MOVES_LOSS},
    {"linnaeus",
     9,
     REF_TAB,
     ESCAPE_EDGE,
     false,
     THRONE_NOBODY,
     THRONE_ALL,
     0,
     REF_ADK,
     KIND_A,
     false,
     KING_ARMED_YES,
     KING_CAPTURE_THRONE_FOUR,
     false,
     false,
     false,
     false,
     true,
     REP_DRAW,
     NO_MOVES_DRAW},
    {"brandubh",
     7,
     "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
     ESCAPE_CORNER,
     true,
     THRONE_KING,
     THRONE_ALL,
     REF_ADK,
     REF_ADK,
     KIND_A,
     false,
     KING_ARMED_YES,
     KING_CAPTURE_THRONE_FOUR,
     false,
     false,
     false,
     false,
     false,
     REP_LOSS_DEFENDERS,
     NO_MOVES_LOSS},
};

/* Checks the built-in variants' options against the §5 table. */
static void ref_test_variant_table(void) {
    for (size_t i = 0; i < sizeof ref_expects / sizeof ref_expects[0]; i++) {
        const struct ref_expect *e = &ref_expects[i];
        const struct variant *v = variant_by_name(e->name);
        if (!CHECK(v != NULL)) continue;
        CHECK_EQ_INT(v->size, e->size);
        char start[FEN_MAX];
        fen_write_start(v, start);
        CHECK_EQ_STR(start, e->fen);
        CHECK_EQ_INT(v->escape, e->escape);
        CHECK_EQ_INT(v->corners, e->corners);
        CHECK_EQ_INT(v->throne_stop, e->stop);
        CHECK_EQ_INT(v->throne_pass, e->pass);
        /* Fetlar's K in hostile_corner is moot (§5), so only A and D are compared there. */
        unsigned hc_mask = strcmp(e->name, "fetlar") == 0 ? (KIND_A | KIND_D) : REF_ADK;
        CHECK_EQ_INT(v->hostile_corner & hc_mask, e->hc);
        CHECK_EQ_INT(v->hostile_throne_empty, e->hte);
        CHECK_EQ_INT(v->hostile_throne_king, e->htk);
        CHECK_EQ_INT(v->hostile_edge_king, e->hek);
        CHECK_EQ_INT(v->king_armed, e->armed);
        CHECK_EQ_INT(v->king_capture, e->kc);
        CHECK_EQ_INT(v->shieldwall, e->sw);
        if (e->sw) {
            CHECK(v->sw_corner);
            CHECK(v->sw_flank_only);
        }
        CHECK_EQ_INT(v->exit_fort, e->fort);
        CHECK_EQ_INT(v->encirclement, e->enc);
        CHECK_EQ_INT(v->immobile_king, e->immobile);
        CHECK_EQ_INT(v->linnaean, e->linn);
        CHECK_EQ_INT(v->repetition, e->rep);
        CHECK_EQ_INT(v->no_moves, e->nm);
    }
}

/* One checked example of rules.md §7. */
struct ref_example {
    const char *variant, *fen, *move;
    const char *captures; /* captured squares, space separated */
    int result, reason;   /* after all of §4.10 (repetition off) */
};

static const struct ref_example ref_examples[] = {
    {"copenhagen", "11/11/11/11/11/11/11/11/11/8aa1/4a3kd1 a", "e1h1", "j1", RESULT_NONE, END_NONE},
    {"copenhagen", "11/11/11/11/11/5k5/5d5/1a9/11/11/11 a", "b4f4", "", RESULT_NONE, END_NONE},
    {"copenhagen", "11/11/11/11/11/11/5d5/1a9/11/11/5k5 a", "b4f4", "f5", RESULT_NONE, END_NONE},
    {"copenhagen", "11/11/11/11/11/11/4aka4/11/5a5/11/11 a", "f3f4", "", RESULT_ATTACKERS,
     END_KING_CAPTURED},
    {"copenhagen", "11/11/11/11/11/11/11/11/4a6/11/3aka5 a", "e3e2", "", RESULT_ATTACKERS,
     END_NO_MOVES},
    {"copenhagen", "11/11/2a8/11/11/11/6d4/11/11/4dd5/3dk6 d", "g5g1", "", RESULT_DEFENDERS,
     END_EXIT_FORT},
    {"brandubh", "7/7/7/7/7/1ak3a/7 a", "g2d2", "", RESULT_ATTACKERS, END_KING_CAPTURED},
    {"brandubh", "7/7/7/7/2ak2a/7/7 a", "g3e3", "", RESULT_NONE, END_NONE},
    {"brandubh", "7/7/7/7/7/7/1k3a1 a", "f1c1", "", RESULT_ATTACKERS, END_KING_CAPTURED},
    {"tablut", "9/9/9/9/9/9/3a5/9/2aka4 a", "d3d2", "", RESULT_ATTACKERS, END_KING_CAPTURED},
    {"tablut", "9/9/9/9/1a7/9/9/9/1ka6 a", "b5b2", "", RESULT_ATTACKERS, END_KING_CAPTURED},
    {"tablut", "9/9/9/9/9/9/7a1/3ada3/3aka3 a", "h3e3", "", RESULT_ATTACKERS, END_IMMOBILE_KING},
};

/* Reads a square name like "e1" on a board of side n; returns -1 if malformed. */
static int ref_sq_from_text(const char *s, int n, int *used) {
    if (s[0] < 'a' || s[0] >= 'a' + n) return -1;
    int r = 0, k = 1;
    while (s[k] >= '0' && s[k] <= '9') r = r * 10 + (s[k++] - '0');
    if (r < 1 || r > n) return -1;
    *used = k;
    return (r - 1) * n + (s[0] - 'a');
}

/* Checks the §7 examples on both the reference and the engine. */
static void ref_test_examples(void) {
    for (size_t i = 0; i < sizeof ref_examples / sizeof ref_examples[0]; i++) {
        const struct ref_example *e = &ref_examples[i];
        const struct variant *base = variant_by_name(e->variant);
        if (!CHECK(base != NULL)) continue;
        struct variant v = *base;
        v.repetition = REP_NONE;
        variant_finish(&v);
        struct ref_board b, rb;
        struct ref_move_info info;
        struct position p;
        char err[128];
        if (!CHECK(ref_from_fen(&b, &v, e->fen))) continue;
        if (!CHECK(fen_parse(&p, &v, e->fen, err, sizeof err))) continue;
        int u1 = 0, u2 = 0;
        int from = ref_sq_from_text(e->move, v.size, &u1);
        int to = ref_sq_from_text(e->move + u1, v.size, &u2);
        move_t m = move_make(from, to);
        bb_t expect = BB_EMPTY;
        for (const char *c = e->captures; *c;) {
            if (*c == ' ') {
                c++;
                continue;
            }
            int u, s = ref_sq_from_text(c, v.size, &u);
            if (!CHECK(s >= 0)) break;
            expect |= bb_sq(s);
            c += u;
        }
        /* Reference. */
        ref_make(&b, &rb, m, &info);
        int result = info.result, reason = info.reason;
        ref_no_moves_end(&rb, &result, &reason);
        bb_t got = BB_EMPTY;
        for (int k = 0; k < info.ncapt; k++) got |= bb_sq(info.capt[k]);
        if (!CHECK(bb_eq(got, expect) && result == e->result && reason == e->reason))
            fprintf(stderr, "    reference, example %zu (%s %s)\n", i, e->variant, e->move);
        /* Engine. */
        struct tafl_game *t = tafl_new(&v);
        if (!CHECK(t != NULL)) continue;
        tafl_reset(t, &p);
        CHECK(tafl_play(t, m));
        if (!CHECK(bb_eq(t->captures[0], expect) && t->result == e->result &&
                   t->reason == e->reason))
            fprintf(stderr, "    engine, example %zu (%s %s)\n", i, e->variant, e->move);
        tafl_free(t);
    }
}

/* Reads OpenTafl variant number `number` of tests/data/opentafl-variants.tsv (the rules strings
   the host sends) into v; false if it is missing or does not load. */
static bool ref_load_opentafl(int number, struct variant *v) {
    char rules[4096], err[200];
    if (!data_opentafl_rules(number, rules, sizeof rules)) return false;
    bool ok = opentafl_read_rules(v, rules, err, sizeof err);
    if (!ok) fprintf(stderr, "    OpenTafl variant %d: %s\n", number, err);
    return ok;
}

/* One checked Berserk example of docs/rules.md: the captures, end, side to move and berserker
   ("-": none) after the move. */
struct ref_berserk_example {
    const char *fen, *move, *captures;
    int result, reason, side;
    const char *berserker;
};

static const struct ref_berserk_example ref_berserk_examples[] = {
    /* the knight's jump takes the man jumped; it cannot capture again */
    {"2a8/d1d7d/5a4c/d10/c4a5/5kc4/4n6/4a6/11/4c6/11 d", "e5e3", "e4", RESULT_NONE, END_NONE,
     SIDE_ATTACKERS, "-"},
    /* a commander's jump over a8 leaves him, takes a10 against the corner, and goes on berserk
       (a9c9 would take c10) */
    {"2a8/d1d7d/5a4c/d10/c4a5/5kc4/11/11/4n6/4c6/11 a", "a7a9", "a10", RESULT_NONE, END_NONE,
     SIDE_ATTACKERS, "a9"},
    {"2a8/2d7d/c4a4c/d10/5a5/5kc4/11/11/4n6/4c6/11 a a9", "a9c9", "c10", RESULT_NONE, END_NONE,
     SIDE_DEFENDERS, "-"},
    /* the king jumps out of the throne over f7, who is taken against the empty throne; f8k8
       would take k9 */
    {"2a8/10d/2c2a4c/d10/5a5/5kc4/11/11/4n6/4c6/11 d", "f6f8", "f7", RESULT_NONE, END_NONE,
     SIDE_DEFENDERS, "f8"},
    /* the king jumps onto a corner */
    {"11/11/11/11/11/6c4/11/11/k10/a10/11 d", "a3a1", "", RESULT_DEFENDERS, END_ESCAPE,
     SIDE_ATTACKERS, "-"},
    /* a commander takes the king against a corner, or a commander beyond him */
    {"11/11/11/11/11/11/11/11/11/2c8/1k9 a", "c2c1", "", RESULT_ATTACKERS, END_KING_CAPTURED,
     SIDE_DEFENDERS, "-"},
    {"11/11/11/11/11/2ck2c4/11/11/11/11/11 a", "g6e6", "", RESULT_ATTACKERS, END_KING_CAPTURED,
     SIDE_DEFENDERS, "-"},
    /* four men do not take him, nor a man arriving, nor commanders while he is on the throne or
       across the throne */
    {"11/11/11/11/11/11/11/2a8/1aka7/11/2a8 a", "c1c2", "", RESULT_NONE, END_NONE, SIDE_DEFENDERS,
     "-"},
    {"11/11/11/11/11/11/11/2c8/2k8/11/2a8 a", "c1c2", "", RESULT_NONE, END_NONE, SIDE_DEFENDERS,
     "-"},
    {"11/11/11/11/5c5/5k5/11/11/11/5c5/11 a", "f2f5", "", RESULT_NONE, END_NONE, SIDE_DEFENDERS,
     "-"},
    {"11/11/11/11/11/4k6/11/11/11/3c7/11 a", "d2d6", "", RESULT_NONE, END_NONE, SIDE_DEFENDERS,
     "-"},
};

/* Checks the Berserk examples on the reference and the engine (whose FEN must be the
   reference's too). */
static void ref_test_berserk(const struct variant *v) {
    for (size_t i = 0; i < sizeof ref_berserk_examples / sizeof ref_berserk_examples[0]; i++) {
        const struct ref_berserk_example *e = &ref_berserk_examples[i];
        struct ref_board b, rb;
        struct ref_move_info info;
        struct position p, q;
        char err[128], efen[FEN_MAX], rfen[FEN_MAX];
        if (!CHECK(ref_from_fen(&b, v, e->fen))) continue;
        if (!CHECK(fen_parse(&p, v, e->fen, err, sizeof err))) continue;
        int u1 = 0, u2 = 0, u3 = 0;
        int from = ref_sq_from_text(e->move, v->size, &u1);
        int to = ref_sq_from_text(e->move + u1, v->size, &u2);
        int berserker = e->berserker[0] == '-' ? -1 : ref_sq_from_text(e->berserker, v->size, &u3);
        move_t m = move_make(from, to), list[REF_MAX_MOVES];
        bool legal = false;
        for (int k = 0, n = ref_gen_moves(&b, list); k < n; k++) legal |= list[k] == m;
        CHECK(legal && movegen_is_legal(&p, m));
        bb_t expect = BB_EMPTY;
        for (const char *c = e->captures; *c;) {
            int u, sq = ref_sq_from_text(c, v->size, &u);
            if (!CHECK(sq >= 0)) break;
            expect |= bb_sq(sq);
            c += u + (c[u] == ' ');
        }
        ref_make(&b, &rb, m, &info);
        bb_t got = BB_EMPTY;
        for (int k = 0; k < info.ncapt; k++) got |= bb_sq(info.capt[k]);
        if (!CHECK(bb_eq(got, expect) && info.result == e->result && info.reason == e->reason &&
                   rb.side == e->side && rb.berserker == berserker))
            fprintf(stderr, "    reference, Berserk example %zu (%s)\n", i, e->move);
        got = make_move(&q, &p, m);
        if (!CHECK(bb_eq(got, expect) && q.result == e->result && q.reason == e->reason &&
                   q.side == e->side && pos_berserker(&q) == berserker))
            fprintf(stderr, "    engine, Berserk example %zu (%s)\n", i, e->move);
        fen_write(&q, efen);
        ref_write_fen(&rb, rfen);
        CHECK_EQ_STR(efen, rfen);
    }
}

/* Counts the positions d plies from b by the reference's own moves (a position whose game ended
   has no children), as perft counts them. */
static uint64_t ref_perft(const struct ref_board *b, int d) {
    move_t moves[REF_MAX_MOVES];
    int n = ref_gen_moves(b, moves);
    if (d == 1) return (uint64_t)n;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        struct ref_board child;
        struct ref_move_info info;
        ref_make(b, &child, moves[i], &info);
        if (info.result == RESULT_NONE) sum += ref_perft(&child, d - 1);
    }
    return sum;
}

/* Checks the engine's perft of v's start position against the reference's, depths 1..depth, and
   prints the table (docs/rules.md publishes it for the variants no one else has counted). */
static void ref_perft_table(const struct variant *v, int depth) {
    struct position p;
    struct ref_board b;
    char start[FEN_MAX];
    pos_init_start(&p, v);
    fen_write_start(v, start);
    if (!CHECK(ref_from_fen(&b, v, start))) return;
    printf("%-10s perft", v->name);
    for (int d = 1; d <= depth; d++) {
        uint64_t engine = perft(&p, d), reference = ref_perft(&b, d);
        CHECK_EQ_U64(engine, reference);
        printf(" d%d %llu", d, (unsigned long long)engine);
    }
    printf("\n");
}

int main(void) {
    bool quick = getenv("HNEFI_QUICK") != NULL;
    long target = quick ? 5000 : 100000;
    /* HNEFI_REF_PERFT=D: only the perft tables, to depth D (a long run for docs/rules.md) */
    int perft_only = getenv("HNEFI_REF_PERFT") ? atoi(getenv("HNEFI_REF_PERFT")) : 0;
    /* the built-in variants, then OpenTafl's variants that need rules beyond them (by number) */
#if HNEFI_WIDE
    /* the wide bitboard: a small board, hnefatafl.org's 13x13, the built-in Alea Evangelii (the
       defenders first), then OpenTafl's Tablut 15x15, Sea Battle 13x13 and Alea Evangelii 19x19
       (sixteen corner squares, the attackers first) */
    const char *names[] = {"brandubh", "copenhagen13", "alea"};
    static const int opentafl[] = {12, 13, 14};
#else
    const char *names[] = {"copenhagen", "fetlar", "tablut", "linnaeus", "brandubh"};
    /* Sea Battle 9 and Tawlbwrdd: no centre square; Foteviken Tablut: fortress squares; Magpie:
       the king moves one square at a time; Berserk: commanders, a knight, jumps, berserk turns */
    static const int opentafl[] = {1, 7, 9, 10, 5};
#endif
    enum {
        NBUILTIN = sizeof names / sizeof names[0],
        NOPENTAFL = sizeof opentafl / sizeof opentafl[0],
    };
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);

    /* the names of the wide build's own variants, known to both builds, are exactly its
       built-in variants beyond 11x11, with their sizes */
    int wide_named = 0, wide_built = 0;
    for (int i = 0; variant_wide_only_name(i); i++) {
        const char *name = variant_wide_only_name(i);
        const struct variant *w = variant_by_name(name);
        CHECK(variant_wide_only(name) > 11);
        CHECK(HNEFI_WIDE ? w && w->size == variant_wide_only(name) : w == NULL);
        wide_named++;
    }
    for (int i = 0; variant_builtin(i); i++) wide_built += variant_builtin(i)->size > 11;
    CHECK(wide_named > 0);
    CHECK_EQ_INT(wide_built, HNEFI_WIDE ? wide_named : 0);

    if (!HNEFI_WIDE) { /* the built-in variants' table and rules.md's examples */
        ref_test_variant_table();
        ref_test_examples();
    }

    for (int vi = 0; vi < NBUILTIN + NOPENTAFL; vi++) {
        /* Repetition off: the board rules and §4.9 are compared, not the history rules. */
        static struct variant v;
        if (vi < NBUILTIN) {
            const struct variant *base = variant_by_name(names[vi]);
            if (!CHECK(base != NULL)) continue;
            v = *base;
        } else if (!CHECK(ref_load_opentafl(opentafl[vi - NBUILTIN], &v))) {
            continue;
        }
        v.repetition = REP_NONE;
        variant_finish(&v);
        if (perft_only > 0) {
            if (vi >= NBUILTIN || v.size > 11) ref_perft_table(&v, perft_only);
            continue;
        }
        if (v.berserk != BERSERK_NONE) ref_test_berserk(&v); /* rules.md's Berserk examples */
        struct tafl_game *t = tafl_new(&v);
        if (!CHECK(t != NULL)) continue;
        struct ref_stats st = {0};
        uint64_t rng = 0x5eed0000ULL + (uint64_t)vi;
        /* Every fourth round of styles, and every other smother game, starts thinned. */
        /* the built-in alea has variant 14's rules but its first mover (tests/test_rules.c):
           half the positions, where variant 14 has them all (the quick run: all) */
        long want = strcmp(v.name, "alea") == 0 && !quick ? target / 2 : target;
        for (long g = 0; st.std_positions < want && st.mismatches < 1000; g++)
            ref_play_game(&st, &v, t, &rng, (int)(g % STYLE_NB),
                          (g / STYLE_NB) % 4 == 3 || (g % STYLE_NB == STYLE_SMOTHER && g % 2));
        tafl_free(t);
        /* depth 4 of the boards beyond 11x11 (over 10^9 mailbox moves) only in the long run */
        if (vi >= NBUILTIN || v.size > 11)
            ref_perft_table(&v, quick ? 2 : v.size <= 11 || getenv("HNEFI_LONG") ? 4 : 3);

        printf("%-10s %ld positions (%ld from the start position, the rest from thinned starts), "
               "%ld moves compared, %ld games (%ld thinned), %ld mismatches\n",
               v.name, st.positions, st.std_positions, st.children, st.games, st.thinned_games,
               st.mismatches);
        printf("  fired over all moves:");
        for (int c = 0; c < CNT_NB; c++) printf(" %s %ld;", ref_counter_names[c], st.fired[c]);
        printf("\n  games ended by:");
        for (int c = 0; c < CNT_NO_MOVES + 1; c++)
            printf(" %s %ld;", ref_counter_names[c], st.ended[c]);
        printf("\n");
        fflush(stdout);

        CHECK_EQ_INT(st.mismatches, 0);
        CHECK(st.std_positions >= want);
        /* The rules this variant has must have fired (on some examined move) a few times. */
        long few = quick ? 1 : 5;
        CHECK(st.fired[CNT_ESCAPE] >= few);
        CHECK(st.fired[CNT_KING_CAPTURED] >= few);
        CHECK(st.fired[CNT_CAPTURE] >= few);
        if (v.immobile_king) CHECK(st.fired[CNT_IMMOBILE_KING] >= few);
        if (v.encirclement) CHECK(st.fired[CNT_ENCIRCLED] >= few);
        if (v.exit_fort) CHECK(st.fired[CNT_EXIT_FORT] >= few);
        if (v.shieldwall) CHECK(st.fired[CNT_SHIELDWALL] >= few);
        if (v.linnaean) CHECK(st.fired[CNT_LINNAEAN] >= few);
        if (bb_any(v.start.spec)) CHECK(st.fired[CNT_JUMP] >= few);
        if (v.king_jump != JUMP_NONE) CHECK(st.fired[CNT_KING_JUMP] >= few);
        if (v.berserk != BERSERK_NONE) CHECK(st.fired[CNT_BERSERK] >= few);
        /* a side left without a move is rare in random games on the larger boards */
        if (!quick && v.size <= 11) CHECK(st.fired[CNT_NO_MOVES] >= 1);
    }
    timespec_get(&t1, TIME_UTC);
    printf("time %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return check_done();
}
