/* Record lines: formatting, reading with a full replay, scanning and reopening record files. */
#include "selfplay/records.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/zio.h"
#include "engine/notation.h"
#include "engine/opentafl.h"

enum { FIELDS_SHORT = 4, FIELDS_LONG = 10, FIELD_MAX = 10 };

static const char *const status_words[] = {"Ongoing", "Black", "White", "Draw"};

#define UNKNOWN_VARIANT_FORMAT                                                                     \
    "holds games of variant '%s', which is not built in (line %lld); give its rules with --rules"
#define UNKNOWN_BOARD_FORMAT "line %lld: games on a %dx%d board, which is not built in"

/* Writes a variant's name as records spell it (spaces and commas become '_'). */
void records_variant_name(const struct variant *v, char *out, size_t outlen) {
    snprintf(out, outlen, "%s", v->name[0] ? v->name : "unnamed");
    for (char *p = out; *p; p++)
        if (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n' || *p == '\r') *p = '_';
}

/* Counts the men each side took in the first n plies of a game of v with these moves and
   captures. */
void records_count_taken(const struct variant *v, int n, const move_t *moves, const bb_t *captures,
                         int taken[SIDE_NB]) {
    taken[0] = taken[1] = 0;
    int side = v->start.side;
    for (int i = 0; i < n; i++) {
        taken[side] += bb_popcount(captures[i]);
        /* a berserk turn: after a capture the same piece moves again (no piece of the other
           side stands where the capturing piece landed) */
        bool again = v->berserk != BERSERK_NONE && bb_any(captures[i]) && i + 1 < n &&
                     move_from(moves[i + 1]) == move_to(moves[i]);
        if (!again) side = !side;
    }
}

/* Appends text to a growing buffer; false if out of memory. */
static bool put(char **buf, size_t *len, size_t *cap, const char *text) {
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c = (*len + n + 1) * 2;
        char *bigger = realloc(*buf, c);
        if (!bigger) return false;
        *buf = bigger;
        *cap = c;
    }
    memcpy(*buf + *len, text, n + 1);
    *len += n;
    return true;
}

/*
 * Formats a finished game as a record line (with its newline) into a new buffer (free()); names
 * are the players of the attackers and the defenders. NULL if out of memory.
 */
