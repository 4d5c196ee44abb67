/* Games with history: repetition, no legal move, undo. */
#include "engine/tafl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"

/* Allocates a game at the start position of v (NULL if out of memory). */
struct tafl *tafl_new(const struct variant *v) {
    struct tafl *t = malloc(sizeof *t);
    if (!t) return NULL;
    struct position start;
    pos_init_start(&start, v);
    tafl_reset(t, &start);
    return t;
}

/* Frees a game. */
void tafl_free(struct tafl *t) {
    free(t);
}

/* Counts the earlier positions (from pos[0]) equal to pos[i], counting pos[i] itself. */
int tafl_occurrences(const struct tafl *t, int i) {
    int count = 1;
    uint64_t key = t->pos[i].key;
    for (int j = i - 1; j >= 0; j--) {
        if (t->captures[j]) break; /* no position recurs across a capture */
        if ((i - j) % 2 == 0 && t->pos[j].key == key) count++;
    }
    return count;
}

/* Tells whether the placement of p occurred earlier in the game (either side to move). */
static bool placement_seen(const struct tafl *t, const struct position *p) {
    for (int j = t->n; j >= 0; j--) {
        if (j < t->n && t->captures[j]) break;
        if (t->pos[j].key == p->key || t->pos[j].key == (p->key ^ zobrist_side)) return true;
    }
    return false;
}

/* Tells whether a repetition rule bans the move m now. */
static bool banned_by_repetition(const struct tafl *t, move_t m) {
    enum repetition_rule rule = t->v->repetition;
    if (rule != REP_ILLEGAL_THIRD && rule != REP_ILLEGAL_DEFENDER_REPEAT) return false;
    const struct position *p = tafl_pos(t);
    struct position after;
    if (make_move(&after, p, m)) return false; /* a capture makes every position new */
    if (rule == REP_ILLEGAL_DEFENDER_REPEAT)
        return p->side == SIDE_DEFENDERS && placement_seen(t, &after);
    int count = 1;
    for (int j = t->n; j >= 0; j--) {
        if (j < t->n && t->captures[j]) break;
        if ((t->n + 1 - j) % 2 == 0 && t->pos[j].key == after.key) count++;
    }
    return count >= 3;
}

/* Writes the legal moves of the current position (repetition bans applied); returns the count. */
int tafl_legal_moves(const struct tafl *t, move_t *out) {
    if (t->result != RESULT_NONE) return 0;
    int n = gen_moves(tafl_pos(t), out), k = 0;
    for (int i = 0; i < n; i++)
        if (!banned_by_repetition(t, out[i])) out[k++] = out[i];
    return k;
}

/* Decides the complete status of the current position (§4.10). */
static void tafl_decide(struct tafl *t) {
    const struct position *p = tafl_pos(t);
    t->result = p->result;
    t->reason = p->reason;
    if (t->result != RESULT_NONE) return;
    enum repetition_rule rule = t->v->repetition;
    if (t->n > 0 && rule != REP_NONE && rule != REP_ILLEGAL_THIRD &&
        rule != REP_ILLEGAL_DEFENDER_REPEAT && tafl_occurrences(t, t->n) >= 3) {
        int mover = !p->side;
        int winner_mover = mover == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS;
        int loser_mover = mover == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
        t->reason = END_REPETITION;
        t->result = rule == REP_DRAW            ? RESULT_DRAW
                    : rule == REP_LOSS_REPEATER ? loser_mover
                    : rule == REP_WIN_REPEATER  ? winner_mover
                                                : RESULT_ATTACKERS;
        return;
    }
    move_t moves[MAX_MOVES];
    t->result = RESULT_NONE;
    if (tafl_legal_moves(t, moves) == 0) {
        t->reason = END_NO_MOVES;
        t->result = t->v->no_moves == NO_MOVES_DRAW ? RESULT_DRAW
                    : p->side == SIDE_ATTACKERS     ? RESULT_DEFENDERS
                                                    : RESULT_ATTACKERS;
    }
}

/* Restarts the game from position p. */
void tafl_reset(struct tafl *t, const struct position *p) {
    t->v = p->v;
    t->n = 0;
    t->pos[0] = *p;
    t->result = RESULT_NONE;
    t->reason = END_NONE;
    tafl_decide(t);
}

/* Tells whether m is legal now; if not, a reason goes to err. */
bool tafl_move_legal(const struct tafl *t, move_t m, char *err, size_t errlen) {
    const char *why = NULL;
    if (t->result != RESULT_NONE)
        why = "the game is over";
    else if (!move_is_legal(tafl_pos(t), m))
        why = "illegal move";
    else if (banned_by_repetition(t, m))
        why = "the repetition rule forbids this move";
    if (why && err && errlen) snprintf(err, errlen, "%s", why);
    return why == NULL;
}

/* Plays the legal move m and decides the new status; returns false if the game is full. */
bool tafl_play(struct tafl *t, move_t m) {
    if (t->n >= MAX_GAME_PLIES) return false;
    t->captures[t->n] = make_move(&t->pos[t->n + 1], &t->pos[t->n], m);
    t->moves[t->n] = m;
    t->n++;
    tafl_decide(t);
    return true;
}

/* Reads, checks and plays move text; on failure the game is unchanged and err says why. */
bool tafl_play_text(struct tafl *t, const char *text, char *err, size_t errlen) {
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
bool tafl_undo(struct tafl *t) {
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
