/* Tournaments: schedule, workers, the collector with its statistics, records and resume. */
#include "selfplay/match.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book/zio.h"
#include "selfplay/datagen.h"
#include "selfplay/match_impl.h"
#include "selfplay/match_settings.h"
#include "selfplay/records.h"

enum { GAME_TODO, GAME_RUNNING, GAME_DONE };
enum { NOTE_MAX = 700, END_SLOTS = PLAYED_END_NB + 8 };

/* What the statistics need of a finished game. */
struct outcome {
    bool done; /* read and written by the collector only */
    uint8_t result, end, reason;
    int taken[SIDE_NB]; /* pieces taken by each side, the king included */
    int plies;
};

/* One worker thread and its own player instances. */
struct worker {
    struct match *m;
    pthread_t thread;
    bool started;
    struct player players[MATCH_MAX_PLAYERS];
    bool have[MATCH_MAX_PLAYERS];
    struct player *active[SIDE_NB]; /* the players of the game in progress (under m->lock) */
    struct tafl_game *game;
};

/* A queued result. */
struct queued {
    struct played_game *r;
    struct queued *next;
};

struct match {
    struct match_config cfg;
    int nenc;
    struct match_encounter *enc;
    int64_t pairs, total;
    uint8_t *state;
    struct outcome *out;
    int *perm; /* opening order when shuffled */
    /* workers */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    atomic_bool stop;
    struct worker *workers;
    int nworkers, running;
    match_take_fn take;
    match_give_fn give;
    void *take_ctx;
    int64_t cursor;
    struct queued *head, *tail;
    /* collector */
    bool collector;
    int records_fd, datagen_fd;
    int64_t next_pair;
    struct match_status st;
    int64_t hist_cap;
    int64_t beyond; /* records past this run's last game */
    struct timespec start;
    char error[NOTE_MAX];
};

/* Returns the slot of an end: the rule reasons 0..7, then the referee's ends from 8. */
static int end_slot(int end, int reason) {
    return end == PLAYED_END_RULES ? reason & 7 : 8 + end;
}

/* Returns the index in match_status.ends of an end. */
int match_end_slot(int end, int reason) {
    return end_slot(end, reason);
}

/* Returns the text word of an ends slot. */
const char *match_end_slot_word(int slot) {
    return slot < 8 ? played_end_word(PLAYED_END_RULES, slot) : played_end_word(slot - 8, 0);
}

/* Writes how games ended, and by which end each side won (see match.h). */
void match_print_ends(FILE *out, const int64_t ends[MATCH_END_SLOTS],
                      const int64_t won[SIDE_NB][MATCH_END_SLOTS]) {
    fprintf(out, "ends:");
    for (int s = 0; s < MATCH_END_SLOTS; s++)
        if (ends[s]) fprintf(out, " %s %lld", match_end_slot_word(s), (long long)ends[s]);
    fprintf(out, "\n");
    if (!won) return;
    static const char *const who[3] = {"attackers", "defenders", "drawn"};
    fprintf(out, "by winner:");
    bool any = false; /* a group was written */
    for (int k = 0; k < 3; k++) {
        bool first = true;
        for (int s = 0; s < MATCH_END_SLOTS; s++) {
            int64_t n = k < 2 ? won[k][s] : ends[s] - won[0][s] - won[1][s];
            if (!n) continue;
            if (first) fprintf(out, "%s%s", any ? "; " : " ", who[k]);
            fprintf(out, " %s %lld", match_end_slot_word(s), (long long)n);
            first = false;
            any = true;
        }
    }
    fprintf(out, "\n");
}

/* Sends a note to the caller. */
static void note(const struct match *m, const char *text) {
    if (m->cfg.on_note) m->cfg.on_note(text, m->cfg.ctx);
}

/* Returns the encounter of a game, and which player attacks in it. */
static const struct match_encounter *game_encounter(const struct match *m, int64_t g, int *attacker,
                                                    int *defender) {
    const struct match_encounter *e = &m->enc[(g / 2) % m->nenc];
    *attacker = g % 2 == 0 ? e->a : e->b;
    *defender = g % 2 == 0 ? e->b : e->a;
    return e;
}