char *records_format(const struct variant *v, const struct played_game *g,
                     const char *const names[SIDE_NB]) {
    size_t len = 0, cap = 256;
    char *buf = malloc(cap), text[MOVE_TEXT_MAX + 2], tail[512], vname[VARIANT_NAME_MAX];
    if (!buf) return NULL;
    buf[0] = '\0';
    int taken[SIDE_NB];
    records_count_taken(v, g->n, g->moves, g->captures, taken);
    bool ok = true;
    for (int i = 0; i < g->n && ok; i++) {
        text[0] = ' ';
        move_write_captures(g->moves[i], g->captures[i], v->size, text + (i > 0));
        ok = put(&buf, &len, &cap, text);
    }
    if (ok && (g->end == PLAYED_END_TIMEOUT || g->end == PLAYED_END_HANG))
        ok = put(&buf, &len, &cap, g->n > 0 ? " timeout" : "timeout");
    records_variant_name(v, vname, sizeof vname);
    snprintf(tail, sizeof tail, ",%d,%d,%s,%s,%s,%s,%d,%lld,%s\n", taken[SIDE_ATTACKERS],
             taken[SIDE_DEFENDERS], status_words[g->result & 3], vname, names[SIDE_ATTACKERS],
             names[SIDE_DEFENDERS], g->opening_plies, (long long)g->index,
             played_end_word(g->end, g->reason));
    if (!ok || !put(&buf, &len, &cap, tail)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Reads a whole decimal number in [0, hi] from a field; false if it is not one. */
static bool field_number(const char *s, size_t n, int64_t hi, int64_t *out) {
    if (n == 0 || n > 18) return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > hi) return false;
    *out = v;
    return true;
}

/* Copies a field into a fixed buffer; false if it does not fit or is empty. */
static bool field_copy(const char *s, size_t n, char *out, size_t outlen) {
    if (n == 0 || n >= outlen) return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

/* Replays the moves field into out; false with a reason. */
static bool replay(const char *s, size_t n, struct record *out, struct tafl_game *t, char *err,
                   size_t errlen) {
    struct position start;
    pos_init_start(&start, out->v);
    tafl_reset(t, &start);
    int listed[SIDE_NB] = {0, 0};
    size_t i = 0;
    char tok[MOVE_TEXT_MAX], why[200];
    while (i < n) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        size_t k = i;
        while (k < n && s[k] != ' ') k++;
        if (out->timeout) {
            snprintf(err, errlen, "ply %d follows the word timeout", t->n + 1);
            return false;
        }
        if (k - i == 7 && memcmp(s + i, "timeout", 7) == 0) {
            out->timeout = true;
            i = k;
            continue;
        }
        if (k - i >= sizeof tok) {
            snprintf(err, errlen, "ply %d: '%.20s...' is too long", t->n + 1, s + i);
            return false;
        }
        memcpy(tok, s + i, k - i);
        tok[k - i] = '\0';
        struct move_text mt;
        int mover = tafl_pos(t)->side;
        if (!move_text_parse(tok, out->v->size, &mt, why, sizeof why) ||
            !tafl_play_text(t, tok, why, sizeof why)) {
            snprintf(err, errlen, "ply %d: %s", t->n + 1, why);
            return false;
        }
        if (!bb_eq(t->captures[t->n - 1], mt.captures)) {
            snprintf(err, errlen, "ply %d '%s': the captures listed are not what the move takes",
                     t->n, tok);
            return false;
        }
        for (const char *c = tok; *c; c++) listed[mover] += *c == 'x' || *c == '/';
        i = k;
    }
    if (listed[0] != out->taken[0] || listed[1] != out->taken[1]) {
        snprintf(err, errlen, "capture counts %d,%d, but the moves list %d,%d", out->taken[0],
                 out->taken[1], listed[0], listed[1]);
        return false;
    }
    out->n = t->n;
    memcpy(out->moves, t->moves, (size_t)t->n * sizeof(move_t));
    memcpy(out->captures, t->captures, (size_t)t->n * sizeof(bb_t));
    return true;
}

/* Checks that an extended line's status and end agree with the replayed game. */
static bool check_end(const struct record *r, const struct tafl_game *t, char *err, size_t errlen) {
    if (r->end == PLAYED_END_RULES) {
        if (t->result != r->result || t->reason != r->reason) {
            snprintf(err, errlen, "the line says %s by %s, but the moves do not end so",
                     status_words[r->result & 3], played_end_word(r->end, r->reason));
            return false;
        }
        return true;
    }
    if (t->result != RESULT_NONE) {
        snprintf(err, errlen, "the game ends by the rules before its last ply");
        return false;
    }
    bool draw_end = r->end == PLAYED_END_MAX_PLIES || r->end == PLAYED_END_QUIET ||
                    r->end == PLAYED_END_DRAW_AGREED;
    if (draw_end != (r->result == RESULT_DRAW) || r->result == RESULT_NONE) {
        snprintf(err, errlen, "status %s does not fit the end %s", status_words[r->result & 3],
                 played_end_word(r->end, r->reason));
        return false;
    }
    if ((r->end == PLAYED_END_TIMEOUT || r->end == PLAYED_END_HANG) != r->timeout) {
        snprintf(err, errlen, "the word timeout does not fit the end %s",
                 played_end_word(r->end, r->reason));
        return false;
    }
    return true;
}

/*
 * Reads and replays one line (len bytes, no newline). v is the variant to replay in; if NULL, an
 * extended line names its own (a built-in variant) and a short line is Copenhagen. False with a
 * reason in err; out->foreign then tells a sound line of another variant from a damaged one.
 */
bool records_parse(const char *line, size_t len, const struct variant *v, struct record *out,
                   struct tafl_game *scratch, char *err, size_t errlen) {
    const char *f[FIELD_MAX];
    size_t fl[FIELD_MAX];
    int nf = 0;
    size_t start = 0;
    if (len > 0 && line[len - 1] == '\r') len--;
    for (size_t i = 0; i <= len; i++)
        if (i == len || line[i] == ',') {
            if (nf == FIELD_MAX) {
                snprintf(err, errlen, "more than %d fields", FIELD_MAX);
                return false;
            }
            f[nf] = line + start;
            fl[nf++] = i - start;
            start = i + 1;
        }
    if (nf != FIELDS_SHORT && nf != FIELDS_LONG) {
        snprintf(err, errlen, "%d fields, expected %d or %d", nf, FIELDS_SHORT, FIELDS_LONG);
        return false;
    }
    memset(out, 0, offsetof(struct record, moves));
    out->extended = nf == FIELDS_LONG;
    out->game = -1;
    int64_t num;
    for (int s = 0; s < SIDE_NB; s++) {
        if (!field_number(f[1 + s], fl[1 + s], 100000, &num)) {
            snprintf(err, errlen, "field %d '%.*s': expected a capture count", 2 + s,
                     (int)(fl[1 + s] < 20 ? fl[1 + s] : 20), f[1 + s]);
            return false;
        }
        out->taken[s] = (int)num;
    }
    out->result = -1;
    for (int r = 0; r < 4; r++)
        if (fl[3] == strlen(status_words[r]) && memcmp(f[3], status_words[r], fl[3]) == 0)
            out->result = r;
    if (out->result < 0 && fl[3] > 0) {
        snprintf(err, errlen, "status '%.*s': expected Black, White, Draw or Ongoing",
                 (int)(fl[3] < 20 ? fl[3] : 20), f[3]);
        return false;
    }
    if (out->result < 0) out->result = RESULT_NONE; /* an empty status, as in the data */
    out->v = v ? v : variant_by_name("copenhagen");
    if (out->extended) {
        char word[32];
        int end = 0, reason = 0;
        if (!field_copy(f[4], fl[4], out->variant, sizeof out->variant) ||
            !field_copy(f[5], fl[5], out->players[0], sizeof out->players[0]) ||
            !field_copy(f[6], fl[6], out->players[1], sizeof out->players[1]) ||
            !field_number(f[7], fl[7], OPENING_MAX_PLIES, &num) ||
            (out->opening_plies = (int)num, !field_number(f[8], fl[8], INT64_C(1) << 40, &num)) ||
            (out->game = num, !field_copy(f[9], fl[9], word, sizeof word)) ||
            !played_end_parse(word, &end, &reason)) {
            snprintf(err, errlen, "the tournament fields '%.*s' are malformed",
                     (int)(len - (size_t)(f[4] - line) < 80 ? len - (size_t)(f[4] - line) : 80),
                     f[4]);
            return false;
        }
        out->end = end;
        out->reason = reason;
        char want[VARIANT_NAME_MAX];
        if (v) {
            records_variant_name(v, want, sizeof want);
            if (strcmp(want, out->variant) != 0) {
                snprintf(err, errlen, "a game of %s, not %s (choose the variant with --variant)",
                         out->variant, want);
                out->foreign = true;
                return false;
            }
        } else if (!(out->v = variant_by_name(out->variant))) {
            snprintf(err, errlen, "variant '%s' is not built in (give it with --variant/--rules)",
                     out->variant);
            out->foreign = true;
            return false;
        }
    } else {
        records_variant_name(out->v, out->variant, sizeof out->variant);
    }
    if (!replay(f[0], fl[0], out, scratch, err, errlen)) return false;
    if (out->extended) {
        if (out->opening_plies > out->n) {
            snprintf(err, errlen, "an opening of %d plies in a game of %d", out->opening_plies,
                     out->n);
            return false;
        }
        return check_end(out, scratch, err, errlen);
    }
    /* a short line's result may come from outside the rules (resigned, on time), but it must not
       contradict an end the moves reach by the rules */
    if (scratch->result != RESULT_NONE && out->result != RESULT_NONE &&
        out->result != scratch->result) {
        char ends[80];
        snprintf(err, errlen, "the line says %s, but its moves end so: %s",
                 status_words[out->result & 3],
                 tafl_status_text(scratch->result, scratch->reason, ends, sizeof ends));
        return false;
    }
    return true;
}

/* Calls fn for each line of a text chunk; false with a reason on a bad line. */
static bool scan_text(const char *text, size_t len, const struct variant *v, records_fn fn,
                      void *ctx, struct record *rec, struct tafl_game *t, int64_t *lineno,
                      char *err, size_t errlen, bool *stopped) {
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        ++*lineno;
        if (memchr(text + i, '\0', n)) {
            snprintf(err, errlen, "line %lld holds a zero byte", (long long)*lineno);
            return false;
        }
        if (n > 0 && !(n == 1 && text[i] == '\r') && text[i] != '#') { /* '#': a comment */
            char why[300];
            if (!records_parse(text + i, n, v, rec, t, why, sizeof why)) {
                char want[VARIANT_NAME_MAX];
                if (rec->foreign && v) {
                    records_variant_name(v, want, sizeof want);
                    snprintf(err, errlen,
                             "holds %s games, not %s (line %lld); choose the variant with "
                             "--variant",
                             rec->variant, want, (long long)*lineno);
                } else if (rec->foreign) {
                    rec->not_built_in = true;
                    snprintf(err, errlen, UNKNOWN_VARIANT_FORMAT, rec->variant, (long long)*lineno);
                } else {
                    snprintf(err, errlen, "line %lld: %s", (long long)*lineno, why);
                }
                return false;
            }
            if (!fn(rec, *lineno, ctx)) {
                *stopped = true;
                return false;
            }
        }
        i += n + 1;
    }
    return true;
}

