/*
 * The opening book (book/): the key's test vectors (docs/book.md), canonical images and move
 * mapping on random games, counts built from hand-made games (symmetric games merged, a
 * repeated move counted once per game, unfinished games, the ply limit and the game threshold),
 * the file's round trip and every reason a reader refuses a file (leaving the book as it was),
 * the choice of a move in play (legal, never repeating into a loss, best, weighted, depth), the
 * minimax back-up against a brute-force negamax of every line of a small Brandubh tree, an
 * expansion that solves a Brandubh ending checked against the brute force, merging, and lines
 * for tournaments.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/build.h"
#include "book/expand.h"
#include "book/lines.h"
#include "book/zio.h"
#include "check.h"
#include "data_file.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/symmetry.h"
#include "engine/variant_text.h"
#include "search/score.h"

static char dir[64];

/* Returns a path in the test's scratch directory (a static buffer per slot). */
static const char *tmp_path(int slot, const char *name) {
    static char paths[8][160];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

/* Advances a splitmix64 state and returns the next pseudo-random number. */
static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Reads moves ("d2c2 c4c5 ...") from the start of v into moves; returns their number. */
static int parse_line(const struct variant *v, const char *text, move_t *moves) {
    struct tafl_game *t = tafl_new(v);
    char buf[2048], err[200], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        if (!CHECK(tafl_play_text(t, m, err, sizeof err))) fprintf(stderr, "    %s: %s\n", m, err);
        moves[n++] = t->moves[t->n - 1];
    }
    tafl_free(t);
    return n;
}

/* Returns the position after the moves of text from v's start. */
static struct position after(const struct variant *v, const char *text) {
    move_t moves[256];
    int n = parse_line(v, text, moves);
    struct position p, q;
    pos_init_start(&p, v);
    for (int i = 0; i < n; i++) {
        make_move(&q, &p, moves[i]);
        p = q;
    }
    return p;
}

/* Returns the move of text in position p. */
static move_t move_of(const struct position *p, const char *text) {
    move_t m = MOVE_NONE;
    char err[200];
    CHECK(move_parse_legal(p, text, &m, err, sizeof err));
    return m;
}

/* The key is FNV-1a 64 over the documented bytes: the vectors of docs/book.md. */
static void test_key_vectors(void) {
    CHECK_EQ_U64(book_fnv(BOOK_FNV_BASIS, "", 0), 0xcbf29ce484222325ULL);
    CHECK_EQ_U64(book_fnv(BOOK_FNV_BASIS, "a", 1), 0xaf63dc4c8601ec8cULL);
    const struct variant *cph = variant_by_name("copenhagen"), *bd = variant_by_name("brandubh");
    struct position p;
    struct book_canon c;
    pos_init_start(&p, cph);
    CHECK_EQ_U64(book_key_plain(&p), 0x24c43ca6f624dab7ULL);
    book_canon(&p, SYM_ALL, &c);
    CHECK_EQ_U64(c.key, 0x24c43ca6f624dab7ULL);
    CHECK_EQ_INT(c.stab, SYM_ALL); /* the start maps onto itself under all 8 */
    pos_init_start(&p, bd);
    CHECK_EQ_U64(book_key_plain(&p), 0xf5d590b7e1d8fcebULL);
    p = after(bd, "d2c2");
    CHECK_EQ_U64(book_key_plain(&p), 0xe7a5d513db80a464ULL);
    book_canon(&p, SYM_ALL, &c);
    CHECK_EQ_U64(c.key, 0x0a8e1c7291ee8110ULL);
    CHECK_EQ_INT(c.sym, 5);
    CHECK_EQ_INT(c.stab, 1);
    /* the bytes themselves, for a third party's check: size, side, then the squares */
    uint8_t bytes[2 + 49] = {7, 0};
    const char *rows[7] = {"3a3", "3a3", "3d3", "aadkdaa", "3d3", "3a3", "3a3"};
    for (int r = 0; r < 7; r++) {
        int f = 0;
        for (const char *ch = rows[6 - r]; *ch; ch++) {
            if (*ch >= '1' && *ch <= '9') {
                f += *ch - '0';
                continue;
            }
            bytes[2 + r * 7 + f++] = *ch == 'a' ? 1 : *ch == 'd' ? 2 : 3;
        }
    }
    CHECK_EQ_U64(book_fnv(BOOK_FNV_BASIS, bytes, sizeof bytes), 0xf5d590b7e1d8fcebULL);
}

/* Plays random games of v (6, up to 60 plies): every image of a position has its key, and moves
   map back equivalently. Returns the moves checked. */
static long canon_moves_of(const struct variant *v, uint64_t *s) {
    long checked = 0;
    for (int g = 0; g < 6; g++) {
        struct position p;
        pos_init_start(&p, v);
        for (int ply = 0; ply < 60 && p.result == RESULT_NONE; ply++) {
            move_t moves[MAX_MOVES];
            int n = movegen_list(&p, moves);
            if (n == 0) break;
            struct book_canon c;
            book_canon(&p, SYM_ALL, &c);
            int k = (int)(rnd(s) % SYM_NB);
            struct position q;
            sym_position(k, &p, &q);
            struct book_canon cq;
            book_canon(&q, SYM_ALL, &cq);
            CHECK_EQ_U64(cq.key, c.key);
            CHECK_EQ_INT(cq.stab, c.stab);
            for (int i = 0; i < n; i++) {
                /* m in p, as a book move, played in the image q: the same book position */
                move_t bm = book_move_to_book(&c, moves[i]);
                move_t mq = book_move_from_book(&cq, bm);
                if (!CHECK(movegen_is_legal(&q, mq))) continue;
                struct position a, b;
                struct book_canon ca, cb;
                make_move(&a, &p, moves[i]);
                make_move(&b, &q, mq);
                book_canon(&a, SYM_ALL, &ca);
                book_canon(&b, SYM_ALL, &cb);
                CHECK_EQ_U64(ca.key, cb.key);
                CHECK_EQ_INT(book_move_to_book(&cq, mq), bm);
                checked++;
            }
            struct position next;
            make_move(&next, &p, moves[rnd(s) % (uint64_t)n]);
            p = next;
        }
    }
    return checked;
}