/* Builds the opening of a round; false if no random opening could be found. */
static bool round_opening(const struct match *m, int64_t round, struct opening *o) {
    const struct opening_set *set = m->cfg.openings;
    if (set) {
        int64_t k = round % set->count;
        *o = set->items[m->perm ? m->perm[k] : k];
        return true;
    }
    return openings_random(o, m->cfg.v, m->cfg.random_plies, m->cfg.seed, (uint64_t)round);
}

/* Returns seconds since t. */
static double seconds_since(const struct timespec *t) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Returns the next game to play (marking it started), or -1 when none is left or all is done. */
int64_t match_next_game(struct match *m) {
    int64_t g = -1;
    pthread_mutex_lock(&m->lock);
    while (m->cursor < m->total && m->state[m->cursor] != GAME_TODO) m->cursor++;
    if (m->cursor < m->total && !atomic_load(&m->stop)) {
        g = m->cursor;
        m->state[g] = GAME_RUNNING;
    }
    pthread_mutex_unlock(&m->lock);
    return g;
}

/* Queues a finished game (heap-allocated, owned by the match from now on) for the collector. */
void match_submit(struct match *m, struct played_game *r) {
    struct queued *q = malloc(sizeof *q);
    pthread_mutex_lock(&m->lock);
    if (q) {
        q->r = r;
        q->next = NULL;
        if (m->tail)
            m->tail->next = q;
        else
            m->head = q;
        m->tail = q;
    } else {
        free(r);
    }
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

/* Default take and give: the local schedule and the local collector. */
static int64_t local_take(void *ctx) {
    return match_next_game(ctx);
}

/* Hands a result to the local collector. */
static void local_give(void *ctx, struct played_game *r) {
    match_submit(ctx, r);
}

/* Returns a worker's instance of player i, making it if needed; NULL with a reason. */
static struct player *worker_player(struct worker *w, int i, char *err, size_t errlen) {
    if (!w->have[i]) {
        const struct player_spec *spec = &w->m->cfg.players[i];
        if (!spec->create(spec, &w->players[i], err, errlen)) return NULL;
        w->have[i] = true;
    }
    return &w->players[i];
}

/* Plays game g into r. */
static void worker_play(struct worker *w, int64_t g, struct played_game *r) {
    struct match *m = w->m;
    int who[SIDE_NB];
    game_encounter(m, g, &who[SIDE_ATTACKERS], &who[SIDE_DEFENDERS]);
    struct player *p[SIDE_NB];
    struct time_control tc[SIDE_NB];
    struct opening o;
    r->index = g;
    r->n = r->opening_plies = 0;
    r->reason = END_NONE;
    r->detail[0] = '\0';
    for (int s = 0; s < SIDE_NB; s++) {
        char err[PLAYER_WHY_MAX - 16];
        tc[s] = m->cfg.players[who[s]].tc;
        if (!(p[s] = worker_player(w, who[s], err, sizeof err))) {
            r->result = s == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
            r->end = PLAYED_END_CRASH;
            r->loser = (uint8_t)s;
            snprintf(r->detail, sizeof r->detail, "cannot start: %s", err);
            return;
        }
    }
    if (!round_opening(m, g / 2 / m->nenc, &o)) {
        r->result = RESULT_NONE;
        r->end = PLAYED_END_ABORTED;
        snprintf(r->detail, sizeof r->detail, "no random opening of %d plies", m->cfg.random_plies);
        return;
    }
    pthread_mutex_lock(&m->lock);
    w->active[0] = p[0];
    w->active[1] = p[1];
    pthread_mutex_unlock(&m->lock);
    referee_play((uint64_t)g, m->cfg.v, &o, p, tc, &m->cfg.adj, &m->stop, w->game, r);
    pthread_mutex_lock(&m->lock);
    w->active[0] = w->active[1] = NULL;
    pthread_mutex_unlock(&m->lock);
}

/* A worker thread: take a game, play it, give the result, until there is none. */
static void *worker_main(void *arg) {
    struct worker *w = arg;
    struct match *m = w->m;
    for (;;) {
        int64_t g = atomic_load(&m->stop) ? -1 : m->take(m->take_ctx);
        if (g < 0) break;
        struct played_game *r = malloc(sizeof *r);
        if (!r) break;
        worker_play(w, g, r);
        if (r->end == PLAYED_END_ABORTED) {
            free(r);
            if (atomic_load(&m->stop)) break;
            continue;
        }
        m->give(m->take_ctx, r);
    }
    for (int i = 0; i < MATCH_MAX_PLAYERS; i++)
        if (w->have[i]) w->players[i].ops->free(w->players[i].self);
    pthread_mutex_lock(&m->lock);
    m->running--;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

/* Starts n worker threads fed by take and emptied by give; false with a reason. */
bool match_start_workers(struct match *m, int n, match_take_fn take, match_give_fn give, void *ctx,
                         char *err, size_t errlen) {
    m->take = take ? take : local_take;
    m->give = give ? give : local_give;
    m->take_ctx = ctx ? ctx : m;
    m->workers = calloc((size_t)n, sizeof *m->workers);
    if (!m->workers) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    m->nworkers = n;
    for (int i = 0; i < n; i++) {
        struct worker *w = &m->workers[i];
        w->m = m;
        if (!(w->game = tafl_new(m->cfg.v))) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        pthread_mutex_lock(&m->lock);
        m->running++;
        pthread_mutex_unlock(&m->lock);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            pthread_mutex_lock(&m->lock);
            m->running--;
            pthread_mutex_unlock(&m->lock);
            snprintf(err, errlen, "cannot start a worker thread");
            return false;
        }
        w->started = true;
    }
    return true;
}

/* Tells workers to stop, aborts the games they are playing, and joins them. */
void match_stop_workers(struct match *m) {
    atomic_store(&m->stop, true);
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nworkers; i++)
        for (int s = 0; s < SIDE_NB; s++)
            if (m->workers[i].active[s])
                m->workers[i].active[s]->ops->abort(m->workers[i].active[s]->self);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < m->nworkers; i++) {
        if (m->workers[i].started) pthread_join(m->workers[i].thread, NULL);
        m->workers[i].started = false;
        tafl_free(m->workers[i].game);
        m->workers[i].game = NULL;
    }
}

