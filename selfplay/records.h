/*
 * Game records: one finished game per line, in the format of the real-game files of tests/data
 * (moves,attacker_captures,defender_captures,status) followed by what a tournament needs
 * (variant,attackers,defenders,opening,game,end); docs/records.md describes every field.
 *
 * A tournament appends each line as its own checksummed zstd frame (book/zio.h). Reading a
 * file back (records_scan) accepts plain text, zstd, and lines of four fields (the real-game
 * files); every line is replayed, so a line whose moves, captures or result do not fit the rules
 * is refused as damaged, naming the line. Lines that start with '#' are comments and skipped (a
 * tournament's first line holds its settings, selfplay/match_settings.h). records_open_append
 * reopens a tournament's file: a half-written frame at the end is cut off (with a message),
 * anything else damaged is refused.
 *
 * records_scan also reads OpenTafl game records (plain-text .otg files, one game after another:
 * `[key:value]` tags with `[result:1|-1|0]`, the rules string as a `[rules:]` tag or a line of
 * its own, turn lines `N. move move` with optional `[comments]`, a blank line after each game).
 * Their moves are replayed in the caller's variant, or else in the game's own rules; each game
 * is reported with the line it starts on.
 */
#ifndef HNEFI_SELFPLAY_RECORDS_H
#define HNEFI_SELFPLAY_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "selfplay/player.h"
#include "selfplay/referee.h"

/* One record line, read and replayed. */
struct record {
    bool extended;      /* it has the tournament fields */
    int n;              /* plies */
    int taken[SIDE_NB]; /* the capture counts as listed: by the attackers, by the defenders */
    int result;         /* enum result; RESULT_NONE for "Ongoing" */
    bool timeout;       /* the moves end with the word timeout */
    char variant[VARIANT_NAME_MAX];
    char players[SIDE_NB][PLAYER_NAME_MAX];
    int opening_plies;
    int64_t game;
    int end, reason; /* enum played_end, enum end_reason (extended lines) */
    const struct variant *v;
    bool foreign; /* after a failed parse: the line names a variant other than the one asked for */
    bool not_built_in; /* after a failed scan: the games are of a variant or size not built in */
    move_t moves[MAX_GAME_PLIES]; /* (the large arrays last: a parse clears what comes before) */
    bb_t captures[MAX_GAME_PLIES];
};

/* Writes a variant's name as records spell it (spaces and commas become '_'). */
void records_variant_name(const struct variant *v, char *out, size_t outlen);

/*
 * Formats a finished game as a record line (with its newline) into a new buffer (free()); names
 * are the players of the attackers and the defenders. NULL if out of memory.
 */
char *records_format(const struct variant *v, const struct played_game *g,
                     const char *const names[SIDE_NB]);

/* Counts the men each side took in the first n plies of a game of v with these moves and
   captures. */
void records_count_taken(const struct variant *v, int n, const move_t *moves, const bb_t *captures,
                         int taken[SIDE_NB]);

/*
 * Reads and replays one line (len bytes, no newline). v is the variant to replay in; if NULL, an
 * extended line names its own (a built-in variant) and a short line is Copenhagen. False with a
 * reason in err; out->foreign then tells a sound line of another variant from a damaged one.
 */
bool records_parse(const char *line, size_t len, const struct variant *v, struct record *out,
                   struct tafl_game *scratch, char *err, size_t errlen);

/* Called for each record of a file, with its 1-based line number; return false to stop. */
typedef bool (*records_fn)(const struct record *r, int64_t line, void *ctx);

/*
 * Reads every record of a file (plain text or zstd frames) and calls fn for each. A half-written
 * last frame is an error unless tail_ok is set; then *good_end gets the size of the sound part
 * and *truncated says whether anything was left over (its description goes to err). Returns
 * false with a reason in err on damage or when fn stops; a file of another kind (training data,
 * a book, a network) or of games of another variant is named as such, not as damaged.
 */
bool records_scan(const char *path, const struct variant *v, bool tail_ok, records_fn fn, void *ctx,
                  size_t *good_end, bool *truncated, char *err, size_t errlen);

/* Why records_scan_refused refused a file, when the reason is games this build does not have. */
struct records_refusal {
    bool not_built_in;              /* games of a variant, or on a board, this build lacks */
    char variant[VARIANT_NAME_MAX]; /* the variant's name; "" for an OpenTafl record's board */
};

/* records_scan that also fills *refused (if not NULL): whether the file was refused for games of
   a variant not built in (named) or, in an OpenTafl record, on a board of the other build. */
bool records_scan_refused(const char *path, const struct variant *v, bool tail_ok, records_fn fn,
                          void *ctx, size_t *good_end, bool *truncated,
                          struct records_refusal *refused, char *err, size_t errlen);

/* Copies the first line of a record file (plain or zstd) into out if it is a comment (starts
 * with '#', as a tournament's settings line does); false if it is not, or cannot be read. */
bool records_comment(const char *path, char *out, size_t outlen);

/*
 * Opens a tournament's record file for appending, creating it if needed, after calling fn for
 * every record already in it (resume). A half-written last frame is cut off and described in
 * note (empty otherwise). Returns the descriptor, or -1 with a reason in err.
 */
int records_open_append(const char *path, const struct variant *v, records_fn fn, void *ctx,
                        char *note, size_t notelen, char *err, size_t errlen);

#endif
