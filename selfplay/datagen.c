/* Training data: packing positions into fixed-size records, writing and reading the file. */
#include "selfplay/datagen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/zio.h"
#include "engine/make.h"
#include "engine/opentafl.h"
#include "selfplay/records.h"

static const char magic[8] = {'H', 'N', 'E', 'F', 'I', 'D', 'A', 'T'};

/* Stores v as n little-endian bytes at p. */
static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Reads n little-endian bytes at p. */
static uint64_t get_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* The 64-bit words each set of pieces takes in a version 2 record of v. */
static int set_words(const struct variant *v) {
    return (v->size * v->size + 63) / 64;
}

/* Returns the format version hnefi writes v's training data in: 1 for boards up to 11x11
   without special pieces, 2 otherwise. */
int datagen_version_of(const struct variant *v) {
    return v->size > 11 || v->special_pieces ? 2 : 1;
}

/* Returns the size of one record of v's training data. */
size_t datagen_record_size(const struct variant *v) {
    return datagen_version_of(v) == 1 ? DATAGEN_RECORD : (size_t)24 * set_words(v) + 12;
}

/* Builds the file header frame for v into h (DATAGEN_HEADER_MAX bytes); returns its length, or
   0 if v's rules cannot be written down. */
size_t datagen_make_header(uint8_t *h, const struct variant *v) {
    int version = datagen_version_of(v), rules = 0;
    memset(h, 0, DATAGEN_HEADER);
    if (version == 2) {
        rules = opentafl_write_rules(v, (char *)h + DATAGEN_HEADER,
                                     DATAGEN_HEADER_MAX - DATAGEN_HEADER);
        if (rules < 0) return 0;
    }
    memcpy(h, magic, 8);
    put_le(h + 8, (uint64_t)version, 4);
    put_le(h + 12, datagen_record_size(v), 4);
    put_le(h + 16, (uint64_t)v->size, 4);
    put_le(h + 20, (uint64_t)rules, 4);
    records_variant_name(v, (char *)h + 24, 32);
    return DATAGEN_HEADER + (size_t)rules;
}

/* Maps a game result to its stored value (0 attackers, 1 defenders, 2 draw). */
static int result_code(int result) {
    return result == RESULT_ATTACKERS ? 0 : result == RESULT_DEFENDERS ? 1 : 2;
}

/* Packs position p of a game of v into record r (version 1 or 2, docs/records.md). */
static void pack(uint8_t *r, const struct variant *v, const struct position *p, int score,
                 int result, int flags, int ply) {
    if (datagen_version_of(v) == 1) {
        put_le(r, bb_word(p->att, 0), 8);
        put_le(r + 8, bb_word(p->att, 1), 8);
        put_le(r + 16, bb_word(p->def, 0), 8);
        put_le(r + 24, bb_word(p->def, 1), 8);
        r[32] = (uint8_t)p->king_sq;
        r[33] = p->side;
        put_le(r + 34, (uint16_t)score, 2);
        r[36] = (uint8_t)result;
        r[37] = (uint8_t)flags;
        put_le(r + 38, (uint64_t)ply, 2);
        return;
    }
    int w = set_words(v);
    for (int i = 0; i < w; i++) {
        put_le(r + 8 * i, bb_word(p->att, i), 8);
        put_le(r + 8 * (w + i), bb_word(p->def, i), 8);
        put_le(r + 8 * (2 * w + i), bb_word(p->spec, i), 8);
    }
    uint8_t *t = r + 24 * w;
    put_le(t, (uint64_t)p->king_sq, 2);
    put_le(t + 2, p->berserk, 2);
    t[4] = p->side;
    t[5] = (uint8_t)result;
    t[6] = (uint8_t)flags;
    t[7] = 0;
    put_le(t + 8, (uint16_t)score, 2);
    put_le(t + 10, (uint64_t)ply, 2);
}

