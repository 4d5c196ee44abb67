/* The built-in tafl variants as games of the generic interface (see tafl_def.h). */
#include "engine/tafl_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/make.h"
#include "engine/notation.h"
#include "engine/tafl.h"

_Static_assert(sizeof(struct tafl_def_state) <= GAME_MAX_STATE, "a tafl state fits the buffer");
_Static_assert((int)MAX_MOVES <= (int)GAME_MAX_ACTIONS, "every legal move fits the action list");

/* Decides the status of s after its position changed. */
static void def_decide(struct tafl_def_state *s) {
    tafl_window_status(&s->pos, s->keys, s->nkeys, &s->result, &s->reason);
    if (s->result == RESULT_NONE && s->ply >= s->max_plies) {
        s->result = RESULT_DRAW;
        s->reason = END_NONE;
    }
}

/* Starts a game of v from position p with a ply limit. */
static void def_start(struct tafl_def_state *s, const struct position *p, int ply, int max_plies) {
    memset(s, 0, sizeof *s);
    s->pos = *p;
    s->ply = (uint16_t)ply;
    s->max_plies = (uint16_t)max_plies;
    s->keys[0] = p->key;
    s->nkeys = 1;
    def_decide(s);
}

/* Sets up a game of v from its start: two players, the option plies=N. */
static int def_init(const struct variant *v, void *st, int players, const char *options, char *err,
                    size_t errlen) {
    static const char *const known[] = {"plies", NULL};
    int max_plies = TAFL_DEF_MAX_PLIES;
    if (players != 2) {
        snprintf(err, errlen, "%s is a game of 2 players, not %d", v->name, players);
        return -1;
    }
    if (game_check_options(options, known, err, errlen) ||
        game_option_int(options, "plies", 1, TAFL_DEF_MAX_PLIES, &max_plies, err, errlen))
        return -1;
    struct position p;
    pos_init_start(&p, v);
    def_start(st, &p, 0, max_plies);
    return 0;
}

/* Returns the kind of node: a decision until the game ends. */
static int def_node(const void *st) {
    const struct tafl_def_state *s = st;
    return s->result == RESULT_NONE ? GAME_NODE_DECISION : GAME_NODE_TERMINAL;
}

/* Returns the side to move (0 attackers, 1 defenders). */
static int def_to_move(const void *st) {
    const struct tafl_def_state *s = st;
    return s->pos.side;
}

/* Writes the legal moves of the side to move (none for the other player). */
static int def_legal(const void *st, int player, int *actions) {
    const struct tafl_def_state *s = st;
    if (s->result != RESULT_NONE || player != s->pos.side) return 0;
    move_t moves[MAX_MOVES];
    int n = tafl_window_moves(&s->pos, s->keys, s->nkeys, moves);
    for (int i = 0; i < n; i++) actions[i] = moves[i];
    return n;
}

/* Plays a legal move and decides the new status. */
static void def_apply(void *st, int action) {
    struct tafl_def_state *s = st;
    struct position child;
    if (bb_any(make_move(&child, &s->pos, (move_t)action)))
        s->nkeys = 0; /* no recurrence past it */
    s->pos = child;
    s->keys[s->nkeys++] = child.key;
    s->ply++;
    def_decide(s);
}

/* Writes the shares of the win: 1 to the winner, a half each for a draw. */
static void def_result(const void *st, double *share) {
    const struct tafl_def_state *s = st;
    share[SIDE_ATTACKERS] = s->result == RESULT_ATTACKERS ? 1 : s->result == RESULT_DRAW ? 0.5 : 0;
    share[SIDE_DEFENDERS] = s->result == RESULT_DEFENDERS ? 1 : s->result == RESULT_DRAW ? 0.5 : 0;
}

/* Writes each side's pieces on the board (the king counts for the defenders). */
static void def_points(const void *st, double *points) {
    const struct tafl_def_state *s = st;
    points[SIDE_ATTACKERS] = bb_popcount(s->pos.att);
    points[SIDE_DEFENDERS] = bb_popcount(s->pos.def | s->pos.king);
}

/* Returns the plies played. */
static int def_length(const void *st) {
    const struct tafl_def_state *s = st;
    return s->ply;
}

/* Returns the number of players: two. */
static int def_players(const void *st) {
    (void)st;
    return 2;
}

/* Writes the board (top rank first), the side to move and the status. */
static int def_render(const void *st, char *buf, size_t n) {
    const struct tafl_def_state *s = st;
    const struct position *p = &s->pos;
    int size = p->v->size;
    size_t len = 0;
    for (int rank = size - 1; rank >= 0; rank--) {
        char row[2 * BB_MAX_SIZE + 8];
        int k = snprintf(row, sizeof row, "%2d ", rank + 1);
        for (int file = 0; file < size; file++) {
            enum piece pc = pos_piece_at(p, rank * size + file);
            row[k++] = pc == PIECE_ATTACKER ? 'a' : pc == PIECE_DEFENDER ? 'd' : pc ? 'k' : '.';
            row[k++] = ' ';
        }
        row[k - 1] = '\0';
        int w = snprintf(buf + len, len < n ? n - len : 0, "%s\n", row);
        len += (size_t)(w > 0 ? w : 0);
    }
    char files[2 * BB_MAX_SIZE + 4] = "   ", status[80];
    for (int file = 0; file < size; file++) {
        files[3 + 2 * file] = (char)('a' + file);
        files[4 + 2 * file] = ' ';
    }
    files[2 + 2 * size] = '\0';
    tafl_status_text(s->result, s->reason, status, sizeof status);
    if (s->result == RESULT_DRAW && s->reason == END_NONE)
        snprintf(status, sizeof status, "draw: the ply limit (%d)", s->max_plies);
    int w = snprintf(buf + len, len < n ? n - len : 0, "%s\nply %d, %s to move, %s\n", files,
                     s->ply, p->side == SIDE_ATTACKERS ? "attackers" : "defenders", status);
    len += (size_t)(w > 0 ? w : 0);
    return (int)len;
}

