/*
 * The player interface of matches: whatever chooses moves (an in-process hnefi search, an
 * external engine behind a protocol) is a struct player, a table of operations and its data.
 *
 * A referee calls new_game once per game, then go for each of the player's moves with the game so
 * far and the time control; go answers a move (or why there is none: the engine crashed, hung or
 * sent nonsense) and, if the player says, its score from its own point of view (centi-men, wins as
 * in search.h). abort may be called from another thread to end a running go at once (the match is
 * over); free ends the player. A struct player_spec describes a player and makes instances of it:
 * every parallel game gets its own.
 *
 * An in-process player may have an opening book: it plays the book's move (book_choose, the
 * weighted draw seeded from book_seed and the position, so a game replays alike) and searches
 * only when the book has none.
 *
 * A time control is one of: fixed nodes, fixed depth, a fixed time per move, or a clock (base
 * time plus an increment per move). Its text form is nodes:N, depth:N, movetime:MS or BASE+INC
 * (seconds, for example 10+0.1).
 */
#ifndef HNEFI_SELFPLAY_PLAYER_H
#define HNEFI_SELFPLAY_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book/book.h"
#include "engine/notation.h"
#include "engine/tafl.h"
#include "search/search.h"

enum { PLAYER_NAME_MAX = 48, PLAYER_WHY_MAX = 200 };

enum tc_kind { TC_NODES, TC_DEPTH, TC_MOVETIME, TC_CLOCK };

struct time_control {
    enum tc_kind kind;
    uint64_t nodes;
    int depth;
    int64_t movetime_ms;
    int64_t base_ms, inc_ms;
};

/* What a player is asked for one move. */
struct player_go {
    const struct tafl_game *game; /* the game so far, from the variant's start position */
    struct time_control tc;       /* the mover's time control */
    int64_t clock_ms[SIDE_NB];    /* clocks left (TC_CLOCK), by enum side */
    int64_t inc_ms[SIDE_NB];      /* increments (TC_CLOCK) */
    int64_t deadline_ms;          /* an answer later than this counts as a hang (0: none) */
    uint64_t game_no;             /* the game's number in its match: seeds per-game choices */
};

/* How a go ended. */
enum player_status {
    PLAYER_OK,       /* a move (checked for legality by the referee) */
    PLAYER_CRASHED,  /* the player died or could not be started */
    PLAYER_HUNG,     /* no answer before the deadline */
    PLAYER_BAD_MOVE, /* the answer is not a move, or no move while there are legal moves */
    PLAYER_ABORTED,  /* abort was called */
};

struct player_reply {
    move_t move;
    bool has_score;
    int score;                /* the player's own view, centi-men */
    char why[PLAYER_WHY_MAX]; /* what went wrong, when status is not PLAYER_OK */
};

struct player_ops {
    enum player_status (*new_game)(void *self, const struct variant *v, char *err, size_t errlen);
    enum player_status (*go)(void *self, const struct player_go *go, struct player_reply *out);
    void (*abort)(void *self);
    void (*free)(void *self);
};

struct player {
    const struct player_ops *ops;
    void *self;
};

struct player_spec;
typedef bool (*player_create_fn)(const struct player_spec *spec, struct player *out, char *err,
                                 size_t errlen);

/* A player as configured: its name, time control, and how to make an instance. */
struct player_spec {
    char name[PLAYER_NAME_MAX];
    struct time_control tc;
    player_create_fn create;
    /* in-process hnefi */
    struct search_options opt;
    size_t hash_mib;
    const struct book *book; /* played from before searching; NULL: none (shared, read-only) */
    struct book_play book_play;
    uint64_t book_seed;
    /* anything else the create function needs (an external engine's command), or NULL */
    const void *ext;
    /* an external player as text for the records' settings line (its command and options) */
    const char *engine_text;
};

/* Reads a time control (nodes:N, depth:N, movetime:MS, BASE+INC in seconds); false with why. */
bool tc_parse(struct time_control *tc, const char *text, char *err, size_t errlen);

/* Writes a time control in its text form. */
void tc_write(const struct time_control *tc, char *out, size_t outlen);

/* Sets spec to an in-process hnefi player: default search options, 16 MiB, 1000 nodes. */
void player_spec_search(struct player_spec *spec, const char *name);

/* Makes an in-process hnefi player (one search thread pool, cleared at each new game). */
bool player_search_create(const struct player_spec *spec, struct player *out, char *err,
                          size_t errlen);

/* Tells whether a player name is usable in records: 1 to 47 of A-Z a-z 0-9 . _ + - : */
bool player_name_valid(const char *name);

#endif
