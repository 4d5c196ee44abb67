/*
 * Search scores: centi-men from the side to move's point of view ("100 = about one man"), and
 * forced results. A win in n plies scores SCORE_WIN - n and a loss in n plies -(SCORE_WIN - n),
 * so shorter wins score higher; every score at or beyond SCORE_WIN_MIN (in absolute value) is a
 * forced result. SCORE_INF bounds every window, and no line is longer than SEARCH_MAX_PLY. The
 * table, the search and the front ends that print scores share these.
 */
#ifndef HNEFI_SEARCH_SCORE_H
#define HNEFI_SEARCH_SCORE_H

#include <stdbool.h>

enum {
    SCORE_WIN = 30000,
    SCORE_WIN_MIN = 29000, /* scores at or beyond this are forced wins */
    SCORE_INF = 31000,
    SEARCH_MAX_PLY = 128, /* the deepest ply a search reaches: wins stay beyond SCORE_WIN_MIN */
};

/* Returns true if score is a forced win or loss; *plies gets its length. */
static inline bool score_is_win(int score, int *plies) {
    if (score >= SCORE_WIN_MIN)
        *plies = SCORE_WIN - score;
    else if (score <= -SCORE_WIN_MIN)
        *plies = SCORE_WIN + score;
    else
        return false;
    return true;
}

/*
 * Keeps an evaluation below the forced results: an evaluation is never a win, and windows
 * around it stay inside SCORE_INF (a network or weights file with extreme values would
 * otherwise give scores that no aspiration window can hold).
 */
static inline int score_clamp_eval(long long eval) {
    return eval >= SCORE_WIN_MIN    ? SCORE_WIN_MIN - 1
           : eval <= -SCORE_WIN_MIN ? -(SCORE_WIN_MIN - 1)
                                    : (int)eval;
}

#endif
