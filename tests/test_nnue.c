/*
 * Tests of the learned evaluation (search/nnue.h): the network file round trip and every way a
 * file is refused; the accumulator updated move by move against one computed from scratch, on
 * random games with captures in every variant; the AVX2 and the portable output paths bit for
 * bit, at the extremes of the quantisation bounds too; and a search with a network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/tafl.h"
#include "search/nnue.h"
#include "search/search.h"

/* Returns the next value of a xorshift64 generator. */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Returns a uniform integer in [lo, hi]. */
static int rnd_in(uint64_t *s, int lo, int hi) {
    return lo + (int)(rnd(s) % (uint64_t)(hi - lo + 1));
}

/* Fills net with random weights within the format's bounds for variant v (architecture 2), with
   `buckets` output buckets of `per` pieces each (1 and 0: none). */
static void random_net_buckets(struct nnue_net *net, const struct variant *v, int hidden,
                               uint64_t seed, int buckets, int per) {
    memset(net, 0, sizeof *net);
    net->buckets = buckets;
    net->bucket_pieces = per;
    int heads = nnue_heads(net);
    snprintf(net->variant, sizeof net->variant, "%s", v->name);
    net->size = v->size;
    net->arch = NNUE_ARCH_KING_REACH;
    net->inputs = nnue_inputs_of(net->arch, v->size * v->size);
    net->hidden = hidden;
    net->scale = 174;
    size_t n = (size_t)net->inputs * hidden + (size_t)hidden + (size_t)heads * hidden;
    net->mem = aligned_alloc(64, (n * 2 + 63) / 64 * 64);
    net->w1 = net->mem;
    net->b1 = net->w1 + (size_t)net->inputs * hidden;
    net->w2 = net->b1 + hidden;
    uint64_t s = seed | 1;
    for (size_t i = 0; i < (size_t)net->inputs * hidden; i++)
        net->w1[i] = (int16_t)rnd_in(&s, -NNUE_W1_MAX / 4, NNUE_W1_MAX / 4);
    for (int j = 0; j < hidden; j++) net->b1[j] = (int16_t)rnd_in(&s, -200, 400);
    for (int j = 0; j < heads * hidden; j++)
        net->w2[j] = (int16_t)rnd_in(&s, -NNUE_W2_MAX, NNUE_W2_MAX);
    for (int k = 0; k < heads; k++) net->b2[k] = rnd_in(&s, -100000, 100000);
}

/* Fills net with random weights for variant v, one output bucket (two heads). */
static void random_net(struct nnue_net *net, const struct variant *v, int hidden, uint64_t seed) {
    random_net_buckets(net, v, hidden, seed, 1, 0);
}

/* Writes net into a fresh buffer; *len gets its size. */
static uint8_t *net_bytes(const struct nnue_net *net, size_t *len) {
    *len = nnue_file_size(net);
    uint8_t *b = malloc(*len);
    nnue_write(net, b);
    return b;
}

/* Checks that a damaged copy of a network file is refused with a message containing want. */
static void refused(const uint8_t *good, size_t len, size_t at, uint8_t value, size_t cut,
                    const char *want) {
    uint8_t *b = malloc(len);
    memcpy(b, good, len);
    if (at < len) b[at] = value;
    struct nnue_net net = {0};
    random_net(&net, variant_by_name("brandubh"), 32, 99);
    int16_t w0 = net.w1[0];
    char err[200] = "";
    bool ok = nnue_load(&net, b, cut ? cut : len, err, sizeof err);
    if (!check_record(!ok && strstr(err, want), __FILE__, __LINE__, want))
        fprintf(stderr, "    got '%s'\n", err);
    CHECK(net.w1[0] == w0 && net.hidden == 32); /* the old network stays */
    nnue_free(&net);
    free(b);
}

