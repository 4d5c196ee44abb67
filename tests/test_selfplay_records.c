/*
 * Game records, training data, openings and zstd frames: the real-game files read back with the
 * counts of docs/data.md, record lines round-tripped from real games, a half-written last frame
 * dropped and the file cut back, damaged files refused with a reason, training data written,
 * resumed and read back position by position, opening files and seeded random openings.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "book/zio.h"
#include "check.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/variant_text.h"
#include "selfplay/datagen.h"
#include "selfplay/records.h"
#include "test_selfplay_util.h"

static char dir[64];

/* Returns a path in the test's scratch directory (a static buffer per slot). */
static const char *tmp_path(int slot, const char *name) {
    static char paths[4][160];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

/* Returns a file's size. */
static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Counts of what a scan saw. */
struct tally {
    int64_t games, plies, status[4], timeouts, extended;
    int64_t games_seen[64];
};

/* Counts one record. */
static bool tally_record(const struct record *r, int64_t line, void *ctx) {
    (void)line;
    struct tally *t = ctx;
    t->games++;
    t->plies += r->n;
    t->status[r->result & 3]++;
    t->timeouts += r->timeout;
    t->extended += r->extended;
    if (r->extended && r->game >= 0 && r->game < 64) t->games_seen[r->game]++;
    return true;
}

/* Returns a variant with one option changed. */
static struct variant variant_with(const char *name, const char *key, const char *value) {
    struct variant v = *variant_by_name(name);
    char err[200];
    CHECK(variant_set_option(&v, key, value, err, sizeof err));
    return v;
}

/* What a real-game file must hold: games, plies, wins of each side, draws, unfinished, timeouts. */
struct expected {
    const char *file, *variant;
    int64_t counts[7];
};

/* The real-game files replay in full with the counts of docs/data.md (repetition off). */
static void test_real_games(void) {
    static const struct expected files[] = {
        {"copenhagen-games.csv.zst", "copenhagen", {1752, 87274, 754, 960, 7, 31, 273}},
        {"brandubh-games.csv.zst", "brandubh", {525, 11226, 208, 308, 2, 7, 11}},
    };
    char err[600], path[300];
    struct tally t;
    for (int i = 0; i < 2; i++) {
        const struct expected *e = &files[i];
        struct variant v = variant_with(e->variant, "repetition", "none");
        memset(&t, 0, sizeof t);
        snprintf(path, sizeof path, "%s/%s", HNEFI_TEST_DATA, e->file);
        CHECK(records_scan(path, &v, false, tally_record, &t, NULL, NULL, err, sizeof err));
        int64_t got[7] = {t.games,
                          t.plies,
                          t.status[RESULT_ATTACKERS],
                          t.status[RESULT_DEFENDERS],
                          t.status[RESULT_DRAW],
                          t.status[RESULT_NONE],
                          t.timeouts};
        CHECK(memcmp(got, e->counts, sizeof got) == 0);
        if (memcmp(got, e->counts, sizeof got) != 0)
            fprintf(stderr, "  %s: %lld games %lld plies %lld/%lld/%lld/%lld %lld timeouts\n",
                    e->file, (long long)got[0], (long long)got[1], (long long)got[2],
                    (long long)got[3], (long long)got[4], (long long)got[5], (long long)got[6]);
        CHECK_EQ_INT(t.extended, 0);
    }
    /* with Copenhagen's own repetition rule a replay meets a repeated position: refused */
    memset(&t, 0, sizeof t);
    CHECK(!records_scan(HNEFI_TEST_DATA "/copenhagen-games.csv.zst", NULL, false, tally_record, &t,
                        NULL, NULL, err, sizeof err));
    CHECK(strstr(err, "repetition") != NULL);
}

/* Fills g with the first n plies of a real game, with made-up scores from ply 2 on. */
static void real_game(struct played_game *g, const char *line, const struct variant *v, int n) {
    struct record *r = malloc(sizeof *r);
    struct tafl_game *t = tafl_new(v);
    char err[300];
    CHECK(records_parse(line, strlen(line), v, r, t, err, sizeof err));
    memset(g, 0, sizeof *g);
    g->n = n < r->n ? n : r->n;
    memcpy(g->moves, r->moves, (size_t)g->n * sizeof(move_t));
    memcpy(g->captures, r->captures, (size_t)g->n * sizeof(bb_t));
    g->result = g->n == r->n ? (uint8_t)t->result : RESULT_NONE;
    g->reason = g->n == r->n ? t->reason : END_NONE;
    g->end = PLAYED_END_RULES;
    for (int i = 0; i < g->n; i++) {
        g->has_score[i] = i >= 2;
        g->score[i] = (int16_t)(i * 7 - 50);
    }
    free(r);
    tafl_free(t);
}

/* Line 61 of copenhagen-games.csv: the king escapes at k11 on the tenth ply. */
static const char king_escapes[] = "k8-g8 h6-h8xg8 j6-j11 g6-j6 k7-k10 f6-i6 k5-i5 i6-i11xj11 "
                                   "k10-i10 i11-k11,0,2,White";

/* A game formats to the extended line and reads back the same, timeout word included. */
static void test_round_trip(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct played_game *g = malloc(sizeof *g);
    struct record *r = malloc(sizeof *r);
    struct tafl_game *t = tafl_new(v);
    real_game(g, king_escapes, v, 9);
    CHECK_EQ_INT(g->n, 9);
    g->result = RESULT_ATTACKERS;
    g->end = PLAYED_END_TIMEOUT;
    g->loser = SIDE_DEFENDERS;
    g->opening_plies = 2;
    g->index = 41;
    const char *names[SIDE_NB] = {"alpha", "beta.2"};
    char *line = records_format(v, g, names), err[300];
    /* the defenders, to move at ply 10, lost on time: attackers win ("Black") */
    CHECK_EQ_STR(line, "k8-g8 h6-h8xg8 j6-j11 g6-j6 k7-k10 f6-i6 k5-i5 i6-i11xj11 k10-i10 "
                       "timeout,0,2,Black,copenhagen,alpha,beta.2,2,41,timeout\n");
    CHECK(records_parse(line, strlen(line) - 1, v, r, t, err, sizeof err));
    CHECK(r->extended && r->timeout);
    CHECK_EQ_INT(r->n, 9);
    CHECK(memcmp(r->moves, g->moves, 9 * sizeof(move_t)) == 0);
    CHECK_EQ_INT(r->result, RESULT_ATTACKERS);
    CHECK_EQ_INT(r->game, 41);
    CHECK_EQ_INT(r->opening_plies, 2);
    CHECK_EQ_INT(r->end, PLAYED_END_TIMEOUT);
    CHECK_EQ_STR(r->players[0], "alpha");
    CHECK_EQ_STR(r->players[1], "beta.2");
    CHECK_EQ_INT(r->taken[0], 0);
    CHECK_EQ_INT(r->taken[1], 2);
    free(line);
    free(g);
    free(r);
    tafl_free(t);
}

/* Counts training positions and checks them against the replayed game. */
struct data_check {
    const struct played_game *g;
    const struct variant *v;
    int64_t seen, bad, berserk;
};

/* Checks one training position against the game it came from. */
static bool check_position(const struct datagen_pos *p, void *ctx) {
    struct data_check *c = ctx;
    struct tafl_game *t = tafl_new(c->v);
    for (int i = 0; i < p->ply; i++) tafl_play(t, c->g->moves[i]);
    const struct position *q = tafl_pos(t);
    c->berserk += pos_berserker(&p->pos) >= 0;
    if (!bb_eq(q->att, p->pos.att) || !bb_eq(q->def, p->pos.def) || q->king_sq != p->pos.king_sq ||
        !bb_eq(q->spec, p->pos.spec) || q->berserk != p->pos.berserk || q->side != p->pos.side ||
        q->key != p->pos.key || p->score != c->g->score[p->ply] || p->result != c->g->result ||
        !c->g->has_score[p->ply] || p->ply < c->g->opening_plies)
        c->bad++;
    c->seen++;
    tafl_free(t);
    return true;
}

/* Tells which games have records (games 0 and 1 do). */
static bool two_records(int64_t game, void *ctx) {
    (void)ctx;
    return game == 0 || game == 1;
}

/*
 * A Berserk game (OpenTafl's rules string), from a hnefi match: its berserk turns (d1-d7xe7
 * d7-d3, the same side twice) replay, and each side's captures count by who moved, not by ply.
 */
static void test_berserk_record(void) {
    static const char line[] =
        "h6-h8 a8-c8 g7-h7 f2-j2 g6-g7 j6-i6 f6-h6 h1-h5 f4-h4xh5 c8-e8 h6-f6 g11-g8xf8 f7-f8xg8 "
        "b6-b2 h4-c4 f10-b10 d6-d8xe8 i6-i2 f6-i6 b10-i10 i6-j6 i10-j10 j6-h6 k5-h5 c4-h4xh5 "
        "a4-f4xf5 h6-i6 j10-i10 i6-j6 f4-f7 j6-j3 d1-d7xe7 d7-d3 j3-k3 j2-k2 e6-e7xf7 d3-j3 "
        "g5-k5xk4 d11-d9 h4-h1 a5-a3 k3-k4 k2-k3 k4-c4 d9-j9 c4-c11 b2-b11 c11-c1 b11-b1 c1-c2 "
        "b1-b10 c2-a2 i2-b2 a2-a1,3,6,White,Berserk,a,b,4,0,escape";
    struct variant v;
    char err[300];
    CHECK(opentafl_read_rules(&v,
                              "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
                              "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/"
                              "5c5/3ttttt3/",
                              err, sizeof err));
    struct record *r = malloc(sizeof *r);
    struct tafl_game *t = tafl_new(&v);
    bool ok = records_parse(line, strlen(line), &v, r, t, err, sizeof err);
    if (!CHECK(ok)) fprintf(stderr, "    %s\n", err);
    CHECK_EQ_INT(r->n, 54);
    CHECK_EQ_INT(r->taken[SIDE_ATTACKERS], 3);
    CHECK_EQ_INT(r->taken[SIDE_DEFENDERS], 6);
    CHECK_EQ_INT(t->result, RESULT_DEFENDERS);
    /* after d1-d7xe7 (ply 32) the attackers move again, with that commander */
    CHECK(t->pos[32].side == SIDE_ATTACKERS && pos_berserker(&t->pos[32]) == 6 * 11 + 3);
    struct played_game *g = calloc(1, sizeof *g);
    g->n = r->n;
    memcpy(g->moves, r->moves, (size_t)g->n * sizeof(move_t));
    memcpy(g->captures, r->captures, (size_t)g->n * sizeof(bb_t));
    g->result = RESULT_DEFENDERS;
    g->reason = END_ESCAPE;
    g->end = PLAYED_END_RULES;
    g->opening_plies = 4;
    const char *names[SIDE_NB] = {"a", "b"};
    char *again = records_format(&v, g, names);
    CHECK(again && strncmp(again, line, strlen(line)) == 0);
    /* training data (format version 2): commanders, knights and the berserker come back */
    CHECK_EQ_INT(datagen_version_of(&v), 2);
    CHECK_EQ_INT((int)datagen_record_size(&v), 60);
    for (int i = 0; i < g->n; i++) {
        g->has_score[i] = 1;
        g->score[i] = (int16_t)(i * 7 - 100);
    }
    const char *path = tmp_path(1, "berserk.dat");
    char note[300];
    unlink(path);
    int fd = datagen_open_append(path, &v, two_records, NULL, note, sizeof note, err, sizeof err);
    CHECK(fd >= 0 && datagen_write_game(fd, &v, g, false, err, sizeof err));
    if (fd >= 0) close(fd);
    struct data_check c = {g, &v, 0, 0, 0};
    int64_t games, positions;
    CHECK(datagen_read(path, &v, check_position, &c, &games, &positions, err, sizeof err));
    CHECK_EQ_INT(positions, g->n - 4);
    CHECK_EQ_INT(c.bad, 0);
    CHECK_EQ_INT(c.berserk, 1); /* ply 32 */
    /* the file names its rules: the variant comes back from the file alone */
    struct variant back;
    CHECK(datagen_file_variant(path, &back, err, sizeof err));
    CHECK_EQ_STR(back.name, "Berserk");
    CHECK(back.berserk == BERSERK_CAPTURE && bb_eq(back.start.spec, v.start.spec));
    /* other rules are refused, naming the difference */
    struct variant other = v;
    other.berserk = BERSERK_MOVE;
    CHECK(!datagen_read(path, &other, NULL, NULL, &games, &positions, err, sizeof err));
    CHECK(strstr(err, "holds Berserk data of other rules: the file has 'ber:c', the rules in "
                      "play 'ber:m'") != NULL);
    /* a header of a version no hnefi writes, or whose rules string has another length */
    uint8_t h[DATAGEN_HEADER_MAX];
    size_t hlen = datagen_make_header(h, &v);
    const char *bad = tmp_path(2, "bad-header.dat");
    for (int k = 0; k < 2; k++) {
        uint8_t copy[DATAGEN_HEADER_MAX];
        memcpy(copy, h, hlen);
        copy[k == 0 ? 8 : 20] += 1; /* the version, or the rules string's length */
        unlink(bad);
        int bfd = open(bad, O_WRONLY | O_CREAT, 0644);
        CHECK(bfd >= 0 && zio_append_frame(bfd, copy, hlen, false, err, sizeof err));
        if (bfd >= 0) close(bfd);
        CHECK(!datagen_file_variant(bad, &back, err, sizeof err));
        CHECK(strstr(err, k == 0 ? "training data of version 3; this hnefi reads versions 1 and 2"
                                 : "is damaged: its header") != NULL);
        CHECK(!datagen_read(bad, &v, NULL, NULL, &games, &positions, err, sizeof err));
    }
    free(again);
    free(g);
    free(r);
    tafl_free(t);
}

/* Lines that do not fit the rules are refused with a reason naming what is wrong. */
static void test_bad_lines(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct record *r = malloc(sizeof *r);
    struct tafl_game *t = tafl_new(v);
    static const struct {
        const char *line, *why;
    } bad[] = {
        {"h1-h3,0,0", "3 fields"},
        {"h1-h3,0,0,Black,copenhagen,a,b,0,1,escape", "do not end so"},
        {"h1-h3,0,0,Won", "status"},
        {"h1-h3,x,0,Black", "capture count"},
        {"h1-h9,0,0,Ongoing", "ply 1"},
        {"h1-h3xh4,0,0,Ongoing", "captures"},
        {"h1-h3,1,0,Ongoing", "capture counts"},
        {"h1-h3 timeout e4-h4,0,0,Ongoing", "follows the word timeout"},
        {"h1-h3,0,0,Draw,copenhagen,a,b,0,1,nonsense", "malformed"},
        {"h1-h3,0,0,Draw,tablut,a,b,0,1,max_plies", "a game of tablut, not copenhagen"},
        {"h1-h3,0,0,Black,copenhagen,a,b,0,1,max_plies", "does not fit"},
        {"h1-h3,0,0,Draw,copenhagen,a,b,5,1,max_plies", "opening of 5 plies"},
        {"h1-h3,0,0,Black,copenhagen,a,b,0,1,crash", NULL},
    };
    char err[300];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bool ok = records_parse(bad[i].line, strlen(bad[i].line), v, r, t, err, sizeof err);
        CHECK(ok == (bad[i].why == NULL));
        if (bad[i].why && !strstr(err, bad[i].why))
            fprintf(stderr, "  line '%s': error '%s' lacks '%s'\n", bad[i].line, err, bad[i].why);
        if (bad[i].why) CHECK(strstr(err, bad[i].why) != NULL);
    }
    free(r);
    tafl_free(t);
}