/* What scan_frame needs to read one frame's lines and to say what went wrong. */
struct frame_ctx {
    const char *path;
    const struct variant *v;
    records_fn fn;
    void *ctx;
    struct record *rec;
    struct tafl_game *t;
    int64_t *lineno;
    bool *stopped;
    char *err;
    size_t errlen;
};

/* Reads the record lines of one zstd frame; false when a line is damaged or fn stops. */
static bool scan_frame(const char *frame, size_t flen, size_t start, bool last, void *arg) {
    struct frame_ctx *c = arg;
    char why[400];
    (void)start, (void)last;
    if (scan_text(frame, flen, c->v, c->fn, c->ctx, c->rec, c->t, c->lineno, why, sizeof why,
                  c->stopped))
        return true;
    if (!*c->stopped)
        snprintf(c->err, c->errlen, c->rec->foreign ? "%s %s" : "%s is damaged: %s", c->path, why);
    return false;
}

/* Tells whether text starts (after blanks) with an OpenTafl tag line, as a .otg file does. */
static bool otg_text(const char *text, size_t len) {
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    return i < len && text[i] == '[';
}

/* Strips a piece letter in front and status marks (+, -, |) behind an OTN move, in place. */
static char *otg_move(char *m) {
    if (m[0] && strchr("tcnkmgTCNKMG", m[0]) && m[1] >= 'a' && m[1] <= 's') m++;
    size_t n = strlen(m);
    while (n > 0 && (m[n - 1] == '+' || m[n - 1] == '-' || m[n - 1] == '|')) m[--n] = '\0';
    return m;
}

