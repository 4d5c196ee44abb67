/*
 * Command-line tests: runs the real hnefi binary and checks its output and exit status for good
 * and bad arguments (every bad path must print an error naming the problem and exit non-zero).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "data_file.h"

/* Runs hnefi with args (shell-quoted by the caller); returns its exit status and output. */
static int run(const char *args, char *out, size_t outlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", HNEFI_BINARY, args);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t n = fread(out, 1, outlen - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Checks that a command succeeds and prints want. */
static void ok(const char *args, const char *want) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st == 0 && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Checks that a command succeeds, prints want and does not print unwanted. */
static void ok_without(const char *args, const char *want, const char *unwanted) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st == 0 && strstr(out, want) && !strstr(out, unwanted), __FILE__, __LINE__,
                      args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Checks that a command fails with a message containing want. */
static void bad(const char *args, const char *want) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st != 0 && st != -1 && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Returns the node signature of `hnefi args` (a bench run), 0 if it printed none. */
static unsigned long long bench_nodes(const char *args) {
    static char out[1 << 16];
    if (run(args, out, sizeof out) != 0) return 0;
    const char *l = strstr(out, " nodes ");
    while (l && l > out && l[-1] >= '0' && l[-1] <= '9') l--;
    return l ? strtoull(l, NULL, 10) : 0;
}

/* bench --param gives the signature of a changed search: the same with a parameter at its
   default, another when the tree changes, wherever the option stands. */
static void bench_params(void) {
    unsigned long long base = bench_nodes("bench 3");
    CHECK(base > 0);
    CHECK(bench_nodes("bench 3 --param rfp_depth=6") == base);
    unsigned long long other = bench_nodes("bench 3 --param rfp_depth=0");
    CHECK(other > 0 && other != base);
    CHECK(bench_nodes("bench --param rfp_depth=0 3 1") == other);
}

/* Checks that a command fails with exit status want_status (docs/hnefi.1: 2 for bad arguments,
 * 1 for files that cannot be used) and a message containing want. */
static void bad_status(const char *args, int want_status, const char *want) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st == want_status && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d (want %d), output:\n%s\n", st, want_status, out);
}

/* Checks that a command fails without printing unwanted (work it should not have started). */
static void bad_without(const char *args, const char *unwanted) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st != 0 && st != -1 && !strstr(out, unwanted), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Checks that a command's help succeeds and does not mention word (an option it refuses). */
static void help_lacks(const char *args, const char *word) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st == 0 && strstr(out, "usage: hnefi") && !strstr(out, word), __FILE__,
                      __LINE__, args))
        fprintf(stderr, "    status %d, '%s' in:\n%s\n", st, word, out);
}

/* Writes a FEN of an n x n board, defenders to move, with the king on c3 between attackers: on
   b3 and d3, and with `four` also on c2 and c4; one defender man on e2. */
static void king_between_fen(int n, bool four, char *out, size_t len) {
    char board[11][12];
    if (n < 7 || n > 11) return;
    for (int r = 0; r < n; r++) {
        memset(board[r], '.', (size_t)n);
        board[r][n] = 0;
    }
    int k = n - 3; /* row of rank 3, counted from the top */
    board[k][2] = 'k';
    board[k][1] = board[k][3] = 'a';
    if (four) board[k - 1][2] = board[k + 1][2] = 'a';
    board[n - 2][4] = 'd';
    size_t at = 0;
    for (int r = 0; r < n; r++) {
        int empty = 0;
        for (int c = 0; c <= n; c++) {
            if (c < n && board[r][c] == '.') {
                empty++;
                continue;
            }
            if (empty) at += (size_t)snprintf(out + at, len - at, "%d", empty);
            empty = 0;
            if (c < n) at += (size_t)snprintf(out + at, len - at, "%c", board[r][c]);
        }
        at += (size_t)snprintf(out + at, len - at, "%s", r + 1 < n ? "/" : " d");
    }
}

/* A king loaded between enemies is not captured (no move closed the trap), in every variant and
   every king-capture mode, through show and perft; only a rule that holds at any time (the seed
   Tablut's immobile king) ends such a game. */
