/* Built-in variants, derived masks, and OpenTafl rules strings. */
#include "engine/variant.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/notation.h"

#define START_11 "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a"
#define START_9  "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a"
#define START_7  "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"

static struct variant builtins[] = {
    {.name = "copenhagen",
     .size = 11,
     .start_fen = START_11,
     .escape = ESCAPE_CORNER,
     .corners = true,
     .throne_stop = THRONE_KING,
     .throne_pass = THRONE_ALL,
     .hostile_corner = KIND_A | KIND_D | KIND_K,
     .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
     .hostile_throne_king = KIND_A,
     .hostile_edge_king = false,
     .king_armed = KING_ARMED_YES,
     .king_capture = KING_CAPTURE_FOUR,
     .shieldwall = true,
     .sw_corner = true,
     .sw_flank_only = true,
     .exit_fort = true,
     .encirclement = true,
     .immobile_king = false,
     .linnaean = false,
     .repetition = REP_LOSS_DEFENDERS,
     .no_moves = NO_MOVES_LOSS},
    {.name = "fetlar",
     .size = 11,
     .start_fen = START_11,
     .escape = ESCAPE_CORNER,
     .corners = true,
     .throne_stop = THRONE_KING,
     .throne_pass = THRONE_ALL,
     .hostile_corner = KIND_A | KIND_D,
     .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
     .hostile_throne_king = KIND_A,
     .hostile_edge_king = false,
     .king_armed = KING_ARMED_YES,
     .king_capture = KING_CAPTURE_FOUR,
     .repetition = REP_DRAW,
     .no_moves = NO_MOVES_DRAW},
    {.name = "tablut",
     .size = 9,
     .start_fen = START_9,
     .escape = ESCAPE_CORNER,
     .corners = true,
     .throne_stop = THRONE_KING,
     .throne_pass = THRONE_ALL,
     .hostile_corner = KIND_A | KIND_D | KIND_K,
     .hostile_throne_empty = KIND_K,
     .hostile_throne_king = KIND_A,
     .hostile_edge_king = true,
     .king_armed = KING_ARMED_YES,
     .king_capture = KING_CAPTURE_FOUR,
     .immobile_king = true,
     .repetition = REP_DRAW,
     .no_moves = NO_MOVES_LOSS},
    {.name = "linnaeus",
     .size = 9,
     .start_fen = START_9,
     .escape = ESCAPE_EDGE,
     .corners = false,
     .throne_stop = THRONE_NOBODY,
     .throne_pass = THRONE_ALL,
     .hostile_corner = 0,
     .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
     .hostile_throne_king = KIND_A,
     .hostile_edge_king = false,
     .king_armed = KING_ARMED_YES,
     .king_capture = KING_CAPTURE_THRONE_FOUR,
     .linnaean = true,
     .repetition = REP_DRAW,
     .no_moves = NO_MOVES_DRAW},
    {.name = "brandubh",
     .size = 7,
     .start_fen = START_7,
     .escape = ESCAPE_CORNER,
     .corners = true,
     .throne_stop = THRONE_KING,
     .throne_pass = THRONE_ALL,
     .hostile_corner = KIND_A | KIND_D | KIND_K,
     .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
     .hostile_throne_king = KIND_A,
     .hostile_edge_king = false,
     .king_armed = KING_ARMED_YES,
     .king_capture = KING_CAPTURE_THRONE_FOUR,
     .repetition = REP_LOSS_DEFENDERS,
     .no_moves = NO_MOVES_LOSS},
};

enum { BUILTIN_NB = sizeof builtins / sizeof builtins[0] };
static bool builtins_ready;

/* Computes the derived masks of every built-in variant once. */
static void builtins_init(void) {
    if (builtins_ready) return;
    for (int i = 0; i < BUILTIN_NB; i++) variant_finish(&builtins[i]);
    builtins_ready = true;
}

