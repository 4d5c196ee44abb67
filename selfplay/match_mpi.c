/* Tournaments across MPI ranks: rank 0 schedules and collects, every rank plays. */
#include "selfplay/match_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HNEFI_MPI
#include <mpi.h>
#include <pthread.h>
#include <time.h>

#include "selfplay/match_impl.h"
#endif

/* Tells whether this process was started by an MPI launcher (and MPI support is built in). */
bool match_mpi_launched(void) {
#ifdef HNEFI_MPI
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
#else
    return false;
#endif
}

/* Returns the number of ranks on this machine according to the launcher (1 if unknown). */
int match_mpi_local_ranks(void) {
    const char *s = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!s) s = getenv("MPI_LOCALNRANKS");
    int n = s ? atoi(s) : 1;
    return n > 0 ? n : 1;
}

#ifndef HNEFI_MPI

/*
 * Runs the tournament over every rank. *root says whether this process is rank 0, the one whose
 * status and errors count. 0, or -1 with a reason in err.
 */
int match_run_mpi(const struct match_config *cfg, struct match_status *out, bool *root, char *err,
                  size_t errlen) {
    (void)cfg;
    memset(out, 0, sizeof *out);
    *root = true;
    snprintf(err, errlen, "this hnefi was built without MPI (configure with -DHNEFI_MPI=ON)");
    return -1;
}

#else

enum { TAG_REQUEST = 1, TAG_WORK, TAG_RESULT, TAG_STOP, TAG_BYE, TIME_WORDS = 5 };
enum { HEADER_WORDS = 8 + SIDE_NB * TIME_WORDS, POLL_MS = 2 };

/* The bytes of one ply in a packed result: move, captures, score, score flag. */
#define PLY_BYTES (sizeof(move_t) + sizeof(bb_t) + sizeof(int16_t) + 1)

/* Packs a result into a new buffer: header words, then moves, captures, scores, score flags,
   detail. */
static char *pack(const struct played_game *r, int *len) {
    size_t dl = strlen(r->detail), n = (size_t)r->n;
    size_t size = HEADER_WORDS * 8 + n * PLY_BYTES + dl;
    char *buf = malloc(size);
    if (!buf) return NULL;
    int64_t h[HEADER_WORDS] = {r->index, r->result,        r->end, r->reason,
                               r->loser, r->opening_plies, r->n,   (int64_t)dl};
    for (int s = 0; s < SIDE_NB; s++) {
        const struct move_times *t = &r->times[s];
        int64_t *w = &h[8 + s * TIME_WORDS];
        w[0] = t->moves, w[1] = t->used_ms, w[2] = t->max_ms, w[3] = t->limit_ms;
        w[4] = t->min_left_ms;
    }
    char *p = buf;
    memcpy(p, h, sizeof h);
    p += sizeof h;
    memcpy(p, r->moves, n * sizeof(move_t));
    p += n * sizeof(move_t);
    memcpy(p, r->captures, n * sizeof(bb_t));
    p += n * sizeof(bb_t);
    memcpy(p, r->score, n * sizeof(int16_t));
    p += n * sizeof(int16_t);
    memcpy(p, r->has_score, n);
    p += n;
    memcpy(p, r->detail, dl);
    *len = (int)size;
    return buf;
}

/* Unpacks a result from len bytes into a new played_game; NULL if the bytes do not fit. */
static struct played_game *unpack(const char *buf, int len) {
    int64_t h[HEADER_WORDS];
    if (len < (int)sizeof h) return NULL;
    memcpy(h, buf, sizeof h);
    if (h[6] < 0 || h[6] > MAX_GAME_PLIES || h[7] < 0 || h[7] >= PLAYER_WHY_MAX ||
        (size_t)len != sizeof h + (size_t)h[6] * PLY_BYTES + (size_t)h[7])
        return NULL;
    struct played_game *r = malloc(sizeof *r);
    if (!r) return NULL;
    size_t n = (size_t)h[6];
    r->index = h[0];
    r->result = (uint8_t)h[1];
    r->end = (uint8_t)h[2];
    r->reason = (uint8_t)h[3];
    r->loser = (uint8_t)h[4];
    r->opening_plies = (int)h[5];
    r->n = (int)n;
    for (int s = 0; s < SIDE_NB; s++) {
        const int64_t *w = &h[8 + s * TIME_WORDS];
        r->times[s] = (struct move_times){(int)w[0], w[1], w[2], w[3], w[4]};
    }
    const char *p = buf + sizeof h;
    memcpy(r->moves, p, n * sizeof(move_t));
    p += n * sizeof(move_t);
    memcpy(r->captures, p, n * sizeof(bb_t));
    p += n * sizeof(bb_t);
    memcpy(r->score, p, n * sizeof(int16_t));
    p += n * sizeof(int16_t);
    memcpy(r->has_score, p, n);
    p += n;
    memcpy(r->detail, p, (size_t)h[7]);
    r->detail[h[7]] = '\0';
    return r;
}