/* A file of games of a variant not built in is refused as such (named in the refusal), a
   damaged file is not, and an OpenTafl record on a board of no build is not either. */
static void test_refusals(void) {
    static const struct {
        const char *text, *name;
        bool not_built_in;
    } files[] = {
        {"h1-h3,0,0,Draw,nosuch,a,b,0,1,max_plies\n", "nosuch", true},
        {"h1-h3,0,0,Won\n", "", false},
        {"[rules:dim:23 esc:c]\n1. a1-a2\n", "", false},
        {"[rules:dim:13 esc:c]\n1. a1-a2\n", "", !HNEFI_WIDE},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const char *path = tmp_path(0, "refused.txt");
        FILE *f = fopen(path, "w");
        if (!CHECK(f)) return;
        fputs(files[i].text, f);
        fclose(f);
        struct records_refusal refused;
        struct tally t = {0};
        char err[400];
        CHECK(!records_scan_refused(path, NULL, false, tally_record, &t, NULL, NULL, &refused, err,
                                    sizeof err));
        CHECK(refused.not_built_in == files[i].not_built_in);
        CHECK(strcmp(refused.variant, files[i].name) == 0);
    }
    /* a file that cannot be read says nothing of variants */
    struct records_refusal refused;
    memset(&refused, 0xff, sizeof refused);
    char err[400];
    CHECK(!records_scan_refused(tmp_path(0, "missing.txt"), NULL, false, tally_record, NULL, NULL,
                                NULL, &refused, err, sizeof err));
    CHECK(!refused.not_built_in && refused.variant[0] == '\0');
}

