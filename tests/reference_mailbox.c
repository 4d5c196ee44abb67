/*
 * The mailbox reference rules: see reference_mailbox.h. Section numbers refer to docs/rules.md.
 */
#include "reference_mailbox.h"

#include <stdlib.h>
#include <string.h>

/* Rank and file steps of the four directions: north, east, south, west. */
static const int ref_dr[4] = {1, 0, -1, 0};
static const int ref_df[4] = {0, 1, 0, -1};

/* Returns the square one step from sq in direction dir, or -1 off the board. */
static int ref_step(const struct ref_board *b, int sq, int dir) {
    int r = sq / b->n + ref_dr[dir], f = sq % b->n + ref_df[dir];
    if (r < 0 || r >= b->n || f < 0 || f >= b->n) return -1;
    return r * b->n + f;
}

/* Tells whether sq is the throne (the centre square, where the variant has one). */
static bool ref_is_throne(const struct ref_board *b, int sq) {
    return b->v->centre && sq == (b->n / 2) * b->n + b->n / 2;
}

/* Tells whether sq is a corner square, whether or not corners are special: one of the four, or
   of the variant's own list (corner_squares, Alea Evangelii's 2x2 blocks). */
static bool ref_is_geo_corner(const struct ref_board *b, int sq) {
    if (bb_any(b->v->corner_squares)) return bb_has(b->v->corner_squares, sq);
    int r = sq / b->n, f = sq % b->n, m = b->n - 1;
    return (r == 0 || r == m) && (f == 0 || f == m);
}

/* Tells whether sq is a special corner (the variant has corners, §3 `corners`). */
static bool ref_is_corner(const struct ref_board *b, int sq) {
    return b->v->corners && ref_is_geo_corner(b, sq);
}

/* Tells whether sq is on the outer ring of the board. */
static bool ref_is_edge(const struct ref_board *b, int sq) {
    int r = sq / b->n, f = sq % b->n, m = b->n - 1;
    return r == 0 || r == m || f == 0 || f == m;
}

/* Returns the side a cell's piece belongs to, or -1 for an empty cell. */
static int ref_side_of(int cell) {
    if (cell == REF_ATT) return SIDE_ATTACKERS;
    if (cell == REF_DEF || cell == REF_KING) return SIDE_DEFENDERS;
    return -1;
}

/* Returns the kind_set bit of a piece cell (KIND_A, KIND_D or KIND_K). */
static unsigned ref_kind(int cell) {
    if (cell == REF_ATT) return KIND_A;
    if (cell == REF_DEF) return KIND_D;
    return KIND_K;
}

/* Returns the king's square, or -1 if there is none. */
static int ref_king_sq(const struct ref_board *b) {
    for (int s = 0; s < b->n * b->n; s++)
        if (b->cell[s] == REF_KING) return s;
    return -1;
}

bool ref_from_fen(struct ref_board *b, const struct variant *v, const char *fen) {
    memset(b, 0, sizeof *b);
    b->v = v;
    b->n = v->size;
    b->berserker = -1;
    int rank = b->n - 1, file = 0;
    const char *c = fen;
    for (; *c && *c != ' '; c++) {
        if (*c == '/') {
            if (file != b->n) return false;
            rank--, file = 0;
            if (rank < 0) return false;
        } else if (*c >= '0' && *c <= '9') {
            int k = 0;
            while (*c >= '0' && *c <= '9') k = k * 10 + (*c++ - '0');
            c--;
            file += k;
            if (file > b->n) return false;
        } else {
            int cell = *c == 'a' || *c == 'c'   ? REF_ATT
                       : *c == 'd' || *c == 'n' ? REF_DEF
                       : *c == 'k'              ? REF_KING
                                                : -1;
            if (cell < 0 || file >= b->n) return false;
            b->spec[rank * b->n + file] = *c == 'c' || *c == 'n';
            b->cell[rank * b->n + file++] = (uint8_t)cell;
        }
    }
    if (rank != 0 || file != b->n || *c != ' ') return false;
    c++;
    if (*c == 'a')
        b->side = SIDE_ATTACKERS;
    else if (*c == 'd')
        b->side = SIDE_DEFENDERS;
    else
        return false;
    c++;
    if (*c == ' ' && c[1] >= 'a' && c[1] < 'a' + b->n) {
        /* The berserker: a piece of the side to move. */
        int f = c[1] - 'a', r = 0;
        for (c += 2; *c >= '0' && *c <= '9'; c++) r = r * 10 + (*c - '0');
        if (r < 1 || r > b->n) return false;
        b->berserker = (r - 1) * b->n + f;
        if (ref_side_of(b->cell[b->berserker]) != b->side) return false;
    }
    return true;
}

