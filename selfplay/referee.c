/* One game between two players: the opening, the clocks, the rules and the adjudication. */
#include "selfplay/referee.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum { HANG_GRACE_MS = 1000 };

/* The record words of the ends, PLAYED_END_RULES by reason first. */
static const char *const rule_words[] = {"none",      "escape",    "king_captured", "immobile_king",
                                         "encircled", "exit_fort", "repetition",    "no_moves"};
static const char *const end_words[PLAYED_END_NB] = {
    "rules",   "max_plies", "quiet_plies", "resign",       "draw_agreed",
    "timeout", "hang",      "crash",       "illegal_move", "aborted"};

/* Sets the default adjudication: draw at 700 plies, no resignation or agreed draw, 100 ms margin.
 */
void adjudication_default(struct adjudication *a) {
    memset(a, 0, sizeof *a);
    a->max_plies = 700;
    a->time_margin_ms = 100;
    a->hang_ms = 60000;
}

/* Returns the record word of an end ("escape", "max_plies", "crash", ...). */
const char *played_end_word(int end, int reason) {
    if (end == PLAYED_END_RULES)
        return reason >= 0 && reason < (int)(sizeof rule_words / sizeof *rule_words)
                   ? rule_words[reason]
                   : "rules";
    return end >= 0 && end < PLAYED_END_NB ? end_words[end] : "unknown";
}

/* Reads a record word back into end and reason; false if it is none of them. */
bool played_end_parse(const char *word, int *end, int *reason) {
    for (int r = 1; r < (int)(sizeof rule_words / sizeof *rule_words); r++)
        if (strcmp(word, rule_words[r]) == 0) {
            *end = PLAYED_END_RULES;
            *reason = r;
            return true;
        }
    for (int e = PLAYED_END_MAX_PLIES; e < PLAYED_END_ABORTED; e++)
        if (strcmp(word, end_words[e]) == 0) {
            *end = e;
            *reason = END_NONE;
            return true;
        }
    return false;
}

/* Returns a monotonic time in milliseconds. */
static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Ends the game with side `loser` losing by a fault. */
static void lose(struct played_game *out, int loser, int end, const char *who, const char *why) {
    out->end = (uint8_t)end;
    out->loser = (uint8_t)loser;
    out->result = loser == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
    snprintf(out->detail, sizeof out->detail, "%.20s: %.170s", who, why);
}

/* Counts the plies since the last capture. */
static int quiet_plies(const struct tafl_game *g) {
    int k = 0;
    while (k < g->n && bb_is_empty(g->captures[g->n - 1 - k])) k++;
    return k;
}

/* The resignation and draw-agreement counters. */
struct adjudicator {
    int resign_run[SIDE_NB], win_run[SIDE_NB], draw_run;
};

/* Counts a move's score; returns the adjudicated result (RESULT_NONE: play on). */
static int adjudicate(struct adjudicator *a, const struct adjudication *adj, int side,
                      bool has_score, int score, int ply, int *end) {
    if (!has_score) {
        memset(a, 0, sizeof *a);
        return RESULT_NONE;
    }
    if (adj->resign_moves > 0) {
        a->resign_run[side] = score <= -adj->resign_score ? a->resign_run[side] + 1 : 0;
        a->win_run[side] = score >= adj->resign_score ? a->win_run[side] + 1 : 0;
        for (int s = 0; s < SIDE_NB; s++)
            if (a->resign_run[s] >= adj->resign_moves && a->win_run[!s] >= adj->resign_moves) {
                *end = PLAYED_END_RESIGN;
                return s == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
            }
    }
    if (adj->draw_moves > 0) {
        bool level = score <= adj->draw_score && score >= -adj->draw_score;
        a->draw_run = level && ply > adj->draw_after ? a->draw_run + 1 : 0;
        if (a->draw_run >= 2 * adj->draw_moves) {
            *end = PLAYED_END_DRAW_AGREED;
            return RESULT_DRAW;
        }
    }
    return RESULT_NONE;
}

/* Asks the mover for a move; false when the game ended (by a fault or an abort). */
static bool ask(struct player *p, const char *who, struct player_go *go,
                const struct adjudication *adj, int64_t *clock, struct player_reply *rep,
                struct played_game *out) {
    int side = tafl_pos(go->game)->side;
    /* a clock may stand below 0 after a move over it within the margin: it still limits (the
       debt counts against the next move), it is not "no limit" */
    bool limited = go->tc.kind == TC_MOVETIME || go->tc.kind == TC_CLOCK;
    int64_t allowed = go->tc.kind == TC_MOVETIME ? go->tc.movetime_ms
                      : go->tc.kind == TC_CLOCK  ? clock[side]
                                                 : 0;
    go->deadline_ms =
        limited ? (allowed > 0 ? allowed : 0) + adj->time_margin_ms + HANG_GRACE_MS : adj->hang_ms;
    int64_t t0 = now_ms();
    enum player_status st = p->ops->go(p->self, go, rep);
    int64_t used = now_ms() - t0;
    char why[PLAYER_WHY_MAX + 40];
    switch (st) {
    case PLAYER_OK: break;
    case PLAYER_CRASHED: lose(out, side, PLAYED_END_CRASH, who, rep->why); return false;
    case PLAYER_HUNG: lose(out, side, PLAYED_END_HANG, who, rep->why); return false;
    case PLAYER_BAD_MOVE: lose(out, side, PLAYED_END_ILLEGAL, who, rep->why); return false;
    case PLAYER_ABORTED: out->end = PLAYED_END_ABORTED; return false;
    }
    char err[120], text[MOVE_TEXT_MAX];
    if (!tafl_move_legal(go->game, rep->move, err, sizeof err)) {
        move_write(rep->move, go->game->v->size, text);
        snprintf(why, sizeof why, "played %s: %s", text, err);
        lose(out, side, PLAYED_END_ILLEGAL, who, why);
        return false;
    }
    if (limited && used > allowed + adj->time_margin_ms) {
        snprintf(why, sizeof why, "took %lld ms with %lld ms left", (long long)used,
                 (long long)allowed);
        lose(out, side, PLAYED_END_TIMEOUT, who, why);
        return false;
    }
    if (go->tc.kind == TC_CLOCK) clock[side] += go->inc_ms[side] - used;
    struct move_times *mt = &out->times[side];
    mt->moves++;
    mt->used_ms += used;
    if (used > mt->max_ms) mt->max_ms = used;
    if (go->tc.kind == TC_MOVETIME) mt->limit_ms += allowed;
    if (go->tc.kind == TC_CLOCK && (mt->min_left_ms < 0 || clock[side] < mt->min_left_ms))
        mt->min_left_ms = clock[side];
    return true;
}