/* Writes n record frames of the escape game with game numbers 0..n-1; returns each frame end. */
static void write_records(const char *path, int n, long *ends) {
    const struct variant *v = variant_by_name("copenhagen");
    struct played_game *g = malloc(sizeof *g);
    struct tafl_game *t = tafl_new(v);
    real_game(g, king_escapes, v, 9);
    g->result = RESULT_DRAW;
    g->end = PLAYED_END_DRAW_AGREED;
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    const char *names[SIDE_NB] = {"a", "b"};
    char err[200];
    for (int i = 0; i < n; i++) {
        g->index = i;
        char *line = records_format(v, g, names);
        CHECK(zio_append_frame(fd, line, strlen(line), false, err, sizeof err));
        free(line);
        ends[i] = lseek(fd, 0, SEEK_END);
    }
    close(fd);
    free(g);
    tafl_free(t);
}

/* Appends raw bytes to a file. */
static void append_bytes(const char *path, const void *bytes, size_t n) {
    int fd = open(path, O_WRONLY | O_APPEND);
    CHECK(write(fd, bytes, n) == (ssize_t)n);
    close(fd);
}

/* A small file that would decompress past ZIO_CONTENT_MAX is refused before it fills memory. */
static void test_decompression_limit(void) {
    const char *path = tmp_path(0, "bomb.zst");
    size_t total = ZIO_CONTENT_MAX + 1, chunk = 1 << 20;
    char *zeros = calloc(1, chunk), *out = malloc(1 << 16);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    FILE *f = fopen(path, "wb");
    if (!CHECK(zeros && out && cc && f)) goto done;
    CHECK(!ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, total))); /* the frame states its size */
    for (size_t fed = 0; fed < total;) {
        size_t n = total - fed < chunk ? total - fed : chunk;
        ZSTD_inBuffer in = {zeros, n, 0};
        bool last = fed + n == total;
        size_t r;
        do {
            ZSTD_outBuffer o = {out, 1 << 16, 0};
            r = ZSTD_compressStream2(cc, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            if (!CHECK(!ZSTD_isError(r))) goto done;
            fwrite(out, 1, o.pos, f);
        } while (last ? r != 0 : in.pos < in.size);
        fed += n;
    }
    fclose(f);
    f = NULL;
    size_t len;
    char err[300];
    char *text = zio_read_text(path, &len, err, sizeof err);
    CHECK(!text && strstr(err, "more than 1073741824"));
    free(text);
    printf("a %lld-byte file of %zu zero bytes: refused (%s)\n", (long long)file_size(path), total,
           err);
done:
    if (f) fclose(f);
    ZSTD_freeCCtx(cc);
    free(zeros);
    free(out);
    remove(path);
}