/* Tells whether sq is a fortress square (OpenTafl's afor list, variant.forts). */
static bool ref_is_fort(const struct ref_board *b, int sq) {
    return bb_has(b->v->forts, sq);
}

/* Returns the jump mode of the piece on sq: the king's, a commander's, a knight's, or none. */
static enum jump_mode ref_jump_mode(const struct ref_board *b, int sq) {
    if (b->cell[sq] == REF_KING) return b->v->king_jump;
    if (!b->spec[sq]) return JUMP_NONE;
    return b->cell[sq] == REF_ATT ? b->v->commander_jump : b->v->knight_jump;
}

/* Tells whether sq is where a restricted jump may start or end: the throne, a corner, a fort. */
static bool ref_is_special(const struct ref_board *b, int sq) {
    return ref_is_throne(b, sq) || ref_is_corner(b, sq) || ref_is_fort(b, sq);
}

/* Tells whether the piece on from may stop on sq: corners are the king's, the throne too if
   throne_stop says so, and fortress squares are for pieces standing on one. */
static bool ref_may_stop(const struct ref_board *b, int from, int sq) {
    bool king = b->cell[from] == REF_KING;
    if (ref_is_fort(b, sq) && !ref_is_fort(b, from)) return false;
    if (ref_is_corner(b, sq)) return king;
    if (ref_is_throne(b, sq)) return king && b->v->throne_stop == THRONE_KING;
    return true;
}

/*
 * Returns where the piece on sq lands jumping in direction dir, or -1 if it cannot (rules.md,
 * Berserk): over an adjacent enemy man who is no king, commander or knight, onto the empty square
 * beyond, if it may stop there; a restricted jump only from or onto a special square.
 */
static int ref_jump_target(const struct ref_board *b, int sq, int dir) {
    enum jump_mode mode = ref_jump_mode(b, sq);
    if (mode == JUMP_NONE) return -1;
    int over = ref_step(b, sq, dir);
    if (over < 0) return -1;
    int oc = b->cell[over];
    if (oc == REF_EMPTY || oc == REF_KING || b->spec[over]) return -1;
    if (ref_side_of(oc) == ref_side_of(b->cell[sq])) return -1;
    int land = ref_step(b, over, dir);
    if (land < 0 || b->cell[land] != REF_EMPTY || !ref_may_stop(b, sq, land)) return -1;
    if (mode == JUMP_RESTRICTED && !ref_is_special(b, sq) && !ref_is_special(b, land)) return -1;
    return land;
}

/*
 * Writes the moves of the piece on sq into out (§2.2); returns their number. A piece not standing
 * on a fortress square may neither cross nor stop on one; the king goes at most king_speed
 * squares when the variant limits him. Pieces with a jump mode also jump (ref_jump_target).
 */