/* Round trip of the file format, and each way a file is refused. */
static void test_file(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct nnue_net a, b = {0};
    random_net(&a, v, 64, 7);
    size_t len;
    uint8_t *bytes = net_bytes(&a, &len);
    char err[200];
    CHECK(nnue_load(&b, bytes, len, err, sizeof err));
    CHECK_EQ_STR(b.variant, "copenhagen");
    CHECK(b.size == 11 && b.inputs == 488 && b.hidden == 64 && b.scale == 174);
    CHECK(b.arch == NNUE_ARCH_KING_REACH);
    CHECK(memcmp(a.w1, b.w1, (size_t)(488 * 64 + 64 + 2 * 64) * 2) == 0);
    CHECK(a.b2[0] == b.b2[0] && a.b2[1] == b.b2[1]);
    CHECK(nnue_fits(&b, v, err, sizeof err));
    CHECK(!nnue_fits(&b, variant_by_name("fetlar"), err, sizeof err) && strstr(err, "fetlar"));
    CHECK(!nnue_fits(&b, variant_by_name("brandubh"), err, sizeof err) && strstr(err, "7x7"));
    /* the bytes of a file, each changed */
    refused(bytes, len, 0, 'X', 0, "HNEFINET");
    refused(bytes, len, 8, 9, 0, "version 9");
    refused(bytes, len, 12, 7, 0, "architecture 7");
    refused(bytes, len, 12, NNUE_ARCH_PIECES, 0, "input count"); /* 488 inputs are not 363 */
    refused(bytes, len, 16, 12, 0, "board size");
    refused(bytes, len, 24, 48, 0, "hidden size");
    refused(bytes, len, 32, 100, 0, "quantisation");
    refused(bytes, len, 40, 0, 0, "scale");
    refused(bytes, len, len, 0, len - 1, "bytes");
    refused(bytes, len, len, 0, 20, "network file truncated: 20 bytes");
    refused(bytes, len, len, 0, 5, "HNEFINET");
    refused(bytes, len, 44, 1, 0, "1 pieces per output bucket with 2 heads");
    refused(bytes, len, 28, 3, 0, "3 output heads");
    refused(bytes, len, 28, 18, 0, "18 output heads");
    refused(bytes, len, 28, 0, 0, "0 output heads");
    refused(bytes, len, 100, 1, 0, "bytes 80-127 must be 0");
    refused(bytes, len, NNUE_HEADER + 5, 0x55, 0, "checksum");
    /* a weight past its bound, with a checksum that fits */
    int16_t keep = a.w2[3];
    a.w2[3] = NNUE_W2_MAX + 1;
    size_t len2;
    uint8_t *bad = net_bytes(&a, &len2);
    refused(bad, len2, len2, 0, 0, "output weight");
    free(bad);
    a.w2[3] = keep;
    /* output weights each within their bound whose sum could overflow: 288 neurons at 127 */
    struct nnue_net wide;
    random_net(&wide, variant_by_name("brandubh"), 288, 8);
    for (int j = 0; j < 288; j++) wide.w2[288 + j] = (int16_t)(j % 2 ? NNUE_W2_MAX : -NNUE_W2_MAX);
    bad = net_bytes(&wide, &len2);
    refused(bad, len2, len2, 0, 0, "output weights of head 1 add up to 36576, more than 33025");
    free(bad);
    for (int j = 0; j < 288; j++) wide.w2[288 + j] = (int16_t)(j < 260 ? NNUE_W2_MAX : 0);
    bad = net_bytes(&wide, &len2);
    CHECK(nnue_load(&b, bad, len2, err, sizeof err)); /* 260 * 127 = 33020: loads */
    free(bad);
    nnue_free(&wide);
    /* files on disk: missing, and a real one */
    CHECK(!nnue_load_file(&b, "/nonexistent/x.nnue", err, sizeof err) &&
          strstr(err, "cannot open"));
    const char *path = "test_nnue_net.nnue";
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, len, f) == len);
    if (f) fclose(f);
    CHECK(nnue_load_file(&b, path, err, sizeof err));
    remove(path);
    free(bytes);
    nnue_free(&a);
    nnue_free(&b);
}

/*
 * Plays random games and compares the updated accumulator (pieces and the king's reach) with a
 * fresh one at every ply, a pass included, and the two output paths on them.
 */
