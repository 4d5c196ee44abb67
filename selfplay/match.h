/*
 * Tournaments: two or more players, colour-swapped pairs of games from the same opening, games
 * played in parallel, results counted in game order, an optional SPRT that stops the match, game
 * records and training data written as games finish, and resume from the records.
 *
 * The schedule is fixed by the configuration alone. Encounters are the pairs of players that
 * meet (every pair in a round robin, the first player against each other one in a gauntlet).
 * Game pair p belongs to encounter p mod E and round p / E; its two games are 2p (the encounter's
 * first player attacks) and 2p + 1 (sides swapped), both from opening number `round` (the file's
 * openings in order, or in a seeded shuffle; or random plies seeded from (seed, round)).
 *
 * Games finish in any order, but statistics take pairs strictly in order: pair p counts once
 * pairs 0..p are all finished. The SPRT is tested after each counted pair, so a match stops at the
 * same pair however many games run at once, on one machine or several (with nodes- or
 * depth-limited in-process players every game, and so every statistic, depends on the seed only).
 * Games finished beyond the deciding pair stay in the records but are not counted.
 *
 * Resume: with a record file that exists, every record in it is checked against the schedule
 * (game number, players, variant, opening) and counted, and only the missing games are played.
 */
#ifndef HNEFI_SELFPLAY_MATCH_H
#define HNEFI_SELFPLAY_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "selfplay/openings.h"
#include "selfplay/player.h"
#include "selfplay/referee.h"
#include "selfplay/stats.h"

enum { MATCH_END_SLOTS = PLAYED_END_NB + 8 }; /* the rules' 8 reasons, then the referee's ends */

enum { MATCH_MAX_PLAYERS = 32 };

enum match_format { MATCH_ROUND_ROBIN, MATCH_GAUNTLET };

/* How a pair of games scores: by games, or as one Tablut match (rules.md, seed Tablut notes). */
enum match_scoring { SCORING_GAMES, SCORING_TABLUT };

struct match_status;

struct match_config {
    const struct variant *v;
    const struct player_spec *players;
    int nplayers;
    enum match_format format;
    int64_t games;                      /* per encounter; even */
    int concurrency;                    /* games at once (on this process) */
    const struct opening_set *openings; /* NULL: random openings */
    int random_plies;
    uint64_t seed;
    bool shuffle; /* take the file's openings in a seeded random order */
    struct adjudication adj;
    enum match_scoring scoring;
    bool use_sprt;
    struct sprt sprt;
    const char *records; /* record file (zstd), or NULL */
    const char *datagen; /* training-data file, or NULL */
    bool sync;           /* sync each record to disk */
    /* called on the collecting thread after each finished game, and for notes */
    void (*on_progress)(const struct match_status *st, void *ctx);
    void (*on_note)(const char *text, void *ctx);
    void *ctx;
};

/* The results of one encounter, from its first player's point of view. */
struct match_encounter {
    int a, b;                   /* player indices */
    int64_t wdl[SIDE_NB][3];    /* a's wins, draws, losses with a on each side */
    int64_t penta[STATS_PENTA]; /* pair scores of a, counted pairs only */
    int64_t taken, lost;        /* pieces a took and lost (the king counts) */
    int64_t pairs;
    struct stats_estimate est; /* from the pentanomial counts */
    double llr;
};

/* One point of the match's history (the first encounter): after each counted pair. */
struct match_point {
    int64_t games;
    double score, elo, elo_lo, elo_hi, llr;
};

/* How long a player thought, over the games played in this run (resumed games have no times). */
struct match_times {
    int64_t moves, used_ms, max_ms, limit_ms, min_left_ms;
    int64_t games;
};

struct match_status {
    int64_t total;    /* games scheduled */
    int64_t finished; /* games with a result, resumed ones included */
    int64_t resumed;  /* read back from the records at the start */
    int64_t counted;  /* games in the counted pairs */
    int64_t played;   /* games finished by this run */
    int64_t plies;    /* plies of the counted games */
    double seconds;   /* wall time of this run */
    int nenc;
    struct match_encounter *enc;
    int64_t ends[MATCH_END_SLOTS]; /* counted games by end: rules reasons first, then the rest */
    int64_t won[SIDE_NB][MATCH_END_SLOTS]; /* counted games won by each side, by end */
    bool use_sprt;
    enum sprt_state sprt; /* the decision so far */
    bool done;            /* every game counted, or the SPRT decided */
    struct match_point *history;
    int64_t nhistory;
    struct match_times times[MATCH_MAX_PLAYERS]; /* by player */
};

/* Returns the index in match_status.ends of an end. */
int match_end_slot(int end, int reason);

/* Returns the text word of an ends slot. */
const char *match_end_slot_word(int slot);

/*
 * Writes how games ended: "ends: escape 3 repetition 1", then, where won is not NULL, the line
 * "by winner: attackers king_captured 1; defenders escape 3; drawn max_plies 1" (who won by
 * which end; slots of ends that neither side won are draws or unfinished games).
 */
void match_print_ends(FILE *out, const int64_t ends[MATCH_END_SLOTS],
                      const int64_t won[SIDE_NB][MATCH_END_SLOTS]);

/* Runs a tournament; 0, or -1 with a reason in err (bad configuration, damaged records, I/O). */
int match_run(const struct match_config *cfg, struct match_status *out, char *err, size_t errlen);

/* Frees what match_run allocated in a status. */
void match_status_free(struct match_status *st);

#endif