/* Reads OpenTafl variant n (tests/data) into v; false if it is not there. */
static bool opentafl_variant(int n, struct variant *v) {
    char rules[4096], err[200];
    return data_opentafl_rules(n, rules, sizeof rules) &&
           opentafl_read_rules(v, rules, err, sizeof err);
}

/* On random games of every built-in variant and Berserk, images and moves map back equivalently. */
static void test_canon_moves(void) {
    uint64_t s = 11;
    long checked = 0;
    for (int vi = 0; variant_builtin(vi); vi++) checked += canon_moves_of(variant_builtin(vi), &s);
    CHECK(checked > 10000);
    /* Berserk: commanders, a knight and berserkers map with the squares */
    struct variant berserk;
    if (CHECK(opentafl_variant(5, &berserk))) CHECK(canon_moves_of(&berserk, &s) > 2000);
}

/* Returns the book move of the position after line (in v) for the move text, or NULL. */
static const struct book_move *book_entry(const struct book *b, const char *line,
                                          const char *move) {
    struct position p = after(&b->variant, line);
    struct book_hit hit;
    int n = book_probe(b, &p, &hit);
    move_t m = move_of(&p, move);
    struct book_canon c;
    book_canon_of(b, &p, &c);
    for (int i = 0; i < n; i++)
        if (hit.info[i]->move == book_move_to_book(&c, m)) return hit.info[i];
    return NULL;
}

/* Counts from hand-made Brandubh games: symmetric games merge, a repeated move counts once. */
static void test_build_counts(void) {
    const struct variant *v = variant_by_name("brandubh");
    static const struct {
        const char *moves;
        int result;
    } games[] = {
        {"d2c2 d3f3 c2c1", RESULT_ATTACKERS},
        {"d2c2 d3f3 d1e1", RESULT_DRAW},
        {"d2e2 d3b3 e2e1", RESULT_DEFENDERS}, /* the first game with the files mirrored */
        {"d6c6 d5f5", RESULT_DEFENDERS},      /* the first game's first plies, ranks mirrored */
        {"d1c1", RESULT_NONE},                /* unfinished */
        /* the start comes back, so d2c2 is played from it twice: counted once */
        {"d2c2 c4c5 c2d2 c5c4 d2c2 c4c5", RESULT_ATTACKERS},
    };
    struct book_builder bb;
    CHECK(book_builder_init(&bb, v));
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        move_t moves[64];
        int n = parse_line(v, games[i].moves, moves);
        CHECK_EQ_INT(book_builder_add_game(&bb, moves, n, games[i].result, 0), n);
    }
    struct book b;
    memset(&b, 0, sizeof b);
    char err[300];
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err));
    CHECK_EQ_U64(b.games, 6);
    const struct book_move *m = book_entry(&b, "", "d2c2");
    if (CHECK(m)) {
        CHECK_EQ_INT(m->games, 5); /* d2c2, d2e2, d6c6 are one move of the start */
        CHECK_EQ_INT(m->attacker_wins, 2);
        CHECK_EQ_INT(m->defender_wins, 2);
        CHECK_EQ_INT(m->draws, 1);
        CHECK_EQ_INT(m->depth, 0);
    }
    CHECK(book_entry(&b, "", "d6e6") == m); /* any image finds the same move */
    m = book_entry(&b, "", "d1c1");
    if (CHECK(m)) CHECK(m->games == 1 && m->attacker_wins + m->defender_wins + m->draws == 0);
    m = book_entry(&b, "d2c2", "d3f3");
    if (CHECK(m)) CHECK(m->games == 4 && m->attacker_wins == 1 && m->defender_wins == 2);
    m = book_entry(&b, "d2e2", "d3b3"); /* the mirrored position, the mirrored move */
    if (CHECK(m)) CHECK_EQ_INT(m->games, 4);
    m = book_entry(&b, "d2c2 d3f3", "c2c1"); /* with e2e1 of the mirrored game */
    if (CHECK(m)) CHECK(m->games == 2 && m->attacker_wins == 1 && m->defender_wins == 1);
    m = book_entry(&b, "d2c2 d3f3", "d1e1");
    if (CHECK(m)) CHECK(m->games == 1 && m->draws == 1);
    m = book_entry(&b, "d2e2 d3b3", "e2e1"); /* = c2c1 mirrored */
    if (CHECK(m)) CHECK_EQ_INT(m->games, 2);
    m = book_entry(&b, "d2c2", "c4c5");
    if (CHECK(m)) CHECK_EQ_INT(m->games, 1); /* played twice in one game */
    /* the probe's moves are moves of the probed orientation */
    struct position p = after(v, "d2e2");
    struct book_hit hit;
    CHECK_EQ_INT(book_probe(&b, &p, &hit), 2);
    bool found = false;
    for (int i = 0; i < hit.n; i++) found |= hit.moves[i] == move_of(&p, "d3b3");
    CHECK(found);
    book_free(&b);
    book_builder_free(&bb);
    /* the ply limit and the threshold */
    CHECK(book_builder_init(&bb, v));
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        move_t moves[64];
        int n = parse_line(v, games[i].moves, moves);
        CHECK_EQ_INT(book_builder_add_game(&bb, moves, n, games[i].result, 1), 1);
    }
    CHECK(book_builder_finish(&bb, 2, &b, err, sizeof err));
    CHECK_EQ_INT(b.npos, 1);
    CHECK_EQ_INT(b.nmoves, 1); /* d1c1 has one game */
    CHECK(!book_builder_finish(&bb, 100, &b, err, sizeof err));
    CHECK(strstr(err, "no position has a move with at least 100 games"));
    CHECK_EQ_INT(b.npos, 1); /* a failed finish leaves the book it was given */
    book_free(&b);
    book_builder_free(&bb);
    /* a game the book's rules end sooner counts up to there: a king captured at once */
    CHECK(book_builder_init(&bb, v));
    move_t bad[2] = {move_make(3, 10), move_make(3, 10)}; /* d1d2, then the same again */
    CHECK_EQ_INT(book_builder_add_game(&bb, bad, 2, RESULT_DRAW, 0), 0);
    book_builder_free(&bb);
}

