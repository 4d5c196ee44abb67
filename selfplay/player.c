/* Time controls and the in-process hnefi player. */
#include "selfplay/player.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole non-negative decimal number; false if text is not one or exceeds hi. */
static bool read_count(const char *text, uint64_t hi, uint64_t *out) {
    char *end;
    if (*text < '0' || *text > '9') return false;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno || v > hi) return false;
    *out = v;
    return true;
}

/* Reads seconds (a decimal fraction) in [0, 1e6] into milliseconds. */
static bool read_seconds(const char *text, int64_t *ms) {
    char *end;
    if ((*text < '0' || *text > '9') && *text != '.') return false;
    double s = strtod(text, &end);
    if (*end || !(s >= 0) || s > 1e6) return false;
    *ms = (int64_t)llround(s * 1000.0);
    return true;
}

/* Reads a time control (nodes:N, depth:N, movetime:MS, BASE+INC in seconds); false with why. */
bool tc_parse(struct time_control *tc, const char *text, char *err, size_t errlen) {
    struct time_control t = {0};
    uint64_t v;
    const char *plus = strchr(text, '+');
    bool ok = false;
    if (strncmp(text, "nodes:", 6) == 0) {
        ok = read_count(text + 6, UINT64_C(1) << 50, &v) && v > 0;
        t.kind = TC_NODES;
        t.nodes = v;
    } else if (strncmp(text, "depth:", 6) == 0) {
        ok = read_count(text + 6, SEARCH_MAX_PLY - 8, &v) && v > 0;
        t.kind = TC_DEPTH;
        t.depth = (int)v;
    } else if (strncmp(text, "movetime:", 9) == 0) {
        ok = read_count(text + 9, 86400000, &v) && v > 0;
        t.kind = TC_MOVETIME;
        t.movetime_ms = (int64_t)v;
    } else if (plus) {
        char base[32];
        size_t n = (size_t)(plus - text);
        if (n > 0 && n < sizeof base) {
            memcpy(base, text, n);
            base[n] = '\0';
            ok = read_seconds(base, &t.base_ms) && read_seconds(plus + 1, &t.inc_ms) &&
                 (t.base_ms > 0 || t.inc_ms > 0);
        }
        t.kind = TC_CLOCK;
    }
    if (!ok) {
        snprintf(err, errlen,
                 "time control '%.40s': expected nodes:N, depth:N, movetime:MS or BASE+INC "
                 "(seconds, e.g. 10+0.1), with positive numbers",
                 text);
        return false;
    }
    *tc = t;
    return true;
}

/* Writes a time control in its text form. */
void tc_write(const struct time_control *tc, char *out, size_t outlen) {
    switch (tc->kind) {
    case TC_NODES: snprintf(out, outlen, "nodes:%llu", (unsigned long long)tc->nodes); break;
    case TC_DEPTH: snprintf(out, outlen, "depth:%d", tc->depth); break;
    case TC_MOVETIME: snprintf(out, outlen, "movetime:%lld", (long long)tc->movetime_ms); break;
    case TC_CLOCK:
        snprintf(out, outlen, "%g+%g", (double)tc->base_ms / 1000.0, (double)tc->inc_ms / 1000.0);
        break;
    }
}

/* Tells whether a player name is usable in records: 1 to 47 of A-Z a-z 0-9 . _ + - : */
bool player_name_valid(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n >= PLAYER_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '+' || c == '-' || c == ':'))
            return false;
    }
    return true;
}

/* Sets spec to an in-process hnefi player: default search options, 16 MiB, 1000 nodes. */
void player_spec_search(struct player_spec *spec, const char *name) {
    memset(spec, 0, sizeof *spec);
    snprintf(spec->name, sizeof spec->name, "%s", name);
    spec->tc.kind = TC_NODES;
    spec->tc.nodes = 1000;
    spec->create = player_search_create;
    search_options_default(&spec->opt);
    spec->hash_mib = 16;
}

/* An in-process player: its own search context and options, and its book. */
struct search_player {
    struct search *s;
    struct search_options opt;
    const struct book *book;
    struct book_play book_play;
    uint64_t book_seed;
};

/* Returns a well-mixed 64-bit value of x (splitmix64's finaliser). */
static uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Clears the table and history for a new game (same game, same moves: determinism). */
static enum player_status search_player_new_game(void *self, const struct variant *v, char *err,
                                                 size_t errlen) {
    (void)v;
    (void)err;
    (void)errlen;
    struct search_player *p = self;
    search_clear(p->s);
    return PLAYER_OK;
}

/* Searches the game's position within the time control. */
static enum player_status search_player_go(void *self, const struct player_go *go,
                                           struct player_reply *out) {
    struct search_player *p = self;
    if (p->book) {
        /* the draw depends on the seed, the game's number and the position: each game of a
           match takes its own book line, and the same game replays alike */
        uint64_t draw = mix64(p->book_seed ^ mix64(go->game_no) ^ tafl_pos(go->game)->key ^
                              (uint64_t)go->game->n);
        move_t m = book_choose(p->book, go->game, &p->book_play, draw, NULL);
        if (m != MOVE_NONE) {
            memset(out, 0, sizeof *out);
            out->move = m;
            return PLAYER_OK;
        }
    }
    struct search_limits lim = {.time_ms = {-1, -1}};
    switch (go->tc.kind) {
    case TC_NODES: lim.nodes = go->tc.nodes; break;
    case TC_DEPTH: lim.depth = go->tc.depth; break;
    case TC_MOVETIME: lim.movetime_ms = go->tc.movetime_ms; break;
    case TC_CLOCK:
        for (int s = 0; s < SIDE_NB; s++) {
            lim.time_ms[s] = go->clock_ms[s] > 0 ? go->clock_ms[s] : 1;
            lim.inc_ms[s] = go->inc_ms[s];
        }
        break;
    }
    struct search_result r;
    search_run(p->s, go->game, &lim, &p->opt, NULL, &r);
    memset(out, 0, sizeof *out);
    out->move = r.best;
    out->has_score = r.depth > 0;
    out->score = r.score;
    if (r.best == MOVE_NONE) {
        snprintf(out->why, sizeof out->why, "the search found no move");
        return PLAYER_BAD_MOVE;
    }
    return PLAYER_OK;
}

/* Stops a running search (any thread). */
static void search_player_abort(void *self) {
    struct search_player *p = self;
    search_stop(p->s);
}

/* Frees the search. */
static void search_player_free(void *self) {
    struct search_player *p = self;
    if (!p) return;
    search_free(p->s);
    free(p);
}

static const struct player_ops search_player_ops = {
    search_player_new_game,
    search_player_go,
    search_player_abort,
    search_player_free,
};

/* Makes an in-process hnefi player (one search thread pool, cleared at each new game). */
bool player_search_create(const struct player_spec *spec, struct player *out, char *err,
                          size_t errlen) {
    struct search_player *p = calloc(1, sizeof *p);
    if (!p || !(p->s = search_new(spec->hash_mib ? spec->hash_mib : 16))) {
        free(p);
        snprintf(err, errlen, "%s: out of memory for a %zu MiB table", spec->name, spec->hash_mib);
        return false;
    }
    p->opt = spec->opt;
    p->book = spec->book;
    p->book_play = spec->book_play;
    p->book_seed = spec->book_seed;
    out->ops = &search_player_ops;
    out->self = p;
    return true;
}
