/* The rules.md option names of a variant, read and written as text. */
#include "engine/variant_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/notation.h"

/* Copies the formatted message into err, if there is room for one. */
__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t errlen, const char *fmt,
                                                       ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* One rules.md option: its name, where it lives, and the names of its values. */
struct option_desc {
    const char *key;
    enum { OPT_ENUM, OPT_BOOL, OPT_KINDS, OPT_SQUARES, OPT_INT } type;
    size_t offset;
    const char *values[8]; /* OPT_ENUM: value names in enum order */
};

#define OFF(f) offsetof(struct variant, f)
static const struct option_desc option_table[] = {
    {"escape", OPT_ENUM, OFF(escape), {"corner", "edge"}},
    {"centre", OPT_BOOL, OFF(centre), {0}},
    {"corners", OPT_BOOL, OFF(corners), {0}},
    {"corner_squares", OPT_SQUARES, OFF(corner_squares), {0}},
    {"throne_stop", OPT_ENUM, OFF(throne_stop), {"all", "king", "nobody"}},
    {"throne_pass", OPT_ENUM, OFF(throne_pass), {"all", "king", "nobody"}},
    {"hostile_corner", OPT_KINDS, OFF(hostile_corner), {0}},
    {"hostile_throne_empty", OPT_KINDS, OFF(hostile_throne_empty), {0}},
    {"hostile_throne_king", OPT_KINDS, OFF(hostile_throne_king), {0}},
    {"hostile_edge_king", OPT_BOOL, OFF(hostile_edge_king), {0}},
    {"king_armed", OPT_ENUM, OFF(king_armed), {"yes", "hammer", "anvil", "no"}},
    {"king_capture",
     OPT_ENUM,
     OFF(king_capture),
     {"custodial", "four", "throne_four", "commander"}},
    {"shieldwall", OPT_BOOL, OFF(shieldwall), {0}},
    {"sw_corner", OPT_BOOL, OFF(sw_corner), {0}},
    {"sw_flank_only", OPT_BOOL, OFF(sw_flank_only), {0}},
    {"exit_fort", OPT_BOOL, OFF(exit_fort), {0}},
    {"encirclement", OPT_BOOL, OFF(encirclement), {0}},
    {"immobile_king", OPT_BOOL, OFF(immobile_king), {0}},
    {"linnaean", OPT_BOOL, OFF(linnaean), {0}},
    {"repetition",
     OPT_ENUM,
     OFF(repetition),
     {"none", "draw", "loss_repeater", "win_repeater", "loss_defenders", "illegal_third",
      "illegal_defender_repeat"}},
    {"no_moves", OPT_ENUM, OFF(no_moves), {"loss", "draw"}},
    {"forts", OPT_SQUARES, OFF(forts), {0}},
    {"king_speed", OPT_INT, OFF(king_speed), {0}},
    {"king_jump", OPT_ENUM, OFF(king_jump), {"none", "plain", "capture", "restricted"}},
    {"knight_jump", OPT_ENUM, OFF(knight_jump), {"none", "plain", "capture", "restricted"}},
    {"commander_jump", OPT_ENUM, OFF(commander_jump), {"none", "plain", "capture", "restricted"}},
    {"berserk", OPT_ENUM, OFF(berserk), {"none", "capture", "move"}},
};
#undef OFF
enum { OPTION_NB = sizeof option_table / sizeof option_table[0] };

