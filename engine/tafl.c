/* Games with history: repetition, no legal move, undo. */
#include "engine/tafl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"

/* Allocates a game at the start position of v (NULL if out of memory). */
struct tafl_game *tafl_new(const struct variant *v) {
    struct tafl_game *t = malloc(sizeof *t);
    if (!t) return NULL;
    struct position start;
    pos_init_start(&start, v);
    tafl_reset(t, &start);
    return t;
}

/* Frees a game. */
void tafl_free(struct tafl_game *t) {
    free(t);
}

/* Counts the positions of keys[0..len) with the same side to move equal to the last one. */
static int window_occurrences(const uint64_t *keys, int len) {
    int count = 0;
    for (int j = len - 1; j >= 0; j -= 2) count += keys[j] == keys[len - 1];
    return count;
}

/* Tells whether the placement of p occurred in keys[0..len) (either side to move). */
static bool window_placement_seen(const uint64_t *keys, int len, const struct position *p) {
    for (int j = len - 1; j >= 0; j--)
        if (keys[j] == p->key || keys[j] == (p->key ^ zobrist_side)) return true;
    return false;
}

/* Tells whether a repetition rule bans the move m from p, the last position of keys[0..len). */
static bool window_bans(const struct position *p, const uint64_t *keys, int len, move_t m) {
    enum repetition_rule rule = p->v->repetition;
    if (rule != REP_ILLEGAL_THIRD && rule != REP_ILLEGAL_DEFENDER_REPEAT) return false;
    struct position after;
    if (bb_any(make_move(&after, p, m))) return false; /* a capture makes every position new */
    if (rule == REP_ILLEGAL_DEFENDER_REPEAT)
        return p->side == SIDE_DEFENDERS && window_placement_seen(keys, len, &after);
    int count = 1;
    for (int j = len - 2; j >= 0; j -= 2) count += keys[j] == after.key;
    return count >= 3;
}

/* Writes the legal moves of p, the last position of keys[0..len), repetition bans applied. */
int tafl_window_moves(const struct position *p, const uint64_t *keys, int len, move_t *out) {
    if (p->result != RESULT_NONE) return 0;
    int n = movegen_list(p, out), k = 0;
    for (int i = 0; i < n; i++)
        if (!window_bans(p, keys, len, out[i])) out[k++] = out[i];
    return k;
}

/* Decides the complete status (§4.10) of p, the last position of keys[0..len). */
void tafl_window_status(const struct position *p, const uint64_t *keys, int len, uint8_t *result,
                        uint8_t *reason) {
    *result = p->result;
    *reason = p->reason;
    if (*result != RESULT_NONE) return;
    enum repetition_rule rule = p->v->repetition;
    if (rule != REP_NONE && rule != REP_ILLEGAL_THIRD && rule != REP_ILLEGAL_DEFENDER_REPEAT &&
        window_occurrences(keys, len) >= 3) {
        int mover = !p->side;
        int winner_mover = mover == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS;
        int loser_mover = mover == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
        *reason = END_REPETITION;
        *result = rule == REP_DRAW            ? RESULT_DRAW
                  : rule == REP_LOSS_REPEATER ? loser_mover
                  : rule == REP_WIN_REPEATER  ? winner_mover
                                              : RESULT_ATTACKERS;
        return;
    }
    move_t moves[MAX_MOVES];
    if (tafl_window_moves(p, keys, len, moves) == 0) {
        *reason = END_NO_MOVES;
        *result = p->v->no_moves == NO_MOVES_DRAW ? RESULT_DRAW
                  : p->side == SIDE_ATTACKERS     ? RESULT_DEFENDERS
                                                  : RESULT_ATTACKERS;
    }
}

/* Returns the first ply of the window that ends at pos[i]: the ply after the last capture. */
static int window_start(const struct tafl_game *t, int i) {
    int j = i;
    while (j > 0 && bb_is_empty(t->captures[j - 1])) j--;
    return j;
}

/* Counts the earlier positions (from pos[0]) equal to pos[i], counting pos[i] itself. */
int tafl_occurrences(const struct tafl_game *t, int i) {
    int first = window_start(t, i);
    return window_occurrences(&t->keys[first], i - first + 1);
}

