/*
 * Tests of the evaluation's corner terms and of hnefi tune: each new term counts what it says,
 * the tuner lowers the error of bad starting weights on real games, and every bad argument is
 * refused with a message naming it.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "check.h"
#include "engine/notation.h"
#include "search/eval.h"

int cmd_tune(int argc, char **argv);

static char out[1 << 16], err[1 << 16];

/* Returns the evaluation of fen in a variant with every weight zero but one ("name=value"). */
static int eval_in(const char *variant, const char *fen, const char *weight) {
    struct eval_weights w;
    memset(&w, 0, sizeof w);
    char e[200];
    CHECK(eval_weights_parse(&w, weight, e, sizeof e));
    struct position p;
    if (!CHECK(fen_parse(&p, variant_by_name(variant), fen, e, sizeof e))) return -99999;
    return eval_position(&p, &w);
}

/* Returns the Copenhagen evaluation of fen with only the weight given as "name=value". */
static int eval_one(const char *fen, const char *weight) {
    return eval_in("copenhagen", fen, weight);
}

/* Each corner term counts its squares, from the defenders' view with defenders to move. */
static void test_corner_terms(void) {
    /* attackers on b2 (diagonal), a3 (edge, two from a1), b3 and c2 (ring three); king on f6,
       reaching the 39 edge squares a3 does not hold */
    const char *fen = "11/11/11/11/11/5k5/11/11/aa9/1aa8/11 d";
    CHECK_EQ_INT(eval_one(fen, "corner_diag=1"), -1);
    CHECK_EQ_INT(eval_one(fen, "corner_edge2=1"), -1);
    CHECK_EQ_INT(eval_one(fen, "corner_ring3=1"), -2);
    CHECK_EQ_INT(eval_one(fen, "king_corner_dist=1"), -10);
    CHECK_EQ_INT(eval_one(fen, "king_edge_reach=1"), 39);
    CHECK_EQ_INT(eval_one(fen, "king_sealed=1"), 0);
    /* the same with the attackers to move: every term changes sign */
    const char *fen_a = "11/11/11/11/11/5k5/11/11/aa9/1aa8/11 a";
    CHECK_EQ_INT(eval_one(fen_a, "corner_ring3=1"), 2);
    /* a king walled in by a ring of attackers reaches no edge and no corner */
    const char *sealed = "11/11/11/5a5/4a1a4/3a1k1a3/4a1a4/5a5/11/11/11 d";
    CHECK_EQ_INT(eval_one(sealed, "king_sealed=1"), -1);
    CHECK_EQ_INT(eval_one(sealed, "king_edge_reach=1"), 0);
    /* on the 7x7 board the corner blocks do not count; the king's distance does */
    const char *small = "7/7/7/3k3/7/1a5/7 d";
    CHECK_EQ_INT(eval_in("brandubh", small, "corner_diag=1"), 0);
    CHECK_EQ_INT(eval_in("brandubh", small, "king_corner_dist=1"), -6);
    CHECK_EQ_INT(eval_in("tablut", "9/9/9/9/4k4/9/9/1a7/9 d", "corner_diag=1"), -1);
    /* an attacker on b1: corner_guard on 9x9 and up, small_corner_guard on 7x7 */
    CHECK_EQ_INT(eval_in("brandubh", "7/7/7/3k3/7/7/1a5 d", "small_corner_guard=1"), -1);
    CHECK_EQ_INT(eval_in("brandubh", "7/7/7/3k3/7/7/1a5 d", "corner_guard=1"), 0);
    CHECK_EQ_INT(eval_in("tablut", "9/9/9/9/4k4/9/9/9/1a7 d", "corner_guard=1"), -1);
    CHECK_EQ_INT(eval_in("tablut", "9/9/9/9/4k4/9/9/9/1a7 d", "small_corner_guard=1"), 0);
}