/* Sets one option by its rules.md name ("repetition", "king_capture", ...) from text. */
bool variant_set_option(struct variant *v, const char *key, const char *value, char *err,
                        size_t errlen) {
    for (int i = 0; i < OPTION_NB; i++) {
        const struct option_desc *o = &option_table[i];
        if (strcmp(o->key, key) != 0) continue;
        char *field = (char *)v + o->offset;
        if (o->type == OPT_BOOL) {
            bool b;
            if (strcmp(value, "yes") == 0 || strcmp(value, "on") == 0)
                b = true;
            else if (strcmp(value, "no") == 0 || strcmp(value, "off") == 0)
                b = false;
            else
                return fail(err, errlen, "option %s: '%s' is not yes/no/on/off", key, value);
            memcpy(field, &b, sizeof b);
        } else if (o->type == OPT_SQUARES) {
            bb_t set = BB_EMPTY;
            for (const char *c = value; *c && strcmp(value, "-") != 0;) {
                if (*c == ',') {
                    c++;
                    continue;
                }
                int used = 0, sq = sq_parse(c, v->size, &used);
                if (sq < 0 || (c[used] && c[used] != ','))
                    return fail(err, errlen, "option %s: '%s' is not a list of squares like a4,e1",
                                key, value);
                set |= bb_sq(sq);
                c += used;
            }
            memcpy(field, &set, sizeof set);
        } else if (o->type == OPT_INT) {
            char *end;
            long n = strtol(value, &end, 10);
            if (!*value || *end || n < 0 || n > BB_MAX_SIZE)
                return fail(err, errlen, "option %s: '%s' is not a whole number from 0 to %d", key,
                            value, BB_MAX_SIZE);
            int speed = (int)n;
            memcpy(field, &speed, sizeof speed);
        } else if (o->type == OPT_KINDS) {
            unsigned k = 0;
            for (const char *c = value; *c; c++) {
                if (*c == 'A')
                    k |= KIND_A;
                else if (*c == 'D')
                    k |= KIND_D;
                else if (*c == 'K')
                    k |= KIND_K;
                else if (*c != ',' && *c != '-')
                    return fail(err, errlen, "option %s: '%s' is not a set of A, D, K", key, value);
            }
            memcpy(field, &k, sizeof k);
        } else {
            int found = -1;
            for (int j = 0; j < 8 && o->values[j]; j++)
                if (strcmp(o->values[j], value) == 0) found = j;
            if (found < 0) return fail(err, errlen, "option %s: unknown value '%s'", key, value);
            if (strcmp(key, "throne_stop") == 0 && found == THRONE_ALL)
                return fail(err, errlen,
                            "option %s: '%s' is not supported (men never stop on the "
                            "throne)",
                            key, value);
            int e = found;
            memcpy(field, &e, sizeof e);
        }
        variant_finish(v);
        return true;
    }
    return fail(err, errlen, "unknown rule option '%s'%s", key, "");
}

/* Writes the name, size, start and every option of v as "key value" lines; returns the length or
   -1 if it did not fit. */
int variant_describe(const struct variant *v, char *out, size_t outlen) {
    size_t len = 0;
    char start[FEN_MAX];
    fen_write_start(v, start);
    int w = snprintf(out, outlen, "name %s\nsize %d\nstart %s\n", v->name, v->size, start);
    if (w < 0 || (size_t)w >= outlen) return -1;
    len = (size_t)w;
    for (int i = 0; i < OPTION_NB; i++) {
        const struct option_desc *o = &option_table[i];
        const char *field = (const char *)v + o->offset;
        char val[4 * BB_MAX_SQUARES + 8]; /* a list of every square, "s19," each */
        if (o->type == OPT_SQUARES) {
            bb_t set;
            memcpy(&set, field, sizeof set);
            size_t at = 0;
            val[0] = '\0';
            while (bb_any(set)) {
                char sq[SQ_NAME_MAX];
                sq_name(bb_pop(&set), v->size, sq);
                at += (size_t)snprintf(val + at, sizeof val - at, "%s%s", at ? "," : "", sq);
            }
            if (!at) snprintf(val, sizeof val, "-");
        } else if (o->type == OPT_INT) {
            int number;
            memcpy(&number, field, sizeof number);
            snprintf(val, sizeof val, "%d", number);
        } else if (o->type == OPT_BOOL) {
            bool b;
            memcpy(&b, field, sizeof b);
            snprintf(val, sizeof val, "%s", b ? "yes" : "no");
        } else if (o->type == OPT_KINDS) {
            unsigned k;
            memcpy(&k, field, sizeof k);
            snprintf(val, sizeof val, "%s%s%s%s", k & KIND_A ? "A" : "", k & KIND_D ? "D" : "",
                     k & KIND_K ? "K" : "", k ? "" : "-");
        } else {
            int e;
            memcpy(&e, field, sizeof e);
            snprintf(val, sizeof val, "%s", o->values[e]);
        }
        w = snprintf(out + len, outlen - len, "%s %s\n", o->key, val);
        if (w < 0 || (size_t)w >= outlen - len) return -1;
        len += (size_t)w;
    }
    return (int)len;
}