/* Returns how many workers are still running. */
int match_workers_running(struct match *m) {
    pthread_mutex_lock(&m->lock);
    int n = m->running;
    pthread_mutex_unlock(&m->lock);
    return n;
}

/* Returns how many games the schedule holds. */
int64_t match_total_games(const struct match *m) {
    return m->total;
}

/* Scores one game for the encounter's first player: 2 a win, 1 a draw, 0 a loss. */
static int half_points(const struct outcome *o, int a_side) {
    if (o->result == RESULT_DRAW) return 1;
    int winner = o->result == RESULT_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
    return winner == a_side ? 2 : 0;
}

/* Adds counted pair p to its encounter, then tests the SPRT. */
static void count_pair(struct match *m, int64_t p) {
    struct match_encounter *e = &m->enc[p % m->nenc];
    struct match_status *st = &m->st;
    int points = 0, wins = 0, losses = 0, pieces = 0;
    for (int k = 0; k < 2; k++) {
        const struct outcome *o = &m->out[2 * p + k];
        int a_side = k == 0 ? SIDE_ATTACKERS : SIDE_DEFENDERS, hp = half_points(o, a_side);
        points += hp;
        wins += hp == 2;
        losses += hp == 0;
        e->wdl[a_side][hp == 2 ? 0 : hp == 1 ? 1 : 2]++;
        e->taken += o->taken[a_side];
        e->lost += o->taken[!a_side];
        pieces += o->taken[a_side] - o->taken[!a_side];
        st->ends[end_slot(o->end, o->reason)]++;
        if (o->result == RESULT_ATTACKERS || o->result == RESULT_DEFENDERS)
            st->won[o->result == RESULT_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS]
                   [end_slot(o->end, o->reason)]++;
        st->plies += o->plies;
    }
    if (m->cfg.scoring == SCORING_TABLUT)
        points = wins != losses ? (wins > losses ? 4 : 0) : pieces > 0 ? 4 : pieces < 0 ? 0 : 2;
    e->penta[points]++;
    e->pairs++;
    st->counted += 2;
    stats_penta_estimate(e->penta, &e->est);
    if (m->cfg.use_sprt) e->llr = stats_penta_llr(e->penta, m->cfg.sprt.elo0, m->cfg.sprt.elo1);
    if (p % m->nenc == 0) {
        if (st->nhistory == m->hist_cap) {
            int64_t cap = m->hist_cap ? m->hist_cap * 2 : 256;
            struct match_point *h = realloc(st->history, (size_t)cap * sizeof *h);
            if (!h) return;
            st->history = h;
            m->hist_cap = cap;
        }
        struct match_point *pt = &st->history[st->nhistory++];
        pt->games = 2 * e->pairs;
        pt->score = e->est.score;
        pt->elo = e->est.elo;
        pt->elo_lo = e->est.elo_lo;
        pt->elo_hi = e->est.elo_hi;
        pt->llr = e->llr;
    }
    if (m->cfg.use_sprt && m->nenc == 1)
        st->sprt = sprt_decide(&m->cfg.sprt, e->llr, e->pairs, stats_penta_unsplit(e->penta));
}

