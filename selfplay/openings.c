/* Opening files and seeded random openings. */
#include "selfplay/openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/zio.h"
#include "engine/notation.h"
#include "engine/tafl.h"

enum { RANDOM_TRIES = 1000 };

/* Returns a well-mixed 64-bit value of x (splitmix64), the generator behind every random draw. */
uint64_t openings_mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Plays one opening line into o; false with the ply and reason in err. */
static bool parse_line(struct tafl_game *t, const char *line, size_t len, struct opening *o,
                       char *err, size_t errlen) {
    char tok[MOVE_TEXT_MAX], why[160];
    size_t i = 0;
    o->n = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
        if (i >= len) break;
        size_t k = i;
        while (k < len && line[k] != ' ' && line[k] != '\t' && line[k] != '\r') k++;
        if (k - i >= sizeof tok) {
            snprintf(err, errlen, "ply %d: '%.20s...' is too long", o->n + 1, line + i);
            return false;
        }
        memcpy(tok, line + i, k - i);
        tok[k - i] = '\0';
        if (o->n >= OPENING_MAX_PLIES) {
            snprintf(err, errlen, "more than %d plies", OPENING_MAX_PLIES);
            return false;
        }
        if (!tafl_play_text(t, tok, why, sizeof why)) {
            snprintf(err, errlen, "ply %d: %s", o->n + 1, why);
            return false;
        }
        o->moves[o->n++] = t->moves[t->n - 1];
        if (t->result != RESULT_NONE) {
            snprintf(err, errlen, "ply %d '%s' ends the game", o->n, tok);
            return false;
        }
        i = k;
    }
    return true;
}

/* Reads openings from text (what names it in errors); false with a reason in err. */
bool openings_parse(struct opening_set *set, const struct variant *v, const char *text,
                    const char *what, char *err, size_t errlen) {
    struct tafl_game *t = tafl_new(v);
    int cap = 64, lineno = 0;
    set->count = 0;
    set->items = malloc((size_t)cap * sizeof *set->items);
    if (!t || !set->items) {
        snprintf(err, errlen, "out of memory");
        tafl_free(t);
        openings_free(set);
        return false;
    }
    struct position start = t->pos[0];
    for (const char *s = text; *s;) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        lineno++;
        const char *p = s;
        while (p < s + len && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p < s + len && *p != '#') {
            if (set->count == cap) {
                cap *= 2;
                struct opening *bigger = realloc(set->items, (size_t)cap * sizeof *set->items);
                if (!bigger) {
                    snprintf(err, errlen, "out of memory");
                    tafl_free(t);
                    openings_free(set);
                    return false;
                }
                set->items = bigger;
            }
            char why[200];
            tafl_reset(t, &start);
            if (!parse_line(t, s, len, &set->items[set->count], why, sizeof why)) {
                snprintf(err, errlen, "%s line %d: %s", what, lineno, why);
                tafl_free(t);
                openings_free(set);
                return false;
            }
            set->count++;
        }
        s = end ? end + 1 : s + len;
    }
    tafl_free(t);
    if (set->count == 0) {
        snprintf(err, errlen, "%s holds no opening", what);
        openings_free(set);
        return false;
    }
    return true;
}

/* Reads an opening file (plain or zstd); false with a reason in err. */
bool openings_load(struct opening_set *set, const struct variant *v, const char *path, char *err,
                   size_t errlen) {
    size_t len;
    char *text = zio_read_text(path, &len, err, errlen);
    if (!text) return false;
    if (strlen(text) != len) {
        snprintf(err, errlen, "%s is not a text file (it holds a zero byte)", path);
        free(text);
        return false;
    }
    bool ok = openings_parse(set, v, text, path, err, errlen);
    free(text);
    return ok;
}

/* Frees a set's openings. */
void openings_free(struct opening_set *set) {
    free(set->items);
    set->items = NULL;
    set->count = 0;
}

/* Makes opening number index of plies random plies for seed; false if none could be found. */
bool openings_random(struct opening *o, const struct variant *v, int plies, uint64_t seed,
                     uint64_t index) {
    if (plies < 0 || plies > OPENING_MAX_PLIES) return false;
    struct tafl_game *t = tafl_new(v);
    if (!t) return false;
    uint64_t state = openings_mix(seed ^ openings_mix(index + 0x5eed));
    move_t moves[MAX_MOVES];
    bool found = false;
    for (int attempt = 0; attempt < RANDOM_TRIES && !found; attempt++) {
        tafl_reset(t, &t->pos[0]);
        o->n = 0;
        found = true;
        for (int i = 0; i < plies; i++) {
            int n = tafl_legal_moves(t, moves);
            if (n == 0) {
                found = false;
                break;
            }
            state = openings_mix(state);
            move_t m = moves[state % (uint64_t)n];
            tafl_play(t, m);
            o->moves[o->n++] = m;
            if (t->result != RESULT_NONE) {
                found = false;
                break;
            }
        }
    }
    tafl_free(t);
    return found;
}