static void loaded_king_between_enemies(void) {
    static const struct {
        const char *name;
        int size;
    } variants[] = {
        {"copenhagen", 11}, {"fetlar", 11}, {"tablut", 9}, {"linnaeus", 9}, {"brandubh", 7}};
    static const char *const modes[] = {"custodial", "four", "throne_four"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (int m = 0; m < 3; m++)
            for (int four = 0; four < 2; four++) {
                char fen[200], args[400];
                king_between_fen(variants[v].size, four, fen, sizeof fen);
                snprintf(args, sizeof args, "show --variant %s --rule king_capture=%s --fen '%s'",
                         variants[v].name, modes[m], fen);
                /* the seed Tablut's immobile king is shut in by the position itself */
                bool shut = four && strcmp(variants[v].name, "tablut") == 0;
                ok(args, shut ? "the king and his last guard are shut in" : "status: in play");
                if (shut) continue;
                snprintf(args, sizeof args,
                         "perft --variant %s --rule king_capture=%s --fen '%s' 1", variants[v].name,
                         modes[m], fen);
                ok_without(args, "perft 1: ", "perft 1: 0 nodes");
            }
}

/* Runs every command-line test. */
/* Boards beyond 11x11: commands of the wide build, and its games' record files read back by
   `hnefi games` (which goes to the wide build for them); without it, a clear refusal. */
static void wide_boards(void) {
#if HNEFI_WIDE_BOARDS
    ok("perft --variant copenhagen13 2", "perft 2: 20348 nodes");
    ok("show --variant copenhagen13", "legal moves: 180");
    ok("show --variant alea", "to move: defenders"); /* the seed's first mover */
    ok("show --variant alea", "legal moves: 184");
    ok("show --variant alea --moves j11j12", /* a move past the 9th rank */
       "a1a2a7a2a1a/4a4d4a4/3a4ddd4a3/4d2d3d2d4/3a2d1dkd1d2a3/");
    bad_status("show --variant alea_evangelii", 2, "copenhagen13, alea)");
    char dir[] = "/tmp/hnefi-cli-wide-XXXXXX", args[512];
    if (!CHECK(mkdtemp(dir))) return;
    snprintf(args, sizeof args,
             "match --variant copenhagen13 --player name=a tc=nodes:300 --player name=b "
             "tc=nodes:300 --games 2 --max-plies 60 --quiet --records %s/w.zst",
             dir);
    ok(args, "2 games played");
    snprintf(args, sizeof args, "games summary %s/w.zst", dir);
    ok(args, "2 games, ");
    snprintf(args, sizeof args, "games list %s/w.zst --game 1", dir);
    ok(args, " a ");
    snprintf(args, sizeof args, "games convert %s/w.zst --to otg --out %s/w.otg", dir, dir);
    ok(args, "wrote 2 games");
    snprintf(args, sizeof args, "games summary %s/w.otg", dir);
    ok(args, "2 games, ");
    snprintf(args, sizeof args, "games summary %s/w.zst --variant copenhagen", dir);
    bad(args, "holds copenhagen13 games, not copenhagen");
    snprintf(args, sizeof args, "rm -rf %s", dir);
    CHECK(system(args) == 0);
#else
    bad("perft --variant copenhagen13 2", "copenhagen13");
#endif
}

int main(void) {
    ok("perft 3", "806344 nodes");
    ok("perft --variant brandubh 4", "1007392 nodes");
    ok("perft --variant linnaeus --divide 1", "perft 1: 80 nodes");
    ok("show", "legal moves: 116");
    ok("show --variant tablut --fen '9/9/9/9/k8/9/9/9/9 d'", "tuichi");
    ok("show --variant brandubh --moves 'd2c2 d3d2'", "2 plies played");
    ok("show --fen '11/11/11/11/11/11/4aka4/11/5a5/11/11 a' --moves f3f4",
       "attackers win: the king was captured");
    /* a king loaded between two attackers was not captured (no move closed the trap) */
    ok("show --variant brandubh --fen '7/1aka3/7/7/7/2d4/5a1 d'", "status: in play");
    ok("show --variant brandubh --fen '7/1aka3/7/7/7/2d4/5a1 d'", "legal moves: 14");
    ok("perft --variant brandubh --fen '7/1aka3/7/7/7/2d4/5a1 d' 2", "perft 2: 346 nodes");
    ok("perft --variant linnaeus --fen '9/9/9/2aka4/9/9/9/3d5/6a2 d' 2", "perft 2: 623 nodes");
    loaded_king_between_enemies();
    wide_boards();
    ok("variant --variant fetlar", "no_moves draw");
    ok("--help", "perft");
    ok("perft --help", "usage: hnefi perft");
    ok("analyze --variant brandubh --depth 3", "bestmove");
    ok("analyze --fen '11/11/11/11/11/11/11/11/5a5/11/2k5a2 d' --variant fetlar --depth 3",
       "defenders escape in 1 ply");
    ok("analyze --variant brandubh --depth 2 --multipv 2 --svg /tmp/hnefi-test.svg", "wrote");
    ok("bench 2", " nps");
    bad("analyze --depth 0", "--depth '0'");
    bad("analyze --time -1", "--time '-1'");
    bad("analyze --time nan", "--time 'nan'");
    bad("games list none.zst --result attackers --result bogus", "--result 'bogus'");
    bad("analyze --time", "option --time needs a value");
    bad("analyze --weights ''", "option --weights needs a file");
    bad("analyze --hash lots", "--hash 'lots'");
    bad("analyze --threads 0", "--threads '0'");
    bad("analyze --weights foo=1", "unknown evaluation weight 'foo'");
    bad("analyze --weights attacker=x", "expected name=integer");
    bad("analyze --weights /nonexistent/w.txt", "cannot open /nonexistent/w.txt");
    bad("analyze --weights", "needs a file");
    /* exit status: 2 for bad arguments, 1 for files that cannot be used (docs/hnefi.1) */
    bad_status("analyze --weights /nonexistent/w.txt", 1, "cannot open /nonexistent/w.txt");
    bad_status("analyze --weights foo=1", 2, "unknown evaluation weight 'foo'");
    bad_status("analyze --net /nonexistent.nnue", 1, "/nonexistent.nnue: cannot open");
    bad_status("analyze --book nothere.zst", 1, "book 'nothere.zst': no such file");
    bad_status("book show nothere.zst", 1, "book 'nothere.zst': no such file");
    bad_status("--version extra", 2, "--version: unexpected argument 'extra'");
    /* limits the help offers as alternatives are refused together, naming both */
    bad_status("analyze --depth 3 --nodes 100", 2, "--depth and --nodes are alternatives");
    bad_status("analyze --depth 2 --time 0.1", 2, "--depth and --time are alternatives");
    bad_status("analyze --nodes 100 --time 1", 2, "--time and --nodes are alternatives");
    bad_status("book expand x.zst --nodes 100 --time 1", 2, "--nodes and --time are alternatives");
    /* --eval nnue where the variant has no network (Sea Battle, an OpenTafl rules string):
       refused, not searched classically */
    char rules[1024], rcmd[1200];
    if (CHECK(data_opentafl_rules(1, rules, sizeof rules))) {
        snprintf(rcmd, sizeof rcmd, "analyze --rules '%s' --eval nnue --depth 1", rules);
        bad_status(rcmd, 2,
                   "--eval nnue: no network for Sea Battle; use --net FILE or --eval classic");
        snprintf(rcmd, sizeof rcmd, "analyze --rules '%s' --depth 1", rules);
        ok(rcmd, "evaluation: classical evaluation");
    }
    /* the built-in networks: Copenhagen, Fetlar, Brandubh, Linnaeus and Tablut */
    ok("analyze --variant fetlar --depth 1", "evaluation: built-in network for fetlar");
    ok("analyze --variant tablut --depth 1", "evaluation: built-in network for tablut");
    ok("analyze --variant brandubh --depth 1", "evaluation: built-in network for brandubh");
    ok("analyze --variant linnaeus --depth 1", "evaluation: built-in network for linnaeus");
    ok("analyze --depth 1", "evaluation: built-in network for copenhagen");
    ok("analyze --variant brandubh --eval classic --depth 1", "evaluation: classical evaluation");
    ok("--version", "hnefi ");
    char wfile[] = "/tmp/hnefi-cli-weights-XXXXXX", wargs[128];
    int wfd = mkstemp(wfile);
    if (CHECK(wfd >= 0)) {
        CHECK(write(wfd, "tempo=10\nfoo=1\n", 16) == 16);
        close(wfd);
        snprintf(wargs, sizeof wargs, "analyze --depth 1 --weights %s", wfile);
        bad(wargs, "unknown evaluation weight 'foo'"); /* the file is read, naming its fault */
        wfd = open(wfile, O_WRONLY | O_TRUNC);
        CHECK(write(wfd, "tempo=12\n", 9) == 9);
        close(wfd);
        ok(wargs, "bestmove");
        unlink(wfile);
    }
    /* an unwritable --svg is refused before the search (no board, no depth lines) */
    bad("analyze --svg /nonexistent/dir/x.svg --depth 1", "cannot write /nonexistent/dir/x.svg");
    bad_without("analyze --svg /nonexistent/dir/x.svg --depth 1", "bestmove");
    /* a finished game: the position is drawn with its result, and the command says so */
    unlink("/tmp/hnefi-test-over.svg");
    ok("analyze --fen '11/11/11/11/11/11/4aka4/11/5a5/11/11 a' --moves f3f4 --svg "
       "/tmp/hnefi-test-over.svg",
       "wrote /tmp/hnefi-test-over.svg");
    FILE *over = fopen("/tmp/hnefi-test-over.svg", "r");
    char svgtext[1 << 14] = "";
    if (CHECK(over)) {
        svgtext[fread(svgtext, 1, sizeof svgtext - 1, over)] = 0;
        fclose(over);
    }
    CHECK(strstr(svgtext, "the game is over: attackers win") && strstr(svgtext, "</svg>"));
    unlink("/tmp/hnefi-test-over.svg");
    bad("analyze --bogus", "unknown argument '--bogus'");
    bad("bench x", "bench depth 'x'");
    bad("bench 2 0", "bench threads '0'");
    bad("bench 1 1 1 1", "too many arguments");
    bad("bench --param bogus=1", "unknown search parameter 'bogus'");
    bad("bench 3 --param", "--param needs NAME=VALUE");
    bad("bench 1 1 1 --param rfp_depth=2 1", "too many arguments");
    bench_params();
    /* with no command hnefi speaks the UCI-like protocol on stdin (tests/test_proto_uci.c) */
    char script[] = "/tmp/hnefi-cli-XXXXXX", args[64];
    int fd = mkstemp(script);
    if (CHECK(fd >= 0)) {
        CHECK(write(fd, "uci\nisready\nquit\n", 18) == 18);
        close(fd);
        snprintf(args, sizeof args, "< %s", script);
        ok(args, "uciok");
        ok(args, "readyok");
        unlink(script);
    }
    /* hnefi solve: the encirclement in 5, a lone position, the limits, bad arguments */
    ok("solve --plies 7 --fen "
       "'3aa1a4/2a4aa2/1a2d1a4/a3dd2a2/a3d2d1a1/a2d3k2a/1a2d1d2a1/2a2ddaa2/3aa1a4/5a5/5a5 a'",
       "moves: g11f11\nkind: encircled");
    ok("solve --plies 7 --fen "
       "'3aa1a4/2a4aa2/1a2d1a4/a3dd2a2/a3d2d1a1/a2d3k2a/1a2d1d2a1/2a2ddaa2/3aa1a4/5a5/5a5 a'",
       "plies: 5");
    ok("solve --variant brandubh --plies 3", "result: none (the attackers cannot force a win "
                                             "within 3 plies)");
    ok("solve --fen '11/11/11/11/11/11/11/11/4a6/11/3aka5 a' --plies 1", "kind: no_moves");
    ok("solve --fen '11/11/11/11/11/11/11/11/4a6/11/3aka5 a' --moves e3e2", "result: over");
    ok("solve --nodes 1000 --plies 9 --fen "
       "'3aa1a4/2a4aa2/1a2d1a4/a3dd2a2/a3d2d1a1/a2d3k2a/1a2d1d2a1/2a2ddaa2/3aa1a4/5a5/5a5 a'",
       "result: unknown");
    ok("solve --help", "usage: hnefi solve");
    bad("solve --plies 0", "--plies '0'");
    bad("solve --plies 16", "--plies '16'");
    bad("solve --plies", "--plies needs a value");
    bad("solve --nodes x", "--nodes 'x'");
    bad("solve --hash 0", "--hash '0'");
    bad("solve --bogus", "unknown argument '--bogus'");
    bad("solve --fen '11/11 a'", "--fen");
    bad("solve --variant chess", "unknown variant 'chess'");
    /* hnefi tactics: verify the public suite, run the search on a small one, bad input */
    ok("tactics verify " HNEFI_TEST_DATA "/tactics.tsv --none-plies 5", ": 0 mismatches");
    ok("tactics --help", "usage: hnefi tactics");
    ok("tactics mine --help", "usage: hnefi tactics mine");
    bad("tactics", "missing the subcommand");
    bad("tactics frob", "unknown subcommand 'frob'");
    bad("tactics verify", "missing the suite FILE");
    bad_status("tactics verify /nonexistent/suite.tsv", 1, "/nonexistent/suite.tsv");
    bad_status("tactics verify x.tsv y.tsv", 2, "more than one file");
    bad("tactics verify x.tsv --none-plies 0", "--none-plies '0'");
    bad("tactics run x.tsv --none-depth x", "--none-depth 'x'");
    bad("tactics run x.tsv --eval fancy", "--eval 'fancy'");
    bad("tactics run x.tsv --param nosuch=1", "--param: ");
    bad("tactics run x.tsv --param rfp_depth=99", "--param: ");
    bad("tactics run x.tsv --param", "--param needs NAME=VALUE");
    bad("tactics verify x.tsv --param rfp_depth=1", "unknown option '--param'");
    bad("tactics mine", "no game files");
    bad("tactics mine --real chess:x.csv", "unknown variant 'chess'");
    bad("tactics mine --real x.csv", "expected VARIANT:FILE");
    bad_status("tactics mine --games /nonexistent/g.zst", 1, "/nonexistent/g.zst");
    bad_status("tune x.zst --weights /nonexistent/w.txt", 1, "cannot open /nonexistent/w.txt");
    bad("tactics mine --games x --count 0", "--count '0'");
    char suite[] = "/tmp/hnefi-suite-XXXXXX", cmd[160];
    int sfd = mkstemp(suite);
    if (CHECK(sfd >= 0)) {
        /* a wrong move list and a right line: verify names the line; run prints the table */
        const char *text = "# two lines\n"
                           "brandubh\t3a3/3a3/7/aa2daa/3a2k/4a2/7 a\twin\t1\te2g2\tx\n"
                           "brandubh\t3a3/3a3/7/aa2daa/3a2k/4a2/7 a\twin\t1\te2f2\ty\n";
        CHECK(write(sfd, text, strlen(text)) == (ssize_t)strlen(text));
        close(sfd);
        snprintf(cmd, sizeof cmd, "tactics verify %s", suite);
        bad(cmd, "MISMATCH line 3: moves 'e2f2', but the solver says 'e2g2'");
        snprintf(cmd, sizeof cmd, "tactics run %s --lines", suite);
        ok(cmd, "| brandubh | - | 1 | 2 | 2 | 0 | 1 | 1 | 0 |");
        ok(cmd, "2 of 2 win lines show a forced win (of any length) by plies + 2");
        snprintf(cmd, sizeof cmd, "tactics run %s --param rfp_depth=0 --param lmp_depth=0", suite);
        ok(cmd, "| brandubh | - | 1 | 2 | 2 | 0 | 1 | 1 | 0 |");
        /* a bad field is named with its line */
        FILE *f = fopen(suite, "w");
        if (CHECK(f != NULL)) {
            fputs("brandubh\t3a3/3a3/7/aa2daa/3a2k/4a2/7 a\twin\t2\te2g2\tx\n", f);
            fclose(f);
        }
        snprintf(cmd, sizeof cmd, "tactics verify %s", suite);
        bad(cmd, "line 1: plies '2': expected an odd number");
        unlink(suite);
    }
    bad("frobnicate", "unknown command 'frobnicate'");
    bad("perft", "missing DEPTH");
    bad("perft x", "perft depth 'x'");
    bad("perft 99", "perft depth '99'");
    bad("perft 2 3", "more than one depth");
    bad("perft --bogus 2", "unknown option '--bogus'");
    bad("perft --variant chess 2", "unknown variant 'chess'");
    bad("perft --variant", "needs a value");
    bad("perft --fen 'x' 1", "--fen: FEN row 1");
    bad("show --moves 'd1d3 zz'", "ply 2: move 'zz': does not start with a square like d1");
    bad("show --moves 'd1'", "ply 1: move 'd1': a second square (like d3) must follow");
    bad("show --moves 'd1d3 d1d2'", "no piece on d1");
    bad("show --rule repetition=sometimes", "unknown value 'sometimes'");
    bad("show --rule nokey", "expected key=value");
    bad("show --rules 'dim:8 start:/'", "board size must be 7, 9 or 11");
    bad("show extra", "unknown argument 'extra'");
    /* variant prints rules: a position given to it is refused, and its help does not offer one */
    bad("variant --fen garbage --moves zz", "--fen does not apply");
    bad("variant --moves zz", "--moves does not apply");
    help_lacks("variant --help", "--fen");
    help_lacks("variant --help", "--moves");
    help_lacks("tune --help", "--fen");
    help_lacks("tune --help", "--moves");
    help_lacks("train --help", "--fen");
    help_lacks("train --help", "--moves");
    return check_done();
}
