/* OpenTafl rules strings and position records, read and written. */
#include "engine/opentafl.h"

#include <ctype.h>
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

/* Copies at most n printable characters of s for quoting in a message. */
static const char *quote(const char *s, size_t n, char *buf, size_t buflen) {
    size_t j = 0;
    for (size_t i = 0; s[i] && i < n && j + 5 < buflen; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isprint(c))
            buf[j++] = (char)c;
        else
            j += (size_t)snprintf(buf + j, buflen - j, "\\x%02x", c);
    }
    buf[j] = 0;
    return buf;
}

/*
 * Converts an OpenTafl position record (rank 1 first, or the top rank first if top_first) to the
 * rows part of a FEN. Returns false with a reason in err.
 */
bool opentafl_record_to_rows(const char *rec, int size, bool top_first, char *rows, size_t rowslen,
                             char *err, size_t errlen) {
    char q[64];
    char grid[BB_MAX_SIZE][BB_MAX_SIZE];
    const char *s = rec;
    if (*s != '/') return fail(err, errlen, "position record must start with '/'");
    s++;
    int row = 0;
    while (*s) {
        if (row >= size)
            return fail(err, errlen, "position record: more than %d rows at '%s'", size,
                        quote(s, 16, q, sizeof q));
        int file = 0;
        const char *row_start = s;
        while (*s && *s != '/') {
            if (isdigit((unsigned char)*s)) {
                int run = 0;
                if (*s == '0')
                    return fail(err, errlen,
                                "position record row %d: run starts with "
                                "0",
                                row + 1);
                while (isdigit((unsigned char)*s) && run <= size) run = run * 10 + (*s++ - '0');
                if (file + run > size)
                    return fail(err, errlen, "position record row %d '%s': more than %d squares",
                                row + 1, quote(row_start, strcspn(row_start, "/"), q, sizeof q),
                                size);
                while (run--) grid[row][file++] = '.';
                continue;
            }
            char c = *s == 't'   ? 'a'
                     : *s == 'T' ? 'd'
                     : *s == 'K' ? 'k'
                     : *s == 'c' ? 'c'
                     : *s == 'N' ? 'n'
                                 : 0;
            if (!c && strchr("nkmgCMG", *s))
                return fail(err, errlen,
                            "position record row %d: unsupported piece '%s' (hnefi has the "
                            "attackers' commanders c and the defenders' knights N)",
                            row + 1, quote(s, 1, q, sizeof q));
            if (!c)
                return fail(err, errlen, "position record row %d: unknown piece '%s'", row + 1,
                            quote(s, 1, q, sizeof q));
            if (file >= size)
                return fail(err, errlen, "position record row %d '%s': more than %d squares",
                            row + 1, quote(row_start, strcspn(row_start, "/"), q, sizeof q), size);
            grid[row][file++] = c;
            s++;
        }
        if (file != size)
            return fail(err, errlen, "position record row %d '%s': %d squares, expected %d",
                        row + 1, quote(row_start, strcspn(row_start, "/"), q, sizeof q), file,
                        size);
        if (*s != '/') return fail(err, errlen, "position record must end with '/'");
        s++;
        row++;
    }
    if (row != size) return fail(err, errlen, "position record: %d rows, expected %d", row, size);
    char *o = rows;
    size_t need = (size_t)size * (size + 1) + 1;
    if (rowslen < need) return fail(err, errlen, "position record: no room");
    for (int i = 0; i < size; i++) {
        int r = top_first ? i : size - 1 - i, run = 0;
        for (int f = 0; f < size; f++) {
            if (grid[r][f] == '.') {
                run++;
                continue;
            }
            if (run) o += sprintf(o, "%d", run);
            run = 0;
            *o++ = grid[r][f];
        }
        if (run) o += sprintf(o, "%d", run);
        if (i < size - 1) *o++ = '/';
    }
    *o = 0;
    return true;
}