/* Reopening: a half-written last frame is dropped and cut off; damage is refused. */
static void test_resume_and_damage(void) {
    const char *path = tmp_path(0, "records.zst");
    const struct variant *v = variant_by_name("copenhagen");
    long ends[4];
    char note[400], err[600];
    struct tally t = {0};
    /* a frame cut in the middle, as a kill -9 during the write leaves it */
    write_records(path, 4, ends);
    CHECK(truncate(path, ends[3] - 9) == 0);
    int fd = records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK_EQ_INT(t.games, 3);
    CHECK(strstr(note, "half-written") != NULL);
    CHECK_EQ_INT(file_size(path), ends[2]);
    /* reopened again: nothing more to drop */
    memset(&t, 0, sizeof t);
    fd = records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err);
    if (fd >= 0) close(fd);
    CHECK(fd >= 0 && t.games == 3 && note[0] == '\0');
    /* zero bytes after the last frame (a lost write) are dropped too */
    static const char zeros[32];
    append_bytes(path, zeros, sizeof zeros);
    memset(&t, 0, sizeof t);
    fd = records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err);
    if (fd >= 0) close(fd);
    CHECK(fd >= 0 && t.games == 3 && strstr(note, "zero bytes"));
    CHECK_EQ_INT(file_size(path), ends[2]);
    /* only the first two bytes of a new frame's magic */
    static const unsigned char magic2[2] = {0x28, 0xb5};
    append_bytes(path, magic2, 2);
    fd = records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err);
    if (fd >= 0) close(fd);
    CHECK(fd >= 0 && strstr(note, "cut short"));
    /* a flipped byte inside the middle frame: the checksum or the frame fails */
    write_records(path, 3, ends);
    fd = open(path, O_RDWR);
    unsigned char byte;
    CHECK(pread(fd, &byte, 1, ends[0] + 20) == 1);
    byte ^= 0x55;
    CHECK(pwrite(fd, &byte, 1, ends[0] + 20) == 1);
    close(fd);
    long before = file_size(path);
    CHECK(records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err) < 0);
    CHECK(strstr(err, "damaged") != NULL);
    CHECK_EQ_INT(file_size(path), before); /* a damaged file is left as it is */
    /* a middle frame whose block claims more bytes than the file has, with whole frames after
       it: damaged, not a half-written end (cutting there would lose the games after it) */
    write_records(path, 4, ends);
    fd = open(path, O_RDWR);
    unsigned char head[32], block[3];
    CHECK(pread(fd, head, sizeof head, ends[0]) == (ssize_t)sizeof head);
    /* the frame header (RFC 8878): magic, descriptor, window byte, dictionary id, content size */
    unsigned fhd = head[4], single = (fhd >> 5) & 1, fcs = fhd >> 6;
    static const size_t dict_bytes[4] = {0, 1, 2, 4}, fcs_bytes[4] = {0, 2, 4, 8};
    size_t hsize = 5 + !single + dict_bytes[fhd & 3] + (fcs == 0 ? single : fcs_bytes[fcs]);
    memcpy(block, head + hsize, 3);
    unsigned field = ((unsigned)60000 << 3) | (block[0] & 7u);
    block[0] = (unsigned char)field;
    block[1] = (unsigned char)(field >> 8);
    block[2] = (unsigned char)(field >> 16);
    CHECK(pwrite(fd, block, 3, ends[0] + (long)hsize) == 3);
    close(fd);
    before = file_size(path);
    memset(&t, 0, sizeof t);
    CHECK(records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err) < 0);
    CHECK(strstr(err, "damaged") != NULL && strstr(err, "a whole frame follows"));
    CHECK_EQ_INT(file_size(path), before);
    /* a sound frame holding a line that does not parse */
    write_records(path, 2, ends);
    fd = open(path, O_WRONLY | O_APPEND);
    CHECK(zio_append_frame(fd, "h1-h3,0,0,Bogus\n", 16, false, err, sizeof err));
    close(fd);
    CHECK(records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err) < 0);
    CHECK(strstr(err, "line 3") && strstr(err, "status"));
    /* a file that is not zstd at all */
    FILE *f = fopen(path, "w");
    fputs("h1-h3,0,0,Ongoing\n", f);
    fclose(f);
    CHECK(records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err) < 0);
    CHECK(strstr(err, "not a zstd record file") != NULL);
    /* but as a plain file it reads */
    memset(&t, 0, sizeof t);
    CHECK(records_scan(path, v, false, tally_record, &t, NULL, NULL, err, sizeof err));
    CHECK_EQ_INT(t.games, 1);
    /* a missing file is created empty */
    unlink(path);
    fd = records_open_append(path, v, tally_record, &t, note, sizeof note, err, sizeof err);
    CHECK(fd >= 0 && file_size(path) == 0);
    if (fd >= 0) close(fd);
}

