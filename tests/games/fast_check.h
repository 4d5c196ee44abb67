/*
 * Fast-against-generic checks for the games' random playouts: a game's optional playout() must
 * play exactly the game the generic loop game_playout_random() plays with the same generator,
 * ending in the same state with the generator in the same state. These helpers take a game to a
 * random point and compare the two from there, on copies of the state and generator.
 */
#ifndef HNEFI_TESTS_GAMES_FAST_CHECK_H
#define HNEFI_TESTS_GAMES_FAST_CHECK_H

#include <string.h>

#include "engine/game.h"

/* Plays up to `steps` uniformly random steps (fewer when the game ends first). */
static inline void fast_check_steps(const game_def *g, void *st, game_rng *r, int steps) {
    for (int k = 0; k < steps && g->node(st) != GAME_NODE_TERMINAL; k++) game_step_random(g, st, r);
}

/* Plays the rest of the game from st both ways; returns 1 when the lengths, the final states
 * and the generators agree. st and r are left as the generic loop leaves them. */
static inline int fast_check_same(const game_def *g, void *st, game_rng *r) {
    game_buffer fast;
    game_copy(g, fast.bytes, st);
    game_rng r2 = *r;
    int generic_len = game_playout_random(g, st, r), fast_len = g->playout(fast.bytes, &r2);
    return generic_len == fast_len && memcmp(st, fast.bytes, g->state_size) == 0 &&
           memcmp(r, &r2, sizeof r2) == 0;
}

#endif
