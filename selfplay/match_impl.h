/*
 * The parts of a tournament that selfplay/match.c and the multi-machine driver
 * (selfplay/match_mpi.c) share: a struct match holds the schedule, the per-game outcomes, the
 * statistics and the open record files; workers play games that a take function hands out and
 * give their results to a give function; the collector (one thread of the process that writes
 * the records) counts them.
 *
 * With collector set, match_open reads back the records (resume) and opens the output files;
 * without it (a worker-only process) it only builds the schedule. Workers take game numbers,
 * play them, and give heap-allocated results; match_submit queues a result for the collector
 * (from any thread); match_collect waits up to wait_ms for queued results and counts them.
 */
#ifndef HNEFI_SELFPLAY_MATCH_IMPL_H
#define HNEFI_SELFPLAY_MATCH_IMPL_H

#include "selfplay/match.h"

struct match;

typedef int64_t (*match_take_fn)(void *ctx);
typedef void (*match_give_fn)(void *ctx, struct played_game *r);

/* Builds a tournament (and, for the collector, resumes its records); NULL with a reason. */
struct match *match_open(const struct match_config *cfg, bool collector, char *err, size_t errlen);

/* Stops and joins the workers, closes the files and frees everything. */
void match_close(struct match *m);

/* Returns the next game to play (marking it started), or -1 when none is left or all is done. */
int64_t match_next_game(struct match *m);

/* Queues a finished game (heap-allocated, owned by the match from now on) for the collector. */
void match_submit(struct match *m, struct played_game *r);

/* Starts n worker threads fed by take and emptied by give; false with a reason. */
bool match_start_workers(struct match *m, int n, match_take_fn take, match_give_fn give, void *ctx,
                         char *err, size_t errlen);

/* Tells workers to stop, aborts the games they are playing, and joins them. */
void match_stop_workers(struct match *m);

/* Returns how many workers are still running. */
int match_workers_running(struct match *m);

/*
 * Counts the queued results, waiting up to wait_ms (< 0: until a result arrives or every worker
 * has ended). Returns 1 when the tournament is decided or complete, 0 to go on, -1 on an error.
 */
int match_collect(struct match *m, int wait_ms, char *err, size_t errlen);

/* Copies the current status into out (which must later go to match_status_free). */
void match_status_copy(const struct match *m, struct match_status *out);

/* Returns how many games the schedule holds. */
int64_t match_total_games(const struct match *m);

#endif
