/* The worker pool: helpers parked on a condition variable, woken per job. */
#include "search/threads.h"

/* Body of a helper: wait for a job, do it, report done. */
static void *worker_main(void *arg) {
    struct pool_worker *w = arg;
    struct pool *pl = w->pool;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        while (!pl->quit && pl->generation == w->seen) pthread_cond_wait(&pl->wake, &pl->lock);
        if (pl->quit) break;
        w->seen = pl->generation;
        int job = pl->job;
        pthread_mutex_unlock(&pl->lock);
        pl->work(w->ctx, job);
        pthread_mutex_lock(&pl->lock);
        if (--pl->running == 0) pthread_cond_broadcast(&pl->done);
    }
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

/* Sets up an empty pool whose jobs run work(ctx, job). */
void pool_init(struct pool *pl, void (*work)(void *ctx, int job)) {
    pl->work = work;
    pthread_mutex_init(&pl->lock, NULL);
    pthread_cond_init(&pl->wake, NULL);
    pthread_cond_init(&pl->done, NULL);
    pl->generation = pl->job = pl->running = pl->helpers = 0;
    pl->quit = false;
}

/* Starts one more helper with context ctx; false if it cannot be made or the pool is full. */
bool pool_add(struct pool *pl, void *ctx) {
    if (pl->helpers >= POOL_MAX_THREADS) return false;
    struct pool_worker *w = &pl->workers[pl->helpers];
    w->pool = pl;
    w->ctx = ctx;
    w->seen = pl->generation; /* a new helper waits for the next job, never redoes the last */
    if (pthread_create(&w->handle, NULL, worker_main, w) != 0) return false;
    pl->helpers++;
    return true;
}

/* Stops and joins every helper. */
void pool_stop_helpers(struct pool *pl) {
    pthread_mutex_lock(&pl->lock);
    pl->quit = true;
    pthread_cond_broadcast(&pl->wake);
    pthread_mutex_unlock(&pl->lock);
    for (int i = 0; i < pl->helpers; i++) pthread_join(pl->workers[i].handle, NULL);
    pl->helpers = 0;
    pl->quit = false;
}

/* Wakes every helper on job. */
void pool_begin(struct pool *pl, int job) {
    pthread_mutex_lock(&pl->lock);
    pl->job = job;
    pl->running = pl->helpers;
    pl->generation++;
    pthread_cond_broadcast(&pl->wake);
    pthread_mutex_unlock(&pl->lock);
}

/* Waits until every helper woken by pool_begin has finished. */
void pool_wait(struct pool *pl) {
    pthread_mutex_lock(&pl->lock);
    while (pl->running > 0) pthread_cond_wait(&pl->done, &pl->lock);
    pthread_mutex_unlock(&pl->lock);
}

/* Stops the helpers and frees the pool's locks. */
void pool_destroy(struct pool *pl) {
    pool_stop_helpers(pl);
    pthread_mutex_destroy(&pl->lock);
    pthread_cond_destroy(&pl->wake);
    pthread_cond_destroy(&pl->done);
}