/* Returns the i-th built-in variant, or NULL past the end. */
const struct variant *variant_builtin(int i) {
    builtins_init();
    return i >= 0 && i < BUILTIN_NB ? &builtins[i] : NULL;
}

/* Returns the built-in variant called name, or NULL. */
const struct variant *variant_by_name(const char *name) {
    builtins_init();
    for (int i = 0; i < BUILTIN_NB; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
    return NULL;
}

/* Computes the derived masks of v from its options; call after changing any option. */
void variant_finish(struct variant *v) {
    int n = v->size;
    bb_geom_init(&v->g, n);
    v->throne_sq = (n / 2) * n + n / 2;
    v->throne = bb_sq(v->throne_sq);
    v->corner_mask = 0;
    if (v->corners)
        v->corner_mask = bb_sq(0) | bb_sq(n - 1) | bb_sq(n * (n - 1)) | bb_sq(n * n - 1);
    v->escape_mask = v->escape == ESCAPE_EDGE
                         ? v->g.edge
                         : bb_sq(0) | bb_sq(n - 1) | bb_sq(n * (n - 1)) | bb_sq(n * n - 1);
    v->men_forbidden = v->throne | v->corner_mask;
    v->king_forbidden = v->throne_stop == THRONE_NOBODY ? v->throne : 0;
    v->men_block = v->throne_pass == THRONE_ALL ? 0 : v->throne;
    v->king_block = v->throne_pass == THRONE_NOBODY ? v->throne : 0;
    v->king_hammer = v->king_armed == KING_ARMED_YES || v->king_armed == KING_ARMED_HAMMER;
    v->king_anvil = v->king_armed == KING_ARMED_YES || v->king_armed == KING_ARMED_ANVIL;
}

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

/* Maps an OpenTafl piece-letter list to a kind set; false on an unknown letter. */
static bool otn_kinds(const char *val, size_t len, unsigned *out) {
    unsigned k = 0;
    for (size_t i = 0; i < len; i++) {
        char c = val[i];
        if (strchr("tcnmg", c))
            k |= KIND_A;
        else if (c == 'k')
            k |= 0; /* an attacker king: no such piece in our variants */
        else if (strchr("TCNMG", c))
            k |= KIND_D;
        else if (c == 'K')
            k |= KIND_K;
        else
            return false;
    }
    *out = k;
    return true;
}

/* Parses a yes/no value. */
static bool otn_yn(const char *val, size_t len, bool *out) {
    if (len == 1 && (val[0] == 'y' || val[0] == 'n')) {
        *out = val[0] == 'y';
        return true;
    }
    return false;
}

/* Reads an OTN square list ("a1,k11,") into a bitboard; false on a bad square. */
static bool otn_squares(const char *val, size_t len, int size, bb_t *out) {
    bb_t b = 0;
    size_t i = 0;
    while (i < len) {
        if (val[i] == ',') {
            i++;
            continue;
        }
        char buf[8];
        size_t j = 0;
        while (i < len && val[i] != ',' && j < sizeof buf - 1) buf[j++] = val[i++];
        buf[j] = 0;
        int used = 0, sq = sq_parse(buf, size, &used);
        if (sq < 0 || buf[used] != 0) return false;
        b |= bb_sq(sq);
    }
    *out = b;
    return true;
}

/*
 * Reads an OpenTafl rules string ("dim:11 name:Copenhagen atkf:y ... start:/.../") into v, on top
 * of OpenTafl's defaults. Returns false with a message in err naming the bad token.
 */
bool variant_from_opentafl(struct variant *v, const char *rules, char *err, size_t errlen) {
    struct variant r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "opentafl");
    r.escape = ESCAPE_CORNER;
    r.corners = true;
    r.throne_stop = THRONE_KING;
    r.throne_pass = THRONE_ALL;
    r.hostile_corner = KIND_A | KIND_D | KIND_K;
    r.hostile_throne_empty = KIND_A | KIND_D | KIND_K;
    r.hostile_throne_king = KIND_A;
    r.king_armed = KING_ARMED_YES;
    r.king_capture = KING_CAPTURE_FOUR;
    r.sw_flank_only = true;
    r.encirclement = true;
    r.repetition = REP_DRAW;
    r.no_moves = NO_MOVES_LOSS;
    bool attackers_first = true, have_dim = false, have_start = false;
    char start_rows[VARIANT_FEN_MAX - 4] = "";
    bb_t cor_list = 0, cen_list = 0;
    bool have_cor = false, have_cen = false;

    const char *p = rules;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        const char *tok = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
        size_t toklen = (size_t)(p - tok);
        char token[200];
        snprintf(token, sizeof token, "%.*s", (int)(toklen < 190 ? toklen : 190), tok);
        const char *colon = memchr(tok, ':', toklen);
        if (!colon) return fail(err, errlen, "rules token '%s': expected key:value%s", token, "");
        size_t klen = (size_t)(colon - tok);
        const char *val = colon + 1;
        size_t vlen = toklen - klen - 1;
        char key[16];
        if (klen == 0 || klen >= sizeof key)
            return fail(err, errlen, "rules token '%s': bad key%s", token, "");
        memcpy(key, tok, klen);
        key[klen] = 0;
        bool ok = true;
        if (!have_dim && strcmp(key, "dim") != 0)
            return fail(err, errlen, "rules token '%s': the string must start with dim%s", token,
                        "");
        if (strcmp(key, "dim") == 0) {
            char *end;
            long d = strtol(val, &end, 10);
            ok = vlen > 0 && end == val + vlen && (d == 7 || d == 9 || d == 11);
            if (!ok)
                return fail(err, errlen, "rules token '%s': board size must be 7, 9 or 11%s", token,
                            "");
            r.size = (int)d;
            have_dim = true;
        } else if (strcmp(key, "name") == 0) {
            size_t n = vlen < VARIANT_NAME_MAX - 1 ? vlen : VARIANT_NAME_MAX - 1;
            memcpy(r.name, val, n);
            r.name[n] = 0;
            for (size_t i = 0; i < n; i++)
                if (r.name[i] == '_') r.name[i] = ' ';
        } else if (strcmp(key, "esc") == 0) {
            ok = vlen == 1 && (val[0] == 'c' || val[0] == 'e');
            if (ok) r.escape = val[0] == 'e' ? ESCAPE_EDGE : ESCAPE_CORNER;
        } else if (strcmp(key, "surf") == 0) {
            ok = otn_yn(val, vlen, &r.encirclement);
        } else if (strcmp(key, "atkf") == 0) {
            ok = otn_yn(val, vlen, &attackers_first);
        } else if (strcmp(key, "tfr") == 0) {
            ok = vlen == 1 && strchr("idwl", val[0]);
            if (ok)
                r.repetition = val[0] == 'i'   ? REP_NONE
                               : val[0] == 'd' ? REP_DRAW
                               : val[0] == 'w' ? REP_LOSS_REPEATER
                                               : REP_WIN_REPEATER;
        } else if (strcmp(key, "ka") == 0) {
            ok = vlen == 1 && strchr("ynah", val[0]);
            if (ok)
                r.king_armed = val[0] == 'y'   ? KING_ARMED_YES
                               : val[0] == 'n' ? KING_ARMED_NO
                               : val[0] == 'a' ? KING_ARMED_ANVIL
                                               : KING_ARMED_HAMMER;
        } else if (strcmp(key, "ks") == 0) {
            ok = vlen == 1 && strchr("sycmwn", val[0]);
            if (ok) {
                r.hostile_edge_king = val[0] == 'm';
                r.king_capture = strchr("sym", val[0]) ? KING_CAPTURE_FOUR
                                 : val[0] == 'c'       ? KING_CAPTURE_THRONE_FOUR
                                                       : KING_CAPTURE_CUSTODIAL;
            }
        } else if (strcmp(key, "cor") == 0 || strcmp(key, "cen") == 0) {
            bb_t *dst = key[1] == 'o' ? &cor_list : &cen_list;
            if (!r.size) return fail(err, errlen, "rules token '%s': needs dim first%s", token, "");
            ok = otn_squares(val, vlen, r.size, dst);
            if (key[1] == 'o')
                have_cor = true;
            else
                have_cen = true;
        } else if (strcmp(key, "corh") == 0) {
            ok = otn_kinds(val, vlen, &r.hostile_corner);
        } else if (strcmp(key, "cenh") == 0) {
            ok = otn_kinds(val, vlen, &r.hostile_throne_king);
            r.hostile_throne_king &= KIND_A | KIND_D;
        } else if (strcmp(key, "cenhe") == 0) {
            ok = otn_kinds(val, vlen, &r.hostile_throne_empty);
        } else if (strcmp(key, "cenp") == 0 || strcmp(key, "cens") == 0) {
            unsigned k = 0;
            ok = otn_kinds(val, vlen, &k);
            if (ok && key[3] == 'p') {
                if (k == (KIND_A | KIND_D | KIND_K))
                    r.throne_pass = THRONE_ALL;
                else if (k == KIND_K)
                    r.throne_pass = THRONE_KING;
                else if (k == 0)
                    r.throne_pass = THRONE_NOBODY;
                else
                    return fail(err, errlen,
                                "rules token '%s': unsupported: the throne passable by men of one "
                                "side only%s",
                                token, "");
            } else if (ok) {
                if (k == KIND_K)
                    r.throne_stop = THRONE_KING;
                else if (k == 0)
                    r.throne_stop = THRONE_NOBODY;
                else
                    return fail(err, errlen,
                                "rules token '%s': unsupported: men may not stop on the throne%s",
                                token, "");
            }
        } else if (strcmp(key, "corp") == 0 || strcmp(key, "cors") == 0 ||
                   strcmp(key, "corre") == 0 || strcmp(key, "cenre") == 0) {
            unsigned k = 0;
            ok = otn_kinds(val, vlen, &k);
            if (ok && strcmp(key, "cors") == 0 && k != KIND_K)
                return fail(err, errlen,
                            "rules token '%s': unsupported: only the king may stop "
                            "on a corner%s",
                            token, "");
        } else if (strcmp(key, "sw") == 0) {
            ok = vlen == 1 && strchr("nws", val[0]);
            if (ok) {
                r.shieldwall = val[0] != 'n';
                r.sw_corner = val[0] == 's';
            }
        } else if (strcmp(key, "swf") == 0) {
            ok = otn_yn(val, vlen, &r.sw_flank_only);
        } else if (strcmp(key, "efe") == 0) {
            ok = otn_yn(val, vlen, &r.exit_fort);
        } else if (strcmp(key, "linc") == 0) {
            ok = otn_yn(val, vlen, &r.linnaean);
        } else if (strcmp(key, "ber") == 0) {
            if (!(vlen == 1 && val[0] == 'n'))
                return fail(err, errlen, "rules token '%s': unsupported: berserk mode%s", token,
                            "");
        } else if (strcmp(key, "spd") == 0) {
            if (!(vlen == 2 && memcmp(val, "-1", 2) == 0))
                return fail(err, errlen, "rules token '%s': unsupported: speed limits%s", token,
                            "");
        } else if (strncmp(key, "afor", 4) == 0 || strncmp(key, "dfor", 4) == 0) {
            if (vlen != 0 && (strcmp(key, "afor") == 0 || strcmp(key, "dfor") == 0))
                return fail(err, errlen, "rules token '%s': unsupported: fortress squares%s", token,
                            "");
        } else if (strcmp(key, "kj") == 0 || strcmp(key, "nj") == 0 || strcmp(key, "cj") == 0 ||
                   strcmp(key, "mj") == 0 || strcmp(key, "gj") == 0) {
            /* jump types of special pieces: no effect without those pieces */
        } else if (strcmp(key, "start") == 0 || strcmp(key, "starti") == 0) {
            /* the start position runs to the end of the string */
            const char *rec = val;
            while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
            size_t rlen = (size_t)(p - rec);
            char recbuf[VARIANT_FEN_MAX];
            if (rlen >= sizeof recbuf)
                return fail(err, errlen, "rules token 'start': position record too long%s%s", "",
                            "");
            memcpy(recbuf, rec, rlen);
            recbuf[rlen] = 0;
            char why[160];
            if (!otn_record_to_rows(recbuf, r.size, strcmp(key, "starti") == 0, start_rows,
                                    sizeof start_rows, why, sizeof why))
                return fail(err, errlen, "rules token 'start': %s%s", why, "");
            have_start = true;
        } else {
            return fail(err, errlen, "rules token '%s': unknown key '%s'", token, key);
        }
        if (!ok) return fail(err, errlen, "rules token '%s': bad value for '%s'", token, key);
    }
    if (!have_dim) return fail(err, errlen, "rules string: missing dim%s%s", "", "");
    if (!have_start) return fail(err, errlen, "rules string: missing start%s%s", "", "");
    int n = r.size;
    bb_t phys_corners = bb_sq(0) | bb_sq(n - 1) | bb_sq(n * (n - 1)) | bb_sq(n * n - 1);
    if (have_cor) {
        if (cor_list == 0)
            r.corners = false;
        else if (cor_list != phys_corners)
            return fail(err, errlen,
                        "rules token 'cor': unsupported: corners other than the four "
                        "corner squares%s%s",
                        "", "");
    }
    if (!r.corners) r.hostile_corner = 0;
    if (have_cen && cen_list != bb_sq((n / 2) * n + n / 2))
        return fail(err, errlen,
                    "rules token 'cen': unsupported: a centre other than the middle "
                    "square%s%s",
                    "", "");
    snprintf(r.start_fen, sizeof r.start_fen, "%s %c", start_rows, attackers_first ? 'a' : 'd');
    variant_finish(&r);
    /* a start the rules themselves forbid (a man on the throne, ...) is refused here, so that
       every reader of rules (records, protocols) can set up the start it was given */
    struct position start;
    char why[200];
    if (!fen_parse(&start, &r, r.start_fen, why, sizeof why))
        return fail(err, errlen, "rules token 'start': not a valid start position: %s%s", why, "");
    *v = r;
    return true;
}

