/*
 * Command-line tests: runs the real hnefi binary and checks its output and exit status for good
 * and bad arguments (every bad path must print an error naming the problem and exit non-zero).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

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

/* Checks that a command fails with a message containing want. */
static void bad(const char *args, const char *want) {
    static char out[1 << 16];
    int st = run(args, out, sizeof out);
    if (!check_record(st != 0 && st != -1 && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
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

/* Runs every command-line test. */
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
    bad("analyze --time", "option --time needs a value");
    bad("analyze --weights ''", "option --weights needs a file");
    bad("analyze --hash lots", "--hash 'lots'");
    bad("analyze --threads 0", "--threads '0'");
    bad("analyze --weights foo=1", "unknown evaluation weight 'foo'");
    bad("analyze --weights attacker=x", "expected name=integer");
    bad("analyze --weights /nonexistent/w.txt", "cannot open /nonexistent/w.txt");
    bad("analyze --weights", "needs a file");
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
    return check_done();
}
