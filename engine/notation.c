/* Parsers and writers for squares, FEN and move text. */
#include "engine/notation.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/rules.h"

/* Formats an error message into err (if any) and returns false. */
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
 * Reads a square name ("a1", "k11") at the start of s for a board of the given size. Returns the
 * square and stores the characters used, or returns -1 (not a square) or -2 (off the board).
 */
int sq_parse(const char *s, int size, int *used) {
    if (!(s[0] >= 'a' && s[0] <= 'z') || !isdigit((unsigned char)s[1])) return -1;
    int file = s[0] - 'a', rank = 0, i = 1;
    while (isdigit((unsigned char)s[i]) && i < 4) rank = rank * 10 + (s[i++] - '0');
    if (isdigit((unsigned char)s[i]) || s[1] == '0') return -1;
    *used = i;
    if (file >= size || rank < 1 || rank > size) return -2;
    return (rank - 1) * size + file;
}

/* Writes the name of sq into out (room for SQ_NAME_MAX bytes). */
void sq_name(int sq, int size, char *out) {
    int rank = sq / size + 1, i = 0;
    out[i++] = (char)('a' + sq % size);
    if (rank >= 10) out[i++] = (char)('0' + rank / 10);
    out[i++] = (char)('0' + rank % 10);
    out[i] = 0;
}

/* Reads a FEN into p for variant v (with any_pieces, commanders and knights in any variant: a
   start position brings them); on failure p is unchanged and err says why. */
static bool parse_fen(struct position *p, const struct variant *v, const char *fen, bool any_pieces,
                      char *err, size_t errlen) {
    char q[64];
    int n = v->size;
    struct position r = {0};
    r.v = v;
    const char *s = fen;
    while (*s == ' ') s++;
    int kings = 0, king_sq = -1;
    for (int row = 0; row < n; row++) {
        int rank = n - 1 - row, file = 0;
        const char *row_start = s;
        while (*s && *s != '/' && *s != ' ') {
            char c = *s;
            if (isdigit((unsigned char)c)) {
                int run = 0;
                if (c == '0')
                    return fail(err, errlen,
                                "FEN row %d: run of empty squares starts "
                                "with 0",
                                row + 1);
                while (isdigit((unsigned char)*s) && run <= n) run = run * 10 + (*s++ - '0');
                if (file + run > n) {
                    size_t len = strcspn(row_start, "/ ");
                    return fail(err, errlen, "FEN row %d '%s': more than %d squares", row + 1,
                                quote(row_start, len, q, sizeof q), n);
                }
                file += run;
                continue;
            }
            if (c != 'a' && c != 'd' && c != 'k' && c != 'c' && c != 'n')
                return fail(err, errlen,
                            "FEN row %d: unknown letter '%s' (expected a, d, k, c, n or a "
                            "digit)",
                            row + 1, quote(s, 1, q, sizeof q));
            if ((c == 'c' || c == 'n') && !v->special_pieces && !any_pieces)
                return fail(err, errlen,
                            "FEN row %d: a %s ('%c') in %s, a variant without commanders and "
                            "knights",
                            row + 1, c == 'c' ? "commander" : "knight", c, v->name);
            if (file >= n) {
                size_t len = strcspn(row_start, "/ ");
                return fail(err, errlen, "FEN row %d '%s': more than %d squares", row + 1,
                            quote(row_start, len, q, sizeof q), n);
            }
            int sq = rank * n + file;
            char name[SQ_NAME_MAX];
            sq_name(sq, n, name);
            if (c == 'k') {
                if (kings++) {
                    char other[SQ_NAME_MAX];
                    sq_name(king_sq, n, other);
                    return fail(err, errlen, "FEN: two kings (%s and %s)", other, name);
                }
                king_sq = sq;
                r.king = bb_sq(sq);
            } else {
                if (bb_has(v->men_forbidden & ~v->forts, sq))
                    return fail(err, errlen, "FEN: %s on %s, a square only the king may hold",
                                c == 'a' || c == 'c' ? "attacker" : "defender", name);
                if (c == 'a' || c == 'c')
                    r.att |= bb_sq(sq);
                else
                    r.def |= bb_sq(sq);
                if (c == 'c' || c == 'n') r.spec |= bb_sq(sq);
            }
            file++;
            s++;
        }
        if (file != n) {
            size_t len = strcspn(row_start, "/ ");
            return fail(err, errlen, "FEN row %d '%s': %d squares, expected %d", row + 1,
                        quote(row_start, len, q, sizeof q), file, n);
        }
        if (row < n - 1) {
            if (*s != '/') return fail(err, errlen, "FEN: %d rows, expected %d", row + 1, n);
            s++;
        }
    }
    if (*s == '/') return fail(err, errlen, "FEN: more than %d rows", n);
    if (*s != ' ') return fail(err, errlen, "FEN: missing side to move (a or d) after the rows");
    while (*s == ' ') s++;
    if (!*s) return fail(err, errlen, "FEN: missing side to move (a or d) after the rows");
    if ((*s != 'a' && *s != 'd') || (s[1] && s[1] != ' ' && s[1] != '\n' && s[1] != '\r'))
        return fail(err, errlen, "FEN: side to move '%s': expected a or d",
                    quote(s, strcspn(s, " \r\n"), q, sizeof q));
    r.side = *s == 'a' ? SIDE_ATTACKERS : SIDE_DEFENDERS;
    s++;
    r.berserk = 0;
    while (*s == ' ') s++;
    if (*s && *s != '\r' && *s != '\n' && v->berserk != BERSERK_NONE) {
        /* a berserk turn going on: the square of the piece that moves again */
        int used = 0, sq = sq_parse(s, n, &used);
        if (sq < 0 || (s[used] && !strchr(" \r\n", s[used])))
            return fail(err, errlen, "FEN: berserker '%s': expected a square like e5",
                        quote(s, strcspn(s, " \r\n"), q, sizeof q));
        if (!bb_has(r.side == SIDE_ATTACKERS ? r.att : r.def | r.king, sq)) {
            char name[SQ_NAME_MAX];
            sq_name(sq, n, name);
            return fail(err, errlen, "FEN: berserker %s: no piece of the side to move there", name);
        }
        pos_set_berserker(&r, sq);
        s += used;
    }
    while (*s == ' ' || *s == '\r' || *s == '\n') s++;
    if (*s)
        return fail(err, errlen, "FEN: unexpected text '%s' after the side to move",
                    quote(s, 20, q, sizeof q));
    if (!kings) return fail(err, errlen, "FEN: no king");
    r.king_sq = (bb_square_t)king_sq;
    r.key = pos_compute_key(&r);
    rules_decide_loaded(&r);
    *p = r;
    return true;
}

