/* The book file (reading, writing), rules checks, and probing in play. */
#include "book/book.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/zio.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/symmetry.h"
#include "engine/variant_text.h"

enum { HEADER_MAX = 1 << 16 };

/* Reads a little-endian value of n bytes. */
static uint64_t get_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Writes a little-endian value of n bytes. */
static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes the exact rules of v as the book stores them ("size", "start", every option). */
bool book_rules_text(const struct variant *v, char *out, size_t outlen) {
    char all[BOOK_RULES_MAX + VARIANT_NAME_MAX + 16];
    struct variant same = *v;
    if (!same.shieldwall) same.sw_corner = same.sw_flank_only = false; /* they say nothing then */
    if (variant_describe(&same, all, sizeof all) < 0) return false;
    const char *rest = strchr(all, '\n'); /* the first line is the name: not a rule */
    if (!rest || strlen(rest + 1) >= outlen) return false;
    memcpy(out, rest + 1, strlen(rest + 1) + 1);
    return true;
}

/* Copies the line of text that starts with key and a space into out ("" if there is none). */
static void rule_line(const char *text, const char *key, char *out, size_t outlen) {
    size_t klen = strlen(key);
    out[0] = '\0';
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (strncmp(l, key, klen) == 0 && l[klen] == ' ') {
            snprintf(out, outlen, "%.*s", (int)strcspn(l + klen + 1, "\n"), l + klen + 1);
            return;
        }
    }
}

/* Tells whether the book was made under the rules of v; if not, why names the first difference. */
bool book_fits(const struct book *b, const struct variant *v, char *why, size_t whylen) {
    char now[BOOK_RULES_MAX];
    if (!book_rules_text(v, now, sizeof now)) {
        snprintf(why, whylen, "the rules in play cannot be written down");
        return false;
    }
    if (strcmp(now, b->rules) == 0) return true;
    /* name the first line that differs, by its key */
    for (const char *l = now; *l;) {
        size_t n = strcspn(l, "\n");
        char key[40], mine[VARIANT_FEN_MAX], theirs[VARIANT_FEN_MAX];
        size_t k = strcspn(l, " \n");
        snprintf(key, sizeof key, "%.*s", (int)(k < 39 ? k : 39), l);
        rule_line(now, key, mine, sizeof mine);
        rule_line(b->rules, key, theirs, sizeof theirs);
        if (strcmp(mine, theirs) != 0) {
            snprintf(why, whylen, "the book is for %s with %s %s, the rules in play have %s %s",
                     b->name, key, theirs[0] ? theirs : "(not named)", key, mine);
            return false;
        }
        l += n + (l[n] == '\n');
    }
    snprintf(why, whylen, "the book is for %s, whose rules name an option unknown here", b->name);
    return false;
}

/* Rebuilds the variant a book's rules text describes and rewrites the text in the form hnefi
 * writes now (an option the book does not name keeps its default, the rule of the older hnefi
 * that wrote it); false with a reason in err. */