/* Makes a small Brandubh book from the real games, saved at path. */
static bool small_book(struct book *b, const char *path, int plies) {
    const struct variant *v = variant_by_name("brandubh");
    struct book_builder bb;
    if (!book_builder_init(&bb, v)) return false;
    const char *lines[] = {"d2c2 d3f3 c2c1 f3f2", "d2c2 c4c5 c2c3", "d1c1 d3f3",
                           "d6e6 d5f5 e6e7 f5f6", "b4b2 c4c5 b2c2"};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
            move_t moves[64];
            int n = parse_line(v, lines[i], moves);
            book_builder_add_game(&bb, moves, n < plies ? n : plies, (int)(1 + (i + k) % 3), 0);
        }
    char err[300];
    memset(b, 0, sizeof *b);
    bool ok = book_builder_finish(&bb, 1, b, err, sizeof err) &&
              (!path || book_save(b, path, 19, err, sizeof err));
    if (!ok) fprintf(stderr, "    %s\n", err);
    book_builder_free(&bb);
    return ok;
}

/* Tells whether two book moves are the same, field by field (the wide build's have padding). */
static bool same_move(const struct book_move *a, const struct book_move *b) {
    return a->move == b->move && a->weight == b->weight && a->games == b->games &&
           a->attacker_wins == b->attacker_wins && a->defender_wins == b->defender_wins &&
           a->draws == b->draws && a->score == b->score && a->depth == b->depth &&
           a->flags == b->flags;
}

/* Tells whether two books hold the same rules, positions and moves. */
static bool same_book(const struct book *a, const struct book *b) {
    bool same = a->npos == b->npos && a->nmoves == b->nmoves && a->size == b->size &&
                a->syms == b->syms && a->games == b->games && strcmp(a->rules, b->rules) == 0 &&
                strcmp(a->name, b->name) == 0 && strcmp(a->opentafl, b->opentafl) == 0 &&
                memcmp(a->pos, b->pos, a->npos * sizeof *a->pos) == 0;
    for (size_t i = 0; same && i < a->nmoves; i++) same = same_move(&a->moves[i], &b->moves[i]);
    return same;
}

/* Writes bytes to a file. */
static void write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, len, f);
    fclose(f);
}

/* Writing and reading give the same book; encoding is deterministic. */
static void test_round_trip(void) {
    struct book b, r;
    memset(&r, 0, sizeof r);
    if (!CHECK(small_book(&b, tmp_path(0, "small.book"), 99))) return;
    char err[400];
    CHECK(book_load(&r, tmp_path(0, "small.book"), err, sizeof err));
    CHECK(same_book(&b, &r));
    size_t l1, l2;
    uint8_t *e1 = book_encode(&b, 19, &l1, err, sizeof err),
            *e2 = book_encode(&r, 19, &l2, err, sizeof err);
    CHECK(e1 && e2 && l1 == l2 && memcmp(e1, e2, l1) == 0);
    CHECK(r.body_hash != 0);
    CHECK_EQ_INT(r.syms, SYM_ALL);
    /* the rules rebuild the variant exactly */
    char why[300];
    CHECK(book_fits(&r, variant_by_name("brandubh"), why, sizeof why));
    CHECK_EQ_INT(sym_variant_allows(&r.variant), SYM_ALL);
    free(e1);
    free(e2);
    book_free(&b);
    book_free(&r);
}

/* Checks that reading bytes fails naming want, and leaves the book unchanged. */
static void refused(const uint8_t *data, size_t len, const char *want, int line) {
    struct book b, before;
    small_book(&b, NULL, 2);
    before = b;
    char err[500] = "";
    const char *path = tmp_path(1, "bad.book");
    write_file(path, data, len);
    bool ok = book_load(&b, path, err, sizeof err);
    if (!check_record(!ok && strstr(err, want) && strstr(err, path), __FILE__, line, want))
        fprintf(stderr, "    got: %s\n", ok ? "(accepted)" : err);
    check_record(b.pos == before.pos && b.npos == before.npos, __FILE__, line, "unchanged");
    book_free(&b);
}

/* Re-encodes a book file with its header changed by fix (its checksum made right if rehash). */
static uint8_t *reencode(const uint8_t *file, size_t len, size_t (*fix)(uint8_t *h, size_t hl),
                         bool rehash, size_t *outlen) {
    size_t pos = 0, hl, bl;
    char *h, *body, err[300];
    zio_next_frame(file, len, &pos, &h, &hl, err, sizeof err);
    zio_next_frame(file, len, &pos, &body, &bl, err, sizeof err);
    hl = fix((uint8_t *)h, hl);
    if (rehash) {
        uint64_t v = book_fnv(BOOK_FNV_BASIS, h, hl - 8);
        for (int i = 0; i < 8; i++) h[hl - 8 + i] = (char)(v >> (8 * i));
    }
    size_t f1, f2;
    uint8_t *a = zio_compress(h, hl, 3, &f1, err, sizeof err),
            *b = zio_compress(body, bl, 3, &f2, err, sizeof err);
    uint8_t *out = malloc(f1 + f2);
    memcpy(out, a, f1);
    memcpy(out + f1, b, f2);
    *outlen = f1 + f2;
    free(a);
    free(b);
    free(h);
    free(body);
    return out;
}