/* The state of one OpenTafl game being read. */
struct otg_game {
    struct variant rules; /* from its rules string, when the caller names no variant */
    bool have_rules, turns;
    int result;
    int64_t first_line;
};

/* Replays one turn line ("3. d1-d3 e5-e2xe4 [comment]") onto the game; false with why. */
static bool otg_turn(char *text, struct tafl_game *t, char *why, size_t whylen) {
    char *p = strchr(text, '.') + 1;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (*p == '[') { /* a comment runs to its closing bracket */
            char *end = strchr(p, ']');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        char *end = p + strcspn(p, " \t");
        char save = *end, tok[MOVE_TEXT_MAX], err[200];
        *end = '\0';
        snprintf(tok, sizeof tok, "%s", otg_move(p));
        *end = save;
        struct move_text mt;
        if (strlen(tok) >= MOVE_TEXT_MAX - 1 ||
            !move_text_parse(tok, t->v->size, &mt, err, sizeof err) ||
            !tafl_play_text(t, tok, err, sizeof err)) {
            snprintf(why, whylen, "ply %d: %s", t->n + 1, err);
            return false;
        }
        if (mt.has_captures && !bb_eq(t->captures[t->n - 1], mt.captures)) {
            snprintf(why, whylen, "ply %d '%s': the captures listed are not what the move takes",
                     t->n, tok);
            return false;
        }
        p = end;
    }
    return true;
}