/* Training data: written, read back position by position, resumed, refused when damaged. */
static void test_datagen(void) {
    const char *path = tmp_path(1, "data.bin.zst");
    const struct variant *v = variant_by_name("copenhagen");
    struct played_game *g = malloc(sizeof *g);
    struct tafl_game *t = tafl_new(v);
    char note[400], err[600];
    real_game(g, king_escapes, v, 10);
    g->opening_plies = 3;
    g->result = RESULT_DEFENDERS;
    unlink(path);
    int fd = datagen_open_append(path, v, two_records, NULL, note, sizeof note, err, sizeof err);
    CHECK(fd >= 0);
    for (int i = 0; i < 3; i++) {
        g->index = i;
        CHECK(datagen_write_game(fd, v, g, false, err, sizeof err));
    }
    close(fd);
    struct data_check c = {g, v, 0, 0, 0};
    int64_t games, positions;
    CHECK(datagen_read(path, v, check_position, &c, &games, &positions, err, sizeof err));
    CHECK_EQ_INT(games, 3);
    /* plies 3..9 are after the opening and all have scores: 7 per game */
    CHECK_EQ_INT(positions, 21);
    CHECK_EQ_INT(c.seen, 21);
    CHECK_EQ_INT(c.bad, 0);
    /* resume: game 2 has no record; as the last frame it is cut off */
    fd = datagen_open_append(path, v, two_records, NULL, note, sizeof note, err, sizeof err);
    CHECK(fd >= 0 && strstr(note, "game 2"));
    if (fd >= 0) close(fd);
    CHECK(datagen_read(path, v, NULL, NULL, &games, &positions, err, sizeof err));
    CHECK_EQ_INT(games, 2);
    CHECK_EQ_INT(positions, 14);
    /* the wrong variant is refused */
    CHECK(!datagen_read(path, variant_by_name("brandubh"), NULL, NULL, &games, &positions, err,
                        sizeof err));
    CHECK(strstr(err, "holds copenhagen data, not brandubh") != NULL);
    /* a record file is not training data */
    long ends[2];
    write_records(tmp_path(2, "r.zst"), 2, ends);
    CHECK(!datagen_read(tmp_path(2, "r.zst"), v, NULL, NULL, &games, &positions, err, sizeof err));
    CHECK(strstr(err, "not a hnefi training-data file") != NULL);
    /* a damaged position: the king square off the board */
    fd = open(path, O_WRONLY | O_APPEND);
    unsigned char buf[DATAGEN_GAME_HEADER + DATAGEN_RECORD] = {0};
    buf[8] = 1;                          /* one record */
    buf[DATAGEN_GAME_HEADER + 32] = 200; /* king square */
    CHECK(zio_append_frame(fd, buf, sizeof buf, false, err, sizeof err));
    close(fd);
    CHECK(!datagen_read(path, v, NULL, NULL, &games, &positions, err, sizeof err));
    CHECK(strstr(err, "damaged") != NULL);
    free(g);
    tafl_free(t);
}