/* Counts every pair that is now complete, in order, until the SPRT decides. */
static void count_ready_pairs(struct match *m) {
    while (m->next_pair < m->pairs && m->st.sprt == SPRT_CONTINUE &&
           m->out[2 * m->next_pair].done && m->out[2 * m->next_pair + 1].done)
        count_pair(m, m->next_pair++);
    m->st.done = m->st.sprt != SPRT_CONTINUE || m->next_pair == m->pairs;
}

/* Stores the outcome of a game (its captures give the pieces taken). */
static void store_outcome(struct match *m, int64_t g, int result, int end, int reason, int n,
                          const move_t *moves, const bb_t *captures) {
    struct outcome *o = &m->out[g];
    records_count_taken(m->cfg.v, n, moves, captures, o->taken);
    if (end == PLAYED_END_RULES && reason == END_KING_CAPTURED) o->taken[SIDE_ATTACKERS]++;
    o->result = (uint8_t)result;
    o->end = (uint8_t)end;
    o->reason = (uint8_t)reason;
    o->plies = n;
    o->done = true;
    pthread_mutex_lock(&m->lock);
    m->state[g] = GAME_DONE;
    pthread_mutex_unlock(&m->lock);
    m->st.finished++;
}

/* Checks a record read back at the start against the schedule and counts it. */
static bool resume_record(const struct record *r, int64_t line, void *ctx) {
    struct match *m = ctx;
    char *e = m->error;
    size_t el = sizeof m->error;
    if (!r->extended) {
        snprintf(e, el, "line %lld is not a tournament record (it has 4 fields)", (long long)line);
        return false;
    }
    if (r->game >= m->total) {
        m->beyond++; /* a longer run of the same tournament */
        return true;
    }
    int att, def;
    game_encounter(m, r->game, &att, &def);
    const char *want_a = m->cfg.players[att].name, *want_d = m->cfg.players[def].name;
    if (strcmp(r->players[0], want_a) != 0 || strcmp(r->players[1], want_d) != 0) {
        snprintf(e, el,
                 "line %lld: game %lld is %s against %s, but this tournament plays %s against %s "
                 "there (another tournament's records?)",
                 (long long)line, (long long)r->game, r->players[0], r->players[1], want_a, want_d);
        return false;
    }
    if (m->out[r->game].done) {
        snprintf(e, el, "line %lld: game %lld is recorded twice", (long long)line,
                 (long long)r->game);
        return false;
    }
    struct opening o;
    bool same = round_opening(m, r->game / 2 / m->nenc, &o) && o.n == r->opening_plies &&
                memcmp(o.moves, r->moves, (size_t)o.n * sizeof(move_t)) == 0;
    if (!same) {
        snprintf(e, el,
                 "line %lld: game %lld starts from another opening than this tournament's "
                 "(other openings or seed?)",
                 (long long)line, (long long)r->game);
        return false;
    }
    store_outcome(m, r->game, r->result, r->end, r->reason, r->n, r->moves, r->captures);
    m->st.resumed++;
    return true;
}