static void test_incremental(void) {
    static const char *const names[] = {"copenhagen", "tablut", "brandubh", "linnaeus"};
    struct nnue_acc *acc = aligned_alloc(64, 2 * sizeof *acc), *fresh = acc + 1;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const struct variant *v = variant_by_name(names[k]);
        struct nnue_net net;
        random_net(&net, v, 96, 11 + k);
        uint64_t s = 1234 + k;
        long plies = 0, captures = 0, mismatches = 0, path_mismatches = 0;
        for (int game = 0; game < 30; game++) {
            struct position p, q;
            struct nnue_reach before, after;
            pos_init_start(&p, v);
            nnue_refresh(&net, &p, acc);
            nnue_reach_of(&p, &before);
            for (int ply = 0; ply < 300 && p.result == RESULT_NONE; ply++) {
                move_t moves[MAX_MOVES];
                int n = movegen_list(&p, moves);
                if (!n) break;
                move_t m = moves[rnd(&s) % (uint64_t)n];
                int from = move_from(m);
                enum piece pk = p.side == SIDE_ATTACKERS ? PIECE_ATTACKER
                                : from == p.king_sq      ? PIECE_KING
                                                         : PIECE_DEFENDER;
                enum piece victim = p.side == SIDE_ATTACKERS ? PIECE_DEFENDER : PIECE_ATTACKER;
                bb_t caught = BB_EMPTY;
                if (ply % 7 == 3) { /* a pass: the same pieces for the other side */
                    q = p;
                    q.side = (uint8_t)!p.side;
                    pk = PIECE_NONE;
                } else {
                    caught = make_move(&q, &p, m);
                    captures += bb_popcount(caught);
                }
                nnue_reach_of(&q, &after);
                nnue_update(&net, acc, acc, pk, from, move_to(m), victim, caught, &before, &after);
                nnue_refresh(&net, &q, fresh);
                mismatches += memcmp(acc->v, fresh->v, (size_t)net.hidden * 2) != 0;
                for (int side = 0; side < 2; side++)
                    path_mismatches +=
                        nnue_evaluate(&net, acc, side) != nnue_evaluate_portable(&net, fresh, side);
                p = q;
                before = after;
                plies++;
            }
        }
        char what[80];
        snprintf(what, sizeof what, "%s: %ld plies, %ld captures", names[k], plies, captures);
        check_record(mismatches == 0 && path_mismatches == 0 && captures > 50 && plies > 1000,
                     __FILE__, __LINE__, what);
        nnue_free(&net);
    }
    free(acc);
}

/* The two output paths on random and extreme accumulators, bit for bit. */
static void test_paths(void) {
    const struct variant *v = variant_by_name("copenhagen");
    struct nnue_net net;
    random_net(&net, v, 1024, 5);
    struct nnue_acc *acc = aligned_alloc(64, sizeof *acc);
    uint64_t s = 77;
    long diff = 0;
    for (int t = 0; t < 2000; t++) {
        for (int j = 0; j < net.hidden; j++)
            acc->v[j] = (int16_t)(t % 3 == 0 ? rnd_in(&s, -32768, 32767) : rnd_in(&s, -50, 300));
        for (int side = 0; side < 2; side++)
            diff += nnue_evaluate(&net, acc, side) != nnue_evaluate_portable(&net, acc, side);
    }
    /* every neuron at the top with the largest output weights of one sign, for both signs */
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int j = 0; j < net.hidden; j++) {
            acc->v[j] = NNUE_QA;
            net.w2[j] = (int16_t)(sign * NNUE_W2_MAX);
        }
        diff += nnue_evaluate(&net, acc, 0) != nnue_evaluate_portable(&net, acc, 0);
    }
    CHECK_EQ_INT(diff, 0);
    /* with 256 neurons the extreme sum is exact: 256 * 255 * (255 * 127) / 255 */
    net.hidden = 256;
    for (int j = 0; j < 256; j++) net.w2[j] = NNUE_W2_MAX;
    net.b2[0] = 0;
    int64_t want = (int64_t)256 * 255 * 127 * net.scale / (NNUE_QA * NNUE_QB);
    CHECK_EQ_INT(nnue_evaluate(&net, acc, 0), want);
    net.hidden = 1024;
    free(acc);
    nnue_free(&net);
}