/* Sleeps a little while nothing happens. */
static void nap(void) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* Tells the caller how many games each rank played (rank 0's share is what is left). */
static void note_ranks(const struct match_config *cfg, const struct match_status *st,
                       const int64_t *remote, int size) {
    char text[600];
    int64_t others = 0;
    for (int r = 1; r < size; r++) others += remote ? remote[r] : 0;
    int len = snprintf(text, sizeof text,
                       "MPI: %d ranks, %d games at once on each; games per rank:", size,
                       cfg->concurrency);
    for (int r = 0; r < size && len < (int)sizeof text - 40; r++)
        len += snprintf(text + len, sizeof text - (size_t)len, " %lld",
                        (long long)(r == 0 ? st->played - others
                                    : remote ? remote[r]
                                             : 0));
    if (cfg->on_note) cfg->on_note(text, cfg->ctx);
}

/* Rank 0: schedules, plays, collects, and stops every rank when the tournament is decided. */
static int run_root(const struct match_config *cfg, struct match_status *out, int size, char *err,
                    size_t errlen) {
    struct match *m = match_open(cfg, true, err, errlen);
    int rc = m ? 0 : -1, alive = size - 1;
    bool stopping = !m, *told = calloc((size_t)size, sizeof *told);
    int64_t *remote_games = calloc((size_t)size, sizeof *remote_games);
    if (!told || !remote_games) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        stopping = true;
    }
    if (m && !stopping && !match_start_workers(m, cfg->concurrency, NULL, NULL, NULL, err, errlen))
        rc = -1, stopping = true;
    while (alive > 0 || !stopping) {
        if (m && rc == 0) {
            int r = match_collect(m, stopping ? 0 : POLL_MS, err, errlen);
            if (r < 0) rc = -1;
            if (r != 0) stopping = true;
        } else {
            nap();
        }
        int flag = 1;
        MPI_Status st;
        while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
               flag) {
            int src = st.MPI_SOURCE, len = 0;
            MPI_Get_count(&st, MPI_BYTE, &len);
            char *buf = malloc(len > 0 ? (size_t)len : 1);
            MPI_Recv(buf, len, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (st.MPI_TAG == TAG_REQUEST) {
                int64_t g = stopping || !m ? -1 : match_next_game(m);
                MPI_Send(&g, 1, MPI_INT64_T, src, TAG_WORK, MPI_COMM_WORLD);
            } else if (st.MPI_TAG == TAG_RESULT) {
                struct played_game *r = m ? unpack(buf, len) : NULL;
                if (r) match_submit(m, r);
                if (r && remote_games) remote_games[src]++;
            } else if (st.MPI_TAG == TAG_BYE) {
                alive--;
            }
            free(buf);
        }
        if (stopping)
            for (int r = 1; r < size; r++)
                if (told && !told[r]) {
                    MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
                    told[r] = true; /* its BYE counts `alive` down */
                }
        if (m && !stopping && match_workers_running(m) == 0 && alive == 0) {
            int r = match_collect(m, 0, err, errlen);
            if (r < 0) rc = -1;
            stopping = true;
        }
    }
    if (m) {
        match_stop_workers(m);
        if (rc == 0 && match_collect(m, 0, err, errlen) < 0) rc = -1;
        match_status_copy(m, out);
        match_close(m);
        note_ranks(cfg, out, remote_games, size);
    }
    free(told);
    free(remote_games);
    return rc;
}

/* A worker rank's local queue of game numbers from rank 0 and its outgoing results. */
struct proxy {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int64_t *queue;
    int head, count, cap;
    int busy;    /* games being played here */
    bool nomore; /* rank 0 has no more games */
    bool stop;   /* rank 0 said stop */
    struct played_game **outbox;
    int nout, outcap;
};