static int ref_piece_moves(const struct ref_board *b, int sq, move_t *out) {
    const struct variant *v = b->v;
    bool king = b->cell[sq] == REF_KING;
    bool in_fort = ref_is_fort(b, sq);
    int n = 0;
    for (int dir = 0; dir < 4; dir++) {
        int s = sq;
        for (int steps = 1;; steps++) {
            s = ref_step(b, s, dir);
            if (s < 0 || b->cell[s] != REF_EMPTY) break;
            if (king && v->king_speed > 0 && steps > v->king_speed) break;
            if (ref_is_fort(b, s) && !in_fort) break;
            if (ref_is_corner(b, s)) {
                /* Only the king may stop on a corner, or pass one (to a corner square beyond, in a
                   block of them); no man goes on past one. */
                if (!king) break;
                out[n++] = move_make(sq, s);
                continue;
            }
            if (ref_is_throne(b, s)) {
                bool stop = king && v->throne_stop == THRONE_KING;
                bool pass = v->throne_pass == THRONE_ALL || (king && v->throne_pass == THRONE_KING);
                if (stop) out[n++] = move_make(sq, s);
                if (!pass) break;
                continue;
            }
            out[n++] = move_make(sq, s);
        }
        int land = ref_jump_target(b, sq, dir);
        if (land >= 0) out[n++] = move_make(sq, land);
    }
    return n;
}

/* Writes the moves of side s's pieces into out; returns their number. In a berserk turn only
   the berserker moves. */
static int ref_side_moves(const struct ref_board *b, int s, move_t *out) {
    if (b->berserker >= 0) return ref_piece_moves(b, b->berserker, out);
    int n = 0;
    for (int sq = 0; sq < b->n * b->n; sq++)
        if (ref_side_of(b->cell[sq]) == s) n += ref_piece_moves(b, sq, out + n);
    return n;
}

int ref_gen_moves(const struct ref_board *b, move_t *out) {
    return ref_side_moves(b, b->side, out);
}

/* Tells whether f is an anvil against the enemy man on v for side s (§4.1), on board b. */
static bool ref_is_anvil(const struct ref_board *b, int f, int vsq, int s) {
    const struct variant *var = b->v;
    int fc = b->cell[f];
    unsigned vk = ref_kind(b->cell[vsq]);
    if (fc == REF_ATT && s == SIDE_ATTACKERS) return true;
    if (fc == REF_DEF && s == SIDE_DEFENDERS) return true;
    if (fc == REF_KING && s == SIDE_DEFENDERS &&
        (var->king_armed == KING_ARMED_YES || var->king_armed == KING_ARMED_ANVIL))
        return true;
    if (fc == REF_EMPTY && ref_is_corner(b, f) && (var->hostile_corner & vk)) return true;
    if (fc == REF_EMPTY && ref_is_throne(b, f) && (var->hostile_throne_empty & vk)) return true;
    if (fc == REF_KING && ref_is_throne(b, f) && (var->hostile_throne_king & vk)) return true;
    return false;
}

/* Tells whether the cell on sq is a piece of side s for shieldwall purposes (§4.3). */
static bool ref_sw_own(const struct ref_board *b, int sq, int s) {
    return ref_side_of(b->cell[sq]) == s;
}

/* Tells whether sq can bracket a shieldwall of side s (§4.3 condition 2). */
static bool ref_sw_bracket(const struct ref_board *b, int sq, int s) {
    if (sq < 0) return false;
    if (ref_sw_own(b, sq, s)) return true;
    return b->cell[sq] == REF_EMPTY && ref_is_corner(b, sq) && b->v->sw_corner;
}

/*
 * Edge line e (0: rank 1, 1: last rank, 2: file a, 3: last file): the direction pointing into
 * the board, and whether sq lies on it.
 */
static const int ref_edge_inward[4] = {0 /* north */, 2 /* south */, 1 /* east */, 3 /* west */};

/* Tells whether sq lies on edge line e. */
static bool ref_on_edge_line(const struct ref_board *b, int sq, int e) {
    int r = sq / b->n, f = sq % b->n, m = b->n - 1;
    return e == 0 ? r == 0 : e == 1 ? r == m : e == 2 ? f == 0 : f == m;
}

/* Returns the two directions running along edge line e. */
static void ref_edge_dirs(int e, int dirs[2]) {
    if (e < 2)
        dirs[0] = 1, dirs[1] = 3; /* east, west */
    else
        dirs[0] = 0, dirs[1] = 2; /* north, south */
}