/* Tells whether game g has a record (for the training-data resume). */
static bool has_record(int64_t g, void *ctx) {
    struct match *m = ctx;
    return g >= 0 && g < m->total && m->out[g].done;
}

/*
 * Checks the settings line of an existing record file against this tournament's; false with the
 * differences in err. *has tells whether the file has a settings line.
 */
static bool check_settings(struct match *m, const char *settings, bool *has, char *err,
                           size_t errlen) {
    char *recorded = malloc(MATCH_SETTINGS_MAX), *diff = malloc(NOTE_MAX);
    bool ok = recorded && diff;
    *has = ok && access(m->cfg.records, F_OK) == 0 &&
           records_comment(m->cfg.records, recorded, MATCH_SETTINGS_MAX) &&
           match_settings_line(recorded);
    if (*has && !match_settings_same(recorded, settings, diff, NOTE_MAX)) {
        snprintf(err, errlen,
                 "%s holds the games of a tournament with other settings (%s); resume with "
                 "the same settings, or give another --records file",
                 m->cfg.records, diff);
        ok = false;
    } else if (!ok) {
        snprintf(err, errlen, "out of memory");
    }
    free(recorded);
    free(diff);
    return ok;
}

/* Opens the output files, reading back what they hold; false with a reason. */
static bool open_outputs(struct match *m, char *err, size_t errlen) {
    char text[NOTE_MAX + 100], why[NOTE_MAX];
    if (m->cfg.records) {
        char *settings = malloc(MATCH_SETTINGS_MAX);
        bool has_settings = false;
        if (!settings || !match_settings_write(&m->cfg, settings, MATCH_SETTINGS_MAX - 1)) {
            snprintf(err, errlen, "%s",
                     settings ? "the settings line is too long" : "out of memory");
            free(settings);
            return false;
        }
        if (!check_settings(m, settings, &has_settings, err, errlen)) {
            free(settings);
            return false;
        }
        m->records_fd = records_open_append(m->cfg.records, m->cfg.v, resume_record, m, why,
                                            sizeof why, err, errlen);
        if (m->records_fd < 0) {
            if (m->error[0]) snprintf(err, errlen, "%s: %s", m->cfg.records, m->error);
            free(settings);
            return false;
        }
        /* a new file starts with the settings; an old one without them is checked game by game */
        if (!has_settings && m->st.resumed == 0 && m->beyond == 0) {
            strcat(settings, "\n");
            bool ok = zio_append_frame(m->records_fd, settings, strlen(settings), m->cfg.sync, why,
                                       sizeof why);
            free(settings);
            if (!ok) {
                snprintf(err, errlen, "%s: %s", m->cfg.records, why);
                return false;
            }
        } else {
            free(settings);
            if (!has_settings) {
                snprintf(text, sizeof text,
                         "%s names no settings (an older hnefi wrote it): only the players and "
                         "openings of its games are checked",
                         m->cfg.records);
                note(m, text);
            }
        }
        if (why[0]) {
            snprintf(text, sizeof text, "%s", why);
            note(m, text);
        }
        if (m->st.resumed > 0) {
            snprintf(text, sizeof text, "resumed %lld finished games from %s",
                     (long long)m->st.resumed, m->cfg.records);
            note(m, text);
        }
        if (m->beyond > 0) {
            snprintf(text, sizeof text,
                     "%lld recorded games lie beyond this run's %lld games and are not counted",
                     (long long)m->beyond, (long long)m->total);
            note(m, text);
        }
    }
    if (m->cfg.datagen) {
        m->datagen_fd = datagen_open_append(m->cfg.datagen, m->cfg.v, has_record, m, why,
                                            sizeof why, err, errlen);
        if (m->datagen_fd < 0) return false;
        if (why[0]) note(m, why);
    }
    return true;
}