/* Calls fn for a finished OpenTafl game; false when fn stops (*stopped) or when the game's result
   tag contradicts how its moves end by the rules (err says so). */
static bool otg_finish(struct otg_game *g, const struct tafl_game *t, const struct variant *v,
                       records_fn fn, void *ctx, struct record *rec, bool *stopped, char *err,
                       size_t errlen) {
    if (g->result != RESULT_NONE && t->result != RESULT_NONE && g->result != t->result) {
        char ends[80];
        snprintf(err, errlen, "game of line %lld: its result tag says %s, but its moves end so: %s",
                 (long long)g->first_line,
                 g->result == RESULT_ATTACKERS   ? "the attackers won"
                 : g->result == RESULT_DEFENDERS ? "the defenders won"
                                                 : "a draw",
                 tafl_status_text(t->result, t->reason, ends, sizeof ends));
        return false;
    }
    memset(rec, 0, offsetof(struct record, moves));
    rec->n = t->n;
    rec->result = g->result;
    rec->game = -1;
    rec->v = t->v;
    records_variant_name(v ? v : t->v, rec->variant, sizeof rec->variant);
    memcpy(rec->moves, t->moves, (size_t)t->n * sizeof(move_t));
    memcpy(rec->captures, t->captures, (size_t)t->n * sizeof(bb_t));
    if (!fn(rec, g->first_line, ctx)) {
        *stopped = true;
        return false;
    }
    return true;
}

/* Starts the replay of a game in the caller's variant, or its own rules, or Copenhagen. */
static void otg_start(struct otg_game *g, const struct variant *v, struct tafl_game *t) {
    struct position start;
    const struct variant *use = v ? v : g->have_rules ? &g->rules : variant_by_name("copenhagen");
    pos_init_start(&start, use);
    tafl_reset(t, &start);
}

/*
 * Reads OpenTafl game records (.otg: `[key:value]` tag lines, the rules string as a `[rules:]`
 * tag or a line of its own, then turn lines `N. move move`, then a blank line or the next tags)
 * and calls fn for each game, numbered by the line it starts on; false with a reason in err.
 */
static bool scan_otg(char *text, size_t len, const struct variant *v, records_fn fn, void *ctx,
                     struct record *rec, struct tafl_game *t, char *err, size_t errlen,
                     bool *stopped) {
    struct otg_game g = {.result = RESULT_NONE};
    bool in_game = false;
    int64_t lineno = 0;
    size_t i = 0;
    while (i <= len) {
        char *nl = i < len ? memchr(text + i, '\n', len - i) : NULL;
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        char *l = text + i;
        l[n] = '\0';
        lineno++;
        i += n + 1;
        while (n > 0 && (l[n - 1] == '\r' || l[n - 1] == ' ' || l[n - 1] == '\t')) l[--n] = '\0';
        while (*l == ' ' || *l == '\t') l++;
        char why[300];
        if (!*l || *l == '(') { /* a blank line ends a game's turns; '(' is a remark */
            if (!*l && in_game && g.turns) {
                if (!otg_finish(&g, t, v, fn, ctx, rec, stopped, err, errlen)) return false;
                in_game = false;
            }
            continue;
        }
        if (*l == '[' || !in_game || !g.turns) {
            if (in_game && g.turns) { /* the next game's tags */
                if (!otg_finish(&g, t, v, fn, ctx, rec, stopped, err, errlen)) return false;
                in_game = false;
            }
            if (!in_game) {
                g = (struct otg_game){.result = RESULT_NONE, .first_line = lineno};
                in_game = true;
            }
            const char *rules = NULL;
            if (*l == '[') {
                char *colon = strchr(l, ':'), *close = strrchr(l, ']');
                if (!colon || !close || close < colon) {
                    snprintf(err, errlen, "line %lld: '%.40s' is not a [key:value] tag",
                             (long long)lineno, l);
                    return false;
                }
                *close = '\0';
                if (strncmp(l + 1, "result:", 7) == 0)
                    g.result = strcmp(colon + 1, "1") == 0    ? RESULT_ATTACKERS
                               : strcmp(colon + 1, "-1") == 0 ? RESULT_DEFENDERS
                               : strcmp(colon + 1, "0") == 0  ? RESULT_DRAW
                                                              : RESULT_NONE;
                if (strncmp(l + 1, "rules:", 6) == 0) rules = colon + 1;
            } else if (strchr(l, '.') && l[0] >= '0' && l[0] <= '9') {
                otg_start(&g, v, t);
                g.turns = true;
                if (!otg_turn(l, t, why, sizeof why)) {
                    snprintf(err, errlen, "game of line %lld, line %lld: %s",
                             (long long)g.first_line, (long long)lineno, why);
                    return false;
                }
                continue;
            } else {
                rules = l; /* the rules string on a line of its own (hnefi games convert) */
            }
            if (rules && !v) {
                if (!opentafl_read_rules(&g.rules, rules, why, sizeof why)) {
                    int dim = opentafl_rules_dim(rules);
                    if (!HNEFI_WIDE && dim > 11 && dim <= 19) {
                        rec->not_built_in = true;
                        rec->variant[0] = '\0'; /* a board size, not a variant's name */
                        snprintf(err, errlen, UNKNOWN_BOARD_FORMAT, (long long)lineno, dim, dim);
                    } else {
                        snprintf(err, errlen, "line %lld: %s", (long long)lineno, why);
                    }
                    return false;
                }
                g.have_rules = true;
            }
            continue;
        }
        if (!(l[0] >= '0' && l[0] <= '9' && strchr(l, '.'))) {
            snprintf(err, errlen, "line %lld: '%.40s' is not a turn (N. move move)",
                     (long long)lineno, l);
            return false;
        }
        if (!otg_turn(l, t, why, sizeof why)) {
            snprintf(err, errlen, "game of line %lld, line %lld: %s", (long long)g.first_line,
                     (long long)lineno, why);
            return false;
        }
    }
    if (in_game && g.turns && !otg_finish(&g, t, v, fn, ctx, rec, stopped, err, errlen))
        return false;
    return true;
}