/* Writes the state as `board=<rows> side=a|d ply=N plies=N`. */
static int def_format(const void *st, char *buf, size_t n) {
    const struct tafl_def_state *s = st;
    char fen[FEN_MAX];
    fen_write(&s->pos, fen);
    char *space = strchr(fen, ' ');
    *space = '\0';
    return snprintf(buf, n, "board=%s side=%s ply=%d plies=%d", fen, space + 1, s->ply,
                    s->max_plies);
}

/* Reads a state written by def_format (ply and plies may be left out) for variant v. */
static int def_parse(const struct variant *v, void *st, const char *text, char *err,
                     size_t errlen) {
    char word[FEN_MAX + 16], rows[FEN_MAX] = "", side[4] = "";
    char *val;
    int got, ply = 0, max_plies = TAFL_DEF_MAX_PLIES;
    const char *p = text;
    while ((got = game_state_word(&p, word, sizeof word, &val, err, errlen)) > 0) {
        int lo = 0, *dst = NULL;
        if (strcmp(word, "board") == 0) {
            snprintf(rows, sizeof rows, "%s", val);
        } else if (strcmp(word, "side") == 0) {
            snprintf(side, sizeof side, "%s", val);
        } else if (strcmp(word, "ply") == 0) {
            dst = &ply;
        } else if (strcmp(word, "plies") == 0) {
            dst = &max_plies;
            lo = 1;
        } else {
            snprintf(err, errlen, "unknown STATE key '%s' (board, side, ply, plies)", word);
            return -1;
        }
        char *end;
        long x = dst ? strtol(val, &end, 10) : 0;
        if (dst && (!*val || *end || x < lo || x > TAFL_DEF_MAX_PLIES)) {
            snprintf(err, errlen, "%s=%s: not a ply count (%d..%d)", word, val, lo,
                     TAFL_DEF_MAX_PLIES);
            return -1;
        }
        if (dst) *dst = (int)x;
    }
    if (got < 0) return -1;
    if (!rows[0] || !side[0]) {
        snprintf(err, errlen, "STATE needs board=<FEN rows> and side=a|d");
        return -1;
    }
    char fen[FEN_MAX + 8];
    snprintf(fen, sizeof fen, "%s %s", rows, side);
    struct position pos;
    if (!fen_parse(&pos, v, fen, err, errlen)) return -1;
    def_start(st, &pos, ply, max_plies);
    return 0;
}

/* Names a move as `d1d3`. */
static int def_action_text(const void *st, int player, int action, char *buf, size_t n) {
    const struct tafl_def_state *s = st;
    (void)player;
    char text[MOVE_TEXT_MAX];
    move_write((move_t)action, s->pos.v->size, text);
    return snprintf(buf, n, "%s", text);
}

/* The functions that know which variant they play: one init and one parse per built-in. */
#define DEF_VARIANT(i)                                                                             \
    static int def_init_##i(void *st, int players, const char *options, char *err,                 \
                            size_t errlen) {                                                       \
        return def_init(variant_builtin(i), st, players, options, err, errlen);                    \
    }                                                                                              \
    static int def_parse_##i(void *st, const char *text, char *err, size_t errlen) {               \
        return def_parse(variant_builtin(i), st, text, err, errlen);                               \
    }
DEF_VARIANT(0)
DEF_VARIANT(1)
DEF_VARIANT(2)
DEF_VARIANT(3)
DEF_VARIANT(4)
#undef DEF_VARIANT

#define DEF_GAME(i, nm, ttl)                                                                       \
    {                                                                                              \
        .name = nm, .title = ttl, .min_players = 2, .max_players = 2, .default_players = 2,        \
        .state_size = sizeof(struct tafl_def_state),                                               \
        .options_help = "plies=N        a draw after N plies (1-440, default 440)\n",              \
        .init = def_init_##i, .node = def_node, .to_move = def_to_move, .legal = def_legal,        \
        .apply = def_apply, .result = def_result, .points = def_points, .length = def_length,      \
        .players = def_players, .render = def_render, .format = def_format,                        \
        .parse = def_parse_##i, .action_text = def_action_text                                     \
    }

/* The built-in variants as games, in the order of variant_builtin (engine/variant.c). */
const game_def tafl_def_games[TAFL_DEF_GAMES] = {
    DEF_GAME(0, "copenhagen", "Copenhagen Hnefatafl 11x11"),
    DEF_GAME(1, "fetlar", "Fetlar Hnefatafl 11x11"),
    DEF_GAME(2, "tablut", "Tablut 9x9"),
    DEF_GAME(3, "linnaeus", "Tablut after Linnaeus 9x9"),
    DEF_GAME(4, "brandubh", "Brandubh 7x7"),
};