/*
 * Output buckets: the file keeps them, a damaged bucket field is refused, the head follows the
 * pieces on the board, and a search uses the head of each position: with every bucket a copy of
 * one network it searches as that network does, and a change to the start's bucket alone moves
 * the score at the root.
 */
static void test_buckets(void) {
    const struct variant *v = variant_by_name("brandubh"); /* 13 pieces at the start */
    struct nnue_net a, b = {0};
    random_net_buckets(&a, v, 64, 21, 4, 4);
    CHECK_EQ_INT(nnue_heads(&a), 8);
    size_t len;
    uint8_t *bytes = net_bytes(&a, &len);
    char err[200];
    CHECK(nnue_load(&b, bytes, len, err, sizeof err));
    CHECK(b.buckets == 4 && b.bucket_pieces == 4 && len == nnue_file_size(&b));
    CHECK(memcmp(a.w2, b.w2, (size_t)8 * 64 * 2) == 0);
    CHECK(memcmp(a.b2, b.b2, sizeof(int32_t) * 8) == 0);
    refused(bytes, len, 44, 0, 0, "0 pieces per output bucket with 8 heads");
    refused(bytes, len, 44, 65, 0, "65 pieces per output bucket");
    refused(bytes, len, 28, 6, 0, "bytes"); /* 6 heads: the file is the wrong length */
    free(bytes);
    /* pieces 1-4 bucket 0, 5-8 bucket 1, 9-12 bucket 2, 13 and more bucket 3 */
    CHECK_EQ_INT(nnue_head(&a, SIDE_ATTACKERS, 1), 0);
    CHECK_EQ_INT(nnue_head(&a, SIDE_DEFENDERS, 4), 1);
    CHECK_EQ_INT(nnue_head(&a, SIDE_ATTACKERS, 5), 2);
    CHECK_EQ_INT(nnue_head(&a, SIDE_DEFENDERS, 12), 5);
    CHECK_EQ_INT(nnue_head(&a, SIDE_ATTACKERS, 13), 6);
    CHECK_EQ_INT(nnue_head(&a, SIDE_DEFENDERS, 40), 7);
    struct position p;
    pos_init_start(&p, v);
    CHECK_EQ_INT(nnue_head_of(&a, &p), 6);
    /* every head, both paths, on random accumulators */
    struct nnue_acc *acc = aligned_alloc(64, sizeof *acc);
    uint64_t s = 5;
    long diff = 0;
    for (int t = 0; t < 200; t++) {
        for (int j = 0; j < a.hidden; j++) acc->v[j] = (int16_t)rnd_in(&s, -50, 300);
        for (int h = 0; h < 8; h++)
            diff += nnue_evaluate(&a, acc, h) != nnue_evaluate_portable(&a, acc, h);
    }
    CHECK_EQ_INT(diff, 0);
    free(acc);
    /* one network's heads copied into every bucket search as that network */
    struct nnue_net one, many;
    random_net(&one, v, 64, 22);
    random_net_buckets(&many, v, 64, 23, 4, 4);
    memcpy(many.w1, one.w1, ((size_t)one.inputs * 64 + 64) * 2);
    for (int k = 0; k < 4; k++) {
        memcpy(many.w2 + (size_t)k * 2 * 64, one.w2, (size_t)2 * 64 * 2);
        many.b2[2 * k] = one.b2[0];
        many.b2[2 * k + 1] = one.b2[1];
    }
    struct tafl_game *g = tafl_new(v);
    struct search *sr = search_new(4);
    struct search_options opt;
    search_options_default(&opt);
    struct search_limits lim = {.depth = 5, .time_ms = {-1, -1}};
    struct search_result r1, r2, r3;
    opt.net = &one;
    search_run(sr, g, &lim, &opt, NULL, &r1);
    search_clear(sr);
    opt.net = &many;
    search_run(sr, g, &lim, &opt, NULL, &r2);
    CHECK(r1.best == r2.best && r1.nodes == r2.nodes && r1.score == r2.score);
    /* the heads of 13 pieces (no capture yet) only: a depth-1 search sees no capture */
    many.b2[6] += 40 * NNUE_QA * NNUE_QB / many.scale;
    many.b2[7] += 40 * NNUE_QA * NNUE_QB / many.scale;
    struct search_limits one_ply = {.depth = 1, .time_ms = {-1, -1}};
    search_clear(sr);
    opt.net = &one;
    search_run(sr, g, &one_ply, &opt, NULL, &r1);
    search_clear(sr);
    opt.net = &many;
    search_run(sr, g, &one_ply, &opt, NULL, &r3);
    CHECK(r3.score != r1.score);
    tafl_free(g);
    search_free(sr);
    nnue_free(&one);
    nnue_free(&many);
    nnue_free(&a);
    nnue_free(&b);
}