/* Reads a FEN into p for variant v; on failure p is unchanged and err says why. */
bool fen_parse(struct position *p, const struct variant *v, const char *fen, char *err,
               size_t errlen) {
    return parse_fen(p, v, fen, false, err, errlen);
}

/* Writes p as a FEN; returns its length. out needs FEN_MAX bytes. */
int fen_write(const struct position *p, char *out) {
    int n = p->v->size;
    char *o = out;
    for (int rank = n - 1; rank >= 0; rank--) {
        int run = 0;
        for (int file = 0; file < n; file++) {
            enum piece pc = pos_piece_at(p, rank * n + file);
            if (pc == PIECE_NONE) {
                run++;
                continue;
            }
            if (run) o += sprintf(o, "%d", run);
            run = 0;
            bool special = bb_has(p->spec, rank * n + file);
            *o++ = pc == PIECE_ATTACKER   ? (special ? 'c' : 'a')
                   : pc == PIECE_DEFENDER ? (special ? 'n' : 'd')
                                          : 'k';
        }
        if (run) o += sprintf(o, "%d", run);
        if (rank) *o++ = '/';
    }
    o += sprintf(o, " %c", p->side == SIDE_ATTACKERS ? 'a' : 'd');
    if (pos_berserker(p) >= 0) {
        char name[SQ_NAME_MAX];
        sq_name(pos_berserker(p), n, name);
        o += sprintf(o, " %s", name);
    }
    return (int)(o - out);
}

/* Writes the start position of v as a FEN; returns its length. out needs FEN_MAX bytes. */
int fen_write_start(const struct variant *v, char *out) {
    struct position p;
    pos_init_start(&p, v);
    return fen_write(&p, out);
}

/*
 * Reads a FEN as the start position of v (its size and masks set, variant_finish done). A start
 * must be a game still going; on failure v is unchanged and err says why.
 */