/* The 1,000 Copenhagen openings load, 40 of each length; bad opening text is refused. */
static void test_openings(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct opening_set set;
    char err[300];
    CHECK(openings_load(&set, v, HNEFI_TEST_DATA "/openings-copenhagen.txt.zst", err, sizeof err));
    CHECK_EQ_INT(set.count, 1000);
    int per_length[32] = {0};
    for (int i = 0; i < set.count; i++)
        if (set.items[i].n < 32) per_length[set.items[i].n]++;
    int ok_lengths = 0;
    for (int n = 2; n <= 26; n++) ok_lengths += per_length[n] == 40;
    CHECK_EQ_INT(ok_lengths, 25);
    CHECK_EQ_INT(set.items[0].n, 2);
    openings_free(&set);
    CHECK(openings_parse(&set, v, "# comment\n\nh1h3 f4c4\n  k5-j5\n", "t", err, sizeof err));
    CHECK_EQ_INT(set.count, 2);
    openings_free(&set);
    CHECK(!openings_parse(&set, v, "h1h3\nh1h3 h1h4\n", "t", err, sizeof err));
    CHECK(strstr(err, "t line 2: ply 2") != NULL);
    CHECK(!openings_parse(&set, v, "# nothing\n", "t", err, sizeof err));
    CHECK(strstr(err, "no opening") != NULL);
    CHECK(!openings_load(&set, v, tmp_path(3, "missing.txt"), err, sizeof err));
    CHECK(strstr(err, "cannot open") != NULL);
    /* the endings for measuring conversion: each a won ending for the attackers, to move */
    CHECK(openings_load(&set, v, HNEFI_TEST_DATA "/endgames-copenhagen.txt.zst", err, sizeof err));
    CHECK_EQ_INT(set.count, 272);
    struct tafl_game *t = tafl_new(v);
    struct position start;
    pos_init_start(&start, v);
    int endings = 0;
    for (int i = 0; i < set.count; i++) {
        tafl_reset(t, &start);
        bool played = true;
        for (int k = 0; k < set.items[i].n && played; k++)
            played = tafl_play(t, set.items[i].moves[k]);
        const struct position *p = tafl_pos(t);
        endings += played && p->side == SIDE_ATTACKERS && p->result == RESULT_NONE &&
                   bb_popcount(p->def) <= 2 && bb_popcount(p->att) >= 12;
    }
    CHECK_EQ_INT(endings, 272);
    tafl_free(t);
    openings_free(&set);
}