/* Appends one game's positions as a frame; false with a reason. */
bool datagen_write_game(int fd, const struct variant *v, const struct played_game *g, bool sync,
                        char *err, size_t errlen) {
    size_t rec = datagen_record_size(v);
    uint8_t *buf = malloc(DATAGEN_GAME_HEADER + (size_t)g->n * rec);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    struct position pos;
    pos_init_start(&pos, v);
    int count = 0;
    bool adjudicated = g->end != PLAYED_END_RULES;
    for (int i = 0; i < g->n; i++) {
        if (i >= g->opening_plies && g->has_score[i]) {
            int plies;
            int flags = (score_is_win(g->score[i], &plies) ? 1 : 0) | (adjudicated ? 2 : 0);
            pack(buf + DATAGEN_GAME_HEADER + (size_t)count++ * rec, v, &pos, g->score[i],
                 result_code(g->result), flags, i);
        }
        /* jumps, commanders and berserk turns: only the rules know who moves next */
        if (v->special_pieces) {
            struct position next;
            make_move(&next, &pos, g->moves[i]);
            pos = next;
        } else {
            pos_play_known(&pos, &pos, g->moves[i], g->captures[i]);
        }
    }
    put_le(buf, (uint64_t)g->index, 8);
    put_le(buf + 8, (uint64_t)count, 4);
    put_le(buf + 12, (uint64_t)result_code(g->result), 4);
    bool ok =
        zio_append_frame(fd, buf, DATAGEN_GAME_HEADER + (size_t)count * rec, sync, err, errlen);
    free(buf);
    return ok;
}

/* What a scan reports for each game frame: false stops with err set. */
typedef bool (*game_fn)(const uint8_t *frame, size_t len, int64_t game, int count, size_t start,
                        bool last, void *ctx, char *err, size_t errlen);

/* What scan_game needs: the caller's function, the file's name, the record size and where a
   failure is told. */
struct scan_ctx {
    game_fn fn;
    void *ctx;
    const char *path;
    size_t rec;
    char *err;
    size_t errlen;
};

/* Checks a game frame's size and hands it to the caller's function; false with err set. */
static bool scan_game(const char *frame, size_t flen, size_t at, bool last, void *arg) {
    struct scan_ctx *c = arg;
    const uint8_t *f = (const uint8_t *)frame;
    char why[300];
    int64_t count = flen >= DATAGEN_GAME_HEADER ? (int64_t)get_le(f + 8, 4) : -1;
    if (count < 0 || flen != DATAGEN_GAME_HEADER + (size_t)count * c->rec) {
        snprintf(c->err, c->errlen, "%s is damaged: byte %zu: a game frame of %zu bytes", c->path,
                 at, flen);
        return false;
    }
    if (!c->fn(f, flen, (int64_t)get_le(f, 8), (int)count, at, last, c->ctx, why, sizeof why)) {
        snprintf(c->err, c->errlen, "%s: %s", c->path, why);
        return false;
    }
    return true;
}

/* Copies the first token (up to a space) where the rules strings a and b differ into out. */
static void first_difference(const char *a, char *out, size_t outlen, const char *b) {
    while (*a && *b) {
        size_t na = strcspn(a, " "), nb = strcspn(b, " ");
        if (na != nb || memcmp(a, b, na) != 0) break;
        a += na + (a[na] == ' ');
        b += nb + (b[nb] == ' ');
    }
    size_t n = strcspn(a, " ");
    snprintf(out, outlen, "%.*s", (int)(n < 60 ? n : 60), *a ? a : "(nothing)");
}

/* Says how a file's header h differs from the header want of the variant asked for. */
static void header_mismatch(const char *path, const uint8_t *h, size_t hlen, const uint8_t *want,
                            size_t wantlen, char *err, size_t errlen) {
    unsigned version = (unsigned)get_le(h + 8, 4), size = (unsigned)get_le(h + 16, 4);
    if (memcmp(h + 24, want + 24, 32) != 0) {
        snprintf(err, errlen, "%s holds %.32s data, not %.32s; choose the variant with --variant",
                 path, (const char *)h + 24, (const char *)want + 24);
    } else if (memcmp(h + 16, want + 16, 4) != 0) {
        snprintf(err, errlen, "%s holds %.32s data of a %ux%u board, not %ux%u", path,
                 (const char *)h + 24, size, size, (unsigned)get_le(want + 16, 4),
                 (unsigned)get_le(want + 16, 4));
    } else if (memcmp(h + 8, want + 8, 8) != 0) {
        snprintf(err, errlen,
                 "%s is training data of version %u with %u-byte records; this hnefi writes "
                 "%.32s data as version %u with %u-byte records",
                 path, version, (unsigned)get_le(h + 12, 4), (const char *)want + 24,
                 (unsigned)get_le(want + 8, 4), (unsigned)get_le(want + 12, 4));
    } else {
        char file[DATAGEN_HEADER_MAX], play[DATAGEN_HEADER_MAX], tok[64], tok2[64];
        snprintf(file, sizeof file, "%.*s", (int)(hlen - DATAGEN_HEADER),
                 (const char *)h + DATAGEN_HEADER);
        snprintf(play, sizeof play, "%.*s", (int)(wantlen - DATAGEN_HEADER),
                 (const char *)want + DATAGEN_HEADER);
        first_difference(file, tok, sizeof tok, play);
        first_difference(play, tok2, sizeof tok2, file);
        snprintf(err, errlen,
                 "%s holds %.32s data of other rules: the file has '%s', the rules in play '%s'",
                 path, (const char *)h + 24, tok, tok2);
    }
}