/* Writes a kind set as OpenTafl piece letters. */
static void kinds_text(unsigned k, char *out) {
    char *o = out;
    if (k & KIND_A) o += sprintf(o, "tcnkm");
    if (k & KIND_D) o += sprintf(o, "TCNM");
    if (k & KIND_K) o += sprintf(o, "K");
    *o = 0;
}

/*
 * Writes v as an OpenTafl rules string, ending with its start position. Options OpenTafl cannot
 * express are written as their nearest OpenTafl equivalent. Returns the length, or -1 if it did
 * not fit.
 */
int variant_to_opentafl(const struct variant *v, char *out, size_t outlen) {
    char buf[1024], kinds[32], name[VARIANT_NAME_MAX];
    char *o = buf;
    snprintf(name, sizeof name, "%s", v->name);
    for (char *c = name; *c; c++)
        if (*c == ' ') *c = '_';
    o += sprintf(o, "dim:%d name:%s", v->size, name);
    if (v->escape == ESCAPE_EDGE) o += sprintf(o, " esc:e");
    if (!v->encirclement) o += sprintf(o, " surf:n");
    o += sprintf(o, " atkf:%c", strchr(v->start_fen, ' ')[1] == 'a' ? 'y' : 'n');
    static const char tfr[] = {'i', 'd', 'w', 'l', 'w', 'w', 'w'};
    if (v->repetition != REP_DRAW) o += sprintf(o, " tfr:%c", tfr[v->repetition]);
    static const char ka[] = {'y', 'h', 'a', 'n'};
    if (v->king_armed != KING_ARMED_YES) o += sprintf(o, " ka:%c", ka[v->king_armed]);
    char ks = v->king_capture == KING_CAPTURE_CUSTODIAL     ? 'w'
              : v->king_capture == KING_CAPTURE_THRONE_FOUR ? 'c'
              : v->hostile_edge_king                        ? 'm'
                                                            : 's';
    if (ks != 's') o += sprintf(o, " ks:%c", ks);
    if (!v->corners) o += sprintf(o, " cor:");
    if (v->corners && v->hostile_corner != (KIND_A | KIND_D | KIND_K)) {
        kinds_text(v->hostile_corner, kinds);
        o += sprintf(o, " corh:%s", kinds);
    }
    if (v->hostile_throne_king != KIND_A) {
        kinds_text(v->hostile_throne_king, kinds);
        o += sprintf(o, " cenh:%s", kinds);
    }
    if (v->hostile_throne_empty != (KIND_A | KIND_D | KIND_K)) {
        kinds_text(v->hostile_throne_empty, kinds);
        o += sprintf(o, " cenhe:%s", kinds);
    }
    if (v->throne_pass == THRONE_KING) o += sprintf(o, " cenp:K");
    if (v->throne_pass == THRONE_NOBODY) o += sprintf(o, " cenp:");
    if (v->throne_stop == THRONE_NOBODY) o += sprintf(o, " cens:");
    if (v->shieldwall) o += sprintf(o, " sw:%c", v->sw_corner ? 's' : 'w');
    if (v->shieldwall && !v->sw_flank_only) o += sprintf(o, " swf:n");
    if (v->exit_fort) o += sprintf(o, " efe:y");
    if (v->linnaean) o += sprintf(o, " linc:y");
    char rec[VARIANT_FEN_MAX];
    if (!fen_rows_to_otn_record(v->start_fen, v->size, rec, sizeof rec)) return -1;
    o += sprintf(o, " start:%s", rec);
    size_t len = (size_t)(o - buf);
    if (len + 1 > outlen) return -1;
    memcpy(out, buf, len + 1);
    return (int)len;
}

