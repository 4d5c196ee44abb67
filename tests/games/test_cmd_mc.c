/* `hnefi mc`: every path of the command, good and bad input, with output captured. */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/games/eketorp.h"
#include "engine/games/saek.h"
#include "tests/capture.h"
#include "tests/check.h"
#include "tools/cmd_mc.h"

static char out[1 << 16], errtext[1 << 14];

/* Runs cmd_mc with the given arguments (NULL-terminated), capturing stdout and stderr. */
static int run(const char *first, ...) {
    char *argv[64];
    int argc = 0;
    argv[argc++] = "mc";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return capture_call(cmd_mc, argc, argv, out, sizeof out, errtext, sizeof errtext);
}

/* Checks a run fails with exit status `status` and its message contains `word`. */
#define CHECK_FAILS_WITH(status, word, ...)                                                        \
    do {                                                                                           \
        CHECK_EQ_INT(run(__VA_ARGS__, NULL), status);                                              \
        if (!CHECK(strstr(errtext, word) != NULL)) fprintf(stderr, "    stderr: %s\n", errtext);   \
    } while (0)

/* Checks a run is refused as bad arguments (exit status 2, docs/hnefi.1) naming `word`. */
#define CHECK_FAILS(word, ...) CHECK_FAILS_WITH(2, word, __VA_ARGS__)

/* Bad arguments, specs, options and STATEs fail with a message naming them. */
static void test_errors(void) {
    CHECK(run("--help", NULL) == 0 && strstr(out, "usage") != NULL);
    CHECK(run("saek", "--help", NULL) == 0 && strstr(out, "vikingdice") != NULL);
    CHECK(run("list", NULL) == 0 && strstr(out, "eketorp") != NULL);
    CHECK_FAILS("chess", "chess");
    CHECK_FAILS("--games", "saek", "--games", "abc");
    CHECK_FAILS("--games: '0' is not a whole number, 1 or more", "saek", "--games", "0");
    CHECK(strstr(errtext, "1000000000") == NULL); /* an internal cap, not worth naming */
    CHECK_FAILS("--seed: '99999999999999999999' is not a whole number of at most", "saek", "--seed",
                "99999999999999999999");
    CHECK_FAILS("--games", "saek", "--games");
    CHECK_FAILS("--threads", "saek", "--threads", "-2");
    CHECK_FAILS("--seed", "saek", "--seed", "12x");
    CHECK_FAILS("--format", "saek", "--format", "xml");
    CHECK_FAILS("--frobnicate", "saek", "--frobnicate");
    CHECK_FAILS("bogus", "saek", "--policy", "bogus", "--games", "5");
    CHECK_FAILS("n=x", "saek", "--policy", "flat:n=x", "--games", "5");
    CHECK_FAILS("--players", "eketorp", "--players", "2");
    CHECK_FAILS("policies", "saek", "--players", "2", "--policy", "random", "--policy", "random",
                "--policy", "random");
    CHECK_FAILS("coins", "saek", "--options", "coins=abc", "--games", "5", "--quiet");
    CHECK_FAILS("weeks", "eketorp", "--options", "weeks=0", "--games", "5", "--quiet");
    CHECK_FAILS("dance", "saek", "dance");
    CHECK_FAILS("--seconds", "saek", "bench", "--seconds", "-1");
    CHECK_FAILS("not both", "saek", "bench", "--seconds", "1", "--games", "5");
    CHECK_FAILS("--data", "saek", "--data", "x.txt");
    CHECK_FAILS_WITH(1, "no-such-file", "eketorp", "--data", "/no-such-file.txt", "--games", "1");
    CHECK_EQ_INT(run(NULL), 2); /* bare `hnefi mc`: the usage, as bad arguments */
    CHECK(strstr(out, "usage") != NULL);
    CHECK_FAILS("unknown subcommand 'frob'", "saek", "frob");
    /* malformed STATEs */
    CHECK_FAILS("'99'", "saek", "--advise", "coins=9,4 ships=99");
    CHECK_FAILS("coins", "saek", "--advise", "ships=3");
    CHECK_FAILS("chance", "saek", "--advise", "coins=9,4 phase=roll");
    CHECK_FAILS("not key=value", "saek", "--advise", "coins=9,4 hello");
    CHECK_FAILS("lacks", "eketorp", "--advise", "np=4 week=1");
    CHECK_FAILS("saek", "eketorp", "--games", "1", "--policy", "opt");
    /* opt solves two-player Saekonungr only: 4 players (the default) or a 3-player STATE */
    CHECK_FAILS("two-player Saekonungr; this game has 4 players", "saek", "--policy", "opt",
                "--games", "3", "--quiet");
    CHECK_FAILS("this game has 3 players", "saek", "--advise",
                "coins=5,4,6 ships=3,5 long=3 phase=raid7 rolls=1", "--policy", "opt");
    CHECK_FAILS("not both", "raid", "bench", "--seconds", "1", "--games", "5");
    CHECK_FAILS("unknown game option", "raid", "bench", "--options", "bogus=1");
    /* an option the form would ignore is refused, naming it and the form */
    CHECK_FAILS("--format does not apply to bench", "saek", "bench", "--format", "csv");
    CHECK_FAILS("--games does not apply to --advise", "saek", "--advise",
                "coins=9,4 ships=3,5,9 long=3 phase=vdice vikingdice=1", "--games", "3");
    CHECK_FAILS("--advise does not apply to --show", "saek", "--show", "coins=9,4", "--advise",
                "coins=9,4");
    CHECK_FAILS("--games does not apply to solve", "saek", "solve", "--games", "5");
    CHECK_FAILS("--coins does not apply to a tournament", "saek", "--coins", "5");
}