/* Builds the encounters of the configured format. */
static bool make_encounters(struct match *m) {
    int n = m->cfg.nplayers;
    m->nenc = m->cfg.format == MATCH_GAUNTLET ? n - 1 : n * (n - 1) / 2;
    m->enc = calloc((size_t)m->nenc, sizeof *m->enc);
    if (!m->enc) return false;
    int k = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (m->cfg.format == MATCH_ROUND_ROBIN || a == 0) {
                m->enc[k].a = a;
                m->enc[k].b = b;
                stats_penta_estimate(m->enc[k].penta, &m->enc[k].est);
                k++;
            }
    return true;
}

/* Checks a configuration; false with a reason. */
static bool check_config(const struct match_config *c, char *err, size_t errlen) {
    if (c->nplayers < 2 || c->nplayers > MATCH_MAX_PLAYERS) {
        snprintf(err, errlen, "a tournament needs 2 to %d players (got %d)", MATCH_MAX_PLAYERS,
                 c->nplayers);
        return false;
    }
    for (int i = 0; i < c->nplayers; i++) {
        if (!player_name_valid(c->players[i].name)) {
            snprintf(err, errlen,
                     "player name '%s': use 1 to %d letters, digits and . _ + - : only",
                     c->players[i].name, PLAYER_NAME_MAX - 1);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(c->players[i].name, c->players[j].name) == 0) {
                snprintf(err, errlen, "two players are called %s: give each its own name",
                         c->players[i].name);
                return false;
            }
    }
    if (c->games < 2 || c->games % 2 || c->games > (INT64_C(1) << 36)) {
        snprintf(err, errlen, "games %lld: must be even (each opening is played twice), from 2",
                 (long long)c->games);
        return false;
    }
    if (c->concurrency < 1 || c->concurrency > 1024) {
        snprintf(err, errlen, "concurrency %d: must be 1 to 1024", c->concurrency);
        return false;
    }
    if (!c->openings && (c->random_plies < 0 || c->random_plies > OPENING_MAX_PLIES)) {
        snprintf(err, errlen, "random plies %d: must be 0 to %d", c->random_plies,
                 OPENING_MAX_PLIES);
        return false;
    }
    if (c->use_sprt && c->nplayers != 2) {
        snprintf(err, errlen, "the SPRT needs exactly two players (got %d)", c->nplayers);
        return false;
    }
    return true;
}

/* Builds a tournament (and, for the collector, resumes its records); NULL with a reason. */
struct match *match_open(const struct match_config *cfg, bool collector, char *err, size_t errlen) {
    if (!check_config(cfg, err, errlen)) return NULL;
    struct match *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->records_fd = m->datagen_fd = -1;
    m->collector = collector;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    atomic_init(&m->stop, false);
    clock_gettime(CLOCK_MONOTONIC, &m->start);
    if (!make_encounters(m)) {
        snprintf(err, errlen, "out of memory");
        match_close(m);
        return NULL;
    }
    m->pairs = cfg->games / 2 * m->nenc;
    m->total = m->pairs * 2;
    m->state = calloc((size_t)m->total, 1);
    m->out = calloc((size_t)m->total, sizeof *m->out);
    if (!m->state || !m->out) {
        snprintf(err, errlen, "out of memory for %lld games", (long long)m->total);
        match_close(m);
        return NULL;
    }
    if (cfg->openings && cfg->shuffle) {
        int n = cfg->openings->count;
        if (!(m->perm = malloc((size_t)n * sizeof *m->perm))) {
            snprintf(err, errlen, "out of memory");
            match_close(m);
            return NULL;
        }
        for (int i = 0; i < n; i++) m->perm[i] = i;
        uint64_t s = openings_mix(cfg->seed ^ 0x5a17);
        for (int i = n - 1; i > 0; i--) {
            s = openings_mix(s);
            int j = (int)(s % (uint64_t)(i + 1)), t = m->perm[i];
            m->perm[i] = m->perm[j];
            m->perm[j] = t;
        }
    }
    m->st.total = m->total;
    m->st.nenc = m->nenc;
    m->st.enc = m->enc;
    m->st.use_sprt = cfg->use_sprt;
    m->st.sprt = SPRT_CONTINUE;
    if (collector) {
        if (!open_outputs(m, err, errlen)) {
            match_close(m);
            return NULL;
        }
        count_ready_pairs(m);
    }
    return m;
}