/* Sets the format version to 2. */
static size_t set_version_2(uint8_t *h, size_t hl) {
    h[8] = 2;
    return hl;
}
/* Sets the format version to 3, which no hnefi writes. */
static size_t set_version_3(uint8_t *h, size_t hl) {
    h[8] = 3;
    return hl;
}
/* Changes the games count (the header's checksum then fails). */
static size_t flip_games(uint8_t *h, size_t hl) {
    h[48] ^= 1;
    return hl;
}
/* Spoils the magic. */
static size_t bad_magic(uint8_t *h, size_t hl) {
    h[0] = 'X';
    return hl;
}
/* Changes the body's checksum. */
static size_t body_hash_off(uint8_t *h, size_t hl) {
    h[40] ^= 1;
    return hl;
}
/* Says there are no positions. */
static size_t zero_positions(uint8_t *h, size_t hl) {
    memset(h + 24, 0, 8);
    return hl;
}
/* Says the board is 9x9. */
static size_t size_9(uint8_t *h, size_t hl) {
    h[16] = 9;
    return hl;
}

/* Finds the bytes s (of length n) in h; NULL if they are not there. */
static uint8_t *find_bytes(uint8_t *h, size_t hl, const char *s, size_t n) {
    for (size_t i = 0; i + n <= hl; i++)
        if (memcmp(h + i, s, n) == 0) return h + i;
    return NULL;
}
/* Drops a whole line (with its '\n') from a Brandubh book's rules text, fixing the lengths. */
static size_t drop_rules_line(uint8_t *h, size_t hl, const char *text) {
    size_t k = strlen(text);
    uint8_t *rules = find_bytes(h, hl, "size 7\n", 7), *line = find_bytes(h, hl, text, k);
    if (!rules || !line) return hl;
    size_t n = (size_t)rules[-2] | (size_t)rules[-1] << 8;
    rules[-2] = (uint8_t)(n - k);
    rules[-1] = (uint8_t)((n - k) >> 8);
    memmove(line, line + k, hl - (size_t)(line + k - h));
    h[12] = (uint8_t)(hl - k); /* the header's own length, 4 bytes at 12 */
    h[13] = (uint8_t)((hl - k) >> 8);
    return hl - k;
}
/* Drops the line "centre yes", as a book of an older hnefi has it. */
static size_t drop_centre(uint8_t *h, size_t hl) {
    return drop_rules_line(h, hl, "centre yes\n");
}
/* Drops the lines of the jump and berserk options, as a book from before Berserk has them. */
static size_t drop_berserk_options(uint8_t *h, size_t hl) {
    static const char *const lines[] = {"king_jump none\n", "knight_jump none\n",
                                        "commander_jump none\n", "berserk none\n"};
    for (int i = 0; i < 4; i++) {
        size_t before = hl;
        hl = drop_rules_line(h, hl, lines[i]);
        CHECK(hl == before - strlen(lines[i])); /* the line was there */
    }
    return hl;
}
/* Drops the line of king_capture, an option every book names. */
static size_t drop_king_capture(uint8_t *h, size_t hl) {
    return drop_rules_line(h, hl, "king_capture throne_four\n");
}
/* Names an option this hnefi does not know in the rules text. */
static size_t unknown_option(uint8_t *h, size_t hl) {
    uint8_t *line = find_bytes(h, hl, "centre yes\n", 11);
    if (line) memcpy(line, "centrx", 6);
    return hl;
}