/* Takes a game number for a local worker, waiting for rank 0's answer; -1 when none comes. */
static int64_t proxy_take(void *ctx) {
    struct proxy *p = ctx;
    int64_t g = -1;
    pthread_mutex_lock(&p->lock);
    while (!p->count && !p->nomore && !p->stop) pthread_cond_wait(&p->cond, &p->lock);
    if (p->count && !p->stop) {
        g = p->queue[p->head];
        p->head = (p->head + 1) % p->cap;
        p->count--;
        p->busy++;
    }
    pthread_mutex_unlock(&p->lock);
    return g;
}

/* Queues a local result for sending. */
static void proxy_give(void *ctx, struct played_game *r) {
    struct proxy *p = ctx;
    pthread_mutex_lock(&p->lock);
    if (p->nout < p->outcap)
        p->outbox[p->nout++] = r;
    else
        free(r);
    p->busy--;
    pthread_mutex_unlock(&p->lock);
}

/* Sends the queued results to rank 0. */
static void send_results(struct proxy *p) {
    pthread_mutex_lock(&p->lock);
    int n = p->nout;
    struct played_game *list[64];
    if (n > 64) n = 64;
    memcpy(list, p->outbox, (size_t)n * sizeof *list);
    memmove(p->outbox, p->outbox + n, (size_t)(p->nout - n) * sizeof *list);
    p->nout -= n;
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < n; i++) {
        int len;
        char *buf = pack(list[i], &len);
        if (buf) MPI_Send(buf, len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        free(buf);
        free(list[i]);
    }
}

/* A rank other than 0: asks for games, plays them, sends the results, until told to stop. */
static int run_worker(const struct match_config *cfg, int rank, char *err, size_t errlen) {
    struct match *m = match_open(cfg, false, err, errlen);
    int n = cfg->concurrency, outstanding = 0, rc = 0;
    struct proxy p = {.cap = 2 * n + 2, .outcap = 4 * n + 64};
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.cond, NULL);
    p.queue = malloc((size_t)p.cap * sizeof *p.queue);
    p.outbox = malloc((size_t)p.outcap * sizeof *p.outbox);
    if (!m || !p.queue || !p.outbox ||
        !match_start_workers(m, n, proxy_take, proxy_give, &p, err, errlen)) {
        rc = -1;
        if (!err[0]) snprintf(err, errlen, "out of memory");
        p.nomore = true;
    }
    bool told_stop = false;
    while (!told_stop) {
        pthread_mutex_lock(&p.lock);
        int want = p.nomore ? 0 : n - p.busy - p.count - outstanding;
        pthread_mutex_unlock(&p.lock);
        for (; want > 0; want--, outstanding++)
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD);
        send_results(&p);
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            nap();
            continue;
        }
        if (st.MPI_TAG == TAG_WORK) {
            int64_t g;
            MPI_Recv(&g, 1, MPI_INT64_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            outstanding--;
            pthread_mutex_lock(&p.lock);
            if (g < 0) {
                p.nomore = true;
            } else if (p.count < p.cap) {
                p.queue[(p.head + p.count) % p.cap] = g;
                p.count++;
            }
            pthread_cond_broadcast(&p.cond);
            pthread_mutex_unlock(&p.lock);
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (st.MPI_TAG == TAG_STOP) told_stop = true;
        }
    }
    pthread_mutex_lock(&p.lock);
    p.stop = true;
    pthread_cond_broadcast(&p.cond);
    pthread_mutex_unlock(&p.lock);
    if (m) match_stop_workers(m);
    send_results(&p);
    /* answers to requests still on their way are read before saying goodbye */
    while (outstanding > 0) {
        int64_t g;
        MPI_Recv(&g, 1, MPI_INT64_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        outstanding--;
    }
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD);
    for (int i = 0; i < p.nout; i++) free(p.outbox[i]);
    match_close(m);
    free(p.queue);
    free(p.outbox);
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.cond);
    if (rc < 0) {
        char tmp[400];
        snprintf(tmp, sizeof tmp, "rank %d: %s", rank, err);
        snprintf(err, errlen, "%s", tmp);
    }
    return rc;
}

/*
 * Runs the tournament over every rank. *root says whether this process is rank 0, the one whose
 * status and errors count. 0, or -1 with a reason in err.
 */
int match_run_mpi(const struct match_config *cfg, struct match_status *out, bool *root, char *err,
                  size_t errlen) {
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    int provided = 0, rank = 0, size = 1;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        *root = true;
        snprintf(err, errlen, "MPI could not start");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *root = rank == 0;
    int rc = rank == 0 ? run_root(cfg, out, size, err, errlen) : run_worker(cfg, rank, err, errlen);
    MPI_Finalize();
    return rc;
}

#endif
