/* A tournament's settings line: written first in its records, compared on resume. */
#include "selfplay/match_settings.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/opentafl.h"
#include "search/eval.h"
#include "search/nnue.h"

enum { SHOW_MAX = 60, DIFFS_SHOWN = 12 };

/* An output buffer that remembers whether anything did not fit. */
struct text {
    char *s;
    size_t len, cap;
    bool full;
};

/* Appends a KEY=VALUE word, the value percent-escaped. */
static void put(struct text *t, const char *key, const char *value) {
    char buf[MATCH_SETTINGS_MAX];
    size_t n = 0;
    for (const unsigned char *v = (const unsigned char *)value; *v && n + 4 < sizeof buf; v++)
        if (*v <= ' ' || *v > '~' || *v == '%')
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%%%02X", *v);
        else
            buf[n++] = (char)*v;
    buf[n] = '\0';
    int w = snprintf(t->s + t->len, t->cap - t->len, "%s%s=%s", t->len ? " " : "", key, buf);
    if (w < 0 || (size_t)w >= t->cap - t->len)
        t->full = true;
    else
        t->len += (size_t)w;
}

/* Appends a KEY=VALUE word with a formatted value. */
__attribute__((format(printf, 3, 4))) static void putf(struct text *t, const char *key,
                                                       const char *fmt, ...) {
    char value[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    put(t, key, value);
}

/* Appends one player's settings. */
static void put_player(struct text *t, const struct player_spec *p) {
    char key[PLAYER_NAME_MAX + 16], tc[64];
    tc_write(&p->tc, tc, sizeof tc);
    snprintf(key, sizeof key, "%s.tc", p->name);
    put(t, key, tc);
    if (p->create != player_search_create) {
        snprintf(key, sizeof key, "%s.engine", p->name);
        put(t, key, p->engine_text ? p->engine_text : "external");
        return;
    }
    snprintf(key, sizeof key, "%s.threads", p->name);
    putf(t, key, "%d", p->opt.threads);
    snprintf(key, sizeof key, "%s.hash", p->name);
    putf(t, key, "%zu", p->hash_mib);
    snprintf(key, sizeof key, "%s.null-move", p->name);
    put(t, key, p->opt.null_move ? "on" : "off");
    snprintf(key, sizeof key, "%s.lmr", p->name);
    put(t, key, p->opt.lmr ? "on" : "off");
    char params[512];
    search_params_write_changed(&p->opt.params, params, sizeof params);
    if (params[0]) { /* only when changed: records of default players read as before */
        snprintf(key, sizeof key, "%s.params", p->name);
        put(t, key, params);
    }
    snprintf(key, sizeof key, "%s.eval", p->name);
    if (p->opt.net)
        putf(t, key, "network-%08x", (unsigned)p->opt.net->check);
    else
        put(t, key, "classic");
    /* the weights that differ from the built-in ones */
    char w[2048] = "";
    size_t n = 0;
#define SETTINGS_WEIGHT(name, def)                                                                 \
    if (p->opt.weights.name != eval_default_weights.name && n < sizeof w)                          \
        n += (size_t)snprintf(w + n, sizeof w - n, "%s%s:%d", n ? "," : "", #name,                 \
                              p->opt.weights.name);
    EVAL_WEIGHT_LIST(SETTINGS_WEIGHT)
#undef SETTINGS_WEIGHT
    snprintf(key, sizeof key, "%s.weights", p->name);
    put(t, key, n ? w : "default");
    if (p->book) { /* only when there is one: records without books read as before */
        snprintf(key, sizeof key, "%s.book", p->name);
        putf(t, key, "%016llx:depth-%d:%s:seed-%llu", (unsigned long long)p->book->body_hash,
             p->book_play.max_ply, p->book_play.variety == BOOK_WEIGHTED ? "weighted" : "best",
             (unsigned long long)p->book_seed);
    }
}

/* Writes the settings line of a tournament (no newline); false if it does not fit in outlen. */
bool match_settings_write(const struct match_config *c, char *out, size_t outlen) {
    size_t prefix = strlen(MATCH_SETTINGS_PREFIX);
    if (outlen <= prefix) return false;
    memcpy(out, MATCH_SETTINGS_PREFIX, prefix + 1);
    struct text t = {out + prefix, 0, outlen - prefix, false};
    char rules[1024];
    put(&t, "variant", c->v->name);
    put(&t, "rules", opentafl_write_rules(c->v, rules, sizeof rules) < 0 ? "?" : rules);
    put(&t, "scoring", c->scoring == SCORING_TABLUT ? "tablut" : "games");
    put(&t, "format", c->format == MATCH_GAUNTLET ? "gauntlet" : "round-robin");
    if (c->openings) {
        putf(&t, "openings", "file of %d", c->openings->count);
        put(&t, "shuffle", c->shuffle ? "on" : "off");
        if (c->shuffle) putf(&t, "seed", "%llu", (unsigned long long)c->seed);
    } else {
        putf(&t, "openings", "random %d plies", c->random_plies);
        putf(&t, "seed", "%llu", (unsigned long long)c->seed);
    }
    const struct adjudication *a = &c->adj;
    putf(&t, "max-plies", "%d", a->max_plies);
    putf(&t, "max-quiet", "%d", a->max_quiet);
    putf(&t, "resign", "%d:%d", a->resign_moves, a->resign_score);
    putf(&t, "draw", "%d:%d:%d", a->draw_moves, a->draw_score, a->draw_after);
    putf(&t, "time-margin", "%lld", (long long)a->time_margin_ms);
    putf(&t, "hang", "%lld", (long long)a->hang_ms);
    char names[MATCH_MAX_PLAYERS * PLAYER_NAME_MAX] = "";
    for (int i = 0; i < c->nplayers; i++) {
        strcat(names, i ? "," : "");
        strcat(names, c->players[i].name);
    }
    put(&t, "players", names);
    for (int i = 0; i < c->nplayers; i++) put_player(&t, &c->players[i]);
    return !t.full;
}

/* Tells whether a line (of a record file) is a settings line. */
bool match_settings_line(const char *line) {
    return strncmp(line, MATCH_SETTINGS_PREFIX, strlen(MATCH_SETTINGS_PREFIX)) == 0;
}

/*
 * Finds KEY=VALUE word number k of a settings line's words; returns false past the last. The key
 * and the value (unescaped, shortened for a message) go to key and value.
 */
static bool word_at(const char *words, int k, char *key, size_t keylen, char *value,
                    size_t valuelen) {
    const char *s = words;
    for (int i = 0; i < k && s; i++) {
        s = strchr(s, ' ');
        if (s) s++;
    }
    if (!s || !*s) return false;
    size_t len = strcspn(s, " "), klen = strcspn(s, "= ");
    snprintf(key, keylen, "%.*s", (int)klen, s);
    size_t n = 0;
    for (size_t i = klen + 1; i < len && n + 1 < valuelen; i++) {
        unsigned int byte;
        if (s[i] == '%' && i + 2 < len && sscanf(s + i + 1, "%2x", &byte) == 1) {
            value[n++] = (char)byte;
            i += 2;
        } else {
            value[n++] = s[i];
        }
    }
    value[n] = '\0';
    if (n > SHOW_MAX && valuelen > SHOW_MAX + 4) strcpy(value + SHOW_MAX, "...");
    return true;
}

/* Looks up key among a line's words; copies its shown value, or "(none)" if it has none. */
static void lookup(const char *words, const char *key, char *value, size_t valuelen) {
    char k[256], v[1024];
    for (int i = 0; word_at(words, i, k, sizeof k, v, sizeof v); i++)
        if (strcmp(k, key) == 0) {
            snprintf(value, valuelen, "%s", v);
            return;
        }
    snprintf(value, valuelen, "(none)");
}

/* Adds the differences of the keys of a (looked up in b) to why; returns how many there are. */
static int differences(const char *a, const char *b, bool a_is_recorded, const char *skip_keys_of,
                       char *why, size_t whylen, int found) {
    char key[256], va[1024], vb[1024];
    for (int i = 0; word_at(a, i, key, sizeof key, va, sizeof va); i++) {
        if (skip_keys_of) { /* keys both lines have were compared in the first pass */
            lookup(skip_keys_of, key, vb, sizeof vb);
            if (strcmp(vb, "(none)") != 0) continue;
        }
        lookup(b, key, vb, sizeof vb);
        if (strcmp(va, vb) == 0) continue;
        if (found < DIFFS_SHOWN) {
            size_t used = strlen(why);
            snprintf(why + used, whylen - used, "%s%s: %s in the records, %s now",
                     found ? "; " : "", key, a_is_recorded ? va : vb, a_is_recorded ? vb : va);
        }
        found++;
    }
    return found;
}

/* Compares a recorded settings line with the current one; false with the differences in why. */
bool match_settings_same(const char *recorded, const char *now, char *why, size_t whylen) {
    size_t prefix = strlen(MATCH_SETTINGS_PREFIX);
    const char *a = match_settings_line(recorded) ? recorded + prefix : recorded;
    const char *b = match_settings_line(now) ? now + prefix : now;
    why[0] = '\0';
    int found = differences(a, b, true, NULL, why, whylen, 0);
    found = differences(b, a, false, a, why, whylen, found); /* keys only this run has */
    if (found > DIFFS_SHOWN) {
        size_t used = strlen(why);
        snprintf(why + used, whylen - used, "; and %d more", found - DIFFS_SHOWN);
    }
    return found == 0;
}