/* Every reason a reader refuses a file, each named with the file. */
static void test_errors(void) {
    struct book b;
    char err[500];
    memset(&b, 0, sizeof b);
    CHECK(!book_load(&b, tmp_path(2, "missing.book"), err, sizeof err));
    CHECK(strstr(err, "cannot open") && strstr(err, "missing.book"));
    CHECK(!book_load(&b, dir, err, sizeof err));
    CHECK(strstr(err, "not a regular file"));
    /* a score beyond a forced result's ±30000 is damage */
    if (CHECK(small_book(&b, NULL, 99))) {
        b.moves[0].score = -32768;
        b.moves[0].depth = 5;
        CHECK(book_save(&b, tmp_path(1, "score.book"), 19, err, sizeof err));
        book_free(&b);
        memset(&b, 0, sizeof b);
        CHECK(!book_load(&b, tmp_path(1, "score.book"), err, sizeof err) &&
              strstr(err, "damaged: move 0 of position 0"));
    }
    if (!CHECK(small_book(&b, tmp_path(0, "small.book"), 99))) return;
    size_t len;
    char *file = zio_read_file(tmp_path(0, "small.book"), &len, err, sizeof err);
    book_free(&b);
    if (!CHECK(file)) return;
    const uint8_t *f = (const uint8_t *)file;
    refused(f, 0, "empty file", __LINE__);
    refused((const uint8_t *)"hello, world\n", 13, "not a hnefi book (not zstd data", __LINE__);
    size_t pos = 0, hl, first_frame;
    char *h;
    zio_next_frame(f, len, &pos, &h, &hl, err, sizeof err);
    first_frame = pos;
    refused(f, 3, "truncated", __LINE__);
    refused(f, first_frame / 2, "truncated", __LINE__);
    refused(f, first_frame, "truncated: the header is whole, the positions are missing", __LINE__);
    refused(f, first_frame + 9, "truncated", __LINE__);
    refused(f, len - 1, "truncated", __LINE__);
    /* zero bytes left by a lost write look truncated too; garbage after the book is damage */
    uint8_t *more = malloc(len + 16);
    memcpy(more, f, len);
    memset(more + len, 0xAB, 16);
    refused(more, len + 16, "damaged", __LINE__);
    /* a byte flipped inside the compressed body: zstd's checksum or its decoder fails */
    memcpy(more, f, len);
    more[len - 6] ^= 0x40;
    refused(more, len, "damaged", __LINE__);
    free(more);
    size_t n;
    uint8_t *x = reencode(f, len, set_version_2, true, &n);
    refused(x, n, "damaged: format version 2 on a 7x7 board", __LINE__);
    free(x);
    x = reencode(f, len, set_version_3, true, &n);
    refused(x, n, "book format version 3; this hnefi reads versions 1 and 2", __LINE__);
    free(x);
    x = reencode(f, len, flip_games, false, &n);
    refused(x, n, "damaged: the header's checksum does not match", __LINE__);
    free(x);
    x = reencode(f, len, bad_magic, true, &n);
    refused(x, n, "not a hnefi book (no HNEFIBOK magic)", __LINE__);
    free(x);
    x = reencode(f, len, body_hash_off, true, &n);
    refused(x, n, "damaged: the positions' checksum does not match the header", __LINE__);
    free(x);
    x = reencode(f, len, zero_positions, true, &n);
    refused(x, n, "the book holds no positions", __LINE__);
    free(x);
    x = reencode(f, len, size_9, true, &n);
    refused(x, n, "damaged: board size 9, its rules say 7", __LINE__);
    free(x);
    x = reencode(f, len, unknown_option, true, &n);
    refused(x, n, "the book's rules cannot be played: its rules: ", __LINE__);
    free(x);
    x = reencode(f, len, drop_king_capture, true, &n);
    refused(x, n, "the book's rules cannot be played: its rules do not name king_capture",
            __LINE__);
    free(x);
    /* a book from before an option existed reads as that option's default, hnefi's old rule */
    x = reencode(f, len, drop_centre, true, &n);
    write_file(tmp_path(1, "old.book"), x, n);
    free(x);
    memset(&b, 0, sizeof b);
    char why_old[300];
    bool old_ok = book_load(&b, tmp_path(1, "old.book"), err, sizeof err);
    if (!old_ok) fprintf(stderr, "    old book: %s\n", err);
    if (CHECK(old_ok)) {
        CHECK(book_fits(&b, variant_by_name("brandubh"), why_old, sizeof why_old));
        CHECK(strstr(b.rules, "centre yes\n"));
        book_free(&b);
    }
    x = reencode(f, len, drop_berserk_options, true, &n);
    write_file(tmp_path(1, "old2.book"), x, n);
    free(x);
    old_ok = book_load(&b, tmp_path(1, "old2.book"), err, sizeof err);
    if (!old_ok) fprintf(stderr, "    book without the berserk options: %s\n", err);
    if (CHECK(old_ok)) {
        CHECK(book_fits(&b, variant_by_name("brandubh"), why_old, sizeof why_old));
        CHECK(strstr(b.rules, "berserk none\n"));
        book_free(&b);
    }
    /* a raw (decompressed) book is named as such */
    uint8_t raw[16] = "HNEFIBOK";
    refused(raw, sizeof raw, "decompressed?", __LINE__);
    free(h);
    free(file);
    /* a book for other rules is read, but does not fit, naming the difference */
    CHECK(book_load(&b, tmp_path(0, "small.book"), err, sizeof err));
    char why[300];
    CHECK(!book_fits(&b, variant_by_name("copenhagen"), why, sizeof why));
    CHECK(strstr(why, "the book is for brandubh with size 7, the rules in play have size 11"));
    struct variant v = *variant_by_name("brandubh");
    CHECK(variant_set_option(&v, "repetition", "draw", err, sizeof err));
    CHECK(!book_fits(&b, &v, why, sizeof why));
    CHECK(strstr(why, "with repetition loss_defenders, the rules in play have repetition draw"));
    /* the same rules under another name fit */
    snprintf(v.name, sizeof v.name, "my-brandubh");
    v.repetition = REP_LOSS_DEFENDERS;
    CHECK(book_fits(&b, &v, why, sizeof why));
    book_free(&b);
}

/* Book moves in play: legal only, never into a repetition loss, best or weighted, depth. */
static void test_choose(void) {
    const struct variant *v = variant_by_name("brandubh");
    struct book_builder bb;
    CHECK(book_builder_init(&bb, v));
    struct tafl_game *t = tafl_new(v);
    /* the defenders' c5c4 here would bring the start back a third time: attackers win */
    const char *line = "d2c2 c4c5 c2d2 c5c4 d2c2 c4c5 c2d2";
    move_t moves[16];
    int n = parse_line(v, line, moves);
    for (int i = 0; i < n; i++) tafl_play(t, moves[i]);
    struct book_canon c;
    book_canon(tafl_pos(t), bb.syms, &c);
    struct book_node *node = book_builder_node(&bb, c.key, SIDE_DEFENDERS, true);
    struct book_move *trap =
        book_builder_move(node, book_move_to_book(&c, move_of(tafl_pos(t), "c5c4")), true);
    trap->score = 500;
    trap->depth = 10;
    struct book_move *ok =
        book_builder_move(node, book_move_to_book(&c, move_of(tafl_pos(t), "c5c6")), true);
    ok->score = -50;
    ok->depth = 10;
    node->flags |= BOOK_POS_SEARCHED;
    /* an illegal move (from an empty square) with the best score of all */
    struct book_move *bad = book_builder_move(node, move_make(0, 1), true);
    bad->score = 900;
    bad->depth = 10;
    struct book b;
    memset(&b, 0, sizeof b);
    char err[300];
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err));
    CHECK(book_repetition_trap(t, move_of(tafl_pos(t), "c5c4")));
    CHECK(!book_repetition_trap(t, move_of(tafl_pos(t), "c5c6")));
    struct book_play play = {.variety = BOOK_BEST};
    const struct book_move *info;
    move_t m = book_choose(&b, t, &play, 0, &info);
    CHECK_EQ_INT(m, move_of(tafl_pos(t), "c5c6"));
    play.variety = BOOK_WEIGHTED;
    for (uint64_t d = 0; d < 50; d++) CHECK_EQ_INT(book_choose(&b, t, &play, d * 7919, NULL), m);
    play.max_ply = n; /* the game has n plies: the book is done */
    CHECK_EQ_INT(book_choose(&b, t, &play, 0, NULL), MOVE_NONE);
    play.max_ply = n + 1;
    CHECK_EQ_INT(book_choose(&b, t, &play, 0, NULL), m);
    /* other rules: no book move */
    struct variant other = *v;
    other.repetition = REP_DRAW;
    struct tafl_game *t2 = tafl_new(&other);
    CHECK_EQ_INT(book_choose(&b, t2, &play, 0, NULL), MOVE_NONE);
    tafl_free(t2);
    book_free(&b);
    book_builder_free(&bb);
    /* weighted choices follow the weights: two moves of the start, 3:1 by games */
    CHECK(book_builder_init(&bb, v));
    move_t one[1];
    for (int k = 0; k < 8; k++) {
        parse_line(v, k < 6 ? "d2c2" : "d1c1", one);
        book_builder_add_game(&bb, one, 1, RESULT_NONE, 0);
    }
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err));
    struct tafl_game *s = tafl_new(v);
    int count[2] = {0, 0};
    uint64_t seed = 3;
    move_t d2c2 = move_of(tafl_pos(s), "d2c2"), d1c1 = move_of(tafl_pos(s), "d1c1");
    for (int k = 0; k < 4000; k++) {
        move_t c2 = book_choose(&b, s, &play, rnd(&seed), NULL);
        struct book_canon cs;
        book_canon(tafl_pos(s), b.syms, &cs);
        move_t bm = book_move_to_book(&cs, c2);
        count[0] += bm == book_move_to_book(&cs, d2c2);
        count[1] += bm == book_move_to_book(&cs, d1c1);
    }
    CHECK_EQ_INT(count[0] + count[1], 4000);
    /* weights 100 * (0 + 1) * g / (g + 2): 75 and 50 */
    CHECK(count[0] > 2200 && count[0] < 2600);
    play.variety = BOOK_BEST;
    CHECK_EQ_INT(book_move_to_book(&c, book_choose(&b, s, &play, 0, NULL)),
                 book_move_to_book(&c, d2c2));
    tafl_free(s);
    tafl_free(t);
    book_free(&b);
    book_builder_free(&bb);
}