/* Writes the legal moves of the current position (repetition bans applied); returns the count. */
int tafl_legal_moves(const struct tafl_game *t, move_t *out) {
    if (t->result != RESULT_NONE) return 0;
    int first = window_start(t, t->n);
    return tafl_window_moves(tafl_pos(t), &t->keys[first], t->n - first + 1, out);
}

/* Tells whether a repetition rule bans the move m now. */
static bool banned_by_repetition(const struct tafl_game *t, move_t m) {
    int first = window_start(t, t->n);
    return window_bans(tafl_pos(t), &t->keys[first], t->n - first + 1, m);
}

/* Decides the complete status of the current position (§4.10). */
static void tafl_decide(struct tafl_game *t) {
    int first = window_start(t, t->n);
    tafl_window_status(tafl_pos(t), &t->keys[first], t->n - first + 1, &t->result, &t->reason);
}

/* Restarts the game from position p. */
void tafl_reset(struct tafl_game *t, const struct position *p) {
    t->v = p->v;
    t->n = 0;
    t->pos[0] = *p;
    t->keys[0] = p->key;
    t->result = RESULT_NONE;
    t->reason = END_NONE;
    tafl_decide(t);
}

/* Tells whether m is legal now; if not, a reason goes to err. */
bool tafl_move_legal(const struct tafl_game *t, move_t m, char *err, size_t errlen) {
    const char *why = NULL;
    if (t->result != RESULT_NONE)
        why = "the game is over";
    else if (!movegen_is_legal(tafl_pos(t), m))
        why = "illegal move";
    else if (banned_by_repetition(t, m))
        why = "the repetition rule forbids this move";
    if (why && err && errlen) snprintf(err, errlen, "%s", why);
    return why == NULL;
}

/* Plays the legal move m and decides the new status; returns false if the game is full. */
bool tafl_play(struct tafl_game *t, move_t m) {
    if (t->n >= MAX_GAME_PLIES) return false;
    t->captures[t->n] = make_move(&t->pos[t->n + 1], &t->pos[t->n], m);
    t->moves[t->n] = m;
    t->keys[t->n + 1] = t->pos[t->n + 1].key;
    t->n++;
    tafl_decide(t);
    return true;
}

/* Reads, checks and plays move text; on failure the game is unchanged and err says why. */
bool tafl_play_text(struct tafl_game *t, const char *text, char *err, size_t errlen) {
    move_t m;
    if (t->result != RESULT_NONE) {
        char st[80];
        snprintf(err, errlen, "move '%.24s': the game is over (%s)", text,
                 tafl_status_text(t->result, t->reason, st, sizeof st));
        return false;
    }
    if (!move_parse_legal(tafl_pos(t), text, &m, err, errlen)) return false;
    if (banned_by_repetition(t, m)) {
        snprintf(err, errlen, "move '%.24s': the repetition rule forbids this move", text);
        return false;
    }
    if (!tafl_play(t, m)) {
        snprintf(err, errlen, "move '%.24s': the game has reached %d plies", text, MAX_GAME_PLIES);
        return false;
    }
    return true;
}

/* Takes back the last move; returns false at the start. */
bool tafl_undo(struct tafl_game *t) {
    if (t->n == 0) return false;
    t->n--;
    tafl_decide(t);
    return true;
}

/* Returns a short English text for a result and reason ("defenders win: king escaped"). */
const char *tafl_status_text(int result, int reason, char *buf, size_t len) {
    static const char *const reasons[] = {
        "",
        "the king escaped",
        "the king was captured",
        "the king and his last guard are shut in",
        "the attackers surround every defender",
        "exit fort",
        "threefold repetition",
        "no legal move",
    };
    const char *who = result == RESULT_ATTACKERS   ? "attackers win"
                      : result == RESULT_DEFENDERS ? "defenders win"
                      : result == RESULT_DRAW      ? "draw"
                                                   : "in play";
    if (result == RESULT_NONE)
        snprintf(buf, len, "%s", who);
    else
        snprintf(buf, len, "%s: %s", who, reasons[reason]);
    return buf;
}