static bool rules_variant(const char *name, char *rules, struct variant *v, char *err,
                          size_t errlen) {
    char size[8], start[VARIANT_FEN_MAX + 8], why[160];
    *v = *variant_by_name("copenhagen");
    snprintf(v->name, sizeof v->name, "%s", name);
    rule_line(rules, "size", size, sizeof size);
    rule_line(rules, "start", start, sizeof start);
    v->size = atoi(size);
    if (!bb_size_supported(v->size) || strlen(start) >= VARIANT_FEN_MAX) {
        snprintf(err, errlen, "its rules name no board size or start position hnefi can play");
        return false;
    }
    for (const char *l = rules; *l;) {
        size_t n = strcspn(l, "\n"), k = strcspn(l, " \n");
        char key[40], value[VARIANT_FEN_MAX + 8];
        snprintf(key, sizeof key, "%.*s", (int)(k < 39 ? k : 39), l);
        snprintf(value, sizeof value, "%.*s", (int)(n > k ? n - k - 1 : 0), l + k + 1);
        if (strcmp(key, "size") != 0 && strcmp(key, "start") != 0 &&
            !variant_set_option(v, key, value, why, sizeof why)) {
            snprintf(err, errlen, "its rules: %s", why);
            return false;
        }
        l += n + (l[n] == '\n');
    }
    variant_finish(v);
    if (!fen_read_start(v, start, why, sizeof why)) {
        snprintf(err, errlen, "its start position: %s", why);
        return false;
    }
    char again[BOOK_RULES_MAX];
    if (!book_rules_text(v, again, sizeof again)) {
        snprintf(err, errlen, "its rules cannot be written down again");
        return false;
    }
    /* only the options added after books existed may be missing (their defaults are the rules
       before them); any other must be named */
    static const char *const newer[] = {"centre",         "corner_squares", "forts",
                                        "king_speed",     "king_jump",      "knight_jump",
                                        "commander_jump", "berserk"};
    for (const char *l = again; *l;) {
        size_t n = strcspn(l, "\n"), k = strcspn(l, " \n");
        char key[40], have[VARIANT_FEN_MAX + 8];
        snprintf(key, sizeof key, "%.*s", (int)(k < 39 ? k : 39), l);
        rule_line(rules, key, have, sizeof have);
        bool optional = false;
        for (size_t i = 0; i < sizeof newer / sizeof newer[0]; i++)
            optional |= strcmp(key, newer[i]) == 0;
        if (!have[0] && !optional) {
            snprintf(err, errlen, "its rules do not name %s", key);
            return false;
        }
        l += n + (l[n] == '\n');
    }
    memcpy(rules, again, strlen(again) + 1); /* both are BOOK_RULES_MAX long */
    return true;
}

/* Appends a length-prefixed string at out + *at. */
static void put_string(uint8_t *out, size_t *at, const char *s) {
    size_t n = strlen(s);
    put_le(out + *at, n, 2);
    memcpy(out + *at + 2, s, n);
    *at += 2 + n;
}

/* Encodes the positions and moves (the body); NULL if out of memory. */
static uint8_t *encode_body(const struct book *b, size_t *len) {
    int cb = book_code_bytes(b->size);
    size_t mb = BOOK_MOVE_BYTES + (size_t)cb;
    size_t n = b->npos * BOOK_POS_BYTES + b->nmoves * mb;
    uint8_t *out = malloc(n ? n : 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < b->npos; i++, o += BOOK_POS_BYTES) {
        put_le(o, b->pos[i].key, 8);
        put_le(o + 8, b->pos[i].count, 2);
        put_le(o + 10, b->pos[i].flags, 2);
    }
    for (size_t i = 0; i < b->nmoves; i++, o += mb) {
        const struct book_move *m = &b->moves[i];
        put_le(o, book_move_pack(b->size, m->move), cb);
        uint8_t *f = o + cb; /* the fields after the move code */
        put_le(f, m->weight, 2);
        put_le(f + 2, m->games, 4);
        put_le(f + 6, m->attacker_wins, 4);
        put_le(f + 10, m->defender_wins, 4);
        put_le(f + 14, m->draws, 4);
        put_le(f + 18, (uint16_t)m->score, 2);
        f[20] = m->depth;
        f[21] = m->flags;
    }
    *len = n;
    return out;
}