bool fen_read_start(struct variant *v, const char *fen, char *err, size_t errlen) {
    struct position p;
    if (!parse_fen(&p, v, fen, true, err, errlen)) return false;
    if (p.result != RESULT_NONE)
        return fail(err, errlen, "FEN: a start position must not be a finished game");
    if (pos_berserker(&p) >= 0)
        return fail(err, errlen, "FEN: a start position must not be in a berserk turn");
    v->start.att = p.att;
    v->start.def = p.def;
    v->start.spec = p.spec;
    v->start.king_sq = p.king_sq;
    v->start.side = (enum side)p.side;
    variant_finish(v); /* special_pieces follows the start */
    return true;
}

/* Reads move text without looking at a position; err names the bad token. */
bool move_text_parse(const char *text, int size, struct move_text *mt, char *err, size_t errlen) {
    char q[64], name[40];
    const char *s = text;
    struct move_text r = {0};
    int used = 0;
    for (int k = 0; k < 2; k++) {
        int sq = sq_parse(s, size, &used);
        if (sq == -1 && !*text) return fail(err, errlen, "empty move: expected a move like d1d3");
        if (sq == -1 && k == 0)
            return fail(err, errlen, "move '%s': does not start with a square like d1",
                        quote(text, 24, q, sizeof q));
        if (sq == -1 && !*s)
            return fail(err, errlen, "move '%s': a second square (like d3) must follow",
                        quote(text, 24, q, sizeof q));
        if (sq == -1)
            return fail(err, errlen, "move '%s': expected a square like d3 at '%s'",
                        quote(text, 24, q, sizeof q), quote(s, 8, name, sizeof name));
        if (sq == -2)
            return fail(err, errlen, "move '%s': square %.*s is off the %dx%d board",
                        quote(text, 24, q, sizeof q), used ? used : 3, s, size, size);
        if (k == 0)
            r.from = sq;
        else
            r.to = sq;
        s += used;
        if (k == 0 && *s == '-') s++;
    }
    while (*s == 'x' || (*s == '/' && r.has_captures)) {
        s++;
        int sq = sq_parse(s, size, &used);
        if (sq < 0)
            return fail(err, errlen, "move '%s': bad captured square at '%s'",
                        quote(text, 24, q, sizeof q), quote(s, 8, name, sizeof name));
        r.captures |= bb_sq(sq);
        r.has_captures = true;
        s += used;
    }
    if (*s)
        return fail(err, errlen, "move '%s': unexpected '%s' at the end",
                    quote(text, 24, q, sizeof q), quote(s, 8, name, sizeof name));
    *mt = r;
    return true;
}

/* Checks a slide from mt's square in direction dir (-1: none) square by square; false with the
   reason (blocked, a throne or fortress square, a forbidden square, the king's speed) in err. */
static bool slide_checks(const struct position *p, const struct move_text *mt, int dir,
                         const char *q, const char *a, const char *b, char *err, size_t errlen) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int n = v->size;
    if (dir < 0)
        return fail(err, errlen, "move '%s': %s to %s is not along a rank or file", q, a, b);
    bool king = pos_piece_at(p, mt->from) == PIECE_KING;
    bb_t occ = pos_occupied(p), block = king ? v->king_block : v->men_block;
    bb_t forbidden = king ? v->king_forbidden : v->men_forbidden;
    bool on_fort = bb_has(v->forts, mt->from); /* fortress squares are open to a piece on one */
    if (on_fort) {
        block &= ~v->forts;
        forbidden &= ~v->forts;
    }
    for (int s = g->nb[mt->from][dir];; s = g->nb[s][dir]) {
        char c[SQ_NAME_MAX];
        sq_name(s, n, c);
        if (bb_has(occ, s)) {
            if (s == mt->to) return fail(err, errlen, "move '%s': %s is occupied", q, c);
            return fail(err, errlen, "move '%s': blocked at %s", q, c);
        }
        if (s == mt->to) break;
        if (bb_has(block, s) && bb_has(v->forts, s))
            return fail(err, errlen,
                        "move '%s': %s may not pass the fortress square %s (only a piece "
                        "standing on one may)",
                        q, king ? "the king" : "a man", c);
        if (bb_has(block, s))
            return fail(err, errlen, "move '%s': %s may not pass the throne %s", q,
                        king ? "the king" : "a man", c);
    }
    if (bb_has(forbidden, mt->to)) {
        if (mt->to == v->throne_sq)
            return fail(err, errlen, "move '%s': %s may stop on the throne %s", q,
                        v->throne_stop == THRONE_NOBODY ? "nobody" : "only the king", b);
        if (bb_has(v->forts, mt->to))
            return fail(err, errlen,
                        "move '%s': %s may not stop on the fortress square %s (only a piece "
                        "standing on one may)",
                        q, king ? "the king" : "a man", b);
        return fail(err, errlen, "move '%s': only the king may stop on the corner %s", q, b);
    }
    if (king && v->king_speed && !bb_has(v->king_near[mt->from], mt->to))
        return fail(err, errlen, "move '%s': the king moves at most %d square%s at a time", q,
                    v->king_speed, v->king_speed == 1 ? "" : "s");
    return true;
}