/* The symmetric Brandubh ending of the back-up tests: the king on the throne, an attacker two
   squares away on each side; the defenders escape in 5 plies. */
#define ENDING "7/3a3/7/1a1k1a1/7/3a3/7 d"

/* Returns Brandubh with the ending as its start position. */
static struct variant ending_variant(void) {
    struct variant v = *variant_by_name("brandubh");
    snprintf(v.name, sizeof v.name, "brandubh-ending");
    fen_read_start(&v, ENDING, NULL, 0);
    return v;
}

/* A leaf's value for the side to move: the same for every image of the position. */
static int leaf_value(const struct position *p) {
    struct book_canon c;
    book_canon(p, SYM_ALL, &c);
    return (int)(c.key % 201) - 100;
}

/* Brute-force negamax to depth plies: forced results at their distance, leaves by leaf_value. */
static int negamax(const struct position *p, int depth, int ply, long *nodes) {
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves), best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        struct position c;
        make_move(&c, p, moves[i]);
        ++*nodes;
        int v;
        int sign = c.side == p->side ? 1 : -1; /* a berserk turn: the same side again */
        if (c.result != RESULT_NONE)
            v = c.result == RESULT_DRAW ? 0
                : (c.result == RESULT_ATTACKERS) == (p->side == SIDE_ATTACKERS)
                    ? SCORE_WIN - (ply + 1)
                    : -(SCORE_WIN - (ply + 1));
        else if (depth == 1)
            v = sign * leaf_value(&c);
        else
            v = sign * negamax(&c, depth - 1, ply + 1, nodes);
        if (v > best) best = v;
    }
    return best;
}

/* Puts every position of the tree of depth plies below p into the book as searched; counts
   those in a berserk turn. */
static void fill_tree(struct book_builder *bb, const struct position *p, int depth, long *berserk) {
    struct book_canon c;
    *berserk += pos_berserker(p) >= 0;
    book_canon(p, bb->syms, &c);
    struct book_node *node = book_builder_node(bb, c.key, p->side, true);
    node->flags |= BOOK_POS_SEARCHED;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        struct position ch;
        make_move(&ch, p, moves[i]);
        struct book_move *m = book_builder_move(node, book_move_to_book(&c, moves[i]), true);
        if (ch.result != RESULT_NONE) continue; /* the back-up scores the end itself */
        if (depth == 1) {
            /* as a search would have scored it */
            m->score = (int16_t)(ch.side == p->side ? leaf_value(&ch) : -leaf_value(&ch));
            m->depth = 1;
        } else {
            fill_tree(bb, &ch, depth - 1, berserk);
        }
    }
}

/* Checks the back-up's value of every position of the tree against the brute force. */
static void check_tree(struct book_builder *bb, const struct position *p, int depth, long *count) {
    struct book_canon c;
    book_canon(p, bb->syms, &c);
    struct book_node *node = book_builder_node(bb, c.key, p->side, false);
    long nodes = 0;
    if (!CHECK(node && node->has_value)) return;
    int want = negamax(p, depth, 0, &nodes);
    CHECK_EQ_INT(node->value, want);
    (*count)++;
    if (node->value != want || depth == 1) return;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        struct position ch;
        make_move(&ch, p, moves[i]);
        if (ch.result != RESULT_NONE) continue;
        /* each move's backed-up score (a wrong sign need not change the best move's value) */
        struct book_move *m = book_builder_move(node, book_move_to_book(&c, moves[i]), false);
        int sign = ch.side == p->side ? 1 : -1;
        if (CHECK(m)) CHECK_EQ_INT(m->score, sign * negamax(&ch, depth - 1, 1, &nodes));
        check_tree(bb, &ch, depth - 1, count);
    }
}