/* Marks in cap the men captured by a wall of side s over run[0..len), if it is one (§4.3). */
static bool ref_sw_try(const struct ref_board *b, const int *run, int len, int in_dir, int s,
                       bool *cap) {
    if (len < 2) return false;
    for (int i = 0; i < len; i++) {
        int in = ref_step(b, run[i], in_dir);
        if (in < 0 || !ref_sw_own(b, in, s)) return false;
    }
    bool any = false;
    for (int i = 0; i < len; i++)
        if (b->cell[run[i]] != REF_KING) cap[run[i]] = true, any = true;
    return any;
}

/* Finds the shieldwall captures of side s's move to t (§4.3) on board b; returns if any. */
static bool ref_shieldwall(const struct ref_board *b, int t, int s, bool *cap) {
    bool any = false;
    int run[REF_MAX_SQUARES];
    for (int e = 0; e < 4; e++) {
        int dirs[2], in_dir = ref_edge_inward[e];
        ref_edge_dirs(e, dirs);
        if (ref_on_edge_line(b, t, e)) {
            /* The mover brackets the wall: runs starting next to t. */
            for (int k = 0; k < 2; k++) {
                int len = 0, q = ref_step(b, t, dirs[k]);
                while (q >= 0 && ref_side_of(b->cell[q]) == 1 - s) {
                    run[len++] = q;
                    q = ref_step(b, q, dirs[k]);
                }
                if (ref_sw_bracket(b, q, s) && ref_sw_try(b, run, len, in_dir, s, cap)) any = true;
            }
        } else if (!b->v->sw_flank_only) {
            /* Relaxed rule: the mover stands in front of the wall (inward of its square e). */
            int e_sq = ref_step(b, t, (in_dir + 2) % 4);
            if (e_sq < 0 || !ref_on_edge_line(b, e_sq, e)) continue;
            if (ref_side_of(b->cell[e_sq]) != 1 - s) continue;
            int lo = e_sq, hi = e_sq;
            for (int q = ref_step(b, lo, dirs[1]); q >= 0 && ref_side_of(b->cell[q]) == 1 - s;
                 q = ref_step(b, q, dirs[1]))
                lo = q;
            for (int q = ref_step(b, hi, dirs[0]); q >= 0 && ref_side_of(b->cell[q]) == 1 - s;
                 q = ref_step(b, q, dirs[0]))
                hi = q;
            int len = 0;
            for (int q = lo;; q = ref_step(b, q, dirs[0])) {
                run[len++] = q;
                if (q == hi) break;
            }
            if (ref_sw_bracket(b, ref_step(b, lo, dirs[1]), s) &&
                ref_sw_bracket(b, ref_step(b, hi, dirs[0]), s) &&
                ref_sw_try(b, run, len, in_dir, s, cap))
                any = true;
        }
    }
    return any;
}

/* Tells whether the neighbour q (-1: off the board) counts against the king (§4.2). */
static bool ref_against_king(const struct ref_board *b, int q) {
    const struct variant *v = b->v;
    if (q < 0) return v->hostile_edge_king;
    if (b->cell[q] == REF_ATT) return true;
    if (b->cell[q] == REF_EMPTY && ref_is_corner(b, q) && (v->hostile_corner & KIND_K)) return true;
    if (b->cell[q] == REF_EMPTY && ref_is_throne(b, q) && (v->hostile_throne_empty & KIND_K))
        return true;
    return false;
}

/* Tells whether an attacker that just moved to t captures the king on k (§4.2). */
static bool ref_king_captured(const struct ref_board *b, int t, int k) {
    int tdir = -1;
    for (int d = 0; d < 4; d++)
        if (ref_step(b, k, d) == t) tdir = d;
    if (tdir < 0) return false;
    if (b->v->king_capture == KING_CAPTURE_COMMANDER) {
        /* Berserk: a commander arrives on t, and beyond the king stands a commander or lies a
           corner; never with the king, t or that square on the throne. */
        int beyond = ref_step(b, k, (tdir + 2) % 4);
        if (!b->spec[t] || beyond < 0) return false;
        if (ref_is_throne(b, k) || ref_is_throne(b, t) || ref_is_throne(b, beyond)) return false;
        return (b->cell[beyond] == REF_ATT && b->spec[beyond]) || ref_is_corner(b, beyond);
    }
    bool four = b->v->king_capture == KING_CAPTURE_FOUR;
    if (b->v->king_capture == KING_CAPTURE_THRONE_FOUR) {
        four = ref_is_throne(b, k);
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, k, d);
            if (q >= 0 && ref_is_throne(b, q)) four = true;
        }
    }
    if (four) {
        for (int d = 0; d < 4; d++)
            if (!ref_against_king(b, ref_step(b, k, d))) return false;
        return true;
    }
    /* Custodial: the square beyond the king, on the line from t through him. */
    return ref_against_king(b, ref_step(b, k, (tdir + 2) % 4));
}