/* Stops and joins the workers, closes the files and frees everything. */
void match_close(struct match *m) {
    if (!m) return;
    if (m->workers) match_stop_workers(m);
    free(m->workers);
    for (struct queued *q = m->head, *next; q; q = next) {
        next = q->next;
        free(q->r);
        free(q);
    }
    if (m->records_fd >= 0) close(m->records_fd);
    if (m->datagen_fd >= 0) close(m->datagen_fd);
    free(m->enc);
    free(m->state);
    free(m->out);
    free(m->perm);
    free(m->st.history);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
}

/* Writes a finished game's data and record, counts it, and notes faults; false on I/O errors. */
static bool collect_one(struct match *m, struct played_game *r, char *err, size_t errlen) {
    if (r->index < 0 || r->index >= m->total || m->out[r->index].done) return true;
    int who[SIDE_NB];
    game_encounter(m, r->index, &who[SIDE_ATTACKERS], &who[SIDE_DEFENDERS]);
    const char *names[SIDE_NB] = {m->cfg.players[who[0]].name, m->cfg.players[who[1]].name};
    char why[400];
    if (m->datagen_fd >= 0 &&
        !datagen_write_game(m->datagen_fd, m->cfg.v, r, m->cfg.sync, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", m->cfg.datagen, why);
        return false;
    }
    if (m->records_fd >= 0) {
        char *line = records_format(m->cfg.v, r, names);
        bool ok = line &&
                  zio_append_frame(m->records_fd, line, strlen(line), m->cfg.sync, why, sizeof why);
        free(line);
        if (!ok) {
            snprintf(err, errlen, "%s: %s", m->cfg.records, line ? why : "out of memory");
            return false;
        }
    }
    if (r->end >= PLAYED_END_TIMEOUT && r->end <= PLAYED_END_ILLEGAL) {
        char text[NOTE_MAX];
        snprintf(text, sizeof text, "game %lld: %s lost by %s (%s)", (long long)r->index,
                 names[r->loser & 1], played_end_word(r->end, r->reason), r->detail);
        note(m, text);
    }
    store_outcome(m, r->index, r->result, r->end, r->reason, r->n, r->moves, r->captures);
    for (int s = 0; s < SIDE_NB; s++) {
        const struct move_times *t = &r->times[s];
        struct match_times *mt = &m->st.times[who[s]];
        if (!mt->games) mt->min_left_ms = -1;
        mt->games++;
        mt->moves += t->moves;
        mt->used_ms += t->used_ms;
        mt->limit_ms += t->limit_ms;
        if (t->max_ms > mt->max_ms) mt->max_ms = t->max_ms;
        if (t->min_left_ms >= 0 && (mt->min_left_ms < 0 || t->min_left_ms < mt->min_left_ms))
            mt->min_left_ms = t->min_left_ms;
    }
    m->st.played++;
    count_ready_pairs(m);
    return true;
}

/*
 * Counts the queued results, waiting up to wait_ms (< 0: until a result arrives or every worker
 * has ended). Returns 1 when the tournament is decided or complete, 0 to go on, -1 on an error.
 */
int match_collect(struct match *m, int wait_ms, char *err, size_t errlen) {
    pthread_mutex_lock(&m->lock);
    if (!m->head && !m->st.done) {
        if (wait_ms < 0) {
            while (!m->head && m->running > 0) pthread_cond_wait(&m->cond, &m->lock);
        } else if (wait_ms > 0) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += (long)wait_ms * 1000000L;
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            pthread_cond_timedwait(&m->cond, &m->lock, &until);
        }
    }
    struct queued *q = m->head;
    m->head = m->tail = NULL;
    pthread_mutex_unlock(&m->lock);
    int rc = 0;
    while (q) {
        struct queued *next = q->next;
        if (rc == 0 && !collect_one(m, q->r, err, errlen)) rc = -1;
        if (rc == 0 && m->cfg.on_progress) {
            m->st.seconds = seconds_since(&m->start);
            m->cfg.on_progress(&m->st, m->cfg.ctx);
        }
        free(q->r);
        free(q);
        q = next;
    }
    if (rc < 0) return -1;
    return m->st.done ? 1 : 0;
}