/* Encodes a book as the bytes of its file; NULL with a reason in err. */
uint8_t *book_encode(const struct book *b, int level, size_t *len, char *err, size_t errlen) {
    size_t blen, hlen = 0, f1len, f2len;
    uint8_t *body = encode_body(b, &blen),
            header[BOOK_HEADER_FIXED + 8 + VARIANT_NAME_MAX + BOOK_RULES_MAX + BOOK_OPENTAFL_MAX];
    if (!body) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memset(header, 0, BOOK_HEADER_FIXED);
    memcpy(header, BOOK_MAGIC, 8);
    put_le(header + 8, (uint64_t)book_version_of(b->size), 4);
    put_le(header + 16, (uint64_t)b->size, 4);
    put_le(header + 20, b->syms, 4);
    put_le(header + 24, b->npos, 8);
    put_le(header + 32, b->nmoves, 8);
    put_le(header + 40, book_fnv(BOOK_FNV_BASIS, body, blen), 8);
    put_le(header + 48, b->games, 8);
    put_le(header + 56, b->run, 8);
    hlen = BOOK_HEADER_FIXED;
    put_string(header, &hlen, b->name);
    put_string(header, &hlen, b->rules);
    put_string(header, &hlen, b->opentafl);
    put_le(header + 12, hlen + 8, 4);
    put_le(header + hlen, book_fnv(BOOK_FNV_BASIS, header, hlen), 8);
    hlen += 8;
    uint8_t *f1 = zio_compress(header, hlen, 19, &f1len, err, errlen);
    uint8_t *f2 = f1 ? zio_compress(body, blen, level, &f2len, err, errlen) : NULL;
    uint8_t *out = f2 ? malloc(f1len + f2len) : NULL;
    if (f2 && !out) snprintf(err, errlen, "out of memory");
    if (out) {
        memcpy(out, f1, f1len);
        memcpy(out + f1len, f2, f2len);
        *len = f1len + f2len;
    }
    free(body);
    free(f1);
    free(f2);
    return out;
}