/* The minimax back-up equals a brute-force negamax on every position of a small tree. */
static void test_backup(void) {
    struct variant v = ending_variant();
    CHECK_EQ_INT(sym_variant_allows(&v), SYM_ALL);
    struct book_builder bb;
    CHECK(book_builder_init(&bb, &v));
    struct position start;
    pos_init_start(&start, &v);
    enum { DEPTH = 3 };
    long checked = 0, nodes = 0, berserk = 0;
    fill_tree(&bb, &start, DEPTH, &berserk);
    book_builder_backup(&bb);
    check_tree(&bb, &start, DEPTH, &checked);
    CHECK(checked > 20);
    /* the brute force at 5 plies: the defenders escape in 5 */
    CHECK_EQ_INT(negamax(&start, 5, 0, &nodes), SCORE_WIN - 5);
    book_builder_free(&bb);
    /* with berserk turns (a capture by a commander or the king's side moves again) and
       commanders in the position and the key: the same agreement */
    struct variant bv = *variant_by_name("brandubh");
    char err[200];
    snprintf(bv.name, sizeof bv.name, "brandubh-berserk");
    CHECK(variant_set_option(&bv, "berserk", "capture", err, sizeof err));
    CHECK(fen_read_start(&bv, "7/3da2/7/ad1k1c1/3a3/2c4/7 a", err, sizeof err));
    CHECK(book_builder_init(&bb, &bv));
    pos_init_start(&start, &bv);
    checked = berserk = 0;
    fill_tree(&bb, &start, DEPTH, &berserk);
    book_builder_backup(&bb);
    check_tree(&bb, &start, DEPTH, &checked);
    CHECK(checked > 20);
    CHECK(berserk > 0);
    book_builder_free(&bb);
}

/* An expansion from the ending, with searches too small to see the escape, solves it. */
static void test_expand_solves(void) {
    struct variant v = ending_variant();
    struct book_builder bb;
    CHECK(book_builder_init(&bb, &v));
    move_t m[1];
    struct position start;
    pos_init_start(&start, &v);
    m[0] = move_of(&start, "d4c4");
    CHECK_EQ_INT(book_builder_add_game(&bb, m, 1, RESULT_NONE, 0), 1);
    struct book b;
    memset(&b, 0, sizeof b);
    char err[600], note[600];
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err));
    const char *path = tmp_path(3, "ending.book");
    CHECK(book_save(&b, path, 3, err, sizeof err));
    book_free(&b);
    book_builder_free(&bb);
    struct book_expand_config cfg;
    book_expand_default(&cfg);
    cfg.nodes = 40; /* a ply or two: the search alone does not see an escape in 5 */
    cfg.positions = 400;
    cfg.width = 8;
    cfg.ply_cost = 0;
    cfg.threads = 1;
    struct book_expand_status st;
    if (!CHECK(book_expand(path, &cfg, &st, note, sizeof note, err, sizeof err)))
        fprintf(stderr, "    %s\n", err);
    CHECK(st.root_known);
    long nodes = 0;
    int exact = negamax(&start, 5, 0, &nodes);
    CHECK_EQ_INT(st.root_value, exact);
    CHECK(book_load(&b, path, err, sizeof err));
    CHECK(st.done > 1); /* solved by the back-up over several positions */
    printf("the expansion solved the ending with %d searched positions, %zu in the book\n", st.done,
           st.positions);
    /* every book move with a forced score agrees with the brute force at its distance */
    struct book_hit hit;
    int n = book_probe(&b, &start, &hit);
    bool best_found = false;
    for (int i = 0; i < n; i++) {
        const struct book_move *bm = hit.info[i];
        int plies;
        if (!bm->depth || !score_is_win(bm->score, &plies)) continue;
        struct position c;
        make_move(&c, &start, hit.moves[i]);
        long k = 0;
        int child =
            c.result != RESULT_NONE ? 0 : -negamax(&c, plies - 1 > 0 ? plies - 1 : 1, 1, &k);
        if (bm->score > 0) CHECK(child >= SCORE_WIN - plies); /* the win is really there */
        best_found |= bm->score == exact;
    }
    CHECK(best_found);
    book_free(&b);
    /* a journal of another run, left behind, is refused; the book stays */
    char jpath[200];
    book_journal_path(path, jpath, sizeof jpath);
    write_file(jpath, "nonsense", 8);
    CHECK(!book_expand(path, &cfg, &st, note, sizeof note, err, sizeof err));
    CHECK(strstr(err, "is not a book journal"));
    unlink(jpath);
}

/* Merging sums counts and keeps the deeper score; lines walk the book. */
static void test_merge_and_lines(void) {
    struct book a, b;
    if (!CHECK(small_book(&a, NULL, 99)) || !CHECK(small_book(&b, NULL, 2))) return;
    struct book_builder bb;
    char err[300];
    CHECK(book_builder_init(&bb, &a.variant));
    CHECK(book_builder_add_book(&bb, &a, err, sizeof err));
    CHECK(book_builder_add_book(&bb, &b, err, sizeof err));
    struct book m;
    memset(&m, 0, sizeof m);
    CHECK(book_builder_finish(&bb, 1, &m, err, sizeof err));
    CHECK_EQ_U64(m.games, a.games + b.games);
    const struct book_move *x = book_entry(&m, "", "d2c2"), *y = book_entry(&a, "", "d2c2"),
                           *z = book_entry(&b, "", "d2c2");
    if (CHECK(x && y && z)) CHECK_EQ_INT(x->games, y->games + z->games);
    CHECK_EQ_INT(m.npos, a.npos);
    book_builder_free(&bb);
    struct book_lines_config cfg = {.plies = 2, .count = 100, .margin = 50, .max_nodes = 100000};
    struct book_line *lines;
    int n;
    size_t visited;
    bool capped;
    CHECK(book_lines(&m, &cfg, &lines, &n, &visited, &capped, err, sizeof err));
    CHECK(n >= 3 && !capped);
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(lines[i].n, 2);
        for (int j = 0; j < i; j++) CHECK(lines[i].key != lines[j].key);
        if (i > 0) CHECK(lines[i].games <= lines[i - 1].games);
        struct tafl_game *t = tafl_new(&m.variant);
        for (int k = 0; k < lines[i].n; k++)
            CHECK(tafl_move_legal(t, lines[i].moves[k], NULL, 0) &&
                  tafl_play(t, lines[i].moves[k]));
        CHECK(t->result == RESULT_NONE);
        tafl_free(t);
    }
    free(lines);
    cfg.balanced = true; /* nothing was searched: no line has a value */
    CHECK(book_lines(&m, &cfg, &lines, &n, &visited, &capped, err, sizeof err));
    CHECK_EQ_INT(n, 0);
    free(lines);
    book_free(&a);
    book_free(&b);
    book_free(&m);
    /* counts that would pass 32 bits are refused, not wrapped */
    struct book big;
    if (CHECK(small_book(&big, NULL, 99))) {
        big.moves[0].games = 3000000000u;
        big.moves[0].attacker_wins = 2000000000u;
        big.moves[0].defender_wins = 1000000000u;
        big.moves[0].draws = 0;
        struct book_builder over;
        CHECK(book_builder_init(&over, &big.variant));
        CHECK(book_builder_add_book(&over, &big, err, sizeof err));
        CHECK(!book_builder_add_book(&over, &big, err, sizeof err) &&
              strstr(err, "6000000000 games of one move, more than a book counts"));
        book_builder_free(&over);
        book_free(&big);
    }
}

