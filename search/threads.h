/*
 * A persistent pool of worker threads for Lazy SMP, parked on a condition variable between jobs.
 *
 * The pool knows nothing of the search: each worker holds a context pointer, and a job is a
 * number handed with every context to the pool's work function. The caller's own thread is
 * worker 0: pool_begin wakes the helpers (1..n-1) on a job, the caller does its own share, then
 * pool_wait returns once every helper is done. A helper started while the pool is idle waits for
 * the next job; it never redoes the last one.
 */
#ifndef HNEFI_SEARCH_THREADS_H
#define HNEFI_SEARCH_THREADS_H

#include <pthread.h>
#include <stdbool.h>

enum { POOL_MAX_THREADS = 64 };

struct pool;

/* One helper thread of a pool. */
struct pool_worker {
    struct pool *pool;
    void *ctx;
    int seen; /* the last job generation this worker took */
    pthread_t handle;
};

struct pool {
    void (*work)(void *ctx, int job);
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    int generation; /* bumped to start the helpers on a job */
    int job;        /* what the helpers were started for */
    int running;    /* helpers still working */
    bool quit;
    int helpers; /* helper threads running */
    struct pool_worker workers[POOL_MAX_THREADS];
};

/* Sets up an empty pool whose jobs run work(ctx, job). */
void pool_init(struct pool *pl, void (*work)(void *ctx, int job));

/* Starts one more helper with context ctx; false if the thread cannot be made or the pool is full.
 */
bool pool_add(struct pool *pl, void *ctx);

/* Stops and joins every helper (the pool is idle afterwards, with none). */
void pool_stop_helpers(struct pool *pl);

/* Wakes every helper on job. */
void pool_begin(struct pool *pl, int job);

/* Waits until every helper woken by pool_begin has finished. */
void pool_wait(struct pool *pl);

/* Stops the helpers and frees the pool's locks. */
void pool_destroy(struct pool *pl);

#endif