/* Writes a book to path through a temporary file renamed over it. */
bool book_save(const struct book *b, const char *path, int level, char *err, size_t errlen) {
    size_t len;
    char why[300], tmp[4200];
    uint8_t *data = book_encode(b, level, &len, why, sizeof why);
    if (!data) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool ok = fd >= 0 && zio_write_all(fd, data, len, why, sizeof why);
    if (fd < 0) snprintf(why, sizeof why, "%s", strerror(errno));
    if (ok && fsync(fd) != 0) {
        snprintf(why, sizeof why, "sync failed: %s", strerror(errno));
        ok = false;
    }
    if (fd >= 0 && close(fd) != 0 && ok) {
        snprintf(why, sizeof why, "%s", strerror(errno));
        ok = false;
    }
    if (ok && rename(tmp, path) != 0) {
        snprintf(why, sizeof why, "cannot rename the new file over it: %s", strerror(errno));
        ok = false;
    }
    if (!ok) {
        if (fd >= 0) unlink(tmp);
        snprintf(err, errlen, "cannot write %s: %s", path, why);
    } else {
        /* the rename itself must reach the disk before anything that relies on it */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    free(data);
    return ok;
}

/* Reads a length-prefixed string of the header into out; false if it does not fit. */
static bool get_string(const uint8_t *h, size_t hlen, size_t *at, char *out, size_t outlen) {
    if (*at + 2 > hlen) return false;
    size_t n = (size_t)get_le(h + *at, 2);
    if (*at + 2 + n > hlen || n >= outlen || memchr(h + *at + 2, 0, n)) return false;
    memcpy(out, h + *at + 2, n);
    out[n] = '\0';
    *at += 2 + n;
    return true;
}

/* Fails a parse with a formatted reason. */
__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t errlen, const char *fmt,
                                                       ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* Reads the header frame's bytes into b (strings and counts); false with a reason. */
static bool parse_header(struct book *b, const uint8_t *h, size_t hlen, char *err, size_t errlen) {
    if (hlen < 8 || memcmp(h, BOOK_MAGIC, 8) != 0)
        return fail(err, errlen, "not a hnefi book (no %s magic)", BOOK_MAGIC);
    if (hlen < BOOK_HEADER_FIXED + 14)
        return fail(err, errlen, "damaged: a header of %zu bytes is too short", hlen);
    uint32_t version = (uint32_t)get_le(h + 8, 4);
    if (version != 1 && version != 2)
        return fail(err, errlen, "book format version %u; this hnefi reads versions 1 and 2",
                    version);
    if (get_le(h + 12, 4) != hlen)
        return fail(err, errlen, "damaged: the header says %u bytes, it has %zu",
                    (unsigned)get_le(h + 12, 4), hlen);
    if (get_le(h + hlen - 8, 8) != book_fnv(BOOK_FNV_BASIS, h, hlen - 8))
        return fail(err, errlen, "damaged: the header's checksum does not match");
    b->size = (int)get_le(h + 16, 4);
    b->syms = (unsigned)get_le(h + 20, 4);
    uint64_t npos = get_le(h + 24, 8), nmoves = get_le(h + 32, 8);
    b->body_hash = get_le(h + 40, 8);
    b->games = get_le(h + 48, 8);
    b->run = get_le(h + 56, 8);
    size_t at = BOOK_HEADER_FIXED;
    if (!get_string(h, hlen - 8, &at, b->name, sizeof b->name) ||
        !get_string(h, hlen - 8, &at, b->rules, sizeof b->rules) ||
        !get_string(h, hlen - 8, &at, b->opentafl, sizeof b->opentafl) || at != hlen - 8)
        return fail(err, errlen, "damaged: the header's names do not fit it");
    if (b->size < 7 || b->size > 19 || b->size % 2 == 0)
        return fail(err, errlen, "damaged: board size %d", b->size);
    if ((int)version != book_version_of(b->size))
        return fail(err, errlen, "damaged: format version %u on a %dx%d board", version, b->size,
                    b->size);
    if (!bb_size_supported(b->size))
        return fail(err, errlen,
                    "the book is for a %dx%d board; boards beyond %dx%d are played by the wide "
                    "build (name the book's variant, e.g. --variant, to use it there)",
                    b->size, b->size, BB_MAX_SIZE, BB_MAX_SIZE);
    if (!(b->syms & 1) || b->syms > SYM_ALL)
        return fail(err, errlen, "damaged: symmetry set 0x%x", b->syms);
    if (npos == 0) return fail(err, errlen, "the book holds no positions");
    if (npos > UINT32_MAX || nmoves > UINT32_MAX || nmoves < npos)
        return fail(err, errlen, "damaged: %llu positions with %llu moves",
                    (unsigned long long)npos, (unsigned long long)nmoves);
    b->npos = (size_t)npos;
    b->nmoves = (size_t)nmoves;
    char why[200];
    if (!rules_variant(b->name, b->rules, &b->variant, why, sizeof why))
        return fail(err, errlen, "the book's rules cannot be played: %s", why);
    if (b->variant.size != b->size)
        return fail(err, errlen, "damaged: board size %d, its rules say %d", b->size,
                    b->variant.size);
    if (b->syms != sym_variant_allows(&b->variant))
        return fail(err, errlen, "damaged: symmetry set 0x%x, its rules allow 0x%x", b->syms,
                    sym_variant_allows(&b->variant));
    return true;
}

/* Reads the body (positions and moves) into b's new arrays; false with a reason. */
static bool parse_body(struct book *b, const uint8_t *d, size_t len, char *err, size_t errlen) {
    if (book_fnv(BOOK_FNV_BASIS, d, len) != b->body_hash)
        return fail(err, errlen, "damaged: the positions' checksum does not match the header");
    b->pos = malloc(b->npos * sizeof *b->pos);
    b->moves = malloc(b->nmoves * sizeof *b->moves);
    if (!b->pos || !b->moves) return fail(err, errlen, "out of memory");
    size_t first = 0;
    int sq = b->size * b->size;
    for (size_t i = 0; i < b->npos; i++, d += BOOK_POS_BYTES) {
        struct book_pos *p = &b->pos[i];
        p->key = get_le(d, 8);
        p->count = (uint16_t)get_le(d + 8, 2);
        p->flags = (uint16_t)get_le(d + 10, 2);
        p->first = (uint32_t)first;
        if (i > 0 && p->key <= b->pos[i - 1].key)
            return fail(err, errlen, "damaged: position %zu is out of key order", i);
        if (p->count == 0 || p->count > MAX_MOVES || first + p->count > b->nmoves ||
            (p->flags & ~(BOOK_POS_SEARCHED | BOOK_POS_DEFENDERS)))
            return fail(err, errlen, "damaged: position %zu (%u moves, flags 0x%x)", i, p->count,
                        p->flags);
        first += p->count;
    }
    if (first != b->nmoves)
        return fail(err, errlen, "damaged: the positions have %zu moves, the header says %zu",
                    first, b->nmoves);
    int cb = book_code_bytes(b->size), bits = book_square_bits(b->size);
    for (size_t i = 0; i < b->npos; i++) {
        for (size_t j = b->pos[i].first; j < b->pos[i].first + b->pos[i].count;
             j++, d += BOOK_MOVE_BYTES + (size_t)cb) {
            struct book_move *m = &b->moves[j];
            uint32_t raw = (uint32_t)get_le(d, cb);
            const uint8_t *f = d + cb; /* the fields after the move code */
            m->move = book_move_unpack(b->size, raw);
            m->weight = (uint16_t)get_le(f, 2);
            m->games = (uint32_t)get_le(f + 2, 4);
            m->attacker_wins = (uint32_t)get_le(f + 6, 4);
            m->defender_wins = (uint32_t)get_le(f + 10, 4);
            m->draws = (uint32_t)get_le(f + 14, 4);
            m->score = (int16_t)(uint16_t)get_le(f + 18, 2);
            m->depth = f[20];
            m->flags = f[21];
            int from = (int)(raw & ((1u << bits) - 1)), to = (int)(raw >> bits);
            bool line = from / b->size == to / b->size || from % b->size == to % b->size;
            bool ok = from < sq && to < sq && from != to && line &&
                      (uint64_t)m->attacker_wins + m->defender_wins + m->draws <= m->games &&
                      !(m->flags & ~BOOK_MOVE_BACKED) && (m->depth || (!m->score && !m->flags)) &&
                      m->score >= -BOOK_SCORE_FORCED && m->score <= BOOK_SCORE_FORCED &&
                      (j == b->pos[i].first || m->move > b->moves[j - 1].move);
            if (!ok)
                return fail(err, errlen, "damaged: move %zu of position %zu (key %016llx)",
                            j - b->pos[i].first, i, (unsigned long long)b->pos[i].key);
        }
    }
    return true;
}

/* Reads a book from the bytes of a file; false with the reason in err, b unchanged. */
bool book_parse(struct book *b, const uint8_t *data, size_t len, size_t max_body, char *err,
                size_t errlen) {
    if (len == 0) return fail(err, errlen, "empty file");
    static const uint8_t zstd_start[4] = {0x28, 0xb5, 0x2f, 0xfd};
    if (len < 4 && memcmp(data, zstd_start, len) == 0)
        return fail(err, errlen, "truncated: %zu bytes", len);
    if (!zio_is_zstd(data, len))
        return fail(err, errlen, "not a hnefi book (not zstd data%s)",
                    len >= 8 && memcmp(data, BOOK_MAGIC, 8) == 0 ? ": decompressed?" : "");
    struct book *nb = calloc(1, sizeof *nb);
    char *h = NULL, *body = NULL, why[300];
    size_t at = 0, hlen = 0, blen = 0;
    bool ok = false;
    enum zio_frame st;
    if (!nb) return fail(err, errlen, "out of memory");
    st = zio_next_frame_max(data, len, &at, HEADER_MAX, &h, &hlen, why, sizeof why);
    if (st != ZIO_FRAME_OK) {
        fail(err, errlen, "%s: %s", st == ZIO_FRAME_TRUNCATED ? "truncated" : "damaged", why);
        goto done;
    }
    if (!parse_header(nb, (const uint8_t *)h, hlen, err, errlen)) goto done;
    uint64_t want = (uint64_t)nb->npos * BOOK_POS_BYTES +
                    (uint64_t)nb->nmoves * (BOOK_MOVE_BYTES + (uint64_t)book_code_bytes(nb->size));
    if (want > max_body || want > BOOK_MAX_BODY) {
        fail(err, errlen, "%zu positions and %zu moves: more than this reader takes", nb->npos,
             nb->nmoves);
        goto done;
    }
    st = zio_next_frame_max(data, len, &at, (size_t)want, &body, &blen, why, sizeof why);
    if (st == ZIO_FRAME_END) {
        fail(err, errlen, "truncated: the header is whole, the positions are missing");
        goto done;
    }
    if (st != ZIO_FRAME_OK) {
        fail(err, errlen, "%s: %s", st == ZIO_FRAME_TRUNCATED ? "truncated" : "damaged", why);
        goto done;
    }
    if (blen != want) {
        fail(err, errlen, "damaged: %zu bytes of positions and moves, the header asks for %llu",
             blen, (unsigned long long)want);
        goto done;
    }
    if (at != len) {
        fail(err, errlen, "damaged: %zu bytes after the book", len - at);
        goto done;
    }
    if (!parse_body(nb, (const uint8_t *)body, blen, err, errlen)) goto done;
    ok = true;
done:
    free(h);
    free(body);
    if (ok) {
        book_free(b);
        *b = *nb;
    } else {
        free(nb->pos);
        free(nb->moves);
    }
    free(nb);
    return ok;
}

/* Reads a book file; false with "<path>: <reason>" in err, b unchanged. */
bool book_load(struct book *b, const char *path, char *err, size_t errlen) {
    size_t len;
    char why[400];
    char *data = zio_read_file(path, &len, why, sizeof why);
    if (!data) return fail(err, errlen, "%s", why);
    bool ok = book_parse(b, (const uint8_t *)data, len, BOOK_MAX_BODY, why, sizeof why);
    if (!ok) fail(err, errlen, "%s: %s", path, why);
    free(data);
    return ok;
}

/* Returns the board size a book file's header names, or 0 if the file is not a readable book. */
int book_file_board(const char *path) {
    enum { HEAD = 1 << 16 }; /* the header's frame comes first and is far shorter */
    uint8_t *data = malloc(HEAD);
    FILE *f = data ? fopen(path, "rb") : NULL;
    int size = 0;
    if (f) {
        size_t len = fread(data, 1, HEAD, f), at = 0, hlen;
        char *h = NULL, why[200];
        fclose(f);
        if (zio_next_frame_max(data, len, &at, HEADER_MAX, &h, &hlen, why, sizeof why) ==
                ZIO_FRAME_OK &&
            hlen >= BOOK_HEADER_FIXED && memcmp(h, BOOK_MAGIC, 8) == 0)
            size = (int)get_le((const uint8_t *)h + 16, 4);
        free(h);
    }
    free(data);
    return size >= 7 && size <= 19 ? size : 0;
}

/* Frees a book's arrays (the struct may be reused). */
void book_free(struct book *b) {
    free(b->pos);
    free(b->moves);
    b->pos = NULL;
    b->moves = NULL;
    b->npos = b->nmoves = 0;
}

/* Returns the position with the given key, or NULL. */
const struct book_pos *book_find(const struct book *b, uint64_t key) {
    size_t lo = 0, hi = b->npos;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->pos[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->npos && b->pos[lo].key == key ? &b->pos[lo] : NULL;
}

/* Returns the canonical form of p under the book's symmetries. */
void book_canon_of(const struct book *b, const struct position *p, struct book_canon *c) {
    book_canon(p, b->syms, c);
}

/* Looks p up; returns the number of book moves (0 if the position is not in the book). */
int book_probe(const struct book *b, const struct position *p, struct book_hit *hit) {
    book_canon_of(b, p, &hit->canon);
    hit->pos = book_find(b, hit->canon.key);
    hit->n = 0;
    if (!hit->pos) return 0;
    for (int i = 0; i < hit->pos->count; i++) {
        const struct book_move *m = &b->moves[hit->pos->first + (uint32_t)i];
        hit->moves[hit->n] = book_move_from_book(&hit->canon, m->move);
        hit->info[hit->n++] = m;
    }
    return hit->n;
}

/* Tells whether the move m, played now, would end the game by repetition in a loss or draw. */
bool book_repetition_trap(const struct tafl_game *game, move_t m) {
    enum repetition_rule rule = game->v->repetition;
    if (rule == REP_NONE || rule == REP_ILLEGAL_THIRD || rule == REP_ILLEGAL_DEFENDER_REPEAT)
        return false; /* no end by repetition (the bans are checked as legality) */
    const struct position *p = tafl_pos(game);
    struct position after;
    if (bb_any(make_move(&after, p, m)) || after.result != RESULT_NONE) return false;
    int count = 1, n = game->n;
    for (int j = n; j >= 0; j--) {
        if (j < n && bb_any(game->captures[j])) break;
        if ((n + 1 - j) % 2 == 0 && game->pos[j].key == after.key) count++;
    }
    if (count < 3) return false;
    int mover = p->side;
    switch (rule) {
    case REP_WIN_REPEATER: return false;
    case REP_LOSS_DEFENDERS: return mover == SIDE_DEFENDERS;
    default: return true; /* a draw, or the repeater loses */
    }
}

/* Tells whether book move a is better than b for BOOK_BEST. */
static bool better(const struct book_move *a, move_t ma, const struct book_move *b, move_t mb) {
    if ((a->depth > 0) != (b->depth > 0)) return a->depth > 0;
    if (a->depth > 0 && a->score != b->score) return a->score > b->score;
    if (a->weight != b->weight) return a->weight > b->weight;
    if (a->games != b->games) return a->games > b->games;
    return ma < mb;
}

/* Chooses a book move for the current position of game (see book.h). */
move_t book_choose(const struct book *b, const struct tafl_game *game, const struct book_play *play,
                   uint64_t draw, const struct book_move **info) {
    char why[300];
    if (game->result != RESULT_NONE || (play->max_ply > 0 && game->n >= play->max_ply) ||
        !book_fits(b, game->v, why, sizeof why))
        return MOVE_NONE;
    struct book_hit *hit = malloc(sizeof *hit);
    if (!hit) return MOVE_NONE;
    int n = book_probe(b, tafl_pos(game), hit), k = 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!tafl_move_legal(game, hit->moves[i], NULL, 0) ||
            book_repetition_trap(game, hit->moves[i]))
            continue;
        hit->moves[k] = hit->moves[i];
        hit->info[k++] = hit->info[i];
        total += hit->info[i]->weight;
    }
    int pick = -1;
    if (play->variety == BOOK_WEIGHTED && total > 0) {
        uint64_t r = draw % total;
        for (int i = 0; i < k && pick < 0; i++) {
            if (r < hit->info[i]->weight) pick = i;
            r -= hit->info[i]->weight;
        }
    } else {
        for (int i = 0; i < k; i++)
            if (pick < 0 || better(hit->info[i], hit->moves[i], hit->info[pick], hit->moves[pick]))
                pick = i;
    }
    move_t m = pick >= 0 ? hit->moves[pick] : MOVE_NONE;
    if (info) *info = pick >= 0 ? hit->info[pick] : NULL;
    free(hit);
    return m;
}