/* Tells whether the immobile-king rule (§4.6) gives the attackers the win on b. */
static bool ref_immobile_king(const struct ref_board *b, int k) {
    bool in_g[REF_MAX_SQUARES] = {false};
    int g[2], ng = 0;
    g[ng++] = k;
    in_g[k] = true;
    for (int d = 0; d < 4; d++) {
        int q = ref_step(b, k, d);
        if (q >= 0 && b->cell[q] == REF_DEF) {
            if (ng == 2) return false;
            g[ng++] = q;
            in_g[q] = true;
        }
    }
    if (ng == 2)
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, g[1], d);
            if (q >= 0 && b->cell[q] == REF_DEF) return false;
        }
    for (int i = 0; i < ng; i++)
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, g[i], d);
            if (q < 0 || in_g[q]) continue;
            if (!(b->cell[q] == REF_ATT || ref_is_throne(b, q) || ref_is_corner(b, q)))
                return false;
        }
    move_t tmp[REF_MAX_MOVES];
    for (int i = 0; i < ng; i++)
        if (ref_piece_moves(b, g[i], tmp) > 0) return false;
    return true;
}

/* Flood-fills from the defenders through squares without an attacker; returns the size. */
static int ref_defender_fill(const struct ref_board *b, bool *touches_edge) {
    bool seen[REF_MAX_SQUARES] = {false};
    int queue[REF_MAX_SQUARES], head = 0, tail = 0;
    for (int s = 0; s < b->n * b->n; s++)
        if (b->cell[s] == REF_DEF || b->cell[s] == REF_KING) seen[s] = true, queue[tail++] = s;
    *touches_edge = false;
    while (head < tail) {
        int s = queue[head++];
        if (ref_is_edge(b, s)) *touches_edge = true;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, s, d);
            if (q < 0 || seen[q] || b->cell[q] == REF_ATT) continue;
            seen[q] = true;
            queue[tail++] = q;
        }
    }
    return tail;
}

int ref_defender_region(const struct ref_board *b) {
    bool edge;
    return ref_defender_fill(b, &edge);
}

/* Tells whether the defenders are encircled (§4.5): the same fill, stopped at the first edge. */
static bool ref_encircled(const struct ref_board *b) {
    bool seen[REF_MAX_SQUARES] = {false};
    int queue[REF_MAX_SQUARES], head = 0, tail = 0;
    for (int s = 0; s < b->n * b->n; s++)
        if (b->cell[s] == REF_DEF || b->cell[s] == REF_KING) seen[s] = true, queue[tail++] = s;
    while (head < tail) {
        int s = queue[head++];
        if (ref_is_edge(b, s)) return false;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, s, d);
            if (q < 0 || seen[q] || b->cell[q] == REF_ATT) continue;
            seen[q] = true;
            queue[tail++] = q;
        }
    }
    return true;
}

/* Tells whether an empty sq is hostile to defender men (exit fort, §4.4 F3 step 3). */
static bool ref_fort_hostile_d(const struct ref_board *b, int sq) {
    if (sq < 0 || b->cell[sq] != REF_EMPTY) return false;
    if (ref_is_corner(b, sq) && (b->v->hostile_corner & KIND_D)) return true;
    if (ref_is_throne(b, sq) && (b->v->hostile_throne_empty & KIND_D)) return true;
    return false;
}