/* Help: every game is named (full names too), and raid's own commands have their help. */
static void test_help(void) {
    CHECK(run("--help", NULL) == 0 &&
          strstr(out, "saek (or saekonungr), eketorp, raid (or "
                      "viking-raid)") &&
          strstr(out, "hnefi mc raid odds|buy|play|bench") &&
          strstr(out, "and the tafl variants\n       copenhagen, fetlar, tablut, linnaeus, "
                      "brandubh"));
    /* every game the help names is one hnefi mc plays */
    static const char *const named[] = {"saek",        "saekonungr", "eketorp", "raid",
                                        "viking-raid", "copenhagen", "fetlar",  "tablut",
                                        "linnaeus",    "brandubh"};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        if (!CHECK(run(named[k], "--help", NULL) == 0)) fprintf(stderr, "    %s\n", named[k]);
    CHECK(run("raid", "--help", NULL) == 0 && strstr(out, "hnefi mc raid odds") &&
          strstr(out, "--format") && strstr(out, "season="));
    CHECK(run("viking-raid", "bench", "--help", NULL) == 0 && strstr(out, "raid bench"));
    CHECK(run("raid", "play", "-h", NULL) == 0 && strstr(out, "raid play"));
    CHECK(run("list", NULL) == 0 && strstr(out, "saek (or saekonungr): Saekonungr"));
}