/*
 * Reads move text and checks it against p: the move must be legal, and listed captures must be
 * what the move captures.
 */
bool move_parse_legal(const struct position *p, const char *text, move_t *m, char *err,
                      size_t errlen) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int n = v->size;
    struct move_text mt;
    char q[64], a[SQ_NAME_MAX], b[SQ_NAME_MAX];
    if (!move_text_parse(text, n, &mt, err, errlen)) return false;
    quote(text, 24, q, sizeof q);
    sq_name(mt.from, n, a);
    sq_name(mt.to, n, b);
    if (p->result != RESULT_NONE) return fail(err, errlen, "move '%s': the game is over", q);
    if (mt.from == mt.to) return fail(err, errlen, "move '%s': from and to are the same square", q);
    enum piece pc = pos_piece_at(p, mt.from);
    if (pc == PIECE_NONE) return fail(err, errlen, "move '%s': no piece on %s", q, a);
    bool own = p->side == SIDE_ATTACKERS ? pc == PIECE_ATTACKER : pc != PIECE_ATTACKER;
    if (!own)
        return fail(err, errlen, "move '%s': %s holds %s, but the %s are to move", q, a,
                    pc == PIECE_ATTACKER ? "an attacker"
                    : pc == PIECE_KING   ? "the king"
                                         : "a defender",
                    p->side == SIDE_ATTACKERS ? "attackers" : "defenders");
    if (pos_berserker(p) >= 0 && mt.from != pos_berserker(p)) {
        char c[SQ_NAME_MAX];
        sq_name(pos_berserker(p), n, c);
        return fail(err, errlen, "move '%s': a berserk turn: only the piece on %s may move", q, c);
    }
    /* jumps (Berserk): legal moves that are no slide */
    bool jump = v->special_pieces && movegen_is_legal(p, move_make(mt.from, mt.to));
    int dir = -1;
    for (int d = 0; d < DIR_NB && !jump; d++) {
        for (int s = g->nb[mt.from][d]; s >= 0; s = g->nb[s][d])
            if (s == mt.to) dir = d;
    }
    if (!jump && !slide_checks(p, &mt, dir, q, a, b, err, errlen)) return false;
    move_t mv = move_make(mt.from, mt.to);
    if (mt.has_captures) {
        struct position after;
        bb_t caught = make_move(&after, p, mv);
        if (!bb_eq(caught, mt.captures)) {
            char listed[MOVE_TEXT_MAX];
            move_write_captures(mv, caught, n, listed);
            return fail(err, errlen, "move '%s': the captures listed are wrong; the move is %s", q,
                        listed);
        }
    }
    *m = mv;
    return true;
}

/* Writes m as `d1d3`; returns the length. */
int move_write(move_t m, int size, char *out) {
    char a[SQ_NAME_MAX], b[SQ_NAME_MAX];
    sq_name(move_from(m), size, a);
    sq_name(move_to(m), size, b);
    return sprintf(out, "%s%s", a, b);
}

/* Writes m with its captures as `d1-d3xd4xe3`; returns the length. */
int move_write_captures(move_t m, bb_t captures, int size, char *out) {
    char a[SQ_NAME_MAX], b[SQ_NAME_MAX];
    sq_name(move_from(m), size, a);
    sq_name(move_to(m), size, b);
    int len = sprintf(out, "%s-%s", a, b);
    while (bb_any(captures)) {
        sq_name(bb_pop(&captures), size, a);
        len += sprintf(out + len, "x%s", a);
    }
    return len;
}
