/* Training data: packing positions into fixed-size records, writing and reading the file. */
#include "selfplay/datagen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/zio.h"
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

/* Builds the file header for v. */
static void make_header(uint8_t h[DATAGEN_HEADER], const struct variant *v) {
    memset(h, 0, DATAGEN_HEADER);
    memcpy(h, magic, 8);
    put_le(h + 8, DATAGEN_VERSION, 4);
    put_le(h + 12, DATAGEN_RECORD, 4);
    put_le(h + 16, (uint64_t)v->size, 4);
    records_variant_name(v, (char *)h + 24, 32);
}

/* Maps a game result to its stored value (0 attackers, 1 defenders, 2 draw). */
static int result_code(int result) {
    return result == RESULT_ATTACKERS ? 0 : result == RESULT_DEFENDERS ? 1 : 2;
}

/* Appends one game's positions as a frame; false with a reason. */
bool datagen_write_game(int fd, const struct variant *v, const struct played_game *g, bool sync,
                        char *err, size_t errlen) {
    if (v->size > 11) { /* a record holds 128-bit sets (docs/records.md) */
        snprintf(err, errlen, "training data of boards beyond 11x11 is not supported yet");
        return false;
    }
    if (v->special_pieces) { /* a record holds men and the king, and replays without rules */
        snprintf(err, errlen,
                 "training data of variants with commanders, knights, jumps or berserk turns is "
                 "not supported yet");
        return false;
    }
    uint8_t *buf = malloc(DATAGEN_GAME_HEADER + (size_t)g->n * DATAGEN_RECORD);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    struct position pos;
    pos_init_start(&pos, v);
    int count = 0;
    bool adjudicated = g->end != PLAYED_END_RULES;
    for (int i = 0; i < g->n; i++) {
        const struct position *p = &pos;
        if (i >= g->opening_plies && g->has_score[i]) {
            uint8_t *r = buf + DATAGEN_GAME_HEADER + (size_t)count++ * DATAGEN_RECORD;
            int plies;
            put_le(r, bb_word(p->att, 0), 8);
            put_le(r + 8, bb_word(p->att, 1), 8);
            put_le(r + 16, bb_word(p->def, 0), 8);
            put_le(r + 24, bb_word(p->def, 1), 8);
            r[32] = (uint8_t)p->king_sq;
            r[33] = p->side;
            put_le(r + 34, (uint16_t)g->score[i], 2);
            r[36] = (uint8_t)result_code(g->result);
            r[37] = (uint8_t)((score_is_win(g->score[i], &plies) ? 1 : 0) | (adjudicated ? 2 : 0));
            put_le(r + 38, (uint64_t)i, 2);
        }
        pos_play_known(&pos, &pos, g->moves[i], g->captures[i]);
    }
    put_le(buf, (uint64_t)g->index, 8);
    put_le(buf + 8, (uint64_t)count, 4);
    put_le(buf + 12, (uint64_t)result_code(g->result), 4);
    bool ok = zio_append_frame(fd, buf, DATAGEN_GAME_HEADER + (size_t)count * DATAGEN_RECORD, sync,
                               err, errlen);
    free(buf);
    return ok;
}

/* What a scan reports for each game frame: false stops with err set. */
typedef bool (*game_fn)(const uint8_t *frame, size_t len, int64_t game, int count, size_t start,
                        bool last, void *ctx, char *err, size_t errlen);

/* What scan_game needs: the caller's function, the file's name and where a failure is told. */
struct scan_ctx {
    game_fn fn;
    void *ctx;
    const char *path;
    char *err;
    size_t errlen;
};

/* Checks a game frame's size and hands it to the caller's function; false with err set. */
static bool scan_game(const char *frame, size_t flen, size_t at, bool last, void *arg) {
    struct scan_ctx *c = arg;
    const uint8_t *f = (const uint8_t *)frame;
    char why[300];
    int count = flen >= DATAGEN_GAME_HEADER ? (int)get_le(f + 8, 4) : -1;
    if (count < 0 || flen != DATAGEN_GAME_HEADER + (size_t)count * DATAGEN_RECORD) {
        snprintf(c->err, c->errlen, "%s is damaged: byte %zu: a game frame of %zu bytes", c->path,
                 at, flen);
        return false;
    }
    if (!c->fn(f, flen, (int64_t)get_le(f, 8), count, at, last, c->ctx, why, sizeof why)) {
        snprintf(c->err, c->errlen, "%s: %s", c->path, why);
        return false;
    }
    return true;
}