/* Copies the current status into out (which must later go to match_status_free). */
void match_status_copy(const struct match *m, struct match_status *out) {
    *out = m->st;
    out->seconds = seconds_since(&m->start);
    out->enc = malloc((size_t)m->nenc * sizeof *out->enc);
    if (out->enc) memcpy(out->enc, m->enc, (size_t)m->nenc * sizeof *out->enc);
    out->history = NULL;
    if (m->st.nhistory > 0 &&
        (out->history = malloc((size_t)m->st.nhistory * sizeof *out->history)))
        memcpy(out->history, m->st.history, (size_t)m->st.nhistory * sizeof *out->history);
    if (!out->history) out->nhistory = 0;
    if (!out->enc) out->nenc = 0;
}

/* Frees what match_run allocated in a status. */
void match_status_free(struct match_status *st) {
    free(st->enc);
    free(st->history);
    st->enc = NULL;
    st->history = NULL;
}

/* Makes one instance of every player and starts a game with it, to fail early on bad engines. */
static bool try_players(const struct match_config *cfg, char *err, size_t errlen) {
    for (int i = 0; i < cfg->nplayers; i++) {
        struct player p;
        char why[PLAYER_WHY_MAX];
        if (!cfg->players[i].create(&cfg->players[i], &p, why, sizeof why)) {
            snprintf(err, errlen, "player %s cannot start: %s", cfg->players[i].name, why);
            return false;
        }
        bool ok = p.ops->new_game(p.self, cfg->v, why, sizeof why) == PLAYER_OK;
        p.ops->free(p.self);
        if (!ok) {
            snprintf(err, errlen, "player %s cannot start a game: %s", cfg->players[i].name, why);
            return false;
        }
    }
    return true;
}

/* Runs a tournament; 0, or -1 with a reason in err (bad configuration, damaged records, I/O). */
int match_run(const struct match_config *cfg, struct match_status *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!check_config(cfg, err, errlen) || !try_players(cfg, err, errlen)) return -1;
    struct match *m = match_open(cfg, true, err, errlen);
    if (!m) return -1;
    int rc = 0;
    if (!m->st.done) {
        int64_t left = m->total - m->st.finished;
        int n = cfg->concurrency < left ? cfg->concurrency : (int)left;
        if (!match_start_workers(m, n, NULL, NULL, NULL, err, errlen)) rc = -1;
        while (rc == 0) {
            int r = match_collect(m, -1, err, errlen);
            if (r < 0) rc = -1;
            if (r != 0) break;
            if (match_workers_running(m) == 0) {
                match_collect(m, 0, err, errlen);
                break;
            }
        }
        match_stop_workers(m);
        if (rc == 0 && match_collect(m, 0, err, errlen) < 0) rc = -1; /* games done meanwhile */
    }
    match_status_copy(m, out);
    match_close(m);
    return rc;
}
