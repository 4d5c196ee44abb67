/*
 * The referee: plays one game between two players from an opening, keeps the clocks, and decides
 * the end by the variant's rules or by adjudication.
 *
 * Adjudication, besides the rules: a draw at max_plies plies (0: none) or after max_quiet plies
 * without a capture (0: none); a resignation when, for resign_moves moves in a row of each side,
 * the loser scored at or below -resign_score and the winner at or above it; a draw by agreement
 * when, for draw_moves moves of each side after ply draw_after, both scored within +-draw_score.
 * A player that crashes, hangs, answers with no move or an illegal move, or oversteps its time by
 * more than time_margin_ms loses the game. The opening plies are played by the referee.
 *
 * A struct played_game keeps what records and training data need: every ply with the men it
 * captured (kept as the ply was played, so nothing is replayed to write them), and each ply's
 * score as the mover gave it.
 */
#ifndef HNEFI_SELFPLAY_REFEREE_H
#define HNEFI_SELFPLAY_REFEREE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "selfplay/openings.h"
#include "selfplay/player.h"

/* How a game ended: by a rule (reason in tafl_reason) or by the referee. */
enum played_end {
    PLAYED_END_RULES,
    PLAYED_END_MAX_PLIES,
    PLAYED_END_QUIET,
    PLAYED_END_RESIGN,
    PLAYED_END_DRAW_AGREED,
    PLAYED_END_TIMEOUT, /* over the time control */
    PLAYED_END_HANG,    /* no answer at all */
    PLAYED_END_CRASH,
    PLAYED_END_ILLEGAL,
    PLAYED_END_ABORTED, /* the match stopped first: not a result */
    PLAYED_END_NB
};

struct adjudication {
    int max_plies, max_quiet;
    int resign_moves, resign_score;
    int draw_moves, draw_score, draw_after;
    int64_t time_margin_ms;
    int64_t hang_ms; /* how long a nodes or depth search may take before it counts as a hang */
};

/* How long one side thought in a game: its moves, the time they took, and the limits. */
struct move_times {
    int moves;
    int64_t used_ms, max_ms; /* in all, and the longest move */
    int64_t limit_ms;        /* the move times allowed, in all (fixed move times only) */
    int64_t min_left_ms;     /* the least left on its clock after a move (-1: no clock) */
};

struct played_game {
    int64_t index;  /* the game's number in the tournament */
    uint8_t result; /* enum result */
    uint8_t end;    /* enum played_end */
    uint8_t reason; /* enum end_reason when end is PLAYED_END_RULES */
    uint8_t loser;  /* the side that lost by a fault (timeout, hang, crash, illegal move) */
    int opening_plies;
    int n; /* plies */
    move_t moves[MAX_GAME_PLIES];
    bb_t captures[MAX_GAME_PLIES]; /* the men each ply captured */
    int16_t score[MAX_GAME_PLIES]; /* the mover's score of each ply, if has_score */
    uint8_t has_score[MAX_GAME_PLIES];
    char detail[PLAYER_WHY_MAX]; /* what went wrong, for faults */
    struct move_times times[SIDE_NB];
};

/* Sets the default adjudication: draw at 700 plies, no resignation or agreed draw, 100 ms margin.
 */
void adjudication_default(struct adjudication *a);

/* Returns the record word of an end ("escape", "max_plies", "crash", ...). */
const char *played_end_word(int end, int reason);

/* Reads a record word back into end and reason; false if it is none of them. */
bool played_end_parse(const char *word, int *end, int *reason);

/*
 * Plays game number game_no of a match: players[s] plays side s with time control tc[s]. game is
 * scratch space. Stops early (PLAYED_END_ABORTED) once *stop is set. The result goes to out
 * (out->index is left alone).
 */
void referee_play(uint64_t game_no, const struct variant *v, const struct opening *opening,
                  struct player *const players[SIDE_NB], const struct time_control tc[SIDE_NB],
                  const struct adjudication *adj, atomic_bool *stop, struct tafl_game *game,
                  struct played_game *out);

#endif