/* Tells whether the king on k is in an exit fort (§4.4). */
static bool ref_exit_fort(const struct ref_board *b, int k) {
    const struct variant *v = b->v;
    int nsq = b->n * b->n;
    if (!ref_is_edge(b, k)) return false;
    bool free_nb = false;
    for (int d = 0; d < 4; d++) {
        int q = ref_step(b, k, d);
        if (q >= 0 && b->cell[q] == REF_EMPTY) free_nb = true;
    }
    if (!free_nb) return false;

    /* F1: the interior, through everything but defender men. */
    bool in_i[REF_MAX_SQUARES] = {false};
    int queue[REF_MAX_SQUARES], head = 0, tail = 0;
    in_i[k] = true;
    queue[tail++] = k;
    while (head < tail) {
        int s = queue[head++];
        if (b->cell[s] == REF_ATT) return false;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, s, d);
            if (q < 0 || in_i[q] || b->cell[q] == REF_DEF) continue;
            in_i[q] = true;
            queue[tail++] = q;
        }
    }

    /* F2: the wall. */
    bool in_w[REF_MAX_SQUARES] = {false};
    for (int s = 0; s < nsq; s++) {
        if (!in_i[s]) continue;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(b, s, d);
            if (q >= 0 && b->cell[q] == REF_DEF) in_w[q] = true;
        }
    }

    /* F3: the safe set U, shrunk until stable. */
    bool in_u[REF_MAX_SQUARES] = {false};
    for (int s = 0; s < nsq; s++) in_u[s] = b->cell[s] == REF_DEF;
    for (;;) {
        bool reach[REF_MAX_SQUARES] = {false};
        head = tail = 0;
        for (int s = 0; s < nsq; s++)
            if (b->cell[s] == REF_ATT) reach[s] = true, queue[tail++] = s;
        while (head < tail) {
            int s = queue[head++];
            for (int d = 0; d < 4; d++) {
                int q = ref_step(b, s, d);
                if (q < 0 || reach[q] || in_i[q] || ref_is_corner(b, q)) continue;
                bool ok = b->cell[q] == REF_EMPTY || (b->cell[q] == REF_DEF && !in_u[q]);
                if (!ok) continue;
                if (ref_is_throne(b, q) && b->cell[q] == REF_EMPTY && v->throne_pass != THRONE_ALL)
                    continue;
                reach[q] = true;
                queue[tail++] = q;
            }
        }
        bool stand[REF_MAX_SQUARES] = {false};
        for (int s = 0; s < nsq; s++)
            stand[s] =
                (reach[s] || b->cell[s] == REF_ATT) && !ref_is_throne(b, s) && !ref_is_corner(b, s);

        bool breakable[REF_MAX_SQUARES] = {false};
        for (int s = 0; s < nsq; s++) {
            if (!in_u[s]) continue;
            for (int axis = 0; axis < 2; axis++) {
                int x = ref_step(b, s, axis), y = ref_step(b, s, axis + 2);
                if (x < 0 || y < 0) continue;
                if ((stand[x] && (stand[y] || ref_fort_hostile_d(b, y))) ||
                    (stand[y] && ref_fort_hostile_d(b, x)))
                    breakable[s] = true;
            }
        }
        if (v->shieldwall) {
            /* Step 4: every maximal edge run of >= 2 defender pieces that attackers could wall. */
            for (int e = 0; e < 4; e++) {
                int dirs[2], in_dir = ref_edge_inward[e];
                ref_edge_dirs(e, dirs);
                /* Start at the edge line's first square (lowest index) and walk along it. */
                int start = e == 0 || e == 2 ? 0 : e == 1 ? (b->n - 1) * b->n : b->n - 1;
                int along = dirs[0]; /* east or north: increasing index */
                int q = start;
                while (q >= 0) {
                    if (ref_side_of(b->cell[q]) != SIDE_DEFENDERS) {
                        q = ref_step(b, q, along);
                        continue;
                    }
                    int run[REF_MAX_SQUARES], len = 0;
                    int before = ref_step(b, q, dirs[1]);
                    while (q >= 0 && ref_side_of(b->cell[q]) == SIDE_DEFENDERS) {
                        run[len++] = q;
                        q = ref_step(b, q, along);
                    }
                    int after = q;
                    if (len < 2) continue;
                    bool wall = true;
                    for (int i = 0; i < len; i++) {
                        int in = ref_step(b, run[i], in_dir);
                        if (in < 0 || !stand[in]) wall = false;
                    }
                    int ends[2] = {before, after};
                    for (int j = 0; j < 2; j++) {
                        int x = ends[j];
                        if (x < 0)
                            wall = false;
                        else if (!(stand[x] || (ref_is_corner(b, x) && v->sw_corner)))
                            wall = false;
                    }
                    if (wall)
                        for (int i = 0; i < len; i++)
                            if (in_u[run[i]]) breakable[run[i]] = true;
                }
            }
        }
        bool removed = false;
        for (int s = 0; s < nsq; s++) {
            if (!breakable[s]) continue;
            if (in_w[s]) return false;
            in_u[s] = false;
            removed = true;
        }
        if (!removed) return true;
    }
}