/* Tournaments, advice, show, data, bench, solve and compare all run and report. */
static void test_runs(void) {
    /* a tournament in each format */
    CHECK_EQ_INT(
        run("saek", "--games", "40", "--quiet", "--policy", "heur", "--policy", "random", NULL), 0);
    CHECK(strstr(out, "heur") && strstr(out, "95% interval") && strstr(out, "length"));
    /* no wins in 2 games: Wilson's interval [0, 0.6576], not the zero-wide [0, 0] */
    CHECK_EQ_INT(run("saek", "compare", "--policy", "random", "--coins", "3", "--games", "2",
                     "--quiet", NULL),
                 0);
    CHECK(strstr(out, "win 0.0000 [0.0000, 0.6576] over 2 games") != NULL);
    CHECK_EQ_INT(run("raid", "--games", "4", "--quiet", "--format", "csv", NULL), 0);
    CHECK(strstr(out, "slot,1,random,4,0.000000,0.000000,0.489891,") != NULL);
    CHECK_EQ_INT(run("raid", "--games", "4", "--quiet", "--format", "json", NULL), 0);
    CHECK(strstr(out, "\"win\": 0.000000, \"win_lo\": 0.000000, \"win_hi\": 0.489891") != NULL);
    CHECK_EQ_INT(
        run("saek", "--games", "40", "--quiet", "--format", "json", "--threads", "1", NULL), 0);
    static char json1[sizeof out];
    snprintf(json1, sizeof json1, "%s", out);
    CHECK(strstr(out, "\"slots\"") != NULL);
    CHECK_EQ_INT(
        run("saek", "--games", "40", "--quiet", "--format", "json", "--threads", "2", NULL), 0);
    CHECK_EQ_STR(out, json1); /* the same seed gives the same output on any thread count */
    CHECK_EQ_INT(run("eketorp", "--games", "10", "--quiet", "--format", "csv", "--players", "5",
                     "--options", "sally=1,rotten=1", NULL),
                 0);
    CHECK(strstr(out, "slot,4,random") != NULL);
    /* advice on "one Viking die or two?" */
    CHECK_EQ_INT(run("saek", "--advise", "coins=9,4 ships=3,5,9 long=3 phase=vdice vikingdice=1",
                     "--policy", "flat:n=300", NULL),
                 0);
    CHECK(strstr(out, "two Viking dice") && strstr(out, "no Viking dice") && strstr(out, "*"));
    CHECK_EQ_INT(run("saek", "--advise", "coins=9,4 ships=3,5,9 long=3 phase=vdice vikingdice=1",
                     "--policy", "opt", NULL),
                 0);
    CHECK(strstr(out, "one Viking die") != NULL);
    CHECK_EQ_INT(run("saek", "--advise", "coins=5,4,6 ships=3,5 long=3 phase=raid7 rolls=1",
                     "--policy", "ismcts:iters=300", NULL),
                 0);
    CHECK(strstr(out, "one coin from player 2") != NULL);
    /* Eketorp: a state from a real game, shown and advised on */
    ekt_state s;
    char e[256];
    ekt_init(&s, 4, NULL, e, sizeof e);
    game_rng r;
    rng_seed(&r, 4);
    while (s.phase != EKT_PLAN) game_step_random(&ekt_game, &s, &r);
    static char state[8192];
    ekt_game.format(&s, state, sizeof state);
    CHECK_EQ_INT(run("eketorp", "--show", state, NULL), 0);
    CHECK(strstr(out, "Eketorp, 4 players") != NULL);
    CHECK_EQ_INT(run("eketorp", "--advise", state, "--player", "2", "--policy", "flat:n=3", NULL),
                 0);
    CHECK(strstr(out, "send one to field") != NULL);
    /* the data file loads */
    char path[1024];
    snprintf(path, sizeof path, "%s/../../engine/games/data/eketorp-rules.txt", HNEFI_TEST_DATA);
    CHECK_EQ_INT(run("eketorp", "--data", path, "--games", "3", "--quiet", NULL), 0);
    /* bench, solver, comparison with the optimum */
    CHECK_EQ_INT(run("saek", "bench", "--seconds", "0.05", NULL), 0);
    CHECK(strstr(out, "games/s") != NULL);
    /* a fixed number of games: both paths play the same games (same length checksum) */
    CHECK_EQ_INT(run("eketorp", "bench", "--games", "64", NULL), 0);
    const char *c1 = strstr(out, "checksum "), *c2 = c1 ? strstr(c1 + 1, "checksum ") : NULL;
    CHECK(strstr(out, "generic path: 64 games") && strstr(out, "fast path: 64 games"));
    CHECK(c1 && c2 && strncmp(c1, c2, 25) == 0);
    CHECK_EQ_INT(run("saek", "solve", "--coins", "3", NULL), 0);
    CHECK(strstr(out, "first player wins with probability") != NULL);
    CHECK_EQ_INT(run("saek", "compare", "--coins", "3", "--games", "100", "--policy", "heur",
                     "--quiet", NULL),
                 0);
    CHECK(strstr(out, "decision agreement") != NULL);
    /* the full names, opt with two players, raid's bench by games, raid play without a terminal */
    CHECK_EQ_INT(run("saekonungr", "--games", "10", "--quiet", NULL), 0);
    CHECK(strstr(out, "Saekonungr, 4 players, 10 games") != NULL);
    CHECK_EQ_INT(run("saek", "--players", "2", "--policy", "opt", "--games", "4", "--quiet", NULL),
                 0);
    /* tafl through the generic interface */
    CHECK_EQ_INT(run("brandubh", "--games", "4", "--policy", "flat:n=4", "--policy", "random",
                     "--quiet", NULL),
                 0);
    CHECK(strstr(out, "Brandubh 7x7, 2 players, 4 games") != NULL);
    CHECK_EQ_INT(run("copenhagen", "bench", "--games", "4", NULL), 0);
    CHECK(strstr(out, "copenhagen 2 players, generic path: 4 games") != NULL);
    CHECK_EQ_INT(run("tablut", "--show", "board=9/9/9/9/4k4/9/9/9/9 side=d", NULL), 0);
    CHECK(strstr(out, "defenders to move") != NULL);
    CHECK_EQ_INT(run("viking-raid", "bench", "--games", "100", NULL), 0);
    CHECK(strstr(out, "raid 4 players: 100 random raid days") != NULL);
    CHECK_EQ_INT(run("raid", "play", "--games", "20", NULL), 0);
    CHECK(strstr(out, "20 games") && errtext[0] == '\0'); /* no progress dots when piped */
}

/* Runs the command tests. */
int main(void) {
    test_errors();
    test_help();
    test_runs();
    return check_done();
}