/* A search with a network: legal, deterministic, and a network of another size is ignored. */
static void test_search(void) {
    const struct variant *v = variant_by_name("brandubh");
    struct nnue_net net;
    random_net(&net, v, 64, 3);
    struct tafl_game *g = tafl_new(v);
    struct search *s = search_new(4);
    struct search_options opt;
    search_options_default(&opt);
    opt.net = &net;
    struct search_limits lim = {.depth = 6, .time_ms = {-1, -1}};
    struct search_result r1, r2, r3;
    search_run(s, g, &lim, &opt, NULL, &r1);
    search_clear(s);
    search_run(s, g, &lim, &opt, NULL, &r2);
    CHECK(r1.best != MOVE_NONE && r1.best == r2.best && r1.nodes == r2.nodes &&
          r1.score == r2.score);
    char err[100];
    CHECK(tafl_move_legal(g, r1.best, err, sizeof err));
    /* the same network given to a Copenhagen game: never read, the classical evaluation runs */
    struct tafl_game *c = tafl_new(variant_by_name("copenhagen"));
    struct search_options classic;
    search_options_default(&classic);
    search_clear(s);
    search_run(s, c, &lim, &opt, NULL, &r1);
    search_clear(s);
    search_run(s, c, &lim, &classic, NULL, &r2);
    CHECK(r1.best == r2.best && r1.nodes == r2.nodes);
    (void)r3;
    tafl_free(c);
    tafl_free(g);
    search_free(s);
    nnue_free(&net);
}

/*
 * A network with extreme (but loadable) values evaluates below the forced results, and a search
 * with it ends (fuzz_nnue: its scores were beyond every aspiration window, whose doubling width
 * then overflowed, and the search never ended).
 */
static void test_extreme_net(void) {
    const struct variant *v = variant_by_name("brandubh");
    struct nnue_net net;
    random_net(&net, v, 32, 5);
    net.b2[0] = net.b2[1] = 2000000000;
    net.scale = 100000;
    struct tafl_game *g = tafl_new(v);
    struct nnue_acc acc;
    nnue_refresh(&net, tafl_pos(g), &acc);
    for (int side = 0; side < SIDE_NB; side++) {
        int e = nnue_evaluate(&net, &acc, side);
        CHECK(e < SCORE_WIN_MIN && e > -SCORE_WIN_MIN);
        CHECK_EQ_INT(e, nnue_evaluate_portable(&net, &acc, side));
    }
    struct search *s = search_new(1);
    struct search_options opt;
    search_options_default(&opt);
    opt.net = &net;
    struct search_limits lim = {.depth = 6, .time_ms = {-1, -1}};
    struct search_result r;
    search_run(s, g, &lim, &opt, NULL, &r);
    CHECK(r.best != MOVE_NONE && tafl_move_legal(g, r.best, NULL, 0));
    CHECK(r.score < SCORE_INF && r.score > -SCORE_INF);
    search_free(s);
    tafl_free(g);
    nnue_free(&net);
}

/* Runs every test of the learned evaluation. */
int main(void) {
    test_file();
    test_incremental();
    test_paths();
    test_search();
    test_buckets();
    test_extreme_net();
    return check_done();
}