/*
 * Plays move m from src into dst with its captures and board-rule end (§4.10 checks 1-4), handing
 * the move to the other side; the berserk rule is ref_make's.
 */
static void ref_play(const struct ref_board *src, struct ref_board *dst, move_t m,
                     struct ref_move_info *info) {
    const struct variant *v = src->v;
    int from = move_from(m), t = move_to(m);
    int s = src->side, mover = src->cell[from];
    *dst = *src;
    dst->cell[t] = (uint8_t)mover;
    dst->spec[t] = src->spec[from];
    dst->cell[from] = REF_EMPTY;
    dst->spec[from] = false;
    dst->berserker = -1;
    info->ncapt = 0;
    info->shieldwall = info->linnaean = info->jump = false;
    info->result = RESULT_NONE;
    info->reason = END_NONE;

    bool cap[REF_MAX_SQUARES] = {false}, marked = false; /* marked: some square in cap */
    /* A jump: two squares on along a line over an occupied square, which no slide crosses. A
       capturing jump takes the man jumped; the captures around t follow as for any move. */
    int dr = t / src->n - from / src->n, df = t % src->n - from % src->n;
    if ((abs(dr) == 2 && df == 0) || (dr == 0 && abs(df) == 2)) {
        int mid = (from + t) / 2;
        if (src->cell[mid] != REF_EMPTY) {
            info->jump = true;
            if (ref_jump_mode(src, from) == JUMP_CAPTURE) cap[mid] = marked = true;
        }
    }
    bool king_moves_nothing =
        mover == REF_KING && (v->king_armed == KING_ARMED_NO || v->king_armed == KING_ARMED_ANVIL);
    if (!king_moves_nothing) {
        /* §4.1 custodial capture of men. */
        for (int d = 0; d < 4; d++) {
            int vq = ref_step(dst, t, d);
            if (vq < 0) continue;
            int f = ref_step(dst, vq, d);
            if (f < 0) continue;
            int vc = dst->cell[vq];
            if (vc == REF_KING || vc == REF_EMPTY || ref_side_of(vc) == s) continue;
            if (ref_is_anvil(dst, f, vq, s)) cap[vq] = marked = true;
        }
        /* §4.3 shieldwall. */
        if (v->shieldwall && ref_shieldwall(dst, t, s, cap)) info->shieldwall = marked = true;
        /* §4.7 Linnaean capture. */
        if (v->linnaean && s == SIDE_ATTACKERS) {
            for (int d = 0; d < 4; d++) {
                int vq = ref_step(dst, t, d);
                if (vq < 0 || dst->cell[vq] != REF_DEF) continue;
                int k = ref_step(dst, vq, d);
                if (k < 0 || dst->cell[k] != REF_KING || !ref_is_throne(dst, k)) continue;
                bool others = true;
                for (int d2 = 0; d2 < 4; d2++) {
                    int q = ref_step(dst, k, d2);
                    if (q == vq) continue;
                    if (q < 0 || dst->cell[q] != REF_ATT) others = false;
                }
                if (others) {
                    if (!cap[vq]) info->linnaean = true;
                    cap[vq] = marked = true;
                }
            }
        }
    }
    /* §2.4: all captures are removed together. */
    for (int q = 0; marked && q < dst->n * dst->n; q++)
        if (cap[q]) {
            info->capt[info->ncapt++] = q;
            dst->cell[q] = REF_EMPTY;
            dst->spec[q] = false;
        }
    dst->side = 1 - s;

    /* §4.10 checks 1-4; the king is looked for only where a rule needs him (a king capture needs
       him beside t). */
    if (mover == REF_KING) {
        bool escape = v->escape == ESCAPE_EDGE ? ref_is_edge(dst, t) : ref_is_geo_corner(dst, t);
        if (escape) {
            info->result = RESULT_DEFENDERS, info->reason = END_ESCAPE;
            return;
        }
    }
    if (s == SIDE_ATTACKERS) {
        for (int d = 0; d < 4; d++) {
            int q = ref_step(dst, t, d);
            if (q >= 0 && dst->cell[q] == REF_KING && ref_king_captured(dst, t, q)) {
                info->result = RESULT_ATTACKERS, info->reason = END_KING_CAPTURED;
                return;
            }
        }
        int k = v->immobile_king || v->encirclement ? ref_king_sq(dst) : -1;
        if (k >= 0 && v->immobile_king && ref_immobile_king(dst, k)) {
            info->result = RESULT_ATTACKERS, info->reason = END_IMMOBILE_KING;
            return;
        }
        if (k >= 0 && v->encirclement && ref_encircled(dst)) {
            info->result = RESULT_ATTACKERS, info->reason = END_ENCIRCLED;
            return;
        }
    }
    int k = s == SIDE_DEFENDERS && v->exit_fort ? ref_king_sq(dst) : -1;
    if (k >= 0 && ref_exit_fort(dst, k)) {
        info->result = RESULT_DEFENDERS, info->reason = END_EXIT_FORT;
        return;
    }
}