/* Runs the book tests. */
#if HNEFI_WIDE
/* Returns the decompressed length of frame k (0 header, 1 body) of a book file, or 0. */
static size_t frame_length(const char *path, int k, uint8_t *version) {
    size_t size, at = 0, flen = 0;
    char err[300], *frame = NULL;
    char *raw = zio_read_file(path, &size, err, sizeof err);
    for (int i = 0; raw && i <= k; i++) {
        free(frame);
        frame = NULL;
        if (zio_next_frame((const uint8_t *)raw, size, &at, &frame, &flen, err, sizeof err) !=
            ZIO_FRAME_OK)
            flen = 0;
        if (i == 0 && frame && flen > 8) *version = (uint8_t)frame[8];
    }
    free(frame);
    free(raw);
    return flen;
}

/*
 * Books beyond 11x11 (format version 2, 9-bit squares in 32-bit move codes): copenhagen13's key
 * from the bytes docs/book.md defines, moves of random Alea Evangelii (19x19) games through the
 * symmetries, and a copenhagen13 book built from random games, written (12 P + 26 M body bytes),
 * read back the same, grown by expansion and probed for legal moves.
 */
static void test_wide_boards(void) {
    const struct variant *v = variant_by_name("copenhagen13");
    if (!CHECK(v)) return;
    /* the key: size, side, then the squares, from the start position's FEN rows */
    uint8_t bytes[2 + 169] = {13, 0};
    const char *rows = "3aaaaaaa3/6a6/13/a5d5a/a5d5a/a4ddd4a/aa1dddkddd1aa/a4ddd4a/a5d5a/a5d5a/"
                       "13/6a6/3aaaaaaa3";
    int r = 12, f = 0;
    for (const char *ch = rows; *ch; ch++) {
        if (*ch == '/') {
            r--, f = 0;
        } else if (*ch >= '0' && *ch <= '9') {
            int k = (int)strtol(ch, NULL, 10);
            f += k;
            ch += k >= 10;
        } else {
            bytes[2 + r * 13 + f++] = *ch == 'a' ? 1 : *ch == 'd' ? 2 : 3;
        }
    }
    struct position p;
    pos_init_start(&p, v);
    CHECK_EQ_U64(book_key_plain(&p), book_fnv(BOOK_FNV_BASIS, bytes, sizeof bytes));
    CHECK_EQ_U64(book_key_plain(&p), 0x7513dc0bba8c00f9ULL);
    /* the 19x19 board's symmetries: squares up to 360, moves along 18 squares */
    struct variant alea;
    uint64_t s = 19;
    if (CHECK(opentafl_variant(14, &alea))) CHECK(canon_moves_of(&alea, &s) > 5000);
    /* a copenhagen13 book of random games */
    struct book_builder bb;
    if (!CHECK(book_builder_init(&bb, v))) return;
    for (int g = 0; g < 12; g++) {
        move_t moves[40];
        struct position q;
        pos_init_start(&q, v);
        int n = 0;
        for (; n < 40 && q.result == RESULT_NONE; n++) {
            move_t list[MAX_MOVES];
            int k = movegen_list(&q, list);
            if (k == 0) break;
            struct position next;
            moves[n] = list[rnd(&s) % (uint64_t)(g < 6 ? 3 : k)]; /* games share openings */
            make_move(&next, &q, moves[n]);
            q = next;
        }
        CHECK(book_builder_add_game(&bb, moves, n, (int)(g % 3), 0) > 0); /* to a repetition */
    }
    struct book b, back;
    memset(&b, 0, sizeof b);
    memset(&back, 0, sizeof back);
    char err[600], note[600];
    const char *path = tmp_path(5, "c13.book");
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err) &&
          book_save(&b, path, 3, err, sizeof err));
    book_builder_free(&bb);
    uint8_t version = 0;
    CHECK_EQ_INT((long)frame_length(path, 1, &version), (long)(12 * b.npos + 26 * b.nmoves));
    CHECK_EQ_INT(version, 2);
    CHECK(book_load(&back, path, err, sizeof err) && same_book(&b, &back));
    CHECK_EQ_INT(back.size, 13);
    /* grown by search: the positions get scores, the book reads back */
    struct book_expand_config cfg;
    book_expand_default(&cfg);
    cfg.nodes = 300;
    cfg.positions = 4;
    cfg.threads = 1;
    struct book_expand_status st;
    if (!CHECK(book_expand(path, &cfg, &st, note, sizeof note, err, sizeof err)))
        fprintf(stderr, "    %s\n", err);
    CHECK_EQ_INT(st.done, 4);
    CHECK(book_load(&back, path, err, sizeof err));
    size_t searched = 0;
    for (size_t i = 0; i < back.npos; i++) searched += (back.pos[i].flags & BOOK_POS_SEARCHED) != 0;
    CHECK_EQ_INT((long)searched, 4);
    /* probing the start gives legal moves */
    struct book_hit hit;
    int n = book_probe(&back, &p, &hit);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) CHECK(movegen_is_legal(&p, hit.moves[i]));
    book_free(&b);
    book_free(&back);
}
#endif

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/hnefi-book-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    test_key_vectors();
    test_canon_moves();
    test_build_counts();
    test_round_trip();
    test_errors();
    test_choose();
    test_backup();
    test_expand_solves();
    test_merge_and_lines();
#if HNEFI_WIDE
    test_wide_boards();
#endif
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