/* Says how a file's header h differs from the header want of the variant asked for. */
static void header_mismatch(const char *path, const uint8_t *h, const uint8_t *want, char *err,
                            size_t errlen) {
    unsigned version = (unsigned)get_le(h + 8, 4), size = (unsigned)get_le(h + 16, 4);
    if (memcmp(h + 8, want + 8, 8) != 0)
        snprintf(err, errlen,
                 "%s is training data of version %u with %u-byte records; this hnefi reads "
                 "version %d with %d-byte records",
                 path, version, (unsigned)get_le(h + 12, 4), DATAGEN_VERSION, DATAGEN_RECORD);
    else if (memcmp(h + 24, want + 24, 32) != 0)
        snprintf(err, errlen, "%s holds %.32s data, not %.32s; choose the variant with --variant",
                 path, (const char *)h + 24, (const char *)want + 24);
    else
        snprintf(err, errlen, "%s holds %.32s data of a %ux%u board, not %ux%u", path,
                 (const char *)h + 24, size, size, (unsigned)get_le(want + 16, 4),
                 (unsigned)get_le(want + 16, 4));
}

/* Reads the variant name in a data file's header; false with a reason. */
bool datagen_variant_name(const char *path, char *name, size_t namelen, char *err, size_t errlen) {
    uint8_t head[4096]; /* the header's frame is far shorter */
    size_t size, pos = 0, flen;
    char *frame = NULL, why[300];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    size = fread(head, 1, sizeof head, f);
    fclose(f);
    enum zio_frame st = zio_next_frame(head, size, &pos, &frame, &flen, why, sizeof why);
    bool ok = st == ZIO_FRAME_OK && flen == DATAGEN_HEADER && memcmp(frame, magic, 8) == 0;
    if (ok)
        snprintf(name, namelen, "%.32s", frame + 24);
    else
        snprintf(err, errlen, "%s is not a hnefi training-data file%s%s", path,
                 st == ZIO_FRAME_OK ? "" : ": ", st == ZIO_FRAME_OK ? "" : why);
    free(frame);
    return ok;
}

/* Returns the built-in variant a training-data file names; NULL with a reason. */
const struct variant *datagen_file_variant(const char *path, char *err, size_t errlen) {
    char name[40];
    if (!datagen_variant_name(path, name, sizeof name, err, errlen)) return NULL;
    const struct variant *v = variant_by_name(name);
    if (!v)
        snprintf(err, errlen,
                 "%s holds data of variant '%s', which is not built in; give its rules with "
                 "--rules",
                 path, name);
    return v;
}

/* Walks a data file's frames: header first, then games; false with a reason on damage. */
static bool scan(const char *path, const struct variant *v, bool tail_ok, game_fn fn, void *ctx,
                 size_t *good_end, char *note, size_t notelen, char *err, size_t errlen) {
    size_t size, pos = 0, flen;
    char *raw = zio_read_file(path, &size, err, errlen), *frame = NULL, why[300];
    if (!raw) return false;
    bool ok = true;
    uint8_t want[DATAGEN_HEADER];
    make_header(want, v);
    enum zio_frame st =
        zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, why, sizeof why);
    if (st != ZIO_FRAME_OK || flen != DATAGEN_HEADER || memcmp(frame, magic, 8) != 0) {
        snprintf(err, errlen, "%s is not a hnefi training-data file%s%s", path,
                 st == ZIO_FRAME_OK ? "" : ": ", st == ZIO_FRAME_OK ? "" : why);
        ok = false;
    } else if (memcmp(frame, want, DATAGEN_HEADER) != 0) {
        header_mismatch(path, (const uint8_t *)frame, want, err, errlen);
        ok = false;
    }
    free(frame);
    if (ok) {
        struct scan_ctx c = {fn, ctx, path, err, errlen};
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
        uint8_t h[DATAGEN_HEADER];
        make_header(h, v);
        if (!zio_append_frame(fd, h, sizeof h, true, err, errlen)) {
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

/* Unpacks and checks each position of a game frame. */
static bool read_game(const uint8_t *frame, size_t len, int64_t game, int count, size_t start,
                      bool last, void *arg, char *err, size_t errlen) {
    (void)len, (void)start, (void)last;
    struct read_ctx *c = arg;
    int cells = c->v->size * c->v->size;
    c->games++;
    for (int i = 0; i < count; i++) {
        const uint8_t *r = frame + DATAGEN_GAME_HEADER + (size_t)i * DATAGEN_RECORD;
        struct datagen_pos d = {.game = game};
        d.pos.v = c->v;
        d.pos.att = bb_from_words(get_le(r, 8), get_le(r + 8, 8));
        d.pos.def = bb_from_words(get_le(r + 16, 8), get_le(r + 24, 8));
        d.pos.king_sq = (bb_square_t)r[32];
        d.pos.side = r[33];
        d.score = (int16_t)get_le(r + 34, 2);
        d.result = r[36] == 0 ? RESULT_ATTACKERS : r[36] == 1 ? RESULT_DEFENDERS : RESULT_DRAW;
        d.flags = r[37];
        d.ply = (int)get_le(r + 38, 2);
        char why[120];
        /* the key is computed only for men on the board: its tables stop at the last square */
        bool on_board = r[32] < cells && bb_is_empty((d.pos.att | d.pos.def) & ~c->v->g.board);
        if (on_board) {
            d.pos.king = bb_sq(r[32]);
            d.pos.key = pos_compute_key(&d.pos);
        }
        if (!on_board || r[33] > 1 || r[36] > 2 || r[37] > 3 ||
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