/* Reads a data file's header frame (in *frame, to be freed, *flen bytes); false with a
   reason. */
static bool read_header(const char *path, char **frame, size_t *flen, char *err, size_t errlen) {
    enum { HEAD = 65536 }; /* the header's frame is far shorter */
    uint8_t *head = malloc(HEAD);
    size_t size, pos = 0;
    char why[300];
    *frame = NULL;
    FILE *f = head ? fopen(path, "rb") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, head ? strerror(errno) : "out of memory");
        free(head);
        return false;
    }
    size = fread(head, 1, HEAD, f);
    fclose(f);
    enum zio_frame st = zio_next_frame(head, size, &pos, frame, flen, why, sizeof why);
    free(head);
    const uint8_t *h = (const uint8_t *)*frame;
    bool ok = st == ZIO_FRAME_OK && *flen >= DATAGEN_HEADER && memcmp(h, magic, 8) == 0;
    unsigned version = ok ? (unsigned)get_le(h + 8, 4) : 0;
    if (!ok) {
        snprintf(err, errlen, "%s is not a hnefi training-data file%s%s", path,
                 st == ZIO_FRAME_OK ? "" : ": ", st == ZIO_FRAME_OK ? "" : why);
    } else if (version != 1 && version != 2) {
        snprintf(err, errlen,
                 "%s is training data of version %u; this hnefi reads versions 1 and 2", path,
                 version);
        ok = false;
    } else if (*flen != DATAGEN_HEADER + get_le(h + 20, 4) || *flen > DATAGEN_HEADER_MAX ||
               memchr(h + DATAGEN_HEADER, '\0', *flen - DATAGEN_HEADER) ||
               (version == 1 && *flen != DATAGEN_HEADER)) {
        snprintf(err, errlen, "%s is damaged: its header", path);
        ok = false;
    }
    if (!ok) {
        free(*frame);
        *frame = NULL;
    }
    return ok;
}

/* Reads the variant name and rules string (empty in version 1) a data file's header names;
   false with a reason. */
bool datagen_file_names(const char *path, char *name, size_t namelen, char *rules, size_t ruleslen,
                        char *err, size_t errlen) {
    char *frame;
    size_t flen;
    if (!read_header(path, &frame, &flen, err, errlen)) return false;
    snprintf(name, namelen, "%.32s", frame + 24);
    snprintf(rules, ruleslen, "%.*s", (int)(flen - DATAGEN_HEADER), frame + DATAGEN_HEADER);
    free(frame);
    return true;
}

/* Sets *out to the variant a training-data file holds (built in by its name, or read from its
   rules string); false with a reason. */
bool datagen_file_variant(const char *path, struct variant *out, char *err, size_t errlen) {
    char name[40], rules[DATAGEN_HEADER_MAX], why[200];
    if (!datagen_file_names(path, name, sizeof name, rules, sizeof rules, err, errlen))
        return false;
    const struct variant *v = variant_by_name(name);
    if (v) {
        *out = *v;
        return true;
    }
    if (!rules[0]) {
        snprintf(err, errlen,
                 "%s holds data of variant '%s', which is not built in; give its rules with "
                 "--rules",
                 path, name);
        return false;
    }
    struct variant r;
    if (!opentafl_read_rules(&r, rules, why, sizeof why)) {
        snprintf(err, errlen,
                 "%s holds data of variant '%s', whose rules this hnefi cannot play: %s", path,
                 name, why);
        return false;
    }
    *out = r;
    return true;
}