/* Converts the rows part of a FEN (anything after a space is ignored) to an OpenTafl record. */
bool opentafl_rows_to_record(const char *fen, int size, char *out, size_t outlen) {
    const char *rows[BB_MAX_SIZE];
    size_t lens[BB_MAX_SIZE];
    int n = 0;
    const char *s = fen;
    while (n < size) {
        rows[n] = s;
        lens[n] = strcspn(s, "/ ");
        s += lens[n];
        n++;
        if (*s != '/') break;
        s++;
    }
    if (n != size) return false;
    size_t len = 1;
    for (int i = 0; i < n; i++) len += lens[i] + 1;
    if (len + 1 > outlen) return false;
    char *o = out;
    *o++ = '/';
    for (int i = n - 1; i >= 0; i--) {
        for (size_t j = 0; j < lens[i]; j++) {
            char c = rows[i][j];
            *o++ = c == 'a' ? 't' : c == 'd' ? 'T' : c == 'k' ? 'K' : c == 'n' ? 'N' : c;
        }
        *o++ = '/';
    }
    *o = 0;
    return true;
}

/* Writes p's placement as an OpenTafl position record. */
int opentafl_record_write(const struct position *p, char *out, size_t outlen) {
    char fen[FEN_MAX];
    fen_write(p, fen);
    if (!opentafl_rows_to_record(fen, p->v->size, out, outlen)) return -1;
    return (int)strlen(out);
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

/*
 * Reads an OTN speed-limit list (spd): one number for every piece, 12 (t c n k m g T C N K M G)
 * or 8 (t c n k T C N K); 2 or 10 numbers are what OpenTafl's own reader turns into no limits, and
 * so do we. A limit of 0 or less is none. hnefi has the king's limit only: a limit for men of
 * either side is refused, and limits of pieces it does not have (c n k m g) change nothing.
 * Returns false with a reason in why.
 */
static bool otn_speeds(const char *val, size_t len, int *king_speed, const char **why) {
    long n[13];
    int count = 0;
    size_t i = 0;
    while (i < len) {
        char *end;
        char buf[16];
        size_t j = 0;
        while (i < len && val[i] != ',' && j < sizeof buf - 1) buf[j++] = val[i++];
        buf[j] = 0;
        if (i < len && val[i] != ',') {
            *why = "a number too long";
            return false;
        }
        if (i < len) i++; /* the comma */
        if (!j) continue; /* a trailing comma */
        if (count == 13 || (n[count] = strtol(buf, &end, 10), *end)) {
            *why = "expected 1, 8 or 12 whole numbers";
            return false;
        }
        count++;
    }
    int men[2], king;
    if (count == 1) {
        men[0] = men[1] = king = (int)n[0];
    } else if (count == 12 || count == 8) {
        men[0] = (int)n[0];
        men[1] = (int)n[count == 12 ? 6 : 4];
        king = (int)n[count == 12 ? 9 : 7];
    } else if (count == 2 || count == 10) {
        men[0] = men[1] = king = 0;
    } else {
        *why = "expected 1, 8 or 12 whole numbers";
        return false;
    }
    if (men[0] > 0 || men[1] > 0) {
        *why = "unsupported: a speed limit for men";
        return false;
    }
    *king_speed = king > 0 ? king : 0;
    return true;
}

/* Reads an OTN square list ("a1,k11,") into a bitboard; false on a bad square. */
static bool otn_squares(const char *val, size_t len, int size, bb_t *out) {
    bb_t b = BB_EMPTY;
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

/* Returns the board size a rules string names with its first token dim:N, or 0 if none. */
int opentafl_rules_dim(const char *rules) {
    rules += strspn(rules, " \t");
    if (strncmp(rules, "dim:", 4) != 0) return 0;
    long n = 0;
    for (const char *c = rules + 4; *c >= '0' && *c <= '9' && n < 1000; c++)
        n = n * 10 + (*c - '0');
    return (int)n;
}

/* Tells whether this build reads the rules string; false with the reason in err. */
bool opentafl_rules_ok(const char *rules, char *err, size_t errlen) {
    struct variant *v = malloc(sizeof *v); /* a wide build's variant is large for a stack */
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = opentafl_read_rules(v, rules, err, errlen);
    free(v);
    return ok;
}

/*
 * Reads an OpenTafl rules string ("dim:11 name:Copenhagen atkf:y ... start:/.../") into v, on top
 * of OpenTafl's defaults. Returns false with a message in err naming the bad token.
 */
bool opentafl_read_rules(struct variant *v, const char *rules, char *err, size_t errlen) {
    struct variant r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "opentafl");
    r.escape = ESCAPE_CORNER;
    r.centre = true;
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
    /* OpenTafl's jump defaults for knights and commanders, set once the start shows them */
    enum jump_mode knight_jump = JUMP_CAPTURE, commander_jump = JUMP_PLAIN;
    bool attackers_first = true, have_dim = false, have_start = false;
    char start_rows[VARIANT_FEN_MAX - 4] = "";
    char start_fen[VARIANT_FEN_MAX];
    bb_t cor_list = BB_EMPTY, cen_list = BB_EMPTY;
    bool have_cor = false, have_cen = false;
    /* fortress tokens: what OpenTafl's fortress model needs to match ours (checked at the end) */
    unsigned afor_pass = KIND_A | KIND_D | KIND_K, afor_stop = KIND_A | KIND_D | KIND_K;
    unsigned afor_hostile = 0, afor_reenter = KIND_A | KIND_D | KIND_K, cen_reenter = 0;
    bool have_aforre = false, have_cenre = false;

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
            if (have_dim)
                return fail(err, errlen, "rules token '%s': a second dim (the board is %dx%d)",
                            token, r.size, r.size);
            char *end;
            long d = strtol(val, &end, 10);
            ok = vlen > 0 && end == val + vlen && d > 0 && d <= 64 && bb_size_supported((int)d);
            if (!ok)
                return fail(err, errlen, "rules token '%s': board size must be %s", token,
                            HNEFI_WIDE ? "odd, from 7 to 19" : "7, 9 or 11");
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
        } else if (strcmp(key, "cenre") == 0) {
            ok = otn_kinds(val, vlen, &cen_reenter);
            have_cenre = true;
        } else if (strcmp(key, "corp") == 0 || strcmp(key, "cors") == 0 ||
                   strcmp(key, "corre") == 0) {
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
            ok = vlen == 1 && strchr("ncm", val[0]);
            if (ok)
                r.berserk = val[0] == 'c'   ? BERSERK_CAPTURE
                            : val[0] == 'm' ? BERSERK_MOVE
                                            : BERSERK_NONE;
        } else if (strcmp(key, "spd") == 0) {
            const char *why = "";
            if (!otn_speeds(val, vlen, &r.king_speed, &why))
                return fail(err, errlen, "rules token '%s': %s", token, why);
        } else if (strcmp(key, "afor") == 0) {
            if (!r.size) return fail(err, errlen, "rules token '%s': needs dim first%s", token, "");
            ok = otn_squares(val, vlen, r.size, &r.forts);
        } else if (strcmp(key, "aforp") == 0) {
            ok = otn_kinds(val, vlen, &afor_pass);
        } else if (strcmp(key, "afors") == 0) {
            ok = otn_kinds(val, vlen, &afor_stop);
        } else if (strcmp(key, "aforh") == 0) {
            ok = otn_kinds(val, vlen, &afor_hostile);
        } else if (strcmp(key, "aforre") == 0) {
            ok = otn_kinds(val, vlen, &afor_reenter);
            have_aforre = true;
        } else if (strncmp(key, "dfor", 4) == 0) {
            if (vlen != 0 && strcmp(key, "dfor") == 0)
                return fail(err, errlen,
                            "rules token '%s': unsupported: defender fortress squares%s", token,
                            "");
        } else if (strcmp(key, "kj") == 0 || strcmp(key, "nj") == 0 || strcmp(key, "cj") == 0) {
            ok = vlen == 1 && strchr("njcr", val[0]);
            enum jump_mode mode = !ok             ? JUMP_NONE
                                  : val[0] == 'j' ? JUMP_PLAIN
                                  : val[0] == 'c' ? JUMP_CAPTURE
                                  : val[0] == 'r' ? JUMP_RESTRICTED
                                                  : JUMP_NONE;
            if (key[0] == 'k')
                r.king_jump = mode;
            else if (key[0] == 'n')
                knight_jump = mode;
            else
                commander_jump = mode;
        } else if (strcmp(key, "mj") == 0 || strcmp(key, "gj") == 0) {
            /* jumps of mercenaries and guards: no effect, hnefi has neither piece */
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
            if (!opentafl_record_to_rows(recbuf, r.size, strcmp(key, "starti") == 0, start_rows,
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
        if (bb_is_empty(cor_list))
            r.corners = false;
        else if (!bb_eq(cor_list, phys_corners))
            r.corner_squares = cor_list; /* e.g. Alea Evangelii's four 2x2 blocks */
    }
    if (!r.corners) r.hostile_corner = 0;
    if (have_cen && bb_is_empty(cen_list)) {
        /* no centre square: the middle square is ordinary, passed, held and hostile to nobody */
        r.centre = false;
        r.throne_stop = THRONE_KING;
        r.throne_pass = THRONE_ALL;
        r.hostile_throne_empty = r.hostile_throne_king = 0;
    } else if (have_cen && !bb_eq(cen_list, bb_sq((n / 2) * n + n / 2)))
        return fail(err, errlen,
                    "rules token 'cen': unsupported: a centre other than the middle "
                    "square%s%s",
                    "", "");
    /* a centre nobody re-enters: a piece off it may neither cross it nor stop there */
    if (r.centre && have_cenre && cen_reenter == 0) {
        r.throne_pass = THRONE_NOBODY;
        r.throne_stop = THRONE_NOBODY;
    }
    /* fortress squares as hnefi has them: pieces standing on them cross and hold them, no one
       re-enters (OpenTafl reads aforre only beside cenre), and they are no anvil; OpenTafl judges
       hostility by side, so a K alone in aforh is hostile to no one */
    if (bb_any(r.forts)) {
        unsigned all = KIND_A | KIND_D | KIND_K;
        if (!have_cenre || !have_aforre || afor_reenter != 0)
            return fail(err, errlen,
                        "rules token 'afor': unsupported: fortress squares that pieces may "
                        "re-enter (hnefi's forts need aforre: and cenre:)%s%s",
                        "", "");
        if (afor_pass != all || afor_stop != all)
            return fail(err, errlen,
                        "rules token 'afor': unsupported: fortress squares some pieces may not "
                        "cross or hold (aforp, afors)%s%s",
                        "", "");
        if (afor_hostile & (KIND_A | KIND_D))
            return fail(err, errlen,
                        "rules token 'aforh': unsupported: hostile fortress squares%s%s", "", "");
    }
    /* two variants whose OpenTafl host follows its own rules class, not the string it sends
       (docs/rules.md): Foteviken's empty throne is hostile to everyone, Magpie's throne to no one
     */
    if (r.size == 9 && strcmp(r.name, "Foteviken Tablut") == 0) {
        r.hostile_throne_empty = KIND_A | KIND_D | KIND_K;
        r.hostile_throne_king = 0;
    } else if (r.size == 7 && strcmp(r.name, "Magpie") == 0) {
        r.hostile_throne_empty = r.hostile_throne_king = 0;
    }
    snprintf(start_fen, sizeof start_fen, "%s %c", start_rows, attackers_first ? 'a' : 'd');
    variant_finish(&r);
    char why[160];
    if (!fen_read_start(&r, start_fen, why, sizeof why))
        return fail(err, errlen, "rules token 'start': not a valid start position: %s%s", why, "");
    r.knight_jump = knight_jump;
    r.commander_jump = commander_jump;
    /* the host's rule where the attackers have commanders: only commanders take the king
       (docs/rules.md, Berserk) */
    if (bb_any(r.start.spec & r.start.att)) r.king_capture = KING_CAPTURE_COMMANDER;
    variant_finish(&r);
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

/* Writes the squares of set as OpenTafl lists them ("a1,b2,"); returns the end of the text. */
static char *write_squares(char *o, bb_t set, int size) {
    while (bb_any(set)) {
        char sq[SQ_NAME_MAX];
        sq_name(bb_pop(&set), size, sq);
        o += sprintf(o, "%s,", sq);
    }
    return o;
}

/*
 * Writes v as an OpenTafl rules string, ending with its start position. Options OpenTafl cannot
 * express are written as their nearest OpenTafl equivalent. Returns the length, or -1 if it did
 * not fit.
 */
int opentafl_write_rules(const struct variant *v, char *out, size_t outlen) {
    /* room for everything: corner and fort lists of every square (4 bytes each), the start
       record, the name and the options (each under 64 bytes) */
    char buf[8 * BB_MAX_SQUARES + VARIANT_FEN_MAX + VARIANT_NAME_MAX + 1024], kinds[32],
        name[VARIANT_NAME_MAX];
    char *o = buf;
    snprintf(name, sizeof name, "%s", v->name);
    for (char *c = name; *c; c++)
        if (*c == ' ') *c = '_';
    o += sprintf(o, "dim:%d name:%s", v->size, name);
    if (v->escape == ESCAPE_EDGE) o += sprintf(o, " esc:e");
    if (!v->encirclement) o += sprintf(o, " surf:n");
    o += sprintf(o, " atkf:%c", v->start.side == SIDE_ATTACKERS ? 'y' : 'n');
    static const char tfr[] = {'i', 'd', 'w', 'l', 'w', 'w', 'w'};
    if (v->repetition != REP_DRAW) o += sprintf(o, " tfr:%c", tfr[v->repetition]);
    static const char ka[] = {'y', 'h', 'a', 'n'};
    if (v->king_armed != KING_ARMED_YES) o += sprintf(o, " ka:%c", ka[v->king_armed]);
    static const char jump[] = {'n', 'j', 'c', 'r'};
    if (v->king_jump != JUMP_NONE) o += sprintf(o, " kj:%c", jump[v->king_jump]);
    /* a knight's or commander's jump only where there are some (variant_finish) */
    if (bb_any(v->start.spec & v->start.def) && v->knight_jump != JUMP_CAPTURE)
        o += sprintf(o, " nj:%c", jump[v->knight_jump]);
    if (bb_any(v->start.spec & v->start.att) && v->commander_jump != JUMP_PLAIN)
        o += sprintf(o, " cj:%c", jump[v->commander_jump]);
    if (v->berserk != BERSERK_NONE)
        o += sprintf(o, " ber:%c", v->berserk == BERSERK_CAPTURE ? 'c' : 'm');
    char ks = v->king_capture == KING_CAPTURE_CUSTODIAL     ? 'w'
              : v->king_capture == KING_CAPTURE_THRONE_FOUR ? 'c'
              : v->hostile_edge_king                        ? 'm'
                                                            : 's';
    if (ks != 's') o += sprintf(o, " ks:%c", ks);
    if (!v->corners) o += sprintf(o, " cor:");
    if (v->corners && bb_any(v->corner_squares)) {
        o += sprintf(o, " cor:");
        o = write_squares(o, v->corner_squares, v->size);
    }
    if (!v->centre) o += sprintf(o, " cen:");
    if (v->corners && v->hostile_corner != (KIND_A | KIND_D | KIND_K)) {
        kinds_text(v->hostile_corner, kinds);
        o += sprintf(o, " corh:%s", kinds);
    }
    if (v->centre && v->hostile_throne_king != KIND_A) {
        kinds_text(v->hostile_throne_king, kinds);
        o += sprintf(o, " cenh:%s", kinds);
    }
    if (v->centre && v->hostile_throne_empty != (KIND_A | KIND_D | KIND_K)) {
        kinds_text(v->hostile_throne_empty, kinds);
        o += sprintf(o, " cenhe:%s", kinds);
    }
    if (v->centre && v->throne_pass == THRONE_KING) o += sprintf(o, " cenp:K");
    if (v->centre && v->throne_pass == THRONE_NOBODY) o += sprintf(o, " cenp:");
    if (v->centre && v->throne_stop == THRONE_NOBODY) o += sprintf(o, " cens:");
    if (bb_any(v->forts)) { /* no one re-enters them (aforre is read only beside cenre) */
        o += sprintf(o, " afor:");
        o = write_squares(o, v->forts, v->size);
        o += sprintf(o, " aforh: aforre: cenre:%s",
                     v->centre && v->throne_pass == THRONE_NOBODY && v->throne_stop == THRONE_NOBODY
                         ? ""
                         : "tcnkmgTCNKMG");
    }
    if (v->king_speed) o += sprintf(o, " spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,%d,-1,-1,", v->king_speed);
    if (v->shieldwall) o += sprintf(o, " sw:%c", v->sw_corner ? 's' : 'w');
    if (v->shieldwall && !v->sw_flank_only) o += sprintf(o, " swf:n");
    if (v->exit_fort) o += sprintf(o, " efe:y");
    if (v->linnaean) o += sprintf(o, " linc:y");
    char rec[VARIANT_FEN_MAX], start[FEN_MAX];
    fen_write_start(v, start);
    if (!opentafl_rows_to_record(start, v->size, rec, sizeof rec)) return -1;
    o += sprintf(o, " start:%s", rec);
    size_t len = (size_t)(o - buf);
    if (len + 1 > outlen) return -1;
    memcpy(out, buf, len + 1);
    return (int)len;
}