/*
 * Plays game number game_no of a match: players[s] plays side s with time control tc[s]. game is
 * scratch space. Stops early (PLAYED_END_ABORTED) once *stop is set. The result goes to out
 * (out->index is left alone).
 */
void referee_play(uint64_t game_no, const struct variant *v, const struct opening *opening,
                  struct player *const players[SIDE_NB], const struct time_control tc[SIDE_NB],
                  const struct adjudication *adj, atomic_bool *stop, struct tafl_game *game,
                  struct played_game *out) {
    static const char *const side_names[SIDE_NB] = {"attackers", "defenders"};
    struct position start;
    pos_init_start(&start, v);
    tafl_reset(game, &start);
    out->result = RESULT_NONE;
    out->end = PLAYED_END_RULES;
    out->reason = END_NONE;
    out->loser = 0;
    out->detail[0] = '\0';
    for (int s = 0; s < SIDE_NB; s++) out->times[s] = (struct move_times){.min_left_ms = -1};
    for (int i = 0; i < opening->n && game->result == RESULT_NONE; i++) {
        out->has_score[i] = 0;
        out->score[i] = 0;
        tafl_play(game, opening->moves[i]);
    }
    out->opening_plies = game->n;
    int64_t clock[SIDE_NB] = {0, 0};
    struct player_go go = {.game = game, .game_no = game_no};
    for (int s = 0; s < SIDE_NB; s++) {
        char err[PLAYER_WHY_MAX];
        if (tc[s].kind == TC_CLOCK) {
            clock[s] = tc[s].base_ms;
            go.inc_ms[s] = tc[s].inc_ms;
        }
        if (out->result != RESULT_NONE || out->end == PLAYED_END_ABORTED) continue;
        enum player_status st = players[s]->ops->new_game(players[s]->self, v, err, sizeof err);
        if (st == PLAYER_OK) continue;
        if (atomic_load(stop) || st == PLAYER_ABORTED)
            out->end = PLAYED_END_ABORTED;
        else /* no answer in time is a hang, as during a move; anything else a crash */
            lose(out, s, st == PLAYER_HUNG ? PLAYED_END_HANG : PLAYED_END_CRASH, side_names[s],
                 err);
    }
    struct adjudicator adjr = {0};
    while (out->result == RESULT_NONE && out->end != PLAYED_END_ABORTED) {
        if (game->result != RESULT_NONE) {
            out->result = game->result;
            out->reason = game->reason;
            break;
        }
        int end = PLAYED_END_RULES;
        if ((adj->max_plies > 0 && game->n >= adj->max_plies) || game->n >= MAX_GAME_PLIES)
            end = PLAYED_END_MAX_PLIES;
        else if (adj->max_quiet > 0 && quiet_plies(game) >= adj->max_quiet)
            end = PLAYED_END_QUIET;
        if (end != PLAYED_END_RULES) {
            out->end = (uint8_t)end;
            out->result = RESULT_DRAW;
            break;
        }
        if (atomic_load(stop)) {
            out->end = PLAYED_END_ABORTED;
            break;
        }
        int side = tafl_pos(game)->side;
        struct player_reply rep;
        memset(&rep, 0, sizeof rep);
        go.tc = tc[side];
        for (int s = 0; s < SIDE_NB; s++) go.clock_ms[s] = clock[s];
        if (!ask(players[side], side_names[side], &go, adj, clock, &rep, out)) break;
        int ply = game->n;
        out->has_score[ply] = rep.has_score;
        out->score[ply] = (int16_t)(rep.score > 32767    ? 32767
                                    : rep.score < -32767 ? -32767
                                                         : rep.score);
        tafl_play(game, rep.move);
        if (game->result != RESULT_NONE) continue;
        int r = adjudicate(&adjr, adj, side, rep.has_score, rep.score, game->n, &end);
        if (r != RESULT_NONE) {
            out->result = (uint8_t)r;
            out->end = (uint8_t)end;
        }
    }
    out->n = game->n;
    memcpy(out->moves, game->moves, (size_t)game->n * sizeof(move_t));
    memcpy(out->captures, game->captures, (size_t)game->n * sizeof(bb_t));
}