/* One rules.md option: its name, where it lives, and the names of its values. */
struct option_desc {
    const char *key;
    enum { OPT_ENUM, OPT_BOOL, OPT_KINDS } type;
    size_t offset;
    const char *values[8]; /* OPT_ENUM: value names in enum order */
};

#define OFF(f) offsetof(struct variant, f)
static const struct option_desc option_table[] = {
    {"escape", OPT_ENUM, OFF(escape), {"corner", "edge"}},
    {"corners", OPT_BOOL, OFF(corners), {0}},
    {"throne_stop", OPT_ENUM, OFF(throne_stop), {"all", "king", "nobody"}},
    {"throne_pass", OPT_ENUM, OFF(throne_pass), {"all", "king", "nobody"}},
    {"hostile_corner", OPT_KINDS, OFF(hostile_corner), {0}},
    {"hostile_throne_empty", OPT_KINDS, OFF(hostile_throne_empty), {0}},
    {"hostile_throne_king", OPT_KINDS, OFF(hostile_throne_king), {0}},
    {"hostile_edge_king", OPT_BOOL, OFF(hostile_edge_king), {0}},
    {"king_armed", OPT_ENUM, OFF(king_armed), {"yes", "hammer", "anvil", "no"}},
    {"king_capture", OPT_ENUM, OFF(king_capture), {"custodial", "four", "throne_four"}},
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

/* Writes every option of v as "key value" lines into out; returns the length or -1. */
int variant_describe(const struct variant *v, char *out, size_t outlen) {
    size_t len = 0;
    int w = snprintf(out, outlen, "name %s\nsize %d\nstart %s\n", v->name, v->size, v->start_fen);
    if (w < 0 || (size_t)w >= outlen) return -1;
    len = (size_t)w;
    for (int i = 0; i < OPTION_NB; i++) {
        const struct option_desc *o = &option_table[i];
        const char *field = (const char *)v + o->offset;
        char val[32];
        if (o->type == OPT_BOOL) {
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