/* Walks a data file's frames: header first, then games; false with a reason on damage. */
static bool scan(const char *path, const struct variant *v, bool tail_ok, game_fn fn, void *ctx,
                 size_t *good_end, char *note, size_t notelen, char *err, size_t errlen) {
    size_t size, pos = 0, flen;
    uint8_t want[DATAGEN_HEADER_MAX];
    size_t wantlen = datagen_make_header(want, v);
    if (!wantlen) {
        snprintf(err, errlen, "the rules of %s cannot be written down", v->name);
        return false;
    }
    char *raw = zio_read_file(path, &size, err, errlen), *frame = NULL, why[300];
    if (!raw) return false;
    bool ok = true;
    enum zio_frame st =
        zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, why, sizeof why);
    if (st != ZIO_FRAME_OK || flen < DATAGEN_HEADER || memcmp(frame, magic, 8) != 0) {
        snprintf(err, errlen, "%s is not a hnefi training-data file%s%s", path,
                 st == ZIO_FRAME_OK ? "" : ": ", st == ZIO_FRAME_OK ? "" : why);
        ok = false;
    } else if (flen != wantlen || memcmp(frame, want, wantlen) != 0) {
        header_mismatch(path, (const uint8_t *)frame, flen, want, wantlen, err, errlen);
        ok = false;
    }
    free(frame);
    if (ok) {
        struct scan_ctx c = {fn, ctx, path, datagen_record_size(v), err, errlen};
        st = zio_scan_frames((const uint8_t *)raw, size, &pos, scan_game, &c, why, sizeof why);
        ok = st != ZIO_FRAME_OK; /* OK: scan_game stopped, with err set */
    }
    if (ok && st == ZIO_FRAME_TRUNCATED && tail_ok) {
        snprintf(note, notelen, "%s: dropped a half-written frame (%s)", path, why);
    } else if (ok && st != ZIO_FRAME_END) {
        snprintf(err, errlen, "%s is damaged: %s", path, why);
        ok = false;
    }
    if (good_end) *good_end = pos;
    free(raw);
    return ok;
}

struct resume_ctx {
    bool (*has_record)(int64_t game, void *ctx);
    void *ctx;
    size_t cut; /* where an orphan last frame starts, or 0 */
    int64_t orphan;
};

/* Checks that a game's data has a record; an orphan last frame is marked to be cut off. */
static bool resume_game(const uint8_t *frame, size_t len, int64_t game, int count, size_t start,
                        bool last, void *arg, char *err, size_t errlen) {
    (void)frame, (void)len, (void)count;
    struct resume_ctx *c = arg;
    if (c->has_record(game, c->ctx)) return true;
    if (last) {
        c->cut = start;
        c->orphan = game;
        return true;
    }
    snprintf(err, errlen, "data of game %lld, which has no record", (long long)game);
    return false;
}

/*
 * Opens a training-data file for appending (writing its header if new). has_record tells
 * whether a game has a record; data of a game without one is cut off if it is the last frame,
 * refused otherwise. note describes what was cut off. Returns a descriptor or -1 with err.
 */
