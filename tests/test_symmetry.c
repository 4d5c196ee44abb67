/*
 * The board symmetries (engine/symmetry.h): each symmetry is a permutation of the squares with
 * the stated inverse; the variants allow what their boards say (all 8 for the built-in ones,
 * fewer for a lopsided start); and on random games of every built-in variant, a position's
 * image has exactly the images of its legal moves, and making a move commutes with the
 * symmetry (the same captures, the same result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/symmetry.h"

/* Advances the splitmix64 state and returns the next pseudo-random number. */
static uint64_t sy_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Checks that each symmetry permutes the squares and that sym_inverse undoes it. */
static void check_permutations(int n) {
    for (int k = 0; k < SYM_NB; k++) {
        bb_t seen = BB_EMPTY;
        bool inverse_ok = true;
        for (int sq = 0; sq < n * n; sq++) {
            int img = sym_square(k, sq, n);
            seen |= bb_sq(img);
            inverse_ok &= sym_square(sym_inverse(k), img, n) == sq;
        }
        CHECK_EQ_INT(bb_popcount(seen), n * n);
        CHECK(inverse_ok);
    }
    /* a1 goes to the four corners and stays on the diagonal under 6 */
    CHECK_EQ_INT(sym_square(1, 0, n), n - 1);
    CHECK_EQ_INT(sym_square(2, 0, n), n * n - 1);
    CHECK_EQ_INT(sym_square(3, 0, n), (n - 1) * n);
    CHECK_EQ_INT(sym_square(6, 1, n), n);
}

/* Tells whether two move lists hold the same moves. */
static bool same_moves(const move_t *a, int na, const move_t *b, int nb) {
    if (na != nb) return false;
    for (int i = 0; i < na; i++) {
        bool found = false;
        for (int j = 0; j < nb && !found; j++) found = a[i] == b[j];
        if (!found) return false;
    }
    return true;
}

/* Plays random games of v and checks moves and makes against every symmetry. */
static void check_games(const struct variant *v, int games, uint64_t seed) {
    int n = v->size;
    long checked = 0;
    for (int g = 0; g < games; g++) {
        struct position p;
        pos_init_start(&p, v);
        for (int ply = 0; ply < 120 && p.result == RESULT_NONE; ply++) {
            move_t moves[MAX_MOVES], img[MAX_MOVES], mapped[MAX_MOVES];
            int nm = movegen_list(&p, moves);
            if (nm == 0) break;
            int k = (int)(sy_rand(&seed) % SYM_NB);
            struct position q;
            sym_position(k, &p, &q);
            char err[120];
            CHECK(pos_valid(&q, err, sizeof err));
            int ni = movegen_list(&q, img);
            for (int i = 0; i < nm; i++) mapped[i] = sym_move(k, moves[i], n);
            CHECK(same_moves(mapped, nm, img, ni));
            move_t m = moves[sy_rand(&seed) % (uint64_t)nm];
            struct position a, b, back;
            bb_t ca = make_move(&a, &p, m), cb = make_move(&b, &q, sym_move(k, m, n));
            CHECK(bb_eq(sym_set(k, ca, n), cb));
            CHECK(a.result == b.result && a.reason == b.reason);
            sym_position(sym_inverse(k), &b, &back);
            CHECK(bb_eq(back.att, a.att) && bb_eq(back.def, a.def) && bb_eq(back.king, a.king) &&
                  back.key == a.key && back.side == a.side);
            checked++;
            p = a;
        }
    }
    CHECK(checked > games * 10);
}

/* Runs the symmetry tests. */
int main(void) {
    check_permutations(7);
    check_permutations(9);
    check_permutations(11);
    for (int i = 0; variant_builtin(i); i++) {
        const struct variant *v = variant_builtin(i);
        CHECK_EQ_INT(sym_variant_allows(v), SYM_ALL);
        check_games(v, getenv("HNEFI_QUICK") ? 4 : 20, 0x5157 + (uint64_t)i);
    }
    /* a start with one extra attacker on b2 allows only the diagonal through it (6) */
    struct variant lop = *variant_by_name("brandubh");
    char err[160];
    CHECK(fen_read_start(&lop, "3a3/3a3/3d3/aadkdaa/3d3/1a1a3/3a3 a", err, sizeof err));
    CHECK_EQ_INT(sym_variant_allows(&lop), 1 | 1 << 6);
    return check_done();
}