/*
 * Tells whether the piece that just moved to t for side s, having captured, goes on berserk on b
 * (rules.md, Berserk): with berserk=capture if one of its moves, made on a copy, would capture a
 * piece or the king; with berserk=move if it has any move.
 */
static bool ref_berserk_goes_on(const struct ref_board *b, int t, int s) {
    struct ref_board here = *b, after;
    struct ref_move_info mi;
    move_t moves[REF_MAX_MOVES];
    here.side = s;
    here.berserker = t;
    int n = ref_piece_moves(&here, t, moves);
    if (b->v->berserk == BERSERK_MOVE) return n > 0;
    for (int i = 0; i < n; i++) {
        ref_play(&here, &after, moves[i], &mi);
        if (mi.ncapt > 0 || mi.reason == END_KING_CAPTURED) return true;
    }
    return false;
}

void ref_make(const struct ref_board *src, struct ref_board *dst, move_t m,
              struct ref_move_info *info) {
    ref_play(src, dst, m, info);
    /* A berserk turn goes on after a capture (of a piece or the king) that did not end the game. */
    bool took = info->ncapt > 0 || info->reason == END_KING_CAPTURED;
    if (src->v->berserk == BERSERK_NONE || !took || info->result != RESULT_NONE) return;
    if (ref_berserk_goes_on(dst, move_to(m), src->side)) {
        dst->side = src->side;
        dst->berserker = move_to(m);
    }
}

void ref_no_moves_end(const struct ref_board *b, int *result, int *reason) {
    if (*result != RESULT_NONE) return;
    move_t tmp[REF_MAX_MOVES];
    if (b->berserker >= 0 && ref_piece_moves(b, b->berserker, tmp) > 0) return;
    for (int sq = 0; sq < b->n * b->n && b->berserker < 0; sq++)
        if (ref_side_of(b->cell[sq]) == b->side && ref_piece_moves(b, sq, tmp) > 0) return;
    *reason = END_NO_MOVES;
    if (b->v->no_moves == NO_MOVES_DRAW)
        *result = RESULT_DRAW;
    else
        *result = b->side == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
}