/* Runs hnefi tune with the given arguments (argv[0] is added). */
static int run_tune(int n, const char **args) {
    char *argv[32];
    argv[0] = (char *)"tune";
    for (int i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    return capture_call(cmd_tune, n + 1, argv, out, sizeof out, err, sizeof err);
}

/* From poor starting weights the tuner lowers the error on the real Copenhagen games. */
static void test_tune_lowers_error(void) {
    char wpath[] = "/tmp/hnefi_tune_w_XXXXXX", opath[] = "/tmp/hnefi_tune_o_XXXXXX";
    int fd = mkstemp(wpath);
    CHECK(fd >= 0);
    const char *bad = "defender=20 escape_in_two=0 corner_ring3=0\n";
    CHECK(write(fd, bad, strlen(bad)) == (ssize_t)strlen(bad));
    close(fd);
    fd = mkstemp(opath);
    CHECK(fd >= 0);
    close(fd);
    const char *limit = getenv("HNEFI_QUICK") ? "1500" : "6000";
    const char *args[] = {HNEFI_TEST_DATA "/copenhagen-games.csv.zst",
                          "--rule",
                          "repetition=none",
                          "--every",
                          "7",
                          "--limit",
                          limit,
                          "--passes",
                          "3",
                          "--fix",
                          "attacker,king_edge_reach,king_sealed",
                          "--weights",
                          wpath,
                          "--out",
                          opath};
    CHECK_EQ_INT(run_tune(15, args), 0);
    double before = 0, after = 0;
    const char *arrow = strstr(err, " -> ");
    CHECK(arrow != NULL);
    const char *line = arrow;
    while (line > err && line[-1] != '\n') line--;
    CHECK_EQ_INT(sscanf(line, "error %lf -> %lf", &before, &after), 2);
    CHECK(after < before);
    /* the written file reads back; the fixed weights kept their values, others moved */
    FILE *f = fopen(opath, "r");
    CHECK(f != NULL);
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    struct eval_weights w = eval_default_weights;
    char perr[200];
    CHECK(eval_weights_parse(&w, text, perr, sizeof perr));
    CHECK_EQ_INT(w.attacker, 100);
    CHECK_EQ_INT(w.king_sealed, eval_default_weights.king_sealed);
    CHECK(w.defender > 20);
    unlink(wpath);
    unlink(opath);
}

/* One refused command line: its arguments ("@" stands for the games file), status and message. */
struct bad_case {
    const char *args[6];
    int rc;
    const char *msg;
};

static const struct bad_case bad_cases[] = {
    {{"--skip", "3"}, 2, "a record file is needed"},
    {{"@", "--frobnicate"}, 2, "--frobnicate"},
    {{"@", "--fix", "attacker,nonsense"}, 2, "unknown weight 'nonsense'"},
    {{"@", "--skip", "-1"}, 2, "--skip"},
    {{"@", "--every", "x"}, 2, "--every"},
    {{"@", "--passes"}, 2, "--passes needs a value"},
    {{"@", "--weights", "/nonexistent/w.txt"}, 1, "/nonexistent/w.txt"}, /* a file: 1 */
    {{"@", "--fen", "11/11/11/11/11/5k5/11/11/11/11/11 a"}, 2, "--fen"},
    {{"/nonexistent/games.csv"}, 1, "/nonexistent/games.csv"},
    /* the real-game file breaks the repetition rule: refused with the line, not a crash */
    {{"@", "--limit", "10"}, 1, "line"},
    {{"@", "--rule", "repetition=none", "--skip", "100000"}, 1, "no positions"},
    /* an unwritable --out is refused before the positions are read and fitted */
    {{"@", "--out", "/nonexistent/w.txt"}, 1, "--out: cannot write /nonexistent/w.txt"},
    {{"no-such-games.csv"}, 1, "'no-such-games.csv': no such file here"},
};

/* Every bad argument is refused with a message that names it. */
static void test_tune_bad_input(void) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const char *args[6];
        int n = 0;
        for (; n < 6 && bad_cases[i].args[n]; n++) {
            const char *a = bad_cases[i].args[n];
            args[n] = strcmp(a, "@") == 0 ? HNEFI_TEST_DATA "/copenhagen-games.csv.zst" : a;
        }
        CHECK_EQ_INT(run_tune(n, args), bad_cases[i].rc);
        CHECK(strstr(err, bad_cases[i].msg) != NULL);
    }
}

/* Runs the tests. */
int main(void) {
    test_corner_terms();
    test_tune_bad_input();
    test_tune_lowers_error();
    return check_done();
}