/* Random openings: legal, never ending the game, the same for the same seed and index. */
static void test_random_openings(void) {
    const struct variant *v = variant_by_name("brandubh");
    struct opening a, b;
    int differ = 0;
    for (int i = 0; i < 50; i++) {
        CHECK(openings_random(&a, v, 12, 7, (uint64_t)i));
        CHECK(openings_random(&b, v, 12, 7, (uint64_t)i));
        CHECK(a.n == 12 && memcmp(a.moves, b.moves, sizeof a.moves[0] * 12) == 0);
        CHECK(openings_random(&b, v, 12, 8, (uint64_t)i));
        differ += memcmp(a.moves, b.moves, sizeof a.moves[0] * 12) != 0;
        struct tafl_game *t = tafl_new(v);
        char err[100];
        for (int k = 0; k < a.n; k++) {
            CHECK(tafl_move_legal(t, a.moves[k], err, sizeof err));
            tafl_play(t, a.moves[k]);
        }
        CHECK_EQ_INT(t->result, RESULT_NONE);
        tafl_free(t);
    }
    CHECK(differ >= 45);
    CHECK(openings_random(&a, v, 0, 1, 0) && a.n == 0);
}

/* Runs the record, data and opening tests in a scratch directory. */
int main(void) {
    test_berserk_record();
    if (!scratch_make(dir, "records")) return 1;
    test_real_games();
    test_round_trip();
    test_bad_lines();
    test_refusals();
    test_resume_and_damage();
    test_decompression_limit();
    test_datagen();
    test_openings();
    test_random_openings();
    scratch_remove(dir);
    return check_done();
}
