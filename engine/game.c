/* The list of known games and the helpers every game shares (see game.h). */
#include "engine/game.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/games/eketorp.h"
#include "engine/games/raid.h"
#include "engine/games/saek.h"
#include "engine/tafl_def.h"

enum { GAME_LIST_MAX = 16 };

static const game_def *game_list[GAME_LIST_MAX] = {
    &saek_game,         &ekt_game,          &raid_game,         &tafl_def_games[0],
    &tafl_def_games[1], &tafl_def_games[2], &tafl_def_games[3], &tafl_def_games[4],
};

/* Returns the number of filled slots in game_list. */
static int game_count(void) {
    int n = 0;
    while (n < GAME_LIST_MAX && game_list[n]) n++;
    return n;
}

/* Returns the game with this name (or NULL). */
const game_def *game_find(const char *name) {
    if (!name) return NULL;
    for (int i = 0; i < GAME_LIST_MAX && game_list[i]; i++)
        if (strcmp(game_list[i]->name, name) == 0) return game_list[i];
    return NULL;
}

/* Returns the i-th known game, or NULL past the end. */
const game_def *game_at(int i) {
    if (i < 0 || i >= GAME_LIST_MAX) return NULL;
    return game_list[i];
}

/* Adds a game to the list game_find() searches. */
int game_register(const game_def *g) {
    for (int i = 0; i < GAME_LIST_MAX && game_list[i]; i++)
        if (game_list[i] == g) return 0;
    int n = game_count();
    if (n >= GAME_LIST_MAX) return -1;
    game_list[n] = g;
    return 0;
}

/* Copies a state. */
void game_copy(const game_def *g, void *dst, const void *src) {
    memcpy(dst, src, g->state_size);
}

/* Draws a chance outcome with the game's sampler, or from chance() when it has none. */
int game_sample_chance(const game_def *g, const void *st, game_rng *rng) {
    if (g->sample_chance) return g->sample_chance(st, rng);
    int out[GAME_MAX_ACTIONS];
    double p[GAME_MAX_ACTIONS];
    int n = g->chance(st, out, p);
    double u = rng_double(rng);
    for (int i = 0; i < n - 1; i++) {
        if (u < p[i]) return out[i];
        u -= p[i];
    }
    return out[n - 1];
}

/* Applies one uniformly random step (chance outcome, action, or joint action). */
void game_step_random(const game_def *g, void *st, game_rng *rng) {
    int acts[GAME_MAX_ACTIONS];
    switch (g->node(st)) {
    case GAME_NODE_CHANCE: g->apply(st, game_sample_chance(g, st, rng)); break;
    case GAME_NODE_DECISION: {
        int n = g->legal(st, g->to_move(st), acts);
        g->apply(st, acts[rng_below(rng, (uint32_t)n)]);
        break;
    }
    case GAME_NODE_SIMULTANEOUS: {
        int joint[GAME_MAX_PLAYERS];
        int np = g->players(st);
        for (int p = 0; p < np; p++) {
            int n = g->legal(st, p, acts);
            joint[p] = n > 0 ? acts[rng_below(rng, (uint32_t)n)] : GAME_NO_ACTION;
        }
        g->apply_joint(st, joint);
        break;
    }
    default: break;
    }
}

/* Plays uniformly random steps to the end with the generic interface; returns length(). */
int game_playout_random(const game_def *g, void *st, game_rng *rng) {
    while (g->node(st) != GAME_NODE_TERMINAL) game_step_random(g, st, rng);
    return g->length(st);
}

/* One "k=v" item of an option string: its name, its value (NULL without '='), its end. */
struct option_item {
    const char *name, *value, *end;
    size_t namelen;
};

/* Splits the item at *p and moves *p past it and its comma; false at the end of the string. */
static bool option_next(const char **p, struct option_item *it) {
    if (!**p) return false;
    it->name = *p;
    it->end = strchr(*p, ',');
    if (!it->end) it->end = *p + strlen(*p);
    const char *eq = memchr(*p, '=', (size_t)(it->end - *p));
    it->namelen = (size_t)((eq ? eq : it->end) - *p);
    it->value = eq ? eq + 1 : NULL;
    *p = *it->end ? it->end + 1 : it->end;
    return true;
}

/* Finds "key" in an option string "k=v,k=v" and copies its value; 1 if found, else 0. */
int game_option(const char *options, const char *key, char *value, size_t n) {
    if (!options) return 0;
    size_t klen = strlen(key);
    struct option_item it;
    for (const char *p = options; option_next(&p, &it);) {
        if (it.namelen != klen || strncmp(it.name, key, klen) != 0) continue;
        const char *v = it.value ? it.value : it.end;
        size_t vlen = (size_t)(it.end - v);
        if (n > 0) {
            if (vlen >= n) vlen = n - 1;
            memcpy(value, v, vlen);
            value[vlen] = '\0';
        }
        return 1;
    }
    return 0;
}

/* Reads the next "key=value" word of a STATE text at *p, splitting it at '='. */
int game_state_word(const char **p, char *word, size_t n, char **value, char *err, size_t errlen) {
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n') s++;
    *p = s;
    if (!*s) return 0;
    size_t w = strcspn(s, " \t\n");
    if (w >= n) {
        snprintf(err, errlen, "STATE word too long: '%.20s...'", s);
        return -1;
    }
    memcpy(word, s, w);
    word[w] = '\0';
    *p = s + w;
    char *eq = strchr(word, '=');
    if (!eq) {
        snprintf(err, errlen, "STATE word '%.40s' is not key=value", word);
        return -1;
    }
    *eq = '\0';
    *value = eq + 1;
    return 1;
}

/* Checks that every key of an option string is in the NULL-terminated list `known`. */
int game_check_options(const char *options, const char *const *known, char *err, size_t errlen) {
    if (!options) return 0;
    struct option_item it;
    for (const char *p = options; option_next(&p, &it);) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            if (strlen(known[i]) == it.namelen && strncmp(it.name, known[i], it.namelen) == 0)
                ok = 1;
        if (!ok || !it.value) {
            snprintf(err, errlen, "%s game option '%.*s'", ok ? "missing value for" : "unknown",
                     (int)it.namelen, it.name);
            return -1;
        }
    }
    return 0;
}

/* Reads an integer option in [lo, hi]. */
int game_option_int(const char *options, const char *key, int lo, int hi, int *out, char *err,
                    size_t errlen) {
    char v[64];
    if (!game_option(options, key, v, sizeof v)) return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (v[0] == '\0' || *end != '\0' || errno || x < lo || x > hi) {
        snprintf(err, errlen, "option %s=%s: expected an integer from %d to %d", key, v, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}