/*
 * Tells what kind of hnefi file other than a record file raw holds (by the magic its first
 * frame, or the file, starts with): a description naming the commands that read it, or NULL.
 */
static const char *other_kind(const char *raw, size_t size) {
    static const struct {
        char magic[9];
        const char *what;
    } kinds[] = {
        {"HNEFIDAT", "a training-data file, not a game record file: hnefi games summary and "
                     "hnefi train --data read it"},
        {"HNEFIBOK", "an opening book, not a game record file: hnefi book show and hnefi book "
                     "stats read it"},
        {"HNEFINET", "a network file, not a game record file: the --net option of analyze, "
                     "selfplay and the protocols reads it"},
    };
    char head[8] = {0}, err[200], *frame = NULL;
    size_t pos = 0, flen = 0;
    if (!zio_is_zstd(raw, size))
        memcpy(head, raw, size < 8 ? size : 8);
    else if (zio_next_frame_max((const uint8_t *)raw, size, &pos, 1 << 16, &frame, &flen, err,
                                sizeof err) == ZIO_FRAME_OK) /* their first frames are small */
        memcpy(head, frame, flen < 8 ? flen : 8);
    free(frame);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (memcmp(head, kinds[k].magic, 8) == 0) return kinds[k].what;
    return NULL;
}

/*
 * Reads every record of a file (plain text or zstd frames) and calls fn for each. A half-written
 * last frame is an error unless tail_ok is set; then *good_end gets the size of the sound part
 * and *truncated says whether anything was left over (its description goes to err). Returns
 * false with a reason in err on damage or when fn stops.
 */
bool records_scan(const char *path, const struct variant *v, bool tail_ok, records_fn fn, void *ctx,
                  size_t *good_end, bool *truncated, char *err, size_t errlen) {
    return records_scan_refused(path, v, tail_ok, fn, ctx, good_end, truncated, NULL, err, errlen);
}

