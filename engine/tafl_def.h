/*
 * The built-in tafl variants as games of the generic interface (engine/game.h), so that the
 * Monte-Carlo policies and the playout harness (search/mc.h, selfplay/playout.h) play them too:
 * `hnefi mc copenhagen ...`.
 *
 * Each variant is one game_def named after it (copenhagen, fetlar, tablut, linnaeus, brandubh),
 * listed in engine/game.c. Two players: player 0 is the attackers, player 1 the defenders (enum
 * side). An action is a move (engine/types.h: from | to << 7). A state is a struct
 * tafl_def_state: the position, the keys since the last capture (all the repetition rules read,
 * engine/tafl.h), the plies played and the status; the variant pointer in the position points
 * at the built-in table, which lives as long as the program, so a state is still plain data to
 * copy. A game that reaches its ply limit (option plies, at most TAFL_DEF_MAX_PLIES) is a draw.
 *
 * The STATE text is `board=<FEN rows> side=a|d [ply=N] [plies=N]`: it holds the position, not
 * its history, so a state read from text starts a new repetition count.
 */
#ifndef HNEFI_ENGINE_TAFL_DEF_H
#define HNEFI_ENGINE_TAFL_DEF_H

#include "engine/game.h"
#include "engine/position.h"

enum { TAFL_DEF_MAX_PLIES = 440, TAFL_DEF_GAMES = 5 };

/* One game in play: see the header comment. */
struct tafl_def_state {
    struct position pos;
    uint16_t ply, max_plies;
    uint16_t nkeys;         /* keys[0..nkeys): the positions since the last capture */
    uint8_t result, reason; /* enum result, enum end_reason (a draw at the ply limit: END_NONE) */
    uint64_t keys[TAFL_DEF_MAX_PLIES + 1];
};

/* The built-in variants as games, in the order of variant_builtin. */
extern const game_def tafl_def_games[TAFL_DEF_GAMES];

#endif