int datagen_open_append(const char *path, const struct variant *v,
                        bool (*has_record)(int64_t game, void *ctx), void *ctx, char *note,
                        size_t notelen, char *err, size_t errlen) {
    note[0] = '\0';
    bool exists = access(path, F_OK) == 0;
    if (exists) {
        struct resume_ctx rc = {has_record, ctx, 0, -1};
        size_t good_end = 0;
        if (!scan(path, v, true, resume_game, &rc, &good_end, note, notelen, err, errlen))
            return -1;
        if (rc.cut) {
            good_end = rc.cut;
            size_t k = strlen(note);
            snprintf(note + k, notelen - k, "%sdropped the data of game %lld, which has no record",
                     k ? "; " : "", (long long)rc.orphan);
        }
        if (truncate(path, (off_t)good_end) != 0) {
            snprintf(err, errlen, "cannot cut off the end of %s: %s", path, strerror(errno));
            return -1;
        }
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (!exists) {
        uint8_t h[DATAGEN_HEADER_MAX];
        size_t hlen = datagen_make_header(h, v);
        if (!hlen) snprintf(err, errlen, "the rules of %s cannot be written down", v->name);
        if (!hlen || !zio_append_frame(fd, h, hlen, true, err, errlen)) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

struct read_ctx {
    const struct variant *v;
    bool (*fn)(const struct datagen_pos *p, void *ctx);
    void *ctx;
    int64_t games, positions;
};

/* Unpacks record r of v into d (with its key); false if it is not a record this format can
   hold. */
static bool unpack(const uint8_t *r, const struct variant *v, struct datagen_pos *d) {
    int king, berserk = 0, side, result, flags, cells = v->size * v->size;
    bool pad_ok = true;
    d->pos.v = v;
    if (datagen_version_of(v) == 1) {
        d->pos.att = bb_from_words(get_le(r, 8), get_le(r + 8, 8));
        d->pos.def = bb_from_words(get_le(r + 16, 8), get_le(r + 24, 8));
        king = r[32];
        side = r[33];
        d->score = (int16_t)get_le(r + 34, 2);
        result = r[36];
        flags = r[37];
        d->ply = (int)get_le(r + 38, 2);
    } else {
        int w = set_words(v);
        for (int i = 0; i < w; i++) {
            d->pos.att = bb_with_word(d->pos.att, i, get_le(r + 8 * i, 8));
            d->pos.def = bb_with_word(d->pos.def, i, get_le(r + 8 * (w + i), 8));
            d->pos.spec = bb_with_word(d->pos.spec, i, get_le(r + 8 * (2 * w + i), 8));
        }
        const uint8_t *t = r + 24 * w;
        king = (int)get_le(t, 2);
        berserk = (int)get_le(t + 2, 2);
        side = t[4];
        result = t[5];
        flags = t[6];
        pad_ok = t[7] == 0;
        d->score = (int16_t)get_le(t + 8, 2);
        d->ply = (int)get_le(t + 10, 2);
    }
    /* the key is computed only for men on the board: its tables stop at the last square */
    if (king >= cells || berserk > cells || side > 1 || result > 2 || flags > 3 || !pad_ok ||
        bb_any((d->pos.att | d->pos.def | d->pos.spec) & ~v->g.board) ||
        (bb_any(d->pos.spec) && !bb_any(v->start.spec)) || (berserk && v->berserk == BERSERK_NONE))
        return false;
    d->pos.side = (uint8_t)side;
    d->result = result == 0 ? RESULT_ATTACKERS : result == 1 ? RESULT_DEFENDERS : RESULT_DRAW;
    d->flags = flags;
    d->pos.king_sq = (bb_square_t)king;
    d->pos.king = bb_sq(king);
    d->pos.berserk = (uint16_t)berserk;
    d->pos.key = pos_compute_key(&d->pos);
    return true;
}

/* Unpacks and checks each position of a game frame. */
static bool read_game(const uint8_t *frame, size_t len, int64_t game, int count, size_t start,
                      bool last, void *arg, char *err, size_t errlen) {
    (void)len, (void)start, (void)last;
    struct read_ctx *c = arg;
    size_t rec = datagen_record_size(c->v);
    c->games++;
    for (int i = 0; i < count; i++) {
        struct datagen_pos d = {.game = game};
        char why[120];
        if (!unpack(frame + DATAGEN_GAME_HEADER + (size_t)i * rec, c->v, &d) ||
            !pos_valid(&d.pos, why, sizeof why)) {
            snprintf(err, errlen, "game %lld position %d is damaged", (long long)game, i + 1);
            return false;
        }
        c->positions++;
        if (c->fn && !c->fn(&d, c->ctx)) {
            snprintf(err, errlen, "stopped");
            return false;
        }
    }
    return true;
}

/*
 * Reads a training-data file and calls fn for each position (fn may be NULL); *games and
 * *positions get the counts. False with a reason on any damage.
 */
bool datagen_read(const char *path, const struct variant *v,
                  bool (*fn)(const struct datagen_pos *p, void *ctx), void *ctx, int64_t *games,
                  int64_t *positions, char *err, size_t errlen) {
    struct read_ctx c = {v, fn, ctx, 0, 0};
    char note[8];
    bool ok = scan(path, v, false, read_game, &c, NULL, note, sizeof note, err, errlen);
    *games = c.games;
    *positions = c.positions;
    return ok;
}