/* records_scan that also says, in *refused, whether it refused games this build does not have. */
bool records_scan_refused(const char *path, const struct variant *v, bool tail_ok, records_fn fn,
                          void *ctx, size_t *good_end, bool *truncated,
                          struct records_refusal *refused, char *err, size_t errlen) {
    if (refused) memset(refused, 0, sizeof *refused);
    size_t size;
    char *raw = zio_read_file(path, &size, err, errlen);
    if (!raw) return false;
    struct record *rec = malloc(sizeof *rec);
    struct tafl_game *t = tafl_new(variant_by_name("copenhagen"));
    bool ok = rec && t, stopped = false;
    int64_t lineno = 0;
    char why[400];
    const char *kind = other_kind(raw, size);
    if (truncated) *truncated = false;
    if (rec) rec->foreign = rec->not_built_in = false;
    if (!ok) {
        snprintf(err, errlen, "out of memory");
    } else if (kind) {
        snprintf(err, errlen, "%s is %s", path, kind);
        ok = false;
    } else if (!zio_is_zstd(raw, size) && otg_text(raw, size) && !tail_ok) {
        if (!scan_otg(raw, size, v, fn, ctx, rec, t, why, sizeof why, &stopped)) {
            if (!stopped) snprintf(err, errlen, "%s: %s", path, why);
            ok = false;
        }
        if (good_end) *good_end = size;
    } else if (!zio_is_zstd(raw, size)) {
        if (size > 0 && tail_ok) {
            snprintf(err, errlen, "%s is not a zstd record file", path);
            ok = false;
        } else if (!scan_text(raw, size, v, fn, ctx, rec, t, &lineno, why, sizeof why, &stopped)) {
            if (!stopped) snprintf(err, errlen, rec->foreign ? "%s %s" : "%s: %s", path, why);
            ok = false;
        }
        if (good_end) *good_end = size;
    } else {
        size_t pos = 0;
        struct frame_ctx c = {path, v, fn, ctx, rec, t, &lineno, &stopped, err, errlen};
        enum zio_frame st =
            zio_scan_frames((const uint8_t *)raw, size, &pos, scan_frame, &c, why, sizeof why);
        ok = st != ZIO_FRAME_OK; /* OK: scan_frame stopped, with err set unless fn stopped */
        if (ok && st == ZIO_FRAME_TRUNCATED && tail_ok) {
            if (truncated) *truncated = true;
            snprintf(err, errlen, "%s: %s", path, why);
        } else if (ok && st != ZIO_FRAME_END) {
            snprintf(err, errlen, "%s is damaged: %s", path, why);
            ok = false;
        }
        if (good_end) *good_end = pos;
    }
    if (!ok && rec && rec->not_built_in && refused) {
        refused->not_built_in = true;
        snprintf(refused->variant, sizeof refused->variant, "%s", rec->variant);
    }
    free(rec);
    tafl_free(t);
    free(raw);
    return ok;
}

/*
 * Opens a tournament's record file for appending, creating it if needed, after calling fn for
 * every record already in it (resume). A half-written last frame is cut off and described in
 * note (empty otherwise). Returns the descriptor, or -1 with a reason in err.
 */
int records_open_append(const char *path, const struct variant *v, records_fn fn, void *ctx,
                        char *note, size_t notelen, char *err, size_t errlen) {
    note[0] = '\0';
    if (access(path, F_OK) == 0) {
        size_t good_end = 0;
        bool truncated = false;
        char why[600];
        if (!records_scan(path, v, true, fn, ctx, &good_end, &truncated, why, sizeof why)) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
        if (truncated) {
            if (truncate(path, (off_t)good_end) != 0) {
                snprintf(err, errlen, "cannot cut the half-written end off %s: %s", path,
                         strerror(errno));
                return -1;
            }
            snprintf(note, notelen, "dropped a half-written record (%s)", why);
        }
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
    return fd;
}

/* Copies the first line of a record file (plain or zstd) into out if it starts with '#'. */
bool records_comment(const char *path, char *out, size_t outlen) {
    char err[300];
    size_t size, pos = 0, flen = 0;
    char *raw = zio_read_file(path, &size, err, sizeof err), *frame = NULL;
    const char *text = raw;
    out[0] = '\0';
    if (raw && zio_is_zstd(raw, size)) {
        text = NULL;
        if (zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, err, sizeof err) ==
            ZIO_FRAME_OK)
            text = frame;
    }
    bool found = text && text[0] == '#';
    if (found) snprintf(out, outlen, "%.*s", (int)strcspn(text, "\r\n"), text);
    free(frame);
    free(raw);
    return found;
}
